/* A process whose old memory outlives its exec, for info-hostile.sh.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage (under setarch -R, so that the exec keeps every address):
     info-clonevm-exec TRIGGER a
   Starts a CLONE_VM child (another process, not a thread), prints
   "pid=PID" and "ready", waits for the file TRIGGER, then runs itself
   again ("b": prints "second image running" and waits to be killed),
   with GLIBC_TUNABLES=glibc.pthread.rseq=1 in place of whatever it
   had: run the first image with glibc.pthread.rseq=0 and the two
   differ.  The child keeps the first image's memory alive, so that a
   descriptor of /proc/PID/mem opened before the exec still reads it:
   info -p, held by info-pause.so during the exec, saw no exec and
   printed a report of the two images mixed (twenty-fifth review).  */

#define _GNU_SOURCE 1
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

static int
sibling (void *arg)
{
  for (;;)
    syscall (SYS_pause);
  return arg != NULL;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: info-clonevm-exec TRIGGER a\n");
      return 2;
    }
  if (argv[2][0] == 'b')
    {
      printf ("second image running\n");
      fflush (stdout);
      for (;;)
        pause ();
    }
  static char stack[1 << 16] __attribute__ ((aligned (16)));
  if (clone (sibling, stack + sizeof stack, CLONE_VM | SIGCHLD, NULL) < 0)
    {
      perror ("info-clonevm-exec: clone");
      return 1;
    }
  printf ("pid=%d\nready\n", (int) getpid ());
  fflush (stdout);
  while (access (argv[1], F_OK) != 0)
    usleep (1000);
  /* Arguments and environment of the same sizes: the same addresses.  */
  char *env[] = { "GLIBC_TUNABLES=glibc.pthread.rseq=1", NULL };
  execle (argv[0], argv[0], argv[1], "b", (char *) NULL, env);
  perror ("info-clonevm-exec: exec");
  return 1;
}
