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
   With "restore", the SIGSYS handler itself leaves by siglongjmp, at
   the creator's second trapped call (the restore, after the window's
   record was taken back), without doing its work: the limit doc/glibc.md
   gives (108th review, F3) is that the creator keeps the window's
   blocking, where stock 2.31, whose pthread_create makes no such call
   (main makes one after it), keeps SIGTERM and the handler's SIGSYS and
   SIGTRAP.
   usage: ./window-jmpblk [restore]
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
/* "restore": the main thread's trapped SIG_SETMASK calls with a set
   counted while armed, and the one the handler leaves from.  */
static volatile int restore_mode, counted, jump_at;

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
  int set = ARG (uc, 1) != 0;
  if (restore_mode)
    {
      if (set && syscall (SYS_gettid) == getpid ()
          && ++counted == jump_at)
        {
          jumped = 1;
          siglongjmp (back, 1);
        }
      sigsys_do_setmask (uc);
      return;
    }
  sigsys_do_setmask (uc);
  if (set && armed)
    {
      armed = 0;
      sent = 1;
      syscall (SYS_tgkill, getpid (), syscall (SYS_gettid), SIGTRAP);
    }
}

int
main (int argc, char **argv)
{
  restore_mode = argc > 1 && strcmp (argv[1], "restore") == 0;
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
  if (sigsys_trap_setmask (MARK) != 0)
    {
      perror ("window-jmpblk: seccomp");
      return 2;
    }
  static pthread_t t;
  static int made;
  if (restore_mode)
    {
      if (sigsetjmp (back, 0) == 0)
        {
          /* The patched creator's block is the first call, its restore
             the second.  */
          jump_at = 2;
          made = pthread_create (&t, NULL, body, NULL) == 0;
          if (!jumped)
            {
              /* Stock: no call was trapped; main's own, unmarked.  */
              jump_at = counted + 1;
              syscall (SYS_rt_sigprocmask, SIG_SETMASK, &m, NULL, 8);
            }
        }
      printf ("window-jmpblk restore: jumped %d, main after %#llx\n", jumped,
              (unsigned long long) sigsys_mask_now (MARK));
      /* A creation left by the jump is not joined: what it had still
         to do (unlock the new thread's start) was never done.  */
      if (made && !jumped)
        pthread_join (t, NULL);
      return 0;
    }
  if (sigsetjmp (back, 0) == 0)
    {
      armed = 1;
      int err = pthread_create (&t, NULL, body, NULL);
      made = err == 0;
      armed = 0;
      if (made)
        pthread_join (t, NULL);
      if (!sent)
        syscall (SYS_tgkill, getpid (), syscall (SYS_gettid), SIGTRAP);
    }
  printf ("window-jmpblk: jumped %d, main after %#llx\n", jumped,
          (unsigned long long) sigsys_mask_now (MARK));
  return 0;
}
