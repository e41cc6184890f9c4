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
  unsigned char set_mask;
  /* Whether MASK is a pthread_attr_setsigmask_np mask (taken as it is),
     not the creator's (whose C library's internal signals the thread
     keeps as the C library started it with: mask_back).  */
  unsigned char attr_mask;
  /* Nonzero while a creation in flight holds this block; START_WAITED
     where the creator waits for the release (__rseq_compat_start_wait).  */
  int busy;
};

enum { START_WAITED = 2 };

/* A free block, marked busy, or NULL when none can be mapped.
   Async-signal-safe: no lock, no malloc.  errno is left alone.  */
struct start *__rseq_compat_start_claim (void)
  __attribute__ ((visibility ("hidden")));
/* S free again; its contents must have been copied.  */
void __rseq_compat_start_release (struct start *s)
  __attribute__ ((visibility ("hidden")));
/* Marks S, a block of the creator's own, as waited for.  */
void __rseq_compat_start_hold (struct start *s)
  __attribute__ ((visibility ("hidden")));
/* Waits until the new thread has released S (held by
   __rseq_compat_start_hold).  */
void __rseq_compat_start_wait (struct start *s)
  __attribute__ ((visibility ("hidden")));

#endif
