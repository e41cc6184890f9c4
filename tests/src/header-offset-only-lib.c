/* A library that defines __rseq_offset and nothing else (header.exp).
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

/* Nothing in the C library defines the other two here (musl, glibc
   before 2.35): the header's weak reference to __rseq_size stays null
   while the one to __rseq_offset is not (58th review: the accessors
   read through the null one).  */

#include <stddef.h>

const ptrdiff_t __rseq_offset = 0;
