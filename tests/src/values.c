/* The published values, the area and the registration, in every thread.
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

#include "rtest.h"

#include <pthread.h>

#define THREADS 8

struct seen
{
  ptrdiff_t offset;
  unsigned int size;
  uintptr_t area;
  int cpu_id;
  int registered;
};

static struct rt_abi abi;

static void
observe (struct seen *s)
{
  s->offset = *abi.offset;
  s->size = *abi.size;
  s->area = (uintptr_t) rt_area (&abi);
  s->cpu_id = rt_cpu_id (&abi);
  s->registered = rt_registered (rt_area (&abi), rt_expected_len ());
  /* glibc's area where glibc has the ABI, else one in this thread's TLS
     block of the shim.  */
  rt_check_offset ("observe", s->offset);
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
  abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL && abi.flags != NULL,
         "__rseq_offset %p, __rseq_size %p, __rseq_flags %p",
         (void *) abi.offset, (void *) abi.size, (void *) abi.flags);
  if (abi.offset == NULL || abi.size == NULL || abi.flags == NULL)
    return rt_exit_status ();

  const char *mode = rt_shim_mode ();
  CHECK (strcmp (mode, rt_expect ()) == 0, "mode %s, expected %s", mode,
         rt_expect ());
  CHECK (*abi.flags == 0, "__rseq_flags %u", *abi.flags);
  CHECK (*abi.size != 32, "__rseq_size is the legacy 32");
  CHECK (*abi.size == rt_expected_size (), "__rseq_size %u, expected %u",
         *abi.size, rt_expected_size ());

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
      CHECK (s->offset == main_seen.offset && s->size == main_seen.size,
             "thread %d: offset %td size %u, main %td %u", i, s->offset,
             s->size, main_seen.offset, main_seen.size);
      CHECK (s->area % rt_expected_align () == 0,
             "thread %d: area %#lx not aligned to %lu", i,
             (unsigned long int) s->area, rt_expected_align ());
      if (i >= 0)
        CHECK (s->area != main_seen.area, "thread %d shares main's area", i);
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

  /* With nothing registered, the application may register its own
     area; glibc's tst-rseq-disable checks the same.  */
  if (!rt_expect_registered ())
    {
      static struct rseq own __attribute__ ((aligned (32)));
      long int ret = syscall (RSEQ_COMPAT_NR_rseq, &own, 32, 0, RSEQ_SIG);
      CHECK (ret == 0, "own registration: %s", strerror (errno));
      if (ret == 0)
        {
          CHECK ((int) own.cpu_id == rt_syscall_cpu ()
                 || (int) own.cpu_id >= 0, "own cpu_id %d", (int) own.cpu_id);
          syscall (RSEQ_COMPAT_NR_rseq, &own, 32, RSEQ_FLAG_UNREGISTER,
                   RSEQ_SIG);
        }
    }
  return rt_exit_status ();
}
