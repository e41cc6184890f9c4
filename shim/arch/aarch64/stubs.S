/* Entry points that must not have a C stack frame.  AArch64 version.
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

/* dlsym: glibc and musl find the caller of dlsym (RTLD_NEXT is relative
   to it) from the link register, so the interposer must hand over with
   a branch that leaves x30 as the caller set it.

   vfork: AArch64 has no vfork system call; clone with CLONE_VM and
   CLONE_VFORK does the same.  The child borrows the parent's stack, so
   nothing is kept there across the system call.  Around it the parent's
   rseq registration is paused: the child shares the parent's TLS.

   With -mbranch-protection each function starts on a landing pad that
   also signs x30 (asm.h), and x30 is authenticated again after it is
   loaded from the stack, before it is returned through or handed on.
   Neither stub takes a guarded control stack (GCS) into account: the
   assembler is not asked to mark them GCS-compatible, so a GCS build
   of glibc treats the library as it treats any unmarked one.  */

#include <asm.h>

	.text

/* Not in the archive: a static program's references to __rseq_* are
   resolved by the linker, so there is no loader lookup to answer, and
   the archive finds the C library's functions by name (static-real.c).  */
#if !RSEQ_COMPAT_STATIC
	.globl	dlsym
	.type	dlsym, %function
	.p2align 2
dlsym:
	.cfi_startproc
	RSEQ_COMPAT_ENTRY_SIGN_LR
	stp	x29, x30, [sp, -32]!
	.cfi_def_cfa_offset 32
	.cfi_offset 29, -32
	.cfi_offset 30, -24
	mov	x29, sp
	stp	x0, x1, [sp, 16]
	bl	__rseq_compat_dlsym_hook
	mov	x9, x0
	ldp	x0, x1, [sp, 16]
	ldp	x29, x30, [sp], 32
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	RSEQ_COMPAT_AUTH_LR
	cbnz	x9, 1f
	adrp	x16, __rseq_compat_real_dlsym
	ldr	x16, [x16, :lo12:__rseq_compat_real_dlsym]
	br	x16
1:	adrp	x10, __rseq_compat_dlsym_none
	add	x10, x10, :lo12:__rseq_compat_dlsym_none
	cmp	x9, x10
	csel	x0, xzr, x9, eq
	ret
	.cfi_endproc
	.size	dlsym, .-dlsym

#include <features.h>
#ifdef __GLIBC__
/* dlvsym, glibc's alone (musl has none, and the shim must not add
   one): the hook answers versioned lookups of pthread_create, which
   pass over the shim's unversioned definition, and those that would
   crash glibc on it (a version whose hash is 0: the hook's "none" is
   NULL), and hands every other call on with a branch that leaves x30
   as the caller set it.  */
	.globl	dlvsym
	.type	dlvsym, %function
	.p2align 2
dlvsym:
	.cfi_startproc
	RSEQ_COMPAT_ENTRY_SIGN_LR
	stp	x29, x30, [sp, -48]!
	.cfi_def_cfa_offset 48
	.cfi_offset 29, -48
	.cfi_offset 30, -40
	mov	x29, sp
	stp	x0, x1, [sp, 16]
	str	x2, [sp, 32]
	bl	__rseq_compat_dlvsym_hook
	mov	x9, x0
	ldp	x0, x1, [sp, 16]
	ldr	x2, [sp, 32]
	ldp	x29, x30, [sp], 48
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	RSEQ_COMPAT_AUTH_LR
	cbnz	x9, 1f
	adrp	x16, __rseq_compat_real_dlvsym
	ldr	x16, [x16, :lo12:__rseq_compat_real_dlvsym]
	br	x16
1:	adrp	x10, __rseq_compat_dlsym_none
	add	x10, x10, :lo12:__rseq_compat_dlsym_none
	cmp	x9, x10
	csel	x0, xzr, x9, eq
	ret
	.cfi_endproc
	.size	dlvsym, .-dlvsym
#endif
#endif /* !RSEQ_COMPAT_STATIC */

	.globl	vfork
	.type	vfork, %function
	.p2align 2
vfork:
	.cfi_startproc
	RSEQ_COMPAT_ENTRY_SIGN_LR
	stp	x29, x30, [sp, -16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov	x29, sp
	bl	__rseq_compat_vfork_prepare
	/* Whether this call paused, in a register the system call keeps
	   (in both tasks), for the child's and the parent's calls after
	   it: not in the TLS the child shares.  */
	mov	w9, w0
	ldp	x29, x30, [sp], 16
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	RSEQ_COMPAT_AUTH_LR
	mov	x0, #0x4111		/* CLONE_VM | CLONE_VFORK | SIGCHLD */
	mov	x1, xzr
	mov	x2, xzr
	mov	x3, xzr
	mov	x4, xzr
	mov	x8, #220		/* __NR_clone */
	svc	0
	RSEQ_COMPAT_SIGN_LR
	stp	x29, x30, [sp, -16]!
	.cfi_def_cfa_offset 16
	.cfi_offset 29, -16
	.cfi_offset 30, -8
	mov	x29, sp
	cbnz	x0, 1f
	mov	w0, w9
	bl	__rseq_compat_vfork_child	/* Child: restore its mask.  */
	mov	x0, xzr
	b	2f
1:	mov	w1, w9
	bl	__rseq_compat_vfork_resume
2:	ldp	x29, x30, [sp], 16
	.cfi_restore 29
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	RSEQ_COMPAT_AUTH_LR
	ret
	.cfi_endproc
	.size	vfork, .-vfork

	RSEQ_COMPAT_PROPERTY_NOTE
	.section .note.GNU-stack,"",%progbits
