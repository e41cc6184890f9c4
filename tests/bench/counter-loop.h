/* The loop of benchmark 2's rseq rows.
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

/* counter.c and counter-kept.c each define one with this body, the
   header's add compiled with and without clearing rseq_cs after the
   commit, so that the two rows differ in nothing else.  Out of line
   (one call per N adds) so that neither loop is shaped by its
   caller.  */

#ifndef COUNTER_LOOP_H
#define COUNTER_LOOP_H 1

#include <rseq-compat.h>

#define COUNTER_LOOP(name)                                              \
  void __attribute__ ((noinline))                                       \
  name (struct rseq_compat_counter *c, long int n)                      \
  {                                                                     \
    for (long int i = 0; i < n; i++)                                    \
      rseq_compat_counter_add (c, 1);                                   \
  }

void counter_loop (struct rseq_compat_counter *c, long int n);
void counter_loop_kept (struct rseq_compat_counter *c, long int n);

#endif
