/* Threads from a program that never links libpthread.
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

/* Built two ways.  With THREAD_DIRECT the program calls pthread_create
   and is linked against libc alone: possible where libc has it (glibc
   2.34 and later, musl).  Without, it dlopens libpthread.so.0 ("local"
   or "global" scope, argv[1]) and calls what dlsym finds there: before
   glibc 2.34 that is the only way such a program gets threads, and the
   shim sees libpthread only after start-up.  On glibc a second argument
   "dlvsym" looks pthread_create up with dlvsym at the architecture's
   base version instead, in the handle, and "dlvsym-default" in
   RTLD_DEFAULT (global scope): a versioned lookup passes over the
   shim's unversioned pthread_create.  Either way every thread
   must be registered in the modes that register and not in the others.
   "glibc-before-2.34" as argv[1] only answers that question (exit 0 for
   yes, 1 for no).  */

#include "rtest.h"

#include <pthread.h>

#define THREADS 4

struct result
{
  struct rt_abi abi;
  unsigned int len;
  int ran;
  int cpu_id;
  int registered;
};

static void *
thread_main (void *p)
{
  struct result *r = p;
  rt_probe_thread (&r->abi, r->len, &r->cpu_id, &r->registered);
  r->ran = 1;
  return NULL;
}

typedef int create_fn (pthread_t *, const pthread_attr_t *,
                       void *(*) (void *), void *);
typedef int join_fn (pthread_t, void **);

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "glibc-before-2.34") == 0)
    return rt_glibc_before ("2.34") ? 0 : 1;

  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s, expected %s",
         rt_shim_mode (), rt_expect ());
  create_fn *create;
  join_fn *join;
#ifdef THREAD_DIRECT
  (void) argv;
  create = pthread_create;
  join = pthread_join;
#else
  CHECK ((argc == 2 || argc == 3)
         && (strcmp (argv[1], "local") == 0
             || strcmp (argv[1], "global") == 0),
         "usage: thread-libc local|global [dlvsym|dlvsym-default]");
  if (argc != 2 && argc != 3)
    return rt_exit_status ();
  const char *how = argc == 3 ? argv[2] : "dlsym";
# ifdef __GLIBC__
  CHECK (!rt_libpthread_loaded (),
         "libpthread.so.0 is loaded at start-up: the program must not need it");
# endif
  int scope = strcmp (argv[1], "global") == 0 ? RTLD_GLOBAL : RTLD_LOCAL;
  void *h = dlopen ("libpthread.so.0", RTLD_NOW | scope);
  CHECK (h != NULL, "dlopen libpthread.so.0: %s", dlerror ());
  if (h == NULL)
    return rt_exit_status ();
# ifdef __GLIBC__
#  if defined __x86_64__
#   define BASE_VERSION "GLIBC_2.2.5"
#  elif defined __aarch64__
#   define BASE_VERSION "GLIBC_2.17"
#  endif
  if (strcmp (how, "dlvsym") == 0)
    create = (create_fn *) dlvsym (h, "pthread_create", BASE_VERSION);
  else if (strcmp (how, "dlvsym-default") == 0)
    create = (create_fn *) dlvsym (RTLD_DEFAULT, "pthread_create",
                                   BASE_VERSION);
  else
# endif
    {
      CHECK (strcmp (how, "dlsym") == 0, "no lookup '%s' here", how);
      create = (create_fn *) dlsym (h, "pthread_create");
    }
  CHECK (create != NULL, "%s pthread_create: %s", how, dlerror ());
  join = (join_fn *) dlsym (h, "pthread_join");
  CHECK (join != NULL, "dlsym pthread_join: %s", dlerror ());
  if (create == NULL || join == NULL)
    return rt_exit_status ();
#endif

  struct result r[THREADS];
  pthread_t t[THREADS];
  int created[THREADS];
  memset (r, 0, sizeof r);
  for (int i = 0; i < THREADS; i++)
    {
      r[i].abi = rt_abi ();
      r[i].len = rt_expected_len ();
      int ret = create (&t[i], NULL, thread_main, &r[i]);
      CHECK (ret == 0, "pthread_create %d: %s", i, strerror (ret));
      created[i] = ret == 0;
    }
  long int ncpu = sysconf (_SC_NPROCESSORS_CONF);
  for (int i = 0; i < THREADS; i++)
    {
      if (!created[i])
        continue;
      CHECK (join (t[i], NULL) == 0, "pthread_join %d", i);
      CHECK (r[i].ran == 1, "thread %d did not run", i);
      if (rt_expect_registered ())
        {
          CHECK (r[i].registered == 1, "thread %d: area not registered (%d)",
                 i, r[i].registered);
          CHECK (r[i].cpu_id >= 0 && r[i].cpu_id < ncpu,
                 "thread %d: cpu_id %d", i, r[i].cpu_id);
        }
      else
        {
          CHECK (r[i].registered == 0,
                 "thread %d: area registered in mode %s (%d)", i,
                 rt_expect (), r[i].registered);
          CHECK (r[i].cpu_id == RSEQ_CPU_ID_REGISTRATION_FAILED,
                 "thread %d: cpu_id %d in mode %s, expected -2", i,
                 r[i].cpu_id, rt_expect ());
        }
    }
  return rt_exit_status ();
}
