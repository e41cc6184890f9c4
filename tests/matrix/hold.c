/* hold: make check-portable's target for rseq-compat info -p.
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

/* Says "ready" on standard output once its second thread has started,
   then waits to be killed (at most a minute), so that the command sees
   a registered main thread and a thread the shim started.  */

#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *
idle (void *arg)
{
  (void) arg;
  sleep (60);
  return NULL;
}

int
main (void)
{
  pthread_t t;
  if (pthread_create (&t, NULL, idle, NULL) != 0)
    return 1;
  printf ("ready\n");
  fflush (stdout);
  sleep (60);
  return 0;
}
