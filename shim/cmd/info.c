/* rseq-compat info: options; collect, derive, print.
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

#define _GNU_SOURCE 1
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect-pid.h"
#include "collect-self.h"
#include "common.h"
#include "derive.h"
#include "info.h"
#include "print.h"
#include "report.h"

static void
info_usage (FILE *out)
{
  fputs ("Usage: rseq-compat info [--json]\n"
         "       rseq-compat info -p PID [--stop | --no-stop] [--json]\n"
         "\n"
         "Without -p, report the rseq state of this process: run it as\n"
         "'rseq-compat run rseq-compat info' to see what the shim does.\n"
         "-p PID, --pid PID  report every thread of process PID.\n"
         "--stop             (the default) read each thread's registration\n"
         "                   with ptrace, stopping one thread at a time for\n"
         "                   microseconds: some system calls it sleeps in\n"
         "                   (epoll_wait, sigtimedwait...) fail with EINTR.\n"
         "--no-stop          stop nothing: read only memory (the published\n"
         "                   areas' cpu_id; no length, signature or other\n"
         "                   areas; per thread on glibc only).\n"
         "--json             one JSON object instead of text; the fields\n"
         "                   are listed in rseq-compat(1).\n"
         "See rseq-compat(1) for the calls that can see EINTR.\n",
         out);
}

int
cmd_info (int argc, char **argv)
{
  int json = 0;
  long int pid = 0;
  enum info_method method = METHOD_STOP;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i], *value = NULL;
      if (strcmp (a, "--json") == 0)
        json = 1;
      else if (strcmp (a, "--stop") == 0)
        method = METHOD_STOP;
      else if (strcmp (a, "--no-stop") == 0)
        method = METHOD_NO_STOP;
      else if (strcmp (a, "--help") == 0 || strcmp (a, "-h") == 0)
        {
          info_usage (stdout);
          return 0;
        }
      else if (strcmp (a, "-p") == 0 || strcmp (a, "--pid") == 0)
        {
          if (i + 1 >= argc)
            {
              fprintf (stderr, "rseq-compat info: %s needs a process ID\n", a);
              info_usage (stderr);
              return EXIT_CANNOT_RUN;
            }
          value = argv[++i];
        }
      else if (strncmp (a, "--pid=", 6) == 0)
        value = a + 6;
      else if (strncmp (a, "-p", 2) == 0)
        value = a + 2;
      else
        {
          fprintf (stderr, "rseq-compat info: unknown argument '%s'\n", a);
          info_usage (stderr);
          return EXIT_CANNOT_RUN;
        }
      if (value != NULL)
        {
          char *end;
          errno = 0;
          pid = strtol (value, &end, 10);
          if (*value == '\0' || *end != '\0' || errno != 0 || pid <= 0
              || pid > INT_MAX)
            {
              fprintf (stderr, "rseq-compat info: '%s' is not a process ID "
                       "(a positive number)\n", value);
              return EXIT_CANNOT_RUN;
            }
        }
    }

  struct info_report *r = calloc (1, sizeof *r);
  if (r == NULL)
    {
      perror ("rseq-compat info");
      return EXIT_INFO_FAILED;
    }
  char err[1024];
  int ret = 0;
  pid_t target = (pid_t) pid;
  if (pid != 0)
    ret = info_pid_target (&target, err, sizeof err);
  /* -p of our own process (or of one of our threads) reads it from the
     inside: the kernel refuses a tracer its own thread group (EPERM).  */
  if (ret == 0)
    ret = pid == 0 || target == getpid () ? info_self (r)
          : info_pid (target, method, r, err, sizeof err);
  if (ret == 0)
    info_derive (r);
  if (ret != 0)
    {
      char safe[4 * sizeof err + 1];
      /* ERR may quote the target's name.  */
      fprintf (stderr, "rseq-compat: %s\n", info_escape (err, safe, sizeof safe));
      free (r->threads);
      free (r);
      return EXIT_INFO_FAILED;
    }
  if (r->warning[0] != '\0')
    fprintf (stderr, "rseq-compat: warning: %s\n", r->warning);
  if (json)
    print_json (stdout, r);
  else
    print_text (stdout, r);
  free (r->threads);
  free (r);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      perror ("rseq-compat info: writing the report");
      return EXIT_INFO_FAILED;
    }
  return 0;
}
