/* system.exp's other entry of /etc/ld.so.preload: a library with no
   dependencies (built with -nostdlib), so that every process loads it
   harmlessly whichever glibc runs it.  A C library's own path would
   not do: where the command runs on a glibc other than the system
   programs' (make check-oldlibc), one of the two would map the other's
   libc.so.6.

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

int rseq_compat_system_other;
