/* hide-auxv [VAR=VALUE...] PROGRAM [ARG...]: runs PROGRAM, with the
   variables set, with AT_RSEQ_FEATURE_SIZE and AT_RSEQ_ALIGN turned
   into AT_IGNORE in its auxiliary vector, as a kernel before 6.3 hands
   it out.  auxv-hidden.exp.
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

/* The kernel the suite runs on may be 6.3 or later; the shim must
   behave on older ones too (Debian 11's 5.10, 12's 6.1), where musl's
   getauxval sets errno for the missing entries.  The entries are
   rewritten on the new program's stack at its exec (ptrace's exec
   stop), before any of its code runs.  /proc/PID/auxv, the kernel's
   copy, keeps them; the C libraries read the stack's.  */

#define _GNU_SOURCE 1
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined __x86_64__
# define STACK_POINTER(regs) ((regs).rsp)
#elif defined __aarch64__
# define STACK_POINTER(regs) ((regs).sp)
#else
# error "the stack pointer at exec: x86-64 and AArch64 only"
#endif

/* <elf.h>'s names are newer than some C libraries' headers.  */
enum { AUX_IGNORE = 1, AUX_RSEQ_FEATURE_SIZE = 27, AUX_RSEQ_ALIGN = 28 };

/* Word at ADDR of the stopped tracee PID; errno says whether it was
   read.  */
static long int
peek (pid_t pid, unsigned long int addr)
{
  errno = 0;
  return ptrace (PTRACE_PEEKDATA, pid, (void *) addr, NULL);
}

/* At the exec stop: the stack pointer is at argc, then argv and envp,
   each ended by NULL, then auxv.  0, or an errno value.  */
static int
hide (pid_t pid)
{
  struct user_regs_struct regs;
  struct iovec iov = { &regs, sizeof regs };
  if (ptrace (PTRACE_GETREGSET, pid, (void *) NT_PRSTATUS, &iov) != 0)
    return errno;
  unsigned long int p = STACK_POINTER (regs);
  long int argc = peek (pid, p);
  if (errno != 0)
    return errno;
  p += sizeof (long int) * (argc + 2);
  for (;;)
    {
      long int env = peek (pid, p);
      if (errno != 0)
        return errno;
      p += sizeof (long int);
      if (env == 0)
        break;
    }
  for (;; p += 2 * sizeof (long int))
    {
      long int type = peek (pid, p);
      if (errno != 0)
        return errno;
      if (type == 0)
        return 0;
      if ((type == AUX_RSEQ_FEATURE_SIZE || type == AUX_RSEQ_ALIGN)
          && ptrace (PTRACE_POKEDATA, pid, (void *) p,
                     (void *) (long int) AUX_IGNORE) != 0)
        return errno;
    }
}

int
main (int argc, char **argv)
{
  /* VAR=VALUE words first, as env takes them: the program must be the
     one executed (env in between would get the rewrite instead).  */
  int first = 1;
  while (first < argc && strchr (argv[first], '=') != NULL)
    first++;
  if (first >= argc)
    {
      fprintf (stderr, "usage: hide-auxv [VAR=VALUE...] PROGRAM [ARG...]\n");
      return 2;
    }
  pid_t pid = fork ();
  if (pid < 0)
    {
      fprintf (stderr, "hide-auxv: fork: %s\n", strerror (errno));
      return 125;
    }
  if (pid == 0)
    {
      for (int i = 1; i < first; i++)
        if (putenv (argv[i]) != 0)
          _exit (125);
      /* The exec then stops with SIGTRAP, before the program's first
         instruction.  */
      if (ptrace (PTRACE_TRACEME, 0, NULL, NULL) != 0)
        {
          fprintf (stderr, "hide-auxv: ptrace: %s\n", strerror (errno));
          _exit (125);
        }
      execvp (argv[first], argv + first);
      fprintf (stderr, "hide-auxv: %s: %s\n", argv[first], strerror (errno));
      _exit (127);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid)
    {
      fprintf (stderr, "hide-auxv: waitpid: %s\n", strerror (errno));
      kill (pid, SIGKILL);
      return 125;
    }
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  if (!WIFSTOPPED (status) || WSTOPSIG (status) != SIGTRAP)
    {
      fprintf (stderr, "hide-auxv: the exec did not stop (status %#x)\n",
               (unsigned int) status);
      kill (pid, SIGKILL);
      return 125;
    }
  int err = hide (pid);
  if (err != 0)
    {
      fprintf (stderr, "hide-auxv: auxv: %s\n", strerror (err));
      kill (pid, SIGKILL);
      return 125;
    }
  /* Left alone from here: a traced program differs (LeakSanitizer,
     make check-sanitize's, stops its threads with ptrace itself).  */
  if (ptrace (PTRACE_DETACH, pid, NULL, NULL) != 0)
    {
      fprintf (stderr, "hide-auxv: PTRACE_DETACH: %s\n", strerror (errno));
      kill (pid, SIGKILL);
      return 125;
    }
  while (waitpid (pid, &status, 0) != pid)
    if (errno != EINTR)
      {
        fprintf (stderr, "hide-auxv: waitpid: %s\n", strerror (errno));
        return 125;
      }
  return WIFEXITED (status) ? WEXITSTATUS (status)
                            : 128 + WTERMSIG (status);
}
