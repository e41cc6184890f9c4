/* Whether the shim is loaded into a secure-execution (setuid) program.
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

/* Usage: secure 0|1

   The argument is the AT_SECURE the kernel must have given: 1 for a
   setuid program started by another user.  The loaders then ignore
   LD_PRELOAD with a path in it (glibc keeps only setuid libraries from
   its trusted directories, musl ignores it entirely), so the shim is
   absent: RSEQ_EXPECT is "none", and a glibc that registers rseq
   itself still does (cpu_id follows the CPU).  In a plain copy of the
   program the shim is there in its usual mode.  */

#include "rtest.h"

int
main (int argc, char **argv)
{
  unsigned long int want = argc > 1 ? strtoul (argv[1], NULL, 10) : 2;
  unsigned long int secure = getauxval (AT_SECURE);
  const char *mode = rt_shim_mode ();
  printf ("AT_SECURE %lu, uid %d, euid %d, shim mode %s\n", secure,
          (int) getuid (), (int) geteuid (), mode);
  CHECK (secure == want, "AT_SECURE %lu, expected %lu (a file system "
         "mounted nosuid?)", secure, want);
  CHECK (strcmp (mode, rt_expect ()) == 0, "shim mode %s, expected %s",
         mode, rt_expect ());
  struct rt_abi abi = rt_abi ();
  if (rt_expect_is ("none") && rt_libc_has_abi () && *abi.size != 0)
    {
      /* glibc's own registration, untouched by the shim's absence:
         length max (size, 32), where 32 means 20.  */
      unsigned int size = *abi.size == 32 ? 20 : *abi.size;
      CHECK (rt_registered (rt_area (&abi), rt_len_for_size (size)),
             "glibc's area (__rseq_size %u) is not registered", *abi.size);
    }
  return rt_exit_status ();
}
