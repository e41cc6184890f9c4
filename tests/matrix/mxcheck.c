/* mxcheck: what make check-matrix verifies in one C library under one
   kernel (in a qemu guest or on the host).
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

/* Run with the shim preloaded.  The expected values come from the
   matrix driver (the issue's table for the kernel column), never from
   the shim:

     MX_MODE    shim-owned or libc-owned
     MX_SIZE    __rseq_size
     MX_LEN     the registration length the kernel must hold
     MX_STRESS  seconds of the threads/signals/fork run (0: none)

   The area must be aligned to max(32, AT_RSEQ_ALIGN) in shim-owned
   mode and for registrations longer than 32 bytes, to 32 otherwise.

   Registrations are proved by the kernel itself: registering the same
   area, length and signature again answers EBUSY, and only then.  CPU
   numbers are compared with the getcpu system call while pinned.

   Output: one "ok - NAME" or "FAIL - NAME: WHY" line per check, "#"
   lines with details, and "mxcheck: N ok, M failed" at the end; the
   exit status is 1 when any check failed.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif

#include <rseq-compat.h>
/* The kernel-mode rule rseq-compat info applies; by path, so that the
   matrix's compile lines need no include directory for it.  */
#include "../../sysdeps/unix/sysv/linux/rseq-layout.h"

/* The system call number and the thread pointer: the shim's own
   per-architecture header, by path like rseq-layout.h.  The signature
   is the one sysdeps/unix/sysv/linux/ARCH/bits/rseq.h gives RSEQ_SIG
   (that header only comes through <sys/rseq.h>).  */
#if defined __x86_64__
# include "../../shim/arch/x86_64/arch.h"
# define MX_RSEQ_SIG 0x53053053
#elif defined __aarch64__
# include "../../shim/arch/aarch64/arch.h"
# define MX_RSEQ_SIG 0xd428bc00
#else
# error "mxcheck: no rseq signature for this architecture"
#endif
#define MX_AT_RSEQ_FEATURE_SIZE 27
#define MX_AT_RSEQ_ALIGN 28
#define MX_NTHREADS 8

/* The kernel's struct rseq up to the 7.0 fields.  */
struct mx_rseq
{
  uint32_t cpu_id_start;
  uint32_t cpu_id;
  uint64_t rseq_cs;
  uint32_t flags;
  uint32_t node_id;
  uint32_t mm_cid;
  uint32_t slice_ctrl;
} __attribute__ ((aligned (32)));

static const ptrdiff_t *mx_offset;
static const unsigned int *mx_size_sym;
static const unsigned int *mx_flags_sym;
static const char *(*mx_mode_fn) (void);
static const char *mx_mode = "shim-owned";
static unsigned int mx_size, mx_len;
static int mx_ok, mx_failed;

static void
mx_result (int ok, const char *name, const char *fmt, ...)
{
  va_list ap;
  if (ok)
    {
      mx_ok++;
      printf ("ok - %s", name);
    }
  else
    {
      mx_failed++;
      printf ("FAIL - %s", name);
    }
  if (fmt != NULL && fmt[0] != '\0')
    {
      printf (ok ? " (" : ": ");
      va_start (ap, fmt);
      vprintf (fmt, ap);
      va_end (ap);
      if (ok)
        putchar (')');
    }
  putchar ('\n');
  fflush (stdout);
}

static volatile struct mx_rseq *
mx_area (void)
{
  if (mx_offset == NULL)
    return NULL;
  return (volatile struct mx_rseq *) (rseq_compat_thread_pointer () + *mx_offset);
}

static long
mx_rseq (volatile void *area, unsigned int len, int flags)
{
  return syscall (RSEQ_COMPAT_NR_rseq, area, len, flags, MX_RSEQ_SIG);
}

/* 0 when the kernel holds AREA at LEN with our signature for the
   calling thread; else the errno it answered (-1: it was unregistered).  */
static int
mx_registered (volatile void *area, unsigned int len)
{
  if (mx_rseq (area, len, 0) == 0)
    {
      /* It was not registered, and now is: undo.  */
      mx_rseq (area, len, 1);
      return -1;
    }
  return errno == EBUSY ? 0 : errno;
}

static int
mx_syscall_cpu (unsigned int *node)
{
  unsigned int cpu, n;
  if (syscall (SYS_getcpu, &cpu, &n, NULL) != 0)
    return -1;
  if (node != NULL)
    *node = n;
  return (int) cpu;
}

