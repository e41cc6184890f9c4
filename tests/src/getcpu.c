/* sched_getcpu and getcpu against the getcpu system call, pinned and not.
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

/* Pinned to each allowed CPU in turn, in the main thread and in a new
   thread, sched_getcpu () and getcpu () must give what the kernel's
   getcpu system call gives (CPU and node), and the area's cpu_id must
   follow the migration in the registered modes (or stay -2 in the
   others).  Unpinned, with sched_yield in between, every answer must be
   a CPU of the affinity mask, and a (cpu, node) pair from getcpu must
   describe one CPU.  */

#include "rtest.h"

#include <pthread.h>

#define UNPINNED_ITERATIONS 200000

typedef int getcpu_fn (unsigned int *, unsigned int *);

static struct rt_abi abi;
static getcpu_fn *getcpu_p;
static cpu_set_t allowed;
static int ncpu_allowed;
/* Node of each CPU, from the system call while pinned; -1 unknown.  */
static int node_of[CPU_SETSIZE];

static int
syscall_getcpu (unsigned int *cpu, unsigned int *node)
{
  return (int) syscall (SYS_getcpu, cpu, node, NULL);
}

static void
check_pinned (const char *who)
{
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    {
      if (!CPU_ISSET (cpu, &allowed))
        continue;
      CHECK (rt_pin (cpu) == 0, "%s: pin to %d: %s", who, cpu,
             strerror (errno));
      unsigned int scpu = ~0u, snode = ~0u;
      CHECK (syscall_getcpu (&scpu, &snode) == 0, "%s: getcpu syscall: %s",
             who, strerror (errno));
      CHECK ((int) scpu == cpu, "%s: pinned to %d, kernel says %u", who,
             cpu, scpu);
      node_of[cpu] = (int) snode;

      int got = sched_getcpu ();
      CHECK (got == cpu, "%s: pinned to %d, sched_getcpu %d", who, cpu, got);

      unsigned int gcpu = ~0u, gnode = ~0u;
      CHECK (getcpu_p (&gcpu, &gnode) == 0, "%s: getcpu failed: %s", who,
             strerror (errno));
      CHECK (gcpu == scpu && gnode == snode,
             "%s: getcpu (%u, node %u), kernel (%u, node %u)", who, gcpu,
             gnode, scpu, snode);

      /* Only one of the outputs asked for.  */
      gcpu = ~0u;
      CHECK (getcpu_p (&gcpu, NULL) == 0 && gcpu == scpu,
             "%s: getcpu (cpu only) %u, kernel %u", who, gcpu, scpu);
      gnode = ~0u;
      CHECK (getcpu_p (NULL, &gnode) == 0 && gnode == snode,
             "%s: getcpu (node only) %u, kernel %u", who, gnode, snode);

      int id = rt_cpu_id (&abi);
      if (rt_expect_registered ())
        CHECK (id == cpu, "%s: pinned to %d, cpu_id %d", who, cpu, id);
      else
        CHECK (id == RSEQ_CPU_ID_REGISTRATION_FAILED,
               "%s: cpu_id %d in mode %s, expected -2", who, id,
               rt_expect ());
    }
  CHECK (sched_setaffinity (0, sizeof allowed, &allowed) == 0,
         "%s: restore affinity: %s", who, strerror (errno));
}

static void
check_unpinned (const char *who)
{
  int seen[CPU_SETSIZE] = { 0 };
  int bad = 0;
  for (int i = 0; i < UNPINNED_ITERATIONS; i++)
    {
      int c = sched_getcpu ();
      if (c < 0 || c >= CPU_SETSIZE || !CPU_ISSET (c, &allowed))
        {
          if (bad++ < 5)
            CHECK (0, "%s: iteration %d: sched_getcpu %d not allowed", who,
                   i, c);
          continue;
        }
      seen[c]++;

      unsigned int gcpu = ~0u, gnode = ~0u;
      if (getcpu_p (&gcpu, &gnode) != 0 || gcpu >= CPU_SETSIZE
          || !CPU_ISSET (gcpu, &allowed)
          || (node_of[gcpu] >= 0 && (int) gnode != node_of[gcpu]))
        {
          if (bad++ < 5)
            CHECK (0, "%s: iteration %d: getcpu (%u, node %u), node of %u "
                   "is %d", who, i, gcpu, gnode, gcpu,
                   gcpu < CPU_SETSIZE ? node_of[gcpu] : -1);
          continue;
        }

      int id = rt_cpu_id (&abi);
      if (rt_expect_registered ()
          ? (id < 0 || id >= CPU_SETSIZE || !CPU_ISSET (id, &allowed))
          : id != RSEQ_CPU_ID_REGISTRATION_FAILED)
        {
          if (bad++ < 5)
            CHECK (0, "%s: iteration %d: cpu_id %d in mode %s", who, i, id,
                   rt_expect ());
        }
      if (i % 64 == 0)
        sched_yield ();
    }
  CHECK (bad == 0, "%s: %d bad answers unpinned", who, bad);
}

static void *
thread_main (void *arg)
{
  (void) arg;
  check_pinned ("thread");
  check_unpinned ("thread");
  return NULL;
}

int
main (void)
{
  /* A hang (a thread that never reports) fails instead of blocking the
     suite.  */
  alarm (30);
  abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL,
         "__rseq_offset %p, __rseq_size %p", (void *) abi.offset,
         (void *) abi.size);
  getcpu_p = (getcpu_fn *) dlsym (RTLD_DEFAULT, "getcpu");
  CHECK (getcpu_p != NULL, "no getcpu");
  if (abi.offset == NULL || abi.size == NULL || getcpu_p == NULL)
    return rt_exit_status ();
  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s, expected %s",
         rt_shim_mode (), rt_expect ());

  CHECK (sched_getaffinity (0, sizeof allowed, &allowed) == 0,
         "sched_getaffinity: %s", strerror (errno));
  ncpu_allowed = CPU_COUNT (&allowed);
  CHECK (ncpu_allowed >= 1, "no allowed CPU");
  for (int i = 0; i < CPU_SETSIZE; i++)
    node_of[i] = -1;

  check_pinned ("main");
  check_unpinned ("main");

  pthread_t t;
  int err = pthread_create (&t, NULL, thread_main, NULL);
  CHECK (err == 0, "pthread_create: %s", strerror (err));
  if (err == 0)
    pthread_join (t, NULL);

  /* Once more in the main thread after the thread ran.  */
  check_pinned ("main again");
  return rt_exit_status ();
}
