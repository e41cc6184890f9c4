/* A library named like a C library that is not one (info.exp).
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

/* Built as libc-rcstub.so, as UW IMAP's libc-client.so.2007e is named,
   and needed before the C library, so that the loader has mapped it
   when it maps the C library (68th review: such a loaded object kept
   info -p from naming the C library still being mapped).  */

int
info_libc_named (void)
{
  return 1;
}
