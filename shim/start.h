/* Start blocks: what pthread_create hands the new thread.
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

#ifndef RSEQ_COMPAT_START_H
#define RSEQ_COMPAT_START_H

#include <signal.h>

struct start
{
  void *(*fn) (void *);
  void *arg;
  sigset_t mask;
  /* Whether the trampoline sets MASK (the creator could block signals:
     a filter may refuse rt_sigprocmask).  */
  int set_mask;
  /* Nonzero while a creation in flight holds this block.  */
  int busy;
};

/* A free block, marked busy, or NULL when none can be mapped.
   Async-signal-safe: no lock, no malloc.  */
struct start *__rseq_compat_start_claim (void)
  __attribute__ ((visibility ("hidden")));
/* S free again; its contents must have been copied.  */
void __rseq_compat_start_release (struct start *s)
  __attribute__ ((visibility ("hidden")));

#endif
