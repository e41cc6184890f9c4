/* 10 000 short-lived threads while the main thread allocates.
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

/* Usage: churn detached|joinable

   Creates THREADS threads (rt_scaled), at most CONCURRENCY alive at a time.
   Each checks its own state: registered (the kernel answers EBUSY for its
   area) with a cpu_id the kernel agrees with in the owned modes, cpu_id -2
   and nothing registered otherwise.  Meanwhile the main thread keeps
   allocating, filling and checking blocks, small and large (mmap'd), so
   that memory of exited threads (musl unmaps a detached thread's stack and
   TLS itself) is reused at once: a registration left behind would have the
   kernel write cpu_id into those blocks, or kill the process.  Every thread
   must report, and all must be right.  */

#include "rtest.h"

#include <pthread.h>
#include <semaphore.h>

#define THREADS 10000
#define CONCURRENCY 64
#define BLOCKS 48

static struct rt_abi abi;
static sem_t slots;
static unsigned int expected_len;
static int ncpu;

static unsigned int started, good, bad;

/* First few failures, reported by the main thread.  */
#define REPORTS 8
static struct
{
  int id;
  int registered;
  int sys;
} report[REPORTS];

static int
thread_ok (int *id_out, int *reg_out, int *sys_out)
{
  struct rseq *area = rt_area (&abi);
  int id = rt_cpu_id (&abi);
  int reg = rt_registered (area, expected_len);
  int sys = rt_syscall_cpu ();
  *id_out = id;
  *reg_out = reg;
  *sys_out = sys;
  if (rt_expect_registered ())
    {
      if (!reg)
        return 0;
      /* The kernel keeps cpu_id current; retried in case the thread
         migrates between the two reads.  */
      for (int i = 0; i < 20; i++)
        {
          *id_out = id = rt_cpu_id (&abi);
          *sys_out = sys = rt_syscall_cpu ();
          if (id >= 0 && id < ncpu && id == sys)
            return 1;
          sched_yield ();
        }
      return 0;
    }
  return !reg && id == RSEQ_CPU_ID_REGISTRATION_FAILED;
}

static void *
thread_main (void *arg)
{
  (void) arg;
  __atomic_add_fetch (&started, 1, __ATOMIC_RELAXED);
  int id, reg, sys;
  if (thread_ok (&id, &reg, &sys))
    __atomic_add_fetch (&good, 1, __ATOMIC_RELAXED);
  else
    {
      unsigned int n = __atomic_fetch_add (&bad, 1, __ATOMIC_RELAXED);
      if (n < REPORTS)
        {
          report[n].id = id;
          report[n].registered = reg;
          report[n].sys = sys;
        }
    }
  sem_post (&slots);
  return NULL;
}

/* The main thread's allocations: each block is filled with a pattern
   derived from its address and checked before it is freed.  */
static unsigned char *blocks[BLOCKS];
static size_t block_size[BLOCKS];
static unsigned int rng = 12345;
static int corrupt;

static unsigned char
pattern (const unsigned char *base, size_t i)
{
  return (unsigned char) (((uintptr_t) base >> 4) + i * 7 + 1);
}

static void
alloc_step (void)
{
  rng = rng * 1103515245 + 12345;
  unsigned int slot = (rng >> 8) % BLOCKS;
  unsigned char *b = blocks[slot];
  if (b != NULL)
    {
      for (size_t i = 0; i < block_size[slot]; i += 61)
        if (b[i] != pattern (b, i))
          {
            if (corrupt++ < 5)
              CHECK (0, "block %p (%zu bytes) byte %zu is %#x, wrote %#x",
                     (void *) b, block_size[slot], i, b[i], pattern (b, i));
            break;
          }
      free (b);
    }
  /* Mostly small, one in four above the mmap thresholds of glibc and
     musl, the size of a thread's stack and TLS.  */
  size_t size = (rng >> 16) % 4 == 0 ? 96 * 1024 + (rng % 160) * 1024
                                     : 16 + (rng >> 4) % 4096;
  b = malloc (size);
  CHECK (b != NULL, "malloc %zu", size);
  if (b != NULL)
    for (size_t i = 0; i < size; i += 61)
      b[i] = pattern (b, i);
  blocks[slot] = b;
  block_size[slot] = size;
}

/* Seconds before a hang is called one: a sanitizer's run is many times
   slower (TSan's churn detached took over 30 s on a loaded machine),
   and musl's plain run, 11 s of CPU time, took over 30 s at a load of
   9 on two cores (session 52's four tier lanes).  */
