/* The registration across fork, vfork, clone, posix_spawn and exec.
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

/* Usage: lifecycle PART, PART one of
     fork   a forked child keeps the registration at the same address
            (the kernel copies it), with the same published values; its
            threads are registered too.
     vfork  a vfork child that pins itself to a CPU other than the
            parent's reads that CPU from sched_getcpu and getcpu (the
            child runs on the parent's TLS, so a stale parent cpu_id
            would show); the parent is registered again afterwards.
     clone  the same with clone (CLONE_VM | CLONE_VFORK | SIGCHLD) on a
            stack of the child's own.
     vfork-dirty, clone-dirty  (owned modes) the child, on the parent's
            TLS while the parent's registration is paused, scribbles over
            the area; the parent's registration afterwards must be a fresh
            one: rseq_cs 0, flags and the bytes after mm_cid as a
            registration leaves them, cpu_id_start and cpu_id the parent's
            CPU.  In the second round the child also leaves rseq_cs
            pointing to unreadable memory (Linux 6.18 clears that itself
            when the parent registers again; a kernel that reads it as a
            descriptor would fault).
     spawn  posix_spawn of this program: registered afresh when
            LD_PRELOAD is kept, nothing registered (and an own
            registration possible) when it is removed.
     exec   this process, with a thread still running, execs itself with
            LD_PRELOAD kept (registered afresh), and that image execs
            itself once more with LD_PRELOAD removed (nothing registered
            by anybody but glibc; the program registers its own area).
   Internal parts, run in the exec'd or spawned images: "child-kept"
   and "child-clean".  */

#include "rtest.h"

#include <pthread.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>

extern char **environ;

typedef int getcpu_fn (unsigned int *, unsigned int *);

static struct rt_abi abi;
static int cpu_a = -1, cpu_b = -1;

/* Child exit statuses that are not CPU numbers.  */
enum { CHILD_PIN_FAILED = 250, CHILD_NO_CPU = 251 };

static const char *self_path = "/proc/self/exe";

/* Two distinct CPUs of the affinity mask; FAILs with fewer.  */
static int
pick_two_cpus (void)
{
  cpu_set_t set;
  CHECK (sched_getaffinity (0, sizeof set, &set) == 0,
         "sched_getaffinity: %s", strerror (errno));
  for (int i = 0; i < CPU_SETSIZE && i < 240; i++)
    if (CPU_ISSET (i, &set))
      {
        if (cpu_a < 0)
          cpu_a = i;
        else if (cpu_b < 0)
          cpu_b = i;
      }
  CHECK (cpu_b >= 0, "need 2 allowed CPUs (below 240) to tell a vfork "
         "child's CPU from its parent's; have %d", CPU_COUNT (&set));
  return cpu_b >= 0;
}

/* rt_registered, which registers AREA for a moment when nobody had it
   registered; the kernel's unregistration then leaves cpu_id -1, so the
   -2 the C library or the shim had written is put back.  */
static int
registered_keep (struct rseq *area, unsigned int len)
{
  uint32_t before = __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
  int r = rt_registered (area, len);
  if (!r)
    __atomic_store_n (&area->cpu_id, before, __ATOMIC_RELAXED);
  return r;
}

/* Whether *CPU_ID agrees with the getcpu system call (which the kernel
   ensures only while the area is registered); retried a few times in
   case the thread migrates between the reads.  */
static int
live_cpu_id (const uint32_t *cpu_id, int *id, int *sys)
{
  for (int i = 0; i < 20; i++)
    {
      *id = (int) __atomic_load_n (cpu_id, __ATOMIC_RELAXED);
      *sys = rt_syscall_cpu ();
      if (*id >= 0 && *id == *sys
          && (int) __atomic_load_n (cpu_id, __ATOMIC_RELAXED) == *sys)
        return 1;
      sched_yield ();
    }
  return 0;
}

/* The state every thread of a process started with the shim must have:
   the published values, and a registration (owned modes) or cpu_id -2
   with nothing registered.  */
