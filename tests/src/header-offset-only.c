/* The header where only __rseq_offset is defined (header.exp).
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

/* Bound to each CPU it may run on in turn, the header's answers must be
   that CPU: the slow path (sched_getcpu, the getcpu system call), since
   no __rseq_size says an area is registered.  Prints "ok N" after N
   CPUs.  */

#define _GNU_SOURCE 1
#include <rseq-compat.h>
#include <sched.h>
#include <stdio.h>

int
main (void)
{
  cpu_set_t allowed;
  if (sched_getaffinity (0, sizeof allowed, &allowed) != 0)
    {
      perror ("sched_getaffinity");
      return 2;
    }
  int checked = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    {
      if (!CPU_ISSET (cpu, &allowed))
        continue;
      cpu_set_t one;
      CPU_ZERO (&one);
      CPU_SET (cpu, &one);
      if (sched_setaffinity (0, sizeof one, &one) != 0)
        {
          perror ("sched_setaffinity");
          return 2;
        }
      int got = rseq_compat_cpu ();
      if (got != cpu)
        {
          printf ("bound to CPU %d, rseq_compat_cpu says %d\n", cpu, got);
          return 1;
        }
      if (rseq_compat_size () != 0)
        {
          printf ("rseq_compat_size %u with no __rseq_size\n",
                  rseq_compat_size ());
          return 1;
        }
      checked++;
    }
  printf ("ok %d\n", checked);
  return 0;
}
