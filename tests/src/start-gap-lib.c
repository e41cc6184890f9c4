/* A library linked before -lrseq-compat (its constructor runs first on
   musl) that starts a thread with thrd_create, which the shim does not
   see.  Once the shim's start-up is under way (start-gap.c's
   pthread_key_create, which the shim calls last, says so), that thread
   creates START_GAP_THREADS detached threads (START_GAP=create), or
   forks a child that does (fork): on musl a detached thread unmaps its
   own stack, so each must have the shim's exit hook, which start-up
   makes last.  link-order.exp.
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
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#include "start-gap.h"

volatile int start_gap_open;
thrd_t start_gap_thread;

static void *
noop (void *arg)
{
  return arg;
}

static void
create_detached (int n)
{
  pthread_attr_t a;
  pthread_attr_init (&a);
  pthread_attr_setdetachstate (&a, PTHREAD_CREATE_DETACHED);
  for (int i = 0; i < n; i++)
    {
      pthread_t t;
      while (pthread_create (&t, &a, noop, NULL) != 0)
        sched_yield ();
    }
  pthread_attr_destroy (&a);
  /* Time for the last of them to end.  */
  struct timespec ts = { 0, 300 * 1000 * 1000 };
  nanosleep (&ts, NULL);
}

static int
gap_thread (void *arg)
{
  (void) arg;
  const char *mode = getenv ("START_GAP");
  const char *n = getenv ("START_GAP_THREADS");
  int threads = n != NULL ? atoi (n) : 1000;
  while (!start_gap_open)
    sched_yield ();
  if (mode == NULL || strcmp (mode, "fork") != 0)
    {
      create_detached (threads);
      return 0;
    }
  pid_t pid = fork ();
  if (pid == 0)
    {
      create_detached (threads);
      _exit (0);
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return 100;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}

__attribute__ ((constructor)) static void
start (void)
{
  thrd_create (&start_gap_thread, gap_thread, NULL);
}
