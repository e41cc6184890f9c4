/* rseq-compat info -p: every thread's registration, read with ptrace.
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

/* Linux 5.13 added PTRACE_GET_RSEQ_CONFIGURATION for CRIU: in a
   ptrace-stop it returns the area, length, signature and flags a thread
   registered.  Each thread is attached on its own with PTRACE_SEIZE,
   stopped with PTRACE_INTERRUPT, read, and detached at once, so at most
   one thread is held, for microseconds.  A thread that was in a
   signal-delivery-stop gets its signal back on detach; one that was
   stopped (SIGSTOP) before stays stopped, the kernel sees to that.
   Termination signals are blocked while a thread is held and act after
   it is released; if rseq-compat is killed anyway (SIGKILL), the kernel
   detaches its tracees, which resume.

   The thread pointer (read from the registers) tells whose area a
   registration is: glibc's at thread pointer + glibc's __rseq_offset,
   the shim's at thread pointer + the shim's.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rseq-layout.h>
#include <sys/rseq.h>

#include "collect-proc.h"
#include "collect-ptrace.h"
#include "permission.h"
#include "procfs.h"
#include "report.h"

#define REQ_GET_RSEQ_CONFIGURATION 0x420f
#define REQ_SEIZE 0x4206
#define REQ_INTERRUPT 0x4207
#define EVENT_STOP 128
#ifndef NT_ARM_TLS
# define NT_ARM_TLS 0x401
#endif

/* What the kernel returns (include/uapi/linux/ptrace.h).  */
struct rseq_configuration
{
  uint64_t rseq_abi_pointer;
  uint32_t rseq_abi_size;
  uint32_t signature;
  uint32_t flags;
  uint32_t pad;
};

/* A thread that does not reach a ptrace-stop within this time (stuck
   in an uninterruptible sleep) is reported as unknown.  */
#define STOP_TIMEOUT_S 2

/* Through the C library's ptrace, so that tests can interpose it.  */
static long int
trace (int request, pid_t tid, void *addr, void *data)
{
#ifdef __GLIBC__
  return ptrace ((enum __ptrace_request) request, tid, addr, data);
#else
  return ptrace (request, tid, addr, data);
#endif
}

static volatile sig_atomic_t timed_out;

static void
on_alarm (int sig)
{
  (void) sig;
  timed_out = 1;
}

/* The state letter of /proc/PID/task/TID/stat, or 0 when it is gone.  */
static char
task_state (pid_t pid, pid_t tid)
{
  char path[96], buf[512];
  snprintf (path, sizeof path, "/proc/%d/task/%d/stat", (int) pid, (int) tid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  char *paren = strrchr (buf, ')');
  if (paren == NULL || paren[1] != ' ')
    return 0;
  return paren[2];
}

static int
dead_state (char s)
{
  return s == 0 || s == 'Z' || s == 'X' || s == 'x';
}

/* The thread ids of PID, ascending, the main thread first.  */
static pid_t *
list_tasks (pid_t pid, size_t *count)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/task", (int) pid);
  DIR *d = opendir (path);
  if (d == NULL)
    return NULL;
  size_t cap = 16, n = 0;
  pid_t *tids = malloc (cap * sizeof *tids);
  struct dirent *e;
  while (tids != NULL && (e = readdir (d)) != NULL)
    {
      char *end;
      long int tid = strtol (e->d_name, &end, 10);
      if (*end != '\0' || tid <= 0)
        continue;
      if (n == cap)
        {
          pid_t *bigger = realloc (tids, 2 * cap * sizeof *tids);
          if (bigger == NULL)
            break;
          tids = bigger;
          cap *= 2;
        }
      tids[n++] = (pid_t) tid;
    }
  closedir (d);
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && tids[j] < tids[j - 1]; j--)
      {
        pid_t t = tids[j];
        tids[j] = tids[j - 1];
        tids[j - 1] = t;
      }
  for (size_t i = 0; i < n; i++)
    if (tids[i] == pid && i != 0)
      {
        memmove (tids + 1, tids, i * sizeof *tids);
        tids[0] = pid;
      }
  *count = n;
  return tids;
}

/* Whether some thread of PID has not exited.  */
static int
process_alive (pid_t pid)
{
  size_t n = 0;
  pid_t *tids = list_tasks (pid, &n);
  int alive = 0;
  for (size_t i = 0; tids != NULL && i < n && !alive; i++)
    alive = !dead_state (task_state (pid, tids[i]));
  free (tids);
  return alive;
}

