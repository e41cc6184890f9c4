/* Benchmark 3: pthread_create + pthread_join of a thread that returns at
   once.
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

/* The whole process is pinned to one CPU, so that the creator and the
   new thread take turns the same way in every run: the cost measured is
   the work of creating, starting, registering, exiting and joining, not
   the scheduler's placement.  Run with and without the shim; the row
   is the same, tests/bench/run names the configuration.  */

#include "bench.h"

static void *
nothing (void *arg)
{
  return arg;
}

static double
loop_create_join (long int n, void *arg)
{
  (void) arg;
  double t0 = bench_cpu_now ();
  for (long int i = 0; i < n; i++)
    {
      pthread_t t;
      if (pthread_create (&t, NULL, nothing, NULL) != 0)
        {
          perror ("pthread_create");
          exit (1);
        }
      pthread_join (t, NULL);
    }
  return bench_cpu_now () - t0;
}

int
main (void)
{
  int cpus[1];
  if (bench_cpus (cpus, 1) == 1)
    bench_pin (cpus[0]);
  bench_run ("thread", "create+join", loop_create_join, NULL, 100);
  return 0;
}
