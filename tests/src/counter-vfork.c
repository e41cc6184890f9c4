/* <rseq-compat.h> in a vfork child: what it reads and where an add goes.
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

/* Usage: counter-vfork [alone]
   The parent, pinned to one CPU, adds to a per-CPU counter and vforks;
   the child moves to another CPU, reads rseq_compat_cpu () and the
   getcpu system call, adds 1 and exits.  The kernel never registers a
   vfork child, but the child runs on its parent's TLS, rseq area
   included.

   With the shim loaded (it unregisters the parent while the child
   runs, so the area reads cpu_id -1), and wherever nothing is
   registered, the child must read its own CPU and its add must go to
   the atomic word of that CPU's slot.

   "alone" in the libc-owned mode is glibc 2.35 or later without the
   shim: nothing pauses the parent's registration, and the child finds
   the parent's last cpu_id there.  That is the documented limit this
   test pins: the child's rseq_compat_cpu () names the parent's CPU, not
   its own, and its add goes through the restartable sequence into the
   parent's CPU's slot, with no kernel behind it to abort it.  */

#include "rtest.h"

#include <sys/wait.h>

#include <rseq-compat.h>

#define ROUNDS 4

static struct rseq_compat_counter counter;
/* Written by the child, which shares the parent's memory.  */
static volatile int child_header_cpu, child_kernel_cpu, child_pinned;
/* Static, so that the vfork child cannot clobber them.  */
static int alone, limit;

#if defined __aarch64__ && !defined __GLIBC__
/* musl has no vfork of its own on AArch64 (the kernel has no vfork
   system call there), so its vfork is a fork: a child with its own
   memory would prove nothing here.  A real vfork child is what musl's
   own posix_spawn makes, and what the shim's vfork makes: clone with
   CLONE_VM | CLONE_VFORK | SIGCHLD, on the parent's stack.  The child
   returns through the link register, so nothing of the caller's frame
   is touched before it runs.  With the shim loaded, vfork is the
   shim's.  */
pid_t test_vfork (void) __attribute__ ((returns_twice));
__asm__ (".text\n"
         ".p2align 2\n"
         ".type test_vfork, %function\n"
         "test_vfork:\n"
         "  hint 34\n"                     /* bti c */
         "  mov x0, #0x4111\n"             /* CLONE_VM|CLONE_VFORK|SIGCHLD */
         "  mov x1, #0\n"
         "  mov x2, #0\n"
         "  mov x3, #0\n"
         "  mov x4, #0\n"
         "  mov x8, #220\n"                /* __NR_clone */
         "  svc #0\n"
         "  cmn x0, #4095\n"
         "  b.hi 1f\n"
         "  ret\n"
         "1:neg w0, w0\n"
         "  b test_vfork_failed\n"
         ".size test_vfork, .-test_vfork\n");

pid_t test_vfork_failed (int err);
pid_t
test_vfork_failed (int err)
{
  errno = err;
  return -1;
}
# define TEST_VFORK() (alone ? test_vfork () : vfork ())
#else
# define TEST_VFORK() vfork ()
#endif

static void
snapshot (int64_t *rseq, int64_t *atomic)
{
  for (unsigned int i = 0; i < counter.nslots; i++)
    {
      rseq[i] = counter.slots[i].rseq;
      atomic[i] = counter.slots[i].atomic;
    }
}