static int
mx_pin (int cpu)
{
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  if (sched_setaffinity (0, sizeof set, &set) != 0)
    return -1;
  /* The move happens on the way back to user space; make sure.  */
  for (int i = 0; i < 100 && mx_syscall_cpu (NULL) != cpu; i++)
    sched_yield ();
  return 0;
}

static cpu_set_t mx_allowed;
static int mx_ncpus;

/* Check the calling thread's area pinned on every allowed CPU (at most
   8).  Returns NULL or BUF describing the first mismatch.  */
static const char *
mx_check_cpus (volatile struct mx_rseq *a, char *buf, size_t len)
{
  int seen = 0;
  const char *why = NULL;
  for (int c = 0; c < CPU_SETSIZE && seen < 8 && why == NULL; c++)
    {
      if (!CPU_ISSET (c, &mx_allowed))
        continue;
      seen++;
      if (mx_pin (c) != 0)
        {
          snprintf (buf, len, "sched_setaffinity(%d): %s", c,
                    strerror (errno));
          why = buf;
          break;
        }
      unsigned int node = 0;
      int sys = mx_syscall_cpu (&node);
      int id = (int) a->cpu_id, start = (int) a->cpu_id_start;
      int sg = sched_getcpu (), hdr = rseq_compat_cpu ();
      int cid = rseq_compat_mm_cid ();
      if (sys != c || id != c || start != c || sg != c || hdr != c)
        {
          snprintf (buf, len, "pinned to %d: getcpu syscall %d, cpu_id %d, "
                    "cpu_id_start %d, sched_getcpu %d, rseq_compat_cpu %d",
                    c, sys, id, start, sg, hdr);
          why = buf;
        }
      else if (mx_size >= 24 && a->node_id != node)
        {
          snprintf (buf, len, "on cpu %d: node_id %u, syscall node %u", c,
                    (unsigned int) a->node_id, node);
          why = buf;
        }
      else if (mx_size >= 28 && (cid < 0 || cid >= mx_ncpus))
        {
          snprintf (buf, len, "on cpu %d: mm_cid %d, %d cpus", c, cid,
                    mx_ncpus);
          why = buf;
        }
    }
  sched_setaffinity (0, sizeof mx_allowed, &mx_allowed);
  return why;
}

/* Everything a registered thread must satisfy; NULL when it does.  */
static const char *
mx_check_thread (char *buf, size_t len)
{
  volatile struct mx_rseq *a = mx_area ();
  if (a == NULL)
    return "no __rseq_offset";
  /* The shim, and any C library registering more than the original
     32 bytes, must honour AT_RSEQ_ALIGN; a legacy 32-byte
     registration (glibc 2.35-2.40) needs 32.  */
  unsigned long int align = 32;
  if (strcmp (mx_mode, "shim-owned") == 0 || mx_len > 32)
    align = getauxval (MX_AT_RSEQ_ALIGN);
  if (align < 32)
    align = 32;
  if ((uintptr_t) a % align != 0)
    {
      snprintf (buf, len, "area %p not aligned to %lu", (void *) a, align);
      return buf;
    }
  int r = mx_registered (a, mx_len);
  if (r != 0)
    {
      snprintf (buf, len, "area %p length %u not registered (%s)",
                (void *) a, mx_len, r < 0 ? "a new registration succeeded"
                : strerror (r));
      return buf;
    }
  if ((int) a->cpu_id < 0)
    {
      snprintf (buf, len, "cpu_id %d", (int) a->cpu_id);
      return buf;
    }
  return NULL;
}

/* ---- threads ---- */

struct mx_thread
{
  pthread_t th;
  int index;
  int started;
  void *area;
  char why[240];
};

static void *
mx_thread_main (void *arg)
{
  struct mx_thread *t = arg;
  char buf[200];
  const char *why = mx_check_thread (buf, sizeof buf);
  t->area = (void *) mx_area ();
  if (why == NULL)
    why = mx_check_cpus (mx_area (), buf, sizeof buf);
  if (why != NULL)
    snprintf (t->why, sizeof t->why, "thread %d: %s", t->index, why);
  return NULL;
}

