/* rseq_compat_query: what the shim decided at load time, for rseq-compat info.
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

/* Only the shim knows some of what explains its mode: the error the
   kernel gave its probe, the length it registers with (which can fall
   back to 32 when the kernel asks for more than the shim's area holds)
   and the length glibc registered with.  One function with named keys
   keeps the exported interface to a single symbol that needs no header
   and can grow without new symbols.  Documented in rseq-compat.h(3).  */

#include <errno.h>
#include <string.h>

#include "shim.h"

attribute_public long int
rseq_compat_query (const char *key)
{
  const struct rseq_compat_state *st = &__rseq_compat_state;

  /* A second copy answers for the first (see early.c).  */
  if (st->primary_query != NULL)
    return st->primary_query (key);

  if (key == NULL)
    ;
  else if (strcmp (key, "registration_length") == 0)
    switch (st->mode)
      {
      case RSEQ_COMPAT_MODE_SHIM_OWNED:
        return st->layout.reg_len;
      case RSEQ_COMPAT_MODE_LIBC_OWNED:
        return st->libc_reg_len;
      default:
        return 0;
      }
  else if (strcmp (key, "area_alignment") == 0)
    return st->mode == RSEQ_COMPAT_MODE_SHIM_OWNED ? (long int) st->layout.align
                                                   : 0;
  else if (strcmp (key, "legacy_fallback") == 0)
    return st->mode == RSEQ_COMPAT_MODE_SHIM_OWNED
           && st->layout.reg_len == RSEQ_LAYOUT_LEGACY_LEN
           && st->layout.feature_size > RSEQ_LAYOUT_LEGACY_LEN;
  else if (strcmp (key, "probe_errno") == 0)
    return st->mode == RSEQ_COMPAT_MODE_UNAVAILABLE ? st->probe_errno : 0;
  else if (strcmp (key, "thread_registered") == 0)
    return __rseq_compat_registered;
  errno = EINVAL;
  return -1;
}
