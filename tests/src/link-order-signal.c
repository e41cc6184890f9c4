/* The program of link-order.exp's signal test: linked with
   link-order-signal-lib.c before -lrseq-compat.  Waits for the
   library's handler to have run, then for its children; prints
   "handler ran, children exited 0" or what went wrong.
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
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>

#include "link-order-signal.h"

int
main (void)
{
  int runs, forks, failures;
  struct timespec ms = { 0, 1000 * 1000 };
  for (int i = 0; i < 5000; i++)
    {
      link_order_signal_counts (&runs, &forks, &failures);
      if (runs > 0)
        break;
      nanosleep (&ms, NULL);
    }
  int bad = 0, status;
  while (wait (&status) > 0)
    bad += !WIFEXITED (status) || WEXITSTATUS (status) != 0;
  if (runs != 1 || failures != 0 || bad != 0)
    {
      printf ("handler ran %d times, %d failures, %d of %d children "
              "failed\n", runs, failures, bad, forks);
      return 1;
    }
  printf ("handler ran, children exited 0\n");
  return 0;
}
