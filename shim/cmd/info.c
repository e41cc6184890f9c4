/* rseq-compat info: options; collect, derive, print.
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
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collect-pid.h"
#include "collect-self.h"
#include "common.h"
#include "derive.h"
#include "info.h"
#include "print.h"
#include "procfs.h"
#include "report.h"

static void
info_usage (FILE *out)
{
  fputs ("Usage: rseq-compat info [--json]\n"
         "       rseq-compat info -p PID [--stop | --no-stop] [--timeout=SECONDS]\n"
         "                        [--json]\n"
         "\n"
         "Without -p, report the rseq state of this process: run it as\n"
         "'rseq-compat run rseq-compat info' to see what the shim does.\n"
         "-p PID, --pid PID  report every thread of process PID.\n"
         "--stop             (the default) read each thread's registration\n"
         "                   with ptrace, stopping one thread at a time for\n"
         "                   microseconds: some system calls it sleeps in\n"
         "                   (epoll_wait, sigtimedwait...) fail with EINTR.\n"
         "--no-stop          stop nothing: read only memory (the published\n"
         "                   areas' cpu_id; no length, signature or other\n"
         "                   areas; per thread on glibc only).\n"
         "--timeout=SECONDS  give up, with an error, on a process not read\n"
         "                   within SECONDS (default 30; 0: wait without\n"
         "                   limit): a read may wait on a FUSE or network\n"
         "                   file system that does not answer.\n"
         "--json             one JSON object instead of text; the fields\n"
         "                   are listed in rseq-compat(1).\n"
         "See rseq-compat(1) for the calls that can see EINTR.\n",
         out);
}

static int
info_error (const char *err)
{
  char safe[4 * 2048 + 1];
  /* ERR may quote the target's name.  */
  fprintf (stderr, "rseq-compat: %s\n", info_escape (err, safe, sizeof safe));
  return EXIT_INFO_FAILED;
}

/* Reads process PID (0: this one) and prints the report; READY, where
   not -1, is told when the reading is over (one byte, then closed),
   before anything is printed.  */
static int
info_report_on (pid_t pid, enum info_method method, int json, int ready)
{
  struct info_report *r = calloc (1, sizeof *r);
  if (r == NULL)
    {
      perror ("rseq-compat info");
      return EXIT_INFO_FAILED;
    }
  char err[2048];
  int ret = pid == 0 ? info_self (r)
            : info_pid (pid, method, r, err, sizeof err);
  if (ret == 0)
    info_derive (r);
  if (ready >= 0)
    {
      while (write (ready, "r", 1) < 0 && errno == EINTR)
        ;
      close (ready);
    }
  if (ret != 0)
    {
      free (r->threads);
      free (r);
      return info_error (err);
    }
  if (r->warning[0] != '\0')
    fprintf (stderr, "rseq-compat: warning: %s\n", r->warning);
  if (json)
    print_json (stdout, r);
  else
    print_text (stdout, r);
  free (r->threads);
  free (r);
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      perror ("rseq-compat info: writing the report");
      return EXIT_INFO_FAILED;
    }
  return 0;
}

/* info -p PID, read by a child that is given TIMEOUT seconds (0: no
   limit).  Any read of another process may wait for ever: its memory or
   a file it maps may lie on a FUSE or network file system whose server
   does not answer (through an overlay, or mapped after we looked), and a
   thread of it stuck in the kernel may hold its memory's lock; such a
   wait cannot always be killed (twenty-fifth review: info -p sat in
   state D in filemap_fault, in FUSE's OPEN through overlayfs, and
   behind the mmap lock).  This process waits for the child's word, not
   for the child, and gives up with an error when the time is over.  The
   printing, which a slow reader of our output may hold, is not
   timed.  */
