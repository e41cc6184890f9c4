/* The GNU property note of the shim's assembly files.
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

/* The linker marks the library with a branch-protection feature (x86
   IBT and SHSTK, AArch64 BTI and PAC) only if every input object
   carries it in a .note.gnu.property; the compiler writes the note for
   C files, assembly files must write their own.  An unmarked preloaded
   library makes glibc turn the shadow stack off for the whole process,
   or refuse the library where it is enforced.  Each file states only
   what its own code honours: the architecture's asm.h computes
   RSEQ_COMPAT_PROPERTY_BITS from the compiler's predefined macros.

   One NT_GNU_PROPERTY_TYPE_0 note (ELF64 layout: 8-byte alignment)
   holding one 4-byte "AND" property of type TYPE.  */

#ifndef RSEQ_COMPAT_PROPERTY_NOTE_H
#define RSEQ_COMPAT_PROPERTY_NOTE_H 1

#define RSEQ_COMPAT_NT_GNU_PROPERTY_TYPE_0 5

	.macro rseq_compat_property_note type, bits
	.ifne \bits
	.pushsection .note.gnu.property, "a"
	.p2align 3
	.long 4			/* n_namesz: "GNU" and its NUL.  */
	.long 16		/* n_descsz: one property, padded to 8.  */
	.long RSEQ_COMPAT_NT_GNU_PROPERTY_TYPE_0
	.asciz "GNU"
	.long \type		/* pr_type */
	.long 4			/* pr_datasz */
	.long \bits
	.long 0			/* Padding to 8 bytes.  */
	.popsection
	.endif
	.endm

#endif
