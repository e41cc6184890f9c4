/* Green threads (user-level contexts on stacks of their own, switched
   by swapcontext from a signal handler) that preempt the patched 2.31's
   pthread_create before its clone window's block and resume it later:
   the limit doc/glibc.md gives (109th review, A1).  The creator runs
   on a lower stack, the green thread on a higher one.  A seccomp filter
   traps rt_sigprocmask SIG_SETMASK (the program's own calls carry a
   mark and pass); at the creator's first such call with a set inside
   pthread_create (the window's block, recorded and not begun), the
   SIGSYS handler switches to the green thread, which creates a thread
   of its own there and switches back; the handler then does the
   call's work and sends SIGTRAP, which its sa_mask defers until the
   block has taken effect, and whose handler leaves by siglongjmp
   without a saved mask back to the creator.  Where no call is trapped
   (stock 2.31), the creator switches to the green thread itself after
   pthread_create and then sends SIGTRAP, so that the same things
   happen in the same order.  Prints the creator's mask after the jump
   (hex, bit SIG-1; SIGTERM blocked before), the green thread's
   thread's mask, and whether the switch came from inside
   pthread_create: stock 2.31 gives the SIGTRAP handler's mask; the
   series, whose creation on the higher stack ended the suspended
   window's record, leaves the window's blocking in place.
   With "slot" (109th review, L1), the green thread's creation is
   preempted too, before its own block, by a switch back to the
   creator's handler, which does its block's work: the kernel writes
   the old mask into the record slot the green thread's window now
   holds.  The creator's creation ends, and the creator switches back
   to the green thread's handler, which sends SIGUSR1 (sa_mask SIGUSR2)
   before doing its call's work; that handler leaves by siglongjmp
   without a saved mask back to the green thread.  Where no call is
   trapped (stock 2.31), the green thread makes one such call itself
   after its pthread_create.  Prints the green thread's mask after the
   jump: stock 2.31 gives the handlers' (SIGSYS, SIGUSR1 and SIGUSR2 on
   SIGTERM); the series takes the handler for one inside the green
   thread's window, which the creator's block marked begun, and drops
   them.
   With "left" (109th review, G2), the green thread, on the higher
   stack, is preempted inside its creation once its window's block has
   been done (the handler did the work) and never resumed; the creator,
   on the lower stack, then blocks SIGINT and creates a thread, which
   reports its mask.  Where no call is trapped (stock 2.31), the green
   thread makes one such call itself after its pthread_create.  Stock
   2.31 gives the thread SIGTERM and SIGINT; the series takes the
   creation, below the finished green thread's window, for one inside
   it, and the thread starts with SIGINT open.
   usage: ./window-green a1|slot|left  (anything else, or no mode, is
   refused with status 2: a mistyped mode that ran A1 would pass its
   row in mask-filters.sh while pinning nothing of the mode meant)
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
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "sigsys-context.h"

/* The mark of the program's own calls, in an argument the kernel
   ignores.  */
#define MARK 0x67726e

#define STACK_SIZE (256 * 1024)

static ucontext_t main_ctx, creator_ctx, green_ctx, preempted_ctx;
static ucontext_t green_preempted_ctx;
static sigjmp_buf back, green_back;
static volatile int left_mode, slot_mode, armed, preempted, trap_armed, jumped;
static volatile int green_armed, green_creating, green_preempted;
static volatile uint64_t green_after = ~(uint64_t) 0;
static volatile uint64_t green_thread = ~(uint64_t) 0;
static volatile uint64_t creator_after = ~(uint64_t) 0;

/* swapcontext makes its rt_sigprocmask SIG_SETMASK without touching
   the fifth argument's register, so calling it with MARK there lets
   its call pass the filter: a trapped one inside the SIGSYS handler,
   which blocks SIGSYS, would end the process.  */
static void
switch_to (ucontext_t *save, ucontext_t *to)
{
#if defined __x86_64__ || defined __aarch64__
  int (*marked) (ucontext_t *, ucontext_t *, long, long, long)
    = (int (*) (ucontext_t *, ucontext_t *, long, long, long))
      (void (*) (void)) swapcontext;
  marked (save, to, 0, 0, MARK);
#else
# error "an architecture of the project's"
#endif
}

