/* Every thread is registered wherever its code runs: signal handlers,
   fork handlers, key destructors, atexit, cancellation cleanup, thread
   batches, a forked child, ELF destructors.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat (the glibc 2.31 and 2.36 series).

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

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include "tst-rseq.h"

#ifdef RSEQ_SIG

/* Every thread's area at a 64-byte boundary, registered or not
   (tst_check_area_alignment): the main thread's, placed by the loader
   or the static startup code, and those of new threads on stacks of
   varied sizes, from the cache or new, and on stacks the application
   supplies, whose ends are 16-byte steps apart, so that a descriptor
   placed at less than 64-byte alignment shows up whatever the static
   TLS size.  One thread at a time: the supplied stacks share one
   mapping.  Only where there is a signature: elsewhere no area is
   ever registered.  */
enum { alignment_threads = 64 };

static void *
alignment_thread (void *closure)
{
  char where[64];
  snprintf (where, sizeof where, "new thread %d", (int) (intptr_t) closure);
  tst_check_area_alignment (where);
  return closure;
}

static void
check_alignment (void)
{
  tst_check_area_alignment ("main thread");
  size_t min = PTHREAD_STACK_MIN;
  size_t supplied = 1024 * 1024;
  char *region = mmap (NULL, supplied + 4096, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  TEST_VERIFY_EXIT (region != MAP_FAILED);
  for (int i = 0; i < alignment_threads; ++i)
    {
      pthread_attr_t attr;
      TEST_COMPARE (pthread_attr_init (&attr), 0);
      if (i % 4 == 1)
        TEST_COMPARE (pthread_attr_setstacksize (&attr, min + i * 4096
                                                 + (i % 3) * 1000), 0);
      else if (i % 4 == 2)
        TEST_COMPARE (pthread_attr_setstacksize (&attr, 4 * min + i * 16),
                      0);
      else if (i % 4 == 3)
        TEST_COMPARE (pthread_attr_setstack (&attr, region + 16 * (i / 4),
                                             supplied), 0);
      pthread_t thread;
      void *result;
      TEST_COMPARE (pthread_create (&thread, &attr, alignment_thread,
                                    (void *) (intptr_t) i), 0);
      TEST_COMPARE (pthread_join (thread, &result), 0);
      TEST_VERIFY (result == (void *) (intptr_t) i);
      TEST_COMPARE (pthread_attr_destroy (&attr), 0);
    }
  TEST_COMPARE (munmap (region, supplied + 4096), 0);
}

enum { batches = 4, batch_threads = 8 };

/* Results of code that cannot report itself (handlers).  The batch
   threads' handlers run at the same time on several CPUs, so the
   counters are updated atomically: a plain increment of a volatile
   sig_atomic_t is a load and a store, and two handlers can lose one
   of their updates.  */
static unsigned int signals_seen, signals_registered;
static volatile int prepare_registered, parent_registered;
static unsigned int key_destructors_seen, key_destructors_registered;
static pthread_key_t key;

static void
signal_handler (int sig)
{
  /* tst_rseq_registered sets errno; the interrupted code may need it.  */
  int saved_errno = errno;
  __atomic_fetch_add (&signals_seen, 1, __ATOMIC_RELAXED);
  if (tst_rseq_registered ())
    __atomic_fetch_add (&signals_registered, 1, __ATOMIC_RELAXED);
  errno = saved_errno;
}

static void
fork_prepare (void)
{
  prepare_registered = tst_rseq_registered ();
}

static void
fork_parent (void)
{
  parent_registered = tst_rseq_registered ();
}

static volatile int child_registered;
static void
fork_child (void)
{
  child_registered = tst_rseq_registered ();
}

static void
key_destructor (void *value)
{
  __atomic_fetch_add (&key_destructors_seen, 1, __ATOMIC_RELAXED);
  if (tst_rseq_registered ())
    __atomic_fetch_add (&key_destructors_registered, 1, __ATOMIC_RELAXED);
}

/* An exit path that fails the test after do_test returned.  */
static void
fail_at_exit (const char *where)
{
  static const char prefix[] = "error: not registered in ";
  write (STDOUT_FILENO, prefix, sizeof prefix - 1);
  write (STDOUT_FILENO, where, strlen (where));
  write (STDOUT_FILENO, "\n", 1);
  _exit (1);
}

static void
atexit_handler (void)
{
  if (!tst_rseq_registered ())
    fail_at_exit ("an atexit handler");
}

/* A copy that exec_unregistered executes runs unregistered on purpose,
   in the test driver's supervising process too, and so does every
   process where the kernel has no rseq system call.  */
static void __attribute__ ((destructor))
elf_destructor (void)
{
  if (getenv ("TST_RSEQ_EXEC") == NULL && !tst_rseq_enosys ()
      && !tst_rseq_registered ())
    fail_at_exit ("an ELF destructor");
}

/* A thread of a batch: registered, in its own signal handler too, and
   so is a thread it creates.  */
static void *
batch_thread (void *closure)
{
  tst_check_registered ("batch thread");
  TEST_COMPARE (pthread_setspecific (key, closure), 0);
  /* Delivered to this thread before pthread_kill returns.  */
  TEST_COMPARE (pthread_kill (pthread_self (), SIGUSR1), 0);
  if (closure != NULL)
    {
      pthread_t nested;
      TEST_COMPARE (pthread_create (&nested, NULL, batch_thread, NULL), 0);
      TEST_COMPARE (pthread_join (nested, NULL), 0);
    }
  return NULL;
}

/* Leaves its descriptor as no registered thread could: unregistered,
   with IDs no CPU has and a critical-section pointer that the kernel
   would fault on.  A thread reusing the descriptor survives only if
   its area is cleared before it registers.  */
static void *
dirty_thread (void *closure)
{
  tst_check_registered ("dirty thread");
  struct rseq *area = tst_rseq_area ();
  TEST_COMPARE (tst_rseq_syscall (area,
                                  rseq_layout_libc_reg_len (__rseq_size),
                                  RSEQ_FLAG_UNREGISTER), 0);
  area->cpu_id_start = 123456;
  area->cpu_id = 123456;
  area->rseq_cs = 1;
  return area;
}

static void *
reusing_thread (void *closure)
{
  struct rseq *area = tst_rseq_area ();
  TEST_COMPARE (area->rseq_cs, 0);
  TEST_VERIFY (area->cpu_id < 123456);
  tst_check_registered ("thread on a reused stack");
  return area;
}

/* Signals sent to threads that have just been created.  A thread that
   registers starts with every signal blocked (the 2.31 series blocks
   them for it, 2.36 for every thread) and unblocks them once
   registered, so the handler runs registered and must see the CPU the
   process is pinned to: neither "not registered" (-1), which a broken
   mask would show, nor the stale ID a dirty_thread left in the
   descriptor the new thread reuses.  Where nothing registers
   (__rseq_size 0: qemu-user), it must see a negative ID.  */
enum { early_threads = 500 };
static int pinned_cpu;
static unsigned int early_runs, early_bad;
static volatile int early_bad_id;
static __thread volatile sig_atomic_t early_handled;

static void
early_handler (int sig)
{
  int id = (int) tst_rseq_area ()->cpu_id;
  if (__rseq_size != 0 ? id != pinned_cpu : id >= 0)
    {
      early_bad_id = id;
      __atomic_fetch_add (&early_bad, 1, __ATOMIC_RELAXED);
    }
  __atomic_fetch_add (&early_runs, 1, __ATOMIC_RELAXED);
  early_handled = 1;
}

/* Alive until its signal came: pthread_kill fails with ESRCH on a
   thread that has already exited.  */
static void *
early_thread (void *closure)
{
  while (!early_handled)
    sched_yield ();
  return NULL;
}

static void
early_signals (void)
{
  cpu_set_t set;
  TEST_COMPARE (sched_getaffinity (0, sizeof set, &set), 0);
  pinned_cpu = -1;
  for (int i = 0; i < CPU_SETSIZE && pinned_cpu < 0; ++i)
    if (CPU_ISSET (i, &set))
      pinned_cpu = i;
  TEST_VERIFY_EXIT (pinned_cpu >= 0);
  CPU_ZERO (&set);
  CPU_SET (pinned_cpu, &set);
  TEST_COMPARE (sched_setaffinity (0, sizeof set, &set), 0);

  struct sigaction sa = { .sa_handler = early_handler };
  sigemptyset (&sa.sa_mask);
  TEST_COMPARE (sigaction (SIGUSR2, &sa, NULL), 0);
  for (int i = 0; i < early_threads; ++i)
    {
      pthread_t thread;
      TEST_COMPARE (pthread_create (&thread, NULL, dirty_thread, NULL), 0);
      TEST_COMPARE (pthread_join (thread, NULL), 0);
      TEST_COMPARE (pthread_create (&thread, NULL, early_thread, NULL), 0);
      TEST_COMPARE (pthread_kill (thread, SIGUSR2), 0);
      TEST_COMPARE (pthread_join (thread, NULL), 0);
    }
  TEST_COMPARE (early_runs, early_threads);
  if (early_bad != 0)
    TST_FAIL ("%u early signal handlers saw a stale cpu_id (first %d, "
              "pinned to %d)", early_bad, early_bad_id, pinned_cpu);
}

static int cleanup_registered = -1;
static void
cancel_cleanup (void *closure)
{
  cleanup_registered = tst_rseq_registered ();
}

static void *
cancelled_thread (void *closure)
{
  pthread_barrier_t *barrier = closure;
  pthread_cleanup_push (cancel_cleanup, NULL);
  pthread_barrier_wait (barrier);
  for (;;)
    pause ();
  pthread_cleanup_pop (0);
  return NULL;
}

static void *
user_stack_thread (void *closure)
{
  tst_check_registered ("thread on a user-supplied stack");
  return NULL;
}

/* The new thread starts with its creator's signal mask once
   registered: blocking every signal for the registration must not leak
   into the thread or stay in the creator.  */
static sigset_t creator_mask;

static void *
mask_thread (void *closure)
{
  sigset_t mine;
  TEST_COMPARE (pthread_sigmask (SIG_SETMASK, NULL, &mine), 0);
  for (int sig = 1; sig < SIGRTMIN; ++sig)
    if (sigismember (&mine, sig) != sigismember (&creator_mask, sig))
      TST_FAIL ("new thread: signal %d is %s, in its creator %s", sig,
                sigismember (&mine, sig) ? "blocked" : "unblocked",
                sigismember (&creator_mask, sig) ? "blocked" : "unblocked");
  tst_check_registered ("thread with its creator's mask");
  return closure;
}

static void
mask_kept (void)
{
  sigset_t block, before, after;
  sigemptyset (&block);
  sigaddset (&block, SIGUSR2);
  sigaddset (&block, SIGTERM);
  sigaddset (&block, SIGCHLD);
  TEST_COMPARE (pthread_sigmask (SIG_BLOCK, &block, &before), 0);
  TEST_COMPARE (pthread_sigmask (SIG_SETMASK, NULL, &creator_mask), 0);
  pthread_t thread;
  TEST_COMPARE (pthread_create (&thread, NULL, mask_thread, NULL), 0);
  TEST_COMPARE (pthread_join (thread, NULL), 0);
  TEST_COMPARE (pthread_sigmask (SIG_SETMASK, NULL, &after), 0);
  for (int sig = 1; sig < SIGRTMIN; ++sig)
    if (sigismember (&after, sig) != sigismember (&creator_mask, sig))
      TST_FAIL ("creator: signal %d changed across pthread_create", sig);
  TEST_COMPARE (pthread_sigmask (SIG_SETMASK, &before, NULL), 0);
}

/* vfork and posix_spawn make a process that shares the memory and
   starts unregistered (CLONE_VM): the parent must come back registered,
   with its area as it was.  */
static void
shared_memory_children (void)
{
  pid_t pid = vfork ();
  if (pid == 0)
    _exit (0);
  TEST_VERIFY_EXIT (pid > 0);
  int status;
  TEST_COMPARE (waitpid (pid, &status, 0), pid);
  TEST_COMPARE (status, 0);
  tst_check_registered ("after vfork");
  char *argv[] = { (char *) "true", NULL };
  TEST_COMPARE (posix_spawn (&pid, "/bin/true", NULL, NULL, argv, NULL), 0);
  TEST_COMPARE (waitpid (pid, &status, 0), pid);
  TEST_COMPARE (status, 0);
  tst_check_registered ("after posix_spawn");
  TEST_COMPARE ((int) tst_rseq_area ()->cpu_id, pinned_cpu);
}

/* From now on the rseq system call fails with ERROR in this process
   and in whatever it executes (a seccomp filter, as a container
   runtime installs one).  False if the filter cannot be installed.  */
static bool
refuse_rseq (int error)
{
  struct sock_filter filter[] =
    {
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr)),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_rseq, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ERRNO | error),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  struct sock_fprog prog =
    { .len = sizeof filter / sizeof filter[0], .filter = filter };
  return prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
         && prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0;
}

