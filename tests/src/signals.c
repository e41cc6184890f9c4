/* Signals on threads that just started, and pthread_exit from deep frames.
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

/* Usage: signals early|exit|last

   early: the whole process is pinned to one CPU.  Many times, a thread
   is created and sent a signal at once with pthread_kill, so that the
   handler runs as early in the thread's life as the C library lets it
   (possibly before the shim registered the thread).  In the handler the
   area's cpu_id must be -1 (not registered yet) or exactly that CPU in
   the owned modes, -1 or -2 in the others, and sched_getcpu () must be
   what the getcpu system call says.  The handler runs on the new
   thread and the thread itself ends registered (owned modes).

   exit: threads, joinable and detached, call pthread_exit 50 frames
   deep; a TSD destructor, which asks for three rounds, then checks in
   each sched_getcpu () against the system call (pinned) and, in the
   owned modes, that the thread is still registered with the kernel and
   its area holds that CPU; and once more after the threads exited the
   main thread keeps allocating memory that reuses theirs.

   last: main calls pthread_exit while another thread runs; that thread,
   once main is gone, returns, so that the C library runs the atexit
   handlers and the ELF destructors on it.  Each checks the registration
   there: glibc keeps it, and so does the shim on glibc.  musl runs them
   after the thread's destructor rounds, where the shim unregistered the
   thread (it cannot tell the last thread from a detached one in time),
   so there the area says -1 while __rseq_size still says registered:
   the limit doc/using.md states, pinned so that it changes only on
   purpose (46th review, F01).  */

#include "rtest.h"

#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>

static struct rt_abi abi;
static int the_cpu = -1;

/* ---- early --------------------------------------------------------- */

#define EARLY_THREADS 2000

static __thread volatile sig_atomic_t handled;
static unsigned int handler_runs, handler_bad, handler_before_reg;
static volatile int bad_id = 99, bad_getcpu = 99, bad_sys = 99;

static void
handler (int sig)
{
  (void) sig;
  int saved_errno = errno;
  int id = rt_cpu_id (&abi);
  int got = sched_getcpu ();
  int sys = rt_syscall_cpu ();
  int id_ok;
  if (rt_expect_registered ())
    id_ok = id == -1 || id == the_cpu;
  else
    id_ok = id == -1 || id == RSEQ_CPU_ID_REGISTRATION_FAILED;
  if (!id_ok || got != sys || sys != the_cpu)
    {
      if (__atomic_fetch_add (&handler_bad, 1, __ATOMIC_RELAXED) == 0)
        {
          bad_id = id;
          bad_getcpu = got;
          bad_sys = sys;
        }
    }
  if (id == -1)
    __atomic_add_fetch (&handler_before_reg, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&handler_runs, 1, __ATOMIC_RELAXED);
  handled = 1;
  errno = saved_errno;
}

static unsigned int threads_ok;

static void *
early_thread (void *arg)
{
  (void) arg;
  /* The signal was sent before this ran; it is pending at the latest
     once the signal mask is restored, which happens before here.  */
  while (!handled)
    sched_yield ();
  int id = rt_cpu_id (&abi);
  int ok = rt_expect_registered ()
           ? id == the_cpu && rt_registered (rt_area (&abi),
                                             rt_expected_len ())
           : id == RSEQ_CPU_ID_REGISTRATION_FAILED;
  if (ok)
    __atomic_add_fetch (&threads_ok, 1, __ATOMIC_RELAXED);
  return NULL;
}

static int
part_early (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset (&sa.sa_mask);
  CHECK (sigaction (SIGUSR1, &sa, NULL) == 0, "sigaction: %s",
         strerror (errno));

  int created = 0;
  for (int i = 0; i < EARLY_THREADS; i++)
    {
      pthread_t t;
      int err = pthread_create (&t, NULL, early_thread, NULL);
      if (err != 0)
        {
          CHECK (0, "pthread_create %d: %s", i, strerror (err));
          break;
        }
      err = pthread_kill (t, SIGUSR1);
      CHECK (err == 0, "pthread_kill: %s", strerror (err));
      if (err != 0)
        break;
      pthread_join (t, NULL);
      created++;
    }
  CHECK (handler_runs == (unsigned int) created, "handler ran %u times for "
         "%d threads", handler_runs, created);
  CHECK (handler_bad == 0, "%u handler runs saw a wrong state, first: "
         "cpu_id %d, sched_getcpu %d, kernel %d (pinned to %d, mode %s)",
         handler_bad, bad_id, bad_getcpu, bad_sys, the_cpu, rt_expect ());
  CHECK (threads_ok == (unsigned int) created, "%u of %d threads ended in "
         "the wrong state (mode %s)", created - threads_ok, created,
         rt_expect ());
  /* Not an assertion: how often the handler came before registration.  */
  printf ("%u of %u handler runs before the thread's registration\n",
          handler_before_reg, handler_runs);
  return rt_exit_status ();
}

/* ---- exit ---------------------------------------------------------- */

