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
   stopped with PTRACE_INTERRUPT, read (the request and the registers)
   and detached at once; everything else about it is read from memory
   after it runs again.  A thread that was in a signal-delivery-stop
   gets its signal back on detach; one that was stopped (SIGSTOP)
   before stays stopped, the kernel sees to that.  Termination signals
   are blocked while a thread is held and act after it is released; if
   rseq-compat is killed anyway (SIGKILL), the kernel detaches its
   tracees, which resume.

   The stop is what a stop signal does to the thread: a system call it
   sleeps in is interrupted, and the C library or the kernel restarts
   it, except for those that fail with EINTR instead (epoll_wait,
   sigtimedwait, semop, socket calls with SO_RCVTIMEO: rseq-compat(1)
   has the list).  That cannot be avoided while stopping; --no-stop
   (collect-nostop.c) stops nothing.

   A thread in an uninterruptible sleep (a vfork parent waiting for its
   child, a read from a hung file system) stops only when it wakes, and
   the kernel refuses PTRACE_DETACH until it has stopped.  It is let go
   by the end of its tracer instead: the kernel detaches a dead
   tracer's tracees and drops the pending stop.  So the requests are
   made from a thread of ours that ends when a tracee does not stop in
   time, and the next thread is attached only once that tracee is free:
   no thread is held while another is read, or after its own read.

   The thread pointer (read from the registers) tells whose area a
   registration is: glibc's at thread pointer + glibc's __rseq_offset,
   the shim's at thread pointer + the shim's.  */

#define _GNU_SOURCE 1
#include <elf.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "collect-proc.h"
#include "collect-ptrace.h"
#include "permission.h"
#include "procfs.h"
#include "report.h"

#define REQ_GET_RSEQ_CONFIGURATION 0x420f
#define REQ_SEIZE 0x4206
#define REQ_INTERRUPT 0x4207
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

/* A thread still in an uninterruptible sleep (state D) this long after
   the interrupt is let go unread; any other thread that has not stopped
   within STOP_TIMEOUT_MS too (it may wait that long for a CPU on a
   loaded machine).  The state is looked at every TICK_MS.  */
#define STUCK_MS 100
#define STOP_TIMEOUT_MS 2000
#define TICK_MS 10
/* Threads stuck in state D cost STUCK_MS each until they have cost
   STUCK_BUDGET_MS together; after that, one found in D is let go at
   once (twenty-fifth review: 200 threads each waiting for its vfork
   child took 22 s; 10,000 would have taken 18 minutes).  */
#define STUCK_BUDGET_MS 1000
static unsigned int stuck_spent_ms;

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

static void
on_alarm (int sig)
{
  /* Only there to make waitpid return with EINTR.  */
  (void) sig;
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
  READ_GONE,		/* It exited before it stopped.  */
  READ_KILLED,		/* It exited while it was held.  */
  READ_DENIED,		/* EPERM from PTRACE_SEIZE.  */
  READ_FAILED,		/* Another error from PTRACE_SEIZE.  */
  READ_STUCK,		/* No ptrace-stop in time: let go unread.  */
};

/* What the tracer learnt of one thread.  */
struct raw_read
{
  enum outcome outcome;
  int seize_errno;
  /* Still attached: only the tracer's end lets it go.  */
  int left_attached;
  char state;			/* READ_STUCK: its state letter then.  */
  unsigned int waited_ms;
  long int got;
  int get_errno;
  struct rseq_configuration conf;
  uint64_t tp;
};

struct tracer
{
  pid_t pid;
  const pid_t *tids;		/* 0: not to be read.  */
  struct raw_read *raw;
  size_t next, end;
  pid_t self;			/* The tracer thread's id.  */
  pid_t left;			/* A thread it left attached, or 0.  */
};

static unsigned int
ms_since (const struct timespec *start)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return (unsigned int) ((now.tv_sec - start->tv_sec) * 1000
                         + (now.tv_nsec - start->tv_nsec) / 1000000);
}

/* Waits for TID's ptrace-stop, bounded as STUCK_MS and STOP_TIMEOUT_MS
   say.  Returns what waitpid returned (-1 with errno EINTR: it did not
   stop in time, RAW says in what state).  */
