/* A library linked before -lrseq-compat (its constructor runs first on
   musl) whose pthread_create makes the shim decide, while a thread the
   shim does not see (musl's own thrd_create) forks at a chosen point of that
   decision: DECIDE_FORK=claim in its first getpid, which a seccomp
   filter traps (SIGSYS); publish at the first instruction after the
   mode is stored, the decision stepped with the trap flag (SIGTRAP);
   waiter at that same stop, but from a handler on that thread while
   its own pthread_create waits for the decision (its sched_yield,
   trapped by a seccomp filter of its own).  The child creates a
   thread that checks __rseq_size against its registration.  And
   without a fork: handler-claim and handler-mode step the decision
   and create a thread from the SIGTRAP handler at each instruction of
   the shim's, from the claim (or from the mode's store) until
   __rseq_compat_init_once returns; each pthread_create must return.
   x86-64.  decide-fork.exp.
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

/* Both points were windows of the shim's start-up before the fifth
   review (NEWS).  claim: the decision was claimed with the deciding
   thread's pointer, and its process ID stored afterwards (getpid in
   between), so that a child forked in between by another thread found
   a claim without an ID, took it for its own process's and waited for
   good in its first pthread_create.  publish: the mode was stored
   before __rseq_size, so that a child forked in between took the
   decision over, kept the mode and published 0 while the threads it
   started were registered.  waiter, before the sixth review: a thread
   that waits for the decision has its signals open, and the wait
   compared the claim with the process ID read once before it, so that
   a child forked by a handler there (the child returns into the wait)
   found its parent's claim, took it for its own and waited for good.
   Each stop is exact, not a matter of timing: a system call the shim
   makes there, or the one instruction after the store, and for waiter
   the first system call of the waiting thread's wait that the shim
   makes through the C library (sched_yield).

   handler-claim and handler-mode, before the sixth review: the
   deciding thread's flag, which a handler's pthread_create on that
   thread checks so as not to wait for itself, was set a few
   instructions after the claim and cleared a few before the decision
   was done; a handler there (SIGTRAP stays open during the decision,
   and any signal where a filter refuses the mask) waited for good.
   No instruction is left out, so the gaps are found wherever the
   compiler put them.  */

#define _GNU_SOURCE 1
#include "rtest.h"
#include "seccomp-filter.h"

#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <threads.h>
#include <time.h>
#include <ucontext.h>

#include "decide-fork.h"

#ifndef __x86_64__
# error "x86-64 only: the trap flag, and the system call's result in RAX"
#endif

#ifndef SECCOMP_RET_TRAP
# define SECCOMP_RET_TRAP 0x00030000u
#endif

#define TRAP_FLAG 0x100
#define ZERO_FLAG 0x40

/* How long the child may take; a child of the claim window before the
   fix never ends.  */
#define CHILD_SECONDS 5
/* How long one pthread_create from the SIGTRAP handler may take (it
   takes tens of microseconds), in the watchdog's 10 ms ticks.  */
#define CREATE_TICKS 300
/* Far more instructions than the decision takes (3,000 to 4,000 from
   the constructor's pthread_create with musl 1.2.3): stepping stops
   there rather than run into the C library's pthread_create, where
   SIGTRAP is blocked and a trap would kill the process.  */
#define STEP_LIMIT 5000000ul

static const char *window;
/* The command for the forking thread: 'f' forks at once, 'w' calls
   pthread_create and forks from a handler while it waits.  */
static char command;
static int to_forker[2], from_forker[2];
static thrd_t forker;

/* A thread the shim does not see: musl's own thrd_create, found in
   libc's handle.  The shim's thrd_create, which the program's calls
   reach, registers C11 threads (eightieth review) and so waits for the
   decision; a lookup in a handle answers with the shim's only once it
   owns the registration, and the first is made before it decides.  */
