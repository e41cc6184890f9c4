/* The rseq area kept in each thread descriptor.  Linux version.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat (the glibc 2.31 and 2.36 series).

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

/* nptl/descr.h includes this header, so it must stay light: no
   declarations beyond the area's type.

   The area is a member of struct pthread, which is the TCB: it lies
   outside every module's TLS image, so copying TLS initialisation
   images (dlopen, new threads) never writes over a registered area.
   Its capacity is fixed at build time because struct pthread is; a
   kernel asking for more than RSEQ_AREA_CAPACITY bytes or a stricter
   alignment than RSEQ_AREA_ALIGN gets the 32-byte legacy registration
   (rseq_layout_fit in rseq-layout.h).  64 bytes at 64-byte alignment
   cover every kernel so far: 6.3-6.19 register 32 bytes at 32, 7.0
   registers 33 bytes at 64.  */

#ifndef _RSEQ_AREA_H
#define _RSEQ_AREA_H 1

#include <stdint.h>
#include <rseq-layout.h>

#define RSEQ_AREA_CAPACITY RSEQ_LAYOUT_FIXED_SIZE
#define RSEQ_AREA_ALIGN RSEQ_LAYOUT_FIXED_ALIGN

/* The fields the C library itself reads or writes, at the kernel's
   offsets (struct rseq in <sys/rseq.h>); the rest belongs to the
   kernel.  */
struct rseq_area
{
  uint32_t cpu_id_start;
  int32_t cpu_id;
  uint64_t rseq_cs;
  uint32_t flags;
  unsigned char kernel_fields[RSEQ_AREA_CAPACITY - 20];
} __attribute__ ((aligned (RSEQ_AREA_ALIGN)));

#endif /* rseq-area.h */
