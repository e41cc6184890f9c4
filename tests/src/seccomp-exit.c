/* Detached threads that refuse rseq to themselves and exit.
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

/* Usage: seccomp-exit ENOSYS|EPERM|EINVAL|0

   Each of THREADS threads, registered like every thread of its mode,
   installs a seccomp filter for itself that refuses rseq, and exits:
   half are created detached, half joinable and detach themselves from
   a thread-specific data destructor of the program's (after the
   shim's has run once).  EINVAL is what the kernel itself answers for
   an area it has not registered; 0, a filter that answers 0 without
   doing the call, which looks like a real unregistration (69th
   review: the shim let such a thread unmap its live area).  musl unmaps a detached thread's stack and TLS (the area
   with them) before its exit system call; with the registration still
   live (the filter refuses its undoing) the kernel's next write into
   the area would kill the process.  Without the shim these threads
   exit like any.  The shim cannot unregister them, so it keeps each
   one, parked, for the life of the process: the process must live,
   with exactly THREADS threads more in shim-owned mode and none more
   in any other, and the main thread's registration must be intact.  */

#include "rtest.h"
#include "seccomp-filter.h"

#include <pthread.h>
#include <semaphore.h>
#include <time.h>

#define THREADS 400

static struct rt_abi abi;
static int filter_errno;
static sem_t filtered;
static int owned;

static pthread_key_t detach_key;

/* Runs after the shim's destructor (its key was made first).  */
static void
detach_self (void *value)
{
  (void) value;
  pthread_detach (pthread_self ());
}

static void *
thread_main (void *arg)
{
  if (arg != NULL)
    pthread_setspecific (detach_key, arg);
  CHECK (rt_registered (rt_area (&abi), rt_expected_len ()) == owned,
         "thread: registered %d, expected %d", !owned, owned);
  int err = sf_install (filter_errno);
  CHECK (err == 0, "thread: installing the filter: %s", strerror (err));
  int probe = sf_rseq_probe_errno ();
  CHECK (probe == filter_errno, "thread: rseq probe under the filter: %s",
         probe ? strerror (probe) : "success");
  sem_post (&filtered);
  return NULL;
}

/* The Threads: line of /proc/self/status, or -1.  */
static int
thread_count (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  int n = -1;
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    if (sscanf (line, "Threads: %d", &n) == 1)
      break;
  if (f != NULL)
    fclose (f);
  return n;
}

int
main (int argc, char **argv)
{
  alarm (60);
  const char *name = argc > 1 ? argv[1] : "";
  filter_errno = sf_errno_from_name (name);
  CHECK (filter_errno != 0 || strcmp (name, "0") == 0,
         "usage: seccomp-exit ENOSYS|EPERM|EINVAL|0");
  CHECK (pthread_key_create (&detach_key, detach_self) == 0,
         "pthread_key_create");
  abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL, "no __rseq_offset/size");
  if (rt_failures != 0)
    return rt_exit_status ();
  owned = rt_expect_registered ();
  sem_init (&filtered, 0, 0);
  pthread_attr_t det;
  pthread_attr_init (&det);
  pthread_attr_setdetachstate (&det, PTHREAD_CREATE_DETACHED);
  int started = 0;
  for (int i = 0; i < THREADS; i++)
    {
      pthread_t t;
      int err = i & 1 ? pthread_create (&t, NULL, thread_main, (void *) 1)
                      : pthread_create (&t, &det, thread_main, NULL);
      CHECK (err == 0, "pthread_create %d: %s", i, strerror (err));
      started += err == 0;
    }
  for (int i = 0; i < started; i++)
    sem_wait (&filtered);

  /* Give the exits time, with preemption and memory reuse around them
     (what made the kernel write into an unmapped area).  */
  int want = 1 + (strcmp (rt_expect (), "shim-owned") == 0 ? started : 0);
  int n = -1;
  for (int round = 0; round < 200; round++)
    {
      for (int i = 0; i < 20; i++)
        {
          void *p = malloc (128 * 1024);
          if (p != NULL)
            memset (p, 0x3c, 128 * 1024);
          free (p);
          sched_yield ();
        }
      struct timespec ts = { 0, 10 * 1000 * 1000 };
      nanosleep (&ts, NULL);
      n = thread_count ();
      if (n == want && round >= 20)
        break;
    }
  CHECK (n == want, "%d threads after the exits, expected %d (mode %s)", n,
         want, rt_expect ());
  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s afterwards",
         rt_shim_mode ());
  CHECK (rt_registered (rt_area (&abi), rt_expected_len ()) == owned,
         "main: registered %d afterwards, expected %d", !owned, owned);
  return rt_exit_status ();
}