static int
unseen_create (thrd_t *t, thrd_start_t fn, void *arg)
{
  typedef int create_fn (thrd_t *, thrd_start_t, void *);
  static create_fn *real;
  if (real == NULL)
    {
      void *libc = dlopen ("libc.so", RTLD_LAZY | RTLD_NOLOAD);
      real = libc != NULL ? (create_fn *) dlsym (libc, "thrd_create") : NULL;
      CHECK (real != NULL && (void *) real != dlsym (RTLD_DEFAULT, "thrd_create"),
             "no thrd_create of musl's own: %p", (void *) real);
      if (real == NULL)
        return thrd_error;
    }
  return real (t, fn, arg);
}
/* The process's ID: what the SIGSYS handler makes getpid answer (the
   trap skips the system call).  */
static pid_t pid_now;
/* Set until the stop is reached.  */
static volatile sig_atomic_t armed;
static volatile unsigned long int steps;
/* Where the decision stopped (0: nowhere), and the child forked there
   (-1: none).  */
static volatile uintptr_t stopped_at;
static volatile pid_t child = -1;
static uintptr_t shim_base, shim_lo, shim_hi;
static const char *(*mode_fn) (void);
static const char *undecided;
static struct rt_abi abi;
/* Whether the constructor got as far as the decision.  */
static int ready;

/* The shim's code: the stop must be in it.  */
static int
find_shim (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  if (info->dlpi_name == NULL
      || strstr (info->dlpi_name, "librseq-compat") == NULL)
    return 0;
  shim_base = info->dlpi_addr;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD
        && (info->dlpi_phdr[i].p_flags & PF_X) != 0)
      {
        shim_lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        shim_hi = shim_lo + info->dlpi_phdr[i].p_memsz;
      }
  return 1;
}

static void *
noop (void *arg)
{
  return arg;
}

/* handler-claim and handler-mode: the claim's compare-and-swap (where
   it was, whether it succeeded, and the stack pointer after it, inside
   __rseq_compat_init_once's frame), the instruction stepped last,
   whether the decision's function has returned, the pthread_create
   calls made and failed, and the instruction whose call is under way
   (0: none), which the watchdog reports if the call never returns.  */
static uintptr_t claim_at, claim_sp, prev_pc;
static int claim_won;
static volatile uintptr_t returned_to;
static volatile unsigned long int creates, create_errors;
static volatile int first_create_error;
static volatile uintptr_t creating_at, first_create_at, last_create_at;
static volatile int watch_done;
static thrd_t watchdog;
static int from_mode;

/* waiter: set while the waiting thread's first trapped sched_yield
   is to fork; where that system call was (0: none forked).  */
static volatile sig_atomic_t waiter_armed;
static volatile uintptr_t waiter_at;

/* In a thread pthread_create started: it must be registered (the
   mode is shim-owned), and __rseq_size must say so.  */
static void *
check_thread (void *arg)
{
  const char *who = arg;
  unsigned int size = __atomic_load_n (abi.size, __ATOMIC_ACQUIRE);
  int registered = rt_registered (rt_area (&abi), rt_expected_len ());
  CHECK (registered, "%s: the new thread is not registered (mode %s)", who,
         mode_fn ());
  unsigned int want = registered ? rt_expected_size () : 0;
  CHECK (size == want,
         "%s: __rseq_size is %u, but the new thread is %sregistered: %u "
         "expected", who, size, registered ? "" : "not ", want);
  return NULL;
}

static int
child_main (void)
{
  pthread_t t;
  int err = pthread_create (&t, NULL, check_thread, (void *) "fork child");
  CHECK (err == 0, "fork child: pthread_create: %s", strerror (err));
  if (err == 0)
    pthread_join (t, NULL);
  return rt_exit_status ();
}

static void *
check_waiter (void *arg)
{
  (void) arg;
  return check_thread (syscall (SYS_getpid) == pid_now
                       ? (void *) "waiting thread"
                       : (void *) "fork child of the waiting thread");
}

static int trap_syscall (long int nr);

/* Tells the main thread, stopped in its handler, the child's ID.  */
static void
report_child (pid_t pid)
{
  if (write (from_forker[1], &pid, sizeof pid) != (ssize_t) sizeof pid)
    _exit (125);
}

/* waiter: this thread's pthread_create waits for the decision, which
   the main thread holds open; the first sched_yield of that wait traps
   (on_sigsys_yield), and the handler forks there.  The child returns
   from the handler into the wait, and must get out of it: its
   pthread_create returns and starts a thread, or the parent finds the
   child still there.  */
