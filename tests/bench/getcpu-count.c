/* getcpu-count.so: counts the sched_getcpu calls of a process and
   prints the count at exit (benchmark 6's explanation).  Preloaded
   first; passes every call on to the next definition (the shim's or
   the C library's), found in a constructor: an allocator that calls
   sched_getcpu while it initialises must not find dlsym (which may
   allocate) on its way.  Calls before that ask the kernel.
   Copyright (C) 2026 The rseq-compat developers.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned long int calls;
static int (*next) (void);

int
sched_getcpu (void)
{
  __atomic_add_fetch (&calls, 1, __ATOMIC_RELAXED);
  int (*fn) (void) = __atomic_load_n (&next, __ATOMIC_ACQUIRE);
  if (fn != NULL)
    return fn ();
  unsigned int cpu;
  return syscall (SYS_getcpu, &cpu, NULL, NULL) == 0 ? (int) cpu : -1;
}

__attribute__ ((constructor)) static void
init (void)
{
  __atomic_store_n (&next, (int (*) (void)) dlsym (RTLD_NEXT, "sched_getcpu"),
                    __ATOMIC_RELEASE);
}

__attribute__ ((destructor)) static void
report (void)
{
  printf ("GETCPU_CALLS\t%lu\n", calls);
}
