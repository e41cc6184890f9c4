/* Entry points that must not have a C stack frame.  x86-64 version.
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
   to it) from the return address, so the interposer must hand over with
   a jump, never a call, for every name it does not answer itself.

   vfork: the child borrows the parent's stack, so the return address
   is kept in a register across the system call.  Around it the parent's
   rseq registration is paused: the child shares the parent's TLS and
   would otherwise read the parent's cpu_id.  */

	.text

	.globl	dlsym
	.type	dlsym, @function
	.p2align 4
dlsym:
	.cfi_startproc
	push	%rdi
	.cfi_adjust_cfa_offset 8
	push	%rsi
	.cfi_adjust_cfa_offset 8
	sub	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	__rseq_compat_dlsym_hook
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	pop	%rsi
	.cfi_adjust_cfa_offset -8
	pop	%rdi
	.cfi_adjust_cfa_offset -8
	test	%rax, %rax
	jnz	1f
	jmp	*__rseq_compat_real_dlsym(%rip)
1:	ret
	.cfi_endproc
	.size	dlsym, .-dlsym

	.globl	vfork
	.type	vfork, @function
	.p2align 4
vfork:
	.cfi_startproc
	sub	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	__rseq_compat_vfork_prepare
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	pop	%rdi
	.cfi_adjust_cfa_offset -8
	.cfi_register %rip, %rdi
	mov	$58, %eax		/* __NR_vfork */
	syscall
	push	%rdi
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rip, 0
	sub	$8, %rsp
	.cfi_adjust_cfa_offset 8
	test	%rax, %rax
	jnz	1f
	call	__rseq_compat_vfork_child	/* Child: restore its mask.  */
	xor	%eax, %eax
	jmp	2f
1:	mov	%rax, %rdi
	call	__rseq_compat_vfork_resume
2:	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	vfork, .-vfork

	.section .note.GNU-stack,"",@progbits
