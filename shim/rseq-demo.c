/* rseq-demo: what rseq looks like from inside a process (make demo).
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

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <arch.h>
#include <sys/rseq.h>

#define THREADS 4
#define CALLS 20000000L

static const ptrdiff_t *offset;
static const unsigned int *size;

/* Registered iff the kernel answers EBUSY to the identical registration.  */
static int
registered (void)
{
  if (offset == NULL || size == NULL)
    return 0;
  unsigned int len = *size > 32 ? *size : 32;
  void *area = rseq_compat_thread_pointer () + *offset;
  if (syscall (RSEQ_COMPAT_NR_rseq, area, len, 0, RSEQ_SIG) == 0)
    {
      syscall (RSEQ_COMPAT_NR_rseq, area, len, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
      return 0;
    }
  return errno == EBUSY;
}

static int
cpu_id (void)
{
  if (offset == NULL)
    return -1;
  return (int) ((struct rseq *) (rseq_compat_thread_pointer () + *offset))->cpu_id;
}

static void *
thread_main (void *arg)
{
  *(int *) arg = registered ();
  return NULL;
}

static double
ns_per_call (int (*fn) (void))
{
  struct timespec a, b;
  volatile int sink = 0;
  for (long i = 0; i < CALLS / 10; i++)
    sink += fn ();
  clock_gettime (CLOCK_MONOTONIC, &a);
  for (long i = 0; i < CALLS; i++)
    sink += fn ();
  clock_gettime (CLOCK_MONOTONIC, &b);
  (void) sink;
  return ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / CALLS;
}

static int
getcpu_syscall (void)
{
  unsigned int cpu;
  syscall (SYS_getcpu, &cpu, NULL, NULL);
  return (int) cpu;
}

int
main (int argc, char **argv)
{
  const char *label = argc > 1 ? argv[1] : "this process";
  struct utsname u;
  uname (&u);
#ifdef __GLIBC__
  char libc[64];
  snprintf (libc, sizeof libc, "glibc %d.%d", __GLIBC__, __GLIBC_MINOR__);
#else
  const char *libc = "musl";
#endif
  const char *(*mode) (void) = (const char *(*) (void))
    dlsym (RTLD_DEFAULT, "rseq_compat_mode");
  offset = dlsym (RTLD_DEFAULT, "__rseq_offset");
  size = dlsym (RTLD_DEFAULT, "__rseq_size");
  const unsigned int *flags = dlsym (RTLD_DEFAULT, "__rseq_flags");

  printf ("== %s\n", label);
  printf ("  C library        %s, Linux %s (AT_RSEQ_FEATURE_SIZE %lu, "
          "AT_RSEQ_ALIGN %lu)\n", libc, u.release, getauxval (27),
          getauxval (28));
  printf ("  librseq-compat   %s\n",
          mode != NULL ? mode () : "not loaded");
  if (offset != NULL && size != NULL && flags != NULL)
    printf ("  __rseq_offset    %td\n  __rseq_size      %u\n"
            "  __rseq_flags     %u\n", *offset, *size, *flags);
  else
    printf ("  __rseq_*         not defined: no rseq ABI in this process\n");

  int reg[THREADS];
  pthread_t t[THREADS];
  int started = 0;
  for (int i = 0; i < THREADS; i++)
    started += pthread_create (&t[i], NULL, thread_main, &reg[i]) == 0;
  int nreg = 0;
  for (int i = 0; i < started; i++)
    {
      pthread_join (t[i], NULL);
      nreg += reg[i];
    }
  printf ("  main thread      %s (cpu_id %d)\n",
          registered () ? "registered" : "not registered", cpu_id ());
  printf ("  new threads      %d of %d registered\n", nreg, started);
  double fast = ns_per_call (sched_getcpu);
  double slow = ns_per_call (getcpu_syscall);
  printf ("  sched_getcpu     %.2f ns/call (getcpu system call %.1f ns/call, "
          "%.0fx)\n", fast, slow, slow / fast);
  return 0;
}