static void
mx_threads (void)
{
  struct mx_thread t[MX_NTHREADS];
  int good = 0;
  const char *first = NULL;
  memset (t, 0, sizeof t);
  for (int i = 0; i < MX_NTHREADS; i++)
    {
      pthread_attr_t attr;
      pthread_attr_init (&attr);
      if (i % 2)
        pthread_attr_setstacksize (&attr, 64 * 1024);
      t[i].index = i;
      int e = pthread_create (&t[i].th, &attr, mx_thread_main, &t[i]);
      pthread_attr_destroy (&attr);
      if (e != 0)
        snprintf (t[i].why, sizeof t[i].why, "pthread_create: %s",
                  strerror (e));
      else
        t[i].started = 1;
    }
  for (int i = 0; i < MX_NTHREADS; i++)
    if (t[i].started)
      pthread_join (t[i].th, NULL);
  for (int i = 0; i < MX_NTHREADS; i++)
    {
      for (int j = 0; j < i && t[i].why[0] == '\0'; j++)
        if (t[j].area == t[i].area)
          snprintf (t[i].why, sizeof t[i].why,
                    "threads %d and %d share area %p", j, i, t[i].area);
      if (t[i].why[0] == '\0' && t[i].area == (void *) mx_area ())
        snprintf (t[i].why, sizeof t[i].why, "thread %d uses main's area", i);
      if (t[i].why[0] == '\0')
        good++;
      else if (first == NULL)
        first = t[i].why;
    }
  mx_result (good == MX_NTHREADS, "threads", "%d of %d registered, "
             "aligned, distinct, cpu_id right%s%s", good, MX_NTHREADS,
             first ? "; " : "", first ? first : "");
}

/* ---- fork and exec ---- */

static int
mx_wait (pid_t pid, char *buf, size_t len)
{
  int status;
  if (waitpid (pid, &status, 0) != pid)
    {
      snprintf (buf, len, "waitpid: %s", strerror (errno));
      return -1;
    }
  if (WIFSIGNALED (status))
    {
      snprintf (buf, len, "killed by signal %d (%s)", WTERMSIG (status),
                strsignal (WTERMSIG (status)));
      return -1;
    }
  if (WEXITSTATUS (status) != 0)
    {
      snprintf (buf, len, "exit status %d", WEXITSTATUS (status));
      return -1;
    }
  buf[0] = '\0';
  return 0;
}

/* In a forked child: the registration must be the parent's, same area.  */
static int
mx_fork_child (void)
{
  char buf[200];
  const char *why = mx_check_thread (buf, sizeof buf);
  if (why == NULL)
    why = mx_check_cpus (mx_area (), buf, sizeof buf);
  if (why != NULL)
    printf ("# fork child: %s\n", why);
  fflush (stdout);
  return why != NULL;
}

static void *
mx_fork_from_thread (void *arg)
{
  char *buf = arg;
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    _exit (mx_fork_child ());
  if (pid < 0)
    snprintf (buf, 200, "fork: %s", strerror (errno));
  else
    mx_wait (pid, buf, 200);
  return NULL;
}

static void
mx_fork (void)
{
  char buf[200], tbuf[200] = "";
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    _exit (mx_fork_child ());
  if (pid < 0)
    snprintf (buf, sizeof buf, "fork: %s", strerror (errno));
  else
    mx_wait (pid, buf, sizeof buf);
  mx_result (buf[0] == '\0', "fork-main", "%s",
             buf[0] ? buf : "child keeps the registration, same area");
  pthread_t th;
  if (pthread_create (&th, NULL, mx_fork_from_thread, tbuf) != 0)
    strcpy (tbuf, "pthread_create failed");
  else
    pthread_join (th, NULL);
  mx_result (tbuf[0] == '\0', "fork-thread", "%s",
             tbuf[0] ? tbuf : "child of a thread keeps its registration");
}

static char mx_self[4096];

/* How a child started by mx_spawn changes its environment.  */
enum mx_env_change
{
  MX_ENV_KEEP,
  MX_ENV_CLEAN,		/* No preload, glibc's registration off.  */
  MX_ENV_NO_PRELOAD,	/* The preload is on the loader's command line.  */
};

/* Run ARGV (ARGV[0] the file) through execve, a check named NAME that
   passes when it exits with WANT.  A failed execve exits 126, never a
   status a check expects.  */
