/* A seccomp filter traps (SECCOMP_RET_TRAP) one system call that
   pthread_create makes in the creating thread, and the program's SIGSYS
   handler answers it, as in-process sandboxes and emulators do:

     affinity  sched_setaffinity, answered 0: a thread created with an
               affinity attribute (glibc sets it from the creator);
     sched     sched_setscheduler, answered 0: explicit scheduling;
     clone     clone, answered EAGAIN: pthread_create must return it;
     rseq      rseq, answered with its own number, which is what a
               handler that leaves the register alone returns on
               x86-64: a new thread's registration made this way did
               not happen, and must not count as one (88th review);
     nested    as affinity, with SIGUSR2 blocked, and the handler
               creates a thread of its own, which must start with the
               handler's mask (SIGUSR2 and SIGSYS), not what
               pthread_create blocked around the trapped call; then
               setresuid, which waits for every thread to take
               SIGSETXID (91st review: it waited for good);
     unblock   as nested, and the handler unblocks SIGUSR1 first (93rd
               review, F1: the thread was not taken for a handler's,
               and kept every signal blocked);
     roundtrip as nested, and the handler saves and restores its mask
               with pthread_sigmask first (F3: glibc's pthread_sigmask
               opens its internal signals, and the same happened);
     twice     as unblock, then the handler blocks SIGUSR1 again and
               creates a second thread (F2: the first creation ended
               the outer one's state, and the second thread kept every
               signal blocked); "inner=FIRST;SECOND";
     stale     as affinity, and the handler leaves by siglongjmp; main
               then blocks every signal but SIGSYS and creates a thread
               from deeper down, which must start with that mask (F4:
               the flag the abandoned call left was taken, and the
               thread started with the window's saved mask);
               "stale=same" or "stale=SIGNALS";
     deep      as nested, and the handler's frame takes 2 MiB of stack
               first (95th review, F2: more than 1 MiB below the
               window, the shim did not take it for a handler);
     altstack  as nested, with the handler on an alternate signal stack
               (SA_ONSTACK) allocated below the window (F3: the same);
     setcontext as affinity, and the handler leaves by setcontext
               (glibc); main then longjmps across a frame that
               overwrites the abandoned one's stack, and creates a
               thread (95th review, F1: a record of the window stayed
               on glibc's cleanup-buffer list, and the longjmp called
               what the frame then held); "setcontext=ok" and the
               thread's mask against main's, as stale;
     autodisarm as nested, with the handler on a signal stack armed with
               SS_AUTODISARM, in main's frame (above the window); on
               glibc the filter traps the clone of main's creation alone
               (its thread's stack is the program's), answered EAGAIN:
               the patched 2.31's window is around clone (98th review,
               F1: the kernel reports no signal stack in such a
               handler, and the window was taken for left);
     rearm     as autodisarm, and the handler arms another such stack
               before it creates (99th review, F1: a record of the
               stack kept by sigaltstack was then wrong);
     jump      as autodisarm without SS_AUTODISARM, and the handler's
               own creation is trapped too (on glibc, on the same
               program's stack), whose handler leaves by siglongjmp;
               main then creates as in stale ("jump=same") (99th
               review, S5: the patched 2.31's longjmp left both windows
               open, the inner one's record lying on the signal stack
               above the target);
     leftopen  main raises SIGUSR1, whose handler runs on a stack in
               main's frame armed with SS_AUTODISARM, outside any
               window, and creates a thread on the program's stack,
               whose clone (musl: mapping) traps; the SIGSYS handler
               leaves by siglongjmp, and main creates as in stale.  The
               kernel reports no signal stack in the handlers, the
               window's record lies above the jump's target, and the
               shim and the patched 2.31 keep that window open: main's
               thread gets the handler's mask, a limit that the .exp
               pins ("leftopen=SIGNALS"; 100th review, N1, and the
               105th's Q1);
     version   prints the C library, with no filter.

   Prints "LIBC VERSION: pthread_create=E handler=N thread-ran=R
   consistent=C" (nested: and "inner=SIGNALS setxid=S", the signals
   the handler's thread has blocked and what setresuid returned), or
   dies by SIGSYS where the C library blocks SIGSYS across the call
   (glibc 2.32 and later block every signal around clone).  glibc
   before 2.32 runs the handler, and so must the shim and the patched
   2.31, which blocked it once (87th review).  The .exp holds the
   expectations.

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

#include "rtest.h"
#include "seccomp-filter.h"
#include <alloca.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <stddef.h>
#include <sys/mman.h>
#include <stdio.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>
#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif

/* The kernel's (linux/signal.h), which glibc's headers lack.  */
#ifndef SS_AUTODISARM
# define SS_AUTODISARM (1U << 31)
#endif
#ifndef SECCOMP_RET_TRAP
# define SECCOMP_RET_TRAP 0x00030000u
#endif