static pid_t
wait_for_stop (pid_t pid, pid_t tid, int *status, struct raw_read *raw)
{
  if (stuck_spent_ms >= STUCK_BUDGET_MS && proc_task_state (pid, tid) == 'D')
    {
      raw->state = 'D';
      raw->waited_ms = 0;
      errno = EINTR;
      return -1;
    }
  struct timespec start;
  clock_gettime (CLOCK_MONOTONIC, &start);
  struct itimerval tick = { { 0, TICK_MS * 1000 }, { 0, TICK_MS * 1000 } };
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &tick, NULL);
  pid_t w;
  for (;;)
    {
      w = waitpid (tid, status, __WALL);
      if (w == tid || errno != EINTR)
        break;
      unsigned int ms = ms_since (&start);
      char s = proc_task_state (pid, tid);
      if ((s == 'D' && ms >= STUCK_MS) || ms >= STOP_TIMEOUT_MS)
        {
          raw->state = s;
          raw->waited_ms = ms;
          if (s == 'D')
            stuck_spent_ms += ms;
          errno = EINTR;
          break;
        }
    }
  int err = errno;
  setitimer (ITIMER_REAL, &off, NULL);
  errno = err;
  return w;
}

static void
attach_and_read (pid_t pid, pid_t tid, struct raw_read *raw)
{
  if (trace (REQ_SEIZE, tid, NULL, NULL) != 0)
    {
      raw->seize_errno = errno;
      raw->outcome = raw->seize_errno == ESRCH
                     || proc_state_dead (proc_task_state (pid, tid))
                     ? READ_GONE : raw->seize_errno == EPERM ? READ_DENIED
                     : READ_FAILED;
      return;
    }
  int status = 0;
  if (trace (REQ_INTERRUPT, tid, NULL, NULL) != 0)
    {
      /* It exited between the two requests; collect it if it is a
         zombie already, and let the tracer's end release it if not.  */
      waitpid (tid, &status, __WALL | WNOHANG);
      raw->outcome = READ_GONE;
      raw->left_attached = 1;
      return;
    }
  pid_t w = wait_for_stop (pid, tid, &status, raw);
  if (w != tid)
    {
      raw->outcome = errno == EINTR ? READ_STUCK : READ_GONE;
      raw->left_attached = 1;
      return;
    }
  if (!WIFSTOPPED (status))
    {
      raw->outcome = READ_GONE;
      return;
    }
  /* A signal-delivery-stop: the signal is given back on detach.  An
     interrupt or group stop carries PTRACE_EVENT_STOP.  */
  int inject = (status >> 16) == 0 ? WSTOPSIG (status) : 0;

  memset (&raw->conf, 0, sizeof raw->conf);
  raw->got = trace (REQ_GET_RSEQ_CONFIGURATION, tid,
                    (void *) (uintptr_t) sizeof raw->conf, &raw->conf);
  raw->get_errno = raw->got < 0 ? errno : 0;
  raw->tp = thread_pointer (tid);
  int gone = raw->get_errno == ESRCH;
  if (trace (PTRACE_DETACH, tid, NULL, (void *) (uintptr_t) inject) != 0
      && errno == ESRCH)
    gone = 1;
  if (gone)
    /* Killed while held: collect it, it is our tracee.  */
    waitpid (tid, &status, __WALL | WNOHANG);
  raw->outcome = gone ? READ_KILLED : READ_OK;
}

/* Called where no thread is held: the termination and stop signals
   info_pid blocks, if any came meanwhile, act now, on the whole
   process, and not only once every thread has been read (a process
   with many threads stuck in uninterruptible sleeps takes STUCK_MS
   each).  */
static void
let_signals_in (void)
{
  sigset_t pending, blocked, act;
  if (sigpending (&pending) != 0
      || pthread_sigmask (SIG_BLOCK, NULL, &blocked) != 0)
    return;
  sigemptyset (&act);
  int any = 0;
  for (int sig = 1; sig < NSIG; sig++)
    if (sig != SIGALRM && sigismember (&pending, sig) == 1
        && sigismember (&blocked, sig) == 1)
      {
        sigaddset (&act, sig);
        any = 1;
      }
  if (!any)
    return;
  pthread_sigmask (SIG_UNBLOCK, &act, NULL);
  pthread_sigmask (SIG_BLOCK, &act, NULL);
}

