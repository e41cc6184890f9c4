/* An application that registers an rseq area of its own.
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

/* What tcmalloc and older librseq do: register their own area.  While
   the shim or glibc owns the thread's registration the kernel must
   refuse, in the way the facts say (EINVAL for another area or length,
   EPERM for the same area with another signature, EBUSY for the very
   same registration), and an unregistration with the wrong arguments
   must fail too; afterwards the published values, the mode and the
   registration are unchanged and cpu_id follows the thread.  With
   nothing registered (disabled modes) the application's registration
   succeeds, its cpu_id follows the thread, and it can unregister.  In
   the main thread and in a new thread, pinned to every allowed CPU.  */

#include "rtest.h"

#include <pthread.h>

static struct rt_abi abi;
static cpu_set_t allowed;

struct snapshot
{
  ptrdiff_t offset;
  unsigned int size;
  unsigned int flags;
  const char *mode;
};

static struct snapshot
snap (void)
{
  struct snapshot s = { *abi.offset, *abi.size, *abi.flags, rt_shim_mode () };
  return s;
}

static void
check_unchanged (const char *who, const struct snapshot *before)
{
  struct snapshot now = snap ();
  CHECK (now.offset == before->offset && now.size == before->size
         && now.flags == before->flags
         && strcmp (now.mode, before->mode) == 0,
         "%s: offset %td size %u flags %u mode %s, before %td %u %u %s", who,
         now.offset, now.size, now.flags, now.mode, before->offset,
         before->size, before->flags, before->mode);
}

/* The raw system call; returns 0 or errno.  */
static int
sys_rseq (void *area, unsigned int len, int flags, unsigned int sig)
{
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, area, len, flags, sig);
  return ret == 0 ? 0 : errno;
}

/* Pinned to each allowed CPU, *CPU_ID must be that CPU.  */
static void
check_follows (const char *who, const volatile uint32_t *cpu_id)
{
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &allowed))
      {
        CHECK (rt_pin (cpu) == 0, "%s: pin %d: %s", who, cpu,
               strerror (errno));
        CHECK ((int) *cpu_id == cpu, "%s: pinned to %d, cpu_id %d", who, cpu,
               (int) *cpu_id);
        CHECK (sched_getcpu () == cpu, "%s: pinned to %d, sched_getcpu %d",
               who, cpu, sched_getcpu ());
      }
  sched_setaffinity (0, sizeof allowed, &allowed);
}

