/* A command's work in a child that is given up after a time.
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

/* enable and disable look names up and read files wherever
   /etc/ld.so.preload and the shim lie, and wherever the entries of the
   file point.  A file system may never answer: a FUSE server that
   stopped, or a hard NFS mount whose server is gone.  A lookup waiting
   for one holds its directory's lock, and another lookup there waits
   for that lock in the kernel, beyond SIGKILL.  Each review found
   another way to reach such a file system without a name of it that a
   mount table shows (an overlay's layer unmounted lazily, shadowed, or
   named from another root: the 124th-127th reviews), so no test of
   names can be whole.  The work runs in a child instead, and the
   command gives up on it after a time, whatever it waits for.  A child
   that is killed while the kernel holds it ends when the kernel lets
   it; until then it must neither hold the caller's descriptors (a
   shell reading the command's output would wait for it too) nor go on
   to change a file after the command has said that nothing was
   changed: it asks before its first change (bounded_gate).  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bounded.h"
#include "procfs.h"

/* The child's ends: what it says to the parent, and the parent's
   answer at the gate.  -1 outside a child.  */
static int ctl_fd = -1, go_fd = -1;

/* Control messages, child to parent: 'S', a lock flag byte and a
   NUL-terminated clause; 'G' (at the gate); 'C' (changed); 'X' and the
   status byte.  The parent's answer at the gate is 'y'.  */

