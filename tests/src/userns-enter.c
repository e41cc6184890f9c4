/* Runs a program in a user namespace, with a supplementary group.
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

/* Usage: userns-enter NSFILE GROUP UID GID PROGRAM ARG...

   As root of the initial user namespace: takes GROUP as its only
   supplementary group (a group NSFILE's namespace may not map), enters
   the user namespace NSFILE, becomes UID and GID there and runs
   PROGRAM.  info.exp's info -p [userns] row: the process's status then
   shows that group as the overflow ID to a reader in the namespace.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 6)
    {
      fprintf (stderr, "usage: userns-enter NSFILE GROUP UID GID PROGRAM ARG...\n");
      return 2;
    }
  gid_t group = (gid_t) atol (argv[2]);
  uid_t uid = (uid_t) atol (argv[3]);
  gid_t gid = (gid_t) atol (argv[4]);
  int fd = open (argv[1], O_RDONLY | O_CLOEXEC);
  if (setgroups (1, &group) != 0 || fd < 0 || setns (fd, CLONE_NEWUSER) != 0
      || setresgid (gid, gid, gid) != 0 || setresuid (uid, uid, uid) != 0)
    {
      perror ("userns-enter");
      return 1;
    }
  execv (argv[5], argv + 5);
  perror (argv[5]);
  return 127;
}
