/* Fuzz target: the GLIBC_TUNABLES reader (shim/tunables.c).
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.

   rseq-compat is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   rseq-compat is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with rseq-compat; if not, see
   <https://www.gnu.org/licenses/>.  */

/* The input, up to its first NUL, is one GLIBC_TUNABLES value.  It is
   applied from both starting states, so that a value that leaves the
   tunable alone and one that sets it are told apart.  The summary is
   "off" or "on" (the value alone, from the default), followed by
   "keep" when the value does not change the tunable.  */

#include <string.h>

#include "fuzz.h"
#include "model.h"
#include "shim.h"

void
fuzz_one (const uint8_t *data, size_t size, char *out, size_t outlen)
{
  /* An exact-size copy: a read past the terminator is caught by ASan.  */
  char *s = malloc (size + 1);
  FUZZ_CHECK (s != NULL, "out of memory");
  memcpy (s, data, size);
  s[size] = '\0';

  int from_on = __rseq_compat_tunable_rseq (s, 1);
  int from_off = __rseq_compat_tunable_rseq (s, 0);
  FUZZ_CHECK (from_on == model_rseq (s, 1) && from_off == model_rseq (s, 0),
              "value \"%s\": shim %d/%d, model %d/%d", s, from_on, from_off,
              model_rseq (s, 1), model_rseq (s, 0));
  FUZZ_CHECK (from_on == 0 || from_on == 1, "value \"%s\": %d", s, from_on);
  FUZZ_CHECK (__rseq_compat_tunable_off (s) == (from_on == 0),
              "value \"%s\": tunable_off disagrees", s);
  snprintf (out, outlen, "%s%s", from_on ? "on" : "off",
            from_on == 1 && from_off == 0 ? " keep" : "");
  free (s);
}
