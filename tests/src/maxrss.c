/* Runs a command and tells how much memory it used at most.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: maxrss CMD [ARG...]

   Runs CMD, then prints "maxrss=KB" (its peak resident set, from
   wait4) on stderr and exits with its status.  info.exp holds root's
   info -p of a process with 30000 mappings to a bound (twenty-second
   review: a PATH_MAX buffer per mapping, 267 MB for 65000).  */

#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: maxrss CMD [ARG...]\n");
      return 2;
    }
  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      return 2;
    }
  if (pid == 0)
    {
      execvp (argv[1], argv + 1);
      perror (argv[1]);
      _exit (127);
    }
  int status;
  struct rusage ru;
  if (wait4 (pid, &status, 0, &ru) != pid)
    {
      perror ("wait4");
      return 2;
    }
  fprintf (stderr, "maxrss=%ld\n", ru.ru_maxrss);
  return WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status);
}
