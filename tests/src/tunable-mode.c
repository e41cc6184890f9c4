/* What a program sees of glibc.pthread.rseq: __rseq_size and the mode.
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

/* Usage: tunable-mode [FILE]

   Prints "size=N mode=M": N is the __rseq_size a program finds (glibc's
   without the shim, "none" where there is none), M what
   rseq_compat_mode () answers ("none" without the shim).  With FILE it
   then creates FILE, so that a test knows start-up is over, and waits
   to be killed (a target for info -p).  */

#include "rtest.h"


int
main (int argc, char **argv)
{
  const unsigned int *size = dlsym (RTLD_DEFAULT, "__rseq_size");
  const char *(*mode) (void) = (const char *(*) (void))
    dlsym (RTLD_DEFAULT, "rseq_compat_mode");
  if (size != NULL)
    printf ("size=%u", *size);
  else
    printf ("size=none");
  printf (" mode=%s\n", mode != NULL ? mode () : "none");
  fflush (stdout);
  if (argc > 1)
    {
      int fd = open (argv[1], O_WRONLY | O_CREAT | O_EXCL, 0600);
      if (fd < 0)
        return 2;
      close (fd);
      for (;;)
        pause ();
    }
  return 0;
}
