/* Benchmark 6: a multi-threaded malloc/free loop, for jemalloc with
   MALLOC_CONF=percpu_arena:percpu.
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

/* Two threads per allowed CPU, not pinned (so that jemalloc's per-CPU
   arenas, chosen with sched_getcpu, matter), each allocate a batch of
   64 blocks of mixed small sizes and free them, over and over.  The
   value is the threads' mean CPU time per malloc+free pair (CPU time:
   with twice as many threads as CPUs, waiting for a CPU is not the
   allocator's cost); throughput is its inverse.  jemalloc is brought in by LD_PRELOAD
   (tests/bench/run), after the shim when the shim is used.

   With BENCH_COUNT_GETCPU=1 in the environment the program also counts
   the sched_getcpu calls the allocator makes (tests/bench/getcpu-count.c
   preloaded) and prints them per malloc+free pair.  */

#include "bench.h"

#define BATCH 64

static const size_t sizes[] = { 16, 24, 32, 48, 64, 96, 128, 256, 512, 40,
                                80, 160 };

struct job
{
  long int n;
  int threads;
  pthread_barrier_t start;
  double cpu_ns;		/* sum over the threads */
};

static long int total_pairs;
static pthread_mutex_t job_lock = PTHREAD_MUTEX_INITIALIZER;

static void *
worker (void *p)
{
  struct job *job = p;
  void *blocks[BATCH];
  pthread_barrier_wait (&job->start);
  double t0 = bench_thread_cpu ();
  for (long int i = 0; i < job->n; i += BATCH)
    {
      for (int j = 0; j < BATCH; j++)
        {
          blocks[j] = malloc (sizes[(i + j) % (sizeof sizes / sizeof sizes[0])]);
          if (blocks[j] == NULL)
            abort ();
          *(volatile char *) blocks[j] = 1;
        }
      for (int j = 0; j < BATCH; j++)
        free (blocks[j]);
    }
  double t = bench_thread_cpu () - t0;
  pthread_mutex_lock (&job_lock);
  job->cpu_ns += t;
  pthread_mutex_unlock (&job_lock);
  return NULL;
}

static double
loop_alloc (long int n, void *arg)
{
  struct job *job = arg;
  pthread_t t[CPU_SETSIZE];
  job->n = n;
  job->cpu_ns = 0;
  pthread_barrier_init (&job->start, NULL, (unsigned int) job->threads + 1);
  for (int i = 0; i < job->threads; i++)
    if (pthread_create (&t[i], NULL, worker, job) != 0)
      {
        perror ("pthread_create");
        exit (1);
      }
  pthread_barrier_wait (&job->start);
  for (int i = 0; i < job->threads; i++)
    pthread_join (t[i], NULL);
  pthread_barrier_destroy (&job->start);
  total_pairs += (n + BATCH - 1) / BATCH * BATCH * job->threads;
  return job->cpu_ns / job->threads;
}

int
main (void)
{
  int cpus[CPU_SETSIZE];
  int n = bench_cpus (cpus, CPU_SETSIZE);
  struct job job = { .threads = 2 * (n > 0 ? n : 1) };
  bench_run ("jemalloc", "malloc+free", loop_alloc, &job, 10 * BATCH);
  if (getenv ("BENCH_COUNT_GETCPU") != NULL)
    printf ("PAIRS\t%ld\n", total_pairs);
  return 0;
}