static void
send_all (const void *buf, size_t len)
{
  const char *p = buf;
  while (ctl_fd >= 0 && len > 0)
    {
      ssize_t n = write (ctl_fd, p, len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        /* The parent is gone: it has said what it says; nothing more
           may be done here.  */
        _exit (127);
      p += n;
      len -= (size_t) n;
    }
}

void
bounded_stage (int lock, const char *fmt, ...)
{
  if (ctl_fd < 0)
    return;
  char msg[1024];
  msg[0] = 'S';
  msg[1] = lock ? '1' : '0';
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (msg + 2, sizeof msg - 2, fmt, ap);
  va_end (ap);
  if (n < 0)
    n = 0;
  size_t len = 2 + ((size_t) n < sizeof msg - 2 ? (size_t) n
                    : sizeof msg - 3);
  msg[len] = '\0';
  send_all (msg, len + 1);
}

void
bounded_gate (void)
{
  if (ctl_fd < 0)
    return;
  fflush (stdout);
  fflush (stderr);
  send_all ("G", 1);
  char c;
  ssize_t n;
  while ((n = read (go_fd, &c, 1)) < 0 && errno == EINTR)
    ;
  if (n != 1 || c != 'y')
    _exit (127);
}

void
bounded_changed (void)
{
  send_all ("C", 1);
}

unsigned int
bounded_seconds (unsigned int fallback)
{
  const char *s = getenv ("RSEQ_COMPAT_SYSTEM_TIMEOUT");
  if (s == NULL)
    return fallback;
  unsigned long int v = 0;
  if (*s == '\0')
    return 0;
  for (; *s != '\0'; s++)
    {
      if (*s < '0' || *s > '9' || v > 86400)
        return 0;
      v = v * 10 + (unsigned long int) (*s - '0');
    }
  return v >= 1 && v <= 86400 ? (unsigned int) v : 0;
}

static long long int
now_ms (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (long long int) t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Every descriptor from FIRST up closed: a child left waiting must
   hold none of the caller's (a pipe a shell reads to its end).  Where
   close_range is refused (before Linux 5.9, or a container's seccomp
   profile), those /proc/self/fd lists, else every one below the hard
   limit: the soft one may have been lowered below a descriptor the
   caller holds (the 128th review's 1: the caller's pipe at 15000, the
   soft limit 1024).  */
static void
close_from (int first)
{
#ifdef SYS_close_range
  if (syscall (SYS_close_range, (unsigned int) first, ~0u, 0) == 0)
    return;
#elif defined __x86_64__ || defined __aarch64__
  if (syscall (436, (unsigned int) first, ~0u, 0) == 0)
    return;
#endif
  DIR *d = opendir ("/proc/self/fd");
  if (d != NULL)
    {
      /* Closed after the listing: closing during it may skip names.  */
      int own = dirfd (d), fds[256];
      size_t n;
      do
        {
          n = 0;
          rewinddir (d);
          struct dirent *e;
          while ((e = readdir (d)) != NULL && n < 256)
            {
              char *end;
              long int fd = strtol (e->d_name, &end, 10);
              if (*end == '\0' && e->d_name[0] != '\0' && fd >= first
                  && fd != own)
                fds[n++] = (int) fd;
            }
          for (size_t i = 0; i < n; i++)
            close (fds[i]);
        }
      while (n == 256);
      closedir (d);
      return;
    }
  struct rlimit r;
  rlim_t max = getrlimit (RLIMIT_NOFILE, &r) == 0 ? r.rlim_max : 65536;
  if (max == RLIM_INFINITY || max > (1u << 20))
    max = 1u << 20;
  for (rlim_t fd = (rlim_t) first; fd < max; fd++)
    close ((int) fd);
}

/* Copies what is there to read on FD to OUT; 0 at its end.  */
static int
relay (int fd, FILE *out)
{
  char buf[4096];
  ssize_t n = read (fd, buf, sizeof buf);
  if (n < 0)
    return errno == EINTR || errno == EAGAIN ? 1 : 0;
  if (n == 0)
    return 0;
  fwrite (buf, 1, (size_t) n, out);
  if (out == stderr)
    fflush (stderr);
  return 1;
}

/* What is left to read on FD (non-blocking), copied to OUT.  */
static void
drain (int fd, FILE *out)
{
  char buf[4096];
  for (;;)
    {
      ssize_t n = read (fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      fwrite (buf, 1, (size_t) n, out);
    }
  if (out == stderr)
    fflush (stderr);
}

/* The child's status once it has ended, waiting until DEADLINE at
   most; -1 where it has not (it is left to init).  */
static int
reap (pid_t pid, long long int deadline)
{
  for (;;)
    {
      int st;
      pid_t r = waitpid (pid, &st, WNOHANG);
      if (r == pid)
        return st;
      if (r < 0 && errno != EINTR)
        return -1;
      if (now_ms () >= deadline)
        return -1;
      usleep (10000);
    }
}

/* The child, for the parent's handler of the signals that end a
   command: they are passed on, so that the child ends as the command
   did before it had one (an edit under way is finished first:
   replace_preload's mask), and the parent then ends alike.  A signal
   the caller ignores stays ignored, in both (the 129th review's F1: a
   nohup enable ended by a hangup).  */
static volatile pid_t child;
static volatile sig_atomic_t got_signal, continued;
static const int passed_on[] = { SIGHUP, SIGINT, SIGTERM };

static void
pass_on (int sig)
{
  int e = errno;
  got_signal = sig;
  if (child > 0)
    kill (child, sig);
  errno = e;
}

/* A command stopped (^Z, then fg) is given the time it was stopped
   back: the limit is for a file system's silence, not the user's (the
   128th review's 6).  Only the time it was stopped: a SIGCONT alone
   gives nothing (the 129th review's F5).  */
static void
on_cont (int sig)
{
  (void) sig;
  continued = 1;
}

/* Whether process PID is stopped (SIGSTOP, a debugger).  */
static int
stopped (pid_t pid)
{
  char state = proc_task_state (pid, pid);
  return state == 'T' || state == 't';
}

/* Ends this process by SIG as the child ended, as the command itself
   would have before it had one (a kill during the edit: 143).  */
static void
end_as (int sig)
{
  fflush (stdout);
  sigset_t one;
  sigemptyset (&one);
  sigaddset (&one, sig);
  signal (sig, SIG_DFL);
  sigprocmask (SIG_UNBLOCK, &one, NULL);
  raise (sig);
}

/* poll, or where a seccomp filter refuses it, ppoll (aarch64's glibc
   calls only that).  */
static int
wait_ready (struct pollfd *p, nfds_t n, int ms)
{
  int r = poll (p, n, ms);
  if (r < 0 && errno == ENOSYS)
    {
      struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
      r = ppoll (p, n, &t, NULL);
    }
  return r;
}

/* The descriptors the child writes its output to: OUT and ERR's write
   ends, or one pipe for both where our standard output and error are
   one file (a terminal, 2>&1): the order of their lines is then kept
   whatever the parent reads first (the 129th review's F7).  */
static int
one_target (void)
{
  struct stat a, b;
  return fstat (1, &a) == 0 && fstat (2, &b) == 0 && a.st_dev == b.st_dev
         && a.st_ino == b.st_ino && a.st_rdev == b.st_rdev;
}

int
bounded_run (int (*body) (void *), void *arg, unsigned int seconds,
             const char *who, const char *needs, int failed)
{
  int out[2] = { -1, -1 }, err[2] = { -1, -1 }, ctl[2] = { -1, -1 },
      go[2] = { -1, -1 };
  int one = one_target (), tty = isatty (1), e = 0;
  if (pipe2 (out, O_CLOEXEC) != 0
      || (!one && pipe2 (err, O_CLOEXEC) != 0)
      || pipe2 (ctl, O_CLOEXEC) != 0 || pipe2 (go, O_CLOEXEC) != 0)
    e = errno;
  /* The child is the caller's child as it would have been: SIGCHLD
     ignored reaps it unasked, and its status is lost (the 129th
     review's F2).  The child gets the caller's back.  */
  struct sigaction dfl = { .sa_handler = SIG_DFL }, oldchld;
  sigemptyset (&dfl.sa_mask);
  sigaction (SIGCHLD, &dfl, &oldchld);
  fflush (stdout);
  fflush (stderr);
  pid_t pid = -1;
  if (e == 0 && (pid = fork ()) < 0)
    e = errno;
  if (pid < 0)
    {
      sigaction (SIGCHLD, &oldchld, NULL);
      int *ends[] = { out, err, ctl, go };
      for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++)
          if (ends[i][j] >= 0)
            close (ends[i][j]);
      /* Only fork's failure stops what needs a child: without the
         pipes (a tiny RLIMIT_NOFILE: the 129th review's F3) the work
         can still make its own.  */
      if (needs != NULL && e != EMFILE && e != ENFILE && ctl[0] >= 0
          && go[0] >= 0)
        {
          fprintf (stderr, "%s: cannot make a child process (%s): %s\n",
                   who, strerror (e), needs);
          return failed;
        }
      fprintf (stderr, "%s: warning: cannot make %s for the work (%s), so "
               "it runs without a time limit: a file system on the way "
               "that does not answer holds this command until it does\n",
               who, go[0] >= 0 ? "a child process" : "the pipes to a child "
               "process", strerror (e));
      return body (arg);
    }
  if (pid == 0)
    {
      sigaction (SIGCHLD, &oldchld, NULL);
      /* Above every descriptor the caller may hold: dup2 keeps them
         apart from 0-2 and from each other.  3 and 4 are kept from the
         programs the work runs (the 129th review's F8: one wrote the
         status).  */
      if (dup2 (out[1], 1) < 0 || dup2 (one ? out[1] : err[1], 2) < 0
          || dup2 (ctl[1], 3) < 0 || dup2 (go[0], 4) < 0
          || fcntl (3, F_SETFD, FD_CLOEXEC) != 0
          || fcntl (4, F_SETFD, FD_CLOEXEC) != 0)
        _exit (failed);
      ctl_fd = 3;
      go_fd = 4;
      close_from (5);
      int null = open ("/dev/null", O_RDONLY);
      if (null > 0)
        {
          dup2 (null, 0);
          close (null);
        }
      /* Lines reach a terminal as they did without the pipe (the 128th
         review's 5: a warning came before the line it follows).  */
      if (tty)
        setvbuf (stdout, NULL, _IOLBF, 0);
      int rc = body (arg);
      fflush (stdout);
      fflush (stderr);
      unsigned char x[2] = { 'X', (unsigned char) rc };
      send_all (x, 2);
      _exit (rc);
    }
  close (out[1]);
  if (!one)
    close (err[1]);
  close (ctl[1]);
  close (go[0]);
  fcntl (out[0], F_SETFL, O_NONBLOCK);
  if (!one)
    fcntl (err[0], F_SETFL, O_NONBLOCK);
  /* A parent writing to the gate of a child killed meanwhile must not
     die of it.  */
  struct sigaction ign = { .sa_handler = SIG_IGN }, old, oldcont;
  sigaction (SIGPIPE, &ign, &old);
  child = pid;
  got_signal = 0;
  continued = 0;
  /* SA_RESTART: a write to a full pipe that a signal interrupts is
     not cut short (the 129th review's F6).  */
  struct sigaction fwd = { .sa_handler = pass_on, .sa_flags = SA_RESTART },
                   was[3];
  sigemptyset (&fwd.sa_mask);
  for (int i = 0; i < 3; i++)
    {
      sigaction (passed_on[i], NULL, &was[i]);
      if (was[i].sa_handler != SIG_IGN)
        sigaction (passed_on[i], &fwd, NULL);
    }
  struct sigaction cont = { .sa_handler = on_cont, .sa_flags = SA_RESTART };
  sigemptyset (&cont.sa_mask);
  sigaction (SIGCONT, &cont, &oldcont);

  long long int deadline = now_ms () + 1000LL * seconds, woke = now_ms ();
  int phase = 0, lock = 0, rc = -1, ended = 0, cut = 0, broken = 0;
  static char stage[1024], msg[1024];
  size_t mlen = 0;
  strcpy (stage, "while starting");
  struct pollfd p[3] = { { .fd = out[0], .events = POLLIN },
                         { .fd = one ? -1 : err[0], .events = POLLIN },
                         { .fd = ctl[0], .events = POLLIN } };
  while (!ended)
    {
      long long int t = now_ms ();
      /* Each wait is a second at most: more between two wakes is the
         time this command was stopped.  */
      if (continued)
        {
          continued = 0;
          if (t - woke > 1000)
            deadline += t - woke - 1000;
        }
      woke = t;
      /* A signal that ends the command ends the checks at once: the
         child has it too, and gets a second to end by it (one in D
         state cannot: the 128th review's 3).  The change, once begun,
         is waited for: it ends when the file is whole.  */
      if (got_signal != 0 && phase == 0 && !cut)
        {
          cut = 1;
          if (deadline > t + 1000)
            deadline = t + 1000;
        }
      long long int left = deadline - t;
      if (left <= 0)
        break;
      int n = wait_ready (p, 3, left > 1000 ? 1000 : (int) left);
      if (n < 0 && errno != EINTR)
        {
          broken = errno;
          break;
        }
      if (n <= 0)
        continue;
      if (p[0].revents != 0 && !relay (out[0], one ? stderr : stdout))
        p[0].fd = -1;
      if (p[1].revents != 0 && !relay (err[0], stderr))
        p[1].fd = -1;
      if (p[2].revents == 0)
        continue;
      char buf[512];
      ssize_t r = read (ctl[0], buf, sizeof buf);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        {
          /* Ended without its status: exit () of its own, or a
             signal.  */
          ended = 2;
          break;
        }
      for (ssize_t i = 0; i < r; i++)
        {
          if (mlen < sizeof msg)
            msg[mlen++] = buf[i];
          char k = msg[0];
          if (k == 'S' && (buf[i] != '\0' || mlen < 3))
            continue;
          if (k == 'X' && mlen < 2)
            continue;
          if (k == 'S')
            {
              lock = msg[1] == '1';
              memcpy (stage, msg + 2, mlen - 2);
            }
          else if (k == 'G')
            {
              if (write (go[1], "y", 1) == 1)
                {
                  phase = 1;
                  deadline = now_ms () + 1000LL * seconds;
                }
            }
          else if (k == 'C')
            phase = 2;
          else if (k == 'X')
            {
              rc = (unsigned char) msg[1];
              ended = 1;
            }
          mlen = 0;
        }
    }
  /* All it wrote before its status is in the pipes.  */
  drain (out[0], one ? stderr : stdout);
  close (out[0]);
  if (!one)
    {
      drain (err[0], stderr);
      close (err[0]);
    }
  close (ctl[0]);
  close (go[1]);
  sigaction (SIGPIPE, &old, NULL);
  sigaction (SIGCONT, &oldcont, NULL);
  for (int i = 0; i < 3; i++)
    sigaction (passed_on[i], &was[i], NULL);
  child = 0;
  if (ended == 1)
    {
      reap (pid, now_ms () + 1000);
      sigaction (SIGCHLD, &oldchld, NULL);
      return rc;
    }
  if (ended == 2)
    {
      int st = reap (pid, deadline > now_ms () + 1000 ? deadline
                     : now_ms () + 1000);
      sigaction (SIGCHLD, &oldchld, NULL);
      if (st >= 0 && WIFEXITED (st))
        return WEXITSTATUS (st);
      if (st >= 0 && WIFSIGNALED (st))
        end_as (WTERMSIG (st));
      fprintf (stderr, "%s: the process that did the work ended without a "
               "status%s\n", who, phase == 0 ? "; nothing was changed"
               : phase == 1 ? "; the change may or may not have been "
                 "made: look before running it again"
               : "; the change was made");
      return failed;
    }
  int halted = stopped (pid);
  kill (pid, SIGKILL);
  if (broken != 0)
    fprintf (stderr, "%s: cannot wait for the process that does the work "
             "(poll: %s)%s (process %d, killed)\n", who, strerror (broken),
             phase == 0 ? "; nothing was changed"
             : phase == 1 ? "; the change may or may not have been made: "
               "look before running it again"
             : "; the change was made", (int) pid);
  else if (cut)
    fprintf (stderr, "%s: ended by a signal %s; nothing was changed "
             "(process %d, left waiting, ends once it can)\n", who, stage,
             (int) pid);
  else if (phase == 0)
    fprintf (stderr, "%s: gave up after %u s %s%s; nothing was changed "
             "(process %d, left waiting, ends once it can; "
             "RSEQ_COMPAT_SYSTEM_TIMEOUT=SECONDS waits longer)\n", who,
             seconds, stage, halted ? ", as it was stopped (SIGSTOP, or a "
             "debugger)" : lock ? "" : ": a file system there does not "
             "answer (a FUSE server, or a network file system, that "
             "stopped answering)", (int) pid);
  else
    fprintf (stderr, "%s: gave up after %u s %s%s%s (process %d, left "
             "waiting, ends once it can)\n", who, seconds, stage,
             halted ? ", as it was stopped (SIGSTOP, or a debugger)" : "",
             phase == 1 ? ": the change may or may not have been made: "
             "look before running it again"
             : ", after the change was made", (int) pid);
  reap (pid, now_ms () + 100);
  sigaction (SIGCHLD, &oldchld, NULL);
  if (cut)
    end_as (got_signal);
  return failed;
}
