/* A library that links -lrseq-compat itself (link-late.exp).
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

/* The program calls it, so that the library is needed; it uses the
   header's accessor, as a per-CPU library would.  */

#include <pthread.h>
#include <rseq-compat.h>

int
link_late_cpu (void)
{
  return rseq_compat_cpu ();
}

/* FN on a thread the library starts: its pthread_create binds in the
   global scope as the program's would.  */
int
link_late_spawn (void *(*fn) (void *))
{
  pthread_t t;
  int err = pthread_create (&t, NULL, fn, NULL);
  if (err == 0)
    pthread_join (t, NULL);
  return err;
}
