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
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bounded.h"
#include "procfs.h"

/* procfs's f_type (linux/magic.h's PROC_SUPER_MAGIC).  */
#define PROC_FS_MAGIC 0x9fa0

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

static int wait_ready (struct pollfd *p, nfds_t n, int ms);

/* Every descriptor from FIRST up closed: a child left waiting must
   hold none of the caller's (a pipe a shell reads to its end).  Where
   close_range is refused (before Linux 5.9, or a container's seccomp
   profile), those /proc/self/fd lists, else every one below the hard
   limit: the soft one may have been lowered below a descriptor the
   caller holds (the 128th review's 1: the caller's pipe at 15000, the
   soft limit 1024), and above the hard one too (the 130th review's
   11), up to fs.nr_open's default at least.  */
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
  /* Only procfs's list: another file system mounted there (an empty
     directory in a chroot's image) lists nothing, and every descriptor
     stayed (the 134th review's F4).  */
  DIR *d = opendir ("/proc/self/fd");
  struct statfs fs;
  if (d != NULL
      && (fstatfs (dirfd (d), &fs) != 0 || fs.f_type != PROC_FS_MAGIC))
    {
      closedir (d);
      d = NULL;
    }
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
  struct rlimit r = { 1, 0 };
  getrlimit (RLIMIT_NOFILE, &r);
  rlim_t max = r.rlim_max, each = r.rlim_max;
  if (max == RLIM_INFINITY || max > (1u << 24))
    max = 1u << 24;
  if (max < (1u << 20))
    max = 1u << 20;
  if (each > (1u << 20))
    each = 1u << 20;
  /* Below the hard limit (and fs.nr_open's default) each one is
     closed: poll takes an O_PATH descriptor for none (the 132nd
     review's 1).  */
  rlim_t fd = (rlim_t) first;
  for (; fd < each; fd++)
    close ((int) fd);
  /* Above, poll says which are open, many at a time (POLLNVAL: not
     open), no more at once than the soft limit: a close of each
     possible one up to 1<<24 took 39 s (the 131st review's 3, the
     133rd's 2).  Only an O_PATH one there is left.  The time is not
     the work's: the limit starts at the child's first word
     (bounded_run).  */
  nfds_t batch = r.rlim_cur < 256 ? (nfds_t) r.rlim_cur : 256;
  if (batch < 1)
    batch = 1;
  struct pollfd p[256];
  while (fd < max)
    {
      nfds_t k = 0;
      for (; k < batch && fd < max; k++, fd++)
        p[k] = (struct pollfd) { .fd = (int) fd, .events = 0 };
      int known = wait_ready (p, k, 0) >= 0;
      for (nfds_t i = 0; i < k; i++)
        if (!known || !(p[i].revents & POLLNVAL))
          close (p[i].fd);
    }
}

/* The child, for the parent's handler of the signals that end a
   command: they are passed on, so that the child ends as the command
   did before it had one (an edit under way is finished first:
   replace_preload's mask), and the parent then ends alike.  A signal
   the caller ignores stays ignored, in both (the 129th review's F1: a
   nohup enable ended by a hangup).  */
static volatile pid_t child;
static volatile sig_atomic_t got_signal, continued, in_write;
/* Which of passed_on this process handles (pass_on), and how.  */
static int handled[3];
static struct sigaction forward;
/* A write of the command's own words met a reader gone (EPIPE).  */
static int words_broke;
/* By descriptor (1, 2): 1 after a signal that ends the command (the
   child's output for it is read and dropped), 2 where a write to it
   failed (the rest goes through stdio).  */
static int mute[3];
static const int passed_on[] = { SIGHUP, SIGINT, SIGTERM };

/* The signals that end a command taken by their default action (ON),
   or by pass_on again.  Within a write to the caller: the kernel wakes
   a write that waits killably (standard error a file on a FUSE file
   system that stopped answering) only for a signal that kills, which
   a handled one is not (the 135th review's F1: SIGTERM, then even a
   second one, left the command waiting; alone it ended at once).  The
   child, not told then, has PR_SET_PDEATHSIG.  */
