/* A process that points the name of a file it maps at another file.
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

/* Usage: info-deputy DIR TARGET

   Maps DIR/libc.so.6 (a page of its own making) at offset 0, removes
   it, and puts a symbolic link to TARGET where /proc/PID/maps names the
   mapping ("DIR/libc.so.6 (deleted)"); prints "pid=N" and "ready", and
   exits at end of file on stdin.  info.exp runs it as nobody, with
   TARGET a file only root can read that says it is glibc 9.99: root's
   rseq-compat info -p must not read it for this process.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: info-deputy DIR TARGET\n");
      return 2;
    }
  char file[4096], link[4200];
  snprintf (file, sizeof file, "%s/libc.so.6", argv[1]);
  snprintf (link, sizeof link, "%s (deleted)", file);
  int fd = open (file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || ftruncate (fd, 4096) != 0)
    {
      perror (file);
      return 1;
    }
  void *map = mmap (NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    {
      perror ("mmap");
      return 1;
    }
  close (fd);
  if (unlink (file) != 0 || symlink (argv[2], link) != 0)
    {
      perror (link);
      return 1;
    }
  printf ("pid=%d\nready\n", (int) getpid ());
  fflush (stdout);
  char c;
  while (read (0, &c, 1) > 0)
    ;
  unlink (link);
  return 0;
}