static int
info_watched (pid_t pid, enum info_method method, int json,
              unsigned int timeout)
{
  int p[2];
  if (pipe2 (p, O_CLOEXEC) != 0)
    {
      perror ("rseq-compat info: pipe");
      return EXIT_INFO_FAILED;
    }
  fflush (stdout);
  fflush (stderr);
  pid_t parent = getpid ();
  /* EAGAIN may pass (a process of ours ends): tried again for up to
     800 ms, taken from the time limit.  */
  long long int limit_ms = timeout * 1000LL;
  pid_t child;
  for (int tries = 0;; tries++)
    {
      child = fork ();
      if (child >= 0 || errno != EAGAIN || tries == 4 || limit_ms <= 200)
        break;
      nanosleep (&(struct timespec) { 0, 200000000 }, NULL);
      limit_ms -= 200;
    }
  if (child < 0)
    {
      /* Not read here instead: the limit that stops the fork may be the
         process's to fill (a pids cgroup that root's info shares with
         it, as docker exec gives), and a read here of a process that
         holds its memory behind a FUSE server that does not answer
         waits for ever, whatever --timeout said (twenty-eighth review;
         the twenty-sixth had this read here, without a limit).  What
         is offered instead needs neither a process nor a thread
         (--stop's tracer is one: thirtieth review).  */
      int e = errno;
      close (p[0]);
      close (p[1]);
      fprintf (stderr, "rseq-compat: process %d was not read: rseq-compat "
               "could not start the process that reads it (fork: %s%s); "
               "nothing to report.  --timeout=0 --no-stop reads it in this "
               "process, without a time limit (a FUSE or network file "
               "system server that does not answer, or a thread of it "
               "stuck in the kernel, can then hold rseq-compat for ever)\n",
               (int) pid, strerror (e),
               e == EAGAIN ? ": a limit on processes, RLIMIT_NPROC or a "
                             "pids cgroup, is reached"
               : e == EPERM || e == ENOSYS ? ": a seccomp filter or a "
                                             "security module refuses it"
               : "");
      return EXIT_INFO_FAILED;
    }
  if (child == 0)
    {
      close (p[0]);
      /* Where we are killed (Ctrl-C reaches both; kill names us), the
         child does not go on to print after the shell's prompt: SIGTERM,
         which it holds while a thread of the target is stopped
         (collect-pid.c) and so takes only where that is safe.  */
      prctl (PR_SET_PDEATHSIG, SIGTERM);
      if (getppid () != parent)
        _exit (EXIT_INFO_FAILED);
      exit (info_report_on (pid, method, json, p[1]));
    }
  close (p[1]);
  /* The time is counted in slices of 250 ms, each for no more than it
     asked poll to wait: a stop (Ctrl-Z, then fg) stops the child as
     well, and counted made a process read in a moment "not read
     within" the limit (twenty-sixth review; up to a second of it still
     counted: twenty-seventh).  */
  long long int waited_ms = 0;
  int read_over = 0;
  while (!read_over && waited_ms < limit_ms)
    {
      long long int left = limit_ms - waited_ms;
      int ms = left > 250 ? 250 : (int) left;
      struct timespec t0, t1;
      clock_gettime (CLOCK_MONOTONIC, &t0);
      struct pollfd pfd = { p[0], POLLIN, 0 };
      int n = poll (&pfd, 1, ms);
      clock_gettime (CLOCK_MONOTONIC, &t1);
      long long int took = (t1.tv_sec - t0.tv_sec) * 1000LL
                           + (t1.tv_nsec - t0.tv_nsec) / 1000000;
      waited_ms += took < 0 ? 0 : took > ms ? ms : took;
      /* The word, or the end of a child that failed or died.  */
      if (n > 0)
        read_over = 1;
    }
  /* The word may have come while we were stopped, at the last slice.  */
  if (!read_over)
    read_over = poll (&(struct pollfd) { p[0], POLLIN, 0 }, 1, 0) > 0;
  close (p[0]);
  int status;
  if (!read_over)
    {
      /* SIGTERM first: the child takes it where it holds no thread of
         the process stopped (collect-pid.c), so a signal it took from
         one is given back; SIGKILL where that does not come.  A child
         in an uninterruptible wait dies only when the wait ends: it is
         left to the kernel (init collects it).  */
      int reaped = 0;
      for (int i = 0; i < 30 && !reaped; i++)
        {
          if (i == 0 || i == 10)
            kill (child, i == 0 ? SIGTERM : SIGKILL);
          reaped = waitpid (child, &status, WNOHANG) == child;
          if (!reaped)
            nanosleep (&(struct timespec) { 0, 50000000 }, NULL);
        }
      fprintf (stderr, "rseq-compat: process %d was not read within %u s: "
               "a read of its memory or of a file it maps is waiting, most "
               "likely for a FUSE or network file system server that does "
               "not answer, or behind a thread of it stuck in the kernel "
               "(state D in /proc/%d/task/*/stat); nothing to report%s.  "
               "--timeout=SECONDS waits longer (0: without limit)\n",
               (int) pid, timeout, (int) pid,
               reaped ? "" : " (the reading process is stuck in the kernel "
                             "too, and ends when that wait does)");
      return EXIT_INFO_FAILED;
    }
  /* A job-control stop of the child (SIGTTOU, printing from the
     background under stty tostop) is ours too, so that the shell sees
     the job stopped; the continuation is passed on.  Not SIGSTOP: who
     stopped the child alone may continue it alone, and we would stay
     stopped for ever (twenty-seventh review).  */
  for (;;)
    {
      if (waitpid (child, &status, WUNTRACED) < 0)
        {
          if (errno == EINTR)
            continue;
          perror ("rseq-compat info: waitpid");
          return EXIT_INFO_FAILED;
        }
      if (!WIFSTOPPED (status))
        break;
      /* Not where it was continued since (Ctrl-Z stops us both, and
         fg continues us both before we read of its stop).  */
      char state = proc_task_state (child, child);
      int sig = WSTOPSIG (status);
      if ((state != 'T' && state != 't')
          || (sig != SIGTSTP && sig != SIGTTIN && sig != SIGTTOU))
        continue;
      raise (sig);
      kill (child, SIGCONT);
    }
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  /* Killed (Ctrl-C reached it as it reached us, or it crashed): end as
     it did.  */
  int sig = WTERMSIG (status);
  signal (sig, SIG_DFL);
  sigset_t one;
  sigemptyset (&one);
  sigaddset (&one, sig);
  sigprocmask (SIG_UNBLOCK, &one, NULL);
  raise (sig);
  fprintf (stderr, "rseq-compat: reading process %d: killed by signal %d\n",
           (int) pid, sig);
  return EXIT_INFO_FAILED;
}

