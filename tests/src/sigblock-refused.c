/* sigblock-refused [--answer-0 | --kill] [--setmask] [--unblock]
   PROGRAM [ARG...]: runs PROGRAM under a seccomp filter that refuses
   rt_sigprocmask (SIG_BLOCK, ...) with EPERM and allows every other
   call; with --answer-0 the filter answers 0 instead, without doing the
   call or writing the old mask (SECCOMP_RET_ERRNO with 0, as a
   supervisor may answer), with --kill it kills the process
   (SECCOMP_RET_KILL_PROCESS: the 106th review's killblock, where the
   patched 2.31's read was a SIG_BLOCK that stock never makes); with
   --setmask (--unblock) it is SIG_SETMASK
   (SIG_UNBLOCK) that the filter answers so, and SIG_BLOCK that it lets
   through; both options: both of those (101st review, R1: a block that
   got through while both ways back were refused); with --no-old it is
   every call that passes no old-mask pointer, whatever its `how' (110th
   review, G1: the 2.31 series' restores passed none, and such a filter
   stopped them and let its window's block through).  The shim blocks signals around its start-up and
   pthread_create, and must restore nothing it did not save, and undo
   what it blocked even where one way back fails (seccomp.exp).
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
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  /* The answer: an error, or a success that wrote nothing, which a
     caller cannot tell from a real one by the return value.  */
  unsigned int action = SECCOMP_RET_ERRNO | EPERM;
  /* The `how's answered so; the filter compares with two, the second
     the first again where one is given.  */
  unsigned int how[2] = { SIG_BLOCK, SIG_BLOCK };
  int hows = 0;
  int no_old = 0;
  for (; argc > 1 && argv[1][0] == '-'; argv++, argc--)
    if (strcmp (argv[1], "--no-old") == 0)
      no_old = 1;
    else if (strcmp (argv[1], "--answer-0") == 0)
      action = SECCOMP_RET_ERRNO;
    else if (strcmp (argv[1], "--kill") == 0)
      action = SECCOMP_RET_KILL_PROCESS;
    else if (strcmp (argv[1], "--setmask") == 0 && hows < 2)
      how[hows++] = SIG_SETMASK;
    else if (strcmp (argv[1], "--unblock") == 0 && hows < 2)
      how[hows++] = SIG_UNBLOCK;
    else
      break;
  if (hows == 1)
    how[1] = how[0];
  if (argc < 2 || argv[1][0] == '-' || (no_old && hows > 0))
    {
      fprintf (stderr, "usage: sigblock-refused [--answer-0 | --kill]"
               " [--setmask] [--unblock | --no-old] PROGRAM [ARG...]\n");
      return 2;
    }
  struct sock_filter prog[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 0, 4),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
                offsetof (struct seccomp_data, args[0])),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, how[0], 1, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, how[1], 0, 1),
      BPF_STMT (BPF_RET | BPF_K, action),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  /* The old-mask pointer is args[2]: both halves of it zero.  */
  struct sock_filter prog_no_old[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 0, 5),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
                offsetof (struct seccomp_data, args[2])),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 3),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
                offsetof (struct seccomp_data, args[2]) + 4),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, action),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  struct sock_fprog fp = { sizeof prog / sizeof prog[0], prog };
  if (no_old)
    {
      fp.len = sizeof prog_no_old / sizeof prog_no_old[0];
      fp.filter = prog_no_old;
    }
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || syscall (SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) != 0)
    {
      fprintf (stderr, "sigblock-refused: seccomp: %s\n", strerror (errno));
      return 125;
    }
  execvp (argv[1], argv + 1);
  fprintf (stderr, "sigblock-refused: %s: %s\n", argv[1], strerror (errno));
  return 127;
}