static void
fork_while_waiting (void)
{
  /* A trap whose signal is blocked kills the process instead; the
     wait has the thread's own mask, and a thread musl's thrd_create started
     may have SIGSYS blocked.  */
  sigset_t sys;
  sigemptyset (&sys);
  sigaddset (&sys, SIGSYS);
  pthread_sigmask (SIG_UNBLOCK, &sys, NULL);
  /* This thread's alone (and its children's, the fork child's
     included): the main thread's sched_yield, if any, is not
     trapped.  */
  int err = trap_syscall (SYS_sched_yield);
  CHECK (err == 0, "seccomp filter: %s", strerror (err));
  pthread_t t;
  if (err == 0)
    {
      waiter_armed = 1;
      err = pthread_create (&t, NULL, check_waiter, NULL);
      CHECK (err == 0, "waiting thread: pthread_create: %s", strerror (err));
    }
  if (err == 0)
    pthread_join (t, NULL);
  if (syscall (SYS_getpid) != pid_now)
    _exit (rt_exit_status ());
  /* Without a wait (or without the filter) no handler forked: the main
     thread learns there is no child.  */
  if (waiter_armed)
    {
      waiter_armed = 0;
      report_child (-1);
    }
}

/* The thread the shim does not see: forks when the main thread says.
   The seccomp filter of claim is the main thread's alone, installed
   after this one started, so the child is not filtered.  */
static int
forker_main (void *arg)
{
  (void) arg;
  char c;
  if (read (to_forker[0], &c, 1) != 1)
    return 0;
  if (c == 'w')
    {
      fork_while_waiting ();
      return 0;
    }
  pid_t pid = fork ();
  if (pid == 0)
    _exit (child_main ());
  report_child (pid);
  return 0;
}

/* From a handler on the deciding thread, stopped: the other thread
   forks (COMMAND says how), and this one waits until it has.  */
static void
fork_elsewhere (void)
{
  armed = 0;
  pid_t pid = -1;
  ssize_t n;
  if (write (to_forker[1], &command, 1) == 1)
    {
      while ((n = read (from_forker[0], &pid, sizeof pid)) < 0
             && errno == EINTR)
        ;
      if (n != (ssize_t) sizeof pid)
        pid = -1;
    }
  child = pid;
}

/* claim: getpid, trapped.  Before the fix the decision is claimed by
   then; after it, getpid comes first.  Either way the system call's
   answer is what the kernel would have given.  */
static void
on_sigsys (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  int saved = errno;
  ucontext_t *uc = ctx;
  uintptr_t at = (uintptr_t) si->si_call_addr;
  if (armed && si->si_syscall == SYS_getpid && at >= shim_lo && at < shim_hi)
    {
      stopped_at = at;
      fork_elsewhere ();
    }
  uc->uc_mcontext.gregs[REG_RAX] = pid_now;
  errno = saved;
}

/* waiter: the waiting thread's sched_yield, trapped, answered 0 as the
   kernel would.  The first forks: the parent tells the main thread,
   the child returns into the wait as the parent does.  */
static void
on_sigsys_yield (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  int saved = errno;
  ucontext_t *uc = ctx;
  if (si->si_syscall == SYS_sched_yield && waiter_armed)
    {
      waiter_armed = 0;
      waiter_at = (uintptr_t) si->si_call_addr;
      pid_t pid = fork ();
      if (pid != 0)
        report_child (pid);
    }
  uc->uc_mcontext.gregs[REG_RAX] = 0;
  errno = saved;
}

/* publish: one instruction done.  The first after which the mode is no
   longer "undecided" follows its store.  */
static void
on_sigtrap (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
  int saved = errno;
  ucontext_t *uc = ctx;
  if (armed)
    {
      if (++steps < STEP_LIMIT && mode_fn () == undecided)
        {
          /* The saved flags keep the trap flag: the next instruction
             traps too.  */
          errno = saved;
          return;
        }
      /* Past the limit the stop stays unreached: decide_fork_finish
         says so.  */
      if (mode_fn () != undecided)
        {
          stopped_at = uc->uc_mcontext.gregs[REG_RIP];
          fork_elsewhere ();
        }
      armed = 0;
    }
  uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t) TRAP_FLAG;
  errno = saved;
}

