/* Branch protection in the assembly files.  AArch64 version.
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

/* -mbranch-protection predefines __ARM_FEATURE_BTI_DEFAULT (indirect
   branches must land on a BTI instruction in pages the loader maps
   guarded) and __ARM_FEATURE_PAC_DEFAULT (bit 0: return addresses are
   signed with key A, bit 1: with key B).  Property bits: 1 BTI, 2 PAC.  */

#ifndef RSEQ_COMPAT_ASM_H
#define RSEQ_COMPAT_ASM_H 1

#include <property-note.h>

#define RSEQ_COMPAT_GNU_PROPERTY_AARCH64_FEATURE_1_AND 0xc0000000

#if defined __ARM_FEATURE_BTI_DEFAULT && __ARM_FEATURE_BTI_DEFAULT
# define RSEQ_COMPAT_BTI 1
#else
# define RSEQ_COMPAT_BTI 0
#endif
#if defined __ARM_FEATURE_PAC_DEFAULT && (__ARM_FEATURE_PAC_DEFAULT & 3)
# define RSEQ_COMPAT_PAC 2
#else
# define RSEQ_COMPAT_PAC 0
#endif
#define RSEQ_COMPAT_PROPERTY_BITS (RSEQ_COMPAT_BTI | RSEQ_COMPAT_PAC)

/* Sign x30 before it is stored on the stack, authenticate it after it
   is loaded back: a return address overwritten there then faults
   instead of being followed.  The stack pointer is the modifier, so
   both must run with the same sp.  */
#if RSEQ_COMPAT_PAC && (__ARM_FEATURE_PAC_DEFAULT & 2)
# define RSEQ_COMPAT_SIGN_LR pacibsp; .cfi_negate_ra_state
# define RSEQ_COMPAT_AUTH_LR autibsp; .cfi_negate_ra_state
#elif RSEQ_COMPAT_PAC
# define RSEQ_COMPAT_SIGN_LR paciasp; .cfi_negate_ra_state
# define RSEQ_COMPAT_AUTH_LR autiasp; .cfi_negate_ra_state
#else
# define RSEQ_COMPAT_SIGN_LR
# define RSEQ_COMPAT_AUTH_LR
#endif

/* The first instruction of every global function (other objects reach
   it through their PLT's br x17), which then runs RSEQ_COMPAT_AUTH_LR
   before it uses x30 again.  PACIASP and PACIBSP are themselves landing
   pads for calls, as GCC relies on; without PAC, BTI c is.  Both are
   NOPs where the feature is absent.  */
#if RSEQ_COMPAT_PAC
# define RSEQ_COMPAT_ENTRY_SIGN_LR RSEQ_COMPAT_SIGN_LR
#elif RSEQ_COMPAT_BTI
# define RSEQ_COMPAT_ENTRY_SIGN_LR bti c
#else
# define RSEQ_COMPAT_ENTRY_SIGN_LR
#endif

#define RSEQ_COMPAT_PROPERTY_NOTE \
	rseq_compat_property_note \
	  RSEQ_COMPAT_GNU_PROPERTY_AARCH64_FEATURE_1_AND, \
	  RSEQ_COMPAT_PROPERTY_BITS

#endif
