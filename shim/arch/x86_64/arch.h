/* Per-architecture primitives for the shim.  x86-64 version.
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

#define RSEQ_COMPAT_NR_rseq 334
#define RSEQ_COMPAT_NR_getcpu 309

/* The vDSO's getcpu and the version node that carries it.  */
#define RSEQ_COMPAT_VDSO_GETCPU "__vdso_getcpu"
/* The dynamic relocation that copies a shared object's variable into
   the program (R_X86_64_COPY).  */
#define RSEQ_COMPAT_R_COPY 5

/* Version of dlsym in glibc before 2.34 moved it into libc.so.6.  */
#define RSEQ_COMPAT_GLIBC_BASE_VERSION "GLIBC_2.2.5"

static inline long int
rseq_compat_syscall4 (long int nr, long int a, long int b, long int c,
                      long int d)
{
  long int ret;
  register long int r10 __asm__ ("r10") = d;
  __asm__ volatile ("syscall"
                    : "=a" (ret)
                    : "0" (nr), "D" (a), "S" (b), "d" (c), "r" (r10)
                    : "rcx", "r11", "memory");
  return ret;
}

/* On x86-64 both glibc and musl keep the TCB's own address at %fs:0.  */
static inline char *
rseq_compat_thread_pointer (void)
{
  char *tp;
  __asm__ ("mov %%fs:0, %0" : "=r" (tp));
  return tp;
}

#endif
