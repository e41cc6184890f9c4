/* Prints the signal mask the main thread has when main starts and the
   one a new thread starts with, as the kernel reports them
   (/proc/self/task/TID/status, SigBlk), and pthread_create's answer:
   what seccomp.exp compares with and without the shim.
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
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void
report (const char *who)
{
  char path[64], line[256];
  snprintf (path, sizeof path, "/proc/self/task/%ld/status",
            (long int) syscall (SYS_gettid));
  FILE *f = fopen (path, "r");
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    if (strncmp (line, "SigBlk:", 7) == 0)
      printf ("%s: %s", who, line);
  if (f != NULL)
    fclose (f);
}

/* SIGMASK_REPORT_DIRTY=BYTE: the stack below main's frame filled with
   BYTE before pthread_create, so that a C library that restores a mask
   it never read (musl 1.2.3 under a filter that stops its SIG_BLOCK,
   glibc 2.34 under one that stops its SIG_SETMASK) shows it:
   seccomp.exp then compares only what such a library leaves alone.  */
static void __attribute__ ((noinline))
dirty_stack (int byte)
{
  unsigned char buf[32768];
  memset (buf, byte, sizeof buf);
  __asm__ volatile ("" : : "r" (buf) : "memory");
}

static void *
thread (void *arg)
{
  report ("thread");
  return arg;
}

int
main (int argc, char **argv)
{
  report ("main");
  /* --sync-blocked: the creator blocks the six signals the shim leaves
     as they are around pthread_create (and SIGUSR2); musl's own
     blocking around its clone then looks like the shim's.  */
  if (argc > 1 && strcmp (argv[1], "--sync-blocked") == 0)
    {
      sigset_t set;
      sigemptyset (&set);
      int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS,
                     SIGUSR2 };
      for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaddset (&set, sigs[i]);
      sigprocmask (SIG_BLOCK, &set, NULL);
      report ("main blocking");
    }
  const char *dirty = getenv ("SIGMASK_REPORT_DIRTY");
  if (dirty != NULL)
    dirty_stack (atoi (dirty));
  pthread_t t;
  int err = pthread_create (&t, NULL, thread, NULL);
  if (err == 0)
    pthread_join (t, NULL);
  printf ("pthread_create: %s\n", strerror (err));
  report ("main after");
  return 0;
}