static void
ending_default (int on)
{
  struct sigaction dfl = { .sa_handler = SIG_DFL };
  sigemptyset (&dfl.sa_mask);
  for (int i = 0; i < 3; i++)
    if (handled[i])
      sigaction (passed_on[i], on ? &dfl : &forward, NULL);
}

static void
pass_on (int sig)
{
  int e = errno;
  got_signal = sig;
  if (child > 0)
    kill (child, sig);
  /* Within a write to the caller, which may block for as long as the
     reader likes (a full pipe, a terminal stopped by ^S), whether or
     not it has begun: the command ends now, as it did alone (the
     131st review's 1-2: a signal just before the write, or the words
     after one, waited for the reader).  The signal, blocked in here,
     is taken as the handler returns.  */
  if (in_write)
    {
      struct sigaction dfl = { .sa_handler = SIG_DFL };
      sigemptyset (&dfl.sa_mask);
      sigaction (sig, &dfl, NULL);
      raise (sig);
    }
  errno = e;
}

/* The child's status once it has ended, waiting until DEADLINE at
   most, or a second after a signal that ends the command, which is
   passed on meanwhile (the 132nd review's 3); -1 where it has not (it
   is left to init).  */
static int
reap (pid_t pid, long long int deadline)
{
  child = pid;
  int st = -1;
  for (;;)
    {
      pid_t r = waitpid (pid, &st, WNOHANG);
      if (r == pid)
        break;
      st = -1;
      long long int t = now_ms ();
      if ((r < 0 && errno != EINTR) || t >= deadline)
        break;
      if (got_signal != 0 && deadline > t + 1000)
        deadline = t + 1000;
      usleep (10000);
    }
  child = 0;
  return st;
}

/* The child of a PID namespace's init: every signal init alone was
   shielded from (the kernel gives init none at its default action) is
   ignored, as the work in init took none; not the ending three alone
   (the 138th review's F1: ^\, ^Z or kill -USR1 -1 in a container
   ended or stopped the work), and the faults too (the 140th review's
   1: kill -SEGV, or kill -ABRT -1, ended the work, and mid-edit would
   leave the temporary copy).  Ignored, not caught: a handler would cut
   its sleeps and waits short (EINTR; the 141st review's 1: a dropped
   SIGSEGV every millisecond ended /etc's 30-second lock wait in one),
   and an ignored signal stays ignored in the programs it runs, which
   a handler would not.  A real fault is no less fatal: the kernel
   forces it, back at its default action (a bad access, a trap, an
   invalid instruction, seccomp's SIGSYS), and abort restores SIGABRT's
   before it raises it again.  SIGCHLD stays for its waits; SIGKILL and
   SIGSTOP, which the kernel keeps from init alone, cannot be.  */
static void
shield_as_init (void)
{
  for (int sig = 1; sig < NSIG; sig++)
    {
      struct sigaction a;
      if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD
          && sigaction (sig, NULL, &a) == 0 && a.sa_handler == SIG_DFL)
        signal (sig, SIG_IGN);
    }
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

/* Whether process PID, a child, is stopped (SIGSTOP, a debugger).
   The kernel tells a stop by a signal (WNOWAIT: it stays to be told);
   a debugger's is told to the debugger alone, so /proc then, where it
   is this PID namespace's: under unshare --pid without its own /proc,
   or a container sharing the host's, the child's number there is
   another process (the 140th review's 2: a child stopped by SIGSTOP
   was said to be a file system that did not answer).  There, a
   debugger's stop is not told (the 141st review's 4).  */
static int
stopped (pid_t pid)
{
  siginfo_t si;
  memset (&si, 0, sizeof si);
  if (waitid (P_PID, (id_t) pid, &si, WSTOPPED | WNOHANG | WNOWAIT) == 0
      && si.si_pid == pid)
    return 1;
  char self[32];
  ssize_t n = readlink ("/proc/self", self, sizeof self - 1);
  if (n <= 0)
    return 0;
  self[n] = '\0';
  if (strtol (self, NULL, 10) != (long int) getpid ())
    return 0;
  char state = proc_task_state (pid, pid);
  return state == 'T' || state == 't';
}