#if defined __SANITIZE_THREAD__ || defined __SANITIZE_ADDRESS__
# define CHURN_ALARM 300
#elif defined __has_feature
# if __has_feature (thread_sanitizer) || __has_feature (address_sanitizer)
#  define CHURN_ALARM 300
# endif
#endif
#ifndef CHURN_ALARM
# define CHURN_ALARM 120
#endif

int
main (int argc, char **argv)
{
  /* A hang (a thread that never reports) fails instead of blocking the
     suite.  */
  alarm (CHURN_ALARM);
  int detached = argc > 1 && strcmp (argv[1], "detached") == 0;
  CHECK (argc > 1 && (detached || strcmp (argv[1], "joinable") == 0),
         "usage: churn detached|joinable");
  abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL, "no __rseq_offset/size");
  if (rt_failures != 0)
    return rt_exit_status ();
  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s, expected %s",
         rt_shim_mode (), rt_expect ());
  expected_len = rt_expected_len ();
  ncpu = (int) sysconf (_SC_NPROCESSORS_CONF);
  sem_init (&slots, 0, CONCURRENCY);

  pthread_attr_t attr;
  pthread_attr_init (&attr);
  pthread_attr_setdetachstate (&attr, detached ? PTHREAD_CREATE_DETACHED
                                               : PTHREAD_CREATE_JOINABLE);
  /* Small stacks, so that more of them are mapped and unmapped.  */
  pthread_attr_setstacksize (&attr, 64 * 1024);

  static pthread_t ring[CONCURRENCY];
  int created = 0, joined = 0, create_errors = 0;
  const int threads = (int) rt_scaled (THREADS);
  while (created < threads)
    {
      if (sem_trywait (&slots) != 0)
        {
          alloc_step ();
          continue;
        }
      if (!detached && created - joined == CONCURRENCY)
        {
          /* The oldest one has posted (or will soon): join it.  */
          pthread_join (ring[joined % CONCURRENCY], NULL);
          joined++;
        }
      pthread_t t;
      int err = pthread_create (&t, &attr, thread_main, NULL);
      if (err != 0)
        {
          if (create_errors++ < 5)
            CHECK (0, "pthread_create %d: %s", created, strerror (err));
          sem_post (&slots);
          if (create_errors > 100)
            break;
          continue;
        }
      if (!detached)
        ring[created % CONCURRENCY] = t;
      created++;
      alloc_step ();
    }
  /* Wait until every thread has reported, allocating all the while.  */
  for (int n = 0; n < CONCURRENCY;)
    if (sem_trywait (&slots) == 0)
      n++;
    else
      alloc_step ();
  for (; !detached && joined < created; joined++)
    pthread_join (ring[joined % CONCURRENCY], NULL);
  /* Detached threads may still be on their way out.  */
  for (long int i = 0; i < rt_scaled (20000); i++)
    alloc_step ();
  for (int i = 0; i < BLOCKS; i++)
    {
      alloc_step ();
      free (blocks[i]);
      blocks[i] = NULL;
    }

  unsigned int s = __atomic_load_n (&started, __ATOMIC_RELAXED);
  unsigned int g = __atomic_load_n (&good, __ATOMIC_RELAXED);
  unsigned int b = __atomic_load_n (&bad, __ATOMIC_RELAXED);
  CHECK (created == threads, "created %d of %d threads", created, threads);
  CHECK (s == (unsigned int) created && g + b == s,
         "%u started, %u good, %u bad, %d created", s, g, b, created);
  CHECK (b == 0, "%u of %u threads in the wrong state (mode %s)", b, s,
         rt_expect ());
  for (unsigned int i = 0; i < b && i < REPORTS; i++)
    fprintf (stderr, "  thread: cpu_id %d, registered %d, kernel cpu %d\n",
             report[i].id, report[i].registered, report[i].sys);
  CHECK (corrupt == 0, "%d blocks overwritten", corrupt);

  /* The main thread is still as it was.  */
  if (rt_expect_registered ())
    CHECK (rt_registered (rt_area (&abi), expected_len),
           "main thread no longer registered");
  else
    CHECK (rt_cpu_id (&abi) == RSEQ_CPU_ID_REGISTRATION_FAILED,
           "main cpu_id %d", rt_cpu_id (&abi));
  return rt_exit_status ();
}
