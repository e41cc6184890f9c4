/* A library whose constructor runs before the shim's: linked before
   -lrseq-compat, on musl (link-order.exp).
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

/* Its constructor asks the header's accessor for the CPU, records
   __rseq_size, and starts a thread that records, once the main thread
   has let it go (after every constructor), whether it is registered.
   Before that it starts a thread with thrd_create (which the shim does
   not see) that starts one with pthread_create: the shim's start-up
   then runs there first, and must still register the main thread.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <rseq-compat.h>
#include <stdint.h>
/* C11 threads: glibc 2.28 and later, musl.  The case they make (a
   thread the shim's pthread_create does not see starting one it does)
   matters on musl, where the start-up may run there.  */
#if defined __has_include
# if __has_include (<threads.h>)
#  include <threads.h>
#  define HAVE_THRD 1
# endif
#endif

#include "arch.h"

int link_order_ctor_cpu = -100;
unsigned int link_order_ctor_size = 12345;
int link_order_thread_cpu_id = -100;
pthread_t link_order_thread;
int link_order_thread_ok;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *
thread_main (void *arg)
{
  (void) arg;
  /* Waits for main: the values are final by then.  */
  pthread_mutex_lock (&lock);
  pthread_mutex_unlock (&lock);
  if (&__rseq_size != NULL && __rseq_size != 0)
    {
      char *tp = (char *) rseq_compat_thread_pointer ();
      link_order_thread_cpu_id = *(volatile int32_t *) (tp + __rseq_offset + 4);
    }
  return NULL;
}

#ifdef HAVE_THRD
static void *
nothing (void *arg)
{
  return arg;
}

static int
side (void *arg)
{
  (void) arg;
  pthread_t t;
  if (pthread_create (&t, NULL, nothing, NULL) != 0)
    return 1;
  pthread_join (t, NULL);
  return 0;
}
#endif

int link_order_side_ok;

__attribute__ ((constructor)) static void
early (void)
{
  link_order_ctor_cpu = rseq_compat_cpu ();
  link_order_ctor_size = &__rseq_size != NULL ? __rseq_size : 0;
#ifdef HAVE_THRD
  thrd_t s;
  int res = 1;
  link_order_side_ok = thrd_create (&s, side, NULL) == thrd_success
                       && thrd_join (s, &res) == thrd_success && res == 0;
#else
  link_order_side_ok = 1;
#endif
  pthread_mutex_lock (&lock);
  link_order_thread_ok = pthread_create (&link_order_thread, NULL,
                                         thread_main, NULL) == 0;
}

void
link_order_release (void)
{
  pthread_mutex_unlock (&lock);
}