static void
mx_spawn_want (const char *name, char *const argv[], enum mx_env_change env,
               int want, const char *what)
{
  char buf[200];
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (env != MX_ENV_KEEP)
        unsetenv ("LD_PRELOAD");
      if (env == MX_ENV_CLEAN)
        setenv ("GLIBC_TUNABLES", "glibc.pthread.rseq=0", 1);
      execv (argv[0], argv);
      printf ("# exec %s: %s\n", argv[0], strerror (errno));
      fflush (stdout);
      _exit (126);
    }
  if (pid < 0)
    snprintf (buf, sizeof buf, "fork: %s", strerror (errno));
  else
    mx_wait (pid, buf, sizeof buf);
  char expect[32] = "";
  if (want != 0)
    snprintf (expect, sizeof expect, "exit status %d", want);
  int ok = pid > 0 && strcmp (buf, expect) == 0;
  mx_result (ok, name, "%s", ok ? what : buf[0] ? buf : "exit status 0");
}

static void
mx_spawn (const char *name, char *const argv[], enum mx_env_change env,
          const char *what)
{
  mx_spawn_want (name, argv, env, 0, what);
}

/* Run this program again through execve with ARG; CLEAN_ENV drops the
   preload and turns glibc's registration off in the new image.  */
static void
mx_exec (const char *name, const char *arg, int clean_env, const char *what)
{
  char *const argv[] = { mx_self, (char *) arg, NULL };
  mx_spawn (name, argv, clean_env ? MX_ENV_CLEAN : MX_ENV_KEEP, what);
}

/* The program interpreter named in this program's PT_INTERP.  */
static int
mx_interp_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  /* The first object listed is the program.  */
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_INTERP)
      *(const char **) data
        = (const char *) (info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
  return 1;
}

/* The dynamic loader run as a command, "ld.so [--library-path DIR]
   [--preload SHIM] PROGRAM" (glibc's testrun.sh): the kernel then gives
   no AT_BASE, glibc rewrites AT_PHDR to describe PROGRAM, and the shim
   must find the loader anyway.  The new image must report the same
   mode, size and registration as a normal start (--exec-values).  */
static void
mx_ldso_direct (void)
{
  const char *interp = NULL;
  dl_iterate_phdr (mx_interp_cb, &interp);
  const char *shim = getenv ("LD_PRELOAD");
  if (interp == NULL || shim == NULL || strchr (shim, ':') != NULL
      || strchr (shim, ' ') != NULL || strrchr (shim, '/') == NULL)
    {
      mx_result (0, "ldso-direct", "no PT_INTERP (%s) or not one preloaded "
                 "path in LD_PRELOAD (%s)", interp ? interp : "none",
                 shim ? shim : "unset");
      return;
    }
  char dir[4096];
  snprintf (dir, sizeof dir, "%.*s", (int) (strrchr (shim, '/') - shim),
            shim);
  char *const plain[] =
    { (char *) interp, mx_self, "--exec-values", NULL };
  mx_spawn ("ldso-direct", plain, MX_ENV_KEEP,
            "ld.so PROGRAM with LD_PRELOAD: same values as a normal start");
  char *const testrun[] =
    { (char *) interp, "--library-path", dir, mx_self, "--exec-values",
      NULL };
  mx_spawn ("ldso-direct-library-path", testrun, MX_ENV_KEEP,
            "ld.so --library-path DIR PROGRAM (testrun.sh): same values");
  char *const preload[] =
    { (char *) interp, "--preload", (char *) shim, mx_self, "--exec-values",
      NULL };
#ifdef __GLIBC__
  /* glibc's loader has --preload from 2.30; an older one takes the
     option for the program's name and fails (exit 127): checked, not
     assumed.  */
  if (strverscmp (gnu_get_libc_version (), "2.30") < 0)
    {
      mx_spawn_want ("ldso-direct-preload", preload, MX_ENV_NO_PRELOAD, 127,
                     "ld.so has no --preload before glibc 2.30 and refuses it");
      return;
    }
#endif
  mx_spawn ("ldso-direct-preload", preload, MX_ENV_NO_PRELOAD,
            "ld.so --preload SHIM PROGRAM: same values");
}

/* The image after exec, nothing preloaded, libc registration off: the
   thread must be unregistered, so a new registration succeeds.  */
