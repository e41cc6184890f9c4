/* A program that defines __rseq_offset, __rseq_size and __rseq_flags
   itself (fallback definitions for a C library without them), const
   (read-only memory) unless built with -DWRITABLE, and exports them
   (-rdynamic): its own definitions interpose on the C library's and
   the shim's, and stay as it made them (glibc 2.35 and later write only
   their own).  differential.exp runs it with the shim and without.
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

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifdef WRITABLE
# define QUAL
#else
# define QUAL const
#endif

QUAL ptrdiff_t __rseq_offset = 7;
QUAL unsigned int __rseq_size = 3;
QUAL unsigned int __rseq_flags = 5;

int
main (int argc, char **argv)
{
  if (argc != 2 || strcmp (argv[1], "own-symbols") != 0)
    {
      fprintf (stderr, "usage: differential-ownsyms own-symbols\n");
      return 2;
    }
  printf ("own-symbols: offset %td, size %u, flags %u\n",
          *(volatile QUAL ptrdiff_t *) &__rseq_offset,
          *(volatile QUAL unsigned int *) &__rseq_size,
          *(volatile QUAL unsigned int *) &__rseq_flags);
  return 0;
}
