/* Shared helpers of the test programs.
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

/* Every check compares against a value obtained independently of the
   shim: the kernel (EBUSY on re-registration of the same area proves a
   registration, the getcpu system call), auxv, or glibc's own symbols.
   The expected mode comes from the harness in RSEQ_EXPECT.  */

#ifndef RTEST_H
#define RTEST_H 1

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sys/rseq.h>
#include <arch.h>

#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif

/* 1 when built with ThreadSanitizer (make check-sanitize), whose
   runtime starts a thread of its own: a test that counts threads must
   know.  */
#if defined __SANITIZE_THREAD__
# define RT_TSAN 1
#elif defined __has_feature
# if __has_feature (thread_sanitizer)
#  define RT_TSAN 1
# endif
#endif
#ifndef RT_TSAN
# define RT_TSAN 0
#endif

static int rt_failures;

#define CHECK(cond, ...)                                                \
  do                                                                    \
    {                                                                   \
      if (!(cond))                                                      \
        {                                                               \
          __atomic_add_fetch (&rt_failures, 1, __ATOMIC_RELAXED);       \
          fprintf (stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
          fprintf (stderr, __VA_ARGS__);                                \
          fputc ('\n', stderr);                                         \
        }                                                               \
    }                                                                   \
  while (0)

/* make check-aarch64's guests run under TCG, where a fixed workload
   takes ten or more times as long as on a real machine.
   RSEQ_TEST_SCALE=N there divides such workloads (iteration counts
   that only make a run long); what a test waits to see happen is never
   scaled.  */
static inline long int
rt_scaled (long int n)
{
  const char *s = getenv ("RSEQ_TEST_SCALE");
  long int d = s != NULL ? strtol (s, NULL, 10) : 1;
  return d > 1 && n / d > 0 ? n / d : n;
}

static inline int
rt_exit_status (void)
{
  if (rt_failures != 0)
    fprintf (stderr, "%d check(s) failed\n", rt_failures);
  return rt_failures != 0;
}

/* The mode the harness expects: libc-owned, shim-owned, disabled,
   unavailable.  */
static inline const char *
rt_expect (void)
{
  const char *m = getenv ("RSEQ_EXPECT");
  if (m != NULL)
    return m;
  /* A constructor of a -z initfirst library runs before glibc 2.34 and
     later has set environ: read what the kernel was given.  */
  static char buf[64];
  char env[8192];
  int fd = open ("/proc/self/environ", O_RDONLY);
  if (fd < 0)
    return "unset";
  ssize_t n = read (fd, env, sizeof env - 1);
  close (fd);
  if (n <= 0)
    return "unset";
  env[n] = '\0';
  for (char *p = env; p < env + n; p += strlen (p) + 1)
    if (strncmp (p, "RSEQ_EXPECT=", 12) == 0)
      {
        snprintf (buf, sizeof buf, "%s", p + 12);
        return buf;
      }
  return "unset";
}

static inline int
rt_expect_is (const char *mode)
{
  return strcmp (rt_expect (), mode) == 0;
}

/* Whether libpthread.so.0 is in the process (RTLD_NOLOAD loads
   nothing): a test that dlopens it, or a plugin needing it, checks
   that it was not there before.  */
static inline int
rt_libpthread_loaded (void)
{
  void *h = dlopen ("libpthread.so.0", RTLD_LAZY | RTLD_NOLOAD);
  if (h != NULL)
    dlclose (h);
  return h != NULL;
}

/* A registration is expected in threads created with pthread_create.  */
static inline int
rt_expect_registered (void)
{
  return rt_expect_is ("libc-owned") || rt_expect_is ("shim-owned");
}

struct rt_abi
{
  const ptrdiff_t *offset;
  const unsigned int *size;
  const unsigned int *flags;
};

/* The symbols as any program would find them.  */
static inline struct rt_abi
rt_abi (void)
{
  struct rt_abi abi;
  abi.offset = dlsym (RTLD_DEFAULT, "__rseq_offset");
  abi.size = dlsym (RTLD_DEFAULT, "__rseq_size");
  abi.flags = dlsym (RTLD_DEFAULT, "__rseq_flags");
  return abi;
}

/* glibc's own value of __rseq_size (NULL without glibc 2.35+).  */
static inline const unsigned int *
rt_glibc_size (void)
{
#ifdef __GLIBC__
  return dlvsym (RTLD_DEFAULT, "__rseq_size", "GLIBC_2.35");
#else
  return NULL;
#endif
}

static inline const ptrdiff_t *
rt_glibc_offset (void)
{
#ifdef __GLIBC__
  return dlvsym (RTLD_DEFAULT, "__rseq_offset", "GLIBC_2.35");
#else
  return NULL;
#endif
}

/* The registration length that goes with a published __rseq_size:
   max (size, 32), the kernel's rule as every registrant applies it
   (glibc 2.35 to 2.40 publish 32 for 20 and register 32; glibc 2.41
   and the shim register the feature size, 33 on Linux 7.0 and
   later).  */
static inline unsigned int
rt_len_for_size (unsigned int size)
{
  return size > 32 ? size : 32;
}

/* The length glibc registers its own area with.  */
static inline unsigned int
rt_glibc_len (void)
{
  const unsigned int *g = rt_glibc_size ();
  return rt_len_for_size (g != NULL ? *g : 0);
}

/* Whether the C library has an rseq ABI of its own: glibc 2.35+ (and
   RHEL 9's 2.34) export __rseq_*@GLIBC_2.35 from ld.so, registering or
   not; glibc 2.31 and musl export nothing, and then every definition a
   program finds is the shim's.  */
static inline int
rt_libc_has_abi (void)
{
  return rt_glibc_size () != NULL && rt_glibc_offset () != NULL;
}

/* The kernel's auxiliary vector entry TYPE, from /proc/self/auxv (0
   when absent).  Not getauxval: when ld.so runs a program named on its
   command line, glibc 2.31 on AArch64 moves argv, envp and auxv down
   the stack and its getauxval still reads the old place, where it
   finds nothing (2.41 is right).  */
static inline unsigned long int
rt_auxv (unsigned long int type)
{
  unsigned long int v[2], found = 0;
  int fd = open ("/proc/self/auxv", O_RDONLY);
  if (fd < 0)
    return 0;
  while (read (fd, v, sizeof v) == (ssize_t) sizeof v && v[0] != AT_NULL)
    if (v[0] == type)
      {
        found = v[1];
        break;
      }
  close (fd);
  return found;
}

/* What __rseq_size must be in the expected mode, derived from auxv and
   glibc, not from the shim.  */
static inline unsigned int
rt_expected_size (void)
{
  if (rt_expect_is ("libc-owned"))
    {
      const unsigned int *g = rt_glibc_size ();
      if (g == NULL)
        return ~0u;
      return *g == 32 ? 20 : *g;
    }
  if (rt_expect_is ("shim-owned"))
    {
      unsigned long int feature = rt_auxv (27);
      unsigned long int align = rt_auxv (28);
      /* The shim's area holds 64 bytes at 64-byte alignment; beyond
         that it falls back to the 32-byte registration.  */
      if (feature > 64 || align > 64)
        return 28;
      return feature > 20 ? (unsigned int) feature : 20;
    }
  return 0;
}

/* Registration length the shim (or glibc) uses in the expected mode.  */
static inline unsigned int
rt_expected_len (void)
{
  return rt_len_for_size (rt_expected_size ());
}

static inline unsigned long int
rt_expected_align (void)
{
  unsigned long int a = rt_auxv (28);
  return a > 32 ? a : 32;
}

static inline struct rseq *
rt_area (const struct rt_abi *abi)
{
  return (struct rseq *) (rseq_compat_thread_pointer () + *abi->offset);
}

/* The calling thread's TLS block of the loaded librseq-compat, found
   by name through dl_iterate_phdr, not through the shim: START is 0
   when the shim is not loaded or has no block for this thread.  */
struct rt_tls_block
{
  uintptr_t start;
  size_t size;
  size_t modid;
};

static int
rt_shim_tls_cb (struct dl_phdr_info *info, size_t info_size, void *data)
{
  struct rt_tls_block *b = data;
  (void) info_size;
  if (info->dlpi_name == NULL
      || strstr (info->dlpi_name, "librseq-compat") == NULL)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_TLS)
      b->size = info->dlpi_phdr[i].p_memsz;
  b->modid = info->dlpi_tls_modid;
  b->start = (uintptr_t) info->dlpi_tls_data;
  return 1;
}

