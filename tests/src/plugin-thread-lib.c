/* plugin-thread: the plugin, linked with libpthread.
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
#include "plugin-thread.h"

#include <pthread.h>

struct plugin_lookups
{
  struct rt_abi abi;
  unsigned int len;
};

static void *
thread_main (void *p)
{
  struct plugin_thread_result *r = p;
  struct plugin_lookups *l = r->lookups;
  r->cpu_id = -100;
  r->registered = -1;
  if (l->abi.offset != NULL)
    {
      r->cpu_id = rt_cpu_id (&l->abi);
      r->registered = rt_registered (rt_area (&l->abi), l->len);
    }
  r->ran = 1;
  return NULL;
}

void plugin_thread_run (struct plugin_thread_result *r);

void
plugin_thread_run (struct plugin_thread_result *r)
{
  /* Every dl* call in the creator: before glibc 2.34 a program that
     started without libpthread keeps one dlerror state for all its
     threads.  */
  struct plugin_lookups l = { rt_abi (), rt_expected_len () };
  r->lookups = &l;
  pthread_t t;
  dlerror ();
  r->create_ret = pthread_create (&t, NULL, thread_main, r);
  const char *err = dlerror ();
  snprintf (r->dlerror_after, sizeof r->dlerror_after, "%s",
            err != NULL ? err : "");
  r->join_ret = r->create_ret == 0 ? pthread_join (t, NULL) : -1;
}
