/* Tie libc.so.6 and libpthread.so.0 to a patched ld.so.  Linux version.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat (the glibc 2.31 backport).

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

/* Built into libc.so.6 and libpthread.so.0 (not into the static
   libraries, which carry their own dl-rseq).  A stock glibc 2.31 ld.so
   allocates the main thread's descriptor without the series' rseq
   fields, so a patched libc.so.6 (sched_getcpu) or libpthread.so.0
   (pthread_create) under it would read and write past the end of that
   descriptor.  A reference to a GLIBC_2.35 symbol of ld.so makes the
   loader refuse such a mix at startup, before any code of either
   library runs: "version `GLIBC_2.35' not found (required by
   libc.so.6)".  The reference is a data relocation, which ld.so
   resolves while loading whatever the binding mode.  The opposite mix
   (stock libraries under a patched ld.so) fails on the tunables reader,
   which the series exports under another name (elf/dl-tunables.h).  */

#ifdef SHARED
# include <sys/rseq.h>

static const unsigned int *const rseq_ldso_guard __attribute__ ((used))
  = &__rseq_size;
#endif
