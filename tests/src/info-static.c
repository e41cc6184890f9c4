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

/* Usage: info-static [dlopen] (linked with -static)

   With "dlopen", first opens libm.so.6, as a static glibc program may:
   that maps a libc.so.6 and an ld.so beside the program's own C
   library, which never uses them, and prints "dlopen=ok" (or
   "dlopen=failed: WHY").  Then starts one thread, prints "pid=N", "rseq_size=N" (the C library's
   __rseq_size, 0 where it has none) and "ready", and exits at end of
   file on stdin.  It publishes no __rseq_* symbols, so info -p cannot
   tell whose its threads' areas are: a static glibc 2.35 or later
   registers every thread itself, musl none.  Nothing here touches rseq,
   and rtest.h is left out: it looks symbols up with dlsym, which a
   static program has not.  */

#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fds[2];

/* Posted by the worker once it runs: "ready" must wait for it, or a
   loaded machine lets info -p see the thread before its C library has
   registered it (glibc registers a new thread in its own start code,
   before the start routine).  */
static sem_t started;

static void *
worker (void *arg)
{
  char c;
  (void) arg;
  sem_post (&started);
  /* Asleep in read until main ends the process.  */
  while (read (fds[0], &c, 1) != 0)
    ;
  return NULL;
}

/* The C library's own word on whether it registered: a static glibc
   2.35 or later (or one with rseq-compat's series) defines __rseq_size,
   non-zero once the main thread is registered; musl and a stock older
   glibc define none.  The test compares what info -p reports with it,
   not with what the host's shared C library does: a static program
   links the archive, which another glibc may have built.  */
extern const unsigned int __rseq_size __attribute__ ((weak));

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "dlopen") == 0)
    {
      void *h = dlopen ("libm.so.6", RTLD_NOW);
      if (h != NULL)
        printf ("dlopen=ok\n");
      else
        printf ("dlopen=failed: %s\n", dlerror ());
    }
  pthread_t t;
  if (sem_init (&started, 0, 0) != 0 || pipe (fds) != 0
      || pthread_create (&t, NULL, worker, NULL) != 0)
    {
      perror ("info-static");
      return 1;
    }
  while (sem_wait (&started) != 0)
    ;
  printf ("pid=%d\nrseq_size=%u\nready\n", (int) getpid (),
          &__rseq_size != NULL ? __rseq_size : 0);
  fflush (stdout);
  char buf[64];
  while (fgets (buf, sizeof buf, stdin) != NULL)
    ;
  return 0;
}
