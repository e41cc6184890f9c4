/* A library without symbol versions (linked -nostdlib: no DT_VERSYM)
   that defines getcpu and clone, names the shim defines without a
   version, for differential.c's dlvsym-empty: glibc accepts any
   version from such an object, so dlvsym (its handle, "getcpu", "")
   finds this one, with the shim as without it.
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
getcpu (unsigned int *cpu, unsigned int *node, void *unused)
{
  (void) unused;
  if (cpu != 0)
    *cpu = 4242;
  if (node != 0)
    *node = 0;
  return 0;
}

int
clone (void)
{
  return -1;
}