static inline struct rt_tls_block
rt_shim_tls_block (void)
{
  struct rt_tls_block b = { 0, 0, 0 };
  dl_iterate_phdr (rt_shim_tls_cb, &b);
#ifndef __GLIBC__
  /* musl before 1.2.3 reports the TLS initialisation image as
     dlpi_tls_data, the same in every thread; ask the general-dynamic
     TLS entry point, which every musl exports, for the thread's
     block.  */
  void *(*tga) (size_t *) = (void *(*) (size_t *))
    dlsym (RTLD_DEFAULT, "__tls_get_addr");
  b.start = 0;
  if (tga != NULL && b.modid != 0)
    {
      size_t v[2] = { b.modid, 0 };
      b.start = (uintptr_t) tga (v);
    }
#endif
  return b;
}

/* OFFSET, a published __rseq_offset, must designate the C library's
   area where the C library has the ABI (the shim mirrors glibc 2.35+ in
   every mode), else an area of 32 bytes or more, 32-aligned, inside the
   calling thread's TLS block of the shim (glibc 2.31, musl).  */
static inline void
rt_check_offset (const char *who, ptrdiff_t offset)
{
  const ptrdiff_t *g = rt_glibc_offset ();
  if (rt_libc_has_abi ())
    {
      CHECK (offset == *g, "%s: __rseq_offset %td, glibc's %td", who, offset,
             *g);
      return;
    }
  CHECK (!rt_expect_is ("libc-owned"),
         "%s: mode libc-owned, but the C library has no __rseq_*", who);
  struct rt_tls_block b = rt_shim_tls_block ();
  uintptr_t area = (uintptr_t) (rseq_compat_thread_pointer () + offset);
  CHECK (b.start != 0 && b.size >= 32,
         "%s: no TLS block of librseq-compat found (%#lx, %zu bytes)", who,
         (unsigned long int) b.start, b.size);
  if (b.start != 0)
    CHECK (area >= b.start && area + 32 <= b.start + b.size,
           "%s: __rseq_offset %td designates %#lx, outside the shim's TLS "
           "block [%#lx, %#lx)", who, offset, (unsigned long int) area,
           (unsigned long int) b.start,
           (unsigned long int) (b.start + b.size));
  CHECK (area % 32 == 0, "%s: area %#lx is not 32-aligned", who,
         (unsigned long int) area);
}

