/* Helpers for the rseq registration tests.  Linux version.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat (the glibc 2.31 and 2.36 series).

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

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <support/check.h>
#include <rseq-area.h>
#include <rseq-layout.h>

/* Record a failure and say why, then go on.  */
#define TST_FAIL(...)                                                   \
  do                                                                    \
    {                                                                   \
      printf ("error: %s:%d: ", __FILE__, __LINE__);                    \
      printf (__VA_ARGS__);                                             \
      putchar ('\n');                                                   \
      support_record_failure ();                                        \
    }                                                                   \
  while (0)

static inline void *
tst_thread_pointer (void)
{
  void *tp;
#if defined __x86_64__
  /* The TCB's first word points to itself.  */
  __asm__ ("mov %%fs:0, %0" : "=r" (tp));
#elif defined __i386__
  __asm__ ("movl %%gs:0, %0" : "=r" (tp));
#elif defined __aarch64__
  __asm__ ("mrs %0, tpidr_el0" : "=r" (tp));
#else
  tp = __builtin_thread_pointer ();
#endif
  return tp;
}

/* The calling thread's area, as a consumer finds it.  */
static inline struct rseq *
tst_rseq_area (void)
{
  return (struct rseq *) ((char *) tst_thread_pointer () + __rseq_offset);
}

/* Fail unless the calling thread's area lies at a 64-byte boundary
   (WHERE names the thread).  Linux 7.0 asks for 64 (AT_RSEQ_ALIGN,
   with its 33-byte registration) and refuses an area that is not
   aligned to it: a misaligned main thread then runs unregistered, a
   misaligned new thread ends the process ("rseq registration
   failed").  struct pthread declares the alignment, but the loader,
   the static startup code and pthread_create place the descriptor, so
   it is checked where they put it, with a literal 64 rather than
   anything the code under test computes, and whether or not the thread
   registered: under qemu-user, which has no rseq system call, the
   descriptors are laid out just the same.  */
static inline void
tst_check_area_alignment (const char *where)
{
  uintptr_t area = (uintptr_t) tst_rseq_area ();
  if (area % 64 != 0)
    TST_FAIL ("%s: rseq area %#lx is not 64-byte aligned (%lu past a "
              "boundary; thread pointer %p, __rseq_offset %td)", where,
              (unsigned long int) area, (unsigned long int) (area % 64),
              tst_thread_pointer (), __rseq_offset);
}

/* node_id and mm_cid (Linux 6.3), read by offset: glibc's own
   <sys/rseq.h> takes struct rseq from the installed kernel headers,
   which may predate both fields (Debian 12's are 6.1).  */
#define TST_RSEQ_NODE_ID 20
#define TST_RSEQ_MM_CID 24

static inline uint32_t
tst_rseq_field (const struct rseq *area, unsigned int offset)
{
  return *(const volatile uint32_t *) ((const char *) area + offset);
}

/* The auxiliary vector entry TYPE as the kernel gave it, 0 if absent.
   glibc 2.31's getauxval on AArch64 returns 0 for every entry when the
   loader runs the program as a command (as the arm64 guest runs the
   dynamic tests), while the loader itself saw the real vector; the
   kernel's copy in /proc/self/auxv is what the registration used.  */
static inline unsigned long int
tst_auxv (unsigned long int type)
{
  unsigned long int pair[2];
  int fd = open ("/proc/self/auxv", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return getauxval (type);
  while (read (fd, pair, sizeof pair) == sizeof pair && pair[0] != AT_NULL)
    if (pair[0] == type)
      {
        close (fd);
        return pair[1];
      }
  close (fd);
  return 0;
}

/* The layout the C library must have chosen on this kernel.  */
static inline struct rseq_layout
tst_rseq_expected_layout (void)
{
  struct rseq_layout layout;
  rseq_layout_compute (&layout, tst_auxv (RSEQ_LAYOUT_AT_FEATURE_SIZE),
                       tst_auxv (RSEQ_LAYOUT_AT_ALIGN));
  rseq_layout_fit (&layout, RSEQ_AREA_CAPACITY, RSEQ_AREA_ALIGN);
  return layout;
}

#ifdef RSEQ_SIG
static inline long int
tst_rseq_syscall (void *area, unsigned int len, int flags)
{
  return syscall (__NR_rseq, area, len, flags, RSEQ_SIG);
}

/* Whether this kernel has no rseq system call at all (before Linux
   4.18; qemu-user's emulation has none either).  Nothing can register
   there, and the C library runs unregistered as 2.35 and later do.  A
   kernel that has it answers these arguments with EINVAL.  */
static inline bool
tst_rseq_enosys (void)
{
  errno = 0;
  return tst_rseq_syscall (NULL, 0, 0) == -1 && errno == ENOSYS;
}

/* Fail unless the calling thread runs as glibc 2.35 and later do where
   nothing registered: __rseq_size and __rseq_flags 0, the area reading
   "registration failed", sched_getcpu working (WHERE names it).  */
static inline void
tst_check_unregistered (const char *where)
{
  if (__rseq_size != 0 || __rseq_flags != 0
      || (int) tst_rseq_area ()->cpu_id != RSEQ_CPU_ID_REGISTRATION_FAILED)
    TST_FAIL ("%s: unregistered, yet __rseq_size %u, __rseq_flags %u, "
              "cpu_id %d", where, __rseq_size, __rseq_flags,
              (int) tst_rseq_area ()->cpu_id);
  int cpu = sched_getcpu ();
  if (cpu < 0 || cpu >= CPU_SETSIZE)
    TST_FAIL ("%s: sched_getcpu returned %d (errno %d)", where, cpu, errno);
}

/* Whether the calling thread is registered with exactly the C
   library's area and length.  The kernel answers EBUSY only to a
   registration identical to the current one, EINVAL to any other
   while one exists.  Async-signal-safe.  */
static inline bool
tst_rseq_registered (void)
{
  struct rseq *area = tst_rseq_area ();
  if (__rseq_size == 0 || (int32_t) area->cpu_id < 0)
    return false;
  errno = 0;
  long int ret = tst_rseq_syscall (area,
                                   rseq_layout_libc_reg_len (__rseq_size), 0);
  return ret == -1 && errno == EBUSY;
}

/* Fail unless the calling thread is registered (WHERE names the
   place for the message).  */
static inline void
tst_check_registered (const char *where)
{
  struct rseq *area = tst_rseq_area ();
  if (!tst_rseq_registered ())
    TST_FAIL ("%s: not registered (cpu_id %d, __rseq_size %u, errno %d)",
          where, (int) area->cpu_id, __rseq_size, errno);
}

#else  /* !RSEQ_SIG */

/* An architecture without a signature (bits/rseq.h): the C library
   registers nothing and behaves as glibc did before rseq, but the
   three variables exist and say so, and the calling thread's area
   reads "registration failed".  The tests of such an architecture
   check exactly that (WHERE names the thread).  */
static inline void
tst_check_no_signature (const char *where)
{
  struct rseq *area = tst_rseq_area ();
  if (__rseq_size != 0 || __rseq_flags != 0
      || (int) area->cpu_id != RSEQ_CPU_ID_REGISTRATION_FAILED)
    TST_FAIL ("%s: no RSEQ_SIG on this architecture, yet __rseq_size %u, "
              "__rseq_flags %u, cpu_id %d", where, __rseq_size,
              __rseq_flags, (int) area->cpu_id);
  int cpu = sched_getcpu ();
  if (cpu < 0)
    TST_FAIL ("%s: sched_getcpu failed (errno %d)", where, errno);
}

#endif  /* RSEQ_SIG */
