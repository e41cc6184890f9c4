/* The object counter-unload loads, adds through, and unloads.
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

/* Its restartable sequence, descriptor (__rseq_cs) and abort handler
   (__rseq_failure) are the plugin's own, so they go away with it.  */

#define _GNU_SOURCE 1
#include <stdint.h>

#include <rseq-compat.h>

#define EXPORT __attribute__ ((visibility ("default")))

static struct rseq_compat_counter counter;

EXPORT int plugin_init (void);
EXPORT void plugin_add (long int n);
EXPORT int64_t plugin_read (void);
EXPORT int64_t plugin_read_rseq (void);
EXPORT void plugin_fini (void);

int
plugin_init (void)
{
  return rseq_compat_counter_init (&counter);
}

void
plugin_add (long int n)
{
  for (long int i = 0; i < n; i++)
    rseq_compat_counter_add (&counter, 1);
}

int64_t
plugin_read (void)
{
  return rseq_compat_counter_read (&counter);
}

/* What the restartable sequences added (the rseq words only).  */
int64_t
plugin_read_rseq (void)
{
  int64_t sum = 0;
  for (unsigned int i = 0; i < counter.nslots; i++)
    sum += __atomic_load_n (&counter.slots[i].rseq, __ATOMIC_RELAXED);
  return sum;
}

void
plugin_fini (void)
{
  rseq_compat_counter_destroy (&counter);
}