static int
mx_exec_clean (void)
{
  static struct mx_rseq a;
  a.cpu_id = (uint32_t) -1;
  if (mx_rseq (&a, 32, 0) != 0)
    {
      printf ("# after exec: registering a fresh area failed: %s "
              "(the old registration survived exec)\n", strerror (errno));
      return 1;
    }
  int sys = mx_syscall_cpu (NULL), id = (int) a.cpu_id;
  int bad = id < 0 || id >= CPU_SETSIZE;
  if (mx_rseq (&a, 32, 1) != 0)
    {
      printf ("# after exec: unregister failed: %s\n", strerror (errno));
      bad = 1;
    }
  if (bad)
    printf ("# after exec: cpu_id %d, syscall %d\n", id, sys);
  return bad;
}

/* The image after exec with the shim still preloaded: registered again
   with the same values.  */
static int
mx_exec_values (void)
{
  char buf[200];
  const char *why = mx_check_thread (buf, sizeof buf);
  if (why == NULL && (mx_size_sym == NULL || *mx_size_sym != mx_size))
    why = "__rseq_size differs after exec";
  if (why == NULL && (mx_mode_fn == NULL || strcmp (mx_mode_fn (), mx_mode)))
    why = "another mode after exec";
  if (why != NULL)
    printf ("# after exec: %s\n", why);
  return why != NULL;
}

/* ---- signals around vfork ---- */

/* glibc keeps a thread registered for its whole life, signal handlers
   included.  One thread calls vfork in a loop while another signals it;
   every handler must find the thread registered.  */
static volatile int mx_vs_stop;
static unsigned long mx_vs_handled, mx_vs_bad, mx_vs_vforks;

static void
mx_vs_handler (int sig)
{
  (void) sig;
  volatile struct mx_rseq *a = mx_area ();
  if ((int) a->cpu_id < 0)
    __atomic_add_fetch (&mx_vs_bad, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&mx_vs_handled, 1, __ATOMIC_RELAXED);
}

static void *
mx_vs_loop (void *arg)
{
  (void) arg;
  while (!mx_vs_stop)
    {
      pid_t pid = vfork ();
      if (pid == 0)
        _exit (0);
      if (pid > 0)
        waitpid (pid, NULL, 0);
      mx_vs_vforks++;
    }
  return NULL;
}