int
main (int argc, char **argv)
{
  alone = argc > 1 && strcmp (argv[1], "alone") == 0;
  /* glibc 2.35+ registers the parent and no shim is there to pause
     that registration for the child.  */
  limit = alone && rt_expect_is ("libc-owned");
  CHECK ((rseq_compat_mode == NULL) == alone,
         "shim %s, but the harness says %s", rseq_compat_mode != NULL
         ? "loaded" : "absent", alone ? "alone" : "with the shim");

  cpu_set_t set;
  int cpus[2], n = 0;
  sched_getaffinity (0, sizeof set, &set);
  for (int cpu = 0; cpu < CPU_SETSIZE && n < 2; cpu++)
    if (CPU_ISSET (cpu, &set))
      cpus[n++] = cpu;
  CHECK (n == 2, "need 2 allowed CPUs to tell a vfork child's CPU from its "
         "parent's");
  CHECK (rseq_compat_counter_init (&counter) == 0, "init: out of memory");
  if (n < 2 || counter.slots == NULL)
    return rt_exit_status ();
  int64_t rseq_before[counter.nslots], atomic_before[counter.nslots];

  for (int round = 0; round < ROUNDS; round++)
    {
      int parent_cpu = cpus[round & 1], child_cpu = cpus[!(round & 1)];
      CHECK (rt_pin (parent_cpu) == 0, "pin to %d: %s", parent_cpu,
             strerror (errno));
      rseq_compat_counter_add (&counter, 1);
      snapshot (rseq_before, atomic_before);
      child_header_cpu = child_kernel_cpu = -1;
      child_pinned = 0;

      pid_t pid = TEST_VFORK ();
      if (pid == 0)
        {
          if (rt_pin (child_cpu) == 0)
            {
              child_pinned = 1;
              child_header_cpu = rseq_compat_cpu ();
              child_kernel_cpu = rt_syscall_cpu ();
              rseq_compat_counter_add (&counter, 1);
            }
          _exit (0);
        }
      CHECK (pid > 0, "vfork: %s", strerror (errno));
      if (pid <= 0)
        break;
      int status;
      CHECK (waitpid (pid, &status, 0) == pid && WIFEXITED (status)
             && WEXITSTATUS (status) == 0, "child: status %#x", status);
      CHECK (child_pinned, "child could not move to CPU %d", child_cpu);
      CHECK (child_kernel_cpu == child_cpu, "child pinned to %d, getcpu "
             "says %d", child_cpu, child_kernel_cpu);

      /* Where the child's add went.  */
      int64_t rseq_delta = 0, atomic_delta = 0;
      int rseq_slot = -1, atomic_slot = -1;
      for (unsigned int i = 0; i < counter.nslots; i++)
        {
          int64_t r = counter.slots[i].rseq - rseq_before[i];
          int64_t a = counter.slots[i].atomic - atomic_before[i];
          if (r != 0)
            rseq_slot = (int) i;
          if (a != 0)
            atomic_slot = (int) i;
          rseq_delta += r;
          atomic_delta += a;
        }
      printf ("round %d, mode %s%s: parent on %d, child on %d reads %d; "
              "its add: rseq word %+lld (slot %d), atomic word %+lld "
              "(slot %d)\n", round, rt_expect (), alone ? " alone" : "",
              parent_cpu, child_kernel_cpu, child_header_cpu,
              (long long int) rseq_delta, rseq_slot,
              (long long int) atomic_delta, atomic_slot);
      if (limit)
        {
          CHECK (child_header_cpu == parent_cpu, "glibc alone: the child "
                 "on %d read %d, not its parent's %d: the documented limit "
                 "no longer holds (update rseq-compat.h(3), rseq-compat(7) "
                 "and README)", child_kernel_cpu, child_header_cpu,
                 parent_cpu);
          CHECK (rseq_delta == 1 && rseq_slot == parent_cpu
                 && atomic_delta == 0, "glibc alone: the child's add did "
                 "not take the unprotected sequence into its parent's slot "
                 "%d: the documented limit no longer holds", parent_cpu);
        }
      else
        {
          CHECK (child_header_cpu == child_cpu, "child on %d: "
                 "rseq_compat_cpu () says %d", child_cpu, child_header_cpu);
          CHECK (rseq_delta == 0 && atomic_delta == 1
                 && (unsigned int) atomic_slot == child_cpu % counter.nslots,
                 "child's add: rseq %+lld (slot %d), atomic %+lld (slot %d); "
                 "expected the atomic word of slot %d",
                 (long long int) rseq_delta, rseq_slot,
                 (long long int) atomic_delta, atomic_slot, child_cpu);
        }
    }
  CHECK (rseq_compat_counter_read (&counter) == 2 * ROUNDS,
         "counter %lld after %d adds", (long long int)
         rseq_compat_counter_read (&counter), 2 * ROUNDS);
  rseq_compat_counter_destroy (&counter);
  return rt_exit_status ();
}
