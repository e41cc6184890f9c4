/* <rseq-compat.h>: the current CPU, node and mm_cid from the rseq area.
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

/* Header-only: works with librseq-compat (preloaded or linked) and with
   glibc 2.35 or later on its own.  On the fast path each accessor is one
   load relative to the thread pointer; when no area is registered it
   asks the C library or the kernel instead.

   Availability follows __rseq_size: a field may be read only when
   __rseq_size >= offsetofend (struct rseq, field), where the legacy
   value 32 (glibc 2.35 to 2.39) means 20, the original fields only.  */

#ifndef _RSEQ_COMPAT_H
#define _RSEQ_COMPAT_H 1

#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Weak, so that a program built with this header still starts where
   nothing defines them; it then takes the slow paths.  */
extern const ptrdiff_t __rseq_offset __attribute__ ((__weak__));
extern const unsigned int __rseq_size __attribute__ ((__weak__));

#define RSEQ_COMPAT_OFFSETOFEND_CPU_ID 8u
#define RSEQ_COMPAT_OFFSETOFEND_NODE_ID 24u
#define RSEQ_COMPAT_OFFSETOFEND_MM_CID 28u

/* The address of a weak symbol can be null, and compilers are allowed
   to assume otherwise once they see (or LTO finds) a definition, or to
   fold it to a constant in a non-PIE link.  Passing the address through
   an empty asm makes the null test real.  */
#define __RSEQ_COMPAT_LAUNDER(p) __asm__ ("" : "+r" (p))

/* Bytes of struct rseq usable by this thread's C library registration
   (0: nothing registered or no rseq-aware C library).  */
static __inline__ unsigned int
rseq_compat_size (void)
{
  const unsigned int *p = &__rseq_size;
  __RSEQ_COMPAT_LAUNDER (p);
  if (p == NULL)
    return 0;
  return *p == 32 ? 20 : *p;
}

/* Load the 32-bit field at OFFSET of the calling thread's rseq area.
   Returns nonzero and stores it when the area exists.  */
static __inline__ int
__rseq_compat_load32 (unsigned int offset, int32_t *value)
{
  const ptrdiff_t *p = &__rseq_offset;
  __RSEQ_COMPAT_LAUNDER (p);
  if (p == NULL)
    return 0;
#if defined __x86_64__
  /* volatile: the CPU may change between two calls, so two loads must
     never be merged.  */
  __asm__ __volatile__ ("movl %%fs:(%1), %0"
                        : "=r" (*value) : "r" (*p + (ptrdiff_t) offset));
  return 1;
#elif defined __aarch64__
  char *tp;
  __asm__ __volatile__ ("mrs %0, tpidr_el0" : "=r" (tp));
  *value = *(volatile int32_t *) (tp + *p + offset);
  return 1;
#else
  (void) offset;
  (void) value;
  return 0;
#endif
}

/* The CPU the calling thread runs on, as sched_getcpu; -1 on error.  */
static __inline__ int
rseq_compat_cpu (void)
{
  int32_t cpu;
  if (__builtin_expect (__rseq_compat_load32 (4, &cpu) && cpu >= 0, 1))
    return cpu;
  return sched_getcpu ();
}

/* The NUMA node of that CPU; -1 on error.  */
static __inline__ int
rseq_compat_node (void)
{
  int32_t cpu, node, again;
  if (rseq_compat_size () >= RSEQ_COMPAT_OFFSETOFEND_NODE_ID
      && __rseq_compat_load32 (4, &cpu) && cpu >= 0
      && __rseq_compat_load32 (20, &node)
      && __rseq_compat_load32 (4, &again) && again == cpu)
    return node;
  unsigned int slow;
  if (syscall (SYS_getcpu, NULL, &slow, NULL) != 0)
    return -1;
  return (int) slow;
}

/* The concurrency ID (Linux 6.3+): a small per-process number in
   [0, number of CPUs) unique among the threads running right now.
   -1 when the kernel or the C library does not provide it: there is
   no other way to obtain it.  */
static __inline__ int
rseq_compat_mm_cid (void)
{
  int32_t cpu, cid;
  if (rseq_compat_size () >= RSEQ_COMPAT_OFFSETOFEND_MM_CID
      && __rseq_compat_load32 (4, &cpu) && cpu >= 0
      && __rseq_compat_load32 (24, &cid))
    return cid;
  return -1;
}

#ifdef __cplusplus
}
#endif

#endif /* rseq-compat.h */
