/* Programs that must behave the same with and without the shim.
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

/* Usage: differential CASE.  Each case prints what a program can see
   of the C library's answer; differential.exp runs it with the shim and
   without, and the two runs must print the same and end the same.

   create-fault  pthread_create writes the new thread's ID into a page
                 that a write barrier protects (Boehm GC's incremental
                 mode, dirty-page trackers): the SIGSEGV handler opens
                 the page and the write is retried.  The handler must
                 be able to run in the creating thread.
   clone-null    clone (NULL, stack, CLONE_VM | CLONE_VFORK | SIGCHLD):
                 glibc refuses (EINVAL); musl starts the child, which
                 faults.  Not dumpable meanwhile: before Linux 5.16 a
                 core dump kills every process sharing the faulting
                 one's memory, this one too, which would look like a
                 crash of its own.

   The others try what a program may do around thread creation and exit
   that the shim wraps or watches, each printing only what does not
   depend on timing or on the rseq values:

   sigmask       a new thread starts with its creator's signal mask, and
                 the creator keeps it.
   errno         pthread_create leaves the caller's errno alone on
                 success; a new thread's errno starts at 0.
   create-fail   pthread_create with a stack no machine can give fails
                 with the C library's error, and the next one works.
   stack-min     a thread on a stack of PTHREAD_STACK_MIN runs and
                 returns.
   user-stack    a thread on a stack of the program's own
                 (pthread_attr_setstack), whose memory is reused after
                 the join.
   detached      200 detached threads run and exit.
   tls           threads write and read 64 KiB of their own TLS.
   keys          thread-specific data destructors run at exit, every
                 round.
   cancel        a thread cancelled in a blocking call runs its cleanup
                 handler and is joined as PTHREAD_CANCELED.
   fork-thread   a thread forks; the child creates and joins a thread
                 and exits with a status.
   atfork        pthread_atfork's handlers run in their order around a
                 fork from a thread.
   vfork-exec    vfork, then exec of this program.
   spawn         posix_spawn of this program.
   exec-thread   a thread other than the main one execs this program.
   clone-fn      clone (fn, stack, CLONE_VM | CLONE_VFORK | SIGCHLD):
                 the child's status is fn's return value.
   altstack      a signal sent to a thread runs its handler on that
                 thread's alternate stack.
   segv-thread   a thread recovers from its own SIGSEGV (siglongjmp out
                 of the handler).
   affinity      a thread bound to one CPU is told that CPU by
                 sched_getcpu.
   handler-create  threads created from a SIGALRM handler that
                 interrupts the main thread in malloc and free (musl's
                 pthread_create allows it; glibc's may call malloc
                 itself, so differential.exp runs it on musl only).
   in-flight     200 threads created back to back on one CPU, so that
                 many have not started yet (on musl, none: they are
                 SCHED_IDLE): each returns its own argument.
   exit-thread   a thread calls exit (3) while the main thread waits.
   main-exit     the main thread calls pthread_exit while another
                 thread runs; the process ends with the last thread.
   vfork-nested  a vfork (or clone) child vforks (or clones) again:
                 afterwards the parent's signal mask is as before and
                 sched_getcpu names each CPU the parent is bound to (a
                 registration resumed by the child would have left the
                 parent unregistered, every signal blocked, reading a
                 stale cpu_id), and each grandchild starts with its own
                 parent's mask.
   vfork-killed  a vfork child's own vfork child waits while the
                 child is killed (SIGKILL, from another thread of the
                 parent): the parent then has its mask back and
                 sched_getcpu names each CPU it is bound to.
   vfork-pidns   vfork-killed where a task's PID in the new PID
                 namespace it lands in equals the parent's thread ID in
                 its own (2 in both): the child, whose parent is hidden
                 from it, as the parent's is; then a grandchild that
                 sees its parent, as the parent does (thirteenth
                 review).  The parent still gets its mask and its
                 registration back.  Needs CAP_SYS_ADMIN (the test
                 suite runs as root); it says so otherwise.
   vfork-rseq-faked  a filter installed after start-up answers rseq
                 with 0 without doing it (every call, registrations
                 only, unregistrations only), and the process, pinned
                 to one CPU, vforks 200 times: its mask afterwards is
                 its own and a signal's handler runs (a spare area the
                 shim registered to tell the paused task by left it
                 with every signal blocked; twelfth review), and where
                 the registration stays live, its area says that CPU
                 right after each vfork (70th review).
   vfork-filters  vfork under four filters installed after start-up:
                 one that traps rseq (SECCOMP_RET_TRAP; the program's
                 SIGSYS handler answers ENOSYS), one that refuses
                 rt_sigprocmask (SIG_SETMASK) without an old mask (a
                 restore), one that kills the process on rt_sigaction,
                 one on openat (the pause may make no other calls);
                 the process lives, the child exits with its
                 status, and both keep the parent's mask (the shim's
                 pause blocked SIGSYS, which killed the process, and
                 restored by that one call alone: fourteenth review;
                 it asked rt_sigaction for the handlers: sixteenth; then
                 /proc/self/status: seventeenth).
   internal-mask (glibc) SIGUSR1 and the C library's internal
                 signals 32 and 33 blocked with a system call, then a
                 thread: the masks the thread starts with and its
                 creator keeps (glibc's sigprocmask, which the shim
                 restored them with, unblocked 32 and 33: review).
   vfork-rtmin   SIGRTMIN, with a handler, sent to the parent by its
                 vfork (then clone) child: the handler must not run on
                 the parent while its registration is paused (on glibc
                 signal 34 was left open: sixteenth review).
   vfork-faults  SIGTRAP, SIGSEGV, SIGBUS, SIGILL and SIGFPE, each with
                 a handler that leaves by siglongjmp (to a sigsetjmp that
                 saved the mask, then to one that did not),
                 sent to the parent by its vfork (then clone) child: the
                 handler runs on the parent registered, and afterwards
                 the parent is registered and has the mask the jump
                 gives (the pause left those signals open: a handler
                 ran unregistered, and one that jumped out left the
                 thread unregistered with every signal blocked for
                 good: nineteenth review).
   vfork-backtrace  (x86-64 glibc) a backtrace from inside vfork, whose
                 system call a filter traps, names vfork's two callers
                 (the unwind tables of the shim's path through glibc's
                 own vfork were 8 bytes off: sixteenth review).
   vfork-emulated  vfork-getpid in differential-vforkemu, which links a
                 library whose vfork is a fork (tests/src/vfork-emu.c):
                 the shim used whatever vfork came next, whose registers
                 are not glibc's vfork's (sixteenth review).
   vfork-getpid  getpid in a vfork child is the child's PID (before
                 glibc 2.25 it answers from a cache that only glibc's
                 own vfork marks for the child: the shim's stub left it
                 the parent's, fifteenth review).
   claim-errno   27 pthread_create calls in flight at once (each
                 one's ID goes into a read-only page, whose SIGSEGV
                 handler starts the next), the last one under
                 RLIMIT_AS 0, with a stack of the program's own (the
                 C library needs no memory: created, errno left alone)
                 and with a stack of 64 MiB to map (EAGAIN, errno
                 ENOMEM): the shim, which has no page for its start
                 blocks then, answers as the C library does.
   dlerror-kept  a failed dlopen, then the process's first
                 pthread_create (with attributes) and clone: dlerror
                 still names the failure (glibc frees a pending message
                 at the start of every dl* call, so a lookup of the
                 shim's there lost it).
   dlvsym-empty  (glibc) dlvsym of each name the shim exports, and of
                 malloc, for the version "" (ELF hash 0) in
                 RTLD_DEFAULT, RTLD_NEXT, the C library's handle and
                 that of a library without versions that defines
                 getcpu and clone (dlvsym-nover.c): what it finds and
                 dlerror's message (glibc crashed on the shim's
                 unversioned definitions, eighty-sixth review, F3; the
                 first fix hid the library's, its second round's F1).  */

#define _GNU_SOURCE 1
#ifndef DIFFERENTIAL_STATIC
# include <dlfcn.h>
#endif
#include <alloca.h>
#include <errno.h>
#include <limits.h>
/* musl's compiler wrapper comes without the kernel's headers.  */
#if __has_include (<linux/seccomp.h>)
# include <linux/filter.h>
# include <linux/seccomp.h>
# define HAVE_SECCOMP_HEADERS 1
#endif
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "sys-rseq.h"

extern char **environ;

static char *page;
static long pagesize;
static volatile sig_atomic_t faults;