static void
check_thread_state (const char *who)
{
  struct rseq *area = rt_area (&abi);
  if (rt_expect_registered ())
    {
      CHECK (registered_keep (area, rt_expected_len ()),
             "%s: area %p (len %u) not registered", who, (void *) area,
             rt_expected_len ());
      /* Only a live registration keeps cpu_id current.  */
      int id, sys;
      CHECK (live_cpu_id (&area->cpu_id, &id, &sys),
             "%s: cpu_id %d, kernel says %d", who, id, sys);
    }
  else
    {
      int id = rt_cpu_id (&abi);
      CHECK (!registered_keep (area, rt_expected_len ()),
             "%s: registered in mode %s", who, rt_expect ());
      CHECK (id == RSEQ_CPU_ID_REGISTRATION_FAILED,
             "%s: cpu_id %d, expected -2", who, id);
    }
  int got = sched_getcpu ();
  CHECK (got >= 0, "%s: sched_getcpu %d", who, got);
}

static int
check_published (const char *who)
{
  abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL && abi.flags != NULL,
         "%s: __rseq_offset %p, __rseq_size %p, __rseq_flags %p", who,
         (void *) abi.offset, (void *) abi.size, (void *) abi.flags);
  if (abi.offset == NULL || abi.size == NULL || abi.flags == NULL)
    return 0;
  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0,
         "%s: mode %s, expected %s", who, rt_shim_mode (), rt_expect ());
  CHECK (*abi.size == rt_expected_size (), "%s: __rseq_size %u, expected %u",
         who, *abi.size, rt_expected_size ());
  CHECK (*abi.flags == 0, "%s: __rseq_flags %u", who, *abi.flags);
  return 1;
}

static void *
check_thread_main (void *arg)
{
  check_thread_state (arg);
  return NULL;
}

static void
check_in_new_thread (const char *who)
{
  pthread_t t;
  int err = pthread_create (&t, NULL, check_thread_main, (void *) who);
  CHECK (err == 0, "%s: pthread_create: %s", who, strerror (err));
  if (err == 0)
    pthread_join (t, NULL);
}

/* Waits for PID; returns its exit status, or -1 (after a FAIL) if it
   did not exit normally.  */
static int
wait_status (pid_t pid, const char *who)
{
  int status;
  pid_t r;
  do
    r = waitpid (pid, &status, 0);
  while (r < 0 && errno == EINTR);
  CHECK (r == pid, "%s: waitpid: %s", who, strerror (errno));
  if (r != pid)
    return -1;
  CHECK (WIFEXITED (status), "%s: child status %#x (signal %d)", who, status,
         WIFSIGNALED (status) ? WTERMSIG (status) : 0);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* ---- fork ---------------------------------------------------------- */

static int
part_fork (void)
{
  if (!check_published ("parent"))
    return rt_exit_status ();
  check_thread_state ("parent before fork");

  struct rseq *parent_area = rt_area (&abi);
  ptrdiff_t parent_offset = *abi.offset;
  unsigned int parent_size = *abi.size;
  cpu_set_t allowed;
  sched_getaffinity (0, sizeof allowed, &allowed);

  fflush (NULL);
  pid_t pid = fork ();
  CHECK (pid >= 0, "fork: %s", strerror (errno));
  if (pid == 0)
    {
      rt_failures = 0;		/* The child's own count.  */
      /* The same area, same length, still registered (the kernel copies
         the registration on fork), the same published values.  */
      CHECK (rt_area (&abi) == parent_area, "child: area %p, parent's %p",
             (void *) rt_area (&abi), (void *) parent_area);
      CHECK (*abi.offset == parent_offset && *abi.size == parent_size,
             "child: offset %td size %u, parent %td %u", *abi.offset,
             *abi.size, parent_offset, parent_size);
      CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0,
             "child: mode %s, expected %s", rt_shim_mode (), rt_expect ());
      check_thread_state ("fork child");
      /* The child's cpu_id follows it from CPU to CPU.  */
      for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET (cpu, &allowed))
          {
            CHECK (rt_pin (cpu) == 0, "child: pin %d: %s", cpu,
                   strerror (errno));
            int id = rt_cpu_id (&abi);
            CHECK (rt_expect_registered ()
                   ? id == cpu : id == RSEQ_CPU_ID_REGISTRATION_FAILED,
                   "child pinned to %d: cpu_id %d (mode %s)", cpu, id,
                   rt_expect ());
            CHECK (sched_getcpu () == cpu, "child pinned to %d: "
                   "sched_getcpu %d", cpu, sched_getcpu ());
          }
      sched_setaffinity (0, sizeof allowed, &allowed);
      check_in_new_thread ("fork child's thread");
      /* A grandchild too.  */
      pid_t gpid = fork ();
      if (gpid == 0)
        {
          rt_failures = 0;
          check_thread_state ("grandchild");
          _exit (rt_failures != 0);
        }
      CHECK (gpid > 0, "child: fork: %s", strerror (errno));
      if (gpid > 0)
        CHECK (wait_status (gpid, "grandchild") == 0, "grandchild failed");
      fflush (NULL);
      _exit (rt_failures != 0 ? 1 : 0);
    }
  if (pid > 0)
    CHECK (wait_status (pid, "fork child") == 0, "fork child failed");
  check_thread_state ("parent after fork");
  return rt_exit_status ();
}