/* A process that starts unregistered, because the system call is
   refused from its first instruction (ENOSYS, as a kernel without rseq
   answers) or because glibc.pthread.rseq=0 is in its environment, runs
   as glibc 2.35 and later do there: __rseq_size 0, the area reads
   "registration failed", sched_getcpu works, and its threads start
   unregistered, without the fatal error of a later thread whose
   registration fails.  Checked in a copy of this test that a child
   executes, with TST_RSEQ_EXEC naming the case, and in the test itself
   where the kernel has no rseq system call (qemu-user).  */
static void
check_unregistered (const char *where)
{
  printf ("info: %s\n", where);
  tst_check_unregistered (where);
  TEST_VERIFY (!tst_rseq_registered ());
}

static void *
unregistered_thread (void *closure)
{
  check_unregistered ("a new thread of the executed copy");
  return closure;
}

static int
exec_child_test (const char *how)
{
  printf ("info: unregistered: %s\n", how);
  check_unregistered ("the executed copy's main thread");
  for (int i = 0; i < 4; ++i)
    {
      pthread_t thread;
      TEST_COMPARE (pthread_create (&thread, NULL, unregistered_thread, NULL),
                    0);
      TEST_COMPARE (pthread_join (thread, NULL), 0);
    }
  return 0;
}

