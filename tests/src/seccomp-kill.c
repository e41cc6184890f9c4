/* A seccomp filter that kills on rseq, installed after start-up.
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

/* Usage: seccomp-kill process|thread

   Unsupported, and shown here: a filter whose action on rseq is
   SECCOMP_RET_KILL_PROCESS or SECCOMP_RET_KILL_THREAD instead of an
   error.  A registration is a system call, so the first thread created
   afterwards dies in its registration, before any of its own code runs
   (the C library's registration on glibc 2.35+, the shim's on musl and
   older glibc): with KILL_PROCESS the whole process ends by SIGSYS
   ("Bad system call"); with KILL_THREAD only the new thread vanishes,
   and pthread_join returns as if it had ended.  With registration off
   (GLIBC_TUNABLES=glibc.pthread.rseq=0) nothing calls rseq, and the
   thread runs.

   Prints "started N" once the thread is created (N = 1 if its start
   routine ran) and exits 0.  */

#include "rtest.h"
#include "seccomp-filter.h"

#include <pthread.h>

#ifndef SECCOMP_RET_KILL_PROCESS
# define SECCOMP_RET_KILL_PROCESS 0x80000000u
#endif
#ifndef SECCOMP_RET_KILL_THREAD
# define SECCOMP_RET_KILL_THREAD 0u
#endif

static volatile int ran;

static void *
thread_main (void *arg)
{
  ran = 1;
  return arg;
}

int
main (int argc, char **argv)
{
  const char *what = argc > 1 ? argv[1] : "";
  unsigned int action;
  if (strcmp (what, "process") == 0)
    action = SECCOMP_RET_KILL_PROCESS;
  else if (strcmp (what, "thread") == 0)
    action = SECCOMP_RET_KILL_THREAD;
  else
    {
      fprintf (stderr, "usage: seccomp-kill process|thread\n");
      return 2;
    }
  int err = sf_install_action (action);
  CHECK (err == 0, "seccomp: %s", strerror (err));
  if (rt_failures != 0)
    return rt_exit_status ();
  fprintf (stderr, "seccomp-kill: rseq now kills the %s; creating a thread\n",
           what);

  pthread_t t;
  err = pthread_create (&t, NULL, thread_main, NULL);
  CHECK (err == 0, "pthread_create: %s", strerror (err));
  if (err == 0)
    CHECK (pthread_join (t, NULL) == 0, "pthread_join");
  printf ("started %d\n", ran);
  return rt_exit_status ();
}
