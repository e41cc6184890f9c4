/* window-sigblock [MODE]: pthread_create's clone is trapped
   (SECCOMP_RET_TRAP); the SIGSYS handler, which runs inside the clone
   window, leaves by longjmp (setjmp saved no mask).  MODE 1 (default):
   the filter also refuses rt_sigprocmask (SIG_BLOCK) with EPERM;
   MODE 2: answers it 0 without doing it; MODE 0: only the clone trap.
   Prints main's mask after the jump (read with how=99) and whether a
   SIGUSR2 sent to the process is handled.  Stock 2.31: 0x40000000
   (SIGSYS, the handler's, which longjmp does not restore), handled.
   make check-glibc (build-aux/glibc/mask-filters.sh) compares its
   output on the patched 2.31 with stock 2.31's (102nd review, Q1: the
   series' longjmp read the mask with SIG_BLOCK, and under such a filter
   main kept every asynchronous signal blocked).
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
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
static jmp_buf jb;
static volatile sig_atomic_t got;
static void on_usr2 (int s) { (void) s; got++; }
static void on_sys (int s) { (void) s; longjmp (jb, 1); }
static unsigned long long mask_now (void)
{ unsigned long long m = 0; syscall (SYS_rt_sigprocmask, 99, NULL, &m, 8); return m; }
static void *body (void *a) { return a; }
int main (int argc, char **argv)
{
  int mode = argc > 1 ? atoi (argv[1]) : 1;
  signal (SIGUSR2, on_usr2);
  signal (SIGSYS, on_sys);
  unsigned int blk = mode == 2 ? SECCOMP_RET_ERRNO | 0
                     : mode == 1 ? SECCOMP_RET_ERRNO | EPERM : SECCOMP_RET_ALLOW;
  struct sock_filter f[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigprocmask, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, args[0])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SIG_BLOCK, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, blk),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog p = { sizeof f / sizeof f[0], f };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p) != 0)
    { perror ("seccomp"); return 2; }
  pthread_t t;
  if (setjmp (jb) == 0)
    {
      pthread_create (&t, NULL, body, NULL);
      puts ("clone not trapped");
      return 1;
    }
  unsigned long long m = mask_now ();
  kill (getpid (), SIGUSR2);
  printf ("mode %d: after longjmp main %#llx, SIGUSR2 handled %d\n", mode, m, got);
  return 0;
}
