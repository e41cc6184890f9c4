/* A library whose constructor starts a thread and waits for it, the
   thread starting one more with the other call (pthread_create and C11's
   thrd_create), for c11-threads.exp: dlopened by a program not linked
   with libpthread, so that on glibc 2.28 to 2.33 neither call was found
   at start-up, and the constructor holds the loader's lock meanwhile.
   Usage (in the environment): C11_CTOR_ORDER=pthread (the constructor's
   pthread_create, then the thread's thrd_create), c11 (the other way
   round) or raw (the constructor's pthread_create is the C library's
   own, from dlsym (RTLD_NEXT, ...), which the shim does not see).
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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif

typedef int c11_fn (void *);
/* Weak: glibc before 2.28 has none (the test leaves that order out).  */
extern int thrd_create (pthread_t *, c11_fn *, void *) __attribute__ ((weak));
extern int thrd_join (pthread_t, int *) __attribute__ ((weak));

/* 7 once the inner thread ran, 0 before, -1 when a call failed.  */
int c11_ctor_result;

static int
inner_c11 (void *p)
{
  (void) p;
  return 7;
}

static void *
inner_pthread (void *p)
{
  (void) p;
  return (void *) (intptr_t) 7;
}

static void *
outer_pthread (void *p)
{
  (void) p;
  pthread_t t;
  int value = -1;
  if (thrd_create (&t, inner_c11, NULL) != 0 || thrd_join (t, &value) != 0)
    return (void *) (intptr_t) -1;
  return (void *) (intptr_t) value;
}

static int
outer_c11 (void *p)
{
  (void) p;
  pthread_t t;
  void *value;
  if (pthread_create (&t, NULL, inner_pthread, NULL) != 0
      || pthread_join (t, &value) != 0)
    return -1;
  return (int) (intptr_t) value;
}

__attribute__ ((constructor)) static void
start (void)
{
  const char *order = getenv ("C11_CTOR_ORDER");
  if (order == NULL || thrd_create == NULL)
    return;
#ifdef __GLIBC__
  /* Upstream glibc 2.34 deadlocks here by itself, without the shim
     (check-oldlibc's row, "alone": killed by the test's alarm); 2.28,
     2.31, 2.36 and musl do not.  c11-threads.c expects nothing to run
     there.  */
  if (strverscmp (gnu_get_libc_version (), "2.34") >= 0
      && strverscmp (gnu_get_libc_version (), "2.35") < 0)
    return;
#endif
  if (strcmp (order, "pthread") == 0)
    {
      pthread_t t;
      void *value;
      c11_ctor_result = pthread_create (&t, NULL, outer_pthread, NULL) == 0
                        && pthread_join (t, &value) == 0
                        ? (int) (intptr_t) value : -1;
    }
  else if (strcmp (order, "raw") == 0)
    {
      typedef int create_fn (pthread_t *, const pthread_attr_t *,
                             void *(*) (void *), void *);
      create_fn *create = (create_fn *) dlsym (RTLD_NEXT, "pthread_create");
      pthread_t t;
      void *value;
      c11_ctor_result = create != NULL
                        && create (&t, NULL, outer_pthread, NULL) == 0
                        && pthread_join (t, &value) == 0
                        ? (int) (intptr_t) value : -1;
    }
  else if (strcmp (order, "c11") == 0)
    {
      pthread_t t;
      int value;
      c11_ctor_result = thrd_create (&t, outer_c11, NULL) == 0
                        && thrd_join (t, &value) == 0 ? value : -1;
    }
}
