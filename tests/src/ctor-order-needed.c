/* ctor-order: a DT_NEEDED library of the program.
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
#include "ctor-order.h"

static struct ctor_record record;

#ifdef CTOR_ORDER_THREAD
# include <pthread.h>
# include <signal.h>

/* Blocked by the attribute's mask, not by the creator's.  */
# define CTOR_ORDER_ATTR_SIGNAL SIGUSR2

static void *
thread_main (void *p)
{
  struct ctor_record *r = p;
  struct rseq *area = (struct rseq *) (rseq_compat_thread_pointer ()
                                       + r->dl_offset);
  r->thread_cpu_id = (int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
  r->thread_registered = rt_registered (area, rt_expected_len ());
  if (r->thread_attr_mask == 0)
    {
      sigset_t now;
      pthread_sigmask (SIG_SETMASK, NULL, &now);
      r->thread_attr_mask = sigismember (&now, CTOR_ORDER_ATTR_SIGNAL) == 1;
    }
  return NULL;
}

/* A thread started in the window whose attribute carries a signal
   mask: the shim's start routine must apply that mask, not the
   creator's, though the shim's constructor has not run yet.  */
static int
start_thread (pthread_t *t)
{
  typedef int setmask_fn (pthread_attr_t *, const sigset_t *);
  setmask_fn *setmask
    = (setmask_fn *) dlsym (RTLD_DEFAULT, "pthread_attr_setsigmask_np");
  record.thread_attr_mask = -1;
  if (setmask == NULL)
    return pthread_create (t, NULL, thread_main, &record);
  sigset_t mask;
  sigemptyset (&mask);
  sigaddset (&mask, CTOR_ORDER_ATTR_SIGNAL);
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  int ret = setmask (&attr, &mask);
  if (ret == 0)
    {
      record.thread_attr_mask = 0;
      ret = pthread_create (t, &attr, thread_main, &record);
    }
  pthread_attr_destroy (&attr);
  return ret;
}
#endif

__attribute__ ((constructor)) static void
needed_init (void)
{
  ctor_record_now (&record);
#ifdef CTOR_ORDER_THREAD
  record.thread_ret = -1;
  record.thread_cpu_id = -100;
  record.thread_registered = -1;
  if (record.dl_offset_p != NULL)
    {
      pthread_t t;
      record.thread_ret = start_thread (&t);
      if (record.thread_ret == 0)
        pthread_join (t, NULL);
    }
#endif
}

const struct ctor_record *
ctor_needed_record (void)
{
  return &record;
}
