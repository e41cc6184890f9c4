/* A static program linked with librseq-compat.a, or without it (the oracle).
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

/* Usage: static [print]  (linked with -static or -static-pie)

   Checks what a static program sees in the mode the harness expects
   (RSEQ_EXPECT): shim-owned (musl with the archive), disabled (the
   tunable off), libc-owned (a static glibc 2.35 or later, with or
   without the archive).  Every value is compared with one obtained
   without the archive's help: the kernel's EBUSY on re-registering the
   same area proves a registration, the getcpu system call gives the
   CPU, /proc/self/auxv the feature size.  With "print" it checks
   nothing and prints the published values and what the main thread saw
   in a constructor, one per line, for the harness to compare with the
   same program linked without the archive (whose vfork children read
   the parent's cpu_id under glibc 2.36 alone: the check would fail).

   rtest.h is left out: it finds the symbols with dlsym, which a static
   program does not have.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <sys/rseq.h>
#include <arch.h>

/* Weak: the oracle build has no archive, and a musl program without it
   has no definitions at all.  */
extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));
extern const unsigned int __rseq_flags __attribute__ ((weak));
extern const char *rseq_compat_mode (void) __attribute__ ((weak));
extern long int rseq_compat_query (const char *) __attribute__ ((weak));

#define THREADS 4

static int failures;

#define CHECK(cond, ...)                                                \
  do                                                                    \
    {                                                                   \
      if (!(cond))                                                      \
        {                                                               \
          __atomic_add_fetch (&failures, 1, __ATOMIC_RELAXED);          \
          fprintf (stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
          fprintf (stderr, __VA_ARGS__);                                \
          fputc ('\n', stderr);                                         \
        }                                                               \
    }                                                                   \
  while (0)

static const char *
expect (void)
{
  const char *m = getenv ("RSEQ_EXPECT");
  return m != NULL ? m : "unset";
}

static int
expect_is (const char *mode)
{
  return strcmp (expect (), mode) == 0;
}

static int
owned (void)
{
  return expect_is ("shim-owned") || expect_is ("libc-owned");
}

static unsigned long int
auxv (unsigned long int type)
{
  unsigned long int v[2], found = 0;
  int fd = open ("/proc/self/auxv", O_RDONLY);
  if (fd < 0)
    return 0;
  while (read (fd, v, sizeof v) == (ssize_t) sizeof v && v[0] != 0)
    if (v[0] == type)
      found = v[1];
  close (fd);
  return found;
}

static struct rseq *
area (void)
{
  return (struct rseq *) (rseq_compat_thread_pointer () + __rseq_offset);
}

static int
cpu_id (void)
{
  return (int) __atomic_load_n (&area ()->cpu_id, __ATOMIC_RELAXED);
}

/* The registration length that goes with the published size: the
   kernel's rule, max (size, 32); glibc 2.35 to 2.40 publish 20 or 32
   and register 32.  */
static unsigned int
reg_len (void)
{
  return __rseq_size > 32 ? __rseq_size : 32;
}

/* 1 if the kernel has exactly this area, length and signature
   registered for the calling thread (EBUSY on registering it again).  */
static int
registered (void)
{
  volatile uint32_t *id = &area ()->cpu_id;
  uint32_t before = *id;
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, area (), reg_len (), 0,
                          RSEQ_SIG);
  if (ret == 0)
    {
      syscall (RSEQ_COMPAT_NR_rseq, area (), reg_len (),
               RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
      *id = before;
      return 0;
    }
  return errno == EBUSY;
}

static int
syscall_cpu (void)
{
  unsigned int cpu;
  if (syscall (SYS_getcpu, &cpu, NULL, NULL) != 0)
    return -1;
  return (int) cpu;
}

/* Whether READ (cpu_id or sched_getcpu) agrees with the getcpu system
   call on both sides of it, in one of many tries: a migration between
   the calls can make one try disagree, never all of them.  */
static int
agrees_with_kernel (int (*read) (void))
{
  for (int i = 0; i < 1000; i++)
    {
      int before = syscall_cpu ();
      int got = read ();
      int after = syscall_cpu ();
      if (before == after && got == before)
        return 1;
    }
  return 0;
}

/* What the main thread saw in a program constructor, which must run
   after the archive registered it.  */
static int ctor_registered = -1;
static int ctor_cpu_ok = -1;
static unsigned int ctor_size;

__attribute__ ((constructor (101))) static void
early_ctor (void)
{
  if (&__rseq_offset == NULL || &__rseq_size == NULL)
    return;
  ctor_size = __rseq_size;
  ctor_registered = registered ();
  ctor_cpu_ok = agrees_with_kernel (cpu_id);
}

struct seen
{
  uintptr_t area;
  int registered;
  int cpu_ok;
  int getcpu_ok;
  int id;
};

static void
observe (struct seen *s)
{
  s->area = (uintptr_t) area ();
  s->registered = registered ();
  s->cpu_ok = agrees_with_kernel (cpu_id);
  s->getcpu_ok = agrees_with_kernel (sched_getcpu);
  s->id = cpu_id ();
}

static void *
thread_main (void *arg)
{
  observe (arg);
  return NULL;
}

/* The main thread's and the threads' registrations in the expected
   mode.  */
static void
check_threads (void)
{
  struct seen main_seen, seen[THREADS];
  observe (&main_seen);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK (pthread_create (&t[i], NULL, thread_main, &seen[i]) == 0,
           "pthread_create %d", i);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);

  unsigned long int align = auxv (28) > 32 ? auxv (28) : 32;
  for (int i = -1; i < THREADS; i++)
    {
      struct seen *s = i < 0 ? &main_seen : &seen[i];
      CHECK (s->area % align == 0, "thread %d: area %#lx not %lu-aligned",
             i, (unsigned long int) s->area, align);
      if (i >= 0)
        CHECK (s->area != main_seen.area, "thread %d shares main's area", i);
      CHECK (s->getcpu_ok, "thread %d: sched_getcpu never agreed with the "
             "getcpu system call", i);
      if (owned ())
        {
          CHECK (s->registered, "thread %d: area not registered", i);
          CHECK (s->cpu_ok, "thread %d: cpu_id never agreed with the getcpu "
                 "system call", i);
        }
      else
        {
          CHECK (!s->registered, "thread %d: registered in mode %s", i,
                 expect ());
          CHECK (s->id == RSEQ_CPU_ID_REGISTRATION_FAILED,
                 "thread %d: cpu_id %d, expected -2", i, s->id);
        }
    }
}