/* ---- vfork and clone ----------------------------------------------- */

static getcpu_fn *getcpu_p;

/* What a vfork or clone child reports as its exit status: the CPU it
   reads after pinning itself to TARGET, through sched_getcpu
   (HOW == 0) or getcpu (HOW == 1).  Only system calls and the two
   functions under test: the child shares the parent's memory.  */
static int
child_report (int target, int how)
{
  if (rt_pin (target) != 0)
    return CHILD_PIN_FAILED;
  int cpu;
  if (how == 0)
    cpu = sched_getcpu ();
  else
    {
      unsigned int c = ~0u;
      cpu = getcpu_p (&c, NULL) == 0 ? (int) c : -1;
    }
  if (cpu < 0 || cpu >= CHILD_PIN_FAILED)
    return CHILD_NO_CPU;
  return cpu;
}

struct clone_arg
{
  int target;
  int how;
};

static int
clone_child (void *p)
{
  struct clone_arg *a = p;
  return child_report (a->target, a->how);
}

#define CHILD_STACK_SIZE (256 * 1024)

/* The stack of a clone child, NULL for vfork, or MAP_FAILED (after a
   FAIL).  */
static char *
child_stack (int use_clone)
{
  if (!use_clone)
    return NULL;
  char *stack = mmap (NULL, CHILD_STACK_SIZE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  CHECK (stack != MAP_FAILED, "mmap: %s", strerror (errno));
  return stack;
}

/* The parent, pinned to its own CPU, is registered and its cpu_id is
   that CPU (owned modes), or -2 (other modes).  */
static void
check_parent (const char *who, int parent_cpu)
{
  check_thread_state (who);
  int id = rt_cpu_id (&abi);
  if (rt_expect_registered ())
    CHECK (id == parent_cpu, "%s: pinned to %d, cpu_id %d", who, parent_cpu,
           id);
  int got = sched_getcpu ();
  CHECK (got == parent_cpu, "%s: pinned to %d, sched_getcpu %d", who,
         parent_cpu, got);
}

static int
part_vfork_clone (int use_clone)
{
  /* volatile: the compiler must not keep it in a register that the
     vfork child could clobber (GCC 16 warns, and -Werror fails).  */
  const char *volatile what = use_clone ? "clone" : "vfork";
  if (!check_published ("parent"))
    return rt_exit_status ();
  getcpu_p = (getcpu_fn *) dlsym (RTLD_DEFAULT, "getcpu");
  CHECK (getcpu_p != NULL, "no getcpu");
  if (getcpu_p == NULL || !pick_two_cpus ())
    return rt_exit_status ();

  char *stack = child_stack (use_clone);
  if (stack == MAP_FAILED)
    return rt_exit_status ();

  /* Parent on A, child moves to B, and the other way round; both
     sched_getcpu and getcpu; a few rounds.  */
  for (int round = 0; round < 8; round++)
    {
      int parent_cpu = round & 1 ? cpu_b : cpu_a;
      int child_cpu = round & 1 ? cpu_a : cpu_b;
      int how = (round >> 1) & 1;
      const char *fn = how ? "getcpu" : "sched_getcpu";
      CHECK (rt_pin (parent_cpu) == 0, "pin parent to %d: %s", parent_cpu,
             strerror (errno));
      check_parent ("parent before", parent_cpu);

      pid_t pid;
      if (use_clone)
        {
          struct clone_arg a = { child_cpu, how };
          pid = clone (clone_child, stack + CHILD_STACK_SIZE,
                       CLONE_VM | CLONE_VFORK | SIGCHLD, &a);
        }
      else
        {
          pid = vfork ();
          if (pid == 0)
            _exit (child_report (child_cpu, how));
        }
      CHECK (pid > 0, "%s: %s", what, strerror (errno));
      if (pid <= 0)
        break;
      /* Straight after the return, before anything else runs here.  */
      int id_after = rt_cpu_id (&abi);
      int status = wait_status (pid, what);
      CHECK (status != CHILD_PIN_FAILED, "%s child: cannot pin to %d", what,
             child_cpu);
      CHECK (status == child_cpu, "%s child (round %d) pinned to %d, parent "
             "on %d: %s says %d", what, round, child_cpu, parent_cpu, fn,
             status);
      if (rt_expect_registered ())
        CHECK (id_after == parent_cpu,
               "parent after %s: cpu_id %d, pinned to %d", what, id_after,
               parent_cpu);
      else
        CHECK (id_after == RSEQ_CPU_ID_REGISTRATION_FAILED,
               "parent after %s: cpu_id %d, expected -2", what, id_after);
      check_parent ("parent after", parent_cpu);
    }
  check_in_new_thread ("thread after vfork/clone");
  if (stack != NULL)
    munmap (stack, CHILD_STACK_SIZE);
  return rt_exit_status ();
}

/* ---- vfork and clone over a scribbled area ------------------------- */

/* The area's fields as bytes, for the parts a struct rseq of an older
   header lacks (the registration may be longer).  */
#define AREA_MAX 64
#define TAIL_START 28	/* offsetofend (struct rseq, mm_cid) */

struct area_copy
{
  uint32_t cpu_id_start, cpu_id, flags, node_id;
  uint64_t rseq_cs;
  unsigned char tail[AREA_MAX - TAIL_START];
};

static void
read_area (const struct rseq *area, unsigned int len, struct area_copy *c)
{
  const volatile struct rseq *v = area;
  c->cpu_id_start = v->cpu_id_start;
  c->cpu_id = v->cpu_id;
  c->rseq_cs = v->rseq_cs;
  c->flags = v->flags;
  c->node_id = v->node_id;
  const volatile unsigned char *b = (const volatile unsigned char *) area;
  for (unsigned int i = TAIL_START; i < len && i < AREA_MAX; i++)
    c->tail[i - TAIL_START] = b[i];
}

/* In the child: plain stores only, it runs on the parent's memory.
   Every field gets a value no registration leaves; the kernel rewrites
   the ID fields itself when it registers, but not rseq_cs, flags or
   the bytes after mm_cid.  */
static int
scribble (int round)
{
  struct rseq *area = rt_area (&abi);
  volatile struct rseq *v = area;
  v->cpu_id_start = 0x5a5a5a5a;
  v->cpu_id = 0x5a5a;
  /* Page 0 is never mapped: no descriptor can be read there.  */
  v->rseq_cs = round ? 16 : 0;
  v->flags = 0xa5a50000;
  v->node_id = 0x5a5a;
  v->mm_cid = 0x5a5a;
  volatile unsigned char *b = (volatile unsigned char *) area;
  for (unsigned int i = TAIL_START; i < rt_expected_len () && i < AREA_MAX;
       i++)
    b[i] = 0xa5;
  return 0;
}

static int
scribble_clone_child (void *p)
{
  return scribble (*(int *) p);
}

static int
part_dirty (int use_clone)
{
  const char *volatile what = use_clone ? "clone" : "vfork";
  if (!check_published ("parent"))
    return rt_exit_status ();
  CHECK (rt_expect_registered (), "%s-dirty: for the owned modes, not %s",
         what, rt_expect ());
  if (!rt_expect_registered ())
    return rt_exit_status ();
  unsigned int len = rt_expected_len ();
  CHECK (len <= AREA_MAX, "registration length %u", len);
  int cpu = sched_getcpu ();
  CHECK (cpu >= 0 && rt_pin (cpu) == 0, "pin to %d: %s", cpu,
         strerror (errno));

  char *stack = child_stack (use_clone);
  if (stack == MAP_FAILED)
    return rt_exit_status ();

  for (int round = 0; round < 2 && rt_failures == 0; round++)
    {
      struct area_copy before, after;
      read_area (rt_area (&abi), len, &before);
      pid_t pid;
      if (use_clone)
        pid = clone (scribble_clone_child, stack + CHILD_STACK_SIZE,
                     CLONE_VM | CLONE_VFORK | SIGCHLD, &round);
      else
        {
          pid = vfork ();
          if (pid == 0)
            _exit (scribble (round));
        }
      CHECK (pid > 0, "%s: %s", what, strerror (errno));
      if (pid <= 0)
        break;
      read_area (rt_area (&abi), len, &after);
      CHECK (wait_status (pid, what) == 0, "%s child failed", what);

      CHECK (after.rseq_cs == 0, "after %s (round %d): rseq_cs %#llx, "
             "expected 0", what, round, (unsigned long long) after.rseq_cs);
      CHECK (after.flags == before.flags, "after %s (round %d): flags %#x, "
             "a registration leaves %#x", what, round, after.flags,
             before.flags);
      CHECK ((int) after.cpu_id == cpu && (int) after.cpu_id_start == cpu,
             "after %s (round %d): cpu_id %d, cpu_id_start %d, pinned to %d",
             what, round, (int) after.cpu_id, (int) after.cpu_id_start, cpu);
      CHECK (after.node_id == before.node_id, "after %s (round %d): node_id "
             "%#x, before %#x", what, round, after.node_id, before.node_id);
      for (unsigned int i = TAIL_START; i < len; i++)
        CHECK (after.tail[i - TAIL_START] == before.tail[i - TAIL_START],
               "after %s (round %d): byte %u of the area %#x, a "
               "registration leaves %#x", what, round, i,
               after.tail[i - TAIL_START], before.tail[i - TAIL_START]);
      check_thread_state ("parent after the scribbling child");
    }
  check_in_new_thread ("thread after vfork/clone");
  if (stack != NULL)
    munmap (stack, CHILD_STACK_SIZE);
  return rt_exit_status ();
}

/* ---- spawn and exec ------------------------------------------------ */

/* In an image started with the shim preloaded.  */
static int
part_child_kept (void)
{
  if (!check_published ("exec'd"))
    return rt_exit_status ();
  check_thread_state ("exec'd/spawned main");
  check_in_new_thread ("exec'd/spawned thread");
  return rt_exit_status ();
}

/* In an image started without the shim.  Only glibc registers; then
   the program can register an area of its own wherever nobody did.  */
static int
part_child_clean (void)
{
  CHECK (strcmp (rt_shim_mode (), "none") == 0, "shim present (mode %s) "
         "although LD_PRELOAD was removed", rt_shim_mode ());
  const unsigned int *gsize = rt_glibc_size ();
  const ptrdiff_t *goffset = rt_glibc_offset ();
#ifdef __GLIBC__
  int glibc_registers = gsize != NULL && *gsize != 0;
  /* glibc 2.35+ registers by itself unless the tunable says no; older
     ones leave it all to the shim.  */
  CHECK (glibc_registers == (gsize != NULL && !rt_expect_is ("disabled")),
         "glibc __rseq_size %u in mode %s", gsize ? *gsize : 0, rt_expect ());
  if (glibc_registers && goffset != NULL)
    {
      struct rseq *ga = (struct rseq *) (rseq_compat_thread_pointer ()
                                         + *goffset);
      int id, sys;
      CHECK (rt_registered (ga, rt_glibc_len ()),
             "glibc's area not registered");
      CHECK (live_cpu_id (&ga->cpu_id, &id, &sys),
             "glibc's cpu_id %d, kernel says %d", id, sys);
      return rt_exit_status ();
    }
#else
  (void) goffset;
  CHECK (gsize == NULL, "musl with glibc's __rseq_size");
  CHECK (dlsym (RTLD_DEFAULT, "__rseq_offset") == NULL,
         "__rseq_offset without the shim");
#endif
  static struct rseq own __attribute__ ((aligned (32)));
  own.cpu_id = (uint32_t) RSEQ_CPU_ID_UNINITIALIZED;
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, &own, 32, 0, RSEQ_SIG);
  CHECK (ret == 0, "own registration after exec: %s", strerror (errno));
  if (ret == 0)
    {
      int id, sys;
      CHECK (live_cpu_id (&own.cpu_id, &id, &sys),
             "own cpu_id %d, kernel says %d", id, sys);
      CHECK (syscall (RSEQ_COMPAT_NR_rseq, &own, 32, RSEQ_FLAG_UNREGISTER,
                      RSEQ_SIG) == 0, "unregister own: %s", strerror (errno));
    }
  return rt_exit_status ();
}

