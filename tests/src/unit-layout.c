/* Unit test of the layout rules (sysdeps/unix/sysv/linux/rseq-layout.h).
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

/* The table of the size semantics: 20 without auxv, 28 on Linux 6.3 to
   6.19, 33 from 7.0, never 32; lengths and alignments as glibc 2.41.  */

#include "rtest.h"

#include <rseq-layout.h>

static const struct
{
  unsigned long int at_feature, at_align;
  unsigned int cap_size, cap_align;
  unsigned int public_size, reg_len, align, alloc;
} cases[] =
  {
    /* Linux 4.18 to 6.2: no auxv.  */
    { 0, 0, 64, 64, 20, 32, 32, 32 },
    /* Linux 6.3 to 6.19.  */
    { 28, 32, 64, 64, 28, 32, 32, 32 },
    /* Linux 7.0 and later: the optimized mode.  */
    { 33, 64, 64, 64, 33, 33, 64, 64 },
    /* A future kernel that still fits the shim's 64 bytes.  */
    { 40, 64, 64, 64, 40, 40, 64, 64 },
    /* One that does not: the 32-byte registration, mm_cid at most.  */
    { 70, 128, 64, 64, 28, 32, 32, 32 },
    { 33, 128, 64, 64, 28, 32, 32, 32 },
    /* glibc's extra TLS has room for anything.  */
    { 70, 128, 1024, 1024, 70, 70, 128, 128 },
    /* A feature size of exactly 32 must never be published.  */
    { 32, 32, 64, 64, 28, 32, 32, 32 },
    /* Nonsense from auxv: sizes below 20, odd alignments.  */
    { 12, 0, 64, 64, 20, 32, 32, 32 },
    { 28, 48, 64, 64, 28, 32, 32, 32 },
    { 28, 16, 64, 64, 28, 32, 32, 32 },
    { ~0ul, ~0ul, 64, 64, 20, 32, 32, 32 },
    /* A length above 32 takes the alignment its size needs, whatever
       AT_ALIGN claims (the 7.0 kernel refuses 33 at 32).  */
    { 33, 0, 64, 64, 33, 33, 64, 64 },
    { 33, 1ul << 32, 64, 64, 33, 33, 64, 64 },
    { 33, 32, 64, 64, 33, 33, 64, 64 },
    { 40, 48, 64, 64, 40, 40, 64, 64 },
  };

int
main (void)
{
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      struct rseq_layout l;
      rseq_layout_compute (&l, cases[i].at_feature, cases[i].at_align);
      rseq_layout_fit (&l, cases[i].cap_size, cases[i].cap_align);
      CHECK (l.public_size == cases[i].public_size
             && l.reg_len == cases[i].reg_len && l.align == cases[i].align
             && l.alloc_size == cases[i].alloc,
             "case %zu (auxv %lu/%lu, room %u/%u): size %u len %u align %u "
             "alloc %u, expected %u %u %u %u", i, cases[i].at_feature,
             cases[i].at_align, cases[i].cap_size, cases[i].cap_align,
             l.public_size, l.reg_len, l.align, l.alloc_size,
             cases[i].public_size, cases[i].reg_len, cases[i].align,
             cases[i].alloc);
      CHECK (l.public_size != 32, "case %zu publishes 32", i);
      CHECK (l.alloc_size % l.align == 0 && l.alloc_size >= l.reg_len,
             "case %zu: alloc %u align %u len %u", i, l.alloc_size, l.align,
             l.reg_len);
    }

  /* The glibc series' start-up reads auxv itself: the values of a 7.x
     kernel among other tags, the last of a repeated tag, nothing
     before 6.3, and nothing past AT_NULL.  */
  {
    static const unsigned long int v7[] = { 6, 4096, 27, 33, 28, 64, 0, 0 };
    static const unsigned long int again[] = { 27, 28, 27, 33, 0, 0 };
    static const unsigned long int old[] = { 6, 4096, 25, 1234, 0, 0,
                                             27, 33 };
    struct rseq_layout l;
    rseq_layout_from_auxv (&l, v7);
    CHECK (l.feature_size == 33 && l.public_size == 33 && l.reg_len == 33
           && l.align == 64, "auxv of 7.x: size %u len %u align %u",
           l.public_size, l.reg_len, l.align);
    rseq_layout_from_auxv (&l, again);
    CHECK (l.feature_size == 33, "repeated tag: feature %u", l.feature_size);
    rseq_layout_from_auxv (&l, old);
    CHECK (l.feature_size == 0 && l.public_size == 20 && l.reg_len == 32
           && l.align == 32, "auxv before 6.3: size %u len %u align %u",
           l.public_size, l.reg_len, l.align);
    rseq_layout_from_auxv (&l, NULL);
    CHECK (l.public_size == 20 && l.reg_len == 32, "no auxv: size %u len %u",
           l.public_size, l.reg_len);
  }

  /* What glibc registered with, from what it published.  */
  CHECK (rseq_layout_libc_reg_len (20) == 32, "glibc 2.40: 20 -> 32");
  CHECK (rseq_layout_libc_reg_len (32) == 32, "glibc 2.35: 32 -> 32");
  CHECK (rseq_layout_libc_reg_len (28) == 32, "glibc 2.41, 6.x: 28 -> 32");
  CHECK (rseq_layout_libc_reg_len (33) == 33, "glibc 2.41, 7.x: 33 -> 33");

  /* The kernel's two modes exist from Linux 7.0 (feature size 33); a
     length above 32 selects the optimized one there and nowhere else.  */
  CHECK (!rseq_layout_optimized (0, 32), "4.18 to 6.2, 32: legacy");
  CHECK (!rseq_layout_optimized (28, 32), "6.3 to 6.19, 32: legacy");
  CHECK (!rseq_layout_optimized (28, 64), "6.3 to 6.19, 64: legacy");
  CHECK (!rseq_layout_optimized (33, 32), "7.0, 32: legacy");
  CHECK (rseq_layout_optimized (33, 33), "7.0, 33: optimized");
  CHECK (rseq_layout_optimized (70, 128), "later, 128: optimized");

  CHECK (rseq_layout_effective_size (32) == 20, "legacy 32");
  CHECK (rseq_layout_effective_size (20) == 20, "20");
  CHECK (rseq_layout_effective_size (28) == 28, "28");
  CHECK (rseq_layout_effective_size (33) == 33, "33");
  CHECK (rseq_layout_effective_size (0) == 0, "0");
  return rt_exit_status ();
}
