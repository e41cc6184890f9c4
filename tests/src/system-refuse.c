/* Run a program where a system call it may need is refused.
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

/* Usage: system-refuse
   close_range|fork|poll|pollperm|statx|unsharekill|mountkill
   high|low PROGRAM [ARG...]

   close_range: the call answers ENOSYS, as before Linux 5.9 or under a
   container's seccomp profile; fork: clone and clone3 answer EPERM, as
   a sandbox that allows no new process; poll: poll answers ENOSYS, as
   an allowlist of ppoll alone would (the 129th review's F4; an
   architecture without poll, as aarch64, has nothing to refuse);
   pollperm: poll answers EPERM, as a filter may (the 130th review's
   10); statx: statx answers ENOSYS, as before Linux 4.11 or under an
   older container profile (the 143rd review's 2); unsharekill: unshare
   kills the process with SIGSYS, as systemd's SystemCallFilter= does by
   default (the 148th review's 1); mountkill: mount so, as a filter of
   systemd's @mount group (the 151st review's 6).  high: standard output is also held at a descriptor near the
   hard limit, above a soft limit then lowered to 1024, as a caller may
   hold a pipe it reads to its end (the 128th review's 1).  Then execs
   PROGRAM (searched in PATH).  Exit status 125 when it cannot.  */

#include "rtest.h"
#include "seccomp-filter.h"

#include <sys/resource.h>

#ifndef SYS_close_range
# define SYS_close_range 436
#endif
#ifndef SYS_clone3
# define SYS_clone3 435
#endif
/* Headers older than Linux 4.11's (glibc 2.17's) lack it.  */
#ifndef SYS_statx
# if defined __x86_64__ && !defined __ILP32__
#  define SYS_statx 332
# elif defined __aarch64__
#  define SYS_statx 291
# elif defined __i386__
#  define SYS_statx 383
# endif
#endif

int
main (int argc, char **argv)
{
  if (argc < 4 || (strcmp (argv[1], "close_range") != 0
                   && strcmp (argv[1], "fork") != 0
                   && strcmp (argv[1], "poll") != 0
                   && strcmp (argv[1], "pollperm") != 0
                   && strcmp (argv[1], "statx") != 0
                   && strcmp (argv[1], "unsharekill") != 0
                   && strcmp (argv[1], "mountkill") != 0)
      || (strcmp (argv[2], "high") != 0 && strcmp (argv[2], "low") != 0))
    {
      fprintf (stderr, "FAIL usage: system-refuse close_range|fork|poll|"
               "pollperm|statx|unsharekill|mountkill high|low PROGRAM "
               "[ARGUMENT...]\n");
      return 125;
    }
  int fork_too = strcmp (argv[1], "fork") == 0;
  int perm = fork_too || strcmp (argv[1], "pollperm") == 0;
  long int first = SYS_close_range, second = SYS_close_range;
  if (fork_too)
    {
      first = SYS_clone;
      second = SYS_clone3;
    }
  else if (strncmp (argv[1], "poll", 4) == 0)
#ifdef SYS_poll
    first = second = SYS_poll;
#else
    first = second = -1;
#endif
  else if (strcmp (argv[1], "statx") == 0)
    first = second = SYS_statx;
  else if (strcmp (argv[1], "unsharekill") == 0)
    first = second = SYS_unshare;
  else if (strcmp (argv[1], "mountkill") == 0)
    first = second = SYS_mount;
  if (strcmp (argv[2], "high") == 0)
    {
      struct rlimit r;
      if (getrlimit (RLIMIT_NOFILE, &r) != 0 || r.rlim_max < 2048)
        {
          fprintf (stderr, "FAIL system-refuse: the hard limit of "
                   "descriptors is under 2048\n");
          return 125;
        }
      int high = r.rlim_max > 15001 ? 15000 : (int) r.rlim_max - 1;
      r.rlim_cur = 1024;
      if (dup2 (1, high) != high || setrlimit (RLIMIT_NOFILE, &r) != 0)
        {
          fprintf (stderr, "FAIL system-refuse: descriptor %d: %s\n", high,
                   strerror (errno));
          return 125;
        }
    }
  unsigned int refuse = strstr (argv[1], "kill") != NULL
                        ? SECCOMP_RET_KILL
                        : SECCOMP_RET_ERRNO | (perm ? EPERM : ENOSYS);
  struct sock_filter code[] =
    {
      SF_OWN_ARCH_NR,
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (unsigned int) first, 2, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (unsigned int) second, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_RET | BPF_K, refuse),
    };
  int ret = sf_load (code, sizeof code / sizeof code[0], 0);
  if (ret != 0)
    {
      fprintf (stderr, "FAIL system-refuse: installing the filter: %s\n",
               strerror (ret));
      return 125;
    }
  execvp (argv[3], argv + 3);
  fprintf (stderr, "FAIL system-refuse: %s: %s\n", argv[3], strerror (errno));
  return 125;
}
