/* Benchmark 2's per-CPU add without the store that clears rseq_cs.
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

/* The add as it was before it cleared rseq_cs after the commit (which
   makes unloading the code safe): the "rseq, rseq_cs left set" row, so
   that one run shows what the store costs.  */

#define _GNU_SOURCE 1
#define __RSEQ_COMPAT_COUNTER_KEEP_CS 1
#include "counter-loop.h"

COUNTER_LOOP (counter_loop_kept)
