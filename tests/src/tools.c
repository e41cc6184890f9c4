/* The program tools.exp runs under strace, valgrind and gdb.
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

/* Usage: tools strace [CALLS] | valgrind | gdb | plain

   strace: THREADS threads; every thread (main first) prints
   "tid TID area ADDRESS" (its thread pointer + __rseq_offset) for the
   harness to match against strace's rseq lines.  Then, alone, the main
   thread makes the marker system call write (-1, "rseq-compat-begin",
   17), calls sched_getcpu CALLS times (default GETCPU_CALLS, divided by
   RSEQ_TEST_SCALE), and makes the marker
   write (-1, "rseq-compat-end", 15): strace must show no system call
   in between.  Every answer must be a CPU the process may run on.

   valgrind: valgrind answers ENOSYS to rseq.  The shim must report the
   mode RSEQ_EXPECT names (unavailable, or disabled with the tunable)
   with __rseq_size 0 (and, where it probed itself, probe error
   ENOSYS); THREADS threads read cpu_id -2, sched_getcpu
   equal to the getcpu system call, and add to a per-CPU counter, which
   must come out exact through the atomic fallback alone.

   gdb: the harness breaks in traced_add and traced_getcpu and
   single-steps both to their return.  Every single-step trap stops the
   thread inside the restartable sequence, so the kernel sends it to
   the abort handler each time: the add must give up after its retries
   and use the atomic fallback (the counter's atomic word holds the add,
   its rseq word nothing), and sched_getcpu must still answer the
   getcpu system call's CPU.  "plain" is the same run without gdb: the
   add then goes through the restartable sequence.  */

#include "rtest.h"

#include <pthread.h>

#include <rseq-compat.h>

#define THREADS 8
#define GETCPU_CALLS 10000000L
#define ADD_VALUE 1000

static struct rt_abi abi;
static struct rseq_compat_counter counter;
static cpu_set_t allowed;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

static void
print_tid (void)
{
  pthread_mutex_lock (&print_lock);
  printf ("tid %ld area %#lx\n", (long int) syscall (SYS_gettid),
          (unsigned long int) rt_area (&abi));
  fflush (stdout);
  pthread_mutex_unlock (&print_lock);
}

static void *
strace_thread (void *arg)
{
  print_tid ();
  int cpu = sched_getcpu ();
  CHECK (cpu >= 0 && CPU_ISSET (cpu, &allowed), "thread: sched_getcpu %d",
         cpu);
  return arg;
}

static int
run_strace (long int calls)
{
  print_tid ();
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK (pthread_create (&t[i], NULL, strace_thread, NULL) == 0,
           "pthread_create");
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);

  int bad = 0, last = -1;
  syscall (SYS_write, -1, "rseq-compat-begin", 17);
  for (long int i = 0; i < calls; i++)
    {
      last = sched_getcpu ();
      bad += last < 0 || last >= CPU_SETSIZE;
    }
  syscall (SYS_write, -1, "rseq-compat-end", 15);
  CHECK (bad == 0, "%d of %ld sched_getcpu answers out of range", bad,
         calls);
  CHECK (CPU_ISSET (last, &allowed), "sched_getcpu %d: not an allowed CPU",
         last);
  return rt_exit_status ();
}

static void *
valgrind_thread (void *arg)
{
  int id = rt_cpu_id (&abi);
  CHECK (id == RSEQ_CPU_ID_REGISTRATION_FAILED,
         "thread under valgrind: cpu_id %d, expected -2", id);
  for (int i = 0; i < 1000; i++)
    {
      int sys = rt_syscall_cpu ();
      int got = sched_getcpu ();
      int again = rt_syscall_cpu ();
      /* Between two equal system call answers the thread did not move
         (or came back): sched_getcpu must agree.  */
      if (sys == again)
        CHECK (got == sys, "sched_getcpu %d, getcpu system call %d", got,
               sys);
      rseq_compat_counter_add (&counter, 1);
    }
  return arg;
}

