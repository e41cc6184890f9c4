/* Many short-lived threads in a static program linked with librseq-compat.a.
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

/* Usage: static-threads [COUNT]  (default 20000; RSEQ_EXPECT as static.c)

   COUNT threads, started in waves from the main thread and from
   threads themselves: joinable ones, detached ones (created detached,
   or detaching themselves) that exit at once while others start, some
   leaving by pthread_exit.  Their memory is reused by the next ones
   (glibc's stack cache, musl's unmapping of a detached thread's stack,
   TLS included, before its exit system call), so a registration left
   behind at thread exit, or an area not cleared before it is
   registered again, shows as a crash or a wrong value.  Every thread
   checks its own registration against the kernel: registering the
   same area again must fail with EBUSY in shim-owned mode, and in the
   disabled mode succeed (nothing registered) with cpu_id -2.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <sys/rseq.h>
#include <arch.h>

extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));
extern const char *rseq_compat_mode (void) __attribute__ ((weak));

/* Detached threads alive at once, at most.  */
#define IN_FLIGHT 64

static int owned;
static unsigned int reg_len;
static unsigned long int ok, bad_reg, bad_cpu, create_failed;
static unsigned long int detached_live, finished;

static struct rseq *
area (void)
{
  return (struct rseq *) (rseq_compat_thread_pointer () + __rseq_offset);
}

/* 1 if the calling thread's registration is as the mode says.  */
static int
check_self (void)
{
  volatile uint32_t *id = &area ()->cpu_id;
  int32_t before = (int32_t) *id;
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, area (), reg_len, 0,
                          RSEQ_SIG);
  int err = errno;
  if (ret == 0)
    {
      /* Registered by this check: not by the archive.  Undo it, and
         what the kernel wrote.  */
      syscall (RSEQ_COMPAT_NR_rseq, area (), reg_len, RSEQ_FLAG_UNREGISTER,
               RSEQ_SIG);
      *id = (uint32_t) before;
    }
  if (owned)
    {
      if (ret == 0 || err != EBUSY)
        {
          __atomic_add_fetch (&bad_reg, 1, __ATOMIC_RELAXED);
          return 0;
        }
      if (before < 0)
        {
          __atomic_add_fetch (&bad_cpu, 1, __ATOMIC_RELAXED);
          return 0;
        }
    }
  else
    {
      if (ret != 0)
        {
          __atomic_add_fetch (&bad_reg, 1, __ATOMIC_RELAXED);
          return 0;
        }
      if (before != RSEQ_CPU_ID_REGISTRATION_FAILED)
        {
          __atomic_add_fetch (&bad_cpu, 1, __ATOMIC_RELAXED);
          return 0;
        }
    }
  __atomic_add_fetch (&ok, 1, __ATOMIC_RELAXED);
  return 1;
}

static void *
joinable (void *arg)
{
  check_self ();
  __atomic_add_fetch (&finished, 1, __ATOMIC_RELAXED);
  if ((uintptr_t) arg & 1)
    pthread_exit (NULL);
  return NULL;
}

static void *
detached (void *arg)
{
  uintptr_t n = (uintptr_t) arg;
  if (n & 2)
    pthread_detach (pthread_self ());
  check_self ();
  __atomic_add_fetch (&finished, 1, __ATOMIC_RELAXED);
  __atomic_sub_fetch (&detached_live, 1, __ATOMIC_RELEASE);
  if (n & 1)
    pthread_exit (NULL);
  return NULL;
}

static void
wait_in_flight (unsigned long int limit)
{
  while (__atomic_load_n (&detached_live, __ATOMIC_ACQUIRE) > limit)
    sched_yield ();
}

/* Starts one detached thread (created so, or detaching itself).  */
static void
start_detached (uintptr_t n)
{
  wait_in_flight (IN_FLIGHT - 1);
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  if (!(n & 2))
    pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
  pthread_t t;
  __atomic_add_fetch (&detached_live, 1, __ATOMIC_RELAXED);
  int err = pthread_create (&t, &attr, detached, (void *) n);
  if (err != 0)
    {
      __atomic_sub_fetch (&detached_live, 1, __ATOMIC_RELAXED);
      __atomic_add_fetch (&create_failed, 1, __ATOMIC_RELAXED);
    }
  pthread_attr_destroy (&attr);
}

/* A thread that starts detached threads itself: threads created by a
   thread the archive registered.  */
static void *
spawner (void *arg)
{
  unsigned long int count = (uintptr_t) arg;
  check_self ();
  for (unsigned long int i = 0; i < count; i++)
    start_detached (i);
  return NULL;
}

int
main (int argc, char **argv)
{
  unsigned long int count = argc > 1 ? strtoul (argv[1], NULL, 10) : 20000;
  const char *expect = getenv ("RSEQ_EXPECT");
  if (expect == NULL)
    expect = "shim-owned";
  owned = strcmp (expect, "shim-owned") == 0;
  if (&__rseq_offset == NULL || &__rseq_size == NULL)
    {
      fprintf (stderr, "FAIL: __rseq_* not defined\n");
      return 1;
    }
  const char *mode = rseq_compat_mode != NULL ? rseq_compat_mode () : "none";
  if (strcmp (mode, expect) != 0)
    {
      fprintf (stderr, "FAIL: mode %s, expected %s\n", mode, expect);
      return 1;
    }
  reg_len = __rseq_size > 32 ? __rseq_size : 32;
  if (!check_self ())
    {
      fprintf (stderr, "FAIL: the main thread's registration\n");
      return 1;
    }

  /* Waves: a batch of joinable threads alive together, detached ones
     started between them, and a spawner thread's detached ones.  */
  enum { BATCH = 32 };
  unsigned long int started = 1;	/* The main thread's check.  */
  for (unsigned long int i = 0; started < count + 1; i++)
    {
      pthread_t t[BATCH];
      int made[BATCH];
      unsigned long int n = count + 1 - started < BATCH
                            ? count + 1 - started : BATCH;
      for (unsigned long int j = 0; j < n; j++)
        {
          made[j] = pthread_create (&t[j], NULL, joinable,
                                    (void *) (uintptr_t) j) == 0;
          if (!made[j])
            __atomic_add_fetch (&create_failed, 1, __ATOMIC_RELAXED);
          /* Detached threads exit while the batch still runs.  */
          if (started + n + j < count + 1 && (j & 1))
            {
              start_detached (i + j);
              started++;
            }
        }
      for (unsigned long int j = 0; j < n; j++)
        if (made[j])
          pthread_join (t[j], NULL);
      started += n;
      if (i % 16 == 15 && started + BATCH < count + 1)
        {
          pthread_t s;
          if (pthread_create (&s, NULL, spawner,
                              (void *) (uintptr_t) (BATCH - 1)) == 0)
            {
              pthread_join (s, NULL);
              started += BATCH;
            }
        }
    }
  wait_in_flight (0);
  check_self ();

  unsigned long int got_ok = __atomic_load_n (&ok, __ATOMIC_RELAXED);
  unsigned long int checks = got_ok + bad_reg + bad_cpu;
  printf ("threads started %lu, checks %lu: ok %lu, registration wrong %lu, "
          "cpu_id wrong %lu; pthread_create failed %lu\n", started - 1,
          checks, got_ok, bad_reg, bad_cpu, create_failed);
  if (bad_reg != 0 || bad_cpu != 0 || create_failed != 0
      || started - 1 < count || checks < count)
    {
      fprintf (stderr, "FAIL\n");
      return 1;
    }
  return 0;
}
