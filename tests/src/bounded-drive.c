/* Drives shim/cmd/bounded.c's bounded_run with works that a test can
   make hang, talk, block signals or die at each step.
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

/* Usage: bounded-drive WORK MARKER [enable]

   Runs WORK in bounded_run, its limit RSEQ_COMPAT_SYSTEM_TIMEOUT (30 s
   where unset), as enable ("enable": a child is needed) or disable
   would.  The work's "change" creates MARKER.  After bounded_run the
   driver prints "returned N" on standard error.  The real command's
   works cannot be made to hang or die at every step from outside
   (the 130th review): these can.

   WORK: fill (no work: standard output, a pipe, is filled), talk (a line on each output), change-talk (the change, then a
   line), print-hang (a line, then a hang before any change), blocksig
   (SIGHUP, SIGINT and SIGTERM blocked, MARKER.ready made, the SIGTERM
   its parent passes on awaited, then the change), blocksig-hang (those
   signals blocked, the change, then a hang), closectl (its pipe to the
   parent closed without a status, then a hang), closectl-hold (the
   same with those signals blocked), slow (4 s, then "done"), segv
   (the change, then SIGSEGV), fault (the change, then a write to
   address 0), abort (the change, then abort ()), stdin (prints what its standard input
   is), high-fd (prints whether descriptor DRIVE_FD is open), hold
   (those signals blocked, then a hang before the gate).

   DRIVE_PTY set: standard error is a terminal whose reader has
   stopped, with less room left than hold's words (poll says it can be
   written).  DRIVE_BLOCK_ALRM, DRIVE_BLOCK_PIPE, DRIVE_BLOCK_TERM set:
   SIGALRM, SIGPIPE, SIGTERM blocked, as a caller may leave them.  DRIVE_PIDFILE: the child
   writes its PID there first.  At the end, a standard output that could not be written
   is said, as the command says it.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bounded.h"

/* bounded.c asks whether its child is stopped; procfs.c would bring
   the command's other files.  */
