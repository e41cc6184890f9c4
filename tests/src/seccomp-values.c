/* What a process started under a seccomp filter that refuses rseq sees.
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

/* Run by seccomp-run, which says in RSEQ_SECCOMP_ERRNO what the rseq
   system call answers.  The mode is "unavailable" (or "disabled" when
   the tunable asked for that first): __rseq_size 0, __rseq_flags 0,
   __rseq_offset designating an area whose cpu_id is -2 in the main
   thread and in every new thread, and sched_getcpu / getcpu still right
   (pinned to every allowed CPU).  Under glibc, glibc's own __rseq_size
   is 0 too.  Threads run normally.  */

#include "rtest.h"
#include "seccomp-filter.h"

#include <pthread.h>

#define THREADS 8

typedef int getcpu_fn (unsigned int *, unsigned int *);

static struct rt_abi abi;
static getcpu_fn *getcpu_p;
static cpu_set_t allowed;
static int filter_errno;

static void
check_thread (const char *who)
{
  int id = rt_cpu_id (&abi);
  CHECK (id == RSEQ_CPU_ID_REGISTRATION_FAILED, "%s: cpu_id %d, expected -2",
         who, id);
  /* Whatever is tried, the filter answers.  */
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, rt_area (&abi),
                          rt_expected_len () ? rt_expected_len () : 32, 0,
                          RSEQ_SIG);
  CHECK (ret == -1 && errno == filter_errno, "%s: rseq on the area: %ld, %s",
         who, ret, strerror (errno));
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &allowed))
      {
        CHECK (rt_pin (cpu) == 0, "%s: pin %d: %s", who, cpu,
               strerror (errno));
        int got = sched_getcpu ();
        int sys = rt_syscall_cpu ();
        CHECK (got == cpu && sys == cpu, "%s: pinned to %d, sched_getcpu %d, "
               "kernel %d", who, cpu, got, sys);
        unsigned int c = ~0u, n = ~0u, sn = ~0u;
        syscall (SYS_getcpu, NULL, &sn, NULL);
        CHECK (getcpu_p (&c, &n) == 0 && (int) c == cpu && n == sn,
               "%s: pinned to %d, getcpu (%u, node %u), kernel node %u", who,
               cpu, c, n, sn);
        /* The kernel does not write an unregistered area.  */
        CHECK (rt_cpu_id (&abi) == RSEQ_CPU_ID_REGISTRATION_FAILED,
               "%s: pinned to %d, cpu_id %d", who, cpu, rt_cpu_id (&abi));
      }
  sched_setaffinity (0, sizeof allowed, &allowed);
}

static void *
thread_main (void *arg)
{
  check_thread (arg);
  return (void *) 1;
}

int
main (void)
{
  /* A hang (a thread that never reports) fails instead of blocking the
     suite.  */
  alarm (30);
  filter_errno = sf_errno_from_name (getenv ("RSEQ_SECCOMP_ERRNO"));
  CHECK (filter_errno != 0, "not run by seccomp-run (RSEQ_SECCOMP_ERRNO %s)",
         getenv ("RSEQ_SECCOMP_ERRNO") ? getenv ("RSEQ_SECCOMP_ERRNO")
                                       : "unset");
  int probe = sf_rseq_probe_errno ();
  CHECK (probe == filter_errno, "rseq probe: %s, expected %s",
         probe ? strerror (probe) : "success", strerror (filter_errno));

  abi = rt_abi ();
  getcpu_p = (getcpu_fn *) dlsym (RTLD_DEFAULT, "getcpu");
  CHECK (abi.offset != NULL && abi.size != NULL && abi.flags != NULL,
         "__rseq_offset %p, __rseq_size %p, __rseq_flags %p",
         (void *) abi.offset, (void *) abi.size, (void *) abi.flags);
  CHECK (getcpu_p != NULL, "no getcpu");
  if (rt_failures != 0)
    return rt_exit_status ();

  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s, expected %s",
         rt_shim_mode (), rt_expect ());
  CHECK (*abi.size == 0, "__rseq_size %u, expected 0", *abi.size);
  CHECK (*abi.flags == 0, "__rseq_flags %u", *abi.flags);
  const unsigned int *gsize = rt_glibc_size ();
  if (rt_libc_has_abi ())
    CHECK (*gsize == 0, "glibc's __rseq_size %u under the filter", *gsize);
  /* glibc's area where glibc has the ABI, else the shim's own.  */
  rt_check_offset ("main", *abi.offset);
  CHECK (sched_getaffinity (0, sizeof allowed, &allowed) == 0,
         "sched_getaffinity: %s", strerror (errno));

  check_thread ("main");
  pthread_t t[THREADS];
  int created = 0;
  for (int i = 0; i < THREADS; i++)
    {
      int err = pthread_create (&t[i], NULL, thread_main, (void *) "thread");
      CHECK (err == 0, "pthread_create: %s", strerror (err));
      if (err != 0)
        break;
      created++;
    }
  for (int i = 0; i < created; i++)
    {
      void *ret = NULL;
      pthread_join (t[i], &ret);
      CHECK (ret == (void *) 1, "thread %d returned %p", i, ret);
    }
  check_thread ("main again");
  return rt_exit_status ();
}
