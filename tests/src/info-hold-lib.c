/* A library the loader is held in opening (info.exp).
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

/* At run time its name is a FIFO nobody writes to: the loader waits in
   open, after it has mapped what the program needs before it.  */

int info_hold_lib_value = 1;

#ifdef INFO_HOLD_CTOR
# include <unistd.h>

/* Built so, it is loaded, and its constructor waits for good: on musl,
   before the constructor of a shim linked after it.  */
__attribute__ ((constructor)) static void
hold (void)
{
  for (;;)
    pause ();
}
#endif
