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

/* Declarations in for loops, and the C library's C99 declarations
   (57th review: -std=c89 failed inside the header).  */
#if !defined __cplusplus \
    && (!defined __STDC_VERSION__ || __STDC_VERSION__ < 199901L)
# error "<rseq-compat.h> needs C99 or later (or C++)"
#endif

#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Weak, so that a program built with this header still starts where
   nothing defines them; it then takes the slow paths.  */
extern const ptrdiff_t __rseq_offset __attribute__ ((__weak__));
extern const unsigned int __rseq_size __attribute__ ((__weak__));

/* The slow paths.  The C libraries declare these only under
   _GNU_SOURCE or _DEFAULT_SOURCE, which a strict -std=c11 program lacks;
   and aligned_alloc only for C11, which -std=c99 is not (57th review:
   called undeclared, its pointer was cut to an int).  The declarations
   are compatible with theirs.  (g++ always defines _GNU_SOURCE.)  */
#ifndef __cplusplus
extern int sched_getcpu (void);
extern long int syscall (long int, ...);
extern void *aligned_alloc (size_t, size_t);
#endif

/* Defined by librseq-compat only (weak: null without it).
   rseq_compat_mode names the shim's mode: "libc-owned", "shim-owned",
   "disabled", "unavailable" or "refused".  rseq_compat_query answers
   "registration_length", "area_alignment", "legacy_fallback",
   "probe_errno" and "thread_registered"; -1 for an unknown key.  */
extern const char *rseq_compat_mode (void) __attribute__ ((__weak__));
extern long int rseq_compat_query (const char *) __attribute__ ((__weak__));

/* A static program linked with librseq-compat.a may define
   RSEQ_COMPAT_STATIC_LINK (before this header, or with -D): each object
   that includes the header then refers to the archive strongly, so that
   a link line that leaves the archive out fails ("undefined reference
   to `__rseq_compat_static'") instead of giving a program that runs
   unregistered, and one that lists it needs no -u.  Not for a dynamic
   link: the shared library does not define the symbol.  */
#ifdef RSEQ_COMPAT_STATIC_LINK
extern const char __rseq_compat_static[];
static const char *const __rseq_compat_static_ref __attribute__ ((__used__))
  = __rseq_compat_static;
#endif

/* The assembly below is written for the LP64 ABIs.  x32 (gcc -mx32)
   and AArch64 ILP32 define __x86_64__ or __aarch64__ too, with 32-bit
   pointers that the 64-bit register operands and address arithmetic
   do not fit (the assembler rejects them); they take the portable
   paths: sched_getcpu, the getcpu system call, the atomic add.  */
#if defined __x86_64__ && !defined __ILP32__
# define __RSEQ_COMPAT_X86_64 1
#elif defined __aarch64__ && !defined __ILP32__
# define __RSEQ_COMPAT_AARCH64 1
#endif

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

/* What __rseq_compat_offset gives where there is no area: the lowest
   ptrdiff_t, computed in the compiler's own type (an ILP32 build may
   read an LP64 <stdint.h>, whose PTRDIFF_MIN overflows it), without a
   cast where the compiler names its limit (C++'s -Wold-style-cast,
   -Wuseless-cast: 58th review).  */
#ifdef __PTRDIFF_MAX__
# define __RSEQ_COMPAT_NO_AREA (-__PTRDIFF_MAX__ - 1)
#else
# define __RSEQ_COMPAT_NO_AREA (-(ptrdiff_t) ((size_t) -1 >> 1) - 1)
#endif

/* Offset from the thread pointer to the calling thread's rseq area.
   When nothing in the process defines __rseq_offset or __rseq_size
   (something may define one alone: 58th review, a null read), or
   __rseq_size is still 0, __RSEQ_COMPAT_NO_AREA instead, and callers
   take their slow path.  It must not depend on the thread: the compiler may reuse it
   on another thread, where a C++ coroutine or a green thread resumes
   (57th review: the offset of a block of -1 words, computed from the
   thread pointer, read far off there and crashed).  __rseq_size is
   0 until the definer has decided: on musl, a library linked before
   -lrseq-compat has its constructor run before the shim's, when
   __rseq_offset is 0 too and would lead to the thread descriptor.  The
   asm is not volatile and reads no declared memory: the two are fixed
   before the code that reads them runs, or for the whole of a
   constructor that runs before the shim's, so the compiler may compute
   this once and hoist it out of a loop, leaving one load per call.
   The tests are inside the asm so that hoisting can never move the
   load above them.  */