static inline int
rt_cpu_id (const struct rt_abi *abi)
{
  return (int) __atomic_load_n (&rt_area (abi)->cpu_id, __ATOMIC_RELAXED);
}

/* 1 if the kernel has exactly (AREA, LEN, RSEQ_SIG) registered for the
   calling thread: re-registering it answers EBUSY, anything else another
   error.  */
static inline int
rt_registered (void *area, unsigned int len)
{
  volatile uint32_t *cpu_id = &((struct rseq *) area)->cpu_id;
  uint32_t before = *cpu_id;
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, area, len, 0, RSEQ_SIG);
  if (ret == 0)
    {
      /* It was not registered, and now is: undo, and put back the
         marker (-1 or -2) that the kernel's unregistration overwrote.  */
      syscall (RSEQ_COMPAT_NR_rseq, area, len, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
      *cpu_id = before;
      return 0;
    }
  return errno == EBUSY;
}

/* The calling thread's cpu_id, and whether the kernel holds its area
   (rt_registered); -100 and -1 where ABI has no __rseq_offset.  */
static inline void
rt_probe_thread (const struct rt_abi *abi, unsigned int len, int *cpu_id,
                 int *registered)
{
  *cpu_id = -100;
  *registered = -1;
  if (abi->offset != NULL)
    {
      *cpu_id = rt_cpu_id (abi);
      *registered = rt_registered (rt_area (abi), len);
    }
}

static inline int
rt_syscall_cpu (void)
{
  unsigned int cpu;
  if (syscall (SYS_getcpu, &cpu, NULL, NULL) != 0)
    return -1;
  return (int) cpu;
}

/* Pin the calling thread to CPU; returns 0 on success.  */
static inline int
rt_pin (int cpu)
{
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  return sched_setaffinity (0, sizeof set, &set);
}

/* 1 when the C library is a glibc older than VERSION.  */
static inline int
rt_glibc_before (const char *version)
{
#ifdef __GLIBC__
  return strverscmp (gnu_get_libc_version (), version) < 0;
#else
  (void) version;
  return 0;
#endif
}

/* rseq_compat_mode as <rseq-compat.h> declares it, for rt_shim_mode.  */
extern const char *rseq_compat_mode (void) __attribute__ ((__weak__));

/* The mode the loaded shim reports, "none" without one.  dlsym first,
   as any program would look.  A static program has no dynamic symbol
   table for dlsym to search (musl's finds nothing in one): there the
   weak reference, which the static link binds to librseq-compat.a's
   definition or leaves null, is the only way to the archive.  A
   dynamic executable (every caller is one) binds that reference when
   it is loaded, to the definition dlsym would find or to none, so for
   it the fallback changes nothing.  The empty asm keeps the null test real, as
   __RSEQ_COMPAT_LAUNDER does in <rseq-compat.h>.  */
static inline const char *
rt_shim_mode (void)
{
  const char *(*fn) (void) = (const char *(*) (void))
    dlsym (RTLD_DEFAULT, "rseq_compat_mode");
  if (fn == NULL)
    {
      fn = rseq_compat_mode;
      __asm__ ("" : "+r" (fn));
    }
  return fn != NULL ? fn () : "none";
}

#endif