/* A forked child keeps the registration (the kernel copies it).  */
static void
check_fork (void)
{
  pid_t pid = fork ();
  if (pid == 0)
    _exit ((registered () == owned () ? 0 : 1)
           | (agrees_with_kernel (sched_getcpu) ? 0 : 2)
           | (!owned () || agrees_with_kernel (cpu_id) ? 0 : 4));
  int status = -1;
  CHECK (pid > 0 && waitpid (pid, &status, 0) == pid, "fork: %s",
         strerror (errno));
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0,
         "fork child: status %#x (1: registration, 2: sched_getcpu, "
         "4: cpu_id)", status);
}

/* A vfork child runs on the parent's TLS: pinned to a CPU other than
   the parent's, it must read that CPU from sched_getcpu, not the
   parent's stale cpu_id; the parent is registered again afterwards.  */
/* An allowed CPU other than the caller's, or -1.  A function of its
   own: no loop variable may live across vfork.  */
static __attribute__ ((noinline)) int
other_cpu (void)
{
  cpu_set_t allowed;
  int parent = syscall_cpu ();
  CHECK (sched_getaffinity (0, sizeof allowed, &allowed) == 0,
         "sched_getaffinity: %s", strerror (errno));
  for (int i = 0; i < 240; i++)
    if (CPU_ISSET (i, &allowed) && i != parent)
      return i;
  return -1;
}

static void
check_vfork (void)
{
  const int other = other_cpu ();
  CHECK (other >= 0, "need two allowed CPUs");
  if (other < 0)
    return;
  volatile int child_cpu = -1;
  pid_t pid = vfork ();
  if (pid == 0)
    {
      cpu_set_t one;
      CPU_ZERO (&one);
      CPU_SET (other, &one);
      if (sched_setaffinity (0, sizeof one, &one) == 0)
        child_cpu = sched_getcpu ();
      _exit (0);
    }
  int status = -1;
  CHECK (pid > 0 && waitpid (pid, &status, 0) == pid, "vfork: %s",
         strerror (errno));
  CHECK (child_cpu == other, "vfork child pinned to CPU %d: sched_getcpu "
         "said %d", other, child_cpu);
  CHECK (registered () == owned (), "after vfork: registered %d in mode %s",
         registered (), expect ());
  if (owned ())
    CHECK (agrees_with_kernel (cpu_id), "after vfork: cpu_id %d", cpu_id ());
}

int
main (int argc, char **argv)
{
  int print = argc > 1 && strcmp (argv[1], "print") == 0;
  const char *mode = rseq_compat_mode != NULL ? rseq_compat_mode () : "none";

  CHECK (&__rseq_offset != NULL && &__rseq_size != NULL
         && &__rseq_flags != NULL, "__rseq_* not defined");
  if (&__rseq_offset == NULL || &__rseq_size == NULL || &__rseq_flags == NULL)
    return 1;
  if (print)
    {
      printf ("offset=%td\nsize=%u\nflags=%u\nctor_registered=%d\n"
              "ctor_cpu_ok=%d\nregistered=%d\n", __rseq_offset, __rseq_size,
              __rseq_flags, ctor_registered, ctor_cpu_ok, registered ());
      return 0;
    }

  if (rseq_compat_mode != NULL)
    CHECK (strcmp (mode, expect ()) == 0, "mode %s, expected %s", mode,
           expect ());
  CHECK (__rseq_flags == 0, "__rseq_flags %u", __rseq_flags);
  CHECK (__rseq_size == ctor_size, "__rseq_size %u, %u in a constructor",
         __rseq_size, ctor_size);
  if (expect_is ("shim-owned"))
    {
      /* The archive's area holds 64 bytes at 64-byte alignment; a
         kernel that wants more gets the 32-byte registration.  */
      unsigned long int feature = auxv (27), align = auxv (28);
      unsigned int want = feature > 64 || align > 64 ? 28
                          : feature > 20 ? (unsigned int) feature : 20;
      CHECK (__rseq_size == want, "__rseq_size %u, expected %u (auxv %lu)",
             __rseq_size, want, feature);
    }
  else if (!owned ())
    CHECK (__rseq_size == 0, "__rseq_size %u in mode %s", __rseq_size,
           expect ());
  CHECK (ctor_registered == owned (), "main thread registered %d in a "
         "program constructor, mode %s", ctor_registered, expect ());
  if (owned ())
    CHECK (ctor_cpu_ok == 1, "cpu_id in a constructor never agreed with "
           "the getcpu system call");
  if (rseq_compat_mode != NULL && expect_is ("libc-owned"))
    /* The C library's registration, not a second one of the archive.  */
    CHECK (rseq_compat_query ("thread_registered") == 0,
           "the archive registered a thread beside glibc");

  check_threads ();
  check_fork ();
  check_vfork ();
  if (failures != 0)
    fprintf (stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
