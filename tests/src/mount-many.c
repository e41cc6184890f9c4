/* Stacks tmpfs mounts on one directory, for info-hostile.sh.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: mount-many DIR COUNT

   Mounts a small tmpfs on DIR COUNT times (in the caller's mount
   namespace), so that mountinfo, which names DIR on each line, grows
   past what info -p reads (twenty-fourth review: a mountinfo over
   64 MB counted as one without FUSE).  One process, not COUNT mount
   commands: seconds, not minutes.  */

#include <stdio.h>
#include <stdlib.h>
#include <sys/mount.h>

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: mount-many DIR COUNT\n");
      return 2;
    }
  long int count = atol (argv[2]);
  for (long int i = 0; i < count; i++)
    if (mount ("none", argv[1], "tmpfs", 0, "size=4k") != 0)
      {
        perror ("mount-many: mount");
        return 1;
      }
  return 0;
}
