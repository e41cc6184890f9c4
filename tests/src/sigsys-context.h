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

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* The kernel's seccomp ABI, defined there where musl-gcc has no kernel
   headers.  */
#include "seccomp-abi.h"

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

/* Traps rt_sigprocmask SIG_SETMASK but the program's own calls, which
   carry MARK in an argument the kernel ignores; everything else is
   allowed.  0, or -1 with errno set.  */
static inline int
sigsys_trap_setmask (uint32_t mark)
{
  struct sock_filter f[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 0, 5),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[0])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SIG_SETMASK, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[4])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, mark, 1, 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof f / sizeof f[0], f };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    return -1;
  return 0;
}

/* The thread's mask (bit SIG - 1), by a call marked MARK.  */
static inline uint64_t
sigsys_mask_now (uint32_t mark)
{
  uint64_t m = ~(uint64_t) 0;
  syscall (SYS_rt_sigprocmask, SIG_SETMASK, NULL, &m, sizeof m, mark);
  return m;
}

/* A trapped SIG_SETMASK's work, on the mask UC returns to: the old
   mask written where asked for, the new one set where given (never
   SIGKILL or SIGSTOP, as the kernel), and 0 returned.  */
static inline void
sigsys_do_setmask (ucontext_t *uc)
{
  const uint64_t *set = (const uint64_t *) ARG (uc, 1);
  uint64_t *old = (uint64_t *) ARG (uc, 2);
  uint64_t cur;
  memcpy (&cur, &uc->uc_sigmask, sizeof cur);
  if (old != NULL)
    *old = cur;
  if (set != NULL)
    {
      uint64_t now = *set & ~(((uint64_t) 1 << (SIGKILL - 1))
                              | ((uint64_t) 1 << (SIGSTOP - 1)));
      memcpy (&uc->uc_sigmask, &now, sizeof now);
    }
  RESULT (uc) = 0;
}

#endif
