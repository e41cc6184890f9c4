/* Benchmark 4: process start-up of a trivial program.
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

/* Usage: spawn PROGRAM [VAR=VALUE...]
   posix_spawn PROGRAM (built with the same C library) with exactly the
   given environment and wait for it, over and over: ns per start-up.
   The spawner itself never loads the shim; only the child's
   environment differs between "with" (LD_PRELOAD=the shim) and
   "without", so the difference is the shim's cost at start-up.  */

#include "bench.h"

#include <spawn.h>
#include <sys/wait.h>

static char **child_argv;
static char **child_env;

static double
loop_spawn (long int n, void *arg)
{
  (void) arg;
  double t0 = bench_now ();
  for (long int i = 0; i < n; i++)
    {
      pid_t pid;
      int status;
      if (posix_spawn (&pid, child_argv[0], NULL, NULL, child_argv,
                       child_env) != 0
          || waitpid (pid, &status, 0) != pid
          || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
        {
          fprintf (stderr, "spawn: %s failed\n", child_argv[0]);
          exit (1);
        }
    }
  return bench_now () - t0;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: spawn PROGRAM [VAR=VALUE...]\n");
      return 2;
    }
  char *cargv[2] = { argv[1], NULL };
  child_argv = cargv;
  child_env = argv + 2;
  int cpus[1];
  if (bench_cpus (cpus, 1) == 1)
    bench_pin (cpus[0]);
  bench_run ("startup", "spawn+wait", loop_spawn, NULL, 10);
  return 0;
}
