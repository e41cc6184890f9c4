/* A library for dlmopen.exp: it links the shim, and is loaded into a
   namespace of its own.
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


/* Loaded by dlmopen (LM_ID_NEWLM): its references bind within the new
   namespace, to the copy of the shim loaded there.  plug_run creates a
   thread with that copy's pthread_create and reports what came of it.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

/* Built without -pthread too, where glibc before 2.34 defines no
   pthread_join in the namespace: RTLD_NOW would refuse the library
   for the reference.  Called only after a creation that succeeded,
   which the C library's pthread_create made.  */
#pragma weak pthread_join

static void *
body (void *arg)
{
  __atomic_store_n ((int *) arg, 1, __ATOMIC_RELEASE);
  return NULL;
}

int
plug_run (char *out, size_t len)
{
  int ran = 0;
  pthread_t t;
  int rc = pthread_create (&t, NULL, body, &ran);
  if (rc == 0 && pthread_join != NULL)
    pthread_join (t, NULL);
  /* Bound at load, pthread_join stays NULL after a later load of
     libpthread into the namespace: wait for the thread instead.  */
  for (int i = 0; rc == 0 && !__atomic_load_n (&ran, __ATOMIC_ACQUIRE)
                  && i < 10000; i++)
    usleep (1000);
  snprintf (out, len, "create=%d ran=%d", rc, ran);
  return 42;
}