static uint64_t
thread_pointer (pid_t tid)
{
#if defined __x86_64__
  struct user_regs_struct regs;
  if (trace (PTRACE_GETREGS, tid, NULL, &regs) != 0)
    return 0;
  return regs.fs_base;
#elif defined __aarch64__
  uint64_t tpidr = 0;
  struct iovec iov = { &tpidr, sizeof tpidr };
  if (trace (PTRACE_GETREGSET, tid, (void *) (uintptr_t) NT_ARM_TLS, &iov) != 0)
    return 0;
  return tpidr;
#else
  (void) tid;
  return 0;
#endif
}

enum outcome
{
  READ_OK,
  READ_DEAD,		/* The thread had exited already.  */
  READ_GONE,		/* It exited while it was being read.  */
  READ_DENIED,		/* EPERM from PTRACE_SEIZE.  */
  READ_STUCK,		/* No ptrace-stop in time.  */
};

/* Fills the area's fields of T from memory at ADDR.  */
static void
read_fields (struct proc *p, const struct info_report *r,
             struct info_thread *t, uint64_t addr, int registered)
{
  struct rseq area;
  if (proc_read (p, addr, &area, 32) != 0)
    return;
  t->have_fields = 1;
  t->cpu_id = (int32_t) area.cpu_id;
  t->have_node = registered
                 && r->at_feature_size >= RSEQ_LAYOUT_LEGACY_MAX_SIZE;
  t->node_id = (int32_t) area.node_id;
  t->mm_cid = (int32_t) area.mm_cid;
}

static enum outcome
read_thread (struct proc *p, struct info_report *r, struct info_thread *t,
             int *old_kernel, int *saw_eio)
{
  pid_t pid = r->pid, tid = t->tid;
  char path[96];
  snprintf (path, sizeof path, "/proc/%d/task/%d/comm", (int) pid, (int) tid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0)
    {
      ssize_t n = read (fd, t->name, sizeof t->name - 1);
      t->name[n > 0 ? n : 0] = '\0';
      t->name[strcspn (t->name, "\n")] = '\0';
      close (fd);
    }

  t->state = TS_EXITED;
  if (dead_state (task_state (pid, tid)))
    {
      snprintf (t->note, sizeof t->note, "%s", tid == pid
                ? "the main thread exited; the others run on" : "exited");
      return READ_DEAD;
    }

  if (trace (REQ_SEIZE, tid, NULL, NULL) != 0)
    {
      int err = errno;
      if (err == ESRCH || dead_state (task_state (pid, tid)))
        {
          snprintf (t->note, sizeof t->note, "exited");
          return READ_GONE;
        }
      t->state = TS_UNKNOWN;
      snprintf (t->note, sizeof t->note, "cannot attach: %s", strerror (err));
      return err == EPERM ? READ_DENIED : READ_STUCK;
    }

  int status = 0, inject = 0, stopped = 0;
  if (trace (REQ_INTERRUPT, tid, NULL, NULL) == 0)
    {
      struct sigaction sa, old_sa;
      memset (&sa, 0, sizeof sa);
      sa.sa_handler = on_alarm;	/* No SA_RESTART: waitpid returns.  */
      sigaction (SIGALRM, &sa, &old_sa);
      struct itimerval it = { { 0, 0 }, { STOP_TIMEOUT_S, 0 } };
      struct itimerval off = { { 0, 0 }, { 0, 0 } };
      timed_out = 0;
      setitimer (ITIMER_REAL, &it, NULL);
      pid_t w;
      do
        w = waitpid (tid, &status, __WALL);
      while (w < 0 && errno == EINTR && !timed_out);
      setitimer (ITIMER_REAL, &off, NULL);
      sigaction (SIGALRM, &old_sa, NULL);
      if (w == tid && WIFSTOPPED (status))
        {
          stopped = 1;
          /* A signal-delivery-stop: the signal is given back on detach.
             An interrupt or group stop carries PTRACE_EVENT_STOP.  */
          if ((status >> 16) == 0)
            inject = WSTOPSIG (status);
        }
      else if (w == tid)
        {
          snprintf (t->note, sizeof t->note, "exited");
          return READ_GONE;
        }
      else
        {
          /* Still running (uninterruptible sleep): it cannot be
             detached before it stops.  read_threads tries again at the
             end; rseq-compat's exit detaches it in any case, and the
             pending stop goes with the tracer.  */
          t->held = 1;
          t->state = TS_UNKNOWN;
          snprintf (t->note, sizeof t->note, "did not stop within %d s "
                    "(uninterruptible sleep?)", STOP_TIMEOUT_S);
          return READ_STUCK;
        }
    }
  if (!stopped)
    {
      trace (PTRACE_DETACH, tid, NULL, NULL);
      waitpid (tid, &status, __WALL | WNOHANG);
      snprintf (t->note, sizeof t->note, "exited");
      return READ_GONE;
    }

  struct rseq_configuration conf;
  memset (&conf, 0, sizeof conf);
  long int got = trace (REQ_GET_RSEQ_CONFIGURATION, tid,
                        (void *) (uintptr_t) sizeof conf, &conf);
  int get_err = got < 0 ? errno : 0;
  uint64_t tp = thread_pointer (tid);
  int gone = get_err == ESRCH;
  if (!gone && got >= 0 && conf.rseq_abi_pointer != 0)
    {
      t->state = TS_REGISTERED;
      t->area = conf.rseq_abi_pointer;
      t->length = conf.rseq_abi_size;
      t->signature = conf.signature;
      t->have_signature = 1;
      t->flags = conf.flags;
      read_fields (p, r, t, t->area, 1);
    }
  else if (!gone && got >= 0)
    {
      t->state = TS_UNREGISTERED;
      if (r->abi_source != NULL && tp != 0)
        read_fields (p, r, t, tp + (uint64_t) r->offset, 0);
    }
  else if (!gone && (get_err == EIO || get_err == EINVAL))
    {
      /* Linux before 5.13 does not know the request.  The published
         area's cpu_id still tells a registered thread (>= 0) from one
         that never was (-1) or failed (-2), but not the length.  */
      *old_kernel = 1;
      *saw_eio = get_err;
      if (r->abi_source != NULL && tp != 0)
        {
          read_fields (p, r, t, tp + (uint64_t) r->offset, 0);
          if (t->have_fields && t->cpu_id >= 0)
            {
              t->state = TS_REGISTERED;
              t->area = tp + (uint64_t) r->offset;
              snprintf (t->note, sizeof t->note, "cpu_id %d in the published "
                        "area; length and signature unknown", t->cpu_id);
            }
          else if (t->have_fields)
            {
              t->state = TS_UNREGISTERED;
              snprintf (t->note, sizeof t->note, "cpu_id %d in the published "
                        "area", t->cpu_id);
            }
          else
            t->state = TS_UNKNOWN;
        }
      else
        {
          t->state = TS_UNKNOWN;
          snprintf (t->note, sizeof t->note, "no published area to read");
        }
    }
  else if (!gone)
    {
      t->state = TS_UNKNOWN;
      snprintf (t->note, sizeof t->note, "PTRACE_GET_RSEQ_CONFIGURATION: %s",
                strerror (get_err));
    }

  if (trace (PTRACE_DETACH, tid, NULL, (void *) (uintptr_t) inject) != 0
      && errno == ESRCH)
    gone = 1;
  if (gone)
    {
      /* Killed while held: collect it, it is our tracee.  */
      waitpid (tid, &status, __WALL | WNOHANG);
      t->state = TS_EXITED;
      snprintf (t->note, sizeof t->note, "exited while it was read");
      return READ_GONE;
    }

  if (t->state == TS_REGISTERED)
    owner_of (p, r, t, tp);
  return READ_OK;
}

