/* A static program's own code that runs before the archive's start-up entry.
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

/* Usage: static-early  (linked -static or -static-pie with the archive)

   The program's objects come before the archive on the link line, so
   an entry of the program's in the same section as the archive's runs
   first.  This program has one in every early slot a program can use:

   - glibc: .preinit_array, which runs before every constructor.  The
     archive has not decided there yet: sched_getcpu and getcpu must
     still give the CPU (the getcpu system call is the oracle; the
     program pins itself to a CPU other than 0, which a read of the
     wrong TLS word would give), and a thread created there must be
     registered like any other in the expected mode (RSEQ_EXPECT);
   - constructors of priority 0, 65 and 100 (the implementation's,
     written as sections: GCC warns about those priorities), 101 and
     none: the main thread must be registered in each, which on musl
     needs the archive's entry to run before all of them.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <sys/rseq.h>
#include <arch.h>

#if !defined __GLIBC__ || __GLIBC__ * 1000 + __GLIBC_MINOR__ < 2029
/* The archive's; musl 1.2.3 and glibc before 2.29 have none.  */
extern int getcpu (unsigned int *, unsigned int *);
#endif

extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));

static int failures;

#define CHECK(cond, ...)                                                \
  do                                                                    \
    {                                                                   \
      if (!(cond))                                                      \
        {                                                               \
          failures++;                                                   \
          fprintf (stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
          fprintf (stderr, __VA_ARGS__);                                \
          fputc ('\n', stderr);                                         \
        }                                                               \
    }                                                                   \
  while (0)

static int
owned (void)
{
  const char *m = getenv ("RSEQ_EXPECT");
  return m != NULL && (strcmp (m, "shim-owned") == 0
                       || strcmp (m, "libc-owned") == 0);
}

static int
syscall_cpu (void)
{
  unsigned int cpu;
  if (syscall (SYS_getcpu, &cpu, NULL, NULL) != 0)
    return -1;
  return (int) cpu;
}

/* The highest allowed CPU, which the program pins itself to: not 0,
   the value a read of the wrong word would most likely give.  */
static int target = -1;

static void
pin (void)
{
  if (target >= 0)
    return;
  cpu_set_t allowed;
  if (sched_getaffinity (0, sizeof allowed, &allowed) != 0)
    return;
  for (int i = CPU_SETSIZE - 1; i > 0 && target < 0; i--)
    if (CPU_ISSET (i, &allowed))
      target = i;
  if (target < 0)
    return;
  cpu_set_t one;
  CPU_ZERO (&one);
  CPU_SET (target, &one);
  if (sched_setaffinity (0, sizeof one, &one) != 0)
    target = -1;
}

/* 1 if the calling thread is registered at the published area: the
   kernel answers EBUSY to the identical registration.  Never tried
   while the published size is 0: __rseq_offset may not designate an
   area yet, and a registration there would let the kernel write
   whatever it designates.  */
static int
registered (void)
{
  if (&__rseq_size == NULL || __rseq_size == 0)
    return 0;
  struct rseq *area
    = (struct rseq *) (rseq_compat_thread_pointer () + __rseq_offset);
  unsigned int len = __rseq_size > 32 ? __rseq_size : 32;
  volatile uint32_t *id = &area->cpu_id;
  uint32_t before = *id;
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, area, len, 0, RSEQ_SIG);
  if (ret == 0)
    {
      syscall (RSEQ_COMPAT_NR_rseq, area, len, RSEQ_FLAG_UNREGISTER,
               RSEQ_SIG);
      *id = before;
      return 0;
    }
  return errno == EBUSY;
}

struct seen
{
  const char *where;
  int ran;
  int sys;
  int sched;
  int getcpu_ret;
  unsigned int getcpu_cpu;
  int registered;
};

static void
observe (struct seen *s, const char *where)
{
  pin ();
  s->where = where;
  s->ran = 1;
  s->sys = syscall_cpu ();
  s->sched = sched_getcpu ();
  s->getcpu_cpu = 12345;
  s->getcpu_ret = getcpu (&s->getcpu_cpu, NULL);
  s->registered = registered ();
}

enum { PREINIT, PREINIT_THREAD, CTOR0, CTOR65, CTOR100, CTOR101, PLAIN,
       NSEEN };
static struct seen seen[NSEEN];

/* musl runs no .preinit_array.  */
#ifdef __GLIBC__
static void *
preinit_thread (void *arg)
{
  (void) arg;
  observe (&seen[PREINIT_THREAD], "thread created in .preinit_array");
  return NULL;
}

static void
preinit (void)
{
  observe (&seen[PREINIT], ".preinit_array");
  pthread_t t;
  if (pthread_create (&t, NULL, preinit_thread, NULL) == 0)
    pthread_join (t, NULL);
}

static void (*const preinit_entry) (void)
  __attribute__ ((section (".preinit_array"), used)) = preinit;
#endif

#define EARLY(name, sec, idx, where)                                    \
  static void name (void) { observe (&seen[idx], where); }              \
  static void (*const name##_entry) (void)                              \
    __attribute__ ((section (sec), used)) = name

EARLY (ctor0, ".init_array.00000", CTOR0, "constructor (0)");
EARLY (ctor65, ".init_array.00065", CTOR65, "constructor (65)");
EARLY (ctor100, ".init_array.00100", CTOR100, "constructor (100)");

__attribute__ ((constructor (101))) static void
ctor101 (void)
{
  observe (&seen[CTOR101], "constructor (101)");
}

__attribute__ ((constructor)) static void
plain (void)
{
  observe (&seen[PLAIN], "constructor");
}

int
main (void)
{
#ifdef __GLIBC__
  const int first = PREINIT;
#else
  const int first = CTOR0;
#endif
  CHECK (target > 0, "needs two allowed CPUs (pinned to %d)", target);
  for (int i = first; i < NSEEN; i++)
    {
      struct seen *s = &seen[i];
      CHECK (s->ran, "entry %d never ran", i);
      if (!s->ran)
        continue;
      /* Pinned: the system call cannot disagree with itself.  */
      CHECK (s->sys == target, "%s: the getcpu system call said %d, "
             "pinned to %d", s->where, s->sys, target);
      CHECK (s->sched == s->sys, "%s: sched_getcpu %d, the system call %d",
             s->where, s->sched, s->sys);
      CHECK (s->getcpu_ret == 0 && (int) s->getcpu_cpu == s->sys,
             "%s: getcpu returned %d and %u, the system call %d",
             s->where, s->getcpu_ret, s->getcpu_cpu, s->sys);
      /* In .preinit_array the archive has not run yet, and the size
         may still say nothing (glibc before 2.35).  */
      if (i != PREINIT)
        CHECK (s->registered == owned (), "%s: registered %d, expected %d",
               s->where, s->registered, owned ());
    }
  if (failures != 0)
    fprintf (stderr, "%d check(s) failed\n", failures);
  return failures != 0;
}