#if defined __x86_64__
# define RETURN_REG(uc) ((uc)->uc_mcontext.gregs[REG_RAX])
#elif defined __aarch64__
# define RETURN_REG(uc) ((uc)->uc_mcontext.regs[0])
#endif

static volatile sig_atomic_t handled;
static volatile sig_atomic_t thread_ran;
/* 0 once a thread finds its area saying what it is not.  */
static volatile sig_atomic_t consistent = 1;
static struct rt_abi abi;
static long answer;

/* What the handler does: 0 nothing, else one of the modes below.  */
enum { NESTED = 1, UNBLOCK, ROUNDTRIP, TWICE, STALE, DEEP, ALTSTACK,
       SETCONTEXT, AUTODISARM, REARM, JUMP, LEFTOPEN };
static int nested;
/* The blocked signals of the handler's threads, as "12,31", once they
   have run.  */
static char inner_mask[2][256];
static volatile sig_atomic_t inner_done[2];
static sigjmp_buf stale_env;
/* Program-given stacks for main's creation and, in the jump mode, the
   handler's, whose clones the filter traps (glibc).  */
static char *own_stack;
#define OWN_SIZE ((size_t) 2 << 20)
#define OWN_HALF (OWN_SIZE / 2)
#ifdef __GLIBC__
static ucontext_t back;
#endif

static void
format_mask (const sigset_t *set, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  for (int sig = 1; sig <= 64; sig++)
    if (sigismember (set, sig) == 1 && used + 4 < len)
      used += (size_t) snprintf (buf + used, len - used, "%s%d",
                                 used ? "," : "", sig);
}

static void *
inner_body (void *arg)
{
  int i = (int) (intptr_t) arg;
  sigset_t now;
  pthread_sigmask (SIG_BLOCK, NULL, &now);
  format_mask (&now, inner_mask[i], sizeof inner_mask[i]);
  inner_done[i] = 1;
  if (nested == STALE || nested == SETCONTEXT || nested >= JUMP)
    return NULL;
  /* Alive, so that setresuid has to reach it.  */
  for (;;)
    pause ();
  return NULL;
}

static void
create_inner (int i, int detached)
{
  pthread_attr_t a;
  pthread_t t;
  pthread_attr_init (&a);
  if (detached)
    pthread_attr_setdetachstate (&a, PTHREAD_CREATE_DETACHED);
  if (pthread_create (&t, &a, inner_body, (void *) (intptr_t) i) != 0)
    snprintf (inner_mask[i], sizeof inner_mask[i], "none");
  else if (!detached)
    pthread_join (t, NULL);
  pthread_attr_destroy (&a);
}

/* musl sets no affinity: its pthread_create is trapped at the mapping
   of the new thread's stack (PROT_NONE, private and anonymous), which
   the handler makes itself with MAP_NORESERVE added, so that the
   filter lets it through (x86-64).  */
#if !defined __GLIBC__ && defined __x86_64__
# define TRAP_MMAP 1
#else
# define TRAP_MMAP 0
#endif
static int trap_mmap;

/* A creation on the program's stack (glibc: its clone traps) or, on
   musl, whose stack mapping traps; its thread, where it starts (the
   C library blocks SIGSYS there, glibc 2.32 and later use clone3),
   reports into slot I.  */
static void
create_trapped (int i)
{
  pthread_attr_t a;
  pthread_t t;
  pthread_attr_init (&a);
  if (!trap_mmap)
    pthread_attr_setstack (&a, own_stack + OWN_HALF, OWN_HALF);
  pthread_create (&t, &a, inner_body, (void *) (intptr_t) i);
}

