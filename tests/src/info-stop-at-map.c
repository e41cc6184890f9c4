/* Stops a program while its dynamic loader maps a file (info.exp).
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

/* Usage: info-stop-at-map PREFIX[:PREFIX]... PROGRAM [ARG]...

   Runs PROGRAM under ptrace and, as the first mmap of a file whose
   base name starts with one of the PREFIXes returns, leaves it stopped (SIGSTOP)
   and detached, prints its PID and exits 0: the loader has mapped the
   file's first segment and not its data (65th review: a glibc 2.31
   process read there was "a static program?").  Exits 1 where the
   program ended before such a mapping.  */

#define _GNU_SOURCE 1
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

/* The system call number, its fifth argument (mmap's descriptor) and
   its result, at a system-call stop.  */
static int
syscall_regs (pid_t pid, long int *nr, long int *fd, long int *ret)
{
#if defined __x86_64__
  struct user_regs_struct r;
  struct iovec io = { &r, sizeof r };
  if (ptrace (PTRACE_GETREGSET, pid, (void *) NT_PRSTATUS, &io) != 0)
    return -1;
  *nr = (long int) r.orig_rax;
  *fd = (long int) r.r8;
  *ret = (long int) r.rax;
#elif defined __aarch64__
  struct user_regs_struct r;
  struct iovec io = { &r, sizeof r };
  if (ptrace (PTRACE_GETREGSET, pid, (void *) NT_PRSTATUS, &io) != 0)
    return -1;
  *nr = (long int) r.regs[8];
  *fd = (long int) r.regs[4];
  *ret = (long int) r.regs[0];
#else
# error "info-stop-at-map: no register layout for this architecture"
#endif
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: info-stop-at-map PREFIX[:PREFIX]... PROGRAM [ARG]...\n");
      return 2;
    }
  const char *prefix = argv[1];
  pid_t pid = fork ();
  if (pid < 0)
    return 2;
  if (pid == 0)
    {
      /* The program outlives this one, stopped: what reads this one's
         output to its end (Tcl's exec) must not wait for the
         program's.  */
      int null = open ("/dev/null", O_WRONLY);
      if (null < 0 || dup2 (null, 1) < 0 || dup2 (null, 2) < 0)
        _exit (127);
      ptrace (PTRACE_TRACEME, 0, NULL, NULL);
      execv (argv[2], argv + 2);
      _exit (127);
    }
  int st;
  /* The stop at exec.  */
  if (waitpid (pid, &st, 0) != pid || !WIFSTOPPED (st))
    return 1;
  ptrace (PTRACE_SETOPTIONS, pid, NULL, (void *) PTRACE_O_TRACESYSGOOD);
  /* Entry and exit stops alternate; only exits are looked at.  */
  int entry = 1;
  for (;;)
    {
      if (ptrace (PTRACE_SYSCALL, pid, NULL, NULL) != 0
          || waitpid (pid, &st, 0) != pid || !WIFSTOPPED (st))
        return 1;
      if (WSTOPSIG (st) != (SIGTRAP | 0x80))
        continue;
      int was_entry = entry;
      entry = !entry;
      long int nr, fd, ret;
      if (was_entry || syscall_regs (pid, &nr, &fd, &ret) != 0
          || nr != SYS_mmap || fd < 0 || ret < 0)
        continue;
      char link[64], path[4096];
      snprintf (link, sizeof link, "/proc/%d/fd/%ld", (int) pid, fd);
      ssize_t n = readlink (link, path, sizeof path - 1);
      if (n <= 0)
        continue;
      path[n] = '\0';
      const char *base = strrchr (path, '/');
      base = base != NULL ? base + 1 : path;
      int match = 0;
      for (const char *q = prefix; *q != '\0' && !match;)
        {
          size_t len = strcspn (q, ":");
          match = len > 0 && strncmp (base, q, len) == 0;
          q += len + (q[len] == ':');
        }
      if (!match)
        continue;
      kill (pid, SIGSTOP);
      ptrace (PTRACE_DETACH, pid, NULL, NULL);
      printf ("%d\n", (int) pid);
      return 0;
    }
}
