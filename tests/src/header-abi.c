/* Every function of <rseq-compat.h>, for compiling the header alone.
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

/* The header's functions are static inline: only a caller makes the
   compiler emit them, and their assembly reaches the assembler only
   then.  header-build.exp compiles this for ABIs it cannot run here.  */

#define _GNU_SOURCE 1
#include <rseq-compat.h>

int abi_cpu (void);
int abi_node (void);
int abi_mm_cid (void);
unsigned int abi_size (void);
int abi_counter (struct rseq_compat_counter *c, int64_t v);

int
abi_cpu (void)
{
  return rseq_compat_cpu ();
}

int
abi_node (void)
{
  return rseq_compat_node ();
}

int
abi_mm_cid (void)
{
  return rseq_compat_mm_cid ();
}

unsigned int
abi_size (void)
{
  return rseq_compat_size ();
}

int
abi_counter (struct rseq_compat_counter *c, int64_t v)
{
  if (rseq_compat_counter_init (c) != 0)
    return -1;
  rseq_compat_counter_add (c, v);
  int64_t sum = rseq_compat_counter_read (c);
  rseq_compat_counter_destroy (c);
  return sum == v;
}