static void
on_sigsys (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
#if TRAP_MMAP
  if (trap_mmap)
    {
      greg_t *g = ((ucontext_t *) ctx)->uc_mcontext.gregs;
      answer = syscall (SYS_mmap, g[REG_RDI], g[REG_RSI], g[REG_RDX],
                        g[REG_R10] | MAP_NORESERVE, g[REG_R8], g[REG_R9]);
    }
#endif
  RETURN_REG ((ucontext_t *) ctx) = answer;
  handled++;
  if ((nested == JUMP && handled == 2) || (nested == LEFTOPEN && handled == 1))
    siglongjmp (stale_env, 1);
  if (handled != 1 || nested == 0)
    return;
  sigset_t usr1, saved;
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  switch (nested)
    {
    case STALE:
      siglongjmp (stale_env, 1);
    case SETCONTEXT:
#ifdef __GLIBC__
      setcontext (&back);
#endif
      return;
    case UNBLOCK:
    case TWICE:
      pthread_sigmask (SIG_UNBLOCK, &usr1, NULL);
      break;
    case ROUNDTRIP:
      pthread_sigmask (SIG_BLOCK, NULL, &saved);
      pthread_sigmask (SIG_SETMASK, &saved, NULL);
      break;
    case REARM:
      {
        static char other[1 << 16];
        stack_t ss = { .ss_sp = other, .ss_size = sizeof other,
                       .ss_flags = SS_AUTODISARM };
        sigaltstack (&ss, NULL);
      }
      break;
    case JUMP:
      /* Its clone (or mapping) traps again, and that handler jumps.  */
      create_trapped (0);
      return;
    case DEEP:
      {
        size_t len = (size_t) 2 << 20;
        volatile char *big = alloca (len);
        for (size_t i = 0; i < len; i += 4096)
          big[i] = 1;
      }
      break;
    }
  create_inner (0, 1);
  if (nested == TWICE)
    {
      pthread_sigmask (SIG_BLOCK, &usr1, NULL);
      create_inner (1, 1);
    }
}

/* leftopen: a handler outside any window, on the SS_AUTODISARM stack,
   whose creation traps; the SIGSYS handler jumps out of it.  */
static void
on_usr1 (int sig)
{
  (void) sig;
  create_trapped (1);
}

#ifdef __GLIBC__
/* setcontext mode: a longjmp from a frame that overwrites what the
   abandoned creation left on the stack.  */
static jmp_buf smash_env;

static __attribute__ ((noinline)) void
smash_and_jump (void)
{
  volatile char big[32768];
  for (size_t i = 0; i < sizeof big; i++)
    big[i] = (char) (i * 37);
  longjmp (smash_env, 1);
}
#endif

/* The stale mode's creation, from a frame deeper than main's call of
   pthread_create, where an abandoned window's record lay.  */
static __attribute__ ((noinline)) void
create_deeper (void)
{
  volatile char pad[512];
  pad[0] = 0;
  create_inner (0, 0);
  (void) pad[0];
}

