/* <rseq-compat.h>: CPU, node, mm_cid and size against the kernel.
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

/* Usage: header SHIM DEFINED
   SHIM     "shim" when librseq-compat is loaded (rseq_compat_mode must
            then report RSEQ_EXPECT), "noshim" when it is not.
   DEFINED  whether the program's weak reference to __rseq_size must
            resolve: "defined", "undefined" (no definition anywhere) or
            "any" (a non-PIE program not linked with the shim: the link
            editor may have resolved the weak reference to 0 even though
            the shim is preloaded; the header must then take the slow
            paths and still answer correctly).
   rseq_compat_size () must be the size expected in the mode RSEQ_EXPECT
   (0 when the reference is null); on every CPU the calling thread may
   run on, pinned there, rseq_compat_cpu () and rseq_compat_node () must
   equal what the getcpu system call says and rseq_compat_mm_cid () must
   be in [0, CPUs) when the size covers mm_cid, else -1.  The same again
   in a second thread.  */

#include "rtest.h"

#include <pthread.h>
#include <rseq-compat.h>

static unsigned int expected_size;
static long int ncpu;

static void
check_here (const char *who, int cpu)
{
  unsigned int size = rseq_compat_size ();
  CHECK (size == expected_size, "%s: rseq_compat_size () %u, expected %u",
         who, size, expected_size);
  CHECK (size != 32, "%s: rseq_compat_size () is 32", who);

  unsigned int scpu = ~0u, snode = ~0u;
  long int ret = syscall (SYS_getcpu, &scpu, &snode, NULL);
  CHECK (ret == 0, "%s: getcpu: %s", who, strerror (errno));
  int c = rseq_compat_cpu ();
  int n = rseq_compat_node ();
  int cid = rseq_compat_mm_cid ();
  CHECK (c == cpu && (int) scpu == cpu,
         "%s: pinned to %d: rseq_compat_cpu () %d, getcpu %d", who, cpu, c,
         (int) scpu);
  CHECK (n == (int) snode, "%s: CPU %d: rseq_compat_node () %d, getcpu %d",
         who, cpu, n, (int) snode);
  if (size >= 28)
    CHECK (cid >= 0 && cid < ncpu, "%s: CPU %d: rseq_compat_mm_cid () %d",
           who, cpu, cid);
  else
    CHECK (cid == -1, "%s: CPU %d: rseq_compat_mm_cid () %d with size %u",
           who, cpu, cid, size);
}

static void
check_every_cpu (const char *who)
{
  cpu_set_t initial;
  if (sched_getaffinity (0, sizeof initial, &initial) != 0)
    {
      CHECK (0, "%s: sched_getaffinity: %s", who, strerror (errno));
      return;
    }
  int tested = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    {
      if (!CPU_ISSET (cpu, &initial))
        continue;
      if (rt_pin (cpu) != 0)
        {
          CHECK (0, "%s: pin to %d: %s", who, cpu, strerror (errno));
          continue;
        }
      check_here (who, cpu);
      tested++;
    }
  CHECK (tested > 0, "%s: no CPU tested", who);
  sched_setaffinity (0, sizeof initial, &initial);
}

static void *
thread_main (void *arg)
{
  (void) arg;
  check_every_cpu ("thread");
  return NULL;
}

int
main (int argc, char **argv)
{
  CHECK (argc == 3, "usage: header shim|noshim defined|undefined|any");
  if (argc != 3)
    return rt_exit_status ();
  ncpu = sysconf (_SC_NPROCESSORS_CONF);

  const char *mode = rt_shim_mode ();
  if (strcmp (argv[1], "shim") == 0)
    CHECK (strcmp (mode, rt_expect ()) == 0, "mode %s, expected %s", mode,
           rt_expect ());
  else
    CHECK (strcmp (mode, "none") == 0, "the shim is loaded (mode %s)", mode);

  const unsigned int *ref = &__rseq_size;
  const ptrdiff_t *oref = &__rseq_offset;
  __asm__ ("" : "+r" (ref));
  __asm__ ("" : "+r" (oref));
  printf ("weak references: __rseq_size %s, __rseq_offset %s\n",
          ref != NULL ? "defined" : "null", oref != NULL ? "defined" : "null");
  CHECK ((ref == NULL) == (oref == NULL), "__rseq_size at %p, "
         "__rseq_offset at %p", (void *) ref, (void *) oref);
  if (strcmp (argv[1], "noshim") == 0)
    {
      /* Without the shim only the C library can define them: glibc
         2.35+ does, glibc before 2.35 and musl do not.  */
      int libc_abi = rt_libc_has_abi ();
      CHECK ((ref != NULL) == libc_abi, "without the shim: weak reference "
             "%p, C library's __rseq_* %s", (void *) ref,
             libc_abi ? "present" : "absent");
      CHECK ((dlsym (RTLD_DEFAULT, "__rseq_size") != NULL) == libc_abi,
             "without the shim: dlsym (RTLD_DEFAULT, \"__rseq_size\") %p, "
             "C library's __rseq_* %s", dlsym (RTLD_DEFAULT, "__rseq_size"),
             libc_abi ? "present" : "absent");
    }
  if (strcmp (argv[2], "defined") == 0)
    CHECK (ref != NULL, "the weak reference to __rseq_size is null");
  else if (strcmp (argv[2], "undefined") == 0)
    CHECK (ref == NULL, "the weak reference to __rseq_size is %p",
           (void *) ref);
  expected_size = ref != NULL ? rt_expected_size () : 0;
  CHECK (expected_size != ~0u, "no expected size in mode %s", rt_expect ());

  check_every_cpu ("main");
  pthread_t t;
  CHECK (pthread_create (&t, NULL, thread_main, NULL) == 0, "pthread_create");
  pthread_join (t, NULL);
  return rt_exit_status ();
}
