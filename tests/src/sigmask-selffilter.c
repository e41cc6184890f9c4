/* sigmask-selffilter FILTER OP: a program that installs its own seccomp
   filter on rt_sigprocmask once its first thread has come and gone (so
   that the C library's first-thread calls are behind it: glibc 2.32
   and later unblock their internal signals in a process's first
   pthread_create), then makes one call of OP.
     FILTER none     no filter and no first thread (for a launcher's
                     filter: sigblock-refused)
            block    SIG_BLOCK kills the process
            unblock  SIG_UNBLOCK kills it
            setmask  SIG_SETMASK kills it
            m1       SIG_SETMASK answered 0, not done; SIG_UNBLOCK kills
                     (110th review, M1: on musl the shim's block read
                     again with SIG_UNBLOCK after a SIG_SETMASK whose old
                     mask came back unwritten, and pthread_create died
                     where musl alone ran)
     OP     none | pthread_create | vfork
   Prints "main" at the start of main, "call" just before OP (written
   with write, so that a death inside the call leaves both) and "done
   OP STATUS" after it; exits 0.  seccomp.exp compares each with the C
   library alone and pins the deaths doc/using.md gives.
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
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seccomp-abi.h"

static void
say (const char *s)
{
  if (write (1, s, strlen (s)) < 0)
    _exit (3);
}

static void *
idle (void *arg)
{
  return arg;
}

static int
usage (void)
{
  fprintf (stderr, "usage: sigmask-selffilter none|block|unblock|setmask|m1"
           " none|pthread_create|vfork\n");
  return 2;
}

int
main (int argc, char **argv)
{
  say ("main\n");
  if (argc != 3)
    return usage ();
  const char *filter = argv[1], *op = argv[2];
  /* The `how's the filter answers, and how.  */
  unsigned int how[2] = { 0, 0 }, act[2] = { 0, 0 };
  const unsigned int kill = SECCOMP_RET_KILL_PROCESS;
  if (strcmp (filter, "block") == 0)
    how[0] = how[1] = SIG_BLOCK, act[0] = act[1] = kill;
  else if (strcmp (filter, "unblock") == 0)
    how[0] = how[1] = SIG_UNBLOCK, act[0] = act[1] = kill;
  else if (strcmp (filter, "setmask") == 0)
    how[0] = how[1] = SIG_SETMASK, act[0] = act[1] = kill;
  else if (strcmp (filter, "m1") == 0)
    how[0] = SIG_SETMASK, act[0] = SECCOMP_RET_ERRNO,
    how[1] = SIG_UNBLOCK, act[1] = kill;
  else if (strcmp (filter, "none") != 0)
    return usage ();
  if (strcmp (op, "none") != 0 && strcmp (op, "pthread_create") != 0
      && strcmp (op, "vfork") != 0)
    return usage ();

  if (strcmp (filter, "none") != 0)
    {
      pthread_t t;
      if (pthread_create (&t, NULL, idle, NULL) != 0
          || pthread_join (t, NULL) != 0)
        {
          say ("first thread failed\n");
          return 1;
        }
    }
  if (strcmp (filter, "none") != 0)
    {
      struct sock_filter f[] = {
        BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
                  offsetof (struct seccomp_data, nr)),
        BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 0, 3),
        BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
                  offsetof (struct seccomp_data, args[0])),
        BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, how[0], 2, 0),
        BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, how[1], 2, 0),
        BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        BPF_STMT (BPF_RET | BPF_K, act[0]),
        BPF_STMT (BPF_RET | BPF_K, act[1]),
      };
      struct sock_fprog prog = { sizeof f / sizeof f[0], f };
      if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
          || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
        {
          perror ("seccomp");
          return 2;
        }
    }
  int status = 0;
  say ("call\n");
  if (strcmp (op, "pthread_create") == 0)
    {
      pthread_t t;
      status = pthread_create (&t, NULL, idle, NULL);
      if (status == 0)
        pthread_join (t, NULL);
    }
  else if (strcmp (op, "vfork") == 0)
    {
      pid_t pid = vfork ();
      if (pid == 0)
        _exit (7);
      if (pid < 0 || waitpid (pid, &status, 0) != pid)
        status = -1;
      else
        status = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
    }
  char line[64];
  snprintf (line, sizeof line, "done %s %d\n", op, status);
  say (line);
  return 0;
}