/* ENVIRON without LD_PRELOAD; a leaked copy.  */
static char **
env_without_preload (void)
{
  size_t n = 0;
  while (environ[n] != NULL)
    n++;
  char **env = calloc (n + 1, sizeof *env);
  size_t j = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp (environ[i], "LD_PRELOAD=", 11) != 0)
      env[j++] = environ[i];
  env[j] = NULL;
  return env;
}

static int
part_spawn (void)
{
  if (!check_published ("parent"))
    return rt_exit_status ();
  CHECK (getenv ("LD_PRELOAD") != NULL, "no LD_PRELOAD to keep");

  for (int clean = 0; clean <= 1; clean++)
    {
      char *argv[] = { "lifecycle", clean ? "child-clean" : "child-kept",
                       NULL };
      char **env = clean ? env_without_preload () : environ;
      pid_t pid;
      int err = posix_spawn (&pid, self_path, NULL, NULL, argv, env);
      CHECK (err == 0, "posix_spawn %s: %s", argv[1], strerror (err));
      if (err == 0)
        CHECK (wait_status (pid, argv[1]) == 0, "spawned %s failed",
               argv[1]);
      check_thread_state ("parent after posix_spawn");
    }
  return rt_exit_status ();
}

static void *
sleeper (void *arg)
{
  (void) arg;
  for (;;)
    pause ();
  return NULL;
}

