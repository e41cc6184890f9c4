/* An ordinary asynchronous handler that runs in pthread_create just
   before the patched 2.31's clone window has blocked its signals, with
   the window recorded and not yet begun (107th review, N1-N4: it was
   taken for a handler running inside the window).  A seccomp filter
   traps rt_sigprocmask SIG_SETMASK (the program's own calls carry a
   mark and pass), and the SIGSYS handler does the call's work; at the
   first such call with a set inside pthread_create, before doing it,
   it sends the thread SIGUSR1, whose handler (sa_mask SIGUSR2) then
   runs there.  Where no call is trapped (stock 2.31), main makes one
   such call itself after pthread_create, so that the handlers run
   nested alike, with the same masks.  The SIGUSR1 handler, by MODE:
     jmp      siglongjmp without a saved mask back to main: main's mask
              after is the handler's;
     create   creates a thread, which reports its mask: the handler's;
     ctx      setcontext back into main, abandoning the creation; main
              then blocks SIGINT, creates a thread from deeper frames,
              and longjmps (no handler) from there: the thread and main
              after keep SIGINT blocked;
     exhaust  as ctx, four times over from main's frame; then a fifth
              creation, whose window a SIGTRAP handler leaves by
              siglongjmp without a saved mask (as window-jmpblk.c):
              main's mask after is the handler's less the window's
              blocking (108th review, F1: the four abandoned records,
              never ended, filled the table, the fifth window went
              unrecorded, and every asynchronous signal stayed blocked);
     autodis  on a signal stack armed with SS_AUTODISARM, in main's
              frame, creates a thread (the SIGSYS handler defers SIGUSR1
              and has the call made again: every handler's frame
              disarms such a stack until it returns); the call's work
              done, the SIGSYS handler sends SIGTRAP, taken once the
              window's block has begun, whose handler leaves by
              siglongjmp without a saved mask: stock 2.31 gives main the
              handler's mask; the series, whose creation in the handler
              ended the outer window (the kernel reports no signal stack
              there), leaves it the window's (doc/glibc.md, a limit).
   Prints the masks (hex, bit SIG-1; main blocks SIGTERM first) on one
   line, then whether the SIGUSR1 came from inside pthread_create.
   usage: ./window-early MODE
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
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include "sigsys-context.h"

#ifndef SS_AUTODISARM
# define SS_AUTODISARM (1U << 31)
#endif

/* The mark of the program's own calls, in an argument the kernel
   ignores.  */
#define MARK 0x6561726c

static const char *mode;
static sigjmp_buf back;
static jmp_buf plain;
static ucontext_t before;
static volatile int armed, jump_armed, creating, inside, abandoned;
/* The trapped call's set, which the call made again passes too (the
   handler's own creation's calls pass theirs).  */
static const uint64_t *volatile again;
static volatile uint64_t inner = ~(uint64_t) 0, deep = ~(uint64_t) 0;

static uint64_t
mask_now (void)
{
  return sigsys_mask_now (MARK);
}

static void
send_self (int sig)
{
  syscall (SYS_tgkill, getpid (), syscall (SYS_gettid), sig);
}

static void *
report (void *arg)
{
  *(volatile uint64_t *) arg = mask_now ();
  return NULL;
}

static void
create_report (volatile uint64_t *into)
{
  pthread_t t;
  if (pthread_create (&t, NULL, report, (void *) into) == 0)
    pthread_join (t, NULL);
}

static void
on_usr1 (int sig)
{
  (void) sig;
  if (strcmp (mode, "jmp") == 0)
    siglongjmp (back, 1);
  if (strcmp (mode, "ctx") == 0 || strcmp (mode, "exhaust") == 0)
    {
      abandoned++;
      setcontext (&before);
    }
  create_report (&inner);
}

static void
on_trap (int sig)
{
  (void) sig;
  siglongjmp (back, 1);
}

static void
on_sigsys (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
  ucontext_t *uc = ctx;
  const uint64_t *set = (const uint64_t *) ARG (uc, 1);
  int trigger = armed && set != NULL;
  int autodis = strcmp (mode, "autodis") == 0;
  if (trigger)
    {
      /* Before the call's work: nothing is blocked yet.  */
      armed = 0;
      inside = creating;
      send_self (SIGUSR1);
      if (autodis)
        {
          again = set;
          AGAIN (uc);
          return;
        }
    }
  sigsys_do_setmask (uc);
  /* Deferred by sa_mask until the block has taken effect.  */
  if ((again != NULL && set == again) || (jump_armed && set != NULL))
    {
      again = NULL;
      jump_armed = 0;
      send_self (SIGTRAP);
    }
}

static volatile int deep_jump = 1;

/* A few frames below main's, so that the creation's window lies below
   the one abandoned there.  */