/* Whether the instruction at PC, in the shim's code, is LOCK CMPXCHG
   (F0, a REX prefix or none, 0F B1): the claim's compare-and-swap,
   the first the decision executes.  */
static int
is_lock_cmpxchg (uintptr_t pc)
{
  const unsigned char *p = (const unsigned char *) pc;
  if (p[0] != 0xf0)
    return 0;
  p++;
  if ((p[0] & 0xf0) == 0x40)
    p++;
  return p[0] == 0x0f && p[1] == 0xb1;
}

/* Whether it is RET (C3, C2, either after REP).  */
static int
is_ret (uintptr_t pc)
{
  const unsigned char *p = (const unsigned char *) pc;
  if (p[0] == 0xf3)
    p++;
  return p[0] == 0xc3 || p[0] == 0xc2;
}

static int
in_shim (uintptr_t pc)
{
  return pc >= shim_lo && pc < shim_hi;
}

/* handler-claim, handler-mode: one instruction done.  Until the claim
   nothing is done (a thread created there would make the decision
   itself, nested, and leave none to interrupt).  From it (for
   handler-mode, from the mode's store) until the decision's function
   returns, a thread is created and joined at each instruction of the
   shim's; the C library's are stepped through but left alone (a
   handler there could find the C library's own locks taken).  The
   function has returned at a RET that leaves the stack above its
   frame; any other RET is a callee's.  */
static void
on_sigtrap_create (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
  int saved = errno;
  ucontext_t *uc = ctx;
  uintptr_t pc = uc->uc_mcontext.gregs[REG_RIP];
  uintptr_t sp = uc->uc_mcontext.gregs[REG_RSP];
  uintptr_t last = prev_pc;
  prev_pc = pc;
  if (armed && ++steps >= STEP_LIMIT)
    armed = 0;
  else if (armed && claim_sp == 0)
    {
      if (in_shim (last) && is_lock_cmpxchg (last))
        {
          claim_at = last;
          claim_sp = sp;
          /* CMPXCHG sets ZF when it stored: this thread claimed the
             decision, and no earlier caller made it.  */
          claim_won = (uc->uc_mcontext.gregs[REG_EFL] & ZERO_FLAG) != 0;
        }
    }
  else if (armed && in_shim (last) && is_ret (last) && sp > claim_sp)
    {
      returned_to = pc;
      armed = 0;
    }
  if (!armed)
    {
      uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t) TRAP_FLAG;
      errno = saved;
      return;
    }
  if (claim_sp != 0 && in_shim (pc)
      && (!from_mode || mode_fn () != undecided))
    {
      creating_at = pc;
      if (first_create_at == 0)
        first_create_at = pc;
      last_create_at = pc;
      pthread_t t;
      int err = pthread_create (&t, NULL, noop, NULL);
      if (err == 0)
        pthread_join (t, NULL);
      else if (create_errors++ == 0)
        first_create_error = err;
      creates++;
      creating_at = 0;
    }
  /* The saved flags keep the trap flag: the next instruction traps
     too.  */
  errno = saved;
}

/* A pthread_create from the SIGTRAP handler that does not return waits
   for the decision its own thread is making: nothing else would end
   the test.  */
static int
watchdog_main (void *arg)
{
  (void) arg;
  unsigned long int seen = creates;
  int ticks = 0;
  while (!watch_done)
    {
      struct timespec ts = { 0, 10 * 1000 * 1000 };
      nanosleep (&ts, NULL);
      uintptr_t at = creating_at;
      if (at == 0 || creates != seen)
        {
          seen = creates;
          ticks = 0;
          continue;
        }
      if (++ticks < CREATE_TICKS)
        continue;
      CHECK (0, "%s: pthread_create from a SIGTRAP handler at "
             "librseq-compat+%#lx (the claim at +%#lx; %lu calls had "
             "returned) did not return in %d s: it waits for the decision "
             "its own thread is making", window,
             (unsigned long int) (at - shim_base),
             (unsigned long int) (claim_at - shim_base), creates,
             CREATE_TICKS / 100);
      _exit (rt_exit_status ());
    }
  return 0;
}

