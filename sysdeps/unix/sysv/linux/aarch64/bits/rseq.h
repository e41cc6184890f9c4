/* Restartable sequences: architecture-specific definitions.  AArch64 version.
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

/* The signature must decode as a trapping instruction (brk #0x45e0) in
   the instruction stream; instructions are little-endian even on
   big-endian AArch64, so the data value differs there.  */
#ifdef __AARCH64EB__
# define RSEQ_SIG_DATA 0x00bc28d4
#else
# define RSEQ_SIG_DATA 0xd428bc00
#endif
#define RSEQ_SIG_CODE 0xd428bc00
#define RSEQ_SIG RSEQ_SIG_DATA
