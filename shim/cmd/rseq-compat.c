/* rseq-compat: run a program with the shim, or report rseq state.
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

/* The subcommands live in files of their own; shim/cmd/layers says
   which file may use which.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "info.h"
#include "run.h"
#include "system.h"

#ifndef RSEQ_COMPAT_VERSION
# define RSEQ_COMPAT_VERSION "(unreleased)"
#endif

static void
usage (FILE *out)
{
  fputs ("Usage: rseq-compat run [--] COMMAND [ARGUMENT...]\n"
         "       rseq-compat info [-p PID [--stop | --no-stop] [--timeout=SECONDS]]\n"
         "                        [--json]\n"
         "       rseq-compat enable --system | disable --system [--this-installation]\n"
         "       rseq-compat --help | --version\n"
         "\n"
         "run   Run COMMAND with librseq-compat preloaded, so that the\n"
         "      main thread and every thread it creates are registered for\n"
         "      rseq and glibc's __rseq_offset/__rseq_size/__rseq_flags\n"
         "      exist.  Every process it starts, glibc or musl, loads the\n"
         "      build for its own C library.  An existing LD_PRELOAD is kept,\n"
         "      after the shim.\n"
         "\n"
         "info  Report the rseq state of this process (run it as\n"
         "      'rseq-compat run rseq-compat info' to see the shim at work)\n"
         "      or, with -p PID, of every thread of another process, read\n"
         "      with ptrace one thread at a time (--no-stop: from memory,\n"
         "      stopping nothing).  --json prints the same as JSON.\n"
         "\n"
         "enable --system, disable --system\n"
         "      Name the installed shim in /etc/ld.so.preload, or take it\n"
         "      out, so that every glibc program started from then on\n"
         "      loads it (as root; refused where the C library registers\n"
         "      rseq itself).\n"
         "\n"
         "Environment: RSEQ_COMPAT_LIBRARY selects the one library to preload;\n"
         "GLIBC_TUNABLES=glibc.pthread.rseq=0 turns registration off.\n"
         "See rseq-compat(1) and rseq-compat(7).\n",
         out);
}

static int
dispatch (int argc, char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "--help") == 0)
    {
      usage (stdout);
      return 0;
    }
  if (argc >= 2 && strcmp (argv[1], "--version") == 0)
    {
      puts ("rseq-compat " RSEQ_COMPAT_VERSION);
      return 0;
    }
  if (argc >= 2 && strcmp (argv[1], "run") == 0)
    {
      int first = 2;
      if (first < argc && strcmp (argv[first], "--") == 0)
        first++;
      if (first >= argc)
        {
          fputs ("rseq-compat run: no command given\n", stderr);
          usage (stderr);
          return EXIT_CANNOT_RUN;
        }
      return cmd_run (argv + first);
    }
  if (argc >= 2 && (strcmp (argv[1], "enable") == 0
                    || strcmp (argv[1], "disable") == 0))
    return cmd_system (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "info") == 0)
    return cmd_info (argc - 1, argv + 1);
  if (argc < 2)
    fputs ("rseq-compat: no subcommand given\n", stderr);
  else
    fprintf (stderr, "rseq-compat: unknown subcommand '%s'\n", argv[1]);
  usage (stderr);
  return EXIT_CANNOT_RUN;
}

/* Standard output written in full, or said: a report or a message
   lost to a full disk is no success (thirty-fifth review: info -p
   >/dev/full exited 0).  enable and disable keep their status, which
   says what /etc/ld.so.preload holds, and warn.  */
static int
flush_output (int rc, int system)
{
  errno = 0;
  if ((fflush (stdout) == 0 && !ferror (stdout)) || (rc != 0 && !system))
    return rc;
  /* A failed command said its own words; an earlier failed write
     leaves no errno.  */
  int e = errno != 0 ? errno : EIO;
  fprintf (stderr, "rseq-compat: cannot write to standard output: %s%s\n",
           strerror (e), system ? " (the exit status still says whether "
           "/etc/ld.so.preload was changed as asked)" : "");
  return system || rc != 0 ? rc : 1;
}

int
main (int argc, char **argv)
{
  int system = argc >= 2 && (strcmp (argv[1], "enable") == 0
                             || strcmp (argv[1], "disable") == 0);
  return flush_output (dispatch (argc, argv), system);
}