static void
mx_vfork_signals (void)
{
  struct sigaction sa, old;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = mx_vs_handler;
  sa.sa_flags = SA_RESTART;
  sigaction (SIGUSR1, &sa, &old);
  pthread_t th;
  if (pthread_create (&th, NULL, mx_vs_loop, NULL) != 0)
    {
      mx_result (0, "vfork-signal", "pthread_create failed");
      return;
    }
  struct timespec now, end;
  clock_gettime (CLOCK_MONOTONIC, &end);
  end.tv_sec += 1;
  do
    {
      pthread_kill (th, SIGUSR1);
      struct timespec ts = { 0, 50000 };
      nanosleep (&ts, NULL);
      clock_gettime (CLOCK_MONOTONIC, &now);
    }
  while (now.tv_sec < end.tv_sec
         || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
  mx_vs_stop = 1;
  pthread_join (th, NULL);
  sigaction (SIGUSR1, &old, NULL);
  mx_result (mx_vs_bad == 0 && mx_vs_handled > 0, "vfork-signal",
             "%lu of %lu handlers in a thread calling vfork (%lu calls) "
             "found it unregistered", mx_vs_bad, mx_vs_handled, mx_vs_vforks);
}

/* ---- the stress run ---- */

static volatile int mx_stop;
static unsigned long mx_n_threads, mx_n_signals, mx_n_forks, mx_n_bad;
static pthread_t mx_workers[4];

static void
mx_bad (const char *what, int a, int b)
{
  if (__atomic_add_fetch (&mx_n_bad, 1, __ATOMIC_RELAXED) <= 5)
    {
      char line[300];
      int n = snprintf (line, sizeof line, "# stress: %s (%d, %d)\n", what,
                        a, b);
      if (write (1, line, n) < 0)
        _exit (3);
    }
}

/* cpu_id against the system call, tolerating a migration in between.  */
static void
mx_check_consistent (void)
{
  volatile struct mx_rseq *a = mx_area ();
  for (int tries = 0; tries < 5; tries++)
    {
      int before = (int) a->cpu_id;
      int sys = mx_syscall_cpu (NULL);
      int sg = sched_getcpu ();
      int after = (int) a->cpu_id;
      if (before < 0 || after < 0)
        {
          mx_bad ("unregistered thread: cpu_id", before, after);
          return;
        }
      if (before == after && sys == before && sg == before)
        return;
    }
  mx_bad ("cpu_id disagrees with getcpu 5 times", (int) a->cpu_id,
          mx_syscall_cpu (NULL));
}

static void
mx_on_signal (int sig)
{
  int saved = errno;
  (void) sig;
  volatile struct mx_rseq *a = mx_area ();
  if ((int) a->cpu_id < 0)
    mx_bad ("signal handler: cpu_id", (int) a->cpu_id, 0);
  else if (sched_getcpu () < 0)
    mx_bad ("signal handler: sched_getcpu", -1, 0);
  __atomic_add_fetch (&mx_n_signals, 1, __ATOMIC_RELAXED);
  errno = saved;
}

static void *
mx_short_thread (void *arg)
{
  char buf[200];
  const char *why = mx_check_thread (buf, sizeof buf);
  if (why != NULL)
    mx_bad (why, 0, 0);
  mx_check_consistent ();
  __atomic_add_fetch (&mx_n_threads, 1, __ATOMIC_RELAXED);
  (void) arg;
  return NULL;
}

static void *
mx_worker (void *arg)
{
  unsigned int seed = (unsigned int) (uintptr_t) arg;
  while (!mx_stop)
    {
      pthread_t th[4];
      int joinable[4];
      for (int i = 0; i < 4; i++)
        {
          pthread_attr_t attr;
          pthread_attr_init (&attr);
          joinable[i] = rand_r (&seed) % 3 != 0;
          if (!joinable[i])
            pthread_attr_setdetachstate (&attr, PTHREAD_CREATE_DETACHED);
          if (rand_r (&seed) % 2)
            pthread_attr_setstacksize (&attr, 64 * 1024);
          if (pthread_create (&th[i], &attr, mx_short_thread, NULL) != 0)
            joinable[i] = 0;
          pthread_attr_destroy (&attr);
        }
      for (int i = 0; i < 4; i++)
        if (joinable[i])
          pthread_join (th[i], NULL);
      mx_check_consistent ();
      if (rand_r (&seed) % 8 == 0)
        sched_yield ();
    }
  return NULL;
}

static void *
mx_signaller (void *arg)
{
  unsigned int seed = 7;
  (void) arg;
  while (!mx_stop)
    {
      pthread_kill (mx_workers[rand_r (&seed) % 4], SIGUSR1);
      kill (getpid (), SIGUSR2);
      struct timespec ts = { 0, 200000 };
      nanosleep (&ts, NULL);
    }
  return NULL;
}

static void *
mx_forker (void *arg)
{
  (void) arg;
  while (!mx_stop)
    {
      int use_vfork = mx_n_forks % 4 == 3;
      pid_t pid = use_vfork ? vfork () : fork ();
      if (pid == 0)
        {
          if (use_vfork)
            _exit (0);
          char buf[200];
          const char *why = mx_check_thread (buf, sizeof buf);
          if (why != NULL)
            {
              mx_bad (why, 0, 0);
              _exit (1);
            }
          mx_check_consistent ();
          _exit (0);
        }
      if (pid > 0)
        {
          char buf[200];
          if (mx_wait (pid, buf, sizeof buf) != 0)
            mx_bad (use_vfork ? "vfork child died" : "fork child died", 0, 0);
        }
      mx_n_forks++;
      mx_check_consistent ();
      struct timespec ts = { 0, 5000000 };
      nanosleep (&ts, NULL);
    }
  return NULL;
}

static int
mx_stress_child (int seconds)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = mx_on_signal;
  sa.sa_flags = SA_RESTART;
  sigaction (SIGUSR1, &sa, NULL);
  sigaction (SIGUSR2, &sa, NULL);
  for (int i = 0; i < 4; i++)
    pthread_create (&mx_workers[i], NULL, mx_worker,
                    (void *) (uintptr_t) (i + 1));
  pthread_t sig, fk;
  pthread_create (&sig, NULL, mx_signaller, NULL);
  pthread_create (&fk, NULL, mx_forker, NULL);
  /* Signals cut sleeps short: wait for the deadline.  */
  struct timespec now, end;
  clock_gettime (CLOCK_MONOTONIC, &end);
  end.tv_sec += seconds;
  do
    {
      struct timespec ts = { 0, 100000000 };
      nanosleep (&ts, NULL);
      mx_check_consistent ();
      clock_gettime (CLOCK_MONOTONIC, &now);
    }
  while (now.tv_sec < end.tv_sec
         || (now.tv_sec == end.tv_sec && now.tv_nsec < end.tv_nsec));
  mx_stop = 1;
  pthread_join (sig, NULL);
  pthread_join (fk, NULL);
  for (int i = 0; i < 4; i++)
    pthread_join (mx_workers[i], NULL);
  /* Let the detached ones finish.  */
  for (int i = 0; i < 10; i++)
    {
      struct timespec ts = { 0, 100000000 };
      nanosleep (&ts, NULL);
    }
  printf ("# stress: %lu threads, %lu signals, %lu forks, %lu problems\n",
          mx_n_threads, mx_n_signals, mx_n_forks, mx_n_bad);
  fflush (stdout);
  if (mx_n_threads == 0 || mx_n_forks == 0)
    return 101;
  return mx_n_bad > 100 ? 100 : (int) mx_n_bad;
}

