/* window-gap: a handler that changes the mask its thread returns to
   (uc->uc_sigmask, honoured by rt_sigreturn), run by a signal that
   arrives inside pthread_create.  Stock 2.31: the change always
   stays.  Counts creations after which the handler had run but the
   creator's mask (and the new thread's) lacks the handler's SIGUSR2.
   make check-glibc (build-aux/glibc/mask-filters.sh) compares its
   output on the patched 2.31 with stock 2.31's (102nd review, Q2: the
   series read the mask and blocked in two calls, and a handler run
   between them lost its change).
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
#define _GNU_SOURCE 1
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static volatile sig_atomic_t ran;
static volatile pid_t main_tid;
static volatile int stop;
static volatile int go;
static volatile int spin_max = 4000;

static void
handler (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
  ucontext_t *uc = ctx;
  sigaddset (&uc->uc_sigmask, SIGUSR2);
  ran = 1;
}

static void *
sender (void *arg)
{
  unsigned int seed = 1;
  while (!stop)
    {
      while (!go && !stop)
        ;
      if (stop)
        break;
      int d = rand_r (&seed) % spin_max;
      for (volatile int i = 0; i < d; i++)
        ;
      syscall (SYS_tgkill, getpid (), main_tid, SIGUSR1);
      go = 0;
    }
  return arg;
}

static volatile int thread_has;
static void *
thread (void *arg)
{
  sigset_t m;
  pthread_sigmask (SIG_BLOCK, NULL, &m);
  thread_has = sigismember (&m, SIGUSR2);
  return arg;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 3000;
  if (argc > 2)
    spin_max = atoi (argv[2]);
  struct sigaction sa = { .sa_sigaction = handler, .sa_flags = SA_SIGINFO };
  sigaction (SIGUSR1, &sa, NULL);
  main_tid = syscall (SYS_gettid);
  pthread_t s;
  pthread_create (&s, NULL, sender, NULL);
  int runs = 0, lost = 0;
  sigset_t u2;
  sigemptyset (&u2);
  sigaddset (&u2, SIGUSR2);
  for (int i = 0; i < n; i++)
    {
      pthread_sigmask (SIG_UNBLOCK, &u2, NULL);
      ran = 0;
      pthread_t t;
      go = 1;
      if (pthread_create (&t, NULL, thread, NULL) != 0)
        abort ();
      while (go)
        ;
      int r = ran;
      sigset_t m;
      pthread_sigmask (SIG_BLOCK, NULL, &m);
      pthread_join (t, NULL);
      if (r)
        {
          runs++;
          if (!sigismember (&m, SIGUSR2))
            lost++;
        }
    }
  stop = 1;
  pthread_join (s, NULL);
  printf ("creations=%d handler-ran-inside=%d creator-lost-change=%d\n", n, runs, lost);
  return 0;
}