static __inline__ ptrdiff_t
__rseq_compat_offset (void)
{
  ptrdiff_t off;
#if defined __RSEQ_COMPAT_X86_64
  __asm__ ("testq %1, %1\n\t"
           "jz 1f\n\t"
           "testq %3, %3\n\t"
           "jz 1f\n\t"
           "cmpl $0, (%3)\n\t"
           "je 1f\n\t"
           "movq (%1), %0\n\t"
           "jmp 2f\n"
           "1:\n\t"
           "movq %2, %0\n"
           "2:"
           : "=&r" (off) : "r" (&__rseq_offset),
             "r" (__RSEQ_COMPAT_NO_AREA), "r" (&__rseq_size)
           : "cc");
#elif defined __RSEQ_COMPAT_AARCH64
  __asm__ ("cbz %1, 1f\n\t"
           "cbz %3, 1f\n\t"
           "ldar %w0, [%3]\n\t"
           "cbz %w0, 1f\n\t"
           "ldr %0, [%1]\n\t"
           "b 2f\n"
           "1:\n\t"
           "mov %0, %2\n"
           "2:"
           : "=&r" (off) : "r" (&__rseq_offset),
             "r" (__RSEQ_COMPAT_NO_AREA), "r" (&__rseq_size));
#else
  off = __RSEQ_COMPAT_NO_AREA;
#endif
  return off;
}

/* Load the 32-bit field at OFFSET of the calling thread's rseq area
   (-1 when there is none).  Returns nonzero where the architecture has
   rseq.  */