/* Executes this test again, the way it was started: /proc/self/exe
   with /proc/self/cmdline, so that a test run through ld.so
   --library-path runs through it again.  */
static void
exec_self (void)
{
  static char cmdline[8192];
  char *argv[64];
  int fd = open ("/proc/self/cmdline", O_RDONLY);
  if (fd < 0)
    _exit (6);
  ssize_t n = read (fd, cmdline, sizeof cmdline - 1);
  close (fd);
  if (n <= 0)
    _exit (6);
  int argc = 0;
  for (char *p = cmdline; p < cmdline + n && argc < 63; p += strlen (p) + 1)
    argv[argc++] = p;
  argv[argc] = NULL;
  execv ("/proc/self/exe", argv);
  _exit (7);
}

static void
exec_unregistered (const char *how)
{
  pid_t pid = fork ();
  TEST_VERIFY_EXIT (pid >= 0);
  if (pid == 0)
    {
      if (strcmp (how, "rseq refused (ENOSYS)") == 0)
        {
          if (!refuse_rseq (ENOSYS))
            _exit (2);
        }
      else if (setenv ("GLIBC_TUNABLES", "glibc.pthread.rseq=0", 1) != 0)
        _exit (2);
      if (setenv ("TST_RSEQ_EXEC", how, 1) != 0)
        _exit (2);
      exec_self ();
    }
  int status;
  TEST_COMPARE (waitpid (pid, &status, 0), pid);
  if (status != 0)
    TST_FAIL ("executed with %s: status %#x", how, status);
}