static void
send_self (int sig)
{
  syscall (SYS_tgkill, getpid (), syscall (SYS_gettid), sig);
}

static void *
report (void *arg)
{
  *(volatile uint64_t *) arg = sigsys_mask_now (MARK);
  return NULL;
}

static void *
body (void *arg)
{
  return arg;
}

static void
on_usr1 (int sig)
{
  (void) sig;
  siglongjmp (green_back, 1);
}

static void
on_trap (int sig)
{
  (void) sig;
  jumped = 1;
  siglongjmp (back, 1);
}

static void
on_sigsys (int sig, siginfo_t *si, void *ctx)
{
  (void) sig;
  (void) si;
  ucontext_t *uc = ctx;
  int set = ARG (uc, 1) != 0;
  if (set && armed)
    {
      /* The creator's window is recorded and its block not done:
         preempted there.  */
      armed = 0;
      preempted = 1;
      switch_to (&preempted_ctx, &green_ctx);
      trap_armed = !slot_mode;
    }
  else if (set && green_armed && left_mode)
    {
      /* The green thread's block done (its window begun, on the
         series), and the green thread left for good.  */
      green_armed = 0;
      green_preempted = green_creating;
      sigsys_do_setmask (uc);
      switch_to (&green_preempted_ctx, &creator_ctx);
      abort ();
    }
  else if (set && green_armed)
    {
      /* The green thread's block, or on stock its own call after its
         creation.  */
      green_armed = 0;
      if (green_creating && preempted)
        {
          green_preempted = 1;
          switch_to (&green_preempted_ctx, &preempted_ctx);
        }
      send_self (SIGUSR1);
    }
  sigsys_do_setmask (uc);
  if (set && trap_armed)
    {
      trap_armed = 0;
      send_self (SIGTRAP);
    }
}

/* The green thread: one creation on its own, higher, stack; then back
   to whoever switched to it.  */
static void
green (void)
{
  pthread_t t;
  if (left_mode)
    {
      green_armed = 1;
      green_creating = 1;
      int err = pthread_create (&t, NULL, body, NULL);
      green_creating = 0;
      if (err == 0)
        pthread_join (t, NULL);
      /* Stock: no call was trapped; one of its own, unmarked.  */
      sigset_t now;
      sigemptyset (&now);
      sigaddset (&now, SIGTERM);
      syscall (SYS_rt_sigprocmask, SIG_SETMASK, &now, NULL, 8);
      abort ();
    }
  if (slot_mode)
    {
      if (sigsetjmp (green_back, 0) == 0)
        {
          green_armed = 1;
          green_creating = 1;
          int err = pthread_create (&t, NULL, body, NULL);
          green_creating = 0;
          if (err == 0)
            pthread_join (t, NULL);
          /* Stock: no call was trapped; one of its own, unmarked.  */
          sigset_t now;
          sigemptyset (&now);
          sigaddset (&now, SIGTERM);
          syscall (SYS_rt_sigprocmask, SIG_SETMASK, &now, NULL, 8);
        }
      green_after = sigsys_mask_now (MARK);
    }
  else if (pthread_create (&t, NULL, report, (void *) &green_thread) == 0)
    pthread_join (t, NULL);
  if (preempted && !slot_mode)
    switch_to (&green_ctx, &preempted_ctx);
  else
    switch_to (&green_ctx, &creator_ctx);
  /* Never switched to again.  */
  abort ();
}

