/* A per-CPU add whose abort paths lie far from its sequence.
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

/* far_add's code after the add is 1.25 MiB of nops, one per line of an
   asm statement, so that the compiler knows their size (it counts the
   lines): its own branches across them get a long form, while the
   block it places after them, the one the header's asm goto label
   names, is more than 1 MiB from the sequence.  header-build.exp
   links this for AArch64 with __rseq_failure 256 MiB away as well.
   Only built, never run.  */

#define _GNU_SOURCE 1
#include <rseq-compat.h>

#define NOP1 "nop\n\t"
#define NOP4 NOP1 NOP1 NOP1 NOP1
#define NOP16 NOP4 NOP4 NOP4 NOP4
#define NOP64 NOP16 NOP16 NOP16 NOP16
#define NOP256 NOP64 NOP64 NOP64 NOP64
#define NOP1K NOP256 NOP256 NOP256 NOP256
#define NOP4K NOP1K NOP1K NOP1K NOP1K
#define NOP16K NOP4K NOP4K NOP4K NOP4K
#define NOP64K NOP16K NOP16K NOP16K NOP16K
#define NOP256K NOP64K NOP64K NOP64K NOP64K

void far_add (struct rseq_compat_counter *c) __attribute__ ((noinline));

void
far_add (struct rseq_compat_counter *c)
{
  rseq_compat_counter_add (c, 1);
  __asm__ __volatile__ (NOP256K NOP64K);
}

int
main (void)
{
  struct rseq_compat_counter c;
  if (rseq_compat_counter_init (&c) != 0)
    return 1;
  far_add (&c);
  int ok = rseq_compat_counter_read (&c) == 1;
  rseq_compat_counter_destroy (&c);
  return !ok;
}