/* A later thread whose registration fails, once the process has told
   every library that rseq is in use, ends the process ("Fatal glibc
   error: rseq registration failed"), as in glibc 2.35 and later.  In a
   child: a seccomp filter answers rseq with EPERM from then on.  */
static void *
never_runs (void *closure)
{
  _exit (4);
}

static void
later_thread_fails (void)
{
  pid_t pid = fork ();
  TEST_VERIFY_EXIT (pid >= 0);
  if (pid == 0)
    {
      if (!refuse_rseq (EPERM))
        _exit (2);
      puts ("info: a thread whose registration the filter refuses; the "
            "fatal error that follows is expected");
      fflush (stdout);
      pthread_t thread;
      if (pthread_create (&thread, NULL, never_runs, NULL) == 0)
        pthread_join (thread, NULL);
      _exit (3);
    }
  int status;
  TEST_COMPARE (waitpid (pid, &status, 0), pid);
  if (!WIFSIGNALED (status) || WTERMSIG (status) != SIGABRT)
    TST_FAIL ("a thread whose registration failed: status %#x, not "
              "SIGABRT", status);
}

static int
do_test (void)
{
  const char *exec_case = getenv ("TST_RSEQ_EXEC");
  if (exec_case != NULL)
    return exec_child_test (exec_case);

  check_alignment ();
  if (tst_rseq_enosys ())
    return exec_child_test ("no rseq system call here (ENOSYS)");

  TEST_VERIFY_EXIT (__rseq_size > 0);
  tst_check_registered ("main thread");

  struct sigaction sa = { .sa_handler = signal_handler };
  sigemptyset (&sa.sa_mask);
  TEST_COMPARE (sigaction (SIGUSR1, &sa, NULL), 0);
  TEST_COMPARE (pthread_key_create (&key, key_destructor), 0);
  TEST_COMPARE (atexit (atexit_handler), 0);
  TEST_COMPARE (pthread_atfork (fork_prepare, fork_parent, fork_child), 0);

  /* The main thread's signal handler.  */
  TEST_COMPARE (raise (SIGUSR1), 0);
  TEST_COMPARE (signals_seen, 1);
  TEST_COMPARE (signals_registered, 1);

  /* Batches of threads, each creating one more; later batches reuse
     the stacks of earlier ones.  */
  for (int b = 0; b < batches; ++b)
    {
      pthread_t threads[batch_threads];
      for (int i = 0; i < batch_threads; ++i)
        TEST_COMPARE (pthread_create (&threads[i], NULL, batch_thread,
                                      (void *) 1), 0);
      for (int i = 0; i < batch_threads; ++i)
        TEST_COMPARE (pthread_join (threads[i], NULL), 0);
    }
  int threads = batches * batch_threads * 2;
  TEST_COMPARE (signals_seen, 1 + threads);
  TEST_COMPARE (signals_registered, 1 + threads);
  /* Only the outer threads set the key to non-NULL.  */
  TEST_COMPARE (key_destructors_seen, batches * batch_threads);
  TEST_COMPARE (key_destructors_registered, batches * batch_threads);

  /* A descriptor from the stack cache.  */
  pthread_t thread;
  void *dirty_area, *reused_area;
  TEST_COMPARE (pthread_create (&thread, NULL, dirty_thread, NULL), 0);
  TEST_COMPARE (pthread_join (thread, &dirty_area), 0);
  TEST_COMPARE (pthread_create (&thread, NULL, reusing_thread, NULL), 0);
  TEST_COMPARE (pthread_join (thread, &reused_area), 0);
  /* Otherwise the stack cache was not used and nothing was tested.  */
  TEST_VERIFY (reused_area == dirty_area);

  /* A thread on a stack the application supplies.  */
  size_t stack_size = 1024 * 1024;
  void *stack = mmap (NULL, stack_size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  TEST_VERIFY_EXIT (stack != MAP_FAILED);
  memset (stack, 0xa5, stack_size);
  pthread_attr_t attr;
  TEST_COMPARE (pthread_attr_init (&attr), 0);
  TEST_COMPARE (pthread_attr_setstack (&attr, stack, stack_size), 0);
  TEST_COMPARE (pthread_create (&thread, &attr, user_stack_thread, NULL), 0);
  TEST_COMPARE (pthread_join (thread, NULL), 0);
  TEST_COMPARE (pthread_attr_destroy (&attr), 0);

  /* Cancellation cleanup.  */
  pthread_barrier_t barrier;
  TEST_COMPARE (pthread_barrier_init (&barrier, NULL, 2), 0);
  TEST_COMPARE (pthread_create (&thread, NULL, cancelled_thread, &barrier), 0);
  pthread_barrier_wait (&barrier);
  TEST_COMPARE (pthread_cancel (thread), 0);
  void *result;
  TEST_COMPARE (pthread_join (thread, &result), 0);
  TEST_VERIFY (result == PTHREAD_CANCELED);
  TEST_COMPARE (cleanup_registered, 1);
  pthread_barrier_destroy (&barrier);

  /* A forked child keeps the registration, and its threads register.  */
  pid_t pid = fork ();
  TEST_VERIFY_EXIT (pid >= 0);
  if (pid == 0)
    {
      if (!child_registered || !tst_rseq_registered ())
        _exit (2);
      TEST_COMPARE (pthread_create (&thread, NULL, batch_thread, NULL), 0);
      TEST_COMPARE (pthread_join (thread, NULL), 0);
      _exit (signals_registered == signals_seen ? 0 : 3);
    }
  int status;
  TEST_COMPARE (waitpid (pid, &status, 0), pid);
  TEST_COMPARE (status, 0);
  TEST_COMPARE (prepare_registered, 1);
  TEST_COMPARE (parent_registered, 1);

  early_signals ();
  mask_kept ();
  shared_memory_children ();
  later_thread_fails ();
  exec_unregistered ("rseq refused (ENOSYS)");
  exec_unregistered ("glibc.pthread.rseq=0");

  /* atexit_handler and elf_destructor check the exit path.  */
  return 0;
}

#else  /* !RSEQ_SIG */

static void *
no_signature_thread (void *closure)
{
  tst_check_no_signature ("new thread");
  return closure;
}

static int
do_test (void)
{
  tst_check_no_signature ("main thread");
  pthread_t t;
  TEST_COMPARE (pthread_create (&t, NULL, no_signature_thread, NULL), 0);
  TEST_COMPARE (pthread_join (t, NULL), 0);
  return 0;
}

#endif  /* RSEQ_SIG */

#include <support/test-driver.c>
