/* Prints errno as main finds it, and whether AT_RSEQ_FEATURE_SIZE and
   AT_RSEQ_ALIGN are in the auxiliary vector: auxv-hidden.exp runs it
   under hide-auxv, with and without the shim.
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

#include <errno.h>
#include <stdio.h>
#include <sys/auxv.h>

int
main (void)
{
  /* First: C11 says errno is 0 at program start-up, and the lookups
     below may set it themselves (musl's getauxval for a missing
     entry).  */
  int at_main = errno;
  unsigned long int feature = getauxval (27);
  unsigned long int align = getauxval (28);
  printf ("errno at main: %d\n", at_main);
  /* Their values vary with the kernel; absent is what the test needs
     (the shim's start-up looks them up, as on a kernel before 6.3).  */
  printf ("AT_RSEQ_FEATURE_SIZE %s, AT_RSEQ_ALIGN %s\n",
          feature != 0 ? "present" : "absent",
          align != 0 ? "present" : "absent");
  return 0;
}