static void
on_segv (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) ctx;
  char *a = si->si_addr;
  if (a < page || a >= page + pagesize)
    {
      /* Not the barrier's: die as the fault would have.  */
      signal (SIGSEGV, SIG_DFL);
      return;
    }
  faults++;
  mprotect (page, pagesize, PROT_READ | PROT_WRITE);
}

static void *
idle (void *arg)
{
  return arg;
}

static int
create_fault (void)
{
  pagesize = sysconf (_SC_PAGESIZE);
  page = mmap (NULL, pagesize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    return 2;
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigaction (SIGSEGV, &sa, NULL);
  pthread_t *slot = (pthread_t *) page;
  int ret = pthread_create (slot, NULL, idle, NULL);
  void *res = &res;
  int joined = ret == 0 ? pthread_join (*slot, &res) : -1;
  printf ("create-fault: pthread_create %d, %s, join %d%s\n", ret,
          faults > 0 ? "the handler ran" : "no fault", joined,
          res == NULL ? ", the thread ran" : "");
  return 0;
}

static int
child (void *arg)
{
  (void) arg;
  return 0;
}

static int
clone_null (void)
{
  size_t size = 64 * 1024;
  char *stack = malloc (size);
  if (stack == NULL)
    return 2;
  int (*fn) (void *) = child;
  /* Through a volatile, so that the compiler keeps the call as written.  */
  int (*volatile null) (void *) = NULL;
  fn = null;
  int dumpable = prctl (PR_GET_DUMPABLE, 0, 0, 0, 0);
  prctl (PR_SET_DUMPABLE, 0, 0, 0, 0);
  errno = 0;
  int pid = clone (fn, stack + size, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
  int err = errno;
  if (dumpable > 0)
    prctl (PR_SET_DUMPABLE, dumpable, 0, 0, 0);
  /* CLONE_VFORK: the child is gone or has exited by now.  */
  free (stack);
  if (pid < 0)
    {
      printf ("clone-null: -1, %s\n", strerror (err));
      return 0;
    }
  int status;
  if (waitpid (pid, &status, __WALL) != pid)
    printf ("clone-null: a child, not waitable: %s\n", strerror (errno));
  else if (WIFSIGNALED (status))
    printf ("clone-null: a child, killed by signal %d\n", WTERMSIG (status));
  else
    printf ("clone-null: a child, exit status %d\n", WEXITSTATUS (status));
  return 0;
}

/* The standard signals in SET: the real-time ones are partly the C
   library's own.  */
static void
print_mask (const char *who, const sigset_t *set)
{
  printf ("sigmask: %s:", who);
  for (int s = 1; s < 32; s++)
    if (sigismember (set, s) == 1)
      printf (" %d", s);
  printf ("\n");
}

static void *
report_mask (void *arg)
{
  (void) arg;
  sigset_t cur;
  pthread_sigmask (SIG_SETMASK, NULL, &cur);
  print_mask ("new thread", &cur);
  return NULL;
}

static int
sigmask_case (void)
{
  sigset_t set, cur;
  sigemptyset (&set);
  sigaddset (&set, SIGUSR1);
  sigaddset (&set, SIGTERM);
  sigaddset (&set, SIGCHLD);
  sigaddset (&set, SIGSEGV);
  pthread_sigmask (SIG_BLOCK, &set, NULL);
  pthread_t t;
  if (pthread_create (&t, NULL, report_mask, NULL) != 0)
    return 2;
  pthread_join (t, NULL);
  pthread_sigmask (SIG_SETMASK, NULL, &cur);
  print_mask ("creator", &cur);
  return 0;
}

static void *
report_errno (void *arg)
{
  (void) arg;
  printf ("errno: a new thread starts with %d\n", errno);
  return NULL;
}

static int
errno_case (void)
{
  pthread_t t;
  errno = 4242;
  int r = pthread_create (&t, NULL, report_errno, NULL);
  int e = errno;
  if (r != 0)
    return 2;
  pthread_join (t, NULL);
  printf ("errno: after pthread_create %d\n", e);
  return 0;
}

static int
create_fail (void)
{
  pthread_attr_t a;
  pthread_attr_init (&a);
  pthread_t t;
  int r = pthread_attr_setstacksize (&a, (size_t) 1 << (sizeof (size_t) * 8 - 4));
  if (r != 0)
    printf ("create-fail: pthread_attr_setstacksize: %s\n", strerror (r));
  else
    {
      errno = 0;
      r = pthread_create (&t, &a, idle, NULL);
      printf ("create-fail: pthread_create: %s\n",
              r == 0 ? "created" : strerror (r));
      if (r == 0)
        pthread_join (t, NULL);
    }
  pthread_attr_destroy (&a);
  r = pthread_create (&t, NULL, idle, NULL);
  printf ("create-fail: then %s\n", r == 0 ? "created" : strerror (r));
  if (r == 0)
    pthread_join (t, NULL);
  return 0;
}

static void *
small_work (void *arg)
{
  volatile char buf[256];
  memset ((char *) buf, 1, sizeof buf);
  return (void *) ((uintptr_t) arg + buf[10]);
}

static int
stack_min (void)
{
  pthread_attr_t a;
  pthread_attr_init (&a);
  int r = pthread_attr_setstacksize (&a, PTHREAD_STACK_MIN);
  pthread_t t;
  void *res = NULL;
  if (r == 0)
    r = pthread_create (&t, &a, small_work, (void *) 41);
  if (r == 0)
    pthread_join (t, &res);
  printf ("stack-min: %s, returned %lu\n", r == 0 ? "ran" : strerror (r),
          (unsigned long) (uintptr_t) res);
  return 0;
}

static int
user_stack (void)
{
  size_t size = 256 * 1024;
  char *stack = mmap (NULL, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (stack == MAP_FAILED)
    return 2;
  for (int round = 0; round < 3; round++)
    {
      pthread_attr_t a;
      pthread_attr_init (&a);
      pthread_attr_setstack (&a, stack, size);
      pthread_t t;
      void *res = NULL;
      int r = pthread_create (&t, &a, small_work, (void *) (uintptr_t) round);
      if (r == 0)
        pthread_join (t, &res);
      pthread_attr_destroy (&a);
      /* The program's memory again: nothing may write into it now.  */
      memset (stack, 0xa5, size);
      for (int i = 0; i < 1000; i++)
        sched_yield ();
      size_t bad = 0;
      for (size_t i = 0; i < size; i++)
        bad += (unsigned char) stack[i] != 0xa5;
      printf ("user-stack: round %d: %s, returned %lu, %zu bytes changed "
              "after the join\n", round, r == 0 ? "ran" : strerror (r),
              (unsigned long) (uintptr_t) res, bad);
    }
  munmap (stack, size);
  return 0;
}

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int done;

static void *
detached_work (void *arg)
{
  (void) arg;
  pthread_mutex_lock (&lock);
  done++;
  pthread_cond_signal (&cond);
  pthread_mutex_unlock (&lock);
  return NULL;
}

static int
detached (void)
{
  pthread_attr_t a;
  pthread_attr_init (&a);
  pthread_attr_setdetachstate (&a, PTHREAD_CREATE_DETACHED);
  int made = 0;
  for (int i = 0; i < 200; i++)
    {
      pthread_t t;
      made += pthread_create (&t, &a, detached_work, NULL) == 0;
    }
  pthread_mutex_lock (&lock);
  while (done < made)
    pthread_cond_wait (&cond, &lock);
  pthread_mutex_unlock (&lock);
  printf ("detached: %d created, %d ran\n", made, done);
  return 0;
}

static __thread unsigned char big[64 * 1024];

static void *
tls_work (void *arg)
{
  unsigned id = (uintptr_t) arg;
  for (size_t i = 0; i < sizeof big; i++)
    big[i] = (unsigned char) (i * id);
  sched_yield ();
  unsigned long sum = 0;
  for (size_t i = 0; i < sizeof big; i++)
    sum += big[i];
  return (void *) sum;
}

static int
tls (void)
{
  pthread_t t[4];
  for (uintptr_t i = 0; i < 4; i++)
    if (pthread_create (&t[i], NULL, tls_work, (void *) (i + 1)) != 0)
      return 2;
  for (int i = 0; i < 4; i++)
    {
      void *sum;
      pthread_join (t[i], &sum);
      printf ("tls: thread %d: %lu\n", i + 1, (unsigned long) (uintptr_t) sum);
    }
  return 0;
}

static pthread_key_t key;
static int rounds;

static void
destroy (void *value)
{
  rounds++;
  /* Set again: the C library calls again, up to its limit.  */
  pthread_setspecific (key, value);
}

static void *
keys_work (void *arg)
{
  pthread_setspecific (key, arg);
  return NULL;
}

static int
keys (void)
{
  if (pthread_key_create (&key, destroy) != 0)
    return 2;
  pthread_t t;
  if (pthread_create (&t, NULL, keys_work, &key) != 0)
    return 2;
  pthread_join (t, NULL);
  printf ("keys: the destructor ran %d times (PTHREAD_DESTRUCTOR_ITERATIONS "
          "%d)\n", rounds, PTHREAD_DESTRUCTOR_ITERATIONS);
  return 0;
}

static int cleaned;
static pthread_barrier_t barrier;

static void
cleanup (void *arg)
{
  (void) arg;
  cleaned = 1;
}

static void *
cancel_work (void *arg)
{
  (void) arg;
  pthread_cleanup_push (cleanup, NULL);
  pthread_barrier_wait (&barrier);
  for (;;)
    pause ();
  pthread_cleanup_pop (0);
  return NULL;
}

static int
cancel (void)
{
  pthread_barrier_init (&barrier, NULL, 2);
  pthread_t t;
  if (pthread_create (&t, NULL, cancel_work, NULL) != 0)
    return 2;
  pthread_barrier_wait (&barrier);
  pthread_cancel (t);
  void *res;
  pthread_join (t, &res);
  printf ("cancel: %s, cleanup %s\n",
          res == PTHREAD_CANCELED ? "PTHREAD_CANCELED" : "not cancelled",
          cleaned ? "ran" : "did not run");
  return 0;
}

static void *
fork_work (void *arg)
{
  (void) arg;
  pid_t pid = fork ();
  if (pid == 0)
    {
      pthread_t t;
      void *res = NULL;
      if (pthread_create (&t, NULL, small_work, (void *) 6) != 0
          || pthread_join (t, &res) != 0)
        _exit (99);
      _exit ((int) (uintptr_t) res);
    }
  int status = 0;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return (void *) -1;
  return (void *) (uintptr_t) status;
}

static void
print_status (const char *what, int status)
{
  if (WIFEXITED (status))
    printf ("%s: exit status %d\n", what, WEXITSTATUS (status));
  else if (WIFSIGNALED (status))
    printf ("%s: killed by signal %d\n", what, WTERMSIG (status));
  else
    printf ("%s: status %#x\n", what, status);
}

static int
fork_thread (void)
{
  pthread_t t;
  void *res;
  if (pthread_create (&t, NULL, fork_work, NULL) != 0)
    return 2;
  pthread_join (t, &res);
  print_status ("fork-thread: the child", (int) (intptr_t) res);
  return 0;
}

static char seen[16];
static void
add (char c)
{
  size_t n = strlen (seen);
  if (n + 1 < sizeof seen)
    seen[n] = c;
}
static void on_prepare (void) { add ('P'); }
static void on_parent (void) { add ('p'); }
static void on_child (void) { add ('c'); }

static void *
atfork_work (void *arg)
{
  (void) arg;
  pid_t pid = fork ();
  if (pid == 0)
    _exit (strcmp (seen, "Pc") == 0 ? 5 : 6);
  int status = 0;
  waitpid (pid, &status, 0);
  return (void *) (uintptr_t) status;
}

static int
atfork (void)
{
  pthread_atfork (on_prepare, on_parent, on_child);
  pthread_t t;
  void *res;
  if (pthread_create (&t, NULL, atfork_work, NULL) != 0)
    return 2;
  pthread_join (t, &res);
  printf ("atfork: the parent saw %s\n", seen);
  print_status ("atfork: the child (5: it saw Pc)", (int) (intptr_t) res);
  return 0;
}

static int
vfork_exec (void)
{
  pid_t pid = vfork ();
  if (pid == 0)
    {
      execl ("/proc/self/exe", "differential", "exec-target", (char *) NULL);
      _exit (127);
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return 2;
  print_status ("vfork-exec", status);
  return 0;
}

static int
spawn (void)
{
  char *argv[] = { "differential", "exec-target", NULL };
  pid_t pid;
  int r = posix_spawn (&pid, "/proc/self/exe", NULL, NULL, argv, environ);
  int status;
  if (r != 0 || waitpid (pid, &status, 0) != pid)
    return 2;
  print_status ("spawn", status);
  return 0;
}

static void *
exec_work (void *arg)
{
  (void) arg;
  printf ("exec-thread: a second thread execs\n");
  execl ("/proc/self/exe", "differential", "exec-target", (char *) NULL);
  printf ("exec-thread: execl: %s\n", strerror (errno));
  exit (1);
}

static int
exec_thread (void)
{
  pthread_t t;
  if (pthread_create (&t, NULL, exec_work, NULL) != 0)
    return 2;
  pthread_join (t, NULL);
  return 1;
}

static int
five (void *arg)
{
  (void) arg;
  return 5;
}

static int
clone_fn (void)
{
  size_t size = 64 * 1024;
  char *stack = malloc (size);
  if (stack == NULL)
    return 2;
  int pid = clone (five, stack + size, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    {
      printf ("clone-fn: %s\n", strerror (errno));
      free (stack);
      return 0;
    }
  free (stack);
  print_status ("clone-fn", status);
  return 0;
}

/* Not in the static programs (static.exp): a static link has no
   dlopen to speak of before glibc 2.34, nor wants one.  */
/* The thread's mask as the kernel holds it: all 64 signals, whatever
   the C library hides of its own.  */
static uint64_t
raw_sigmask (void)
{
  uint64_t m = 0;
  syscall (SYS_rt_sigprocmask, SIG_BLOCK, NULL, &m, sizeof m);
  return m;
}

/* Bound to each CPU of ALL in turn: how many of 100 sched_getcpu
   calls on each named another CPU (a stale cpu_id would), with the
   number of CPUs in *CPUS; -1 where one could not be bound to.  */
static int
wrong_cpus (const cpu_set_t *all, int *cpus)
{
  int wrong = 0;
  *cpus = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, all))
      {
        cpu_set_t one;
        CPU_ZERO (&one);
        CPU_SET (cpu, &one);
        if (sched_setaffinity (0, sizeof one, &one) != 0)
          return -1;
        ++*cpus;
        for (int i = 0; i < 100; i++)
          wrong += sched_getcpu () != cpu;
      }
  sched_setaffinity (0, sizeof *all, all);
  return wrong;
}

#define NESTED_STACK (64 * 1024)
static char *nested_stacks;
static volatile uint64_t nested_want;
static volatile int nested_how;

static int
nested_grandchild (void *unused)
{
  (void) unused;
  return raw_sigmask () == nested_want ? 0 : 1;
}

/* A vfork or clone child (shares the parent's memory): blocks SIGUSR2
   in its own mask, makes a grandchild the way nested_how says, and
   reports the grandchild's status as its own.  System calls only,
   besides vfork and clone.  */
static int
nested_child (void *unused)
{
  (void) unused;
  uint64_t m = raw_sigmask () | 1ull << (SIGUSR2 - 1);
  syscall (SYS_rt_sigprocmask, SIG_SETMASK, &m, NULL, sizeof m);
  nested_want = raw_sigmask ();
  pid_t pid;
  if (nested_how & 2)
    pid = clone (nested_grandchild, nested_stacks + 2 * NESTED_STACK,
                 CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
  else
    {
      pid = vfork ();
      if (pid == 0)
        _exit (nested_grandchild (NULL));
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return 3;
  return WIFEXITED (status) ? WEXITSTATUS (status) : 4;
}

static int
vfork_nested (void)
{
  nested_stacks = malloc (2 * NESTED_STACK);
  cpu_set_t all;
  if (nested_stacks == NULL || sched_getaffinity (0, sizeof all, &all) != 0)
    return 2;
  /* volatile: the vfork child runs on this frame.  */
  for (volatile int how = 0; how < 4; how++)
    {
      nested_how = how;
      const char *volatile outer = how & 1 ? "clone" : "vfork";
      const char *volatile inner = how & 2 ? "clone" : "vfork";
      volatile uint64_t before = raw_sigmask ();
      pid_t pid;
      if (how & 1)
        pid = clone (nested_child, nested_stacks + NESTED_STACK,
                     CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
      else
        {
          pid = vfork ();
          if (pid == 0)
            _exit (nested_child (NULL));
        }
      int status;
      if (pid < 0 || waitpid (pid, &status, 0) != pid)
        return 2;
      uint64_t after = raw_sigmask ();
      int cpus;
      int wrong = wrong_cpus (&all, &cpus);
      if (wrong < 0)
        return 2;
      printf ("vfork-nested: %s in a %s child: grandchild %s, parent's "
              "mask %s, sched_getcpu %s on %s\n", inner, outer,
              WIFEXITED (status) && WEXITSTATUS (status) == 0
              ? "had its parent's mask" : "did not have its parent's mask",
              after == before ? "kept" : "changed",
              wrong == 0 ? "right" : "WRONG",
              cpus > 1 ? "every allowed CPU" : "the one allowed CPU");
    }
  free (nested_stacks);
  return 0;
}

static volatile pid_t killed_middle, killed_grand;

/* Another thread of the parent: the parent itself waits in vfork.
   Kills the middle child once the grandchild sleeps (it shares the
   parent's stack, which the parent reuses once it resumes: it must
   not run again, and SIGKILL ends it without that).  */
static void *
vfork_killer (void *unused)
{
  (void) unused;
  for (;;)
    {
      pid_t g = killed_grand;
      char path[64], buf[256];
      if (g > 0)
        {
          snprintf (path, sizeof path, "/proc/%d/stat", (int) g);
          FILE *f = fopen (path, "r");
          size_t n = f != NULL ? fread (buf, 1, sizeof buf - 1, f) : 0;
          if (f != NULL)
            fclose (f);
          buf[n] = 0;
          char *state = strrchr (buf, ')');
          if (state != NULL && state[1] == ' ' && state[2] == 'S')
            break;
        }
      sched_yield ();
    }
  kill (killed_middle, SIGKILL);
  return NULL;
}

static int
vfork_killed (void)
{
  cpu_set_t all;
  if (sched_getaffinity (0, sizeof all, &all) != 0)
    return 2;
  /* The grandchild, orphaned, is then this process's to reap.  */
  prctl (PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
  volatile uint64_t before = raw_sigmask ();
  pthread_t t;
  if (pthread_create (&t, NULL, vfork_killer, NULL) != 0)
    return 2;
  pid_t pid = vfork ();
  if (pid == 0)
    {
      /* The system call: before glibc 2.25 getpid answers from a cache
         that only glibc's own vfork keeps right.  */
      killed_middle = (pid_t) syscall (SYS_getpid);
      pid_t g = vfork ();
      if (g == 0)
        {
          killed_grand = (pid_t) syscall (SYS_getpid);
          for (;;)
            pause ();
        }
      _exit (3);
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return 2;
  pthread_join (t, NULL);
  int gstatus = 0;
  kill (killed_grand, SIGKILL);
  waitpid (killed_grand, &gstatus, 0);
  uint64_t after = raw_sigmask ();
  int cpus;
  int wrong = wrong_cpus (&all, &cpus);
  if (wrong < 0)
    return 2;
  printf ("vfork-killed: child %s, grandchild %s; parent's mask %s, "
          "sched_getcpu %s on %s\n",
          WIFSIGNALED (status) ? strsignal (WTERMSIG (status)) : "exited",
          WIFSIGNALED (gstatus) ? strsignal (WTERMSIG (gstatus)) : "exited",
          after == before ? "kept" : "changed",
          wrong == 0 ? "right" : "WRONG",
          cpus > 1 ? "every allowed CPU" : "the one allowed CPU");
  return 0;
}

static void *
report_raw_mask (void *arg)
{
  *(uint64_t *) arg = raw_sigmask ();
  return NULL;
}

/* The rseq ABI as the link or the loader resolved it (the shim's, the
   C library's, the archive's), or nothing.  */
extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));

static void *
thread_pointer (void)
{
  void *tp = NULL;
#if defined __x86_64__
  __asm__ ("mov %%fs:0, %0" : "=r" (tp));
#elif defined __aarch64__
  __asm__ ("mrs %0, tpidr_el0" : "=r" (tp));
#endif
  return tp;
}

#if defined HAVE_SECCOMP_HEADERS && defined SYS_rseq
/* The calling thread's cpu_id_start and cpu_id, where __rseq_size
   says it is registered: 1, or 0 without an area.  */
static int
area_ids (uint32_t *start, int32_t *id)
{
  if (&__rseq_size == NULL || &__rseq_offset == NULL || __rseq_size == 0
      || thread_pointer () == NULL)
    return 0;
  volatile uint32_t *a
    = (volatile uint32_t *) ((char *) thread_pointer () + __rseq_offset);
  *start = a[0];
  *id = (int32_t) a[1];
  return 1;
}
#endif

/* 1: the handler ran on a registered thread whose area said -1 (not
   registered); 2: otherwise; 0: it did not run.  */
static volatile sig_atomic_t rtmin_seen;

static void
on_rtmin (int sig)
{
  (void) sig;
  int unregistered = 0;
  if (&__rseq_size != NULL && &__rseq_offset != NULL && __rseq_size > 0
      && thread_pointer () != NULL)
    unregistered = *(volatile int32_t *) ((char *) thread_pointer ()
                                          + __rseq_offset + 4) < 0;
  rtmin_seen = unregistered ? 1 : 2;
}

static int
rtmin_child (void *arg)
{
  (void) arg;
  syscall (SYS_kill, syscall (SYS_getppid), SIGRTMIN);
  struct timespec ts = { 0, 20 * 1000 * 1000 };
  syscall (SYS_nanosleep, &ts, NULL);
  return 0;
}

/* vfork-rtmin: SIGRTMIN, which has a handler, sent by a vfork (then
   clone) child to its parent: the handler runs on the parent once it
   is registered again.  */
static int
vfork_rtmin (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_rtmin;
  if (sigaction (SIGRTMIN, &sa, NULL) != 0)
    return 2;
  for (volatile int use_clone = 0; use_clone < 2; use_clone++)
    {
      rtmin_seen = 0;
      pid_t pid;
      if (use_clone)
        {
          static char stack[64 * 1024] __attribute__ ((aligned (16)));
          pid = clone (rtmin_child, stack + sizeof stack,
                       CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
        }
      else
        {
          pid = vfork ();
          if (pid == 0)
            _exit (rtmin_child (NULL));
        }
      int status;
      if (pid < 0 || waitpid (pid, &status, 0) != pid)
        return 2;
      printf ("vfork-rtmin: %s: the handler %s\n",
              use_clone ? "clone" : "vfork",
              rtmin_seen == 1 ? "ran on the parent UNREGISTERED"
              : rtmin_seen == 2 ? "ran" : "did not run");
    }
  return 0;
}

/* vfork-faults: the handler's jump, and what it saw (as rtmin_seen).  */
static sigjmp_buf faults_jump;
static volatile sig_atomic_t faults_seen, faults_savemask;

static int
thread_unregistered (void)
{
  return &__rseq_size != NULL && &__rseq_offset != NULL && __rseq_size > 0
         && thread_pointer () != NULL
         && *(volatile int32_t *) ((char *) thread_pointer ()
                                   + __rseq_offset + 4) < 0;
}

static void
on_fault_signal (int sig)
{
  (void) sig;
  faults_seen = thread_unregistered () ? 1 : 2;
  siglongjmp (faults_jump, 1);
}

static volatile int faults_sig;

static int
faults_child (void *arg)
{
  (void) arg;
  syscall (SYS_kill, syscall (SYS_getppid), faults_sig);
  return 0;
}

static int
vfork_faults (void)
{
  static const int sigs[] = { SIGTRAP, SIGSEGV, SIGBUS, SIGILL, SIGFPE };
  static const char *const names[] = { "SIGTRAP", "SIGSEGV", "SIGBUS",
                                       "SIGILL", "SIGFPE" };
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_fault_signal;
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    if (sigaction (sigs[i], &sa, NULL) != 0)
      return 2;
  uint64_t before = raw_sigmask ();
  for (volatile int run = 0; run < 20; run++)
    {
      int use_clone = run & 1;
      faults_savemask = !(run & 2);
      faults_sig = sigs[run / 4];
      faults_seen = 0;
      /* Without the saved mask, the jump leaves the handler's.  */
      if (sigsetjmp (faults_jump, faults_savemask) == 0)
        {
          pid_t pid;
          if (use_clone)
            {
              static char stack[64 * 1024] __attribute__ ((aligned (16)));
              pid = clone (faults_child, stack + sizeof stack,
                           CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
            }
          else
            {
              pid = vfork ();
              if (pid == 0)
                _exit (faults_child (NULL));
            }
          if (pid < 0)
            return 2;
          /* The signal is pending from the child's run: it acts once
             the call returns, before this point.  */
          printf ("vfork-faults: %s by %s: the handler did not run\n",
                  names[run / 4], use_clone ? "clone" : "vfork");
          continue;
        }
      while (waitpid (-1, NULL, 0) > 0)
        ;
      uint64_t after = raw_sigmask ();
      uint64_t want = before;
      if (!faults_savemask)
        want |= (uint64_t) 1 << (faults_sig - 1);
      printf ("vfork-faults: %s by %s, %s: the handler ran%s; then %s, "
              "%s\n", names[run / 4], use_clone ? "clone" : "vfork",
              faults_savemask ? "mask saved" : "mask not saved",
              faults_seen == 1 ? " UNREGISTERED" : "",
              thread_unregistered () ? "UNREGISTERED" : "registered",
              after == want ? "the jump's mask"
              : "the mask is NOT the jump's");
      /* Back to the mask before, for the next run.  */
      syscall (SYS_rt_sigprocmask, SIG_SETMASK, &before, NULL,
               sizeof before);
    }
  return 0;
}

/* vfork-getpid: what getpid answers in a vfork child.  */
static int
vfork_getpid (void)
{
  pid_t parent = getpid ();
  pid_t pid = vfork ();
  if (pid == 0)
    _exit (getpid () == (pid_t) syscall (SYS_getpid) ? 0
           : getpid () == parent ? 1 : 2);
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    return 2;
  printf ("vfork-getpid: the child's getpid %s\n",
          WEXITSTATUS (status) == 0 ? "is its own PID"
          : WEXITSTATUS (status) == 1 ? "is its PARENT's PID" : "is wrong");
  return 0;
}

/* internal-mask (glibc): SIGUSR1 and glibc's internal signals 32 and 33
   blocked with a system call, then a thread: the masks the thread
   starts with and the creator keeps.  */
static int
internal_mask (void)
{
  uint64_t set = ((uint64_t) 1 << (SIGUSR1 - 1)) | ((uint64_t) 1 << 31)
                 | ((uint64_t) 1 << 32);
  uint64_t before = raw_sigmask ();
  syscall (SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, sizeof set);
  uint64_t thread = 0;
  pthread_t t;
  if (pthread_create (&t, NULL, report_raw_mask, &thread) != 0
      || pthread_join (t, NULL) != 0)
    return 2;
  uint64_t after = raw_sigmask ();
  syscall (SYS_rt_sigprocmask, SIG_SETMASK, &before, NULL, sizeof before);
  printf ("internal-mask: the thread started with %#llx, the creator has "
          "%#llx\n", (unsigned long long) thread,
          (unsigned long long) after);
  return 0;
}

/* The grandchild of vfork-pidns: kills its parent (the middle child)
   and exits with no stack use in between, since its grandparent runs
   on the same stack again as soon as the middle child is gone.  */
static void __attribute__ ((noreturn, noinline))
pidns_kill_parent_and_exit (long int parent)
{
#if defined __x86_64__
  __asm__ volatile ("mov %0, %%rdi\n\t"
                    "mov $62, %%eax\n\t"    /* kill (parent, SIGKILL) */
                    "mov $9, %%esi\n\t"
                    "syscall\n\t"
                    "mov $60, %%eax\n\t"    /* exit (0) */
                    "xor %%edi, %%edi\n\t"
                    "syscall"
                    : : "r" (parent) : "rax", "rdi", "rsi", "rcx", "r11",
                      "memory");
#elif defined __aarch64__
  register long int x0 __asm__ ("x0") = parent;
  __asm__ volatile ("mov x1, #9\n\t"
                    "mov x8, #129\n\t"      /* kill (parent, SIGKILL) */
                    "svc #0\n\t"
                    "mov x0, #0\n\t"
                    "mov x8, #93\n\t"       /* exit (0) */
                    "svc #0"
                    : "+r" (x0) : : "x1", "x8", "memory");
#else
  syscall (SYS_kill, parent, SIGKILL);
  syscall (SYS_exit, 0);
#endif
  __builtin_unreachable ();
}

/* In the first new PID namespace, as its PID 2 (PID 1 sleeps): moves
   its children into a second one, whose PID 1 sleeps too, so that its
   vfork child is PID 2 there; that child vforks, and the grandchild
   kills it.  Prints the result; the status says whether it could.  */
static int
pidns_parent (int grandchild)
{
  volatile uint64_t before = raw_sigmask ();
  if (unshare (CLONE_NEWPID) != 0)
    return 10;
  /* Layout 0: the second namespace's PID 1 sleeps, the vfork child is
     its PID 2.  Layout 1: the vfork child is its PID 1, and the child's
     own vfork child PID 2, which vforks once more.  */
  volatile pid_t init = -1;
  if (!grandchild)
    {
      init = fork ();
      if (init == 0)
        for (;;)
          pause ();
      if (init < 0)
        return 11;
    }
  pid_t pid = vfork ();
  if (pid == 0)
    {
      if (grandchild)
        {
          pid_t g = vfork ();
          if (g == 0)
            {
              pid_t gg = vfork ();
              if (gg == 0)
                pidns_kill_parent_and_exit (syscall (SYS_getppid));
              _exit (3);
            }
          _exit (g > 0 ? 0 : 4);
        }
      pid_t g = vfork ();
      if (g == 0)
        pidns_kill_parent_and_exit (syscall (SYS_getppid));
      _exit (3);
    }
  int status = 0;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return 12;
  uint64_t after = raw_sigmask ();
  /* Bound to each CPU in turn: asked unbound, a thread moved between
     getcpu and both sched_getcpu calls on a loaded machine, and glibc
     alone, the oracle, read WRONG (a clean clone's make distcheck).  */
  cpu_set_t all;
  int cpus;
  if (sched_getaffinity (0, sizeof all, &all) != 0)
    return 12;
  int wrong = wrong_cpus (&all, &cpus);
  if (wrong < 0)
    return 12;
  printf ("vfork-pidns: %s %s; parent's mask %s, sched_getcpu %s\n",
          grandchild ? "grandchild killed, child" : "child",
          WIFSIGNALED (status) ? strsignal (WTERMSIG (status))
          : WEXITSTATUS (status) == 0 ? "exited" : "failed",
          after == before ? "kept" : "changed", wrong == 0 ? "right" : "WRONG");
  if (init > 0)
    {
      kill (init, SIGKILL);
      waitpid (init, NULL, 0);
    }
  return 0;
}

static int
vfork_pidns (void)
{
  if (unshare (CLONE_NEWPID) != 0)
    {
      printf ("vfork-pidns: no PID namespace (%s): run as root\n",
              strerror (errno));
      return 0;
    }
  /* Layout 0: the parent is the first namespace's PID 2, a child of
     this process (outside it: its parent is hidden from it), while
     PID 1 sleeps.  Layout 1: in a namespace of its own, the parent is
     PID 2 as a child of PID 1 (which it sees).  */
  pid_t init = fork ();
  if (init == 0)
    for (;;)
      pause ();
  int status = 0;
  pid_t p = fork ();
  if (p == 0)
    _exit (pidns_parent (0));
  waitpid (p, &status, 0);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    printf ("vfork-pidns: the parent in the namespace ended with %d\n",
            status);
  /* Before the first namespace's PID 1 goes, which ends it.  */
  pid_t q = fork ();
  if (q == 0)
    {
      if (unshare (CLONE_NEWPID) != 0)
        _exit (20);
      pid_t r = fork ();
      if (r == 0)
        {
          pid_t p1 = fork ();
          if (p1 == 0)
            _exit (pidns_parent (1));
          int st = 0;
          waitpid (p1, &st, 0);
          _exit (WIFEXITED (st) ? WEXITSTATUS (st) : 100);
        }
      int st = 0;
      waitpid (r, &st, 0);
      _exit (WIFEXITED (st) ? WEXITSTATUS (st) : 100);
    }
  waitpid (q, &status, 0);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    printf ("vfork-pidns: the parent in the second layout ended with %d\n",
            status);
  kill (init, SIGKILL);
  waitpid (init, NULL, 0);
  return 0;
}


#if defined HAVE_SECCOMP_HEADERS && defined SYS_rseq
static volatile sig_atomic_t faked_handled;

static void
on_faked_usr1 (int sig)
{
  (void) sig;
  faked_handled = 1;
}

#endif

#if defined HAVE_SECCOMP_HEADERS && defined SYS_rseq
/* A vfork whose child exits at once: its own frame, so that the
   caller's locals live across it.  */
static pid_t __attribute__ ((noinline))
vfork_exit0 (void)
{
  pid_t pid = vfork ();
  if (pid == 0)
    _exit (0);
  return pid;
}
#endif

/* In a child of its own: the filter stays with the process.  WHICH:
   0 every rseq call answered 0, 1 registrations only, 2
   unregistrations only.  Where every call or every unregistration is
   answered 0 the registration stays live, and the area must keep
   saying the CPU the process is pinned to right after each vfork
   returns, as without the shim (70th review: the shim cleared glibc
   2.36's live area after a faked unregistration, cpu_id_start 0,
   cpu_id -1, or wrote cpu_id -2 into it).  Where only registrations
   are faked, the shim's pause loses the registration (doc/using.md),
   and the area is not looked at.  */
static int
rseq_faked_child (int which)
{
#if defined HAVE_SECCOMP_HEADERS && defined SYS_rseq
  static const char *const names[]
    = { "every call", "registrations", "unregistrations" };
  /* args[2] is the flags: 0 registers, RSEQ_FLAG_UNREGISTER (1)
     unregisters.  */
  struct sock_filter code[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rseq, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[2])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, which == 2 ? 1 : 0, 0,
              which != 0 ? 1 : 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof code / sizeof code[0], code };
  cpu_set_t set;
  int cpu = -1;
  if (sched_getaffinity (0, sizeof set, &set) == 0)
    for (int i = 0; i < CPU_SETSIZE; i++)
      if (CPU_ISSET (i, &set))
        cpu = i;
  CPU_ZERO (&set);
  if (cpu >= 0)
    CPU_SET (cpu, &set);
  if (cpu < 0 || sched_setaffinity (0, sizeof set, &set) != 0)
    return 2;
  signal (SIGUSR1, on_faked_usr1);
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    return 2;
  int wrong = 0;
  uint32_t first_start = 0;
  int32_t first_id = 0;
  for (int i = 0; i < 200; i++)
    {
      pid_t pid = vfork_exit0 ();
      uint32_t start;
      int32_t id;
      if (which != 1 && area_ids (&start, &id)
          && (start != (uint32_t) cpu || id != cpu) && wrong++ == 0)
        {
          first_start = start;
          first_id = id;
        }
      if (pid < 0 || waitpid (pid, NULL, 0) != pid)
        return 2;
    }
  uint64_t mask = raw_sigmask ();
  raise (SIGUSR1);
  printf ("vfork-rseq-faked: %s: %d signals blocked after vfork, the "
          "handler %s\n", names[which], __builtin_popcountll (mask),
          faked_handled ? "ran" : "did not run");
  if (wrong != 0)
    printf ("vfork-rseq-faked: %s: the area said another CPU than %d "
            "after %d of 200 vforks (first: cpu_id_start %u, cpu_id %d)\n",
            names[which], cpu, wrong, (unsigned int) first_start,
            (int) first_id);
#else
  printf ("vfork-rseq-faked: no seccomp headers for this C library (%d)\n",
          which);
#endif
  return 0;
}

static int
vfork_rseq_faked (void)
{
  for (int which = 0; which < 3; which++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        _exit (rseq_faked_child (which));
      int status;
      if (pid < 0 || waitpid (pid, &status, 0) != pid
          || !WIFEXITED (status) || WEXITSTATUS (status) != 0)
        return 2;
    }
  return 0;
}

#if defined HAVE_SECCOMP_HEADERS && defined SYS_rseq
static void
on_trap_sys (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
  ucontext_t *uc = ctx;
# if defined __x86_64__
  uc->uc_mcontext.gregs[REG_RAX] = -ENOSYS;
# elif defined __aarch64__
  uc->uc_mcontext.regs[0] = -ENOSYS;
# endif
}

/* In a child of its own: STEP 0 traps rseq, STEP 1 refuses a
   SIG_SETMASK that asks for no old mask.  */
static int
vfork_filter_child (int step)
{
  uint64_t usr2 = (uint64_t) 1 << (SIGUSR2 - 1);
  syscall (SYS_rt_sigprocmask, SIG_BLOCK, &usr2, NULL, sizeof usr2);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_trap_sys;
  sa.sa_flags = SA_SIGINFO;
  sigaction (SIGSYS, &sa, NULL);
  struct sock_filter trap[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rseq, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_filter restore[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigprocmask, 0, 5),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[0])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SIG_SETMASK, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[2])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
#ifndef SECCOMP_RET_KILL_PROCESS
# define SECCOMP_RET_KILL_PROCESS SECCOMP_RET_KILL
#endif
  struct sock_filter no_handlers[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigaction, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_filter no_files[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog;
  if (step == 0)
    prog = (struct sock_fprog) { sizeof trap / sizeof trap[0], trap };
  else if (step == 1)
    prog = (struct sock_fprog) { sizeof restore / sizeof restore[0],
                                 restore };
  else if (step == 2)
    prog = (struct sock_fprog) { sizeof no_handlers / sizeof no_handlers[0],
                                 no_handlers };
  else
    prog = (struct sock_fprog) { sizeof no_files / sizeof no_files[0],
                                 no_files };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    return 2;
  pid_t pid = vfork ();
  if (pid == 0)
    _exit (__builtin_popcountll (raw_sigmask ()));
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status))
    return 3;
  printf ("vfork-filters: %s: the child had %d signals blocked, the "
          "parent %d\n", step == 3 ? "openat kills"
          : step == 2 ? "rt_sigaction kills"
          : step ? "restore refused" : "rseq trapped",
          WEXITSTATUS (status), __builtin_popcountll (raw_sigmask ()));
  return 0;
}
#endif

static int
vfork_filters (void)
{
#if defined HAVE_SECCOMP_HEADERS && defined SYS_rseq \
    && (defined __x86_64__ || defined __aarch64__)
  for (int step = 0; step < 4; step++)
    {
      pid_t pid = fork ();
      if (pid == 0)
        _exit (vfork_filter_child (step));
      int status;
      if (pid < 0 || waitpid (pid, &status, 0) != pid)
        return 2;
      if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
        printf ("vfork-filters: step %d ended with status %d\n", step,
                status);
    }
#else
  printf ("vfork-filters: no seccomp headers for this C library\n");
#endif
  return 0;
}

#if defined HAVE_SECCOMP_HEADERS && defined __x86_64__ && defined __GLIBC__
# include <execinfo.h>
# define HAVE_VFORK_BACKTRACE 1

/* The return addresses into the two callers of vfork that a backtrace
   from inside it must list, and how many it found.  */
static void *bt_want[2];
static volatile int bt_found = -1;

static void
on_trap_backtrace (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
  ucontext_t *uc = ctx;
  uc->uc_mcontext.gregs[REG_RAX] = -ENOSYS;
  void *pcs[64];
  int n = backtrace (pcs, 64);
  int found = 0;
  for (int w = 0; w < 2; w++)
    for (int i = 0; i < n; i++)
      if (pcs[i] == bt_want[w])
        {
          found++;
          break;
        }
  bt_found = found;
}

static pid_t __attribute__ ((noinline))
bt_call_vfork (void)
{
  bt_want[0] = __builtin_return_address (0);
  pid_t pid = vfork ();
  if (pid == 0)
    _exit (0);
  return pid;
}

static int __attribute__ ((noinline))
bt_caller (void)
{
  bt_want[1] = __builtin_return_address (0);
  pid_t pid = bt_call_vfork ();
  __asm__ volatile ("" ::: "memory");
  return pid;
}

/* In a child of its own: vfork under a filter that traps it; the
   program's SIGSYS handler takes a backtrace there.  */
static int
backtrace_child (void)
{
  /* backtrace loads libgcc_s (differential.exp links it): before the
     filter.  Without an unwinder the case proves nothing: it fails.  */
  void *warm[4];
  if (backtrace (warm, 4) < 2)
    return 3;
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_trap_backtrace;
  sa.sa_flags = SA_SIGINFO;
  sigaction (SIGSYS, &sa, NULL);
  struct sock_filter trap[] = {
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_vfork, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = { sizeof trap / sizeof trap[0], trap };
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    return 2;
  int ret = bt_caller ();
  printf ("vfork-backtrace: vfork %s; a backtrace from inside it found "
          "%d of its 2 callers\n", ret < 0 ? "refused" : "ran", bt_found);
  return 0;
}
#endif

/* vfork-backtrace (x86-64, glibc): a backtrace taken inside vfork (a
   filter traps its system call; the handler runs there) names its
   callers: the unwind tables of the shim's vfork are right (the path
   that calls glibc's own vfork before 2.25 had them 8 bytes off:
   sixteenth review).  */
static int
vfork_backtrace (void)
{
#ifdef HAVE_VFORK_BACKTRACE
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      int r = backtrace_child ();
      fflush (stdout);
      _exit (r);
    }
  int status;
  if (pid < 0 || waitpid (pid, &status, 0) != pid || !WIFEXITED (status)
      || WEXITSTATUS (status) != 0)
    return 2;
#else
  printf ("vfork-backtrace: x86-64 glibc only\n");
#endif
  return 0;
}

#define CLAIM_DEPTH 27
static char claim_stacks[CLAIM_DEPTH][128 * 1024]
  __attribute__ ((aligned (4096)));
static char *claim_page;
static int claim_depth;

static void *
claim_fn (void *arg)
{
  return arg;
}

static int
claim_create (pthread_t *where)
{
  pthread_attr_t a;
  pthread_attr_init (&a);
  pthread_attr_setstack (&a, claim_stacks[claim_depth],
                         sizeof claim_stacks[claim_depth]);
  int ret = pthread_create (where, &a, claim_fn, NULL);
  pthread_attr_destroy (&a);
  return ret;
}

static void
claim_on_segv (int sig)
{
  (void) sig;
  if (++claim_depth < CLAIM_DEPTH - 1)
    {
      claim_create ((pthread_t *) claim_page);
      return;
    }
  mprotect (claim_page, pagesize, PROT_READ | PROT_WRITE);
  struct rlimit rl;
  getrlimit (RLIMIT_AS, &rl);
  struct rlimit none = { 0, rl.rlim_max };
  setrlimit (RLIMIT_AS, &none);
  pthread_t t;
  errno = 4242;
  int own = claim_create (&t);
  int own_err = errno;
  pthread_attr_t a;
  pthread_attr_init (&a);
  pthread_attr_setstacksize (&a, 64 << 20);
  errno = 4242;
  int big = pthread_create (&t, &a, claim_fn, NULL);
  int big_err = errno;
  pthread_attr_destroy (&a);
  setrlimit (RLIMIT_AS, &rl);
  printf ("claim-errno: creation %d in flight, on its own stack: %s, "
          "errno %s\n", claim_depth + 1, own == 0 ? "created"
          : strerror (own), own_err == 4242 ? "kept" : strerror (own_err));
  printf ("claim-errno: on a stack of 64 MiB: %s, errno %s\n",
          big == 0 ? "created" : strerror (big),
          big_err == 4242 ? "kept" : strerror (big_err));
}

/* Grows the main thread's stack by BYTES now: under RLIMIT_AS 0 it
   cannot grow, and 27 nested handlers, each in a pthread_create, need
   more of it than a static program has used by then (seen: the static
   glibc 2.34 program with the archive killed by SIGSEGV).  */
static void __attribute__ ((noinline))
claim_grow_stack (size_t bytes)
{
  volatile char *area = alloca (bytes);
  for (size_t i = 0; i < bytes; i += 1024)
    area[i] = 0;
}

static int
claim_errno (void)
{
  claim_grow_stack (1 << 20);
  pagesize = sysconf (_SC_PAGESIZE);
  /* What the C library maps at its first creation, before the limit.  */
  pthread_t t;
  if (pthread_create (&t, NULL, claim_fn, NULL) != 0
      || pthread_join (t, NULL) != 0)
    return 2;
  claim_page = mmap (NULL, pagesize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
  if (claim_page == MAP_FAILED)
    return 2;
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = claim_on_segv;
  sa.sa_flags = SA_NODEFER;
  sigaction (SIGSEGV, &sa, NULL);
  claim_create ((pthread_t *) claim_page);
  /* The threads (detached by nobody, joined by nobody) return at once;
     the process ends with main.  */
  return 0;
}

#ifndef DIFFERENTIAL_STATIC
static int
dlerror_kept (void)
{
  if (dlopen ("/nonexistent/librseq-compat-test-none.so", RTLD_NOW) != NULL)
    return 2;
  pthread_attr_t a;
  pthread_t t;
  pthread_attr_init (&a);
  if (pthread_create (&t, &a, idle, NULL) != 0
      || pthread_join (t, NULL) != 0)
    return 2;
  pthread_attr_destroy (&a);
  size_t size = 64 * 1024;
  char *stack = malloc (size);
  if (stack == NULL)
    return 2;
  int status;
  int pid = clone (five, stack + size, CLONE_VM | CLONE_VFORK | SIGCHLD, NULL);
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    return 2;
  free (stack);
  const char *e = dlerror ();
  printf ("dlerror-kept: %s\n", e != NULL ? e : "(no message)");
  return 0;
}
#endif

#if !defined DIFFERENTIAL_STATIC && defined __GLIBC__
static int
dlvsym_empty (void)
{
  /* abi-list/librseq-compat.abilist's names, which abi.exp holds every
     build of the shim to.  */
  static const char *const names[] =
    {
      "clone", "dlsym", "dlvsym", "getcpu", "pthread_create",
      "sched_getcpu", "thrd_create", "vfork", "__rseq_flags",
      "__rseq_offset", "__rseq_size", "rseq_compat_mode",
      "rseq_compat_query", "malloc"
    };
  void *libc = dlopen ("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  /* dlvsym-nover.c, beside this program: a library without versions
     defining getcpu and clone, whose handle's search order has no
     shim.  */
  char self[4096];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 32);
  char *slash = n > 0 ? memrchr (self, '/', n) : NULL;
  if (libc == NULL || slash == NULL)
    return 2;
  strcpy (slash, "/libdlvsym-nover.so");
  void *nover = dlopen (self, RTLD_NOW | RTLD_LOCAL);
  if (nover == NULL)
    {
      printf ("dlvsym-empty: dlopen %s: %s\n", self, dlerror ());
      return 2;
    }
  void *const handles[] = { RTLD_DEFAULT, RTLD_NEXT, libc, nover };
  static const char *const handle_names[] =
    { "default", "next", "libc", "a library without versions" };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    for (size_t h = 0; h < sizeof handles / sizeof handles[0]; h++)
      {
        dlerror ();
        void *p = dlvsym (handles[h], names[i], "");
        const char *e = dlerror ();
        /* The message's object name may differ (doc/using.md).  */
        const char *u = e != NULL ? strstr (e, "undefined symbol") : NULL;
        /* Checked against the library's own, by an unversioned
           lookup, after dlerror was read.  */
        const char *what = p == NULL ? "NULL"
                           : h == 3 && p == dlsym (nover, names[i])
                           ? "the library's own" : "found";
        printf ("dlvsym-empty: %s in %s: %s; %s\n", names[i],
                handle_names[h], what,
                u != NULL ? u : e != NULL ? "another message" : "no message");
      }
  return 0;
}
#endif

static char *alt;
static size_t altsize;
static volatile sig_atomic_t on_alt = -1;

static void
on_usr2 (int sig)
{
  (void) sig;
  char here;
  on_alt = &here >= alt && &here < alt + altsize;
}

static void *
alt_work (void *arg)
{
  (void) arg;
  altsize = 64 * 1024;
  alt = malloc (altsize);
  /* The stack the thread had (a sanitizer's runtime gives each thread
     one, and frees it at the thread's exit) is put back before the
     exit.  */
  stack_t ss = { .ss_sp = alt, .ss_size = altsize, .ss_flags = 0 }, old;
  if (alt == NULL || sigaltstack (&ss, &old) != 0)
    return (void *) 1;
  pthread_barrier_wait (&barrier);
  /* A call a sanitizer's runtime intercepts: TSan delivers a signal only
     at the next one, and sched_yield is none.  */
  while (on_alt < 0)
    usleep (1000);
  if (old.ss_flags & SS_DISABLE)
    {
      old.ss_sp = NULL;
      old.ss_size = 0;
    }
  sigaltstack (&old, NULL);
  free (alt);
  return NULL;
}

static int
altstack (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr2;
  sa.sa_flags = SA_ONSTACK;
  sigaction (SIGUSR2, &sa, NULL);
  pthread_barrier_init (&barrier, NULL, 2);
  pthread_t t;
  if (pthread_create (&t, NULL, alt_work, NULL) != 0)
    return 2;
  pthread_barrier_wait (&barrier);
  pthread_kill (t, SIGUSR2);
  void *res;
  pthread_join (t, &res);
  printf ("altstack: %s\n", res != NULL ? "no alternate stack"
          : on_alt ? "the handler ran on the thread's alternate stack"
          : "the handler ran elsewhere");
  return 0;
}

static sigjmp_buf env;
/* NULL, read at run time: a store through it is kept, and faults.  */
static int *volatile nowhere;

static void
on_segv_jump (int sig)
{
  (void) sig;
  siglongjmp (env, 1);
}

static void *
segv_work (void *arg)
{
  (void) arg;
  if (sigsetjmp (env, 1) == 0)
    {
      *(volatile int *) nowhere = 1;
      return (void *) 1;
    }
  return NULL;
}

static int
segv_thread (void)
{
  signal (SIGSEGV, on_segv_jump);
  pthread_t t;
  void *res;
  if (pthread_create (&t, NULL, segv_work, NULL) != 0)
    return 2;
  pthread_join (t, &res);
  printf ("segv-thread: %s\n", res == NULL ? "recovered" : "no fault");
  return 0;
}

static void *
affinity_work (void *arg)
{
  int cpu = (int) (intptr_t) arg;
  cpu_set_t one;
  CPU_ZERO (&one);
  CPU_SET (cpu, &one);
  if (sched_setaffinity (0, sizeof one, &one) != 0)
    return (void *) -1;
  int wrong = 0;
  for (int i = 0; i < 1000; i++)
    {
      if (i % 100 == 0)
        sched_yield ();
      wrong += sched_getcpu () != cpu;
    }
  return (void *) (intptr_t) wrong;
}

static int
affinity (void)
{
  cpu_set_t set;
  if (sched_getaffinity (0, sizeof set, &set) != 0)
    return 2;
  int cpus = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &set))
      {
        pthread_t t;
        void *res;
        if (pthread_create (&t, NULL, affinity_work, (void *) (intptr_t) cpu) != 0)
          return 2;
        pthread_join (t, &res);
        if (res != NULL)
          printf ("affinity: CPU %d: %ld wrong answers\n", cpu, (long) (intptr_t) res);
        cpus++;
      }
  printf ("affinity: every allowed CPU checked%s\n", cpus > 0 ? "" : " (none)");
  return 0;
}

static void
at_exit (void)
{
  printf ("exit-thread: atexit ran\n");
}

static void *
exit_work (void *arg)
{
  (void) arg;
  pthread_barrier_wait (&barrier);
  printf ("exit-thread: exit (3) from a second thread\n");
  exit (3);
}

static int
exit_thread (void)
{
  atexit (at_exit);
  pthread_barrier_init (&barrier, NULL, 2);
  pthread_t t;
  if (pthread_create (&t, NULL, exit_work, NULL) != 0)
    return 2;
  pthread_barrier_wait (&barrier);
  pthread_join (t, NULL);
  return 1;
}

static void *
last_work (void *arg)
{
  (void) arg;
  usleep (50 * 1000);
  printf ("main-exit: the last thread ends the process\n");
  return NULL;
}

/* The main thread's line comes first whatever the scheduling: printed
   after pthread_create, a loaded machine let the thread's go first
   (make check-sanitize-bullseye saw it once).  */
static int
main_exit (void)
{
  pthread_t t;
  printf ("main-exit: the main thread calls pthread_exit\n");
  if (pthread_create (&t, NULL, last_work, NULL) != 0)
    return 2;
  pthread_exit (NULL);
}

static volatile sig_atomic_t handler_created, handler_failed;

static void *
handler_thread (void *arg)
{
  return arg;
}

static void
on_alarm_create (int sig)
{
  (void) sig;
  int saved = errno;
  pthread_attr_t a;
  pthread_t t;
  pthread_attr_init (&a);
  pthread_attr_setdetachstate (&a, PTHREAD_CREATE_DETACHED);
  if (pthread_create (&t, &a, handler_thread, NULL) == 0)
    handler_created++;
  else
    handler_failed++;
  pthread_attr_destroy (&a);
  errno = saved;
}

/* A hang (a lock taken twice in one thread) becomes a status of its
   own instead of stopping the suite.  */
static int watchdog_started;

static void *
watchdog (void *arg)
{
  (void) arg;
  __atomic_store_n (&watchdog_started, 1, __ATOMIC_RELEASE);
  sleep (60);
  static const char msg[] = "handler-create: hung\n";
  write (1, msg, sizeof msg - 1);
  _exit (9);
}

static int
handler_create (void)
{
  sigset_t all, old;
  pthread_t w;
  sigfillset (&all);
  pthread_sigmask (SIG_BLOCK, &all, &old);
  /* Also what makes musl's malloc take its lock: a second thread.  */
  if (pthread_create (&w, NULL, watchdog, NULL) != 0)
    return 2;
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  /* Running its own code, past whatever its start takes.  */
  while (!__atomic_load_n (&watchdog_started, __ATOMIC_ACQUIRE))
    sched_yield ();
  struct sigaction sa = { .sa_handler = on_alarm_create,
                          .sa_flags = SA_RESTART };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval it = { { 0, 500 }, { 0, 500 } };
  setitimer (ITIMER_REAL, &it, NULL);
  void *blocks[32];
  unsigned n = 0;
  while (handler_created + handler_failed < 300)
    {
      for (int i = 0; i < 32; i++)
        blocks[i] = malloc (16 + (n++ % 61) * 24);
      for (int i = 0; i < 32; i++)
        free (blocks[i]);
    }
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &off, NULL);
  printf ("handler-create: 300 threads from handlers, %s\n",
          handler_failed == 0 ? "none failed" : "some failed");
  return handler_failed != 0;
}

static void *
in_flight_work (void *arg)
{
  return (void *) ((uintptr_t) arg * 3 + 1);
}

static int
in_flight (void)
{
  enum { N = 200 };
  pthread_t t[N];
  cpu_set_t one;
  CPU_ZERO (&one);
  CPU_SET (sched_getcpu () >= 0 ? sched_getcpu () : 0, &one);
  sched_setaffinity (0, sizeof one, &one);
  /* Where the C library takes SCHED_IDLE (musl; glibc refuses it),
     none of them runs before the creator blocks in the first join.  */
  pthread_attr_t a, *ap = NULL;
  pthread_attr_init (&a);
  struct sched_param none = { .sched_priority = 0 };
  if (pthread_attr_setinheritsched (&a, PTHREAD_EXPLICIT_SCHED) == 0
      && pthread_attr_setschedpolicy (&a, SCHED_IDLE) == 0
      && pthread_attr_setschedparam (&a, &none) == 0)
    ap = &a;
  for (uintptr_t i = 0; i < N; i++)
    if (pthread_create (&t[i], ap, in_flight_work, (void *) i) != 0)
      return 2;
  pthread_attr_destroy (&a);
  int wrong = 0;
  for (uintptr_t i = 0; i < N; i++)
    {
      void *ret;
      pthread_join (t[i], &ret);
      wrong += (uintptr_t) ret != i * 3 + 1;
    }
  printf ("in-flight: %d threads, %d returned another's argument\n", N,
          wrong);
  return wrong != 0;
}

static const struct
{
  const char *name;
  int (*run) (void);
} cases[] =
{
  { "create-fault", create_fault },
  { "clone-null", clone_null },
  { "sigmask", sigmask_case },
  { "errno", errno_case },
  { "create-fail", create_fail },
  { "stack-min", stack_min },
  { "user-stack", user_stack },
  { "detached", detached },
  { "tls", tls },
  { "keys", keys },
  { "cancel", cancel },
  { "fork-thread", fork_thread },
  { "atfork", atfork },
  { "vfork-exec", vfork_exec },
  { "spawn", spawn },
  { "exec-thread", exec_thread },
  { "clone-fn", clone_fn },
  { "altstack", altstack },
  { "segv-thread", segv_thread },
  { "affinity", affinity },
  { "handler-create", handler_create },
  { "in-flight", in_flight },
  { "exit-thread", exit_thread },
  { "main-exit", main_exit },
  { "vfork-nested", vfork_nested },
  { "vfork-killed", vfork_killed },
  { "vfork-pidns", vfork_pidns },
  { "vfork-rseq-faked", vfork_rseq_faked },
  { "vfork-filters", vfork_filters },
  { "internal-mask", internal_mask },
  { "vfork-getpid", vfork_getpid },
  { "vfork-rtmin", vfork_rtmin },
  { "vfork-faults", vfork_faults },
  { "vfork-backtrace", vfork_backtrace },
  { "vfork-emulated", vfork_getpid },
  { "claim-errno", claim_errno },
#ifndef DIFFERENTIAL_STATIC
  { "dlerror-kept", dlerror_kept },
#endif
#if !defined DIFFERENTIAL_STATIC && defined __GLIBC__
  { "dlvsym-empty", dlvsym_empty },
#endif
};

int
main (int argc, char **argv)
{
  setvbuf (stdout, NULL, _IONBF, 0);
  if (argc == 2 && strcmp (argv[1], "exec-target") == 0)
    {
      printf ("exec-target: this program again, after exec\n");
      return 0;
    }
  for (size_t i = 0; argc == 2 && i < sizeof cases / sizeof cases[0]; i++)
    if (strcmp (argv[1], cases[i].name) == 0)
      return cases[i].run ();
  fprintf (stderr, "usage: differential CASE (see differential.c)\n");
  return 2;
}