int
cmd_info (int argc, char **argv)
{
  int json = 0;
  long int pid = 0;
  unsigned int timeout = 30;
  enum info_method method = METHOD_STOP;
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i], *value = NULL;
      if (strcmp (a, "--json") == 0)
        json = 1;
      else if (strcmp (a, "--stop") == 0)
        method = METHOD_STOP;
      else if (strcmp (a, "--no-stop") == 0)
        method = METHOD_NO_STOP;
      else if (strncmp (a, "--timeout=", 10) == 0 || strcmp (a, "--timeout") == 0)
        {
          const char *t = a[9] == '=' ? a + 10 : i + 1 < argc ? argv[++i] : NULL;
          char *end;
          errno = 0;
          unsigned long int v = t != NULL ? strtoul (t, &end, 10) : 0;
          /* strtoul also takes leading blanks and a sign.  */
          if (t == NULL || !isdigit ((unsigned char) *t) || *end != '\0'
              || errno != 0 || v > 86400)
            {
              fprintf (stderr, "rseq-compat info: --timeout needs a number "
                       "of seconds from 0 (no limit) to 86400\n");
              return EXIT_CANNOT_RUN;
            }
          timeout = (unsigned int) v;
        }
      else if (strcmp (a, "--help") == 0 || strcmp (a, "-h") == 0)
        {
          info_usage (stdout);
          return 0;
        }
      else if (strcmp (a, "-p") == 0 || strcmp (a, "--pid") == 0)
        {
          if (i + 1 >= argc)
            {
              fprintf (stderr, "rseq-compat info: %s needs a process ID\n", a);
              info_usage (stderr);
              return EXIT_CANNOT_RUN;
            }
          value = argv[++i];
        }
      else if (strncmp (a, "--pid=", 6) == 0)
        value = a + 6;
      else if (strncmp (a, "-p", 2) == 0)
        value = a + 2;
      else
        {
          fprintf (stderr, "rseq-compat info: unknown argument '%s'\n", a);
          info_usage (stderr);
          return EXIT_CANNOT_RUN;
        }
      if (value != NULL)
        {
          char *end;
          errno = 0;
          pid = strtol (value, &end, 10);
          /* Digits only: strtol also takes leading blanks and a sign
             (seventy-ninth review).  */
          if (!isdigit ((unsigned char) *value) || *end != '\0' || errno != 0
              || pid <= 0 || pid > INT_MAX)
            {
              fprintf (stderr, "rseq-compat info: '%s' is not a process ID "
                       "(a positive number)\n", value);
              return EXIT_CANNOT_RUN;
            }
        }
    }

  char err[2048];
  pid_t target = (pid_t) pid;
  if (pid != 0 && info_pid_target (&target, err, sizeof err) != 0)
    return info_error (err);
  /* -p of our own process (or of one of our threads) reads it from the
     inside: the kernel refuses a tracer its own thread group (EPERM).  */
  if (pid == 0 || target == getpid ())
    return info_report_on (0, method, json, -1);
  /* No limit: no child needed.  */
  if (timeout == 0)
    return info_report_on (target, method, json, -1);
  return info_watched (target, method, json, timeout);
}