static int
run_valgrind (void)
{
  const char *(*mode) (void) = (const char *(*) (void))
    dlsym (RTLD_DEFAULT, "rseq_compat_mode");
  long int (*query) (const char *) = (long int (*) (const char *))
    dlsym (RTLD_DEFAULT, "rseq_compat_query");
  CHECK (mode != NULL && query != NULL, "librseq-compat is not loaded");
  if (mode == NULL || query == NULL)
    return rt_exit_status ();
  CHECK (strcmp (mode (), rt_expect ()) == 0,
         "mode %s under valgrind, expected %s", mode (), rt_expect ());
  CHECK (*abi.size == 0, "__rseq_size %u under valgrind, expected 0",
         *abi.size);
  /* The shim probes the kernel itself only where the C library has no
     registration of its own (musl, glibc before 2.35).  */
  long int err = query ("probe_errno");
  if (rt_libc_has_abi () || !rt_expect_is ("unavailable"))
    CHECK (err == 0, "probe_errno %ld: the shim should not have probed",
           err);
  else
    CHECK (err == ENOSYS, "probe_errno %ld, expected ENOSYS (%d)", err,
           ENOSYS);
  CHECK (query ("thread_registered") == 0, "main thread registered");
  CHECK (rt_cpu_id (&abi) == RSEQ_CPU_ID_REGISTRATION_FAILED,
         "main: cpu_id %d, expected -2", rt_cpu_id (&abi));

  CHECK (rseq_compat_counter_init (&counter) == 0, "counter");
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK (pthread_create (&t[i], NULL, valgrind_thread, NULL) == 0,
           "pthread_create");
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  int64_t total = rseq_compat_counter_read (&counter), fast = 0;
  for (unsigned int i = 0; i < counter.nslots; i++)
    fast += counter.slots[i].rseq;
  CHECK (total == THREADS * 1000, "counter %lld, expected %d",
         (long long int) total, THREADS * 1000);
  CHECK (fast == 0, "%lld adds took the restartable sequence, with nothing "
         "registered", (long long int) fast);
  rseq_compat_counter_destroy (&counter);
  return rt_exit_status ();
}

/* Not inlined: the harness breaks on these two and steps them.  */
__attribute__ ((noinline)) void
traced_add (struct rseq_compat_counter *c, int64_t v)
{
  rseq_compat_counter_add (c, v);
}

__attribute__ ((noinline)) int
traced_getcpu (void)
{
  return sched_getcpu ();
}

static int
run_gdb (int stepped)
{
  CHECK (rt_expect_registered (), "RSEQ_EXPECT %s: the gdb test needs a "
         "registered mode", rt_expect ());
  CHECK (rseq_compat_counter_init (&counter) == 0, "counter");
  /* One CPU: the add and sched_getcpu cannot be moved elsewhere, so the
     only aborts are the single-step traps.  */
  int cpu = -1;
  for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++)
    if (CPU_ISSET (i, &allowed))
      cpu = i;
  CHECK (rt_pin (cpu) == 0, "pin %d: %s", cpu, strerror (errno));
  CHECK (rt_cpu_id (&abi) == cpu, "cpu_id %d, pinned to %d",
         rt_cpu_id (&abi), cpu);

  traced_add (&counter, ADD_VALUE);
  int got = traced_getcpu ();

  int64_t total = rseq_compat_counter_read (&counter);
  int64_t fast = counter.slots[cpu].rseq, slow = 0;
  for (unsigned int i = 0; i < counter.nslots; i++)
    slow += counter.slots[i].atomic;
  printf ("counter %lld: rseq %lld, atomic %lld; sched_getcpu %d\n",
          (long long int) total, (long long int) fast, (long long int) slow,
          got);
  CHECK (total == ADD_VALUE, "counter %lld, expected %d",
         (long long int) total, ADD_VALUE);
  if (stepped)
    CHECK (slow == ADD_VALUE && fast == 0, "single-stepped add: rseq word "
           "%lld, atomic word %lld: expected the fallback",
           (long long int) fast, (long long int) slow);
  else
    CHECK (fast == ADD_VALUE && slow == 0, "plain add: rseq word %lld, "
           "atomic word %lld: expected the restartable sequence",
           (long long int) fast, (long long int) slow);
  CHECK (got == cpu && rt_syscall_cpu () == cpu,
         "sched_getcpu %d, pinned to %d", got, cpu);
  return rt_exit_status ();
}

int
main (int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "";
  abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL, "no __rseq_offset/size");
  CHECK (sched_getaffinity (0, sizeof allowed, &allowed) == 0,
         "sched_getaffinity: %s", strerror (errno));
  if (rt_failures != 0)
    return rt_exit_status ();
  if (strcmp (what, "strace") == 0)
    return run_strace (argc > 2 ? strtol (argv[2], NULL, 10)
                       : rt_scaled (GETCPU_CALLS));
  if (strcmp (what, "valgrind") == 0)
    return run_valgrind ();
  if (strcmp (what, "gdb") == 0)
    return run_gdb (1);
  if (strcmp (what, "plain") == 0)
    return run_gdb (0);
  fprintf (stderr, "usage: tools strace|valgrind|gdb|plain\n");
  return 2;
}