/* Ends this process by SIG as the child ended, as the command itself
   would have before it had one (a kill during the edit: 143).  */
static void
end_as (int sig)
{
  /* Its default action first: a flush that waits for a file system
     then ends on the next such signal.  What stdio holds after a signal
     that ends the command is dropped, as other output after it is (the
     136th review's B1: the flush waited for a FUSE server that stopped
     reading, the signal spent).  */
  signal (sig, SIG_DFL);
  if (got_signal == 0)
    fflush (stdout);
  sigset_t one;
  sigemptyset (&one);
  sigaddset (&one, sig);
  sigprocmask (SIG_UNBLOCK, &one, NULL);
  raise (sig);
}

/* poll, or where a seccomp filter refuses it, ppoll (aarch64's glibc
   calls only that).  A filter may answer ENOSYS or EPERM (the 130th
   review's 10).  */
static int
wait_ready (struct pollfd *p, nfds_t n, int ms)
{
  int r = poll (p, n, ms);
  if (r < 0 && (errno == ENOSYS || errno == EPERM || errno == EACCES))
    {
      struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };
      r = ppoll (p, n, &t, NULL);
    }
  return r;
}

/* BUF's N bytes written to TO, the caller's descriptor: the child's
   output, or where WORDS the command's own.  A write that blocks (a
   full pipe, a terminal stopped by ^S) holds only the parent, and its
   time is given back (bounded_run); a signal that ends the command
   ends it there (pass_on), as the command alone ended at once (the
   130th review's 4; in_write is set before the look at got_signal: the
   131st's 2, the 132nd's 2).  After such a signal the child's output
   is dropped, and the words are written only where they can be at
   once (the 131st's 1: ^S held a command ended by SIGTERM).  */
static void
put (int to, const char *buf, size_t n, int words)
{
  struct pollfd w = { .fd = to, .events = POLLOUT };
  FILE *f = to == 1 ? stdout : stderr;
  in_write = 1;
  /* Through stdio after a failed write: within the default action's
     window too (the 136th review's B1: standard error, unbuffered,
     written at once).  */
  if (!words && mute[to] != 0)
    {
      if (mute[to] == 2 && got_signal == 0)
        {
          ending_default (1);
          fwrite (buf, 1, n, f);
          ending_default (0);
        }
      in_write = 0;
      return;
    }
  pid_t dog = -1;
  if (n > 0 && got_signal != 0)
    {
      in_write = 0;
      if (!words)
        {
          mute[to] = 1;
          return;
        }
      /* Room that poll sees means a byte at least, not the words' (a
         terminal whose reader stopped: the 134th review's F1), and a
         poll or write to a file on a silent file system waits for its
         server: the words get a second, then a process of their own
         sends the signal again, which now kills (ending_default).  Not
         a timer's SIGALRM: a caller may have blocked it (the 135th
         review's F3).  Without that process, no words.  */
      pid_t me = getpid ();
      dog = fork ();
      if (dog == 0)
        {
          prctl (PR_SET_PDEATHSIG, SIGKILL);
          if (getppid () == me)
            {
              struct timespec one = { 1, 0 };
              while (nanosleep (&one, &one) != 0 && errno == EINTR)
                ;
              kill (me, got_signal);
            }
          _exit (0);
        }
      if (dog < 0)
        return;
      in_write = 1;
    }
  ending_default (1);
  /* POLLERR alone (a pipe without a reader) is no room.  Not a regular
     file's: always ready, but on FUSE a poll the server must answer,
     which no signal ends (the 135th review's F1).  */
  struct stat st;
  if (dog > 0 && fstat (to, &st) == 0 && !S_ISREG (st.st_mode)
      && (wait_ready (&w, 1, 0) != 1 || (w.revents & POLLOUT) == 0))
    n = 0;
  while (n > 0)
    {
      ssize_t r = write (to, buf, n);
      if (r < 0 && errno == EINTR)
        continue;
      /* The caller's descriptor set non-blocking: waited for as a
         blocking one would be, but not after a signal.  */
      if (r < 0 && errno == EAGAIN && got_signal == 0)
        {
          wait_ready (&w, 1, 1000);
          continue;
        }
      if (r < 0 && errno == EPIPE && words)
        words_broke = 1;
      if (r <= 0)
        break;
      buf += r;
      n -= (size_t) r;
    }
  /* A write that failed (a full disk, a closed pipe): the rest goes
     through stdio, which keeps the error for the command's check of
     its output at exit ("cannot write to standard output", the
     thirty-fifth review), as when the parent wrote only there.  */
  if (n > 0 && !words)
    {
      mute[to] = 2;
      fwrite (buf, 1, n, f);
    }
  ending_default (0);
  in_write = 0;
  /* Not waited for: its exit closes its copy of the caller's
     descriptor, which on FUSE may wait for the server.  The command
     ends now; init reaps it.  */
  if (dog > 0)
    kill (dog, SIGKILL);
}

