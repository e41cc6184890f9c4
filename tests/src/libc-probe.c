/* Reports what the host C library does about rseq on its own.
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

/* Prints "libc-owned" when the C library exports __rseq_size and
   registered this thread, "unavailable" when it has the ABI but did not
   register or the kernel lacks rseq, and "shim-owned" when the shim has
   to do the work (glibc before 2.35).  Run without the shim.

   "libc-probe abi" prints "abi" when the C library exports
   __rseq_offset and __rseq_size (glibc 2.35+), registering or not, and
   "none" when it does not (glibc before 2.35).  */

#include "rtest.h"

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "abi") == 0)
    {
      puts (rt_libc_has_abi () ? "abi" : "none");
      return 0;
    }
  const unsigned int *size = rt_glibc_size ();
  if (size != NULL)
    puts (*size != 0 ? "libc-owned" : "unavailable");
  else
    {
      long int ret = syscall (RSEQ_COMPAT_NR_rseq, NULL, 0, 0, 0);
      puts (ret == -1 && errno == EINVAL ? "shim-owned" : "unavailable");
    }
  return 0;
}
