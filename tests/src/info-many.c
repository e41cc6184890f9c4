/* A process that maps a file, or a few in turn, many times.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: info-many FILE COUNT [FILE...]

   Maps FILE (read-only, private, at offset 0) COUNT times, or the files
   in turn, prints "pid=N" and "ready", and exits at end of file on
   stdin.  info.exp names FILE like a C library (libc.so.x) with
   nothing in it that says which: root's info -p must not read it COUNT
   times (eighteenth review: hours); and two files named like the shim
   (DIR/a and DIR/b/librseq-compat.so.1) in turn, whose neighbours then
   differ (twenty-first review: 110 s for 20000 mappings, 683 s with the
   main thread gone).  A line "remap FILE" on stdin maps FILE in place
   of the first mapping.  */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: info-many FILE COUNT [FILE...]\n");
      return 2;
    }
  /* COUNT mappings, taking the files in turn: a maps list whose
     neighbours differ.  */
  int nfiles = argc - 2;
  int fds[16];
  struct stat st[16];
  if (nfiles > 16)
    nfiles = 16;
  for (int i = 0; i < nfiles; i++)
    {
      const char *name = i == 0 ? argv[1] : argv[i + 2];
      fds[i] = open (name, O_RDONLY | O_CLOEXEC);
      if (fds[i] < 0 || fstat (fds[i], &st[i]) != 0)
        {
          perror (name);
          return 1;
        }
    }
  /* The first mapping at a low address (a hint), so that it comes
     before the C library's in /proc/PID/maps: info -p takes the first
     file named like one (info.exp's FUSE file).  */
  long int count = atol (argv[2]);
  for (long int i = 0; i < count; i++)
    if (mmap (i == 0 ? (void *) 0x100000000 : NULL, st[i % nfiles].st_size,
              PROT_READ, MAP_PRIVATE, fds[i % nfiles], 0) == MAP_FAILED)
      {
        perror ("mmap");
        return 1;
      }
  printf ("pid=%d\nready\n", (int) getpid ());
  fflush (stdout);
  /* "remap FILE": FILE mapped in place of the first mapping (a FUSE
     file once info -p has read the maps: twenty-fourth review).  */
  char line[4096];
  while (fgets (line, sizeof line, stdin) != NULL)
    if (strncmp (line, "remap ", 6) == 0)
      {
        line[strcspn (line, "\n")] = '\0';
        int fd = open (line + 6, O_RDONLY | O_CLOEXEC);
        if (fd < 0
            || mmap ((void *) 0x100000000, st[0].st_size, PROT_READ,
                     MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED)
          perror (line + 6);
        else
          printf ("remapped\n");
        fflush (stdout);
      }
  return 0;
}
