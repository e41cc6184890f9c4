/* A non-PIE program that copied __rseq_* into its own data.
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

/* Built -no-pie -fno-pic and linked with -lrseq-compat, this program
   refers to the three variables directly, so the link editor gives it
   COPY relocations (the .exp checks with readelf): the loader copies
   the values out of the library that defines them when it relocates
   the program, after every library.  They must be the final values, in
   every thread: glibc's own where glibc has them (2.35+), the shim's
   own area and the size from auxv where it does not (2.31, musl).  */

#include "rtest.h"

#include <pthread.h>

#define THREADS 4

struct seen
{
  int cpu_id;
  int registered;
};

static void
observe (struct seen *s)
{
  struct rseq *area = (struct rseq *) (rseq_compat_thread_pointer ()
                                       + __rseq_offset);
  s->cpu_id = (int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
  s->registered = rt_registered (area, rt_expected_len ());
  /* The copy designates this thread's area too.  */
  rt_check_offset ("observe", __rseq_offset);
}

static void *
thread_main (void *arg)
{
  observe (arg);
  return NULL;
}

int
main (void)
{
  struct rt_abi abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL && abi.flags != NULL,
         "dlsym: __rseq_offset %p, __rseq_size %p, __rseq_flags %p",
         (void *) abi.offset, (void *) abi.size, (void *) abi.flags);
  if (abi.offset == NULL || abi.size == NULL || abi.flags == NULL)
    return rt_exit_status ();

  /* The program's copies are the definitions everyone finds.  */
  CHECK (abi.offset == &__rseq_offset && abi.size == &__rseq_size
         && abi.flags == &__rseq_flags,
         "dlsym found %p %p %p, the program's copies are %p %p %p",
         (void *) abi.offset, (void *) abi.size, (void *) abi.flags,
         (void *) &__rseq_offset, (void *) &__rseq_size,
         (void *) &__rseq_flags);
  CHECK (__rseq_offset == *abi.offset, "__rseq_offset %td, dlsym %td",
         __rseq_offset, *abi.offset);
  CHECK (__rseq_size == *abi.size, "__rseq_size %u, dlsym %u", __rseq_size,
         *abi.size);
  CHECK (__rseq_flags == *abi.flags, "__rseq_flags %u, dlsym %u",
         __rseq_flags, *abi.flags);

  const char *mode = rt_shim_mode ();
  CHECK (strcmp (mode, rt_expect ()) == 0, "mode %s, expected %s", mode,
         rt_expect ());
  CHECK (__rseq_size == rt_expected_size (), "__rseq_size %u, expected %u",
         __rseq_size, rt_expected_size ());
  CHECK (__rseq_flags == 0, "__rseq_flags %u", __rseq_flags);
  /* 0 would be a copy nobody wrote, except where the shim's TLS block
     begins at the thread pointer: musl on AArch64 puts the first
     module's block there when the program has no TLS of its own.  */
  struct rt_tls_block block = rt_shim_tls_block ();
  CHECK (__rseq_offset != 0
         || (block.start != 0
             && block.start == (uintptr_t) rseq_compat_thread_pointer ()),
         "__rseq_offset is 0, and the shim's TLS block begins at %#lx, not "
         "at the thread pointer", (unsigned long int) block.start);

  /* Where the C library has the ABI (glibc 2.35+), the copies hold
     glibc's values; where it has none (glibc 2.31, musl), the shim's
     own: the size derived from auxv above and its own area.  */
  const unsigned int *gsize = rt_glibc_size ();
  if (rt_libc_has_abi ())
    CHECK (__rseq_size == (*gsize == 32 ? 20 : *gsize),
           "__rseq_size %u, glibc's %u", __rseq_size, *gsize);
  rt_check_offset ("program's copy", __rseq_offset);

  struct seen main_seen, seen[THREADS];
  observe (&main_seen);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK (pthread_create (&t[i], NULL, thread_main, &seen[i]) == 0,
           "pthread_create %d", i);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);

  long int ncpu = sysconf (_SC_NPROCESSORS_CONF);
  for (int i = -1; i < THREADS; i++)
    {
      struct seen *s = i < 0 ? &main_seen : &seen[i];
      if (rt_expect_registered ())
        {
          CHECK (s->registered, "thread %d: area not registered", i);
          CHECK (s->cpu_id >= 0 && s->cpu_id < ncpu, "thread %d: cpu_id %d",
                 i, s->cpu_id);
        }
      else
        {
          CHECK (!s->registered, "thread %d: registered in mode %s", i,
                 rt_expect ());
          CHECK (s->cpu_id == RSEQ_CPU_ID_REGISTRATION_FAILED,
                 "thread %d: cpu_id %d, expected -2", i, s->cpu_id);
        }
    }
  return rt_exit_status ();
}
