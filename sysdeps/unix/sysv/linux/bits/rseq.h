/* Restartable sequences: the architecture's signature.  Generic version.
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

#ifndef _SYS_RSEQ_H
# error "Never use <bits/rseq.h> directly; include <sys/rseq.h> instead."
#endif

/* An architecture without a signature here defines no RSEQ_SIG: the
   kernel checks the 4 bytes before every abort handler against the
   signature given at registration, and which value is safe to place
   there (an instruction that traps, or one that disassemblers skip)
   is the architecture's choice.  Without one the C library registers
   nothing and __rseq_size stays 0, as glibc 2.35 does.  */
