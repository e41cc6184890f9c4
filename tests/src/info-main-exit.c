/* A process whose main thread exits while info -p may be reading it.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: info-main-exit US

   Starts a thread that ends the process after 60 s, and ends the main
   thread (pthread_exit) after US microseconds: the fields of
   /proc/PID/stat that describe the memory turn to 0 then, and the
   thread info -p read from may be gone (twenty-fourth review: info -p
   reported a live process as having run another program, or "No such
   process").  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *
ender (void *arg)
{
  (void) arg;
  /* The test kills it after each read: this bounds only a test that
     died.  3 s was too short for a machine at load 20 (make
     check-oldlibc beside two tiers): the process ended during the
     read, which info -p then rightly reported.  */
  sleep (60);
  exit (0);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: info-main-exit US\n");
      return 2;
    }
  pthread_t t;
  if (pthread_create (&t, NULL, ender, NULL) != 0)
    return 1;
  usleep ((useconds_t) atol (argv[1]));
  pthread_exit (NULL);
}
