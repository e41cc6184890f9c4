/* One process of a tree that mixes C libraries under one LD_PRELOAD.
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

/* mixed-tree LABEL [exec PROGRAM ARGS... | system COMMAND]

   Starts MT_THREADS threads, and with them alive prints one line,
   "LABEL LIBC MODE REGISTERED/TOTAL": its own C library, the mode the
   shim loaded into this process reports ("none" without one), and how
   many of its threads (the main thread included) the kernel confirms
   registered.  Then, the threads still alive, it runs the next level:
   "exec" forks and executes PROGRAM with ARGS (which may go on with
   further levels), "system" hands COMMAND to system().  It exits with
   the next level's exit status (128 + the signal when killed), 0
   without one.  The harness compares the lines of the whole tree.  */

#include "rtest.h"

#include <pthread.h>
#include <sys/wait.h>

#define MT_THREADS 3

static pthread_barrier_t mt_checked, mt_done;
static int mt_registered[MT_THREADS + 1];

/* Whether the kernel holds the calling thread's published area: the C
   library's registration (32 bytes from glibc before 2.40) or the
   shim's (the published size, 32 at least).  */
static int
mt_thread_registered (void)
{
  struct rt_abi abi = rt_abi ();
  if (abi.offset == NULL || abi.size == NULL || *abi.size == 0)
    return 0;
  struct rseq *area = rt_area (&abi);
  if ((int) area->cpu_id < 0)
    return 0;
  unsigned int len = rt_len_for_size (*abi.size);
  return rt_registered (area, len) || (len != 32 && rt_registered (area, 32));
}

static void *
mt_thread (void *arg)
{
  int *slot = arg;
  *slot = mt_thread_registered ();
  pthread_barrier_wait (&mt_checked);
  pthread_barrier_wait (&mt_done);
  return NULL;
}

static int
mt_status (int status)
{
  if (status == -1)
    return 126;
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return WEXITSTATUS (status);
}

/* The next level, ARGV[0] being "exec" or "system"; its exit status.  */
static int
mt_next (char **argv)
{
  if (strcmp (argv[0], "system") == 0 && argv[1] != NULL)
    return mt_status (system (argv[1]));
  if (strcmp (argv[0], "exec") == 0 && argv[1] != NULL)
    {
      pid_t pid = fork ();
      if (pid == 0)
        {
          execv (argv[1], argv + 1);
          fprintf (stderr, "mixed-tree: %s: %s\n", argv[1], strerror (errno));
          _exit (127);
        }
      int status;
      if (pid < 0 || waitpid (pid, &status, 0) != pid)
        return 126;
      return mt_status (status);
    }
  fprintf (stderr, "mixed-tree: unknown step %s\n", argv[0]);
  return 2;
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fputs ("usage: mixed-tree LABEL [exec PROGRAM ARGS... | system "
             "COMMAND]\n", stderr);
      return 2;
    }
  pthread_barrier_init (&mt_checked, NULL, MT_THREADS + 1);
  pthread_barrier_init (&mt_done, NULL, MT_THREADS + 1);
  pthread_t threads[MT_THREADS];
  for (int i = 0; i < MT_THREADS; i++)
    if (pthread_create (&threads[i], NULL, mt_thread,
                        &mt_registered[i + 1]) != 0)
      {
        fprintf (stderr, "mixed-tree: pthread_create failed\n");
        return 2;
      }
  mt_registered[0] = mt_thread_registered ();
  pthread_barrier_wait (&mt_checked);

  int registered = 0;
  for (int i = 0; i <= MT_THREADS; i++)
    registered += mt_registered[i];
#ifdef __GLIBC__
  const char *libc = "glibc";
#else
  const char *libc = "musl";
#endif
  printf ("%s %s %s %d/%d\n", argv[1], libc, rt_shim_mode (), registered,
          MT_THREADS + 1);
  fflush (stdout);

  int status = argc > 2 ? mt_next (argv + 2) : 0;
  pthread_barrier_wait (&mt_done);
  for (int i = 0; i < MT_THREADS; i++)
    pthread_join (threads[i], NULL);
  return status;
}
