/* Programs that must behave the same with and without the shim.
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

/* Usage: differential CASE.  Each case prints what a program can see
   of the C library's answer; differential.exp runs it with the shim and
   without, and the two runs must print the same and end the same.

   create-fault  pthread_create writes the new thread's ID into a page
                 that a write barrier protects (Boehm GC's incremental
                 mode, dirty-page trackers): the SIGSEGV handler opens
                 the page and the write is retried.  The handler must
                 be able to run in the creating thread.
   clone-null    clone (NULL, stack, CLONE_VM | CLONE_VFORK | SIGCHLD):
                 glibc refuses (EINVAL); musl starts the child, which
                 faults.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static char *page;
static long pagesize;
static volatile sig_atomic_t faults;

static void
on_segv (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) ctx;
  char *a = si->si_addr;
  if (a < page || a >= page + pagesize)
    {
      /* Not the barrier's: die as the fault would have.  */
      signal (SIGSEGV, SIG_DFL);
      return;
    }
  faults++;
  mprotect (page, pagesize, PROT_READ | PROT_WRITE);
}

static void *
idle (void *arg)
{
  return arg;
}

static int
create_fault (void)
{
  pagesize = sysconf (_SC_PAGESIZE);
  page = mmap (NULL, pagesize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    return 2;
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction (SIGSEGV, &sa, NULL);
  pthread_t *slot = (pthread_t *) page;
  int ret = pthread_create (slot, NULL, idle, NULL);
  void *res = &res;
  int joined = ret == 0 ? pthread_join (*slot, &res) : -1;
  printf ("create-fault: pthread_create %d, %s, join %d%s\n", ret,
          faults > 0 ? "the handler ran" : "no fault", joined,
          res == NULL ? ", the thread ran" : "");
  return 0;
}

static int
child (void *arg)
{
  (void) arg;
  return 0;
}

static int
clone_null (void)
{
  size_t size = 64 * 1024;
  char *stack = malloc (size);
  if (stack == NULL)
    return 2;
  errno = 0;
  int (*fn) (void *) = child;
  /* Through a volatile, so that the compiler keeps the call as written.  */
  int (*volatile null) (void *) = NULL;
  fn = null;
  int pid = clone (fn, stack + size, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
  int err = errno;
  /* CLONE_VFORK: the child is gone or has exited by now.  */
  free (stack);
  if (pid < 0)
    {
      printf ("clone-null: -1, %s\n", strerror (err));
      return 0;
    }
  int status;
  if (waitpid (pid, &status, __WALL) != pid)
    printf ("clone-null: a child, not waitable: %s\n", strerror (errno));
  else if (WIFSIGNALED (status))
    printf ("clone-null: a child, killed by signal %d\n", WTERMSIG (status));
  else
    printf ("clone-null: a child, exit status %d\n", WEXITSTATUS (status));
  return 0;
}

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IONBF, 0);
  if (argc == 2 && strcmp (argv[1], "create-fault") == 0)
    return create_fault ();
  if (argc == 2 && strcmp (argv[1], "clone-null") == 0)
    return clone_null ();
  fprintf (stderr, "usage: differential create-fault|clone-null\n");
  return 2;
}