static void
mx_stress (int seconds)
{
  char buf[200];
  char name[64];
  snprintf (name, sizeof name, "stress-%ds", seconds);
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    _exit (mx_stress_child (seconds));
  int status = 0;
  if (pid < 0)
    snprintf (buf, sizeof buf, "fork: %s", strerror (errno));
  else if (waitpid (pid, &status, 0) != pid)
    snprintf (buf, sizeof buf, "waitpid: %s", strerror (errno));
  else if (WIFSIGNALED (status))
    snprintf (buf, sizeof buf, "killed by signal %d (%s)", WTERMSIG (status),
              strsignal (WTERMSIG (status)));
  else if (WEXITSTATUS (status) == 101)
    snprintf (buf, sizeof buf, "no thread or no fork completed");
  else if (WEXITSTATUS (status) != 0)
    snprintf (buf, sizeof buf, "not killed, but %d%s problem(s), listed "
              "above", WEXITSTATUS (status),
              WEXITSTATUS (status) == 100 ? "+" : "");
  else
    buf[0] = '\0';
  mx_result (buf[0] == '\0', name, "%s", buf[0] ? buf
             : "threads, signals, fork, vfork: not killed, all registered");
}

/* In the kernel's optimized mode (length > 32, Linux 7.0+) a user write
   to cpu_id kills the process: prove the registration runs in it, so
   that a stress run that is not killed means something.  */
static void
mx_v2_enforced (void)
{
  char buf[200];
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    {
      volatile struct mx_rseq *a = mx_area ();
      a->cpu_id = 77;
      for (int i = 0; i < 200; i++)
        {
          mx_pin (i % 2 && CPU_COUNT (&mx_allowed) > 1 ? 1 : 0);
          sched_yield ();
        }
      _exit (0);
    }
  int status = 0;
  if (pid < 0 || waitpid (pid, &status, 0) != pid)
    snprintf (buf, sizeof buf, "fork or waitpid: %s", strerror (errno));
  else if (WIFSIGNALED (status) && WTERMSIG (status) == SIGSEGV)
    buf[0] = '\0';
  else if (WIFSIGNALED (status))
    snprintf (buf, sizeof buf, "a child writing cpu_id was killed by "
              "signal %d, not SIGSEGV", WTERMSIG (status));
  else
    snprintf (buf, sizeof buf, "a child writing cpu_id lived on: the "
              "kernel does not run this registration in optimized mode");
  mx_result (buf[0] == '\0', "optimized-mode", "%s", buf[0] ? buf :
             "a child that writes cpu_id is killed with SIGSEGV");
}

/* The mode rseq-compat info names for a registration
   (rseq_layout_optimized), from this kernel's auxv: optimized for this
   thread's length exactly where the driver expects a length above 32
   under Linux 7.0 or later, and for any length above 32 only there
   (before 7.0 the legacy mode is the only one).  The release stands for
   the kernel's modes independently of auxv; optimized-mode proves the
   kernel agrees where the answer is optimized.  */
static void
mx_kernel_mode (const char *release)
{
  unsigned long int feature = getauxval (MX_AT_RSEQ_FEATURE_SIZE);
  int modes = atoi (release) >= 7;
  int mine = rseq_layout_optimized (feature, mx_len);
  int longer = rseq_layout_optimized (feature, 64);
  mx_result (mine == (modes && mx_len > 32) && longer == modes,
             "kernel-mode", "length %u: %s, length 64: %s (Linux %s, "
             "feature size %lu)", mx_len, mine ? "optimized" : "legacy",
             longer ? "optimized" : "legacy", release, feature);
}

