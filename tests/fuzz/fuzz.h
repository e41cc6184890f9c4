/* Common parts of the fuzz targets (tests/fuzz).
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

/* Each target defines fuzz_one, which runs one input through a piece of
   the shim, checks the answer against an independent model of the rule
   it implements, aborts with a message on any disagreement, and writes a
   one-line summary of the answer to OUT.  libfuzzer.c wraps it for
   libFuzzer; replay.c runs corpus files through it for make check.  */

#ifndef RSEQ_COMPAT_FUZZ_H
#define RSEQ_COMPAT_FUZZ_H 1

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void fuzz_one (const uint8_t *data, size_t size, char *out, size_t outlen);

#define FUZZ_CHECK(cond, ...)                                           \
  do                                                                    \
    {                                                                   \
      if (!(cond))                                                      \
        {                                                               \
          fprintf (stderr, "FAIL %s:%d: ", __FILE__, __LINE__);         \
          fprintf (stderr, __VA_ARGS__);                                \
          fputc ('\n', stderr);                                         \
          abort ();                                                     \
        }                                                               \
    }                                                                   \
  while (0)

#endif
