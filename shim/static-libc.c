/* A static program's C library and its own __rseq_* symbols.
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

/* A static glibc 2.35 or later registers the main thread in its
   start-up code and every thread it starts, and defines __rseq_offset,
   __rseq_size and __rseq_flags (strong, in libc.a); the archive's are
   weak (early.c), so the linker resolved every reference, the
   program's and glibc's own, to glibc's.  Where the symbols are not
   the archive's storage, they are the C library's: the archive then
   steps aside exactly as the shared library does in front of glibc's
   loader, reading them and never writing them.  */

#include "shim.h"

int
__rseq_compat_static_libc_abi (const ptrdiff_t **offset,
                               const unsigned int **size)
{
  const ptrdiff_t *o = &__rseq_offset;
  const unsigned int *s = &__rseq_size;
  const void *own = &__rseq_compat_size;
  /* Through an empty asm: the compiler may otherwise decide that two
     differently named objects never share an address, and fold the
     comparison that tells the definitions apart.  */
  __asm__ ("" : "+r" (s), "+r" (own));
  if ((const void *) s == own)
    return 0;
  *offset = o;
  *size = s;
  return 1;
}
