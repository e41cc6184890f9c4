/* A seccomp filter refusing rseq installed after the main thread registered.
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

/* Usage: seccomp-late ENOSYS|EPERM

   What a program that sandboxes itself after start-up does.  For the
   shim's own registrations only (musl): glibc aborts by design when a
   thread cannot register after the main thread did.

   The main thread is registered (shim-owned) when the filter goes in.
   Threads created afterwards must run normally, with cpu_id -2 that the
   kernel never overwrites (pinned to every CPU: nothing registered) and
   sched_getcpu / getcpu equal to the system call; joinable and
   detached ones, whose exit must not crash.  The main thread stays
   registered: its cpu_id follows it from CPU to CPU (the rseq system
   call itself can no longer tell).  A forked child keeps the main
   thread's registration, and a vfork leaves it alone.  In the disabled
   mode everything reads -2.  */

#include "rtest.h"
#include "seccomp-filter.h"

#include <pthread.h>
#include <semaphore.h>
#include <sys/wait.h>

#define THREADS 16

typedef int getcpu_fn (unsigned int *, unsigned int *);

static struct rt_abi abi;
static getcpu_fn *getcpu_p;
static cpu_set_t allowed;
static int filter_errno;
static sem_t detached_done;

/* Pinned to each CPU in turn: *CPU_ID must follow (LIVE) or stay -2.  */
static void
check_cpus (const char *who, int live)
{
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &allowed))
      {
        CHECK (rt_pin (cpu) == 0, "%s: pin %d: %s", who, cpu,
               strerror (errno));
        int id = rt_cpu_id (&abi);
        if (live)
          CHECK (id == cpu, "%s: pinned to %d, cpu_id %d: not registered",
                 who, cpu, id);
        else
          CHECK (id == RSEQ_CPU_ID_REGISTRATION_FAILED,
                 "%s: pinned to %d, cpu_id %d, expected -2", who, cpu, id);
        int got = sched_getcpu ();
        int sys = rt_syscall_cpu ();
        CHECK (got == cpu && sys == cpu, "%s: pinned to %d, sched_getcpu "
               "%d, kernel %d", who, cpu, got, sys);
        unsigned int c = ~0u, n = ~0u, sn = ~0u;
        syscall (SYS_getcpu, NULL, &sn, NULL);
        CHECK (getcpu_p (&c, &n) == 0 && (int) c == cpu && n == sn,
               "%s: pinned to %d, getcpu (%u, node %u), kernel node %u", who,
               cpu, c, n, sn);
      }
  sched_setaffinity (0, sizeof allowed, &allowed);
}

static void
check_new_thread (const char *who)
{
  int id = rt_cpu_id (&abi);
  CHECK (id == RSEQ_CPU_ID_REGISTRATION_FAILED, "%s: cpu_id %d, expected -2",
         who, id);
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, rt_area (&abi),
                          rt_expected_len () ? rt_expected_len () : 32, 0,
                          RSEQ_SIG);
  CHECK (ret == -1 && errno == filter_errno, "%s: rseq: %ld, %s", who, ret,
         strerror (errno));
  check_cpus (who, 0);
}

static void *
joinable_main (void *arg)
{
  check_new_thread (arg);
  return (void *) 1;
}

static void *
detached_main (void *arg)
{
  check_new_thread (arg);
  sem_post (&detached_done);
  return NULL;
}