/* ---- main ---- */

static unsigned int
mx_env (const char *name, unsigned int dflt)
{
  const char *v = getenv (name);
  return v != NULL && *v != '\0' ? (unsigned int) strtoul (v, NULL, 0) : dflt;
}

int
main (int argc, char **argv)
{
  mx_offset = dlsym (RTLD_DEFAULT, "__rseq_offset");
  mx_size_sym = dlsym (RTLD_DEFAULT, "__rseq_size");
  mx_flags_sym = dlsym (RTLD_DEFAULT, "__rseq_flags");
  mx_mode_fn = (const char *(*) (void)) dlsym (RTLD_DEFAULT,
                                               "rseq_compat_mode");
  if (getenv ("MX_MODE") != NULL)
    mx_mode = getenv ("MX_MODE");
  mx_size = mx_env ("MX_SIZE", 0);
  mx_len = mx_env ("MX_LEN", 32);
  sched_getaffinity (0, sizeof mx_allowed, &mx_allowed);
  mx_ncpus = (int) sysconf (_SC_NPROCESSORS_CONF);

  if (argc > 1 && strcmp (argv[1], "--exec-clean") == 0)
    return mx_exec_clean ();
  if (argc > 1 && strcmp (argv[1], "--exec-values") == 0)
    return mx_exec_values ();
  if (readlink ("/proc/self/exe", mx_self, sizeof mx_self - 1) < 0)
    snprintf (mx_self, sizeof mx_self, "%s", argv[0]);

  struct utsname u;
  uname (&u);
  printf ("# kernel %s, AT_RSEQ_FEATURE_SIZE %lu, AT_RSEQ_ALIGN %lu, "
          "%d cpus; expecting %s, size %u, length %u\n", u.release,
          getauxval (MX_AT_RSEQ_FEATURE_SIZE), getauxval (MX_AT_RSEQ_ALIGN),
          CPU_COUNT (&mx_allowed), mx_mode, mx_size, mx_len);

  int have = mx_offset && mx_size_sym && mx_flags_sym && mx_mode_fn;
  if (!have)
    {
      mx_result (0, "symbols", "__rseq_offset, __rseq_size, __rseq_flags or "
                 "rseq_compat_mode not found: is the shim preloaded?");
      goto out;
    }
  mx_result (1, "symbols", "__rseq_offset %td", *mx_offset);
  mx_result (strcmp (mx_mode_fn (), mx_mode) == 0, "mode", "%s",
             mx_mode_fn ());
  mx_result (*mx_size_sym == mx_size, "rseq-size", "__rseq_size %u, "
             "expected %u", *mx_size_sym, mx_size);
  mx_result (rseq_compat_size () == mx_size, "rseq-compat-size",
             "rseq_compat_size() %u", rseq_compat_size ());
  mx_result (*mx_flags_sym == 0, "rseq-flags", "__rseq_flags %u",
             *mx_flags_sym);

  char buf[300];
  const char *why = mx_check_thread (buf, sizeof buf);
  if (why != NULL)
    mx_result (0, "main-registered", "%s", why);
  else
    mx_result (1, "main-registered", "area %p, aligned, kernel holds "
               "length %u", (void *) mx_area (), mx_len);
  why = mx_check_cpus (mx_area (), buf, sizeof buf);
  mx_result (why == NULL, "cpu-id", "%s", why ? why :
             "on every CPU: cpu_id = cpu_id_start = sched_getcpu = "
             "rseq_compat_cpu = getcpu syscall");
  mx_kernel_mode (u.release);
  mx_threads ();
  mx_fork ();
  mx_exec ("exec-clean", "--exec-clean", 1,
           "the new image starts unregistered");
  mx_exec ("exec-again", "--exec-values", 0,
           "the new image is registered again, same values");
  mx_ldso_direct ();
  mx_vfork_signals ();
  unsigned int stress = mx_env ("MX_STRESS", 0);
  if (mx_len > 32)
    mx_v2_enforced ();
  if (stress > 0)
    mx_stress ((int) stress);

out:
  printf ("mxcheck: %d ok, %d failed\n", mx_ok, mx_failed);
  return mx_failed != 0;
}
