/* rseq-compat info -p: another process, by the method asked for.
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

/* The process-wide facts come from /proc and memory (collect-proc.c)
   whatever the method; the threads from ptrace (collect-ptrace.c, the
   default) or from memory alone (collect-nostop.c, --no-stop).  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

#include "collect-nostop.h"
#include "collect-pid.h"
#include "collect-proc.h"
#include "collect-ptrace.h"
#include "permission.h"
#include "procfs.h"
#include "report.h"

static int
fail (char *err, size_t errlen, int code, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

static int
fail (char *err, size_t errlen, int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (err, errlen, fmt, ap);
  va_end (ap);
  return code;
}

static int
denied (pid_t pid, int stop, char *err, size_t errlen)
{
  char hint[1536];
  if (permission_hint (pid, stop, hint, sizeof hint) == ESRCH)
    return fail (err, errlen, ESRCH, "process %d exited while it was being "
                 "read; nothing to report", (int) pid);
  return fail (err, errlen, EPERM, "cannot read process %d: permission "
               "denied: %s", (int) pid, hint);
}

/* The error RET of reading /proc/PID in words: denied, or the process
   gone, or as it is.  */
static int
explain (int ret, pid_t pid, int stop, char *err, size_t errlen)
{
  if (ret == EACCES || ret == EPERM)
    return denied (pid, stop, err, errlen);
  if (ret != 0 && !proc_alive (pid))
    return fail (err, errlen, ESRCH, "process %d exited while it was being "
                 "read; nothing to report", (int) pid);
  return ret;
}

int
info_pid_target (pid_t *pid, char *err, size_t errlen)
{
  char dir[64], v[64];
  struct stat st;
  snprintf (dir, sizeof dir, "/proc/%d", (int) *pid);
  char hint[1024];
  /* Fortieth review: with another PID namespace's /proc, another
     process's files were read and the kernel's own attached.  */
  if (proc_mismatch_hint (hint, sizeof hint))
    return fail (err, errlen, EINVAL, "cannot read process %d: %s",
                 (int) *pid, hint);
  /* Fortieth review: with /proc mounted hidepid, a live process was
     said to have exited.  */
  if ((stat (dir, &st) != 0 || proc_identity (*pid, &(struct proc_identity)
                                              { 0 }) != 0)
      && hidden_hint (*pid, hint, sizeof hint) == 0)
    return fail (err, errlen, EPERM, "cannot read process %d: %s", (int) *pid,
                 hint);
  if (stat (dir, &st) != 0)
    return fail (err, errlen, ESRCH, "no process with PID %d: check the "
                 "number with 'ps -p %d' (it may have exited)", (int) *pid,
                 (int) *pid);
  /* A thread id: report its whole process.  */
  if (proc_status_field (dir, "Tgid", v, sizeof v) == 0 && atoi (v) > 0
      && atoi (v) != *pid)
    *pid = atoi (v);
  /* A kernel thread has no memory of its own to read (its mem file
     answers ESRCH, which would read as "no such process").  */
  if (proc_kernel_thread (dir) == 1)
    return fail (err, errlen, EINVAL, "process %d is a kernel thread: it "
                 "has no user memory, C library or rseq registration; "
                 "nothing to report", (int) *pid);
  return 0;
}

/* Adds a warning to R's, after those there are.  */
static void __attribute__ ((format (printf, 2, 3)))
warn (struct info_report *r, const char *fmt, ...)
{
  size_t len = strlen (r->warning);
  if (len > 0 && len + 2 < sizeof r->warning)
    {
      memcpy (r->warning + len, "; ", 3);
      len += 2;
    }
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (r->warning + len, sizeof r->warning - len, fmt, ap);
  va_end (ap);
}