/* Copies what is there to read on FD to TO, all of it where ALL, else
   one read's worth; 0 at its end.  */
static int
relay (int fd, int to, int all)
{
  char buf[4096];
  do
    {
      ssize_t n = read (fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return errno == EAGAIN;
      if (n == 0)
        return 0;
      put (to, buf, (size_t) n, 0);
    }
  while (all);
  return 1;
}

/* The descriptors the child writes its output to: OUT and ERR's write
   ends, or one pipe for both where our standard output and error are
   one file (a terminal, 2>&1): the order of their lines is then kept
   whatever the parent reads first (the 129th review's F7).  */
static int
one_target (void)
{
  struct stat a, b;
  /* Both open for writing: a standard output opened to read only
     fails alone, whatever file it is (the 134th review's F5: its
     lines went to standard error).  */
  int fa = fcntl (1, F_GETFL), fb = fcntl (2, F_GETFL);
  return fa >= 0 && fb >= 0 && (fa & O_ACCMODE) != O_RDONLY
         && (fb & O_ACCMODE) != O_RDONLY && fstat (1, &a) == 0
         && fstat (2, &b) == 0 && a.st_dev == b.st_dev
         && a.st_ino == b.st_ino && a.st_rdev == b.st_rdev;
}

/* The words for what became of the change: PHASE as bounded_run
   counts.  */
static const char *
change_words (int phase)
{
  return phase == 0 ? "; nothing was changed"
         : phase == 1 ? "; the change may or may not have been made: look "
           "before running it again"
         : "; the change was made";
}

/* The command's own words, on standard error (put).  */
static void
say (const char *fmt, ...)
{
  char buf[2048];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  if (n > 0)
    put (2, buf, (size_t) n < sizeof buf ? (size_t) n : sizeof buf - 1, 1);
}

/* Standard input for the child: the caller's is not held (a socket or
   terminal its peer waits on), even where /dev/null is missing (a
   chroot without /dev: the 130th review's 2).  */
static void
no_input (void)
{
  int fd = open ("/dev/null", O_RDONLY);
  if (fd < 0)
    {
      int p[2];
      if (pipe (p) != 0)
        {
          close (0);
          return;
        }
      close (p[1]);
      fd = p[0];
    }
  if (fd != 0)
    {
      dup2 (fd, 0);
      close (fd);
    }
}

int
bounded_run (int (*body) (void *), void *arg, unsigned int seconds,
             const char *who, const char *needs, int failed)
{
  int out[2] = { -1, -1 }, err[2] = { -1, -1 }, ctl[2] = { -1, -1 },
      go[2] = { -1, -1 };
  int one = one_target (), e = 0;
  const char *lacks = NULL;
  /* The parent waits with poll: where a filter refuses both it and
     ppoll, there is no limit to keep, as without the pipes.  */
  if (wait_ready (NULL, 0, 0) != 0)
    lacks = "cannot wait for a child process";
  else if (pipe2 (out, O_CLOEXEC) != 0
           || (!one && pipe2 (err, O_CLOEXEC) != 0)
           || pipe2 (ctl, O_CLOEXEC) != 0 || pipe2 (go, O_CLOEXEC) != 0)
    lacks = "cannot make the pipes to a child process";
  if (lacks != NULL)
    e = errno;
  /* The child is the caller's child as it would have been: SIGCHLD
     ignored reaps it unasked, and its status is lost (the 129th
     review's F2).  The child gets the caller's back.  */
  struct sigaction dfl = { .sa_handler = SIG_DFL }, oldchld;
  sigemptyset (&dfl.sa_mask);
  sigaction (SIGCHLD, &dfl, &oldchld);
  fflush (stdout);
  fflush (stderr);
  pid_t pid = -1, parent = getpid ();
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
         pipes or poll (a tiny RLIMIT_NOFILE: the 129th review's F3; a
         filter) the work can still make its own children.  */
      if (needs != NULL && lacks == NULL)
        {
          fprintf (stderr, "%s: cannot make a child process (%s): %s\n",
                   who, strerror (e), needs);
          return failed;
        }
      fprintf (stderr, "%s: warning: %s for the work (%s), so it runs "
               "without a time limit: a file system on the way that does "
               "not answer holds this command until it does\n", who,
               lacks != NULL ? lacks : "cannot make a child process",
               strerror (e));
      return body (arg);
    }
  if (pid == 0)
    {
      sigaction (SIGCHLD, &oldchld, NULL);
      /* A parent killed as it writes to the caller (ending_default),
         or by SIGKILL, passes nothing on: the signal comes this way,
         and an edit under way is finished first all the same
         (replace_preload's mask).  */
      /* One the caller neither ignores nor blocks (the 136th review's
         C1, the 137th's F2: SIGTERM ignored or blocked, the child ran
         on after a SIGHUP); where none is left, the child ends at its
         next word to the parent.  The child of a PID namespace's init
         takes none of them, as init's work alone took none (the 137th
         review's F1: a ^C to the group, or kill -1, ended the work and
         the command said nothing); init's end ends the namespace.  */
      int death = 0;
      sigset_t blocked;
      if (sigprocmask (SIG_BLOCK, NULL, &blocked) != 0)
        sigfillset (&blocked);
      if (parent == 1)
        shield_as_init ();
      else
        for (int i = 0; i < 3; i++)
          {
            struct sigaction a;
            if (sigaction (passed_on[i], NULL, &a) == 0
                && a.sa_handler != SIG_IGN
                && sigismember (&blocked, passed_on[i]) != 1)
              death = passed_on[i];
          }
      if ((death != 0 && prctl (PR_SET_PDEATHSIG, death) != 0)
          || getppid () != parent)
        _exit (failed);
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
      no_input ();
      /* Lines reach a terminal as they did without the pipe (the 128th
         review's 5: a warning came before the line it follows), and
         the caller as they are written: a line held in a full buffer
         was lost with a child given up on (the 130th review's 5).  */
      setvbuf (stdout, NULL, _IOLBF, 0);
      /* Its first word starts the limit: close_from's time, long
         without close_range and /proc, is not the work's.  */
      bounded_stage (0, "while starting");
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
  /* A parent writing to the gate of a child killed meanwhile, or to a
     caller's pipe closed, must not die of it.  */
  struct sigaction ign = { .sa_handler = SIG_IGN }, old, oldcont;
  sigaction (SIGPIPE, &ign, &old);
  /* A SIGPIPE the caller blocked never ended the command alone (the
     136th review's A1).  */
  sigset_t mask;
  int pipe_blocked = sigprocmask (SIG_BLOCK, NULL, &mask) == 0
                     && sigismember (&mask, SIGPIPE) == 1;
  child = pid;
  got_signal = 0;
  continued = 0;
  mute[1] = mute[2] = 0;
  /* No SA_RESTART: a write to the caller that blocks must end on the
     signal (put).  Every call here takes EINTR.  */
  struct sigaction was[3];
  forward = (struct sigaction) { .sa_handler = pass_on };
  sigemptyset (&forward.sa_mask);
  words_broke = 0;
  for (int i = 0; i < 3; i++)
    {
      sigaction (passed_on[i], NULL, &was[i]);
      /* A PID namespace's init (a container's command) never gets
         these with their default action: caught, one ended the work
         and then not the command (the 136th review's D1).  */
      handled[i] = was[i].sa_handler != SIG_IGN && getpid () != 1;
      if (handled[i])
        sigaction (passed_on[i], &forward, NULL);
    }
  struct sigaction cont = { .sa_handler = on_cont, .sa_flags = SA_RESTART };
  sigemptyset (&cont.sa_mask);
  sigaction (SIGCONT, &cont, &oldcont);

  /* Until the child's first word, a minute more: close_from's loops,
     without close_range and /proc, under a hard limit of 1<<30 (a
     container) took seconds (the 134th review's F6).  */
  long long int deadline = now_ms () + 1000LL * seconds + 60000,
                woke = now_ms ();
  int phase = 0, lock = 0, rc = -1, ended = 0, cut = 0, broken = 0;
  int refused = 0, last = 0, started = 0;
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
         is waited for: it ends when the file is whole; what comes
         after it, is not (the 134th review's F2: disable's look at
         the file after its change, on a silent file system, held a
         SIGTERM for the whole limit).  */
      if (got_signal != 0 && phase != 1 && !cut)
        {
          cut = 1;
          if (deadline > t + 1000)
            deadline = t + 1000;
        }
      long long int left = deadline - t;
      /* At the limit, one more look without waiting: what the child
         said meanwhile (its end, its change) is not lost to it.  */
      if (left > 0)
        last = 0;
      else if (last)
        break;
      else
        {
          last = 1;
          left = 0;
        }
      /* During the change the output waits in its pipes: a write to
         the caller that blocks, and a signal that then ends the
         command at once (pass_on), must not come before the change
         is whole (the 132nd review's 4).  */
      p[0].events = p[1].events = phase == 1 ? 0 : POLLIN;
      int n = wait_ready (p, 3, left > 1000 ? 1000 : (int) left);
      if (n < 0 && errno != EINTR)
        {
          broken = errno;
          break;
        }
      if (n <= 0)
        continue;
      /* The time the caller's output held this process is not the
         work's (the 130th review's 1: ^S, or a full pipe, past the
         limit blamed a file system).  */
      long long int w0 = now_ms ();
      if (phase != 1 && p[0].revents != 0
          && !relay (out[0], one ? 2 : 1, 0))
        p[0].fd = -1;
      if (phase != 1 && p[1].revents != 0 && !relay (err[0], 2, 0))
        p[1].fd = -1;
      /* Closed during the change: poll says so at once, every time
         (the 133rd review's 4); what is left there is read at the
         end.  */
      for (int i = 0; i < 2; i++)
        if (phase == 1 && (p[i].revents & (POLLHUP | POLLERR)) != 0)
          p[i].fd = -1;
      woke = now_ms ();
      deadline += woke - w0;
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
      /* Not after a signal: its second stands (the 133rd review's
         1).  */
      if (!started)
        {
          started = 1;
          if (!cut)
            deadline = now_ms () + 1000LL * seconds;
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
          /* Not after a signal that ended the checks: the command ends
             by it, having changed nothing (the 130th review's 6).  */
          else if (k == 'G' && (cut || got_signal != 0))
            refused = 1;
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
      /* Refused: the child reads the gate's end of file and ends.  */
      if (refused && go[1] >= 0)
        {
          close (go[1]);
          go[1] = -1;
        }
    }
  /* Given up on: killed before its output is read to its end, which
     a child that writes without end never reaches (the 131st review's
     5).  */
  int halted = 0;
  if (!ended)
    {
      halted = stopped (pid);
      kill (pid, SIGKILL);
    }
  /* All it wrote before its status, or its kill, is in the pipes.  */
  relay (out[0], one ? 2 : 1, 1);
  close (out[0]);
  if (!one)
    {
      relay (err[0], 2, 1);
      close (err[0]);
    }
  close (ctl[0]);
  if (go[1] >= 0)
    close (go[1]);
  sigaction (SIGCONT, &oldcont, NULL);
  /* The handlers stay until the words are said: a signal while they
     wait for the reader ends the command (pass_on).  */
  child = 0;
  int st = reap (pid, ended == 2 && deadline > now_ms () + 1000 ? deadline
                 : now_ms () + 1000);
  /* Its pipe closed, yet not ended: it is not left running, nor
     unreaped (the 133rd review's 5).  */
  int killed_here = 0;
  if (st < 0 && ended == 2)
    {
      kill (pid, SIGKILL);
      st = reap (pid, now_ms () + 1000);
      killed_here = 1;
    }
  int sig = ended == 2 && !killed_here && st >= 0 && WIFSIGNALED (st)
            ? WTERMSIG (st) : 0;
  int ending = 0;
  for (int i = 0; i < 3; i++)
    ending |= sig != 0 && sig == passed_on[i];
  /* Gone without its status, by a signal that does not end a command
     (the OOM killer, a kill -9 of the child): said, with what became
     of the change, and not raised here (the 130th review's 8: a
     SIGSEGV dumped the parent's core).  Ended by one that does (a kill
     of the child alone: pkill finds both), or at the gate after one:
     the command ends by it, silently, as it did alone.  */
  if (ended == 2 && !refused && !ending && !(st >= 0 && WIFEXITED (st)))
    {
      /* Killed here, its status is this command's doing (the 135th
         review's note: "ended without a status").  */
      if (killed_here)
        say ("%s: the process that did the work (%d) went silent without "
             "a status and was %s%s\n", who, (int) pid, st >= 0 ? "killed"
             : "killed, but is left waiting, ends once it can",
             change_words (phase));
      else if (sig != 0)
        say ("%s: the process that did the work (%d) was killed by signal "
             "%d (%s)%s\n", who, (int) pid, sig, strsignal (sig),
             change_words (phase));
      else
        say ("%s: the process that did the work (%d) ended without a "
             "status%s\n", who, (int) pid, change_words (phase));
    }
  else if (!ended)
    {
      /* Whether it is gone or left to the kernel (a lookup in D state)
         is said as it is (the 130th review's 9).  */
      char what[96];
      snprintf (what, sizeof what, st >= 0 ? "process %d, killed"
                : "process %d, left waiting, ends once it can", (int) pid);
      if (broken != 0)
        say ("%s: cannot wait for the process that does the work (poll: "
             "%s)%s (%s)\n", who, strerror (broken), change_words (phase),
             what);
      else if (cut)
        say ("%s: ended by a signal %s%s (%s)\n", who, stage,
             change_words (phase), what);
      else if (phase == 0)
        say ("%s: gave up after %u s %s%s; nothing was changed (%s; "
             "RSEQ_COMPAT_SYSTEM_TIMEOUT=SECONDS waits longer)\n", who,
             started ? seconds : seconds + 60, stage, halted ? ", as it was stopped (SIGSTOP, or a "
             "debugger)" : lock ? "" : ": a file system there does not "
             "answer (a FUSE server, or a network file system, that "
             "stopped answering)", what);
      else
        say ("%s: gave up after %u s %s%s%s (%s)\n", who, seconds, stage,
             halted ? ", as it was stopped (SIGSTOP, or a debugger)" : "",
             phase == 1 ? ": the change may or may not have been made: "
             "look before running it again"
             : ", after the change was made", what);
    }
  for (int i = 0; i < 3; i++)
    sigaction (passed_on[i], &was[i], NULL);
  sigaction (SIGCHLD, &oldchld, NULL);
  /* Only now, after the words: a signal that came after the child's
     end (in reap's wait) must not end the command by SIGPIPE instead
     (the 134th review's F3, the 135th's F2).  Words that met a reader
     gone end it by SIGPIPE where it had its default action, as the
     command alone ended.  */
  sigaction (SIGPIPE, &old, NULL);
  /* A signal that ends the command ends it, once the child has ended
     or been given up on, whatever the phase (the 130th review's 4 and
     7, the 131st's 4).  */
  if (got_signal != 0)
    end_as (got_signal);
  if (ending)
    end_as (sig);
  if (words_broke && old.sa_handler == SIG_DFL && !pipe_blocked)
    end_as (SIGPIPE);
  if (ended == 1)
    return rc;
  if (ended == 2 && st >= 0 && WIFEXITED (st))
    return WEXITSTATUS (st);
  return failed;
}
