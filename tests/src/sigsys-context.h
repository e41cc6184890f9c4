/* A trapped system call's arguments and result, in the context that a
   seccomp filter's SIGSYS handler receives (SECCOMP_RET_TRAP), for the
   tests whose handlers do the call's work themselves.
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

#ifndef SIGSYS_CONTEXT_H
#define SIGSYS_CONTEXT_H 1

#include <ucontext.h>

/* The kernel leaves the trapped call's registers as they were at the
   system call instruction (syscall_rollback) and the program counter
   after it, and returns RESULT's register to it; AGAIN makes the call
   again once the handler returns.  */
#if defined __x86_64__
# define ARG(uc, n) ((uc)->uc_mcontext.gregs[(int[]) { REG_RDI, REG_RSI, \
                                                        REG_RDX } [n]])
# define RESULT(uc) ((uc)->uc_mcontext.gregs[REG_RAX])
# define AGAIN(uc) ((uc)->uc_mcontext.gregs[REG_RIP] -= 2)
#elif defined __aarch64__
# define ARG(uc, n) ((uc)->uc_mcontext.regs[n])
# define RESULT(uc) ((uc)->uc_mcontext.regs[0])
# define AGAIN(uc) ((uc)->uc_mcontext.pc -= 4)
#else
# error "an architecture of the project's"
#endif

#endif
