/* A fault inside pthread_create, handled on a signal stack, whose
   handler creates a thread and leaves by siglongjmp (97th review).
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

/* pthread_create stores the new thread's ID through a pointer into a
   read-only page: the fault's handler runs inside the creation (in the
   shim's window, where the six signals a creator's own code raises
   stay open), on a signal stack.  With NESTED, the handler creates a
   thread through the same pointer, faulting again inside that second
   creation, and the nested handler jumps back to main, above both.
   main then blocks SIGUSR1 and creates a thread from deeper down: the
   thread must start with SIGUSR1 blocked, as its creator's mask says
   (the shim's jump ended only the window on the stack it jumped to,
   and the creation was taken for one inside a handler, whose thread
   got the program's mask of the abandoned window).  Prints
   "nested N: err E usr1-blocked B".

   Mode 2, errno: as 0, under a seccomp filter that refuses sigaltstack
   (EPERM), and the handler sets errno to 42 before it jumps; main
   prints "errno E" first thing after the jump.  The shim's jump asks
   the kernel about the signal stack, and gave the program the refusal's
   errno (98th review, F3).

   Mode 3, disarm: as 1, on a signal stack in main's frame armed with
   SS_AUTODISARM, and the handler turns the signal stack off before it
   jumps (99th review, F2: a record of the stack kept by the shim's
   sigaltstack then said none, the jump was taken for one that stays on
   the stack, and the handler's window, with the program's mask, stayed
   open for every later creation).  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rtest.h"
#include "seccomp-filter.h"

/* The kernel's (linux/signal.h), which glibc's headers lack.  */
#ifndef SS_AUTODISARM
# define SS_AUTODISARM (1U << 31)
#endif

static sigjmp_buf back;
static pthread_t *readonly_id;
static int nested, set_errno, disarm;
static volatile sig_atomic_t depth;

static void *
report (void *arg)
{
  sigset_t now;
  pthread_sigmask (SIG_BLOCK, NULL, &now);
  if (arg != NULL)
    *(int *) arg = sigismember (&now, SIGUSR1);
  return NULL;
}

static void
on_segv (int sig)
{
  (void) sig;
  if (nested && depth++ == 0)
    pthread_create (readonly_id, NULL, report, NULL);
  if (set_errno)
    errno = 42;
  if (disarm)
    {
      stack_t off = { .ss_flags = SS_DISABLE };
      sigaltstack (&off, NULL);
    }
  siglongjmp (back, 1);
}

static __attribute__ ((noinline)) int
deeper (int levels, int *usr1)
{
  volatile char pad[4096];
  pad[0] = 0;
  if (levels > 0)
    return deeper (levels - 1, usr1) + pad[0];
  pthread_t t;
  int err = pthread_create (&t, NULL, report, usr1);
  if (err == 0)
    pthread_join (t, NULL);
  return err;
}

int
main (int argc, char **argv)
{
  int mode = argc > 1 ? atoi (argv[1]) : 0;
  nested = mode == 1 || mode == 3;
  set_errno = mode == 2;
  disarm = mode == 3;
  static char alt[1 << 16];
  char frame_alt[1 << 16] __attribute__ ((aligned (16)));
  stack_t ss = { .ss_sp = disarm ? frame_alt : alt, .ss_size = sizeof alt,
                 .ss_flags = disarm ? SS_AUTODISARM : 0 };
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_segv;
  sa.sa_flags = SA_ONSTACK | SA_NODEFER;
  readonly_id = mmap (NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
  if (readonly_id == MAP_FAILED || sigaltstack (&ss, NULL) != 0
      || sigaction (SIGSEGV, &sa, NULL) != 0)
    {
      perror ("window-jump: set-up");
      return 2;
    }
  if (set_errno)
    {
      struct sock_filter code[] = {
        SF_OWN_ARCH_NR,
        BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_sigaltstack, 0, 1),
        BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      };
      int err = sf_load (code, sizeof code / sizeof code[0], 0);
      if (err != 0)
        {
          fprintf (stderr, "window-jump: seccomp: %s\n", strerror (err));
          return 2;
        }
    }
  if (sigsetjmp (back, 1) == 0)
    pthread_create (readonly_id, NULL, report, NULL);
  else if (set_errno)
    {
      int e = errno;
      printf ("errno %d\n", e);
    }
  sigset_t usr1;
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  sigprocmask (SIG_BLOCK, &usr1, NULL);
  int blocked = -1;
  int err = deeper (4, &blocked);
  printf ("nested %d: err %d usr1-blocked %d\n", nested, err, blocked);
  return 0;
}