static void
second_registrant (const char *who)
{
  struct snapshot before = snap ();
  struct rseq *owner = rt_area (&abi);
  unsigned int len = rt_expected_len ();
  /* Big enough for every length tried below.  */
  static __thread struct
  {
    struct rseq abi;
    unsigned char more[32];
  } own __attribute__ ((aligned (64)));
  memset (&own, 0, sizeof own);
  own.abi.cpu_id = (uint32_t) RSEQ_CPU_ID_UNINITIALIZED;

  if (rt_expect_registered ())
    {
      int err = sys_rseq (&own, 32, 0, RSEQ_SIG);
      CHECK (err == EINVAL, "%s: own area: %s, expected EINVAL", who,
             err ? strerror (err) : "registered");
      if (err == 0)
        sys_rseq (&own, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
      CHECK ((int) own.abi.cpu_id == RSEQ_CPU_ID_UNINITIALIZED,
             "%s: the kernel wrote cpu_id %d into the refused area", who,
             (int) own.abi.cpu_id);

      /* The owner's area with another length.  */
      unsigned int other_len = len == 32 ? 64 : 32;
      err = sys_rseq (owner, other_len, 0, RSEQ_SIG);
      CHECK (err == EINVAL, "%s: owner's area, length %u: %s, expected "
             "EINVAL", who, other_len, err ? strerror (err) : "registered");

      /* The owner's area with another signature.  */
      err = sys_rseq (owner, len, 0, RSEQ_SIG ^ 0x1);
      CHECK (err == EPERM, "%s: owner's area, other signature: %s, "
             "expected EPERM", who, err ? strerror (err) : "registered");

      /* Exactly the owner's registration.  */
      err = sys_rseq (owner, len, 0, RSEQ_SIG);
      CHECK (err == EBUSY, "%s: owner's very registration: %s, expected "
             "EBUSY", who, err ? strerror (err) : "registered");
      CHECK (rt_registered (owner, len), "%s: not registered", who);

      /* Unregistering what is not registered, or with another
         signature.  */
      err = sys_rseq (&own, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
      CHECK (err == EINVAL, "%s: unregister own area: %s, expected EINVAL",
             who, err ? strerror (err) : "unregistered");
      err = sys_rseq (owner, len, RSEQ_FLAG_UNREGISTER, RSEQ_SIG ^ 0x1);
      CHECK (err == EPERM, "%s: unregister with other signature: %s, "
             "expected EPERM", who, err ? strerror (err) : "unregistered");

      check_unchanged (who, &before);
      CHECK (rt_registered (owner, len), "%s: not registered after the "
             "attempts", who);
      check_follows (who, &owner->cpu_id);
    }
  else
    {
      CHECK (rt_cpu_id (&abi) == RSEQ_CPU_ID_REGISTRATION_FAILED,
             "%s: cpu_id %d before, expected -2", who, rt_cpu_id (&abi));
      int err = sys_rseq (&own, 32, 0, RSEQ_SIG);
      CHECK (err == 0, "%s: own registration: %s", who, strerror (err));
      if (err != 0)
        return;
      CHECK (rt_registered (&own, 32), "%s: own area not registered", who);
      check_follows (who, &own.abi.cpu_id);
      /* The published area is not the application's and stays as it
         was.  */
      CHECK ((void *) rt_area (&abi) != (void *) &own, "%s: same area", who);
      CHECK (rt_cpu_id (&abi) == RSEQ_CPU_ID_REGISTRATION_FAILED,
             "%s: published cpu_id %d, expected -2", who, rt_cpu_id (&abi));
      check_unchanged (who, &before);
      /* A second application registration elsewhere is refused.  */
      static __thread struct rseq other __attribute__ ((aligned (32)));
      err = sys_rseq (&other, 32, 0, RSEQ_SIG);
      CHECK (err == EINVAL, "%s: second own area: %s, expected EINVAL", who,
             err ? strerror (err) : "registered");
      err = sys_rseq (&own, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
      CHECK (err == 0, "%s: unregister own: %s", who, strerror (err));
      CHECK ((int) own.abi.cpu_id == RSEQ_CPU_ID_UNINITIALIZED,
             "%s: own cpu_id %d after unregistration", who,
             (int) own.abi.cpu_id);
      CHECK (!rt_registered (&own, 32), "%s: still registered", who);
      int got = sched_getcpu (), sys = rt_syscall_cpu ();
      CHECK (got >= 0 && got < CPU_SETSIZE && CPU_ISSET (got, &allowed),
             "%s: sched_getcpu %d (kernel %d)", who, got, sys);
    }
}

static void *
thread_main (void *arg)
{
  second_registrant (arg);
  return NULL;
}

int
main (void)
{
  /* A hang (a thread that never reports) fails instead of blocking the
     suite.  */
  alarm (30);
  abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL && abi.flags != NULL,
         "__rseq_offset %p, __rseq_size %p, __rseq_flags %p",
         (void *) abi.offset, (void *) abi.size, (void *) abi.flags);
  if (rt_failures != 0)
    return rt_exit_status ();
  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s, expected %s",
         rt_shim_mode (), rt_expect ());
  CHECK (*abi.size == rt_expected_size (), "__rseq_size %u, expected %u",
         *abi.size, rt_expected_size ());
  CHECK (sched_getaffinity (0, sizeof allowed, &allowed) == 0,
         "sched_getaffinity: %s", strerror (errno));

  second_registrant ("main");
  for (int i = 0; i < 4; i++)
    {
      pthread_t t;
      int err = pthread_create (&t, NULL, thread_main, (void *) "thread");
      CHECK (err == 0, "pthread_create: %s", strerror (err));
      if (err == 0)
        pthread_join (t, NULL);
    }
  /* The main thread again, after its own attempts and the threads'.  */
  second_registrant ("main again");
  return rt_exit_status ();
}
