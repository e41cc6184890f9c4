/* system.exp's library of an administrator's that carries a function
   named like one of the shim's (as a library linked with the shim's
   archive would) under a DT_SONAME of its own: disable --system must
   leave an entry for it (forty-eighth review: it was taken out).
   Built with -nostdlib, as system-other.c, and -soname libagent.so.1.

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

int
rseq_compat_query (void)
{
  return 0;
}

int
rseq_compat_mode (void)
{
  return 0;
}