static __attribute__ ((noinline)) void
deeper (int n)
{
  if (n > 0)
    {
      volatile char pad[512];
      pad[0] = (char) n;
      deeper (n - 1);
      (void) pad[0];
      return;
    }
  create_report (&deep);
  /* Always taken; read through volatile so that gcc, seeing no way
     back from the bottom, does not take deeper for endless recursion
     (-Winfinite-recursion, gcc 12).  */
  if (deep_jump)
    longjmp (plain, 1);
}

int
main (int argc, char **argv)
{
  mode = argc > 1 ? argv[1] : "jmp";
  if (strcmp (mode, "jmp") && strcmp (mode, "create") && strcmp (mode, "ctx")
      && strcmp (mode, "exhaust") && strcmp (mode, "autodis"))
    {
      fprintf (stderr,
               "usage: window-early jmp|create|ctx|exhaust|autodis\n");
      return 2;
    }
  sigset_t m;
  sigemptyset (&m);
  sigaddset (&m, SIGTERM);
  sigprocmask (SIG_SETMASK, &m, NULL);
  /* SA_NODEFER: the SIGUSR1 handler, nested in it, creates threads,
     whose calls trap again.  */
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigaddset (&sa.sa_mask, SIGTRAP);
  if (strcmp (mode, "autodis") == 0)
    sigaddset (&sa.sa_mask, SIGUSR1);
  sigaction (SIGSYS, &sa, NULL);
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaddset (&sa.sa_mask, SIGUSR2);
  /* Above the window's record, which lies in pthread_create's frames.  */
  char altstack[64 * 1024] __attribute__ ((aligned (16)));
  if (strcmp (mode, "autodis") == 0)
    {
      stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack,
                     .ss_flags = SS_AUTODISARM };
      if (sigaltstack (&ss, NULL) != 0)
        {
          perror ("window-early: sigaltstack");
          return 2;
        }
      sa.sa_flags = SA_ONSTACK;
    }
  sigaction (SIGUSR1, &sa, NULL);
  signal (SIGTRAP, on_trap);
  /* SIG_SETMASK without the mark trapped; everything else allowed.  */
  if (sigsys_trap_setmask (MARK) != 0)
    {
      perror ("window-early: seccomp");
      return 2;
    }
  uint64_t outer = ~(uint64_t) 0;
  getcontext (&before);
  if (strcmp (mode, "exhaust") == 0)
    {
      if (abandoned < 4)
        {
          armed = 1;
          create_report (&outer);
          if (armed)
            {
              uint64_t cur = mask_now ();
              syscall (SYS_rt_sigprocmask, SIG_SETMASK, &cur, NULL,
                       sizeof cur);
            }
          fprintf (stderr, "window-early: the creation was not abandoned\n");
          return 1;
        }
      if (sigsetjmp (back, 0) == 0)
        {
          jump_armed = 1;
          creating = 1;
          create_report (&outer);
          creating = 0;
          if (jump_armed)
            {
              uint64_t cur = mask_now ();
              syscall (SYS_rt_sigprocmask, SIG_SETMASK, &cur, NULL,
                       sizeof cur);
            }
        }
      inside = creating;
      printf ("window-early exhaust: abandoned %d, main after %#llx\n",
              abandoned, (unsigned long long) mask_now ());
      printf ("from inside pthread_create: %d\n", inside);
      return 0;
    }
  if (!abandoned && sigsetjmp (back, 0) == 0)
    {
      pthread_t t;
      armed = 1;
      creating = 1;
      int err = pthread_create (&t, NULL, report, &outer);
      creating = 0;
      if (err == 0)
        pthread_join (t, NULL);
      if (armed)
        {
          /* Stock: no call of pthread_create's was trapped.  */
          uint64_t cur = mask_now ();
          syscall (SYS_rt_sigprocmask, SIG_SETMASK, &cur, NULL, sizeof cur);
        }
    }
  if (strcmp (mode, "ctx") == 0)
    {
      sigaddset (&m, SIGINT);
      sigprocmask (SIG_BLOCK, &m, NULL);
      if (setjmp (plain) == 0)
        deeper (4);
      printf ("window-early ctx: abandoned %d, deep thread %#llx,"
              " main after %#llx\n", abandoned, (unsigned long long) deep,
              (unsigned long long) mask_now ());
    }
  else if (strcmp (mode, "create") == 0)
    printf ("window-early create: handler's thread %#llx, main's thread"
            " %#llx, main after %#llx\n", (unsigned long long) inner,
            (unsigned long long) outer, (unsigned long long) mask_now ());
  else if (strcmp (mode, "autodis") == 0)
    printf ("window-early autodis: handler's thread %#llx, main after"
            " %#llx\n", (unsigned long long) inner,
            (unsigned long long) mask_now ());
  else
    printf ("window-early jmp: main after %#llx\n",
            (unsigned long long) mask_now ());
  printf ("from inside pthread_create: %d\n", inside);
  return 0;
}
