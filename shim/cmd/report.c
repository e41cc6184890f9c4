/* rseq-compat info: the report's own rules.
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

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* The values a program sees: the shim's when it is loaded (they mirror
   the C library's in libc-owned mode), else the C library's.  */
void
info_pick_abi (struct info_report *r)
{
  if (r->shim_abi)
    {
      r->abi_source = "librseq-compat";
      r->offset = r->shim_offset;
      r->size = r->shim_size;
      r->flags = r->shim_flags;
    }
  else if (r->libc_abi)
    {
      r->abi_source = r->libc;
      r->offset = r->libc_offset;
      r->size = r->libc_size;
      r->flags = r->libc_flags;
    }
}

const char *
info_state_name (enum thread_state s)
{
  switch (s)
    {
    case TS_REGISTERED: return "registered";
    case TS_UNREGISTERED: return "unregistered";
    case TS_EXITED: return "exited";
    default: return "unknown";
    }
}

int
info_add_thread (struct info_report *r, size_t *cap, pid_t tid)
{
  for (size_t i = 0; i < r->nthreads; i++)
    if (r->threads[i].tid == tid)
      return 0;
  if (r->nthreads == *cap)
    {
      size_t ncap = *cap ? 2 * *cap : 16;
      struct info_thread *n = realloc (r->threads, ncap * sizeof *n);
      if (n == NULL)
        return -1;
      r->threads = n;
      *cap = ncap;
    }
  struct info_thread *t = &r->threads[r->nthreads++];
  memset (t, 0, sizeof *t);
  t->tid = tid;
  return 1;
}
