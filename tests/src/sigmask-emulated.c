/* A seccomp filter traps rt_sigprocmask and the program's SIGSYS
   handler does the call's work on the interrupted context's mask (an
   emulating supervisor).  main blocks SIGTERM, leaves SIGUSR1 and
   SIGINT open, creates a thread and vforks; prints the creator's mask
   after pthread_create and the new thread's, and main's after vfork.
     1: every rt_sigprocmask trapped; the handler writes the old mask
     2: SIG_SETMASK trapped; the handler sets the mask and ignores the
        old-mask pointer (as for a program that never passes one)
     3: SIG_SETMASK trapped; the handler writes the old mask
     4: as 3, but the handler takes the set for given, as for callers
        that only ever set a mask (107th review, N5: a read made as
        SIG_SETMASK without a set crashed it)
     5: as 3, but the handler takes no set for an empty one (N6: such a
        read unblocked the creator's and the thread's signals)
     6: SIG_BLOCK trapped; the handler blocks the set, taken for given,
        and writes the old mask (109th review, S4: the shim's read in
        musl's pthread_create, SIG_BLOCK with no set, crashed it)
   The program's own reads are SIG_UNBLOCK of the empty set, which
   every mode's handler can emulate.
   usage: ./sigmask-emulated MODE
   seccomp.exp (glibc; musl too in mode 6: alone, musl dies under the
   others, with SIGSYS blocked around its clone, and it blocks with
   SIG_BLOCK, whose set it passes) requires the C library's output: 105th
   review, Q4, where the shim's block, a SIG_SETMASK whose old mask came
   back unwritten, was taken for one not done, and the creator and its
   thread kept every asynchronous signal blocked.
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
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "sigsys-context.h"

static int mode;
static volatile int t_usr1 = -1, t_term = -1;

static void
read_mask (sigset_t *m)
{
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_UNBLOCK, &none, m);
}

static void *
report (void *arg)
{
  sigset_t m;
  read_mask (&m);
  t_usr1 = sigismember (&m, SIGUSR1);
  t_term = sigismember (&m, SIGTERM);
  return arg;
}

static void
on_sigsys (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
  ucontext_t *uc = ctx;
  int how = (int) ARG (uc, 0);
  const uint64_t *set = (const uint64_t *) ARG (uc, 1);
  uint64_t *old = (uint64_t *) ARG (uc, 2);
  uint64_t cur, now;
  memcpy (&cur, &uc->uc_sigmask, sizeof cur);
  now = cur;
  if (mode == 6)
    now = cur | *set;
  else if (mode == 4 || (mode == 5 && set == NULL))
    now = mode == 4 ? *set : 0;
  else if (set != NULL)
    now = how == SIG_BLOCK ? cur | *set
          : how == SIG_UNBLOCK ? cur & ~*set : *set;
  now &= ~(((uint64_t) 1 << (SIGKILL - 1)) | ((uint64_t) 1 << (SIGSTOP - 1)));
  memcpy (&uc->uc_sigmask, &now, sizeof now);
  if (old != NULL && mode != 2)
    *old = cur;
  RESULT (uc) = 0;
}

int
main (int argc, char **argv)
{
  mode = argc > 1 ? atoi (argv[1]) : 1;
  sigset_t m;
  sigemptyset (&m);
  sigaddset (&m, SIGTERM);
  sigprocmask (SIG_SETMASK, &m, NULL);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigaction (SIGSYS, &sa, NULL);
  /* Every call (mode 1), or those whose how is SIG_SETMASK (SIG_BLOCK
     in mode 6).  */
  struct sock_filter f[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 0, 4),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[0])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, mode == 6 ? SIG_BLOCK : SIG_SETMASK,
              1, 0),
    BPF_STMT (BPF_RET | BPF_K, mode == 1 ? SECCOMP_RET_TRAP
                                         : SECCOMP_RET_ALLOW),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof f / sizeof f[0], f };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    {
      perror ("seccomp");
      return 2;
    }
  pthread_t t;
  int err = pthread_create (&t, NULL, report, NULL);
  if (err == 0)
    pthread_join (t, NULL);
  sigset_t c, v;
  read_mask (&c);
  /* The shim pauses signals around a vfork too (glibc, x86-64).  */
  int status = -1;
  pid_t pid = vfork ();
  if (pid == 0)
    _exit (7);
  if (pid > 0)
    waitpid (pid, &status, 0);
  read_mask (&v);
  printf ("sigmask-emulated %d: pthread_create %d; creator after: USR1 %d"
          " TERM %d INT %d; thread: USR1 %d TERM %d; vfork: child %d,"
          " after: USR1 %d TERM %d\n", mode, err,
          sigismember (&c, SIGUSR1), sigismember (&c, SIGTERM),
          sigismember (&c, SIGINT), t_usr1, t_term,
          WIFEXITED (status) ? WEXITSTATUS (status) : -1,
          sigismember (&v, SIGUSR1), sigismember (&v, SIGTERM));
  return 0;
}