static int
add_thread (struct info_report *r, size_t *cap, pid_t tid)
{
  for (size_t i = 0; i < r->nthreads; i++)
    if (r->threads[i].tid == tid)
      return 0;
  if (r->nthreads == *cap)
    {
      size_t ncap = *cap ? 2 * *cap : 16;
      struct info_thread *n = realloc (r->threads, ncap * sizeof *n);
      if (n == NULL)
        return -1;
      r->threads = n;
      *cap = ncap;
    }
  struct info_thread *t = &r->threads[r->nthreads++];
  memset (t, 0, sizeof *t);
  t->tid = tid;
  return 1;
}

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
denied (pid_t pid, char *err, size_t errlen)
{
  char hint[400];
  permission_hint (pid, hint, sizeof hint);
  return fail (err, errlen, EPERM, "cannot read process %d: permission "
               "denied: %s", (int) pid, hint);
}

static int
read_threads (struct proc *p, struct info_report *r, char *err,
              size_t errlen)
{
  size_t cap = 0;
  int old_kernel = 0, saw_eio = 0, read_any = 0, lost = 0;
  /* Threads started while the others were read are picked up by the
     next pass; a process that keeps starting threads gets three.  */
  for (int pass = 0; pass < 3; pass++)
    {
      size_t n = 0;
      pid_t *tids = list_tasks (r->pid, &n);
      if (tids == NULL)
        break;
      size_t first = r->nthreads;
      for (size_t i = 0; i < n; i++)
        if (add_thread (r, &cap, tids[i]) < 0)
          {
            free (tids);
            return fail (err, errlen, ENOMEM, "out of memory");
          }
      free (tids);
      if (r->nthreads == first)
        break;
      for (size_t i = first; i < r->nthreads; i++)
        {
          enum outcome o = read_thread (p, r, &r->threads[i], &old_kernel,
                                        &saw_eio);
          if (o == READ_DENIED && !read_any)
            return denied (r->pid, err, errlen);
          if (o == READ_OK)
            read_any = 1;
          if (o == READ_GONE)
            lost = 1;
        }
    }

  /* Threads that were slow to stop may have stopped since.  */
  for (size_t i = 0; i < r->nthreads; i++)
    {
      struct info_thread *t = &r->threads[i];
      int status;
      if (t->held && waitpid (t->tid, &status, __WALL | WNOHANG) == t->tid)
        {
          int inject = WIFSTOPPED (status) && (status >> 16) == 0
                       ? WSTOPSIG (status) : 0;
          if (!WIFSTOPPED (status)
              || trace (PTRACE_DETACH, t->tid, NULL,
                        (void *) (uintptr_t) inject) == 0)
            t->held = 0;
        }
    }

  if (!process_alive (r->pid) && (lost || !read_any))
    return fail (err, errlen, ESRCH, "process %d (%s) exited while it was "
                 "being read; nothing to report.  Run rseq-compat info -p "
                 "again while it runs", (int) r->pid, r->comm);

  r->threads_source = old_kernel ? "memory" : "ptrace";
  if (old_kernel)
    snprintf (r->warning, sizeof r->warning, "this kernel (Linux %s) "
              "answers %s to PTRACE_GET_RSEQ_CONFIGURATION, which Linux 5.13 "
              "added: registrations are inferred from the cpu_id of the "
              "published area, without length or signature, and areas "
              "registered by others are not seen.  Use Linux 5.13 or later, "
              "or run 'rseq-compat run rseq-compat info' in the same "
              "environment as the program", r->kernel,
              saw_eio == EINVAL ? "EINVAL" : "EIO");
  return 0;
}

