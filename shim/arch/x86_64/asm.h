/* Branch protection in the assembly files.  x86-64 version.
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

/* -fcf-protection predefines __CET__: bit 0 for indirect branch
   tracking (every indirect call or jump must land on endbr64), bit 1
   for the shadow stack (every ret must match the shadow stack's copy of
   its return address).  The property bits have the same values.  */

#ifndef RSEQ_COMPAT_ASM_H
#define RSEQ_COMPAT_ASM_H 1

#include <property-note.h>

#define RSEQ_COMPAT_GNU_PROPERTY_X86_FEATURE_1_AND 0xc0000002

#ifdef __CET__
# define RSEQ_COMPAT_PROPERTY_BITS (__CET__ & 3)
#else
# define RSEQ_COMPAT_PROPERTY_BITS 0
#endif

/* The first instruction of every global function: other objects reach
   it through their PLT, an indirect jump.  A NOP on processors and
   processes without IBT.  */
#if RSEQ_COMPAT_PROPERTY_BITS & 1
# define RSEQ_COMPAT_LANDING_PAD endbr64
#else
# define RSEQ_COMPAT_LANDING_PAD
#endif

#define RSEQ_COMPAT_PROPERTY_NOTE \
	rseq_compat_property_note RSEQ_COMPAT_GNU_PROPERTY_X86_FEATURE_1_AND, \
				  RSEQ_COMPAT_PROPERTY_BITS

#endif
