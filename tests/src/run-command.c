/* A program run through rseq-compat run.
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

/* run-command exit N   exits with status N;
   run-command kill     kills itself with SIGTERM;
   run-command env      prints LD_PRELOAD, the shim's mode and whether
                        librun-extra.so is loaded;
   run-command args ... prints its arguments, one a line, in brackets.  */

#include "rtest.h"

#include <signal.h>

int
main (int argc, char **argv)
{
  CHECK (argc >= 2, "usage: run-command exit N | kill | env | args ...");
  if (argc < 2)
    return rt_exit_status ();
  if (strcmp (argv[1], "exit") == 0 && argc == 3)
    return atoi (argv[2]);
  if (strcmp (argv[1], "kill") == 0)
    {
      signal (SIGTERM, SIG_DFL);
      raise (SIGTERM);
      CHECK (0, "still alive after SIGTERM");
      return rt_exit_status ();
    }
  if (strcmp (argv[1], "env") == 0)
    {
      const char *p = getenv ("LD_PRELOAD");
      printf ("LD_PRELOAD=%s\n", p != NULL ? p : "(unset)");
      printf ("mode=%s\n", rt_shim_mode ());
      printf ("extra=%s\n", dlsym (RTLD_DEFAULT, "run_extra_marker") != NULL
                            ? "loaded" : "absent");
      return 0;
    }
  if (strcmp (argv[1], "args") == 0)
    {
      for (int i = 2; i < argc; i++)
        printf ("[%s]\n", argv[i]);
      return 0;
    }
  CHECK (0, "unknown request %s", argv[1]);
  return rt_exit_status ();
}
