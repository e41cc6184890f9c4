/* Benchmark 2: per-CPU counters, the x86-64 table of the rseq slides.
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

/* T threads, thread i pinned to the i-th allowed CPU, each add 1 to a
   counter N times; the row is "<variant> <T>" and the value the wall
   time divided by N: nanoseconds per increment as each thread sees it.
   The contended variants cost what they cost only while the threads
   really run at the same time, so on a shared machine a repetition in
   which some thread had its CPU for less than 90% of the wall time
   (its CPU time says) is run again, up to 10 times, and the one with
   the most overlap counts.
     rseq               rseq_compat_counter_add: per-CPU slot, restartable
                        sequence, no atomic instruction
     rseq kept          the same without the store that clears rseq_cs
                        after the commit (counter-kept.c): what the add
                        cost before unloading its code was made safe
     percpu lock add    CPU from rseq_compat_cpu (), then a lock add on
                        that CPU's slot (cache line of its own)
     percpu cmpxchg     the same with a lock cmpxchg loop
     global lock add    one shared word, lock add
     global mutex       one shared word under a pthread mutex
   T runs from 1 to the number of allowed CPUs (1, 2, 4, ... beyond 8).  */

#include "bench.h"
#include "counter-loop.h"

COUNTER_LOOP (counter_loop)

enum variant
{
  V_RSEQ,
  V_RSEQ_KEPT,
  V_PERCPU_ADD,
  V_PERCPU_CAS,
  V_GLOBAL_ADD,
  V_GLOBAL_MUTEX,
  V_COUNT
};

static const char *const names[V_COUNT] = {
  "rseq", "rseq kept", "percpu lock add", "percpu cmpxchg",
  "global lock add", "global mutex",
};

static struct rseq_compat_counter counter;
static struct rseq_compat_counter_slot *slots;	/* for the atomics */
static unsigned int nslots;
static int64_t global __attribute__ ((aligned (128)));
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static int cpus[CPU_SETSIZE];
static int ncpus;

struct job
{
  enum variant v;
  int threads;
  long int n;
  pthread_barrier_t start, end;
};

static inline unsigned int
slot_index (void)
{
  int cpu = rseq_compat_cpu ();
  return cpu > 0 ? (unsigned int) cpu % nslots : 0;
}

static void
work (enum variant v, long int n)
{
  switch (v)
    {
    case V_RSEQ:
      counter_loop (&counter, n);
      break;
    case V_RSEQ_KEPT:
      counter_loop_kept (&counter, n);
      break;
    case V_PERCPU_ADD:
      for (long int i = 0; i < n; i++)
        __atomic_fetch_add (&slots[slot_index ()].atomic, 1,
                            __ATOMIC_RELAXED);
      break;
    case V_PERCPU_CAS:
      for (long int i = 0; i < n; i++)
        {
          int64_t *p = &slots[slot_index ()].atomic;
          int64_t old = __atomic_load_n (p, __ATOMIC_RELAXED);
          while (!__atomic_compare_exchange_n (p, &old, old + 1, 0,
                                               __ATOMIC_RELAXED,
                                               __ATOMIC_RELAXED))
            ;
        }
      break;
    case V_GLOBAL_ADD:
      for (long int i = 0; i < n; i++)
        __atomic_fetch_add (&global, 1, __ATOMIC_RELAXED);
      break;
    case V_GLOBAL_MUTEX:
      for (long int i = 0; i < n; i++)
        {
          pthread_mutex_lock (&mutex);
          global++;
          pthread_mutex_unlock (&mutex);
        }
      break;
    default:
      break;
    }
}

struct worker_arg
{
  struct job *job;
  int index;
  double cpu_ns;
};

static double
timed_work (enum variant v, long int n)
{
  double t0 = bench_thread_cpu ();
  work (v, n);
  return bench_thread_cpu () - t0;
}

static void *
worker (void *p)
{
  struct worker_arg *a = p;
  bench_pin (cpus[a->index % ncpus]);
  pthread_barrier_wait (&a->job->start);
  a->cpu_ns = timed_work (a->job->v, a->job->n);
  pthread_barrier_wait (&a->job->end);
  return NULL;
}

/* Thread 0 is the caller, pinned like the others.  Returns the wall
   time and stores the smallest CPU time / wall time of the threads in
   *OVERLAP.  */
static double
run_once (struct job *job, long int n, double *overlap)
{
  pthread_t tids[CPU_SETSIZE];
  struct worker_arg args[CPU_SETSIZE];
  job->n = n;
  pthread_barrier_init (&job->start, NULL, (unsigned int) job->threads);
  pthread_barrier_init (&job->end, NULL, (unsigned int) job->threads);
  for (int i = 1; i < job->threads; i++)
    {
      args[i].job = job;
      args[i].index = i;
      if (pthread_create (&tids[i], NULL, worker, &args[i]) != 0)
        {
          perror ("pthread_create");
          exit (1);
        }
    }
  bench_pin (cpus[0]);
  pthread_barrier_wait (&job->start);
  double t0 = bench_now ();
  double cpu = timed_work (job->v, n);
  pthread_barrier_wait (&job->end);
  double wall = bench_now () - t0;
  for (int i = 1; i < job->threads; i++)
    {
      pthread_join (tids[i], NULL);
      if (args[i].cpu_ns < cpu)
        cpu = args[i].cpu_ns;
    }
  pthread_barrier_destroy (&job->start);
  pthread_barrier_destroy (&job->end);
  *overlap = wall > 0 ? cpu / wall : 1;
  return wall;
}

static double
run_job (long int n, void *p)
{
  struct job *job = p;
  double best = 0, best_overlap = -1;
  for (int attempt = 0; attempt < 10 && best_overlap < 0.9; attempt++)
    {
      double overlap;
      double t = run_once (job, n, &overlap);
      if (overlap > best_overlap)
        {
          best = t;
          best_overlap = overlap;
        }
    }
  return best;
}

int
main (void)
{
  ncpus = bench_cpus (cpus, CPU_SETSIZE);
  if (ncpus < 1 || rseq_compat_counter_init (&counter) != 0)
    return 1;
  nslots = counter.nslots;
  slots = aligned_alloc (RSEQ_COMPAT_COUNTER_ALIGN,
                         nslots * sizeof *slots);
  if (slots == NULL)
    return 1;
  memset (slots, 0, nslots * sizeof *slots);

  int counts[32], ncounts = 0;
  for (int t = 1; t <= ncpus && ncounts < 32; t = t < 8 ? t + 1 : t * 2)
    counts[ncounts++] = t;
  if (counts[ncounts - 1] != ncpus && ncounts < 32)
    counts[ncounts++] = ncpus;

  for (int c = 0; c < ncounts; c++)
    for (int v = 0; v < V_COUNT; v++)
      {
        struct job job = { .v = (enum variant) v, .threads = counts[c] };
        char row[64];
        snprintf (row, sizeof row, "%s %d", names[v], counts[c]);
        if (v == V_RSEQ_KEPT)
          continue;
        if (v == V_RSEQ)
          {
            /* The cost of the store that clears rseq_cs is a ratio of
               two close values: measure them alternately.  */
            struct job kept = { .v = V_RSEQ_KEPT, .threads = counts[c] };
            char row_kept[64];
            snprintf (row_kept, sizeof row_kept, "%s %d", names[V_RSEQ_KEPT],
                      counts[c]);
            bench_run_pair ("counter", row, row_kept, run_job, &job, &kept,
                            1000);
          }
        else
          bench_run ("counter", row, run_job, &job, 1000);
      }
  rseq_compat_counter_destroy (&counter);
  return 0;
}
