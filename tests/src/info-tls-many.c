/* A process of many mapped files with an rseq area of its own, for
   info-hostile.sh.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: GLIBC_TUNABLES=glibc.pthread.rseq=0 info-tls-many DIR N
   Maps N files it makes in DIR, then registers rseq on a thread-local
   area of its own, whose owner info -p looks for among the mapped
   files (up to 512 of them), checking each for FUSE.  In a mount
   namespace whose mountinfo is large, info -p read all of it for each
   file: 439 s for 512 files and 56 MB (twenty-fifth review).  Prints
   "pid=PID" and "ready", then waits to be killed.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys-rseq.h"

/* struct rseq: cpu_id_start, cpu_id, rseq_cs, flags.  */
static __thread uint32_t area[8] __attribute__ ((aligned (32)));

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: info-tls-many DIR N\n");
      return 2;
    }
  int n = atoi (argv[2]);
  for (int i = 0; i < n; i++)
    {
      char p[4096];
      snprintf (p, sizeof p, "%s/f%04d", argv[1], i);
      int fd = open (p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0 || ftruncate (fd, 4096) != 0
          || mmap (NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0) == MAP_FAILED)
        {
          perror (p);
          return 1;
        }
      close (fd);
    }
#ifdef SYS_rseq
  area[1] = (uint32_t) -1;
  if (syscall (SYS_rseq, area, 32, 0, 0x53053053) != 0)
    {
      printf ("cannot register rseq: %s\n", strerror (errno));
      return 1;
    }
#endif
  printf ("pid=%d\nready\n", (int) getpid ());
  fflush (stdout);
  for (;;)
    pause ();
}
