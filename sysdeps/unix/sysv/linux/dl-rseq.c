/* __rseq_offset, __rseq_size and __rseq_flags.  Linux version.
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

/* Part of ld.so (exported at GLIBC_2.35, as in glibc 2.35 and Red Hat's
   2.34) and of libc.a.  <sys/rseq.h> declares the variables const:
   programs must not write them.  This file defines them writable, for
   the main thread's registration (rseq-internal.h), and is the only
   one that may not include <sys/rseq.h>.  */

#include <stddef.h>

/* Written once, before RELRO protection: see rseq_register_main_thread.  */
ptrdiff_t __rseq_offset attribute_relro = 0;
unsigned int __rseq_size attribute_relro = 0;
/* No registration flag exists yet.  */
const unsigned int __rseq_flags = 0;

/* Hidden names for the writer.  Its stores must reach these objects,
   not a program's copy of them (a copy relocation, made later from
   these values, would otherwise be the one bound through the GOT).  */
extern ptrdiff_t _dl_rseq_offset attribute_hidden
  __attribute__ ((alias ("__rseq_offset")));
extern unsigned int _dl_rseq_size attribute_hidden
  __attribute__ ((alias ("__rseq_size")));
