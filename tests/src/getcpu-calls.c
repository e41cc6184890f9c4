/* The program getcpu-syscalls.exp runs under strace.
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

/* Usage: getcpu-calls N

   Makes the marker system call write (-1, "rseq-compat-begin", 17),
   calls sched_getcpu N times, and makes the marker write (-1,
   "rseq-compat-end", 15), so that strace shows what N calls cost in
   system calls.  Uses nothing of the shim's, so that it runs the same
   with each C library alone.  Every answer must be a CPU the process
   may run on.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  long int n = argc > 1 ? strtol (argv[1], NULL, 10) : 0;
  cpu_set_t allowed;
  if (n <= 0)
    {
      fprintf (stderr, "usage: getcpu-calls N (N > 0)\n");
      return 2;
    }
  if (sched_getaffinity (0, sizeof allowed, &allowed) != 0)
    {
      fprintf (stderr, "FAIL sched_getaffinity: %s\n", strerror (errno));
      return 1;
    }
  long int bad = 0;
  int cpu = -1;
  /* The markers fail with EBADF; only strace's log matters.  */
  if (write (-1, "rseq-compat-begin", 17) != -1)
    return 1;
  for (long int i = 0; i < n; i++)
    {
      cpu = sched_getcpu ();
      if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET (cpu, &allowed))
        bad++;
    }
  if (write (-1, "rseq-compat-end", 15) != -1)
    return 1;
  if (bad != 0)
    {
      fprintf (stderr, "FAIL %ld of %ld sched_getcpu answers not an allowed "
               "CPU (last %d)\n", bad, n, cpu);
      return 1;
    }
  printf ("%ld sched_getcpu calls, last CPU %d\n", n, cpu);
  return 0;
}