static int
part_exec (void)
{
  if (!check_published ("before exec"))
    return rt_exit_status ();
  check_thread_state ("before exec");
  /* A registered thread that exec kills.  */
  pthread_t t;
  int err = pthread_create (&t, NULL, sleeper, NULL);
  CHECK (err == 0, "pthread_create: %s", strerror (err));
  if (rt_failures != 0)
    return rt_exit_status ();
  fflush (NULL);
  char *argv[] = { "lifecycle", "exec-kept", NULL };
  execv (self_path, argv);
  CHECK (0, "execv: %s", strerror (errno));
  return rt_exit_status ();
}

/* The first exec'd image: checks itself, then execs without the shim.  */
static int
part_exec_kept (void)
{
  part_child_kept ();
  if (rt_failures != 0)
    return rt_exit_status ();
  fflush (NULL);
  char *argv[] = { "lifecycle", "child-clean", NULL };
  execve (self_path, argv, env_without_preload ());
  CHECK (0, "execve: %s", strerror (errno));
  return rt_exit_status ();
}

int
main (int argc, char **argv)
{
  /* A hang (a thread that never reports) fails instead of blocking the
     suite.  */
  alarm (30);
  const char *part = argc > 1 ? argv[1] : "";
  if (strcmp (part, "fork") == 0)
    return part_fork ();
  if (strcmp (part, "vfork") == 0)
    return part_vfork_clone (0);
  if (strcmp (part, "clone") == 0)
    return part_vfork_clone (1);
  if (strcmp (part, "vfork-dirty") == 0)
    return part_dirty (0);
  if (strcmp (part, "clone-dirty") == 0)
    return part_dirty (1);
  if (strcmp (part, "spawn") == 0)
    return part_spawn ();
  if (strcmp (part, "exec") == 0)
    return part_exec ();
  if (strcmp (part, "exec-kept") == 0)
    return part_exec_kept ();
  if (strcmp (part, "child-kept") == 0)
    return part_child_kept ();
  if (strcmp (part, "child-clean") == 0)
    return part_child_clean ();
  fprintf (stderr, "FAIL usage: lifecycle fork|vfork|clone|vfork-dirty|"
           "clone-dirty|spawn|exec\n");
  return 2;
}
