/* Prints where the kernel mapped the program's dynamic loader
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

/* Run under setarch -R, where that address is the same for every
   program the same loader runs: a library linked there finds it taken
   and is mapped next to it.  With an argument it then prints "ready"
   and waits for ever (info.exp: a glibc program to read).  */

#include <stdio.h>
#include <sys/auxv.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  (void) argv;
  printf ("%#lx\n", getauxval (AT_BASE));
  if (argc > 1)
    {
      printf ("ready\n");
      fflush (stdout);
      for (;;)
        pause ();
    }
  return 0;
}
