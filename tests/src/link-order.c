/* A program linked with a library before -lrseq-compat (link-order.exp).
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

/* Prints what the library's constructor saw and whether the thread it
   started is registered; checks the accessor never gave a non-CPU.  */

#include "rtest.h"

#include <pthread.h>
#include <unistd.h>

extern int link_order_ctor_cpu;
extern unsigned int link_order_ctor_size;
extern int link_order_thread_cpu_id;
extern pthread_t link_order_thread;
extern int link_order_thread_ok;
extern int link_order_side_ok;
void link_order_release (void);

int
main (void)
{
  long ncpu = sysconf (_SC_NPROCESSORS_CONF);
  CHECK (link_order_ctor_cpu >= 0 && link_order_ctor_cpu < ncpu,
         "the constructor's rseq_compat_cpu () is %d, not a CPU (0 to %ld)",
         link_order_ctor_cpu, ncpu - 1);
  CHECK (link_order_thread_ok, "the constructor's pthread_create failed");
  CHECK (link_order_side_ok, "the constructor's thrd_create thread failed");
  /* The main thread is registered whichever thread ran the start-up.  */
  const struct rt_abi abi = rt_abi ();
  if (abi.size != NULL && *abi.size != 0)
    {
      int32_t main_cpu = *(volatile int32_t *) (rseq_compat_thread_pointer ()
                                                + *abi.offset + 4);
      CHECK (main_cpu >= 0 && main_cpu < ncpu,
             "the main thread has cpu_id %d: not registered", main_cpu);
    }
  link_order_release ();
  pthread_join (link_order_thread, NULL);
  CHECK (link_order_thread_cpu_id >= 0 && link_order_thread_cpu_id < ncpu,
         "the thread the constructor started has cpu_id %d: not registered",
         link_order_thread_cpu_id);
  printf ("constructor: __rseq_size %u\n", link_order_ctor_size);
  return rt_exit_status ();
}
