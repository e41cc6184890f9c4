/* window-blockfail [N [SPIN]]: a filter refuses (EPERM) rt_sigprocmask
   (SIG_SETMASK) with a set, and lets reads (set NULL) through, so the
   clone window's read succeeds and its block fails.  Another thread
   sends SIGUSR1 to main while main is inside pthread_create; the
   SIGUSR1 handler (sa_mask SIGUSR2) creates a thread, which records
   its mask.  Stock 2.31: such a thread starts with the handler's mask,
   SIGUSR1 and SIGUSR2 blocked.  Counts handler-made threads that lack
   them.  Third argument: 1 (default) EPERM, 2 answered 0 without doing it
   (SECCOMP_RET_ERRNO|0), 0 no filter.
   make check-glibc (build-aux/glibc/mask-filters.sh) compares its
   output on the patched 2.31 with stock 2.31's (102nd review, Q3: the
   series opened its window though its block had failed).
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
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile pid_t main_tid;
static volatile int stop, go, spin_max = 4000;
static volatile int made, wrong;
static volatile unsigned long long last_wrong;
static unsigned long long mask_now (void)
{ unsigned long long m = 0; syscall (SYS_rt_sigprocmask, 99, NULL, &m, 8); return m; }
static void *inner (void *a)
{
  unsigned long long m = mask_now ();
  if ((m & 0xa00) != 0xa00)
    { wrong++; last_wrong = m; }
  return a;
}
static void handler (int sig)
{
  (void) sig;
  pthread_t t;
  if (pthread_create (&t, NULL, inner, NULL) == 0)
    { pthread_join (t, NULL); made++; }
}
static void *sender (void *arg)
{
  unsigned int seed = 1;
  while (!stop)
    {
      while (!go && !stop) ;
      if (stop) break;
      int d = rand_r (&seed) % spin_max;
      for (volatile int i = 0; i < d; i++) ;
      syscall (SYS_tgkill, getpid (), main_tid, SIGUSR1);
      go = 0;
    }
  return arg;
}
static void *nop (void *a) { return a; }
int main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 2000;
  if (argc > 2) spin_max = atoi (argv[2]);
  int filter = argc > 3 ? atoi (argv[3]) : 1;
  struct sigaction sa = { .sa_handler = handler };
  sigemptyset (&sa.sa_mask);
  sigaddset (&sa.sa_mask, SIGUSR2);
  sigaction (SIGUSR1, &sa, NULL);
  main_tid = syscall (SYS_gettid);
  struct sock_filter f[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigprocmask, 0, 5),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, args[0])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SIG_SETMASK, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, args[1])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),   /* low word; sets are stack addresses */
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM), /* patched to 0 for filter 2 */
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  if (filter == 2)
    f[6].k = SECCOMP_RET_ERRNO | 0;
  struct sock_fprog p = { sizeof f / sizeof f[0], f };
  if (filter && (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                 || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &p) != 0))
    { perror ("seccomp"); return 2; }
  pthread_t s;
  pthread_create (&s, NULL, sender, NULL);
  for (int i = 0; i < n; i++)
    {
      pthread_t t;
      go = 1;
      if (pthread_create (&t, NULL, nop, NULL) != 0) abort ();
      while (go) ;
      pthread_join (t, NULL);
    }
  stop = 1;
  pthread_join (s, NULL);
  printf ("handler-made threads=%d lacking SIGUSR1/SIGUSR2=%d (one: %#llx) main %#llx\n", made, wrong, last_wrong, mask_now ());
  return 0;
}
