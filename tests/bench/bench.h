/* Shared helpers of the benchmarks (make bench).
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

/* Every benchmark prints one line per measured repetition,

     RESULT <TAB> bench <TAB> row <TAB> ns per operation

   and nothing else on stdout; tests/bench/run adds the C library and
   the configuration (with or without the shim), and tests/bench/report
   takes medians and spreads and computes the ratios.  A repetition is
   timed after an untimed warm-up of the same code; its length is
   calibrated to about BENCH_MS milliseconds (default 40) so that fast
   and slow operations get comparable precision.  BENCH_REPS (default 7)
   repetitions are printed.  */

#ifndef BENCH_H
#define BENCH_H 1

#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static inline double
bench_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* CPU time of the whole process (every thread, exited ones too, user
   and kernel): what the single-threaded benchmarks time, so that a
   time slice the shared machine gives to another process while ours
   waits is not counted as the operation's cost.  Process start-up
   (children) and the contended counters are timed in wall time.  */
static inline double
bench_cpu_now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* CPU time of the calling thread: the multi-threaded benchmarks count
   it instead of wall time, so that time a shared machine gives to
   other processes is not counted as ours.  */
static inline double
bench_thread_cpu (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static inline long int
bench_env (const char *name, long int dflt)
{
  const char *v = getenv (name);
  if (v == NULL || *v == '\0')
    return dflt;
  long int n = strtol (v, NULL, 10);
  return n > 0 ? n : dflt;
}

static inline int
bench_reps (void)
{
  return (int) bench_env ("BENCH_REPS", 7);
}

static inline double
bench_target_ns (void)
{
  return bench_env ("BENCH_MS", 40) * 1e6;
}

static inline void
bench_print (const char *bench, const char *row, double ns)
{
  printf ("RESULT\t%s\t%s\t%.4f\n", bench, row, ns);
  fflush (stdout);
}

/* FN runs ITERS operations and returns the nanoseconds they took.  */
typedef double bench_fn (long int iters, void *arg);

/* How many operations take about the target time (at least MIN).  */
static inline long int
bench_calibrate (bench_fn *fn, void *arg, long int min)
{
  long int n = min;
  double t = fn (n, arg);
  while (t < 2e6 && n < (1L << 40))
    {
      n *= 4;
      t = fn (n, arg);
    }
  double want = bench_target_ns () * n / (t > 1 ? t : 1);
  return want > min ? (long int) want : min;
}

/* Warm up, then print BENCH_REPS repetitions of FN as ns/op.  */
static inline void
bench_run (const char *bench, const char *row, bench_fn *fn, void *arg,
           long int min_iters)
{
  long int n = bench_calibrate (fn, arg, min_iters);
  fn (n, arg);
  for (int r = 0; r < bench_reps (); r++)
    bench_print (bench, row, fn (n, arg) / n);
}

/* The same for two rows whose ratio matters more than either value:
   their repetitions alternate, so that a change in the load of a
   shared machine during the run falls on both alike.  Both run the
   iteration count calibrated for the first.  */
static inline void
bench_run_pair (const char *bench, const char *row_a, const char *row_b,
                bench_fn *fn, void *arg_a, void *arg_b, long int min_iters)
{
  long int n = bench_calibrate (fn, arg_a, min_iters);
  fn (n, arg_a);
  fn (n, arg_b);
  for (int r = 0; r < bench_reps (); r++)
    {
      bench_print (bench, row_a, fn (n, arg_a) / n);
      bench_print (bench, row_b, fn (n, arg_b) / n);
    }
}

/* The CPUs this process may run on, in order.  */
static inline int
bench_cpus (int *cpus, int max)
{
  cpu_set_t set;
  int n = 0;
  if (sched_getaffinity (0, sizeof set, &set) != 0)
    return 0;
  for (int c = 0; c < CPU_SETSIZE && n < max; c++)
    if (CPU_ISSET (c, &set))
      cpus[n++] = c;
  return n;
}

static inline int
bench_pin (int cpu)
{
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  return sched_setaffinity (0, sizeof set, &set);
}

/* Keep a value alive without a memory access in the loop.  */
#define BENCH_KEEP(x) __asm__ __volatile__ ("" : : "r" (x))

#endif
