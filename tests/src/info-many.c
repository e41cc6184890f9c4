/* A process that maps one file many times.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: info-many FILE COUNT

   Maps FILE (read-only, private, at offset 0) COUNT times, prints
   "pid=N" and "ready", and exits at end of file on stdin.  info.exp
   names FILE like a C library (libc.so.x) with nothing in it that says
   which: root's info -p must not read it COUNT times (eighteenth
   review: hours).  */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: info-many FILE COUNT\n");
      return 2;
    }
  int fd = open (argv[1], O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat (fd, &st) != 0)
    {
      perror (argv[1]);
      return 1;
    }
  long int count = atol (argv[2]);
  for (long int i = 0; i < count; i++)
    if (mmap (NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED)
      {
        perror ("mmap");
        return 1;
      }
  printf ("pid=%d\nready\n", (int) getpid ());
  fflush (stdout);
  char c;
  while (read (0, &c, 1) > 0)
    ;
  return 0;
}
