/* <rseq-compat.h> per-CPU counter: exact under preemption, signals and
   migration.
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

/* Usage: counter [aborts]
   THREADS threads (more than there are CPUs, so they preempt each
   other) each add 1 ITERS times while every one of them flips its own
   affinity from CPU to CPU (sched_setaffinity), a migrator thread moves
   them as well, and a signaller thread keeps sending them SIGUSR1,
   whose handler adds 1 too.  The total must be exactly
   THREADS * ITERS + the handler runs (ITERS divided by
   RSEQ_TEST_SCALE, see rtest.h).

   Which path the adds took is visible in the slots: the rseq words only
   count restartable-sequence adds, the atomic words only the fallback.
   When RSEQ_EXPECT says threads are registered (libc-owned, shim-owned)
   at least 90% must have gone through rseq; otherwise (disabled,
   unavailable, none) not one.  With "aborts" (built with
   RSEQ_COMPAT_COUNTER_RETRIES 1, so that every abort falls back) a
   registered run must also show fallbacks: sequences did abort, most
   of them because a signal arrived inside one, and the kernel resumes
   such a thread at the abort handler only when the handler is preceded
   by the registered signature (it kills the process otherwise).

   The shim's (or librseq-compat.a's) rseq_compat_mode, where the
   program has one, must say the expected mode.

   Before the adds, every descriptor in the program's __rseq_cs_ptr_array is
   checked as the kernel would: 32-byte aligned, version and flags 0, the
   abort handler outside the sequence and preceded by RSEQ_SIG.  */

#include "rtest.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>

#include <rseq-compat.h>

#define THREADS 4
#define ITERS 4000000L
#define FLIP_EVERY 4096

static struct rseq_compat_counter counter;
static pthread_t workers[THREADS];
static int done;
static int workers_done;
static unsigned long int handler_runs;
static cpu_set_t allowed;
static int allowed_cpus[CPU_SETSIZE];
static int nallowed;

static void
handler (int sig)
{
  (void) sig;
  int saved = errno;
  rseq_compat_counter_add (&counter, 1);
  __atomic_add_fetch (&handler_runs, 1, __ATOMIC_RELAXED);
  errno = saved;
}

static void
pin_to (pid_t tid, int cpu)
{
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  sched_setaffinity (tid, sizeof set, &set);
}

/* Set once the run has shown what it must (enough signals, and in
   "aborts" mode an aborted sequence); workers then stop after ITERS.
   On a loaded machine 4 x ITERS adds can finish inside one time slice
   each, before the signaller ever runs, so a fixed count alone would
   make the test depend on the scheduler.  */
static int want_abort;
static struct timespec started;

static int
shown_enough (void)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  if (now.tv_sec - started.tv_sec >= 20)
    return 1;
  if (__atomic_load_n (&handler_runs, __ATOMIC_RELAXED) <= 100)
    return 0;
  if (!want_abort)
    return 1;
  for (unsigned int i = 0; i < counter.nslots; i++)
    if (__atomic_load_n (&counter.slots[i].atomic, __ATOMIC_RELAXED) != 0)
      return 1;
  return 0;
}

static long int adds[THREADS];
static long int iters;

static void *
worker (void *arg)
{
  long int id = (long int) arg;
  int flip = (int) id;
  long int i;
  for (i = 0; i < iters || (i % FLIP_EVERY != 0 || !shown_enough ()); i++)
    {
      rseq_compat_counter_add (&counter, 1);
      if (nallowed > 1 && i % FLIP_EVERY == 0)
        pin_to (0, allowed_cpus[flip++ % nallowed]);
    }
  adds[id] = i;
  sched_setaffinity (0, sizeof allowed, &allowed);
  __atomic_add_fetch (&workers_done, 1, __ATOMIC_RELEASE);
  return NULL;
}

static int
finished (void)
{
  return __atomic_load_n (&done, __ATOMIC_ACQUIRE);
}

/* Sends SIGUSR1 to the workers round robin until they are done.  */
static void *
signaller (void *arg)
{
  (void) arg;
  struct timespec pause = { 0, 20000 };
  for (unsigned int i = 0; !finished (); i++)
    {
      pthread_kill (workers[i % THREADS], SIGUSR1);
      if (i % 8 == 7)
        nanosleep (&pause, NULL);
    }
  return NULL;
}

/* Moves the workers to other CPUs from outside (by thread id).  */
static pid_t worker_tids[THREADS];

static void *
migrator (void *arg)
{
  (void) arg;
  struct timespec pause = { 0, 50000 };
  for (unsigned int i = 0; !finished (); i++)
    {
      pid_t tid = __atomic_load_n (&worker_tids[i % THREADS],
                                   __ATOMIC_RELAXED);
      if (tid != 0 && nallowed > 1)
        pin_to (tid, allowed_cpus[(i / THREADS) % nallowed]);
      nanosleep (&pause, NULL);
    }
  return NULL;
}

static void *
worker_start (void *arg)
{
  __atomic_store_n (&worker_tids[(long int) arg],
                    (pid_t) syscall (SYS_gettid), __ATOMIC_RELAXED);
  return worker (arg);
}

#ifdef RSEQ_COMPAT_COUNTER_RSEQ
struct cs_desc
{
  uint32_t version;
  uint32_t flags;
  uint64_t start_ip;
  uint64_t post_commit_offset;
  uint64_t abort_ip;
};

extern struct cs_desc *const __start___rseq_cs_ptr_array[]
  __attribute__ ((weak));
extern struct cs_desc *const __stop___rseq_cs_ptr_array[]
  __attribute__ ((weak));

