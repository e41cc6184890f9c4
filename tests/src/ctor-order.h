/* Shared part of the ctor-order test: what a constructor saw.
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

/* Each of the test's libraries records, in its constructor, the
   published values as it can find them (dlsym (RTLD_DEFAULT) and weak
   references), the mode the shim reports and the calling thread's
   cpu_id.  main compares the records with the final values: on glibc
   the shim fixes them while it is relocated, on musl in its
   constructor, which must run before every other one.  */

#ifndef CTOR_ORDER_H
#define CTOR_ORDER_H 1

#include "rtest.h"

extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));
extern const unsigned int __rseq_flags __attribute__ ((weak));

struct ctor_record
{
  int ran;
  /* dlsym (RTLD_DEFAULT, ...).  */
  const ptrdiff_t *dl_offset_p;
  const unsigned int *dl_size_p;
  const unsigned int *dl_flags_p;
  ptrdiff_t dl_offset;
  unsigned int dl_size;
  unsigned int dl_flags;
  /* Weak references.  */
  const ptrdiff_t *weak_offset_p;
  const unsigned int *weak_size_p;
  const unsigned int *weak_flags_p;
  ptrdiff_t weak_offset;
  unsigned int weak_size;
  unsigned int weak_flags;
  /* rseq_compat_mode () at that time.  */
  char mode[32];
  /* cpu_id at thread pointer + __rseq_offset.  */
  int cpu_id;
  /* rt_registered for that area: 1 registered, 0 not, -1 no area.  */
  int registered;
  /* Libraries built with CTOR_ORDER_THREAD start a thread in their
     constructor: pthread_create's result, and the thread's cpu_id and
     registration.  */
  int thread_ret;
  int thread_cpu_id;
  int thread_registered;
  /* The thread is created with pthread_attr_setsigmask_np's mask where
     the C library has it (glibc 2.32 and later): 1 if the thread runs
     with it, 0 if not, -1 where there is no such function.  */
  int thread_attr_mask;
};

static inline const void *
ctor_launder (const void *p)
{
  __asm__ ("" : "+r" (p));
  return p;
}

static inline void
ctor_record_now (struct ctor_record *r)
{
  r->dl_offset_p = dlsym (RTLD_DEFAULT, "__rseq_offset");
  r->dl_size_p = dlsym (RTLD_DEFAULT, "__rseq_size");
  r->dl_flags_p = dlsym (RTLD_DEFAULT, "__rseq_flags");
  if (r->dl_offset_p != NULL)
    r->dl_offset = *r->dl_offset_p;
  if (r->dl_size_p != NULL)
    r->dl_size = *r->dl_size_p;
  if (r->dl_flags_p != NULL)
    r->dl_flags = *r->dl_flags_p;

  r->weak_offset_p = ctor_launder (&__rseq_offset);
  r->weak_size_p = ctor_launder (&__rseq_size);
  r->weak_flags_p = ctor_launder (&__rseq_flags);
  if (r->weak_offset_p != NULL)
    r->weak_offset = *r->weak_offset_p;
  if (r->weak_size_p != NULL)
    r->weak_size = *r->weak_size_p;
  if (r->weak_flags_p != NULL)
    r->weak_flags = *r->weak_flags_p;

  const char *(*mode) (void) = (const char *(*) (void))
    dlsym (RTLD_DEFAULT, "rseq_compat_mode");
  snprintf (r->mode, sizeof r->mode, "%s", mode != NULL ? mode () : "none");

  r->cpu_id = -100;
  r->registered = -1;
  if (r->dl_offset_p != NULL)
    {
      struct rseq *area = (struct rseq *) (rseq_compat_thread_pointer ()
                                           + r->dl_offset);
      r->cpu_id = (int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
      r->registered = rt_registered (area, rt_expected_len ());
    }
  r->ran++;
}

#endif