static void *
tracer_main (void *arg)
{
  struct tracer *tr = arg;
  tr->self = (pid_t) syscall (SYS_gettid);
  /* The tick of wait_for_stop comes here, and nowhere else.  */
  sigset_t alarm;
  sigemptyset (&alarm);
  sigaddset (&alarm, SIGALRM);
  pthread_sigmask (SIG_UNBLOCK, &alarm, NULL);
  while (tr->next < tr->end)
    {
      size_t i = tr->next++;
      if (tr->tids[i] == 0)
        continue;
      let_signals_in ();
      attach_and_read (tr->pid, tr->tids[i], &tr->raw[i]);
      if (tr->raw[i].left_attached)
        {
          tr->left = tr->tids[i];
          break;
        }
    }
  return NULL;
}

/* Waits until thread TID of PID is no longer traced by TRACER: the
   kernel detaches a tracer's tracees as it ends, a little after
   pthread_join has returned.  */
static void
wait_released (pid_t pid, pid_t tid, pid_t tracer)
{
  char dir[96], v[32];
  snprintf (dir, sizeof dir, "/proc/%d/task/%d", (int) pid, (int) tid);
  for (int i = 0; i < 10000; i++)
    {
      if (proc_status_field (dir, "TracerPid", v, sizeof v) != 0
          || atoi (v) != tracer)
        return;
      struct timespec pause = { 0, 100000 };
      nanosleep (&pause, NULL);
    }
}

/* Turns what the tracer learnt of thread T into the report's terms,
   reading its area after it runs again.  */
static void
interpret (struct proc *p, struct info_report *r, struct info_thread *t,
           const struct raw_read *raw, int *old_kernel, int *saw_eio)
{
  switch (raw->outcome)
    {
    case READ_DEAD:
      return;
    case READ_GONE:
    case READ_KILLED:
      t->state = TS_EXITED;
      snprintf (t->note, sizeof t->note, "%s", raw->outcome == READ_GONE
                ? "exited" : "exited while it was read");
      return;
    case READ_DENIED:
    case READ_FAILED:
      t->state = TS_UNKNOWN;
      snprintf (t->note, sizeof t->note, "cannot attach: %s",
                strerror (raw->seize_errno));
      return;
    case READ_STUCK:
      t->state = TS_UNKNOWN;
      if (raw->state == 'D' && raw->waited_ms == 0)
        snprintf (t->note, sizeof t->note, "not read: in uninterruptible "
                  "sleep (state D), not waited for: threads stuck before it "
                  "used up the %d ms given to all", STUCK_BUDGET_MS);
      else if (raw->state == 'D')
        snprintf (t->note, sizeof t->note, "not read: in uninterruptible "
                  "sleep (state D) for %u ms; let go at once",
                  raw->waited_ms);
      else
        snprintf (t->note, sizeof t->note, "not read: did not stop within "
                  "%u ms (state %c); let go at once", raw->waited_ms,
                  raw->state != 0 ? raw->state : '?');
      return;
    case READ_OK:
      break;
    }

  uint64_t tp = raw->tp;
  if (raw->got >= 0 && raw->conf.rseq_abi_pointer != 0)
    {
      t->state = TS_REGISTERED;
      t->area = raw->conf.rseq_abi_pointer;
      t->length = raw->conf.rseq_abi_size;
      t->signature = raw->conf.signature;
      t->have_signature = 1;
      t->flags = raw->conf.flags;
      area_fields (p, r, t, t->area);
      owner_of (p, r, t, tp);
    }
  else if (raw->got >= 0)
    {
      t->state = TS_UNREGISTERED;
      if (r->abi_source != NULL && tp != 0)
        area_fields (p, r, t, tp + (uint64_t) r->offset);
    }
  else if (raw->get_errno == EIO || raw->get_errno == EINVAL)
    {
      /* Linux before 5.13 does not know the request.  */
      *old_kernel = 1;
      *saw_eio = raw->get_errno;
      infer_from_area (p, r, t, tp);
    }
  else
    {
      t->state = TS_UNKNOWN;
      snprintf (t->note, sizeof t->note, "PTRACE_GET_RSEQ_CONFIGURATION: %s",
                strerror (raw->get_errno));
    }
}

/* Reads threads FIRST to the last of R, one at a time.  Returns 0, or
   an errno value with ERR saying why.  */
