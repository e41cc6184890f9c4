/* libbench-floor.so: a function that does nothing, called through the
   PLT by getcpu.c to show what any call into a shared library costs.
   Copyright (C) 2026 The rseq-compat developers.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

int bench_floor (void);

int
bench_floor (void)
{
  return 1;
}
