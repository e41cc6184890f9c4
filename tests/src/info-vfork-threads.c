/* A process of many threads in state D, for info-hostile.sh.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: info-vfork-threads N
   Starts N threads, each the parent of a vfork child that waits for
   ever, so that each thread waits in state D (the killable vfork wait)
   and stops for no tracer: info -p --stop spent 100 ms and a tracer
   thread's start and end on each, with no bound on the whole
   (twenty-fifth review).  Prints "pid=PID" and "ready" once every
   thread waits, then waits to be killed; the children are processes
   of their own, which outlive it.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static void *
thread (void *arg)
{
  if (vfork () == 0)
    for (;;)
      syscall (SYS_pause);
  return arg;
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: info-vfork-threads N\n");
      return 2;
    }
  int n = atoi (argv[1]);
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  pthread_attr_setstacksize (&attr, 65536);
  for (int i = 0; i < n; i++)
    {
      pthread_t t;
      if (pthread_create (&t, &attr, thread, NULL) != 0)
        {
          perror ("info-vfork-threads: pthread_create");
          return 1;
        }
    }
  sleep (1);
  printf ("pid=%d\nready\n", (int) getpid ());
  fflush (stdout);
  for (;;)
    pause ();
}