#define EXIT_ROUNDS 1000
#define DEPTH 50

static pthread_key_t key;
static unsigned int dtor_runs, dtor_bad;
static sem_t done;
static volatile int dtor_bad_got = 99, dtor_bad_sys = 99;
static volatile int dtor_bad_id = 99, dtor_bad_start = 99;
static volatile int dtor_bad_reg = 99, dtor_bad_round = 99;
static unsigned int expected_len;

/* The rounds of destructors a program may ask for and still find its
   thread registered in each: every one of POSIX's minimum (4) but the
   last, in which a C library that unregisters from a key destructor of
   its own (the shim on musl) may have gone first.  */
#define DTOR_ROUNDS (PTHREAD_DESTRUCTOR_ITERATIONS - 1)
static __thread int dtor_round;

static void
destructor (void *value)
{
  int got = sched_getcpu ();
  int sys = rt_syscall_cpu ();
  int round = ++dtor_round;
  /* In the owned modes the thread is registered in every key
     destructor, as glibc keeps it (tst-rseq-nptl): the kernel says so
     (EBUSY) and the area holds the CPU, not -1 and 0.  */
  int id = rt_cpu_id (&abi);
  int start = (int) __atomic_load_n (&rt_area (&abi)->cpu_id_start,
                                     __ATOMIC_RELAXED);
  int reg = rt_expect_registered ()
            ? rt_registered (rt_area (&abi), expected_len) : 1;
  int area_ok = !rt_expect_registered ()
                || (id == the_cpu && start == the_cpu);
  if (got != sys || got != the_cpu || value != (void *) &key || !reg
      || !area_ok)
    {
      if (__atomic_fetch_add (&dtor_bad, 1, __ATOMIC_RELAXED) == 0)
        {
          dtor_bad_got = got;
          dtor_bad_sys = sys;
          dtor_bad_id = id;
          dtor_bad_start = start;
          dtor_bad_reg = reg;
          dtor_bad_round = round;
        }
    }
  if (round < DTOR_ROUNDS)
    {
      pthread_setspecific (key, value);
      return;
    }
  __atomic_add_fetch (&dtor_runs, 1, __ATOMIC_RELAXED);
  sem_post (&done);
}

static int __attribute__ ((noinline))
recurse (int depth)
{
  volatile char frame[64];
  frame[0] = (char) depth;
  if (depth > DEPTH)
    return -1;
  if (depth == DEPTH)
    pthread_exit ((void *) (intptr_t) (depth + 1000));
  return recurse (depth + 1) + frame[0];
}

static void *
exit_thread (void *arg)
{
  (void) arg;
  pthread_setspecific (key, &key);
  return (void *) (intptr_t) recurse (1);
}

static int
part_exit (void)
{
  CHECK (pthread_key_create (&key, destructor) == 0, "pthread_key_create");
  expected_len = rt_expected_len ();
  sem_init (&done, 0, 0);
  pthread_attr_t det;
  pthread_attr_init (&det);
  pthread_attr_setdetachstate (&det, PTHREAD_CREATE_DETACHED);

  int started = 0;
  for (int i = 0; i < EXIT_ROUNDS; i++)
    {
      int detached = i & 1;
      pthread_t t;
      int err = pthread_create (&t, detached ? &det : NULL, exit_thread,
                                NULL);
      if (err != 0)
        {
          CHECK (0, "pthread_create %d: %s", i, strerror (err));
          break;
        }
      started++;
      if (!detached)
        {
          void *ret = NULL;
          pthread_join (t, &ret);
          CHECK (ret == (void *) (intptr_t) (DEPTH + 1000),
                 "thread %d returned %p", i, ret);
        }
      /* Memory the exited threads may have left: take it back.  */
      void *p = malloc (100 * 1024 + i * 64);
      CHECK (p != NULL, "malloc");
      if (p != NULL)
        memset (p, 0x5a, 100 * 1024 + i * 64);
      free (p);
    }
  for (int i = 0; i < started; i++)
    sem_wait (&done);
  for (int i = 0; i < 200; i++)
    {
      void *p = malloc (128 * 1024);
      if (p != NULL)
        memset (p, 0xa5, 128 * 1024);
      free (p);
      sched_yield ();
    }
  CHECK (dtor_runs == (unsigned int) started, "destructor ran %u times for "
         "%d threads", dtor_runs, started);
  CHECK (dtor_bad == 0, "%u destructor runs saw a wrong state, first in "
         "round %d: sched_getcpu %d, kernel %d, cpu_id %d, cpu_id_start %d, "
         "registered %d (pinned to %d, mode %s)", dtor_bad, dtor_bad_round,
         dtor_bad_got, dtor_bad_sys, dtor_bad_id, dtor_bad_start,
         dtor_bad_reg, the_cpu, rt_expect ());
  return rt_exit_status ();
}

/* ---- last --------------------------------------------------------- */

static int last_part;
static pid_t main_tid;
static unsigned int last_checks, last_size;