int
main (int argc, char **argv)
{
  /* A hang (a thread that never reports) fails instead of blocking the
     suite.  */
  alarm (30);
  filter_errno = sf_errno_from_name (argc > 1 ? argv[1] : NULL);
  CHECK (filter_errno != 0, "usage: seccomp-late ENOSYS|EPERM");
  abi = rt_abi ();
  getcpu_p = (getcpu_fn *) dlsym (RTLD_DEFAULT, "getcpu");
  CHECK (abi.offset != NULL && abi.size != NULL, "no __rseq_offset/size");
  CHECK (getcpu_p != NULL, "no getcpu");
  if (rt_failures != 0)
    return rt_exit_status ();
  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s, expected %s",
         rt_shim_mode (), rt_expect ());
  CHECK (sched_getaffinity (0, sizeof allowed, &allowed) == 0,
         "sched_getaffinity: %s", strerror (errno));
  int owned = rt_expect_registered ();
  unsigned int size = *abi.size;

  /* Before the filter.  */
  CHECK (owned == rt_registered (rt_area (&abi), rt_expected_len ()),
         "main: registered %d before the filter, mode %s", !owned,
         rt_expect ());
  if (!owned)
    /* rt_registered's trial registration left -1 behind.  */
    rt_area (&abi)->cpu_id = (uint32_t) RSEQ_CPU_ID_REGISTRATION_FAILED;
  check_cpus ("main before", owned);

  int err = sf_install (filter_errno);
  CHECK (err == 0, "installing the filter: %s", strerror (err));
  int probe = sf_rseq_probe_errno ();
  CHECK (probe == filter_errno, "rseq probe under the filter: %s",
         probe ? strerror (probe) : "success");
  if (rt_failures != 0)
    return rt_exit_status ();

  sem_init (&detached_done, 0, 0);
  pthread_attr_t det;
  pthread_attr_init (&det);
  pthread_attr_setdetachstate (&det, PTHREAD_CREATE_DETACHED);
  pthread_t t[THREADS];
  int joinable = 0, detached = 0;
  for (int i = 0; i < THREADS; i++)
    {
      pthread_t d;
      err = i & 1 ? pthread_create (&d, &det, detached_main, "detached")
                  : pthread_create (&t[joinable], NULL, joinable_main,
                                    "joinable");
      CHECK (err == 0, "pthread_create %d: %s", i, strerror (err));
      if (err == 0)
        {
          if (i & 1)
            detached++;
          else
            joinable++;
        }
    }
  for (int i = 0; i < joinable; i++)
    {
      void *ret = NULL;
      pthread_join (t[i], &ret);
      CHECK (ret == (void *) 1, "thread %d returned %p", i, ret);
    }
  for (int i = 0; i < detached; i++)
    sem_wait (&detached_done);
  /* Reuse what the detached threads leave behind.  */
  for (int i = 0; i < 100; i++)
    {
      void *p = malloc (128 * 1024);
      if (p != NULL)
        memset (p, 0x3c, 128 * 1024);
      free (p);
      sched_yield ();
    }

  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s afterwards",
         rt_shim_mode ());
  CHECK (*abi.size == size, "__rseq_size %u afterwards, was %u", *abi.size,
         size);
  check_cpus ("main after", owned);

  /* vfork: the shim cannot pause the main thread's registration any
     more (the rseq system call fails), so it must leave the area alone,
     still registered and current; writing it would even be fatal in the
     kernel's optimized mode.  The child's answer is not checked: with
     the parent's registration live it can only read the parent's
     cpu_id.  */
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &allowed))
      {
        CHECK (rt_pin (cpu) == 0, "pin %d: %s", cpu, strerror (errno));
        pid_t vpid = vfork ();
        if (vpid == 0)
          _exit (0);
        int id = rt_cpu_id (&abi);
        CHECK (vpid > 0, "vfork: %s", strerror (errno));
        if (vpid > 0)
          waitpid (vpid, NULL, 0);
        CHECK (id == (owned ? cpu : RSEQ_CPU_ID_REGISTRATION_FAILED),
               "main, pinned to %d, right after vfork: cpu_id %d (mode %s)",
               cpu, id, rt_expect ());
      }
  sched_setaffinity (0, sizeof allowed, &allowed);
  check_cpus ("main after vfork", owned);

  fflush (NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      rt_failures = 0;		/* The child's own count.  */
      check_cpus ("fork child", owned);
      _exit (rt_failures != 0);
    }
  CHECK (pid > 0, "fork: %s", strerror (errno));
  if (pid > 0)
    {
      int status;
      waitpid (pid, &status, 0);
      CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0,
             "fork child status %#x", status);
    }
  return rt_exit_status ();
}
