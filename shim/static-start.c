/* Registering a static program's main thread before its constructors.
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

/* The shared library registers the main thread from a constructor of
   priority 101 in an object initialised first (init.c).  A static
   program has one object, whose constructors run in the order of
   their sections, so the archive asks for an earlier slot:

   - glibc runs .preinit_array before .init_array in a static program
     (static-pie included), after its TLS and its own rseq
     registration are set up;
   - musl never runs .preinit_array (its __libc_start_main walks
     .init_array alone), so there the entry goes to .init_array.00100,
     a priority below every one a program may write (101 and up; 0 to
     100 are the implementation's), which the linker sorts before
     them and before plain constructors.  */

#include "shim.h"

typedef void init_fn (void);

#if RSEQ_COMPAT_GLIBC
# define EARLY_SECTION ".preinit_array"
#else
# define EARLY_SECTION ".init_array.00100"
#endif

static init_fn *const early_init
  __attribute__ ((section (EARLY_SECTION), used))
  = __rseq_compat_static_init;