char
proc_task_state (pid_t pid, pid_t tid)
{
  char path[96], buf[512];
  snprintf (path, sizeof path, "/proc/%d/task/%d/stat", (int) pid,
            (int) tid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
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

static const char *work, *marker;
/* 0, read at run time: a compiler that saw the null address would
   write a trap instruction (SIGILL) in place of the access.  */
static volatile uintptr_t fault_address;

static void
change (void)
{
  bounded_stage (0, "while changing the marker");
  bounded_gate ();
  int fd = open (marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0)
    close (fd);
  bounded_changed ();
}

static void
block_ending_signals (void)
{
  sigset_t s;
  sigemptyset (&s);
  sigaddset (&s, SIGHUP);
  sigaddset (&s, SIGINT);
  sigaddset (&s, SIGTERM);
  sigprocmask (SIG_BLOCK, &s, NULL);
}

/* Says it is ready (MARKER.ready), then waits, 10 s at most, for the
   SIGTERM its parent passes on: the test's signal has then reached
   the parent before the gate.  */
static void
await_sigterm (void)
{
  char ready[4096];
  snprintf (ready, sizeof ready, "%s.ready", marker);
  int fd = open (ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd >= 0)
    close (fd);
  for (int i = 0; i < 1000; i++)
    {
      sigset_t p;
      if (sigpending (&p) == 0 && sigismember (&p, SIGTERM) == 1)
        return;
      usleep (10000);
    }
}

static int
body (void *arg)
{
  (void) arg;
  const char *pidfile = getenv ("DRIVE_PIDFILE");
  if (pidfile != NULL)
    {
      FILE *f = fopen (pidfile, "w");
      if (f != NULL)
        {
          fprintf (f, "%d\n", (int) getpid ());
          fclose (f);
        }
    }
  if (strcmp (work, "slow") == 0)
    {
      sleep (4);
      printf ("done\n");
      return 0;
    }
  if (strcmp (work, "talk") == 0)
    {
      printf ("out line\n");
      fprintf (stderr, "err line\n");
      return 0;
    }
  if (strcmp (work, "change-talk") == 0)
    {
      change ();
      printf ("changed\n");
      return 0;
    }
  if (strcmp (work, "print-hang") == 0)
    {
      bounded_stage (0, "while hanging");
      printf ("before the hang\n");
      sleep (600);
      return 0;
    }
  if (strcmp (work, "blocksig") == 0 || strcmp (work, "blocksig-hang") == 0)
    {
      block_ending_signals ();
      if (strcmp (work, "blocksig") == 0)
        await_sigterm ();
      change ();
      if (strcmp (work, "blocksig-hang") == 0)
        {
          bounded_stage (0, "while hanging after the change");
          sleep (600);
        }
      return 0;
    }
  if (strcmp (work, "hold") == 0)
    {
      block_ending_signals ();
      /* Words longer than a terminal's step of room (DRIVE_PTY).  */
      char pad[961];
      memset (pad, '.', sizeof pad - 1);
      pad[sizeof pad - 1] = '\0';
      bounded_stage (0, "while holding %s", pad);
      sleep (600);
      return 0;
    }
  if (strcmp (work, "closectl") == 0
      || strcmp (work, "closectl-hold") == 0)
    {
      /* Its pipe to the parent (descriptor 3, bounded_run's) closed
         without a status, the child still there.  */
      if (strcmp (work, "closectl-hold") == 0)
        block_ending_signals ();
      close (3);
      sleep (600);
      return 0;
    }
  /* A real fault, and abort, as the work's own: no signal of theirs
     may be dropped where the child ignores the faults (as init).  */
  if (strcmp (work, "fault") == 0)
    {
      change ();
      *(volatile int *) (uintptr_t) fault_address = 1;
      return 0;
    }
  if (strcmp (work, "abort") == 0)
    {
      change ();
      abort ();
    }
  if (strcmp (work, "segv") == 0)
    {
      change ();
      signal (SIGSEGV, SIG_DFL);
      raise (SIGSEGV);
      return 0;
    }
  if (strcmp (work, "stdin") == 0)
    {
      struct stat st;
      if (fstat (0, &st) != 0)
        printf ("stdin closed\n");
      else
        printf ("stdin %lu:%lu\n", (unsigned long int) st.st_dev,
                (unsigned long int) st.st_ino);
      return 0;
    }
  if (strcmp (work, "high-fd") == 0)
    {
      int fd = atoi (getenv ("DRIVE_FD") != NULL ? getenv ("DRIVE_FD")
                     : "5000");
      printf ("fd %d %s\n", fd, fcntl (fd, F_GETFD) >= 0 ? "open"
              : "closed");
      return 0;
    }
  fprintf (stderr, "FAIL bounded-drive: no work %s\n", work);
  return 125;
}

/* Bytes written to the terminal FD without blocking, LIMIT at most.  */
static size_t
fill_to (int fd, size_t limit)
{
  size_t n = 0;
  while (n < limit && write (fd, "x", 1) == 1)
    n++;
  return n;
}

/* Standard error made a terminal (a pty whose master this process
   keeps and never reads again) with some room, less than the words
   after a signal (hold's, over 1000 bytes): its buffer is filled, and
   one byte read frees a piece of it (the kernel frees whole pieces),
   measured by filling it again; a few bytes at a time are then read
   until poll sees room: about that piece.  0 when made, 1 when the
   piece was not 1 to 999 bytes (STEP), -1 on an error, said.  */
static int
pty_try (size_t *step)
{
  int m = posix_openpt (O_RDWR | O_NOCTTY);
  if (m < 0 || grantpt (m) != 0 || unlockpt (m) != 0)
    {
      fprintf (stderr, "FAIL bounded-drive: no pty: %s\n", strerror (errno));
      return -1;
    }
  int s = open (ptsname (m), O_RDWR | O_NOCTTY | O_NONBLOCK);
  char c;
  if (s < 0)
    {
      fprintf (stderr, "FAIL bounded-drive: %s: %s\n", ptsname (m),
               strerror (errno));
      return -1;
    }
  fill_to (s, (size_t) -1);
  if (read (m, &c, 1) != 1)
    return -1;
  usleep (50000);
  *step = fill_to (s, (size_t) -1);
  if (*step == 0 || *step >= 1000)
    {
      close (s);
      close (m);
      return 1;
    }
  struct pollfd w = { .fd = s, .events = POLLOUT };
  /* Read a little at a time until poll sees room: a piece again.  */
  for (int i = 0; i < 200 && poll (&w, 1, 0) == 0; i++)
    {
      char b[16];
      if (read (m, b, sizeof b) <= 0)
        return -1;
      usleep (5000);
    }
  if (poll (&w, 1, 0) != 1 || fcntl (s, F_SETFL, O_RDWR) != 0
      || dup2 (s, 2) != 2)
    {
      fprintf (stderr, "FAIL bounded-drive: the pty is not writable\n");
      return -1;
    }
  close (s);
  return 0;
}

/* A few ptys are tried: on a loaded machine the kernel's work that
   moves a pty's bytes along may run between the read and the second
   fill, and a whole 4096-byte page is then free (the 142nd review saw
   it once, four test lanes beside it).  */
static int
pty_stderr (void)
{
  size_t step = 0;
  for (int i = 0; i < 20; i++)
    {
      int r = pty_try (&step);
      if (r <= 0)
        return r;
    }
  fprintf (stderr, "FAIL bounded-drive: a byte read from a pty freed %zu "
           "bytes, not 1 to 999, in 20 ptys\n", step);
  return -1;
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "FAIL usage: bounded-drive WORK MARKER [enable]\n");
      return 125;
    }
  work = argv[1];
  marker = argv[2];
  if (strcmp (work, "fill") == 0)
    {
      /* Standard output, a pipe, filled to its last byte whatever its
         size, and left blocking: the next writer waits for a reader.  */
      int fl = fcntl (1, F_GETFL);
      if (fl < 0 || fcntl (1, F_SETFL, fl | O_NONBLOCK) != 0)
        return 125;
      static char buf[4096];
      memset (buf, 'x', sizeof buf);
      size_t n = sizeof buf;
      while (n > 0)
        if (write (1, buf, n) < 0)
          n /= 2;
      return fcntl (1, F_SETFL, fl) != 0 ? 125 : 0;
    }
  const char *fd = getenv ("DRIVE_FD");
  if (fd != NULL)
    {
      /* The caller's descriptor above both limits, lowered after it
         was opened.  */
      struct rlimit r = { 1024, 1024 };
      if (dup2 (1, atoi (fd)) < 0 || setrlimit (RLIMIT_NOFILE, &r) != 0)
        {
          fprintf (stderr, "FAIL bounded-drive: descriptor %s: %s\n", fd,
                   strerror (errno));
          return 125;
        }
    }
  if (getenv ("DRIVE_PTY") != NULL && pty_stderr () != 0)
    return 125;
  sigset_t a;
  sigemptyset (&a);
  if (getenv ("DRIVE_BLOCK_ALRM") != NULL)
    sigaddset (&a, SIGALRM);
  if (getenv ("DRIVE_BLOCK_PIPE") != NULL)
    sigaddset (&a, SIGPIPE);
  if (getenv ("DRIVE_BLOCK_TERM") != NULL)
    sigaddset (&a, SIGTERM);
  sigprocmask (SIG_BLOCK, &a, NULL);
  unsigned int s = bounded_seconds (30);
  int enable = argc > 3 && strcmp (argv[3], "enable") == 0;
  int rc = bounded_run (body, NULL, s, "bounded-drive",
                        enable ? "the work needs one" : NULL, 1);
  errno = 0;
  if (fflush (stdout) != 0 || ferror (stdout))
    fprintf (stderr, "bounded-drive: cannot write to standard output: "
             "%s\n", strerror (errno != 0 ? errno : EIO));
  fprintf (stderr, "returned %d\n", rc);
  return rc;
}