static void *
body (void *arg)
{
  (void) arg;
  thread_ran = 1;
  /* Under a published size the area tells the truth: registered, or
     RSEQ_CPU_ID_REGISTRATION_FAILED (the shim's later thread that a
     filter kept from registering); never the -1 of a registration
     that was taken for done.  */
  int32_t cpu_id = abi.size == NULL || *abi.size == 0
                   ? 0 : (int32_t) rt_area (&abi)->cpu_id;
  if (cpu_id < 0 && cpu_id != RSEQ_CPU_ID_REGISTRATION_FAILED)
    consistent = 0;
  return NULL;
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "affinity";
  /* The C library, which decides the expectation, read where no filter
     can keep it from being printed.  */
  if (strcmp (mode, "version") == 0)
    {
#ifdef __GLIBC__
      printf ("glibc %s\n", gnu_get_libc_version ());
#else
      puts ("musl");
#endif
      return 0;
    }
  long nr;
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  static const char *const handler_modes[]
    = { "nested", "unblock", "roundtrip", "twice", "stale", "deep",
        "altstack", "setcontext", "autodisarm", "rearm", "jump",
        "leftopen" };
  nested = 0;
  for (size_t i = 0; i < sizeof handler_modes / sizeof *handler_modes; i++)
    if (strcmp (mode, handler_modes[i]) == 0)
      nested = (int) i + 1;
  trap_mmap = TRAP_MMAP && nested != 0;
  /* autodisarm on glibc: main's creation runs on a stack of the
     program's, where its clone's child_tid lies (x86-64: argument 3,
     AArch64: 4), and the filter traps that clone alone.  */
  int trap_own_clone = !trap_mmap && nested >= AUTODISARM;
  if (trap_mmap)
    {
      nr = __NR_mmap;
      answer = 0;
    }
  else if (trap_own_clone)
    {
      /* OWN_SIZE aligned to OWN_SIZE: within one 4 GiB line, as the
         filter below compares the high halves alone (100th review, N8:
         a static array crossed one about once in 2,000 runs).  */
      char *map = mmap (NULL, 2 * OWN_SIZE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (map == MAP_FAILED)
        {
          perror ("create-trap: mmap");
          return 2;
        }
      own_stack = (char *) (((uintptr_t) map + OWN_SIZE - 1)
                            & ~(uintptr_t) (OWN_SIZE - 1));
      pthread_attr_setstack (&attr, own_stack, OWN_HALF);
      nr = __NR_clone;
      answer = -EAGAIN;
    }
  else if (strcmp (mode, "affinity") == 0 || nested)
    {
#ifdef __GLIBC__
      cpu_set_t cpus;
      CPU_ZERO (&cpus);
      if (sched_getaffinity (0, sizeof cpus, &cpus) != 0)
        {
          perror ("create-trap: sched_getaffinity");
          return 2;
        }
      pthread_attr_setaffinity_np (&attr, sizeof cpus, &cpus);
#endif
      nr = __NR_sched_setaffinity;
      answer = 0;
    }
  else if (strcmp (mode, "sched") == 0)
    {
      struct sched_param param = { .sched_priority = 0 };
      pthread_attr_setinheritsched (&attr, PTHREAD_EXPLICIT_SCHED);
      pthread_attr_setschedpolicy (&attr, SCHED_OTHER);
      pthread_attr_setschedparam (&attr, &param);
      nr = __NR_sched_setscheduler;
      answer = 0;
    }
  else if (strcmp (mode, "clone") == 0)
    {
      nr = __NR_clone;
      answer = -EAGAIN;
    }
  else if (strcmp (mode, "rseq") == 0)
    {
      nr = RSEQ_COMPAT_NR_rseq;
      answer = nr;
    }
  else
    {
      fprintf (stderr, "create-trap: unknown mode %s\n", mode);
      return 2;
    }

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigsys;
  /* The handler's own creations map stacks too, which trap again (and
     in the jump mode clone too).  */
  sa.sa_flags = SA_SIGINFO | (trap_mmap || nested >= JUMP ? SA_NODEFER : 0);
  /* In main's frame, above the window's.  */
  char autodisarm_stack[1 << 16] __attribute__ ((aligned (16)));
  if (nested >= AUTODISARM)
    {
      stack_t ss = { .ss_sp = autodisarm_stack,
                     .ss_size = sizeof autodisarm_stack,
                     .ss_flags = nested == JUMP ? 0 : SS_AUTODISARM };
      if (sigaltstack (&ss, NULL) != 0)
        {
          perror ("create-trap: sigaltstack");
          return 2;
        }
      sa.sa_flags |= SA_ONSTACK;
    }
  if (nested == ALTSTACK)
    {
      /* In the data segment: below the main thread's stack, where the
         window's creation runs.  */
      static char alt[1 << 16];
      stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt };
      if (sigaltstack (&ss, NULL) != 0)
        {
          perror ("create-trap: sigaltstack");
          return 2;
        }
      sa.sa_flags |= SA_ONSTACK;
    }
  sigemptyset (&sa.sa_mask);
  if (sigaction (SIGSYS, &sa, NULL) != 0)
    {
      perror ("create-trap: sigaction");
      return 2;
    }
  if (nested == LEFTOPEN)
    {
      struct sigaction su;
      memset (&su, 0, sizeof su);
      su.sa_handler = on_usr1;
      su.sa_flags = SA_ONSTACK;
      sigemptyset (&su.sa_mask);
      if (sigaction (SIGUSR1, &su, NULL) != 0)
        {
          perror ("create-trap: sigaction");
          return 2;
        }
    }

  abi = rt_abi ();

  /* The filter and the creation in a child that leaves by _exit: the
     filter stays with the process, and a sanitizer's exit-time work
     (LeakSanitizer clones a tracer) would meet it too.  */
  fflush (stdout);
  pid_t child = fork ();
  if (child < 0)
    {
      perror ("create-trap: fork");
      return 2;
    }
  if (child > 0)
    {
      int status;
      pthread_attr_destroy (&attr);
      if (waitpid (child, &status, 0) != child)
        {
          perror ("create-trap: waitpid");
          return 2;
        }
      if (WIFEXITED (status))
        return WEXITSTATUS (status);
      /* The child's death is this process's, for the .exp.  */
      signal (WTERMSIG (status), SIG_DFL);
      raise (WTERMSIG (status));
      return 2;
    }

  struct sock_filter code[] = {
    SF_OWN_ARCH_NR,
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (unsigned int) nr, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
#if defined __x86_64__
# define CLONE_CHILD_TID 3
#else
# define CLONE_CHILD_TID 4
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
# define ARG_LOW 0
#else
# define ARG_LOW 4
#endif
  uint64_t own_lo = (uintptr_t) own_stack;
  uint64_t own_end = own_lo + OWN_SIZE - 1;
  struct sock_filter own_clone_code[] = {
    SF_OWN_ARCH_NR,
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 7),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[CLONE_CHILD_TID])
              + 4 - ARG_LOW),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (uint32_t) (own_lo >> 32), 0, 5),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
              offsetof (struct seccomp_data, args[CLONE_CHILD_TID])
              + ARG_LOW),
    BPF_JUMP (BPF_JMP | BPF_JGE | BPF_K, (uint32_t) own_lo, 0, 3),
    BPF_JUMP (BPF_JMP | BPF_JGT | BPF_K, (uint32_t) own_end, 2, 0),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
