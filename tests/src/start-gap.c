/* The program of link-order.exp's start-up gap test (start-gap-lib.c):
   its pthread_key_create, which the shim calls at the end of its
   start-up, opens the gap and holds it open 300 ms before the key
   exists.  Prints what the library's thread did; exits with its status.
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
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <threads.h>
#include <time.h>

#include "start-gap.h"

static int in_main;

int
pthread_key_create (pthread_key_t *key, void (*dtor) (void *))
{
  static int (*real) (pthread_key_t *, void (*) (void *));
  if (real == NULL)
    real = (int (*) (pthread_key_t *, void (*) (void *)))
      dlsym (RTLD_NEXT, "pthread_key_create");
  if (!in_main)
    {
      start_gap_open = 1;
      struct timespec ts = { 0, 300 * 1000 * 1000 };
      nanosleep (&ts, NULL);
    }
  return real (key, dtor);
}

int
main (void)
{
  in_main = 1;
  start_gap_open = 1;
  int status = -1;
  thrd_join (start_gap_thread, &status);
  printf ("start-gap: the library's thread ended with %d\n", status);
  return status != 0;
}