int
info_pid_target (pid_t *pid, char *err, size_t errlen)
{
  char dir[64], v[64];
  struct stat st;
  snprintf (dir, sizeof dir, "/proc/%d", (int) *pid);
  if (stat (dir, &st) != 0)
    return fail (err, errlen, ESRCH, "no process with PID %d: check the "
                 "number with 'ps -p %d' (it may have exited%s)", (int) *pid,
                 (int) *pid, errno == EACCES ? ", or /proc is mounted with "
                 "hidepid" : "");
  /* A thread id: report its whole process.  */
  if (proc_status_field (dir, "Tgid", v, sizeof v) == 0 && atoi (v) > 0
      && atoi (v) != *pid)
    *pid = atoi (v);
  return 0;
}

int
info_pid (pid_t pid, struct info_report *r, char *err, size_t errlen)
{
  char dir[64];
  snprintf (dir, sizeof dir, "/proc/%d", (int) pid);
  r->pid = pid;
  if (!process_alive (pid))
    {
      char ppid[32] = "?";
      proc_status_field (dir, "PPid", ppid, sizeof ppid);
      return fail (err, errlen, ESRCH, "process %d has exited (a zombie "
                   "that its parent, process %s, has not collected yet); "
                   "there is nothing left to read", (int) pid, ppid);
    }

  /* Nothing may interrupt rseq-compat while it holds a thread stopped;
     the signals act once every thread is released.  */
  sigset_t block, old;
  sigemptyset (&block);
  int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP,
                 SIGTTIN, SIGTTOU, SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ,
                 SIGVTALRM, SIGPROF };
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    sigaddset (&block, sigs[i]);
  sigprocmask (SIG_BLOCK, &block, &old);

  /* The main thread may have exited (pthread_exit) while the others
     run: then its memory and maps are gone, a live thread's are not.  */
  char live[64];
  snprintf (live, sizeof live, "/proc/%d", (int) pid);
  if (dead_state (task_state (pid, pid)))
    {
      size_t n = 0;
      pid_t *tids = list_tasks (pid, &n);
      for (size_t i = 0; tids != NULL && i < n; i++)
        if (!dead_state (task_state (pid, tids[i])))
          {
            snprintf (live, sizeof live, "/proc/%d/task/%d", (int) pid,
                      (int) tids[i]);
            break;
          }
      free (tids);
    }

  struct proc p;
  int ret = proc_open (&p, pid, live, err, errlen);
  if (ret == EACCES || ret == EPERM)
    ret = denied (pid, err, errlen);
  else if (ret != 0 && !process_alive (pid))
    ret = fail (err, errlen, ESRCH, "process %d exited while it was being "
                "read; nothing to report", (int) pid);
  if (ret == 0)
    {
      ret = proc_describe (&p, r, err, errlen);
      if (ret == EACCES || ret == EPERM)
        ret = denied (pid, err, errlen);
      else if (ret != 0 && !process_alive (pid))
        ret = fail (err, errlen, ESRCH, "process %d exited while it was "
                    "being read; nothing to report", (int) pid);
      if (ret == 0)
        ret = read_threads (&p, r, err, errlen);
      proc_close (&p);
    }

  sigprocmask (SIG_SETMASK, &old, NULL);
  return ret;
}