/* The state of the calling thread's registration as WHO sees it.  */
static void
last_check (const char *who)
{
  pid_t tid = (pid_t) syscall (SYS_gettid);
  CHECK (tid != main_tid, "%s ran on the main thread (%d), not on the last "
         "thread", who, (int) tid);
  int id = rt_cpu_id (&abi);
  unsigned int size = *abi.size;
  int got = sched_getcpu ();
  CHECK (got == rt_syscall_cpu () && got == the_cpu, "%s: sched_getcpu %d, "
         "kernel %d, pinned to %d", who, got, rt_syscall_cpu (), the_cpu);
  if (!rt_expect_registered ())
    CHECK (size == 0 && id == RSEQ_CPU_ID_REGISTRATION_FAILED,
           "%s: __rseq_size %u, cpu_id %d in mode %s", who, size, id,
           rt_expect ());
  else
    {
      int reg = rt_registered (rt_area (&abi), expected_len);
      CHECK (size == last_size, "%s: __rseq_size %u, expected %u", who,
             size, last_size);
#ifndef __GLIBC__
      if (rt_expect_is ("shim-owned"))
        /* The limit: unregistered although __rseq_size says otherwise.
           Should it ever be lifted, this fails and the docs change.  */
        CHECK (!reg && id == -1, "%s: registered %d, cpu_id %d; the "
               "documented musl limit is unregistered, cpu_id -1 (update "
               "doc/using.md if this changed)", who, reg, id);
      else
#endif
        CHECK (reg && id == the_cpu, "%s: registered %d, cpu_id %d, pinned "
               "to %d", who, reg, id, the_cpu);
    }
  last_checks++;
}

static void
last_atexit (void)
{
  last_check ("atexit handler");
}

/* After every atexit handler (musl runs ELF destructors after them, and
   glibc's _dl_fini is the first handler registered): the verdict.  */
__attribute__ ((destructor)) static void
last_destructor (void)
{
  if (!last_part)
    return;
  last_check ("ELF destructor");
  CHECK (last_checks == 2, "%u checks ran, expected 2", last_checks);
  fflush (stdout);
  _exit (rt_exit_status ());
}

/* Waits until the main thread is a zombie (it called pthread_exit),
   then returns: the process's last thread.  */
static void *
last_thread (void *arg)
{
  (void) arg;
  char path[64];
  snprintf (path, sizeof path, "/proc/self/task/%d/stat", (int) main_tid);
  for (int i = 0; i < 10000; i++)
    {
      char buf[512] = "";
      FILE *f = fopen (path, "r");
      if (f == NULL)
        break;
      size_t n = fread (buf, 1, sizeof buf - 1, f);
      fclose (f);
      buf[n] = '\0';
      const char *paren = strrchr (buf, ')');
      if (paren != NULL && paren[1] == ' ' && (paren[2] == 'Z'
                                               || paren[2] == 'X'))
        return NULL;
      usleep (1000);
    }
  fprintf (stderr, "FAIL the main thread did not exit\n");
  _exit (1);
}

static int
part_last (void)
{
  /* From auxv, through /proc/self: read now, as the leader's files
     (those of a zombie) no longer answer once main has exited.  */
  last_size = rt_expected_size ();
  expected_len = rt_expected_len ();
  main_tid = getpid ();
  last_part = 1;
  CHECK (atexit (last_atexit) == 0, "atexit");
  pthread_t t;
  int err = pthread_create (&t, NULL, last_thread, NULL);
  CHECK (err == 0, "pthread_create: %s", strerror (err));
  if (rt_failures != 0)
    return rt_exit_status ();
  pthread_exit (NULL);
}

int
main (int argc, char **argv)
{
  /* A hang (a thread that never reports) fails instead of blocking the
     suite.  */
  alarm (30);
  const char *part = argc > 1 ? argv[1] : "";
  abi = rt_abi ();
  CHECK (abi.offset != NULL, "no __rseq_offset");
  if (abi.offset == NULL)
    return rt_exit_status ();
  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s, expected %s",
         rt_shim_mode (), rt_expect ());

  /* One CPU for everything: the last allowed one, so that it is not
     always CPU 0.  */
  cpu_set_t set;
  CHECK (sched_getaffinity (0, sizeof set, &set) == 0, "sched_getaffinity");
  for (int i = 0; i < CPU_SETSIZE; i++)
    if (CPU_ISSET (i, &set))
      the_cpu = i;
  CHECK (the_cpu >= 0 && rt_pin (the_cpu) == 0, "pin to %d: %s", the_cpu,
         strerror (errno));
  CHECK (sched_getcpu () == the_cpu, "main: sched_getcpu %d, pinned to %d",
         sched_getcpu (), the_cpu);
  if (rt_failures != 0)
    return rt_exit_status ();

  if (strcmp (part, "early") == 0)
    return part_early ();
  if (strcmp (part, "exit") == 0)
    return part_exit ();
  if (strcmp (part, "last") == 0)
    return part_last ();
  fprintf (stderr, "FAIL usage: signals early|exit|last\n");
  return 2;
}