#if TRAP_MMAP
  struct sock_filter mmap_code[] = {
    SF_OWN_ARCH_NR,
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 0, 5),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, args[2])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, PROT_NONE, 0, 3),
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, args[3])),
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, MAP_PRIVATE | MAP_ANONYMOUS, 0, 1),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_TRAP),
    BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  int err = trap_mmap ? sf_load (mmap_code, sizeof mmap_code / sizeof mmap_code[0], 0)
            : trap_own_clone
            ? sf_load (own_clone_code,
                       sizeof own_clone_code / sizeof own_clone_code[0], 0)
            : sf_load (code, sizeof code / sizeof code[0], 0);
#else
  int err = trap_own_clone
            ? sf_load (own_clone_code,
                       sizeof own_clone_code / sizeof own_clone_code[0], 0)
            : sf_load (code, sizeof code / sizeof code[0], 0);
#endif
  if (err != 0)
    {
      fprintf (stderr, "create-trap: seccomp: %s\n", strerror (err));
      _exit (2);
    }

  if (nested)
    {
      sigset_t usr2;
      sigemptyset (&usr2);
      sigaddset (&usr2, SIGUSR2);
      pthread_sigmask (SIG_BLOCK, &usr2, NULL);
    }
#ifdef __GLIBC__
  static volatile int came_back;
  if (nested == SETCONTEXT)
    {
      getcontext (&back);
      if (came_back++)
        {
          /* Back from the handler, which left pthread_create by
             setcontext.  */
          if (setjmp (smash_env) == 0)
            smash_and_jump ();
          goto after_jump;
        }
    }
#endif
  if ((nested == STALE || nested >= JUMP) && sigsetjmp (stale_env, 1) != 0)
    {
#ifdef __GLIBC__
    after_jump:;
#endif
      /* Out of the handler, and so out of the pthread_create it
         interrupted, which never returned.  */
      sigset_t all, now;
      sigfillset (&all);
      sigdelset (&all, SIGSYS);
      pthread_sigmask (SIG_BLOCK, &all, NULL);
      pthread_sigmask (SIG_BLOCK, NULL, &now);
      create_deeper ();
      char want[256];
      format_mask (&now, want, sizeof want);
#ifdef __GLIBC__
      printf ("glibc %s", gnu_get_libc_version ());
#else
      printf ("musl -");
#endif
      printf (": handler=%d %s=%s\n", handled > 0,
              nested == SETCONTEXT ? "setcontext"
              : nested == JUMP ? "jump"
              : nested == LEFTOPEN ? "leftopen" : "stale",
              strcmp (want, inner_mask[0]) == 0 ? "same" : inner_mask[0]);
      fflush (stdout);
      _exit (0);
    }
  if (nested == LEFTOPEN)
    {
      raise (SIGUSR1);
      /* Not trapped (glibc 2.32 and later use clone3): the rest as
         after the jump, with handler=0.  */
      siglongjmp (stale_env, 1);
    }
  pthread_t t;
  err = pthread_create (&t, &attr, body, NULL);
  if (err == 0)
    pthread_join (t, NULL);
  pthread_attr_destroy (&attr);
  int setxid = 0;
  int inners = nested == TWICE ? 2 : 1;
  if (nested)
    {
      for (int i = 0; i < 500 && handled > 0
                      && !(inner_done[0] && inner_done[inners - 1]); i++)
        usleep (10000);
      /* Every thread must take SIGSETXID; one that keeps it blocked
         makes this wait for good, and the alarm ends the process.  */
      alarm (20);
      setxid = setresuid ((uid_t) -1, (uid_t) -1, (uid_t) -1);
      alarm (0);
    }
#ifdef __GLIBC__
  printf ("glibc %s", gnu_get_libc_version ());
#else
  printf ("musl -");
#endif
  printf (": pthread_create=%d handler=%d thread-ran=%d consistent=%d",
          err, handled > 0, (int) thread_ran, (int) consistent);
  if (nested)
    {
      printf (" inner=%s", inner_done[0] ? inner_mask[0] : "-");
      if (nested == TWICE)
        printf (";%s", inner_done[1] ? inner_mask[1] : "-");
      printf (" setxid=%d", setxid);
    }
  putchar ('\n');
  fflush (stdout);
  _exit (0);
}
