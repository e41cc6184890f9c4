/* hide-auxv PROGRAM [ARG...]: runs PROGRAM with AT_RSEQ_FEATURE_SIZE
   and AT_RSEQ_ALIGN turned into AT_IGNORE in the auxiliary vector of
   every program it executes, as a kernel before 6.3 hands it out.
   auxv-hidden.exp.
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
   rewritten on the new program's stack at each exec (ptrace's exec
   stop), before any of its code runs: what PROGRAM (often env) runs
   in turn is covered too.  /proc/PID/auxv, the kernel's copy, keeps
   them; the C libraries read the stack's.  */

#define _GNU_SOURCE 1
#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
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
  if (argc < 2)
    {
      fprintf (stderr, "usage: hide-auxv PROGRAM [ARG...]\n");
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
      /* Stopped until the tracer has set its options: the exec must
         stop there as an exec event.  */
      if (ptrace (PTRACE_TRACEME, 0, NULL, NULL) != 0)
        {
          fprintf (stderr, "hide-auxv: ptrace: %s\n", strerror (errno));
          _exit (125);
        }
      raise (SIGSTOP);
      execvp (argv[1], argv + 1);
      fprintf (stderr, "hide-auxv: %s: %s\n", argv[1], strerror (errno));
      _exit (127);
    }
  int status;
  int first = 1;
  while (waitpid (pid, &status, 0) == pid)
    {
      if (WIFEXITED (status))
        return WEXITSTATUS (status);
      if (WIFSIGNALED (status))
        return 128 + WTERMSIG (status);
      int sig = WSTOPSIG (status);
      if (first && sig == SIGSTOP)
        {
          first = 0;
          /* The tracee dies with the tracer: never left running
             without the rewrite.  */
          if (ptrace (PTRACE_SETOPTIONS, pid, NULL,
                      (void *) (long int) (PTRACE_O_TRACEEXEC
                                           | PTRACE_O_EXITKILL)) != 0)
            {
              fprintf (stderr, "hide-auxv: PTRACE_SETOPTIONS: %s\n",
                       strerror (errno));
              kill (pid, SIGKILL);
              return 125;
            }
          sig = 0;
        }
      else if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXEC << 8)))
        {
          int err = hide (pid);
          if (err != 0)
            {
              fprintf (stderr, "hide-auxv: auxv: %s\n", strerror (err));
              kill (pid, SIGKILL);
              return 125;
            }
          sig = 0;
        }
      /* Any other stop is a signal for the program: delivered.  */
      ptrace (PTRACE_CONT, pid, NULL, (void *) (long int) sig);
    }
  fprintf (stderr, "hide-auxv: waitpid: %s\n", strerror (errno));
  return 125;
}