/* Sets or clears the trap flag, below the red zone that pushfq and
   popfq would overwrite (lea leaves the flags alone).  */
static void
trap_flag (int on)
{
  if (on)
    __asm__ volatile ("lea -128(%%rsp), %%rsp\n\t"
                      "pushfq\n\t"
                      "orq $0x100, (%%rsp)\n\t"
                      "popfq\n\t"
                      "lea 128(%%rsp), %%rsp" ::: "memory", "cc");
  else
    __asm__ volatile ("lea -128(%%rsp), %%rsp\n\t"
                      "pushfq\n\t"
                      "andq $-0x101, (%%rsp)\n\t"
                      "popfq\n\t"
                      "lea 128(%%rsp), %%rsp" ::: "memory", "cc");
}

/* A filter for the calling thread that traps the system call NR
   (SIGSYS).  */
static int
trap_syscall (long int nr)
{
  struct sock_filter code[] =
    {
      SF_OWN_ARCH_NR,
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (unsigned int) nr, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  return sf_load (code, sizeof code / sizeof code[0], 0);
}

__attribute__ ((constructor)) static void
decide_fork_start (void)
{
  window = getenv ("DECIDE_FORK");
  if (window == NULL)
    window = "unset";
  int claim = strcmp (window, "claim") == 0;
  int waiter = strcmp (window, "waiter") == 0;
  from_mode = strcmp (window, "handler-mode") == 0;
  int handler = from_mode || strcmp (window, "handler-claim") == 0;
  command = waiter ? 'w' : 'f';
  CHECK (claim || waiter || handler || strcmp (window, "publish") == 0,
         "DECIDE_FORK is %s, not claim, publish, waiter, handler-claim or "
         "handler-mode", window);
  mode_fn = (const char *(*) (void)) dlsym (RTLD_DEFAULT, "rseq_compat_mode");
  abi = rt_abi ();
  dl_iterate_phdr (find_shim, NULL);
  CHECK (mode_fn != NULL && abi.size != NULL && abi.offset != NULL
         && shim_lo != 0, "the shim is not loaded");
  if (rt_failures != 0)
    return;
  /* The premise: the shim's constructor has not run, and nothing has
     decided yet; the pthread_create below decides.  */
  undecided = mode_fn ();
  CHECK (strcmp (undecided, "undecided") == 0,
         "the shim decided before the first constructor (mode %s): the "
         "test cannot stop the decision", undecided);
  pid_now = (pid_t) syscall (SYS_getpid);
  CHECK (pipe (to_forker) == 0 && pipe (from_forker) == 0, "pipe: %s",
         strerror (errno));
  CHECK (unseen_create (&forker, forker_main, NULL) == thrd_success,
         "thrd_create failed");
  struct sigaction sa = { .sa_flags = SA_SIGINFO };
  sigemptyset (&sa.sa_mask);
  sa.sa_sigaction = claim ? on_sigsys
                    : handler ? on_sigtrap_create : on_sigtrap;
  CHECK (sigaction (claim ? SIGSYS : SIGTRAP, &sa, NULL) == 0,
         "sigaction: %s", strerror (errno));
  if (waiter)
    {
      sa.sa_sigaction = on_sigsys_yield;
      CHECK (sigaction (SIGSYS, &sa, NULL) == 0, "sigaction: %s",
             strerror (errno));
    }
  if (claim)
    {
      int err = trap_syscall (SYS_getpid);
      CHECK (err == 0, "seccomp filter: %s", strerror (err));
    }
  if (handler)
    CHECK (unseen_create (&watchdog, watchdog_main, NULL) == thrd_success,
           "thrd_create failed");
  if (rt_failures != 0)
    return;

  ready = 1;
  armed = 1;
  if (!claim)
    trap_flag (1);
  pthread_t t;
  int err = pthread_create (&t, NULL, noop, NULL);
  if (!claim)
    trap_flag (0);
  armed = 0;
  if (handler)
    {
      watch_done = 1;
      thrd_join (watchdog, NULL);
    }
  CHECK (err == 0, "pthread_create: %s", strerror (err));
  if (err == 0)
    pthread_join (t, NULL);
  /* The parent's own threads are registered and described, whatever
     became of the child.  */
  err = pthread_create (&t, NULL, check_thread, (void *) "parent");
  CHECK (err == 0, "pthread_create: %s", strerror (err));
  if (err == 0)
    pthread_join (t, NULL);
}

int
decide_fork_finish (void)
{
  if (!ready)
    return rt_exit_status ();
  if (strncmp (window, "handler-", 8) == 0)
    {
      CHECK (claim_at != 0, "%s: no claim (LOCK CMPXCHG) in the shim's "
             "code in %lu instructions stepped", window, steps);
      CHECK (claim_at == 0 || claim_won, "%s: the compare-and-swap at "
             "librseq-compat+%#lx did not store: not the decision's claim",
             window, (unsigned long int) (claim_at - shim_base));
      CHECK (returned_to != 0, "%s: the decision's function did not return "
             "in %lu instructions stepped", window, steps);
      CHECK (returned_to == 0 || in_shim (returned_to), "%s: the decision's "
             "function returned to %#lx, outside the shim's code", window,
             (unsigned long int) returned_to);
      CHECK (creates > 0, "%s: no thread created from the handler", window);
      CHECK (create_errors == 0, "%s: pthread_create from the handler failed "
             "%lu times (first: %s)", window, create_errors,
             strerror (first_create_error));
      if (claim_at != 0 && creates > 0)
        printf ("decide-fork %s: the claim at librseq-compat+%#lx; %lu "
                "threads created from the handler, at +%#lx to +%#lx; "
                "returned to +%#lx after %lu instructions stepped; mode %s\n",
                window, (unsigned long int) (claim_at - shim_base), creates,
                (unsigned long int) (first_create_at - shim_base),
                (unsigned long int) (last_create_at - shim_base),
                (unsigned long int) (returned_to - shim_base), steps,
                mode_fn ());
      close (to_forker[1]);
      thrd_join (forker, NULL);
      return rt_exit_status ();
    }
  if (stopped_at == 0)
    CHECK (0, "%s: the decision never reached the stop (%lu instructions "
           "stepped)", window, steps);
  else
    CHECK (stopped_at >= shim_lo && stopped_at < shim_hi,
           "%s: the decision stopped at %#lx, outside the shim's code", window,
           (unsigned long int) stopped_at);
  CHECK (child > 0, "%s: no child was forked", window);
  if (child > 0)
    {
      int status = 0;
      pid_t got = 0;
      for (int i = 0; i < CHILD_SECONDS * 100 && got == 0; i++)
        {
          got = waitpid (child, &status, WNOHANG);
          struct timespec ts = { 0, 10 * 1000 * 1000 };
          if (got == 0)
            nanosleep (&ts, NULL);
        }
      if (got == 0)
        {
          kill (child, SIGKILL);
          waitpid (child, &status, 0);
          CHECK (0, "%s: the child forked during the decision was still in "
                 "its pthread_create after %d s: it waits for a decision no "
                 "thread of its makes", window, CHILD_SECONDS);
        }
      else
        CHECK (got == child && WIFEXITED (status)
               && WEXITSTATUS (status) == 0,
               "%s: the child forked during the decision ended with status "
               "%#x", window, (unsigned int) status);
    }
  /* A forker never told to fork reads the end of the pipe.  */
  close (to_forker[1]);
  thrd_join (forker, NULL);
  if (stopped_at != 0)
    printf ("decide-fork %s: stopped at librseq-compat+%#lx (%lu "
            "instructions stepped), child %s; mode %s, __rseq_size %u\n",
            window, (unsigned long int) (stopped_at - shim_base), steps,
            child > 0 ? "forked" : "not forked", mode_fn (), *abi.size);
  if (waiter_at != 0)
    printf ("decide-fork %s: the waiting thread forked in sched_yield "
            "(the system call at %#lx)\n", window,
            (unsigned long int) waiter_at);
  return rt_exit_status ();
}