int
info_pid (pid_t pid, enum info_method method, struct info_report *r,
          char *err, size_t errlen)
{
  char dir[64];
  snprintf (dir, sizeof dir, "/proc/%d", (int) pid);
  r->pid = pid;
  /* Everything is read from /proc/PID by name: where the process exits
     and its PID goes to another during the read, the rest of what is
     read is the other's, and root's child opened files as the other's
     user (twenty-second review).  The start time, the same before and
     after everything was read, says it was one process all along; and
     the places of its program, stack and heap and its program's file,
     that it ran no other (twenty-third review: an exec during the read
     reported one program's C library with the other's threads).  */
  struct proc_identity started, ended;
  char hint[1024];
  if (proc_identity (pid, &started) != 0)
    return hidden_hint (pid, hint, sizeof hint) == 0
           ? fail (err, errlen, EPERM, "cannot read process %d: %s",
                   (int) pid, hint)
           : fail (err, errlen, ESRCH, "no process with PID %d any more: "
                   "it exited", (int) pid);
  if (!proc_alive (pid))
    {
      char ppid[32] = "?";
      proc_status_field (dir, "PPid", ppid, sizeof ppid);
      return fail (err, errlen, ESRCH, "process %d has exited (a zombie "
                   "that its parent, process %s, has not collected yet); "
                   "there is nothing left to read", (int) pid, ppid);
    }

  /* Nothing may interrupt rseq-compat while it holds a thread stopped
     (a signal it took from the thread is given back on detach): these
     are blocked, and the thread that holds each in turn lets them in
     between two (collect-ptrace.c).  --no-stop holds nothing.  */
  sigset_t block, old;
  sigemptyset (&block);
  int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP,
                 SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ,
                 SIGVTALRM, SIGPROF };
  if (method != METHOD_NO_STOP)
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      sigaddset (&block, sigs[i]);
  sigprocmask (SIG_BLOCK, &block, &old);

  /* The main thread may have exited (pthread_exit) while the others
     run: then its memory and maps are gone, a live thread's are not.
     The thread chosen may exit before it is read (the main thread, just
     then): it is chosen again, twice at most, while the process lives
     (twenty-fourth review: "cannot read /proc/PID/auxv: No such
     process" of a live process).  A thread's registered area outside
     the maps read just before says the maps are older than the threads
     (a program that is starting: its C library maps and registers the
     areas): everything is read again, twice at most (52nd review: about
     one read in 200 beside a process that runs itself every millisecond
     showed such areas as "unmapped memory" and the mode as
     unavailable), then reported with a warning.  */
  int ret = ESRCH, threads_read = 0, mm_changed = 0, maps_old = 0;
  for (int attempt = 0;
       attempt < 3 && ret == ESRCH && (!threads_read || maps_old);
       attempt++)
    {
      if (attempt > 0)
        {
          /* Nothing of the attempt before may stay in the report.  */
          free (r->threads);
          memset (r, 0, sizeof *r);
          r->pid = pid;
          threads_read = 0;
          mm_changed = 0;
        }
      maps_old = 0;
      char live[64];
      snprintf (live, sizeof live, "/proc/%d", (int) pid);
      if (proc_state_dead (proc_task_state (pid, pid)))
        {
          size_t n = 0;
          pid_t *tids = proc_list_tasks (pid, &n);
          for (size_t i = 0; tids != NULL && i < n; i++)
            if (!proc_state_dead (proc_task_state (pid, tids[i])))
              {
                snprintf (live, sizeof live, "/proc/%d/task/%d", (int) pid,
                          (int) tids[i]);
                break;
              }
          free (tids);
        }

      struct proc p;
      ret = proc_open (&p, pid, live, err, errlen);
      /* The live thread chosen may exit before its files are opened:
         chosen again (fortieth review: "cannot open
         /proc/PID/task/TID/mem: No such file or directory").  */
      if (ret == ENOENT && strchr (live + 6, '/') != NULL)
        ret = proc_alive (pid)
              ? fail (err, errlen, ESRCH, "process %d: the thread chosen "
                      "to read it exited each time (three tries), its "
                      "threads come and go too fast; run info -p again",
                      (int) pid)
              : fail (err, errlen, ESRCH, "process %d exited while it was "
                      "being read; nothing to report", (int) pid);
      else
        ret = explain (ret, pid, method == METHOD_STOP, err, errlen);
      if (ret == 0)
        {
          ret = explain (proc_describe (&p, r, err, errlen), pid,
                         method == METHOD_STOP, err, errlen);
          if (ret == 0)
            {
              threads_read = 1;
              ret = method == METHOD_NO_STOP
                    ? nostop_read_threads (&p, r, err, errlen)
                    : ptrace_read_threads (&p, r, err, errlen);
              if (ret == 0 && !proc_same_mm (&p))
                mm_changed = 1;
              if (ret == 0 && p.areas_unmapped != 0 && attempt < 2)
                {
                  maps_old = 1;
                  /* What is said if the process is gone before the next
                     read (54th review: nothing was, an uninitialised
                     message printed).  */
                  ret = fail (err, errlen, ESRCH, "process %d exited while "
                              "it was being read; nothing to report",
                              (int) pid);
                }
              /* Three times: not a map read too early, or not only.  A
                 thread whose area another unmapped keeps it registered
                 until it next runs (and is killed then), and an area
                 registered through a tagged pointer (AArch64's tagged
                 address ABI, x86's LAM) is in no map by that address:
                 reported as read, as before, with the reason.  */
              else if (ret == 0 && p.areas_unmapped != 0)
                warn (r, "%lu of process %d's threads' rseq areas lay "
                      "outside its memory map, read again for that (shown "
                      "as \"unmapped memory\"): it is starting a program "
                      "or changing its memory (run info -p again), or an "
                      "area was unmapped under a thread that registered it "
                      "(which kills that thread when it next runs: --stop "
                      "makes it run), or registered through a tagged "
                      "pointer", p.areas_unmapped, (int) pid);
              if (ret == 0 && p.fuse_skipped != 0)
                warn (r, "%lu read%s of process %d's memory left out: it "
                      "lies in files on FUSE, whose servers rseq-compat does "
                      "not ask (one that does not answer would hold it for "
                      "ever); what is there shows as unknown",
                      p.fuse_skipped, p.fuse_skipped == 1 ? "" : "s",
                      (int) pid);
            }
          proc_close (&p);
        }
      if (ret == ESRCH && !proc_alive (pid))
        break;
    }

  /* A process that dies as it is read (one whose area was unmapped
     under a thread, which --stop lets run) may leave the last attempt
     with a raw "No such process" from a thread chosen while its others
     were still listed: said plainly once it is gone (a tenth of a
     second given to its exit; glibc 2.17's tier).  A live process's
     answers (starting a program, mid-exec) stay as they are.  */
  for (int i = 0; ret == ESRCH && i < 10 && proc_alive (pid); i++)
    nanosleep (&(struct timespec) { 0, 10000000 }, NULL);
  if (ret == ESRCH && !proc_alive (pid))
    ret = fail (err, errlen, ESRCH, "process %d exited while it was being "
                "read; nothing to report", (int) pid);

  if (ret == 0
      && (mm_changed || proc_identity (pid, &ended) != 0
          || !proc_identity_same (&started, &ended)))
    {
      ret = fail (err, errlen, ESRCH, "process %d exited or ran another "
                  "program (exec) while it was being read (its PID may name "
                  "another process now); nothing to report: run info -p "
                  "again", (int) pid);
    }
  sigprocmask (SIG_SETMASK, &old, NULL);
  return ret;
}
