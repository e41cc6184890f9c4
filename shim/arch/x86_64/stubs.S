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
   would otherwise read the parent's cpu_id.

   The child also shares the parent's shadow stack (the kernel gives a
   CLONE_VFORK child none of its own) and starts with the parent's
   shadow-stack pointer, which still designates the entry that the call
   of vfork pushed.  Shadow-stack pointers are per task, but the memory
   is shared: if the child popped that entry (ret, or INCSSP), its next
   call would push its own return address into the same slot, and the
   parent's ret from vfork would then find a foreign address there and
   fault.  So in the child, when a shadow stack is active (RDSSP reads a
   nonzero pointer; it leaves its register alone, hence zero, where there
   is none), the return address goes to a register and is jumped to,
   leaving the entry in place: the child's own calls push below it, the
   parent returns through it with ret.  The child can never return from
   the function that called vfork (the stale entry would not match), which
   a vfork child must not do anyway.  Compilers put endbr64 after every
   call of vfork (a returns_twice function), so the jump also lands where
   IBT allows it.  The parent, and every process without a shadow stack,
   return with ret.  */

#include <asm.h>

	.text

/* Not in the archive: a static program's references to __rseq_* are
   resolved by the linker, so there is no loader lookup to answer, and
   the archive finds the C library's functions by name (static-real.c).  */
#if !RSEQ_COMPAT_STATIC
	.globl	dlsym
	.type	dlsym, @function
	.p2align 4
dlsym:
	.cfi_startproc
	RSEQ_COMPAT_LANDING_PAD
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
1:	lea	__rseq_compat_dlsym_none(%rip), %rcx
	cmp	%rcx, %rax
	jne	2f
	xor	%eax, %eax
2:	ret
	.cfi_endproc
	.size	dlsym, .-dlsym

#include <features.h>
#ifdef __GLIBC__
/* dlvsym, glibc's alone (musl has none, and the shim must not add
   one): the hook answers versioned lookups of pthread_create, which
   pass over the shim's unversioned definition, and those that would
   crash glibc on it (a version whose hash is 0: the hook's "none" is
   NULL), and hands every other call on with a jump, as dlsym does.
   Three pushes keep the stack 16-byte aligned for the call.  */
	.globl	dlvsym
	.type	dlvsym, @function
	.p2align 4
dlvsym:
	.cfi_startproc
	RSEQ_COMPAT_LANDING_PAD
	push	%rdi
	.cfi_adjust_cfa_offset 8
	push	%rsi
	.cfi_adjust_cfa_offset 8
	push	%rdx
	.cfi_adjust_cfa_offset 8
	call	__rseq_compat_dlvsym_hook
	pop	%rdx
	.cfi_adjust_cfa_offset -8
	pop	%rsi
	.cfi_adjust_cfa_offset -8
	pop	%rdi
	.cfi_adjust_cfa_offset -8
	test	%rax, %rax
	jnz	1f
	jmp	*__rseq_compat_real_dlvsym(%rip)
1:	lea	__rseq_compat_dlsym_none(%rip), %rcx
	cmp	%rcx, %rax
	jne	2f
	xor	%eax, %eax
2:	ret
	.cfi_endproc
	.size	dlvsym, .-dlvsym
#endif
#endif /* !RSEQ_COMPAT_STATIC */

	.globl	vfork
	.type	vfork, @function
	.p2align 4
vfork:
	.cfi_startproc
	RSEQ_COMPAT_LANDING_PAD
	sub	$8, %rsp
	.cfi_adjust_cfa_offset 8
	call	__rseq_compat_vfork_prepare
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	/* Whether this call paused, in a register the system call keeps
	   (in both tasks), for the child's and the parent's calls after
	   it: not in the TLS the child shares.  */
	mov	%eax, %esi
#if !RSEQ_COMPAT_STATIC && defined __GLIBC__
	cmpq	$0, __rseq_compat_libc_vfork(%rip)
	jne	3f
#endif
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
	mov	%esi, %edi
	call	__rseq_compat_vfork_child	/* Child: restore its mask.  */
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	xor	%ecx, %ecx
	rdsspq	%rcx
	xor	%eax, %eax
	test	%rcx, %rcx
	jz	2f
	.cfi_remember_state
	pop	%rdi			/* Child on a shadow stack.  */
	.cfi_adjust_cfa_offset -8
	.cfi_register %rip, %rdi
	jmp	*%rdi
	.cfi_restore_state
1:	.cfi_adjust_cfa_offset 8
	mov	%rax, %rdi		/* %esi: whether it paused.  */
	call	__rseq_compat_vfork_resume
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
2:	ret
#if !RSEQ_COMPAT_STATIC && defined __GLIBC__
	/* glibc before 2.25 (thread.c): its own vfork, which keeps the
	   child's getpid right.  Our return address in %r8 and whether
	   this call paused in %r9: that vfork leaves both alone, and the
	   system call too, in both tasks.  */
3:
	pop	%r8
	.cfi_adjust_cfa_offset -8
	.cfi_register %rip, %r8
	mov	%esi, %r9d
	call	*__rseq_compat_libc_vfork(%rip)
	push	%r8
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rip, 0
	sub	$8, %rsp
	.cfi_adjust_cfa_offset 8
	mov	%r9d, %esi
	test	%rax, %rax
	jnz	4f
	mov	%esi, %edi
	call	__rseq_compat_vfork_child	/* Child: restore its mask.  */
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	xor	%eax, %eax
	ret
4:	.cfi_adjust_cfa_offset 8
	mov	%rax, %rdi		/* A PID, or -1 with errno set.  */
	call	__rseq_compat_vfork_resume_libc
	add	$8, %rsp
	.cfi_adjust_cfa_offset -8
	ret
#endif
	.cfi_endproc
	.size	vfork, .-vfork

	RSEQ_COMPAT_PROPERTY_NOTE
	.section .note.GNU-stack,"",@progbits