static int
read_pass (struct proc *p, struct info_report *r, size_t first,
           int *read_any, int *lost, int *old_kernel, int *saw_eio,
           char *err, size_t errlen)
{
  size_t n = r->nthreads - first;
  pid_t *tids = calloc (n, sizeof *tids);
  struct raw_read *raw = calloc (n, sizeof *raw);
  if (tids == NULL || raw == NULL)
    {
      free (tids);
      free (raw);
      snprintf (err, errlen, "out of memory");
      return ENOMEM;
    }
  for (size_t i = 0; i < n; i++)
    {
      struct info_thread *t = &r->threads[first + i];
      if (thread_begin (r, t))
        raw[i].outcome = READ_DEAD;
      else
        tids[i] = t->tid;
    }

  struct tracer tr = { r->pid, tids, raw, 0, n, 0, 0 };
  int ret = 0;
  while (tr.next < tr.end)
    {
      pthread_t th;
      tr.left = 0;
      int e = pthread_create (&th, NULL, tracer_main, &tr);
      if (e != 0)
        {
          /* A thread counts against RLIMIT_NPROC and a pids cgroup as a
             process does (thirtieth review: --timeout=0, which info -p
             names where it cannot fork, failed here).  */
          snprintf (err, errlen, "cannot start a thread: %s%s", strerror (e),
                    e == EAGAIN ? " (a limit on processes, RLIMIT_NPROC or "
                                  "a pids cgroup, is reached; --no-stop "
                                  "reads without one)" : "");
          ret = e;
          break;
        }
      pthread_join (th, NULL);
      if (tr.left != 0)
        wait_released (r->pid, tr.left, tr.self);
    }

  for (size_t i = 0; i < n && ret == 0; i++)
    {
      enum outcome o = raw[i].outcome;
      if (o == READ_DENIED && !*read_any)
        {
          char hint[1536];
          if (permission_hint (r->pid, 1, hint, sizeof hint) == ESRCH)
            {
              snprintf (err, errlen, "process %d exited while it was being "
                        "read; nothing to report", (int) r->pid);
              ret = ESRCH;
              break;
            }
          snprintf (err, errlen, "cannot read process %d: permission "
                    "denied: %s", (int) r->pid, hint);
          ret = EPERM;
          break;
        }
      interpret (p, r, &r->threads[first + i], &raw[i], old_kernel, saw_eio);
      if (o == READ_OK)
        *read_any = 1;
      if (o == READ_GONE || o == READ_KILLED)
        *lost = 1;
    }
  free (tids);
  free (raw);
  return ret;
}

int
ptrace_read_threads (struct proc *p, struct info_report *r, char *err,
                     size_t errlen)
{
  /* SIGALRM is the tracer's tick: blocked here, caught there.  */
  struct sigaction sa, old_sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;	/* No SA_RESTART: waitpid returns.  */
  sigaction (SIGALRM, &sa, &old_sa);
  sigset_t alarm, old_mask;
  sigemptyset (&alarm);
  sigaddset (&alarm, SIGALRM);
  pthread_sigmask (SIG_BLOCK, &alarm, &old_mask);

  size_t cap = r->nthreads;
  int old_kernel = 0, saw_eio = 0, read_any = 0, lost = 0, ret = 0;
  /* Threads started while the others were read are picked up by the
     next pass; a process that keeps starting threads gets three.  */
  for (int pass = 0; pass < 3 && ret == 0; pass++)
    {
      size_t n = 0;
      pid_t *tids = proc_list_tasks (r->pid, &n);
      if (tids == NULL)
        break;
      size_t first = r->nthreads;
      for (size_t i = 0; i < n && ret == 0; i++)
        if (info_add_thread (r, &cap, tids[i]) < 0)
          {
            snprintf (err, errlen, "out of memory");
            ret = ENOMEM;
          }
      free (tids);
      if (ret != 0 || r->nthreads == first)
        break;
      ret = read_pass (p, r, first, &read_any, &lost, &old_kernel, &saw_eio,
                       err, errlen);
    }

  pthread_sigmask (SIG_SETMASK, &old_mask, NULL);
  sigaction (SIGALRM, &old_sa, NULL);
  if (ret != 0)
    return ret;

  if (!proc_alive (r->pid) && (lost || !read_any))
    {
      snprintf (err, errlen, "process %d (%s) exited while it was being "
                "read; nothing to report.  Run rseq-compat info -p again "
                "while it runs", (int) r->pid, r->comm);
      return ESRCH;
    }

  r->threads_source = old_kernel ? "memory" : "ptrace";
  r->method = "stop";
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
