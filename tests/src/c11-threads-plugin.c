/* A library with a C11 threads emulation of its own (as tinycthread
   and copies of Mesa's c11/threads carry for glibc before 2.28), for
   c11-threads.c: dlopened with RTLD_LOCAL, its own calls find its own
   thrd_create only where the global scope has none.
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

typedef int c11_fn (void *);

/* How many threads this library's own thrd_create started.  */
static int own_started;

struct own_start
{
  c11_fn *fn;
  void *arg;
};

static void *
own_main (void *p)
{
  struct own_start s = *(struct own_start *) p;
  free (p);
  return (void *) (intptr_t) s.fn (s.arg);
}

int
thrd_create (pthread_t *thread, c11_fn *fn, void *arg)
{
  struct own_start *s = malloc (sizeof *s);
  if (s == NULL)
    return 3;
  s->fn = fn;
  s->arg = arg;
  if (pthread_create (thread, NULL, own_main, s) != 0)
    {
      free (s);
      return 2;
    }
  __atomic_add_fetch (&own_started, 1, __ATOMIC_RELAXED);
  return 0;
}

int
thrd_join (pthread_t thread, int *result)
{
  void *value;
  if (pthread_join (thread, &value) != 0)
    return 2;
  if (result != NULL)
    *result = (int) (intptr_t) value;
  return 0;
}

/* Starts FN (ARG) with thrd_create and joins it, as the library's own
   code would; *OWN says whether its own thrd_create ran.  Returns the
   thread's result, or -1 when thrd_create failed.  */
int
c11_plugin_run (c11_fn *fn, void *arg, int *own)
{
  int before = __atomic_load_n (&own_started, __ATOMIC_RELAXED);
  /* Through their addresses, which come from the GOT as a call through
     the PLT would: clang binds a direct call to a function of the same
     file to that file's definition (its default, half of
     -fno-semantic-interposition), as gcc does not, and the test is
     about which definition the loader picks (make check-sanitize).  */
  int (*volatile create) (pthread_t *, c11_fn *, void *) = thrd_create;
  int (*volatile join) (pthread_t, int *) = thrd_join;
  pthread_t t;
  if (create (&t, fn, arg) != 0)
    return -1;
  int value = -1;
  if (join (t, &value) != 0)
    return -1;
  *own = __atomic_load_n (&own_started, __ATOMIC_RELAXED) != before;
  return value;
}

/* The eighty-first review's F3: this library, dlopened with RTLD_LOCAL
   by a program without libpthread, looks both creators up with
   RTLD_NEXT, whose answer (the objects after it in its own scope)
   c11-threads.c compares with the C library's alone.  A pthread_create
   found starts FN (ARG), joined here; returns 0, or -1 when it
   failed.  */
int
c11_plugin_next (void *(*fn) (void *), void *arg, void **pc, void **tc)
{
  *pc = dlsym (RTLD_NEXT, "pthread_create");
  *tc = dlsym (RTLD_NEXT, "thrd_create");
  if (*pc == NULL)
    return 0;
  int (*create) (pthread_t *, const pthread_attr_t *, void *(*) (void *),
                 void *) = *pc;
  pthread_t t;
  if (create (&t, NULL, fn, arg) != 0 || pthread_join (t, NULL) != 0)
    return -1;
  return 0;
}
