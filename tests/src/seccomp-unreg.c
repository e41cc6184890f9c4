/* Under a filter that refuses rseq's unregistrations only.
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

/* Usage: seccomp-unreg ENOSYS|EPERM|EINVAL|0

   Installs a filter that answers rseq's unregistrations with the
   named error (0: answers 0 without doing the call) and allows every
   other call, registrations included, then execs itself: the filter
   is in place before the C library and the shim start.  Such a filter
   is what an allowlist written by watching glibc 2.35 and later, which
   never unregisters, may hold; glibc registers under it as without
   it.  The shim must be able to take back a registration (its start-up
   probe's, and on musl each thread's as it exits), so it runs as the C
   library alone would: unavailable, nothing registered (71st review:
   the probe's scratch registration stayed, the main thread's own was
   refused, cpu_id -2 under a nonzero __rseq_size, and on musl every
   detached thread was kept at its exit).  The expected mode is
   RSEQ_EXPECT's: libc-owned stays, shim-owned becomes unavailable in
   seccomp.exp.  EINVAL, the kernel's own answer, passes the probe's
   first unregistration, and its scratch area stays registered (a limit
   doc/using.md tells, 72nd review): unavailable all the same.  Then
   THREADS detached threads check their own state and exit, and none of
   them may be left.

   Nothing here registers an area to test it (rt_registered would, and
   the filter would keep that registration): a registration expected
   is checked by EBUSY, its absence by cpu_id -2.  */

#include "rtest.h"
#include "seccomp-filter.h"

#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#define THREADS 200

static struct rt_abi abi;
static int owned;
static sem_t done;
/* The threads' TIDs: a sanitizer's runtime has threads of its own, so
   the process's thread count says nothing.  */
static pid_t tids[THREADS];
static int ntids;

static void
check_self (const char *who)
{
  if (owned)
    CHECK (rt_registered (rt_area (&abi), rt_expected_len ()),
           "%s: not registered (cpu_id %d)", who, rt_cpu_id (&abi));
  else
    CHECK (rt_cpu_id (&abi) == RSEQ_CPU_ID_REGISTRATION_FAILED,
           "%s: cpu_id %d, expected -2", who, rt_cpu_id (&abi));
}

static void *
thread_main (void *arg)
{
  (void) arg;
  check_self ("thread");
  tids[__atomic_fetch_add (&ntids, 1, __ATOMIC_RELAXED)]
    = (pid_t) syscall (SYS_gettid);
  sem_post (&done);
  return NULL;
}

/* How many of the threads still exist.  */
static int
threads_left (void)
{
  int n = 0;
  for (int i = 0; i < ntids; i++)
    {
      char path[64];
      snprintf (path, sizeof path, "/proc/self/task/%d", (int) tids[i]);
      n += access (path, F_OK) == 0;
    }
  return n;
}

int
main (int argc, char **argv)
{
  alarm (60);
  if (argc == 2)
    {
      int err = sf_errno_from_name (argv[1]);
      if (err == 0 && strcmp (argv[1], "0") != 0)
        {
          fprintf (stderr,
                   "FAIL usage: seccomp-unreg ENOSYS|EPERM|EINVAL|0\n");
          return 125;
        }
      err = sf_install_unregister_action (SECCOMP_RET_ERRNO
                                          | ((unsigned int) err
                                             & SECCOMP_RET_DATA));
      if (err != 0)
        {
          fprintf (stderr, "FAIL seccomp-unreg: installing the filter: %s\n",
                   strerror (err));
          return 125;
        }
      char *args[] = { argv[0], argv[1], (char *) "run", NULL };
      execv (argv[0], args);
      fprintf (stderr, "FAIL seccomp-unreg: %s: %s\n", argv[0],
               strerror (errno));
      return 125;
    }

  abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL, "no __rseq_offset/size");
  if (rt_failures != 0)
    return rt_exit_status ();
  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s, expected %s",
         rt_shim_mode (), rt_expect ());
  owned = rt_expect_registered ();
  CHECK (*abi.size == (owned ? rt_expected_size () : 0),
         "__rseq_size %u in mode %s", *abi.size, rt_expect ());
  check_self ("main");

  sem_init (&done, 0, 0);
  pthread_attr_t det;
  pthread_attr_init (&det);
  pthread_attr_setdetachstate (&det, PTHREAD_CREATE_DETACHED);
  int started = 0;
  for (int i = 0; i < THREADS; i++)
    {
      pthread_t t;
      int err = pthread_create (&t, &det, thread_main, NULL);
      CHECK (err == 0, "pthread_create %d: %s", i, strerror (err));
      started += err == 0;
    }
  for (int i = 0; i < started; i++)
    sem_wait (&done);
  int n = -1;
  for (int round = 0; round < 500; round++)
    {
      n = threads_left ();
      if (n == 0)
        break;
      struct timespec ts = { 0, 10 * 1000 * 1000 };
      nanosleep (&ts, NULL);
    }
  CHECK (ntids == started, "%d of %d threads ran", ntids, started);
  CHECK (n == 0, "%d of the %d detached threads still there", n, started);
  check_self ("main again");
  return rt_exit_status ();
}
