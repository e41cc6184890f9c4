/* A library linked at a fixed address the loader does not map it at
   (link-late.exp).
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

/* With LINK_FAR_BIG, 4 MB of data lie between the symbol and string
   tables and the dynamic section (as in a large library), farther
   than the library is mapped from its link address.  */
#ifdef LINK_FAR_BIG
const char link_far_big[4 << 20] = { 1 };
# define ONE link_far_big[0]
#else
# define ONE 1
#endif

/* The program calls it, so that the library is needed.  */
int
link_far_value (void)
{
  return 41 + ONE;
}