static void
check_descriptors (void)
{
  struct cs_desc *const *p = __start___rseq_cs_ptr_array;
  struct cs_desc *const *end = __stop___rseq_cs_ptr_array;
  CHECK (p != NULL && end != NULL && p < end,
         "no __rseq_cs_ptr_array section in the program");
  int n = 0;
  for (; p != NULL && p < end; p++, n++)
    {
      const struct cs_desc *d = *p;
      CHECK ((uintptr_t) d % 32 == 0, "descriptor %p not 32-aligned",
             (void *) d);
      CHECK (d->version == 0 && d->flags == 0,
             "descriptor %p: version %u flags %u", (void *) d, d->version,
             d->flags);
      CHECK (d->post_commit_offset > 0 && d->post_commit_offset < 64,
             "descriptor %p: sequence of %llu bytes", (void *) d,
             (unsigned long long int) d->post_commit_offset);
      CHECK (d->abort_ip < d->start_ip
             || d->abort_ip >= d->start_ip + d->post_commit_offset,
             "descriptor %p: abort handler inside the sequence", (void *) d);
      uint32_t sig;
      memcpy (&sig, (const void *) (uintptr_t) (d->abort_ip - 4), 4);
      CHECK (sig == RSEQ_SIG, "descriptor %p: %#x before the abort "
             "handler, RSEQ_SIG is %#x", (void *) d, sig, RSEQ_SIG);
    }
  printf ("%d rseq_cs descriptors\n", n);
}
#endif

int
main (int argc, char **argv)
{
  iters = rt_scaled (ITERS);
  int aborts = argc > 1 && strcmp (argv[1], "aborts") == 0;
  int registered = rt_expect_registered ();
  want_abort = aborts && registered;
  clock_gettime (CLOCK_MONOTONIC, &started);

  /* The shim's (or the static archive's) own word for the mode, where
     one is in the program, must be the expected one; glibc 2.35 and
     later registers without one.  */
  const char *shim = rt_shim_mode ();
  CHECK (strcmp (shim, rt_expect ()) == 0
         || (strcmp (shim, "none") == 0 && rt_expect_is ("libc-owned")),
         "the shim's mode is %s, expected %s", shim, rt_expect ());

#ifdef RSEQ_COMPAT_COUNTER_RSEQ
  check_descriptors ();
#else
  CHECK (0, "no restartable sequence on this architecture");
#endif

  CHECK (rseq_compat_counter_init (&counter) == 0, "init: out of memory");
  if (counter.slots == NULL)
    return rt_exit_status ();
  CHECK (counter.nslots >= (unsigned int) sysconf (_SC_NPROCESSORS_ONLN),
         "%u slots for %ld online CPUs", counter.nslots,
         sysconf (_SC_NPROCESSORS_ONLN));
  CHECK ((uintptr_t) counter.slots % RSEQ_COMPAT_COUNTER_ALIGN == 0
         && sizeof counter.slots[0] == RSEQ_COMPAT_COUNTER_ALIGN,
         "slots at %p, %zu bytes each", (void *) counter.slots,
         sizeof counter.slots[0]);

  sched_getaffinity (0, sizeof allowed, &allowed);
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &allowed))
      allowed_cpus[nallowed++] = cpu;

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  sigaction (SIGUSR1, &sa, NULL);

  for (long int i = 0; i < THREADS; i++)
    CHECK (pthread_create (&workers[i], NULL, worker_start, (void *) i) == 0,
           "pthread_create");
  pthread_t sig_thread, mig_thread;
  CHECK (pthread_create (&sig_thread, NULL, signaller, NULL) == 0,
         "pthread_create");
  CHECK (pthread_create (&mig_thread, NULL, migrator, NULL) == 0,
         "pthread_create");
  /* The workers are joined only after the signaller stopped: a joined
     thread's ID must not reach pthread_kill.  */
  struct timespec pause = { 0, 1000000 };
  while (__atomic_load_n (&workers_done, __ATOMIC_ACQUIRE) < THREADS)
    nanosleep (&pause, NULL);
  __atomic_store_n (&done, 1, __ATOMIC_RELEASE);
  pthread_join (sig_thread, NULL);
  pthread_join (mig_thread, NULL);
  for (int i = 0; i < THREADS; i++)
    pthread_join (workers[i], NULL);

  /* Signals still pending run now, before the sum is taken.  */
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);

  int64_t all_adds = 0;
  for (int i = 0; i < THREADS; i++)
    all_adds += adds[i];
  int64_t expected = all_adds
                     + (int64_t) __atomic_load_n (&handler_runs,
                                                  __ATOMIC_RELAXED);
  int64_t total = rseq_compat_counter_read (&counter);
  int64_t via_rseq = 0, via_atomic = 0;
  for (unsigned int i = 0; i < counter.nslots; i++)
    {
      via_rseq += counter.slots[i].rseq;
      via_atomic += counter.slots[i].atomic;
    }
  printf ("mode %s: %lld = %lld adds by %d threads + %lu signals; rseq "
          "%lld, atomic %lld; %d CPUs\n", rt_expect (), (long long int) total,
          (long long int) all_adds, THREADS, handler_runs,
          (long long int) via_rseq,
          (long long int) via_atomic, nallowed);
  CHECK (total == expected, "counter %lld, expected %lld",
         (long long int) total, (long long int) expected);
  CHECK (handler_runs > 100, "only %lu signals handled", handler_runs);
  if (registered)
    {
      CHECK (via_rseq >= expected / 10 * 9,
             "registered, but only %lld of %lld adds took the restartable "
             "sequence", (long long int) via_rseq, (long long int) expected);
      if (aborts)
        CHECK (via_atomic > 0, "no add ever aborted");
    }
  else
    CHECK (via_rseq == 0, "%lld adds took the restartable sequence in "
           "mode %s", (long long int) via_rseq, rt_expect ());
  rseq_compat_counter_destroy (&counter);
  return rt_exit_status ();
}
