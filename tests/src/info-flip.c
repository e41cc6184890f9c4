/* A process that runs one program, then another, in turn.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: info-flip OTHER MS

   Sleeps MS milliseconds, then runs OTHER (exec) as "OTHER ME MS", so
   that two builds of this file, one dynamic and one static, take turns
   in one process for ever.  info -p of it read the maps and the C
   library of one and the threads and name of the other, and reported
   the mix (twenty-third review): the start time does not change on
   exec.  */

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: info-flip OTHER MS\n");
      return 2;
    }
  long int ms = atol (argv[2]);
  struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };
  nanosleep (&t, NULL);
  execl (argv[1], argv[1], argv[0], argv[2], (char *) NULL);
  perror ("info-flip: exec");
  return 1;
}
