/* A process whose lowest anonymous mapping starts with a page that
   cannot be read, for info-hostile.sh.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: info-guard-first [userfaultfd]
   Maps three anonymous pages below everything else and makes the first
   a guard region (MADV_GUARD_INSTALL, Linux 6.13), as a thread
   stack's guard can be: /proc/PID/maps shows a plain "rw-p" anonymous
   mapping whose first page /proc/PID/mem cannot read, and info -p,
   which reads that page to tell whether the process ran another
   program, said it had (twenty-fifth review).  Where the kernel has
   no guard regions (EINVAL), or with "userfaultfd", the page is made
   unreadable to other processes another way: registered with a
   userfaultfd of UFFD_USER_MODE_ONLY (Linux 5.11) and never touched,
   so that a fault on it from the kernel (/proc/PID/mem) fails.  Prints
   "guard=madvise" or "guard=userfaultfd", "pid=PID" and "ready", then
   waits to be killed.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MADV_GUARD_INSTALL
# define MADV_GUARD_INSTALL 102
#endif
/* glibc before 2.28 (make check-oldlibc's 2.17, musl 1.1.24) has no
   MAP_FIXED_NOREPLACE: Linux 4.17's value.  */
#ifndef MAP_FIXED_NOREPLACE
# define MAP_FIXED_NOREPLACE 0x100000
#endif
#ifndef UFFD_USER_MODE_ONLY
# define UFFD_USER_MODE_ONLY 1
#endif

int
main (int argc, char **argv)
{
  long int ps = sysconf (_SC_PAGESIZE);
  int force_uffd = argc > 1 && strcmp (argv[1], "userfaultfd") == 0;
  char *p = mmap ((void *) 0x200000000, 3 * ps, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != (void *) 0x200000000)
    {
      printf ("cannot map at 0x200000000: %s\n", strerror (errno));
      return 1;
    }
  const char *how = "madvise";
  if (force_uffd || madvise (p, ps, MADV_GUARD_INSTALL) != 0)
    {
      int why = errno;
      if (!force_uffd && why != EINVAL)
        {
          printf ("MADV_GUARD_INSTALL: %s\n", strerror (why));
          return 1;
        }
#ifdef SYS_userfaultfd
      int uffd = syscall (SYS_userfaultfd,
                          O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
      struct uffdio_api api = { .api = UFFD_API };
      struct uffdio_register reg
        = { .range = { .start = (uintptr_t) p, .len = ps },
            .mode = UFFDIO_REGISTER_MODE_MISSING };
      if (uffd < 0 || ioctl (uffd, UFFDIO_API, &api) != 0
          || ioctl (uffd, UFFDIO_REGISTER, &reg) != 0)
        {
          printf ("no guard regions (MADV_GUARD_INSTALL: %s, Linux 6.13) "
                  "and no userfaultfd of user mode only (%s, Linux 5.11)\n",
                  force_uffd ? "not tried" : strerror (why),
                  strerror (errno));
          return 1;
        }
      how = "userfaultfd";
#else
      printf ("no guard regions (MADV_GUARD_INSTALL: %s) and no "
              "userfaultfd\n", strerror (why));
      return 1;
#endif
    }
  p[ps] = 1;
  printf ("guard=%s\npid=%d\nready\n", how, (int) getpid ());
  fflush (stdout);
  for (;;)
    pause ();
}
