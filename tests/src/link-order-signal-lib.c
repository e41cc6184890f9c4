/* A library linked before -lrseq-compat whose constructor arms a
   one-shot timer of LINK_ORDER_US microseconds, so that its SIGALRM
   handler interrupts what follows (on musl, the shim's own start-up)
   somewhere different in each run: the handler creates a detached
   thread (LINK_ORDER_SIGNAL=create), or forks a child that creates and
   joins one (fork).  link-order.exp.
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
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "link-order-signal.h"

static volatile sig_atomic_t runs, forks, failures;
static int fork_mode;

static void *
noop (void *arg)
{
  return arg;
}

static void
on_alarm (int sig)
{
  (void) sig;
  int saved = errno;
  pthread_t t;
  if (fork_mode)
    {
      pid_t pid = fork ();
      if (pid == 0)
        {
          /* A child that cannot create its thread ends by the alarm's
             default action, which the parent sees.  */
          signal (SIGALRM, SIG_DFL);
          alarm (5);
          if (pthread_create (&t, NULL, noop, NULL) != 0
              || pthread_join (t, NULL) != 0)
            _exit (3);
          _exit (0);
        }
      if (pid > 0)
        forks++;
      else
        failures++;
    }
  else
    {
      pthread_attr_t a;
      pthread_attr_init (&a);
      pthread_attr_setdetachstate (&a, PTHREAD_CREATE_DETACHED);
      if (pthread_create (&t, &a, noop, NULL) != 0)
        failures++;
      pthread_attr_destroy (&a);
    }
  runs++;
  errno = saved;
}

__attribute__ ((constructor)) static void
arm (void)
{
  const char *mode = getenv ("LINK_ORDER_SIGNAL");
  const char *us = getenv ("LINK_ORDER_US");
  fork_mode = mode != NULL && strcmp (mode, "fork") == 0;
  struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval it = { { 0, 0 }, { 0, us != NULL ? atol (us) : 1 } };
  setitimer (ITIMER_REAL, &it, NULL);
}

void
link_order_signal_counts (int *r, int *f, int *fail)
{
  *r = runs;
  *f = forks;
  *fail = failures;
}
