/* Run a program under a seccomp filter that makes rseq fail.
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

/* Usage: seccomp-run [--keep-privs] ENOSYS|EPERM PROGRAM [ARGUMENT...]

   Sets PR_SET_NO_NEW_PRIVS (not with --keep-privs, as root: a
   set-user-ID PROGRAM then runs in secure mode), installs the filter of seccomp-filter.h
   (rseq fails with the named error, as in sandboxes, rr, gVisor),
   exports RSEQ_SECCOMP_ERRNO=NAME so the program can tell, and execs
   PROGRAM (searched in PATH).  Exit status 125 when it cannot.  */

#include "rtest.h"
#include "seccomp-filter.h"

int
main (int argc, char **argv)
{
  int keep_privs = argc > 1 && strcmp (argv[1], "--keep-privs") == 0;
  if (keep_privs)
    {
      argv++;
      argc--;
    }
  int err = argc > 2 ? sf_errno_from_name (argv[1]) : 0;
  if (err == 0)
    {
      fprintf (stderr, "FAIL usage: seccomp-run [--keep-privs] ENOSYS|EPERM "
               "PROGRAM [ARGUMENT...]\n");
      return 125;
    }
  if (setenv ("RSEQ_SECCOMP_ERRNO", argv[1], 1) != 0)
    {
      perror ("FAIL seccomp-run: setenv");
      return 125;
    }
  int ret = sf_install_action_privs (SECCOMP_RET_ERRNO
                                     | ((unsigned int) err
                                        & SECCOMP_RET_DATA), keep_privs);
  if (ret != 0)
    {
      fprintf (stderr, "FAIL seccomp-run: installing the filter: %s\n",
               strerror (ret));
      return 125;
    }
  ret = sf_rseq_probe_errno ();
  if (ret != err)
    {
      fprintf (stderr, "FAIL seccomp-run: rseq probe gives %s under the "
               "filter, not %s\n", ret ? strerror (ret) : "success",
               argv[1]);
      return 125;
    }
  execvp (argv[2], argv + 2);
  fprintf (stderr, "FAIL seccomp-run: %s: %s\n", argv[2], strerror (errno));
  return 125;
}