static void
creator (void)
{
  if (left_mode)
    {
      switch_to (&creator_ctx, &green_ctx);
      /* The green thread is gone; its window, on the series, not.  */
      uint64_t more = sigsys_mask_now (MARK) | (1u << (SIGINT - 1));
      syscall (SYS_rt_sigprocmask, SIG_SETMASK, &more, NULL, 8, MARK);
      pthread_t t;
      if (pthread_create (&t, NULL, report, (void *) &green_thread) == 0)
        pthread_join (t, NULL);
      creator_after = sigsys_mask_now (MARK);
      switch_to (&creator_ctx, &main_ctx);
      abort ();
    }
  if (sigsetjmp (back, 0) == 0)
    {
      pthread_t t;
      armed = 1;
      int err = pthread_create (&t, NULL, body, NULL);
      armed = 0;
      if (err == 0)
        pthread_join (t, NULL);
      if (!preempted)
        {
          switch_to (&creator_ctx, &green_ctx);
          if (!slot_mode)
            send_self (SIGTRAP);
        }
      else if (slot_mode && green_preempted)
        switch_to (&creator_ctx, &green_preempted_ctx);
    }
  creator_after = sigsys_mask_now (MARK);
  switch_to (&creator_ctx, &main_ctx);
  abort ();
}

int
main (int argc, char **argv)
{
  const char *bad = NULL;
  if (argc < 2)
    bad = "no mode given";
  else if (argc > 2)
    bad = "one mode only";
  else if (strcmp (argv[1], "a1") && strcmp (argv[1], "slot")
           && strcmp (argv[1], "left"))
    bad = "unknown mode";
  if (bad)
    {
      fprintf (stderr, "window-green: %s%s%s; the modes are a1, slot and "
               "left\nusage: window-green a1|slot|left\n", bad,
               argc == 2 ? ": " : "", argc == 2 ? argv[1] : "");
      return 2;
    }
  slot_mode = strcmp (argv[1], "slot") == 0;
  left_mode = strcmp (argv[1], "left") == 0;
  sigset_t m;
  sigemptyset (&m);
  sigaddset (&m, SIGTERM);
  sigprocmask (SIG_SETMASK, &m, NULL);
  /* Two stacks, the green thread's above the creator's.  */
  char *a = mmap (NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  char *b = mmap (NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (a == MAP_FAILED || b == MAP_FAILED)
    {
      perror ("window-green: mmap");
      return 2;
    }
  char *low = a < b ? a : b, *high = a < b ? b : a;
  getcontext (&creator_ctx);
  creator_ctx.uc_stack.ss_sp = low;
  creator_ctx.uc_stack.ss_size = STACK_SIZE;
  creator_ctx.uc_link = NULL;
  makecontext (&creator_ctx, creator, 0);
  getcontext (&green_ctx);
  green_ctx.uc_stack.ss_sp = high;
  green_ctx.uc_stack.ss_size = STACK_SIZE;
  green_ctx.uc_link = NULL;
  makecontext (&green_ctx, green, 0);

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigsys;
  /* slot: the series' jump out of the green thread's handler restores
     a mask with a trapped call, made with the handler's SIGSYS still
     blocked, which would end the process; SA_NODEFER lets that trap
     be handled.  */
  sa.sa_flags = SA_SIGINFO | (slot_mode ? SA_NODEFER : 0);
  sigaddset (&sa.sa_mask, SIGTRAP);
  sigaction (SIGSYS, &sa, NULL);
  signal (SIGTRAP, on_trap);
  sa.sa_handler = on_usr1;
  sa.sa_flags = 0;
  sigemptyset (&sa.sa_mask);
  sigaddset (&sa.sa_mask, SIGUSR2);
  sigaction (SIGUSR1, &sa, NULL);
  /* SIG_SETMASK without the mark trapped; everything else allowed.  */
  if (sigsys_trap_setmask (MARK) != 0)
    {
      perror ("window-green: seccomp");
      return 2;
    }
  switch_to (&main_ctx, &creator_ctx);
  if (left_mode)
    {
      printf ("window-green left: creator %#llx, its thread %#llx, from "
              "inside pthread_create: %d\n",
              (unsigned long long) creator_after,
              (unsigned long long) green_thread, green_preempted);
      return 0;
    }
  if (slot_mode)
    {
      printf ("window-green slot: green after %#llx, from inside "
              "pthread_create: %d\n", (unsigned long long) green_after,
              green_preempted);
      return 0;
    }
  printf ("window-green: jumped %d, creator after %#llx, green's thread "
          "%#llx, from inside pthread_create: %d\n", jumped,
          (unsigned long long) creator_after,
          (unsigned long long) green_thread, preempted);
  return 0;
}
