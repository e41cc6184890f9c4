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

/* Usage: info-exec-loop COUNT PERIOD [first]

   Each incarnation starts a thread, sleeps as many milliseconds as the
   file PERIOD says (50 where it says nothing) and runs /proc/self/exe
   again with COUNT less one, so that info -p meets the process before,
   during and after an exec, which also ends the thread; at 0 it exits
   (a bound, should the test not kill it: 2400 make two minutes or
   more).  The test lengthens the period where no read falls between
   two execs: on a loaded machine an exec and its loader, or a read,
   took longer than 50 ms, and 25 reads in a row met an exec (session
   55: four tiers at a load of 10 on two cores).  With "first", which
   the next incarnations do not get, it prints "pid=N" and "ready".  */

#include <fcntl.h>
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
  if (argc > 3)
    {
      printf ("pid=%d\nready\n", (int) getpid ());
      fflush (stdout);
    }
  if (count <= 0)
    return 0;
  pthread_t t;
  if (pthread_create (&t, NULL, sleeper, NULL) != 0)
    return 1;
  long int ms = 50;
  char text[32];
  int fd = argc > 2 ? open (argv[2], O_RDONLY | O_CLOEXEC) : -1;
  ssize_t n = fd >= 0 ? read (fd, text, sizeof text - 1) : -1;
  if (fd >= 0)
    close (fd);
  if (n > 0)
    {
      text[n] = '\0';
      long int v = strtol (text, NULL, 10);
      if (v > 0 && v <= 10000)
        ms = v;
    }
  struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
  nanosleep (&ts, NULL);
  char arg[32];
  snprintf (arg, sizeof arg, "%ld", count - 1);
  char *next[] = { argv[0], arg, argc > 2 ? argv[2] : NULL, NULL };
  execv ("/proc/self/exe", next);
  perror ("info-exec-loop: exec");
  return 1;
}
