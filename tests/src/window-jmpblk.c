/* A handler run right after the patched 2.31's window has blocked its
   signals leaves by siglongjmp without a saved mask (106th review, B3:
   the window was recorded only after the block, so that jump did not
   end it, and the creator kept every asynchronous signal blocked for
   good).  A seccomp filter traps rt_sigprocmask SIG_SETMASK with a set
   (the program's own calls carry a mark and pass); the SIGSYS handler
   emulates it and, at the first such call inside pthread_create, sends
   the thread SIGTRAP, which its mask defers until the handler returns,
   that is, until the block has taken effect.  The SIGTRAP handler
   jumps back to main.  Where no call is trapped (stock 2.31), main
   sends SIGTRAP itself after pthread_create.  Prints main's mask after
   the jump (hex, bit SIG-1): with SIGTERM blocked before, stock 2.31
   gives SIGTERM and SIGTRAP (the jump kept the handler's mask).
   usage: ./window-jmpblk
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
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "sigsys-context.h"

/* The mark of the program's own calls, in an argument the kernel
   ignores.  */
#define MARK 0x6a6d70

static sigjmp_buf back;
static volatile int armed, sent, jumped;

static uint64_t
mask_now (void)
{
  uint64_t m = ~(uint64_t) 0;
  syscall (SYS_rt_sigprocmask, SIG_SETMASK, NULL, &m, sizeof m, MARK);
  return m;
}

static void *
body (void *arg)
{
  return arg;
}

static void
on_trap (int sig)
{
  (void) sig;
  jumped = 1;
  siglongjmp (back, 1);
}

static void
on_sigsys (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
  ucontext_t *uc = ctx;
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
      if (armed)
        {
          armed = 0;
          sent = 1;
          syscall (SYS_tgkill, getpid (), syscall (SYS_gettid), SIGTRAP);
        }
    }
  RESULT (uc) = 0;
}

int
main (void)
{
  sigset_t m;
  sigemptyset (&m);
  sigaddset (&m, SIGTERM);
  sigprocmask (SIG_SETMASK, &m, NULL);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO;
  sigaddset (&sa.sa_mask, SIGTRAP);
  sigaction (SIGSYS, &sa, NULL);
  signal (SIGTRAP, on_trap);
  /* SIG_SETMASK without the mark trapped; everything else allowed.  */
  struct sock_filter f[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 0, 5),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[0])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SIG_SETMASK, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[4])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, MARK, 1, 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof f / sizeof f[0], f };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    {
      perror ("window-jmpblk: seccomp");
      return 2;
    }
  if (sigsetjmp (back, 0) == 0)
    {
      pthread_t t;
      armed = 1;
      int err = pthread_create (&t, NULL, body, NULL);
      armed = 0;
      if (err == 0)
        pthread_join (t, NULL);
      if (!sent)
        syscall (SYS_tgkill, getpid (), syscall (SYS_gettid), SIGTRAP);
    }
  printf ("window-jmpblk: jumped %d, main after %#llx\n", jumped,
          (unsigned long long) mask_now ());
  return 0;
}
