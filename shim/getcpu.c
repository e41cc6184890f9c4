/* sched_getcpu and getcpu from the rseq area.
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

/* Both are async-signal-safe and take no lock: a registered thread
   costs one load of cpu_id; any other thread (not yet registered,
   registration failed, a vfork child, a thread the shim never saw) reads
   a negative cpu_id and asks the vDSO, or the kernel.  */

#include <errno.h>
#include <sched.h>

#include "shim.h"

int
__rseq_compat_getcpu_slow (unsigned int *cpu, unsigned int *node)
{
  int (*vdso) (unsigned int *, unsigned int *, void *)
    = __rseq_compat_state.vdso_getcpu;
  if (vdso != NULL)
    return vdso (cpu, node, NULL);

  long int ret = rseq_compat_syscall4 (RSEQ_COMPAT_NR_getcpu, (long int) cpu,
                                       (long int) node, 0, 0);
  if (ret < 0)
    {
      errno = (int) -ret;
      return -1;
    }
  return 0;
}

/* cpu_id of the calling thread's area.  On x86-64 the thread pointer
   is the %fs base, so on glibc, where the area is at a run-time offset
   from it, one %fs-relative load replaces reading the thread pointer
   from %fs:0 and then the area (the initial-exec TLS pattern); musl's
   build reads its own initial-exec TLS variable, which is already one
   load.  */
/* The archive for glibc decides in its .preinit_array entry, and a
   program's own entries there run first (its objects precede the
   archive on the link line): until then __rseq_compat_offset is 0 and
   designates the thread's TCB, whose bytes are no cpu_id.  No area is
   ever at offset 0 (the TCB is there), so 0 means "not decided" and
   costs one well-predicted branch on the decided path.  Static link
   constants cannot do better: a TLS offset in initialised data
   (R_X86_64_TPOFF64) links with GNU ld alone.  The shared library
   decides while the loader relocates it, before any code can call
   these, and the musl builds read their own area, -1 until
   registered.  */
#if RSEQ_COMPAT_STATIC && RSEQ_COMPAT_GLIBC
# define UNDECIDED() __builtin_expect (__rseq_compat_offset == 0, 0)
#else
# define UNDECIDED() 0
#endif

static inline int
current_cpu_id (void)
{
  if (UNDECIDED ())
    return -1;
#if RSEQ_COMPAT_GLIBC && defined __x86_64__
  _Static_assert (offsetof (struct rseq, cpu_id) == 4, "cpu_id at 4");
  int id;
  /* volatile, like the relaxed atomic load it replaces: never merged
     with another read.  */
  __asm__ __volatile__ ("movl %%fs:4(%1), %0"
                        : "=r" (id) : "r" (__rseq_compat_offset));
  return id;
#else
  return (int) __atomic_load_n (&rseq_compat_current_area ()->cpu_id,
                                __ATOMIC_RELAXED);
#endif
}

/* Weak in the archive: a static program may carry its own (a fallback
   for old C libraries is common), which then wins instead of failing
   the link with a duplicate definition.  The archive never calls them
   itself; the C library's stay out either way, their members being
   taken only for a symbol still undefined.  pthread_create, vfork and
   clone stay strong: a program's own would silently leave threads
   unregistered or vfork children reading the parent's cpu_id.  */
#if RSEQ_COMPAT_STATIC
# define INTERPOSED attribute_public __attribute__ ((weak))
#else
# define INTERPOSED attribute_public
#endif

INTERPOSED int
sched_getcpu (void)
{
  int cpu = current_cpu_id ();
  if (__builtin_expect (cpu >= 0, 1))
    return cpu;

  unsigned int slow;
  if (__rseq_compat_getcpu_slow (&slow, NULL) != 0)
    return -1;
  return (int) slow;
}

/* The node comes from node_id only when __rseq_size covers it (Linux
   6.3 and later, and a C library that says so); glibc's getcpu never
   reads the area at all.  */
INTERPOSED int
getcpu (unsigned int *cpu, unsigned int *node)
{
  if (UNDECIDED ())
    return __rseq_compat_getcpu_slow (cpu, node);
  const struct rseq *area = rseq_compat_current_area ();
  int id = (int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
  unsigned int size = rseq_layout_effective_size (__rseq_compat_size);

  if (id < 0 || (node != NULL && size < offsetof (struct rseq, mm_cid)))
    return __rseq_compat_getcpu_slow (cpu, node);
  if (node != NULL)
    {
      *node = __atomic_load_n (&area->node_id, __ATOMIC_RELAXED);
      /* Preempted and migrated between the two loads: cpu and node must
         describe one CPU.  */
      if ((int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED) != id)
        return __rseq_compat_getcpu_slow (cpu, node);
    }
  if (cpu != NULL)
    *cpu = (unsigned int) id;
  return 0;
}