static __inline__ int
__rseq_compat_load32 (unsigned int offset, int32_t *value)
{
#if defined __RSEQ_COMPAT_X86_64 || defined __RSEQ_COMPAT_AARCH64
  ptrdiff_t off = __rseq_compat_offset ();
  if (__builtin_expect (off == __RSEQ_COMPAT_NO_AREA, 0))
    {
      *value = -1;
      return 1;
    }
# if defined __RSEQ_COMPAT_X86_64
  /* volatile: the CPU may change between two calls, so two loads must
     never be merged.  */
  __asm__ __volatile__ ("movl %%fs:(%1), %0"
                        : "=r" (*value)
                        : "r" (off + (ptrdiff_t) offset));
# else
  char *tp;
  __asm__ __volatile__ ("mrs %0, tpidr_el0" : "=r" (tp));
  *value = *(volatile int32_t *) (tp + off + offset);
# endif
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

/* ------------------------------------------------------------------
   Per-CPU counters.

     struct rseq_compat_counter c;
     if (rseq_compat_counter_init (&c) != 0)
       ...;                             (out of memory)
     rseq_compat_counter_add (&c, 1);   (any thread, signal handlers too)
     int64_t total = rseq_compat_counter_read (&c);
     rseq_compat_counter_destroy (&c);

   Every possible CPU owns one slot, on a cache line of its own (64
   bytes, 128 on AArch64).  A thread with a registered rseq area adds to
   its CPU's slot with a restartable sequence (x86-64 and AArch64): it
   stores the address of the sequence's descriptor in the area's
   rseq_cs, checks that cpu_id still names the CPU whose slot it chose,
   and commits with one store; if the kernel preempts or migrates the
   thread or delivers a signal to it in between, the kernel resumes it
   at the abort handler instead, and the add starts again.  No atomic
   instruction, no lock.

   Threads without a registration (no __rseq_* in the process,
   __rseq_size 0, a negative cpu_id: the disabled and unavailable modes,
   vfork children while librseq-compat is loaded, which unregisters the
   parent until the child is gone), other architectures and ABIs (x32,
   AArch64 ILP32), and adds whose sequence aborted
   RSEQ_COMPAT_COUNTER_RETRIES times in a row use an atomic add
   instead.  It goes to a second word of the same slot that only atomic
   adds write, so the two kinds of add never race: the rseq word of a
   slot is written only by threads running on that slot's CPU.

   The add trusts cpu_id.  A task that the kernel has not registered but
   that runs on a registered thread's TLS reads that thread's last CPU
   there: a vfork child on glibc 2.35 or later without librseq-compat,
   and in every mode a clone child with CLONE_VM and the parent's thread
   pointer but without CLONE_VFORK.  rseq_compat_cpu returns the
   parent's CPU in such a child (glibc's sched_getcpu does too), and an
   add takes the restartable sequence with nothing to abort it: that
   add, or one a thread on that CPU makes at the same time, can be
   lost.  The child cannot tell: it shares every byte of memory with
   its parent, and only a system call in every add could ask the
   kernel.

   rseq_compat_counter_read sums every slot.  It is exact once the
   adders are done; while they run it returns a value that every add
   finished before the call is part of.

   The descriptors go to the section __rseq_cs (32-byte aligned
   struct rseq_cs), pointers to them to __rseq_cs_ptr_array, and the
   abort handlers, each preceded by the 4-byte RSEQ_SIG, to
   __rseq_failure: where librseq and the kernel's selftests put theirs,
   so tools that list critical sections find these too.  */

#if defined __aarch64__
# define RSEQ_COMPAT_COUNTER_ALIGN 128
#else
# define RSEQ_COMPAT_COUNTER_ALIGN 64
#endif

/* How many times an add retries its restartable sequence after an
   abort before it falls back to the atomic add.  */
#ifndef RSEQ_COMPAT_COUNTER_RETRIES
# define RSEQ_COMPAT_COUNTER_RETRIES 8
#endif

struct rseq_compat_counter_slot
{
  /* Written only by restartable sequences running on this CPU.  */
  int64_t rseq;
  /* Written only by atomic adds, from any CPU.  */
  int64_t atomic;
} __attribute__ ((__aligned__ (RSEQ_COMPAT_COUNTER_ALIGN)));

struct rseq_compat_counter
{
  struct rseq_compat_counter_slot *slots;
  unsigned int nslots;		/* Highest possible CPU number + 1.  */
};

/* Highest possible CPU number + 1, from /sys (sysconf on musl counts
   the CPUs the process may run on, not the highest number).  */
static __inline__ unsigned int
__rseq_compat_possible_cpus (void)
{
  char buf[512];
  unsigned int max = 0, n = 0;
  int digits = 0, any = 0;
#ifdef O_CLOEXEC
  int fd = open ("/sys/devices/system/cpu/possible", O_RDONLY | O_CLOEXEC);
#else
  int fd = open ("/sys/devices/system/cpu/possible", O_RDONLY);
#endif
  if (fd >= 0)
    {
      ssize_t len = read (fd, buf, sizeof buf);
      close (fd);
      for (ssize_t i = 0; i <= len; i++)
        if (i < len && buf[i] >= '0' && buf[i] <= '9')
          {
            if (n < 1000000)
              n = n * 10 + (unsigned int) (buf[i] - '0');
            digits = 1;
          }
        else
          {
            if (digits && n >= max)
              {
                max = n;
                any = 1;
              }
            n = 0;
            digits = 0;
          }
      if (any && max < 65536)
        return max + 1;
    }
  long int conf = sysconf (_SC_NPROCESSORS_CONF);
  return conf > 0 && conf < 65536 ? (unsigned int) conf : 1;
}

/* Returns 0, or -1 when memory is short.  */
static __inline__ int
rseq_compat_counter_init (struct rseq_compat_counter *c)
{
  unsigned int n = __rseq_compat_possible_cpus ();
  /* sizeof first: the product is a size_t without a cast, which ILP32
     C++ would call useless (59th review).  */
  size_t bytes = sizeof (struct rseq_compat_counter_slot) * n;
  c->slots = (struct rseq_compat_counter_slot *)
    aligned_alloc (RSEQ_COMPAT_COUNTER_ALIGN, bytes);
  if (c->slots == NULL)
    {
      c->nslots = 0;
      return -1;
    }
  memset (c->slots, 0, bytes);
  c->nslots = n;
  return 0;
}

static __inline__ void
rseq_compat_counter_destroy (struct rseq_compat_counter *c)
{
  free (c->slots);
  c->slots = NULL;
  c->nslots = 0;
}

/* The add of threads the restartable sequence cannot serve.  */
static __inline__ void
__rseq_compat_counter_add_atomic (struct rseq_compat_counter *c, int64_t v)
{
  int cpu = rseq_compat_cpu ();
  unsigned int i = cpu > 0 ? (unsigned int) cpu % c->nslots : 0;
  __atomic_fetch_add (&c->slots[i].atomic, v, __ATOMIC_RELAXED);
}

#if defined __GNUC__ \
    && (defined __RSEQ_COMPAT_X86_64 || defined __RSEQ_COMPAT_AARCH64)
# define RSEQ_COMPAT_COUNTER_RSEQ 1

/* The descriptor (struct rseq_cs: version 0, flags 0, start_ip,
   post_commit_offset, abort_ip) for the sequence from local label 1 to
   2 with its abort handler at 4, a pointer to it in
   __rseq_cs_ptr_array; the descriptor itself is local label 3.  */
# define __RSEQ_COMPAT_CS_DESCRIPTOR					\
  ".pushsection __rseq_cs, \"aw\"\n\t"					\
  ".balign 32\n"							\
  "3:\n\t"								\
  ".long 0, 0\n\t"							\
  ".quad 1f, (2f - 1f), 4f\n\t"						\
  ".popsection\n\t"							\
  ".pushsection __rseq_cs_ptr_array, \"aw\"\n\t"			\
  ".balign 8\n\t"							\
  ".quad 3b\n\t"							\
  ".popsection\n\t"

/* After the commit, and in the abort handler, the thread clears
   rseq_cs again.  The kernel reads the descriptor rseq_cs points to
   whenever the thread returns to user space after a preemption, a
   migration or a signal, until it finds the thread outside the
   sequence and clears rseq_cs itself.  If the object holding the
   descriptor is unloaded (dlclose) before that happens, the read
   faults and the kernel kills the process with SIGSEGV; and no thread
   can clear another's rseq_cs.  __RSEQ_COMPAT_COUNTER_KEEP_CS leaves
   out the store after the commit: it is not an interface, only make
   bench (to measure the store) and the test suite (to show the
   failure) define it.  */
# ifdef __RSEQ_COMPAT_COUNTER_KEEP_CS
#  define __RSEQ_COMPAT_CS_CLEAR_AFTER_COMMIT(insn) ""
# else
#  define __RSEQ_COMPAT_CS_CLEAR_AFTER_COMMIT(insn) insn
# endif
#endif

/* Add V to the counter.  Async-signal-safe.  */
static __inline__ void
rseq_compat_counter_add (struct rseq_compat_counter *c, int64_t v)
{
#ifdef RSEQ_COMPAT_COUNTER_RSEQ
  const ptrdiff_t *po = &__rseq_offset;
  const unsigned int *ps = &__rseq_size;
  __RSEQ_COMPAT_LAUNDER (po);
  __RSEQ_COMPAT_LAUNDER (ps);
  if (__builtin_expect (po != NULL && ps != NULL && *ps != 0, 1))
    {
      ptrdiff_t off = *po;
      for (int tries = 0; tries < RSEQ_COMPAT_COUNTER_RETRIES; tries++)
        {
          int32_t cpu;
# if defined __RSEQ_COMPAT_X86_64
          __asm__ __volatile__ ("movl %%fs:4(%1), %0"
                                : "=r" (cpu) : "r" (off));
# else
          char *area;
          __asm__ __volatile__ ("mrs %0, tpidr_el0" : "=r" (area));
          area += off;
          cpu = *(volatile int32_t *) (area + 4);
# endif
          if (__builtin_expect (cpu < 0 || (uint32_t) cpu >= c->nslots, 0))
            break;
          int64_t *slot = &c->slots[cpu].rseq;
# if defined __RSEQ_COMPAT_X86_64
          /* rseq_cs = &descriptor; then, inside the sequence, compare
             cpu_id with the CPU of the slot and commit with one add to
             memory (a single store); then rseq_cs = 0.  A CPU mismatch
             goes to the abort handler too, so that every way out of
             the asm without a commit clears rseq_cs (the loop may end
             in the atomic fallback).  The handler is preceded by
             RSEQ_SIG, as the immediate of a ud1 instruction so that
             disassemblers stay in step.  */
          __asm__ __volatile__ goto (
            __RSEQ_COMPAT_CS_DESCRIPTOR
            "leaq 3b(%%rip), %%rax\n\t"
            "movq %%rax, %%fs:8(%[off])\n"
            "1:\n\t"
            "cmpl %[cpu], %%fs:4(%[off])\n\t"
            "jnz 4f\n\t"
            "addq %[v], (%[slot])\n"
            "2:\n\t"
            __RSEQ_COMPAT_CS_CLEAR_AFTER_COMMIT ("movq $0, %%fs:8(%[off])\n\t")
            ".pushsection __rseq_failure, \"ax\"\n\t"
            ".byte 0x0f, 0xb9, 0x3d\n\t"
            ".long 0x53053053\n"
            "4:\n\t"
            "movq $0, %%fs:8(%[off])\n\t"
            "jmp %l[aborted]\n\t"
            ".popsection\n"
            : /* asm goto: no outputs */
            : [off] "r" (off), [cpu] "r" (cpu), [v] "er" (v),
              [slot] "r" (slot)
            : "memory", "cc", "rax"
            : aborted);
# else
          /* The same with a load, an add and the committing store; the
             signature is the brk instruction RSEQ_SIG encodes.  A
             conditional branch reaches only 1 MiB, and the linker can
             neither extend it nor insert a veneer for it, while the
             handler in __rseq_failure (and the C label behind it) may
             end up farther away in a large object: the mismatch test
             skips over an unconditional branch (128 MiB, and the
             linker adds a veneer beyond that).  A veneer may clobber
             x16 and x17 (AAPCS64), hence the clobbers.  */
          __asm__ __volatile__ goto (
            __RSEQ_COMPAT_CS_DESCRIPTOR
            "adrp x15, 3b\n\t"
            "add x15, x15, :lo12:3b\n\t"
            "str x15, [%[area], #8]\n"
            "1:\n\t"
            "ldr w15, [%[area], #4]\n\t"
            "cmp w15, %w[cpu]\n\t"
            "b.eq 5f\n\t"
            "b 4f\n"
            "5:\n\t"
            "ldr x15, [%[slot]]\n\t"
            "add x15, x15, %[v]\n\t"
            "str x15, [%[slot]]\n"
            "2:\n\t"
            __RSEQ_COMPAT_CS_CLEAR_AFTER_COMMIT ("str xzr, [%[area], #8]\n\t")
            ".pushsection __rseq_failure, \"ax\"\n\t"
            ".inst 0xd428bc00\n"
            "4:\n\t"
            "str xzr, [%[area], #8]\n\t"
            "b %l[aborted]\n\t"
            ".popsection\n"
            : /* asm goto: no outputs */
            : [area] "r" (area), [cpu] "r" (cpu), [v] "r" (v),
              [slot] "r" (slot)
            : "memory", "cc", "x15", "x16", "x17"
            : aborted);
# endif
          return;
        aborted:;
        }
    }
#endif
  __rseq_compat_counter_add_atomic (c, v);
}

/* The sum of every slot.  */
static __inline__ int64_t
rseq_compat_counter_read (const struct rseq_compat_counter *c)
{
  uint64_t sum = 0;
  for (unsigned int i = 0; i < c->nslots; i++)
    sum += (uint64_t) __atomic_load_n (&c->slots[i].rseq, __ATOMIC_RELAXED)
           + (uint64_t) __atomic_load_n (&c->slots[i].atomic,
                                         __ATOMIC_RELAXED);
  return (int64_t) sum;
}

#ifdef __cplusplus
}
#endif

#endif /* rseq-compat.h */
