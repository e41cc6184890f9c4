/* A static program for rseq-compat info -p to read.
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

/* Usage: info-static (linked with -static)

   Starts one thread, prints "pid=N" and "ready", and exits at end of
   file on stdin.  It publishes no __rseq_* symbols, so info -p cannot
   tell whose its threads' areas are: a static glibc 2.35 or later
   registers every thread itself, musl none.  Nothing here touches rseq,
   and rtest.h is left out: it looks symbols up with dlsym, which a
   static program has not.  */

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];

static void *
worker (void *arg)
{
  char c;
  (void) arg;
  /* Asleep in read until main ends the process.  */
  while (read (fds[0], &c, 1) != 0)
    ;
  return NULL;
}

int
main (void)
{
  pthread_t t;
  if (pipe (fds) != 0 || pthread_create (&t, NULL, worker, NULL) != 0)
    {
      perror ("info-static");
      return 1;
    }
  printf ("pid=%d\nready\n", (int) getpid ());
  fflush (stdout);
  char buf[64];
  while (fgets (buf, sizeof buf, stdin) != NULL)
    ;
  return 0;
}
