/* The header in a strict C program (header-build.exp).
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

/* No feature-test macro: built with -std=c99 or -std=c11 -pedantic,
   the header must declare what it uses (57th review: -std=c99 called
   aligned_alloc undeclared and cut its pointer).  Adds 1 to a counter
   1000 times and prints "sum 1000 cpu N".  */

#include <stdio.h>
#include <rseq-compat.h>

int
main (void)
{
  struct rseq_compat_counter c;
  if (rseq_compat_counter_init (&c) != 0)
    return 1;
  for (int i = 0; i < 1000; i++)
    rseq_compat_counter_add (&c, 1);
  printf ("sum %lld cpu %d\n", (long long int) rseq_compat_counter_read (&c),
          rseq_compat_cpu ());
  rseq_compat_counter_destroy (&c);
  return 0;
}
