/* Preloaded into rseq-compat info -p: the failures that cannot be staged.
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

/* Interposes ptrace.  At the first PTRACE_GET_RSEQ_CONFIGURATION, with
   INFO_HOOK set to
     eio    the request fails with EIO, as on Linux before 5.13, for
            every thread;
     kill   the target (INFO_HOOK_PID) gets SIGKILL and the hook waits
            until it is a zombie before the real request: the process
            exits while it is being read;
     term   rseq-compat sends itself SIGTERM while it holds a thread
            stopped;
  and at every such request, with INFO_HOOK set to
     slow   the request waits 20 ms first: every thread is held that
            much longer, long enough for a watcher reading /proc to see
            each hold.
   Interposes open and openat too.  At the first open of a process's
   mem file (/proc/PID/mem, /proc/PID/task/TID/mem) or the first
   PTRACE_SEIZE or PTRACE_ATTACH that the kernel refuses, with
   INFO_HOOK set to
     refused  a byte is written to the descriptor INFO_HOOK_FD (the
              target, of another user, exits when it reads it and its
              parent collects it at once), and the hook waits until the
              process is gone before it answers: the process exits
              between the refusal and its explanation;
     refused-mm  the same, but the hook waits only until the thread
              has given up its memory (no VmSize in its status), which
              it does first when it exits: with much memory to free,
              the explanation comes while it is still exiting.
   Everything else goes to the system call unchanged (rseq-compat uses
   no PTRACE_PEEK* request, the only ones glibc's wrapper treats
   differently).  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fired;

static char
state_of (int pid)
{
  char path[64], buf[512];
  snprintf (path, sizeof path, "/proc/%d/stat", pid);
  int fd = open (path, O_RDONLY);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  char *p = strrchr (buf, ')');
  return p != NULL && p[1] == ' ' ? p[2] : 0;
}

/* Whether thread PID still has its memory: 0 once it is gone too.  */
static int
has_memory (int pid)
{
  char path[64], buf[4096];
  snprintf (path, sizeof path, "/proc/%d/status", pid);
  int fd = (int) syscall (SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  return strstr (buf, "\nVmSize:") != NULL;
}

/* Lets the target exit (INFO_HOOK_FD), then waits until PID is gone,
   or with MM until it has given up its memory.  */
static void
refused (int pid, int mm)
{
  fired = 1;
  int fd = atoi (getenv ("INFO_HOOK_FD") ? getenv ("INFO_HOOK_FD") : "-1");
  if (fd >= 0 && write (fd, "", 1) == 1)
    for (int i = 0; i < 5000 && (mm ? has_memory (pid) : state_of (pid) != 0);
         i++)
      {
        struct timespec us = { 0, mm ? 50000 : 1000000 };
        nanosleep (&us, NULL);
      }
}

/* INFO_HOOK's "refused" (0) or "refused-mm" (1); -1 for any other.  */
static int
refusing (void)
{
  const char *hook = getenv ("INFO_HOOK");
  return hook == NULL ? -1 : strcmp (hook, "refused") == 0 ? 0
         : strcmp (hook, "refused-mm") == 0 ? 1 : -1;
}

static int
hooked_openat (int dirfd, const char *path, int flags, mode_t mode)
{
  int fd = (int) syscall (SYS_openat, dirfd, path, flags, mode);
  int pid = 0, end = 0;
  if (fd < 0 && (errno == EACCES || errno == EPERM) && !fired
      && refusing () >= 0
      && sscanf (path, "/proc/%d/%n", &pid, &end) == 1 && end > 0
      && strlen (path) >= 4 && strcmp (path + strlen (path) - 4, "/mem") == 0)
    {
      int e = errno;
      refused (pid, refusing ());
      errno = e;
    }
  return fd;
}

static mode_t
mode_arg (int flags, va_list ap)
{
#ifdef O_TMPFILE
  if ((flags & O_TMPFILE) == O_TMPFILE)
    return va_arg (ap, mode_t);
#endif
  return (flags & O_CREAT) != 0 ? va_arg (ap, mode_t) : 0;
}

int
open (const char *path, int flags, ...)
{
  va_list ap;
  va_start (ap, flags);
  mode_t mode = mode_arg (flags, ap);
  va_end (ap);
  return hooked_openat (AT_FDCWD, path, flags, mode);
}

#ifdef __GLIBC__
int
open64 (const char *path, int flags, ...)
{
  va_list ap;
  va_start (ap, flags);
  mode_t mode = mode_arg (flags, ap);
  va_end (ap);
  return hooked_openat (AT_FDCWD, path, flags | O_LARGEFILE, mode);
}
#endif

int
openat (int dirfd, const char *path, int flags, ...)
{
  va_list ap;
  va_start (ap, flags);
  mode_t mode = mode_arg (flags, ap);
  va_end (ap);
  return hooked_openat (dirfd, path, flags, mode);
}

#ifdef __GLIBC__
long int
ptrace (enum __ptrace_request request, ...)
#else
long int
ptrace (int request, ...)
#endif
{
  va_list ap;
  va_start (ap, request);
  pid_t pid = va_arg (ap, pid_t);
  void *addr = va_arg (ap, void *);
  void *data = va_arg (ap, void *);
  va_end (ap);

  const char *hook = getenv ("INFO_HOOK");
  if (!fired && refusing () >= 0
      && (request == PTRACE_SEIZE || request == PTRACE_ATTACH))
    {
      long int ret = syscall (SYS_ptrace, request, pid, addr, data);
      if (ret == 0 || errno != EPERM)
        return ret;
      refused (pid, refusing ());
      errno = EPERM;
      return -1;
    }
  if ((int) request == 0x420f && hook != NULL)
    {
      if (strcmp (hook, "eio") == 0)
        {
          errno = EIO;
          return -1;
        }
      if (!fired && strcmp (hook, "kill") == 0)
        {
          int target = atoi (getenv ("INFO_HOOK_PID") ? getenv ("INFO_HOOK_PID")
                                                      : "0");
          fired = 1;
          if (target > 0 && kill (target, SIGKILL) == 0)
            for (int i = 0; i < 5000; i++)
              {
                char s = state_of (target);
                if (s == 0 || s == 'Z' || s == 'X')
                  break;
                struct timespec ms = { 0, 1000000 };
                nanosleep (&ms, NULL);
              }
        }
      if (!fired && strcmp (hook, "term") == 0)
        {
          fired = 1;
          kill (getpid (), SIGTERM);
        }
      if (strcmp (hook, "slow") == 0)
        {
          struct timespec ms20 = { 0, 20000000 };
          nanosleep (&ms20, NULL);
        }
    }
  return syscall (SYS_ptrace, request, pid, addr, data);
}
