/* A program's own reference to _r_debug.
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

/* Linked into a test program, this gives the program a COPY relocation
   for glibc's _r_debug (x86-64 PIE programs get them too): every
   library's references then bind to the program's copy, which holds
   zeros until the program itself is relocated, after every library.
   ldso-direct.exp checks with readelf that the relocation is there.  */

#include <link.h>

int rdebug_ref_version (void);

int
rdebug_ref_version (void)
{
  return _r_debug.r_version;
}
