/* A process that runs its own program again, for ever, with a thread.
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

/* Usage: info-exec-loop COUNT [first]

   Each incarnation starts a thread, sleeps 50 milliseconds and runs
   /proc/self/exe again with COUNT less one, so that info -p meets the
   process before, during and after an exec, which also ends the
   thread; at 0 it exits (a bound, should the test not kill it: 2400
   make two minutes).  With
   "first", which the next incarnations do not get, it prints "pid=N"
   and "ready".  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static void *
sleeper (void *arg)
{
  (void) arg;
  for (;;)
    pause ();
  return NULL;
}

int
main (int argc, char **argv)
{
  long int count = argc > 1 ? strtol (argv[1], NULL, 10) : 0;
  if (argc > 2)
    {
      printf ("pid=%d\nready\n", (int) getpid ());
      fflush (stdout);
    }
  if (count <= 0)
    return 0;
  pthread_t t;
  if (pthread_create (&t, NULL, sleeper, NULL) != 0)
    return 1;
  struct timespec ts = { 0, 50000000 };
  nanosleep (&ts, NULL);
  char arg[32];
  snprintf (arg, sizeof arg, "%ld", count - 1);
  char *next[] = { argv[0], arg, NULL };
  execv ("/proc/self/exe", next);
  perror ("info-exec-loop: exec");
  return 1;
}
