/* The end of the shim's unwind tables.
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

/* The library is linked without the toolchain's start files (Makefile:
   crti.o and crtn.o of most distributions, and every start file of
   cross toolchains, lack the branch-protection notes, and one unmarked
   object leaves the whole library unmarked).  crtendS.o also ended
   .eh_frame with a zero-length entry, which unwinders that scan the
   section rather than .eh_frame_hdr's table stop at; this object, linked
   after the shim's own, supplies it.  */

#include <asm.h>

	.section .eh_frame, "a", %progbits
	.p2align 2
	.long 0

	RSEQ_COMPAT_PROPERTY_NOTE
	.section .note.GNU-stack, "", %progbits
