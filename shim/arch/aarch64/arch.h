/* Per-architecture primitives for the shim.  AArch64 version.
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

/* Raw system calls and the thread pointer.  The shim's earliest code
   runs inside an IFUNC resolver, before its own PLT is usable and before
   errno exists for it, so it cannot go through the C library.  */

#ifndef RSEQ_COMPAT_ARCH_H
#define RSEQ_COMPAT_ARCH_H 1

#define RSEQ_COMPAT_NR_rseq 293
#define RSEQ_COMPAT_NR_getcpu 168

/* AArch64 kernels export no getcpu in the vDSO: the slow path is the
   system call.  */
#undef RSEQ_COMPAT_VDSO_GETCPU

/* The dynamic relocation that copies a shared object's variable into
   the program (R_AARCH64_COPY).  */
#define RSEQ_COMPAT_R_COPY 1024

#define RSEQ_COMPAT_GLIBC_BASE_VERSION "GLIBC_2.17"

static inline long int
rseq_compat_syscall4 (long int nr, long int a, long int b, long int c,
                      long int d)
{
  register long int x8 __asm__ ("x8") = nr;
  register long int x0 __asm__ ("x0") = a;
  register long int x1 __asm__ ("x1") = b;
  register long int x2 __asm__ ("x2") = c;
  register long int x3 __asm__ ("x3") = d;
  __asm__ volatile ("svc 0"
                    : "+r" (x0)
                    : "r" (x8), "r" (x1), "r" (x2), "r" (x3)
                    : "memory");
  return x0;
}

static inline char *
rseq_compat_thread_pointer (void)
{
  char *tp;
  __asm__ ("mrs %0, tpidr_el0" : "=r" (tp));
  return tp;
}

#endif
