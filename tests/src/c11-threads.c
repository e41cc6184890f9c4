/* C11 threads (thrd_create), which glibc 2.28 and later and musl start
   through their own internal pthread_create.
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

/* Usage: c11-threads default|handle|lphandle|timer|next|nextmsg|
   dlerror|sandbox|lpalias|timerfirst|linked|before-2.28, or
   c11-threads plugin|pluginnext|pluginbare|ctor PLUGIN (each
   scenario's comment says what it checks).

   "default" finds thrd_create as the program's own call would
   (RTLD_DEFAULT: the first definition in the global scope); "handle" in
   the object that defines the C library's thrd_join (libpthread.so.0
   in glibc 2.28 to 2.33, libc otherwise), a lookup that interposition
   does not reach.  Each C11 thread must be registered exactly where the
   mode registers pthread_create's threads (the kernel's EBUSY), return
   its int through thrd_join, end by thrd_exit from a nested call with
   that value, and start with its creator's signal mask, as C11 and
   POSIX have it without the shim.  Where the C library has no
   thrd_create (glibc before 2.28) the lookup must fail, as it does
   without the shim.  "before-2.28" answers only that question (exit 0
   for yes).  Declared here rather than through <threads.h>, which
   those glibc versions lack; thrd_t is pthread_t in glibc and musl.

   "timer" pins a limit (doc/using.md): a SIGEV_THREAD timer's callback
   runs on a thread that musl, and glibc 2.34 (librt merged into libc),
   start through their internal pthread_create, unregistered where the
   shim owns the registration, with sched_getcpu still right; glibc
   2.35 and later register it themselves, and before 2.34 librt's call
   reaches the shim's pthread_create.

   "next": dlsym (RTLD_NEXT, "thrd_create") from the program finds the
   C library's; where it has none, nothing without the shim and the
   shim's with it (a limit, doc/using.md).
   "dlerror": a C11 thread created and joined between a failed dlopen
   and dlerror leaves the message to dlerror.  "plugin": PLUGIN
   (c11-threads-plugin.c), dlopened with RTLD_LOCAL, carries a
   thrd_create of its own, which its own calls reach only where the
   global scope has none (glibc before 2.28), and the thread is
   registered where the mode registers; there, with the shim, they get
   thrd_error instead (a limit, doc/using.md).  */

#include "rtest.h"
#include "seccomp-filter.h"

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#define THREADS 4
/* thrd_success is 0 in glibc and musl.  */
#define C11_SUCCESS 0

typedef int c11_fn (void *);
typedef int create_fn (pthread_t *, c11_fn *, void *);
typedef int join_fn (pthread_t, int *);
typedef void exit_fn (int);

static exit_fn *c11_exit;

struct result
{
  struct rt_abi abi;
  unsigned int len;
  int index;
  int ran;
  int cpu_id;
  int registered;
  int usr1_blocked;
  int usr2_blocked;
};

static void __attribute__ ((noinline))
leave_deep (int depth, int value)
{
  if (depth > 0)
    leave_deep (depth - 1, value);
  c11_exit (value);
}

static int
thread_main (void *p)
{
  struct result *r = p;
  rt_probe_thread (&r->abi, r->len, &r->cpu_id, &r->registered);
  sigset_t now;
  sigprocmask (SIG_SETMASK, NULL, &now);
  r->usr1_blocked = sigismember (&now, SIGUSR1);
  r->usr2_blocked = sigismember (&now, SIGUSR2);
  r->ran = 1;
  /* One value by return, one by thrd_exit from a nested call; both
     negative and positive ints come back whole.  */
  if (r->index % 2 == 1)
    leave_deep (10, -1000 - r->index);
  return 1000 + r->index;
}

/* Whether the C library starts a SIGEV_THREAD timer's threads where
   no interposition reaches.  */
static int
timer_internal (void)
{
#ifdef __GLIBC__
  return !rt_glibc_before ("2.34") && rt_glibc_before ("2.35");
#else
  return 1;
#endif
}

static struct
{
  struct rt_abi abi;
  unsigned int len;
  int cpu_id;
  int registered;
  int fast_cpu;
  int kernel_cpu;
  volatile int done;
} tick;

static void
timer_main (union sigval v)
{
  (void) v;
  rt_probe_thread (&tick.abi, tick.len, &tick.cpu_id, &tick.registered);
  /* Pinned, so that the two answers are about one CPU.  */
  int cpu = rt_syscall_cpu ();
  if (cpu >= 0 && rt_pin (cpu) == 0)
    {
      tick.fast_cpu = sched_getcpu ();
      tick.kernel_cpu = rt_syscall_cpu ();
    }
  __atomic_store_n (&tick.done, 1, __ATOMIC_RELEASE);
}

typedef int create_timer_fn (clockid_t, struct sigevent *, timer_t *);
typedef int set_timer_fn (timer_t, int, const struct itimerspec *,
                          struct itimerspec *);
typedef int delete_timer_fn (timer_t);

/* By dlsym: glibc before 2.34 has them in librt, linked or not.  */
static int
timer_fns (create_timer_fn **create, set_timer_fn **set,
           delete_timer_fn **del)
{
  void *rt = dlopen ("librt.so.1", RTLD_NOW | RTLD_GLOBAL);
  *create = (create_timer_fn *) dlsym (RTLD_DEFAULT, "timer_create");
  *set = (set_timer_fn *) dlsym (RTLD_DEFAULT, "timer_settime");
  *del = (delete_timer_fn *) dlsym (RTLD_DEFAULT, "timer_delete");
  CHECK (*create != NULL && *set != NULL && *del != NULL,
         "no timer_create, timer_settime or timer_delete (librt: %p)", rt);
  return *create != NULL && *set != NULL && *del != NULL;
}

static volatile int first_ran;

static void
first_main (union sigval v)
{
  (void) v;
  __atomic_store_n (&first_ran, 1, __ATOMIC_RELEASE);
}

/* "timerfirst": a SIGEV_THREAD timer's first expiry, made to come
   while the thread that waits for its signal (glibc's helper, which
   timer_create starts) has not run yet: one CPU for the process, and
   the expiry a nanosecond away.  POSIX has the callback run for it.
   glibc 2.31's helper waits for SIGCANCEL (its SIGTIMER) with
   sigwaitinfo, blocked since its creator blocked it; the 2.31 series
   gave new threads their creator's mask less SIGCANCEL, so the expiry
   went to the cancellation handler, which ignores it, and the callback
   never ran (c11-threads timer, twice under load in make
   check-glibc-project).  In a fresh process each time: the helper is
   started once per process.  */
static int
timer_first_scenario (void)
{
  enum { RUNS = 24 };
  int lost = 0;
  for (int i = 0; i < RUNS; i++)
    {
      fflush (NULL);
      pid_t pid = fork ();
      if (pid == 0)
        {
          create_timer_fn *create;
          set_timer_fn *set;
          delete_timer_fn *del;
          int cpu = rt_syscall_cpu ();
          if (!timer_fns (&create, &set, &del) || cpu < 0
              || rt_pin (cpu) != 0)
            _exit (3);
          struct sigevent ev;
          memset (&ev, 0, sizeof ev);
          ev.sigev_notify = SIGEV_THREAD;
          ev.sigev_notify_function = first_main;
          timer_t id;
          struct itimerspec when;
          memset (&when, 0, sizeof when);
          when.it_value.tv_nsec = 1;
          if (create (CLOCK_MONOTONIC, &ev, &id) != 0
              || set (id, 0, &when, NULL) != 0)
            _exit (4);
          for (int t = 0; t < 5000 && !__atomic_load_n (&first_ran,
                                                        __ATOMIC_ACQUIRE);
               t++)
            usleep (1000);
          _exit (__atomic_load_n (&first_ran, __ATOMIC_ACQUIRE) ? 0 : 1);
        }
      int status = 0;
      CHECK (pid > 0 && waitpid (pid, &status, 0) == pid, "fork: %s",
             strerror (errno));
      if (pid <= 0)
        return rt_exit_status ();
      CHECK (WIFEXITED (status)
             && (WEXITSTATUS (status) == 0 || WEXITSTATUS (status) == 1),
             "run %d: the child failed to set the timer up (status %d)", i,
             status);
      lost += WIFEXITED (status) && WEXITSTATUS (status) == 1;
    }
  CHECK (lost == 0, "%d of %d first expiries of a SIGEV_THREAD timer never "
         "ran the callback (within 5 s)", lost, RUNS);
  return rt_exit_status ();
}

static int
timer_scenario (void)
{
  tick.abi = rt_abi ();
  tick.len = rt_expected_len ();
  tick.fast_cpu = tick.kernel_cpu = -100;
  create_timer_fn *create;
  set_timer_fn *set;
  delete_timer_fn *del;
  if (!timer_fns (&create, &set, &del))
    return rt_exit_status ();
  struct sigevent ev;
  memset (&ev, 0, sizeof ev);
  ev.sigev_notify = SIGEV_THREAD;
  ev.sigev_notify_function = timer_main;
  timer_t id;
  CHECK (create (CLOCK_MONOTONIC, &ev, &id) == 0, "timer_create: %s",
         strerror (errno));
  struct itimerspec when;
  memset (&when, 0, sizeof when);
  when.it_value.tv_nsec = 1000000;
  CHECK (set (id, 0, &when, NULL) == 0, "timer_settime: %s", strerror (errno));
  /* Up to a minute: once, with eight tier jobs on two cores, the
     callback had not run after ten seconds (glibc-2.31-project, the
     patched 2.31; its rerun passed).  */
  for (int i = 0; i < 60000 && !__atomic_load_n (&tick.done, __ATOMIC_ACQUIRE); i++)
    usleep (1000);
  CHECK (tick.done, "the timer's callback never ran");
  del (id);
  if (!tick.done)
    return rt_exit_status ();
  CHECK (tick.fast_cpu == tick.kernel_cpu,
         "sched_getcpu %d on the timer's thread, the kernel says %d",
         tick.fast_cpu, tick.kernel_cpu);
  int want = rt_expect_registered ()
             && !(rt_expect_is ("shim-owned") && timer_internal ());
  if (tick.abi.offset == NULL)
    return rt_exit_status ();
  if (want)
    CHECK (tick.registered == 1 && tick.cpu_id >= 0,
           "the timer's thread: registered %d, cpu_id %d", tick.registered,
           tick.cpu_id);
  else
    CHECK (tick.registered == 0 && tick.cpu_id < 0,
           "the timer's thread: registered %d, cpu_id %d in mode %s, where "
           "doc/using.md says it is not (a limit fixed: update both)",
           tick.registered, tick.cpu_id, rt_expect ());
  return rt_exit_status ();
}

/* Whether the global scope has a thrd_create: the C library's, in
   libc or (glibc 2.28 to 2.33) in libpthread, which the program links.  */
static int
libc_has_thrd_create (void)
{
  return !rt_glibc_before ("2.28");
}

static int
next_scenario (void)
{
  void *next = dlsym (RTLD_NEXT, "thrd_create");
  if (libc_has_thrd_create ())
    CHECK (next != NULL, "dlsym (RTLD_NEXT, thrd_create): %s", dlerror ());
  else if (strcmp (rt_shim_mode (), "none") == 0)
    CHECK (next == NULL, "this glibc has no thrd_create, yet RTLD_NEXT found %p",
           next);
  else
    /* The limit doc/using.md states: the program comes before the
       shim, whose thrd_create (answering thrd_error) it finds.  */
    {
      Dl_info info;
      CHECK (next != NULL && dladdr (next, &info) != 0 && info.dli_fname != NULL
             && strstr (info.dli_fname, "librseq-compat") != NULL,
             "RTLD_NEXT found %p, not the shim's", next);
    }
  return rt_exit_status ();
}

static int
plugin_scenario (const char *path, int bare)
{
  /* "linked": the program links the library (eighty-fourth review,
     F2), which then comes before the C library in the global scope:
     its own thrd_create is the one called, on every C library, with
     the shim too (the shim's calls it).  "pluginbare": this program,
     built without libpthread, dlopens it.  */
  int linked = path == NULL;
  int shim = strcmp (rt_shim_mode (), "none") != 0;
  /* Whether the global scope has the C library's thrd_create, which
     the library's calls then reach: libc's (glibc 2.34 and later,
     musl), or libpthread's, there only in a program linked with it
     (glibc 2.28 to 2.33).  */
  int global_has = libc_has_thrd_create ()
                   && (!bare || !rt_glibc_before ("2.34"));
  void *h = linked ? RTLD_DEFAULT : dlopen (path, RTLD_NOW | RTLD_LOCAL);
  CHECK (linked || h != NULL, "dlopen %s: %s", path, dlerror ());
  if (!linked && h == NULL)
    return rt_exit_status ();
  typedef int run_fn (c11_fn *, void *, int *);
  run_fn *run = (run_fn *) dlsym (h, "c11_plugin_run");
  CHECK (run != NULL, "dlsym c11_plugin_run: %s", dlerror ());
  if (run == NULL)
    return rt_exit_status ();
  struct result r;
  memset (&r, 0, sizeof r);
  r.abi = rt_abi ();
  r.len = rt_expected_len ();
  int own = -1;
  int value = run (thread_main, &r, &own);
  if (!linked && !libc_has_thrd_create () && shim)
    {
      /* The limit doc/using.md states: the library's calls reach the
         shim's thrd_create, which has no C library's to start.  */
      CHECK (value == -1, "the library's thrd_create gave %d: the limit "
             "doc/using.md states is lifted (update both)", value);
      return rt_exit_status ();
    }
  CHECK (value == 1000, "the library's thread gave %d, not 1000", value);
  int want_own = linked || !global_has;
  /* The limit doc/using.md states (eighty-sixth review, F1): where
     only libpthread's handle has the C library's thrd_create (glibc
     2.28 to 2.33, this program without libpthread), the library's
     calls reach the shim's, which calls that one, not the library's
     own: the thread is made and registered, the library's wrapper
     skipped.  */
  if (!linked && shim && !global_has)
    want_own = 0;
  CHECK (own == want_own,
         "the library's call reached %s thrd_create, not %s",
         own == 1 ? "its own" : "the C library's",
         want_own ? "its own" : "the C library's");
  if (value == 1000 && r.abi.offset != NULL)
    {
      if (rt_expect_registered ())
        CHECK (r.registered == 1 && r.cpu_id >= 0,
               "the library's thread: registered %d, cpu_id %d",
               r.registered, r.cpu_id);
      else
        CHECK (r.registered != 1, "the library's thread registered in mode %s",
               rt_expect ());
    }
  return rt_exit_status ();
}

/* "ctor": PLUGIN's constructor (c11-threads-ctor.c, C11_CTOR_ORDER in
   the environment) waits for a thread that creates another with the
   other call; the program is built without libpthread.  Where the C
   library has thrd_create the inner thread must have run.  */
static int
ctor_scenario (const char *path)
{
  /* A hang fails the test (SIGALRM ends the process).  */
  alarm (30);
  void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  CHECK (h != NULL, "dlopen %s: %s", path, dlerror ());
  if (h == NULL)
    return rt_exit_status ();
  int *result = (int *) dlsym (h, "c11_ctor_result");
  CHECK (result != NULL, "dlsym c11_ctor_result: %s", dlerror ());
  /* Upstream glibc 2.34 deadlocks there by itself, without the shim
     (c11-threads-ctor.c): the library does nothing on it.  */
  int broken = !rt_glibc_before ("2.34") && rt_glibc_before ("2.35");
  int want = broken ? 0 : 7;
#ifndef __GLIBC__
  /* musl's dlsym (RTLD_NEXT, ...) from a library dlopened after libc
     finds nothing there: "raw" starts no thread, as without the shim.  */
  const char *order = getenv ("C11_CTOR_ORDER");
  if (order != NULL && strcmp (order, "raw") == 0)
    want = -1;
#endif
  if (result != NULL && libc_has_thrd_create ())
    CHECK (*result == want, "the constructor's threads gave %d, not %d",
           *result, want);
  return rt_exit_status ();
}

/* "nextmsg" (the eighty-first review's F6, glibc 2.17): a failed
   dlsym (RTLD_NEXT, ...) of either creator leaves a dlerror message
   exactly where the C library's own failed RTLD_NEXT lookup does, and
   one found leaves none.  The C library's behaviour is the oracle: a
   name nobody defines, looked up the same way.  */
static int
nextmsg_scenario (void)
{
  dlerror ();
  void *none = dlsym (RTLD_NEXT, "rseq_compat_c11_no_such_symbol");
  int libc_leaves = dlerror () != NULL;
  CHECK (none == NULL, "RTLD_NEXT found rseq_compat_c11_no_such_symbol");
  static const char *const names[] = { "pthread_create", "thrd_create" };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      dlerror ();
      void *p = dlsym (RTLD_NEXT, names[i]);
      const char *e = dlerror ();
      if (p != NULL)
        {
          CHECK (e == NULL, "dlsym (RTLD_NEXT, %s) found %p and left \"%s\"",
                 names[i], p, e);
          /* doc/using.md: the program comes before the shim, whose
             function it finds (eighty-fourth review, F5).  */
          Dl_info info;
          if (strcmp (rt_shim_mode (), "none") != 0)
            CHECK (dladdr (p, &info) != 0 && info.dli_fname != NULL
                   && strstr (info.dli_fname, "librseq-compat") != NULL,
                   "dlsym (RTLD_NEXT, %s) from the program found %p in %s, "
                   "not the shim's", names[i], p,
                   dladdr (p, &info) != 0 && info.dli_fname != NULL
                   ? info.dli_fname : "no object");
        }
      else
        {
          CHECK ((e != NULL) == libc_leaves,
                 "dlsym (RTLD_NEXT, %s) failed and left %s, where the C "
                 "library's own failed lookup leaves %s", names[i],
                 e != NULL ? e : "no message",
                 libc_leaves ? "a message" : "none");
          CHECK (e == NULL || strstr (e, names[i]) != NULL,
                 "dlsym (RTLD_NEXT, %s): the message \"%s\" does not name it",
                 names[i], e);
        }
    }
  return rt_exit_status ();
}

/* "sandbox" (eighty-fourth review, F1): this program, built without
   libpthread, forbids opening files, as a sandboxed daemon does after
   start-up, then asks whether it has threads.  Without the shim no lookup opens a
   file; with it neither may (the hooks' lookup in libpthread's handle
   opened ld.so.cache and searched the library path for it): a file
   opened ends the process.  */
static int
sandbox_scenario (void)
{
  /* In a child that leaves by _exit: a sanitizer's exit-time work
     (LeakSanitizer's scan opens /proc files from a helper task, which
     the filter then kills while the process waits for it for ever)
     must not run under the filter.  */
  fflush (NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      if (sf_install_no_open () != 0)
        _exit (3);
      static const char *const names[] = { "pthread_create", "thrd_create" };
      for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        {
          dlsym (RTLD_DEFAULT, names[i]);
          dlsym (RTLD_NEXT, names[i]);
        }
      _exit (0);
    }
  int status = 0;
  CHECK (pid > 0 && waitpid (pid, &status, 0) == pid, "fork or waitpid: %s",
         strerror (errno));
  if (pid <= 0)
    return rt_exit_status ();
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0,
         "the lookups in a process that may not open files: %s %d%s",
         WIFSIGNALED (status) ? "killed by signal" : "exit status",
         WIFSIGNALED (status) ? WTERMSIG (status) : WEXITSTATUS (status),
         WIFSIGNALED (status) && WTERMSIG (status) == SIGSYS
         ? " (SIGSYS: one of them opened a file)"
         : WIFEXITED (status) && WEXITSTATUS (status) == 3
         ? " (the filter was refused)" : "");
  return rt_exit_status ();
}

static void *
pthread_probe (void *p)
{
  struct result *r = p;
  rt_probe_thread (&r->abi, r->len, &r->cpu_id, &r->registered);
  r->ran = 1;
  return NULL;
}

/* "lpalias" (the eighty-fifth review's F3): this program, built
   without libpthread, dlopens libpthread with RTLD_LOCAL by a path
   whose file name is not libpthread's (a symlink), as a plugin loader
   that copies or renames its libraries does.  glibc matches the object
   by its soname but names it by that path.  pthread_create, and
   thrd_create where the C library has one, taken from that handle must
   start threads registered where the mode registers, the same as from
   the handle of libpthread.so.0 ("lphandle").  */
static int
lpalias_scenario (void)
{
  /* Where libpthread is, asked in a child, so that this process loads
     it under the other name only.  */
  int fds[2];
  CHECK (pipe (fds) == 0, "pipe: %s", strerror (errno));
  fflush (NULL);
  pid_t pid = fork ();
  if (pid == 0)
    {
      close (fds[0]);
      void *h = dlopen ("libpthread.so.0", RTLD_NOW | RTLD_LOCAL);
      struct link_map *lm = NULL;
      if (h == NULL || dlinfo (h, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL
          || lm->l_name == NULL || lm->l_name[0] != '/')
        _exit (3);
      size_t n = strlen (lm->l_name);
      _exit (write (fds[1], lm->l_name, n) == (ssize_t) n ? 0 : 4);
    }
  close (fds[1]);
  char target[PATH_MAX];
  ssize_t n = pid > 0 ? read (fds[0], target, sizeof target - 1) : -1;
  close (fds[0]);
  int status = 0;
  CHECK (pid > 0 && waitpid (pid, &status, 0) == pid && WIFEXITED (status)
         && WEXITSTATUS (status) == 0 && n > 0,
         "finding libpthread.so.0's path in a child: status %d", status);
  if (pid <= 0 || n <= 0)
    return rt_exit_status ();
  target[n] = '\0';

  char dir[] = "/tmp/rseq-compat-lpalias.XXXXXX";
  CHECK (mkdtemp (dir) != NULL, "mkdtemp: %s", strerror (errno));
  char alias[sizeof dir + 16];
  snprintf (alias, sizeof alias, "%s/threads.so", dir);
  CHECK (symlink (target, alias) == 0, "symlink %s: %s", target,
         strerror (errno));
  void *h = dlopen (alias, RTLD_NOW | RTLD_LOCAL);
  CHECK (h != NULL, "dlopen %s (-> %s): %s", alias, target, dlerror ());
  unlink (alias);
  rmdir (dir);
  if (h == NULL)
    return rt_exit_status ();

  typedef int pcreate_fn (pthread_t *, const pthread_attr_t *,
                          void *(*) (void *), void *);
  typedef int pjoin_fn (pthread_t, void **);
  pcreate_fn *pcreate = (pcreate_fn *) dlsym (h, "pthread_create");
  pjoin_fn *pjoin = (pjoin_fn *) dlsym (h, "pthread_join");
  CHECK (pcreate != NULL && pjoin != NULL, "dlsym pthread_create/join: %s",
         dlerror ());
  create_fn *create = (create_fn *) dlsym (h, "thrd_create");
  join_fn *join = (join_fn *) dlsym (h, "thrd_join");
  c11_exit = (exit_fn *) dlsym (h, "thrd_exit");
  int want_c11 = libc_has_thrd_create ();
  CHECK ((create != NULL && join != NULL && c11_exit != NULL) == want_c11,
         "thrd_create from %s: %s, where the C library has %s", alias,
         create != NULL ? "found" : "not found",
         want_c11 ? "one" : "none");
  if (pcreate == NULL || pjoin == NULL)
    return rt_exit_status ();

  struct result r[2];
  memset (r, 0, sizeof r);
  for (int i = 0; i < 2; i++)
    {
      r[i].abi = rt_abi ();
      r[i].len = rt_expected_len ();
    }
  pthread_t t;
  int ret = pcreate (&t, NULL, pthread_probe, &r[0]);
  CHECK (ret == 0 && pjoin (t, NULL) == 0, "pthread_create: %d", ret);
  int runs = 1;
  if (want_c11 && create != NULL && join != NULL && c11_exit != NULL)
    {
      int value = 0;
      ret = create (&t, thread_main, &r[1]);
      CHECK (ret == C11_SUCCESS && join (t, &value) == C11_SUCCESS
             && value == 1000, "thrd_create: %d, value %d", ret, value);
      runs = 2;
    }
  static const char *const what[] = { "pthread_create", "thrd_create" };
  for (int i = 0; i < runs; i++)
    {
      CHECK (r[i].ran == 1, "%s's thread did not run", what[i]);
      if (rt_expect_registered ())
        CHECK (r[i].registered == 1 && r[i].cpu_id >= 0,
               "%s from a libpthread named %s: not registered (cpu_id %d) "
               "while __rseq_size is %u", what[i], alias, r[i].cpu_id,
               r[i].abi.size != NULL ? *r[i].abi.size : 0);
      else
        CHECK (r[i].registered != 1, "%s's thread registered in mode %s",
               what[i], rt_expect ());
    }
  return rt_exit_status ();
}

/* "pluginnext" (the eighty-first review's F3): PLUGIN, linked with
   libpthread and dlopened with RTLD_LOCAL by this program built
   without it, looks both creators up with RTLD_NEXT: glibc searches
   the objects after the library in its own scope, where libpthread
   (2.34: libc) has pthread_create, and thrd_create from 2.28; musl
   finds nothing after a library dlopened after libc.  The shim must
   not change either answer; the thread the library starts with it is
   registered where the mode registers, except where the shim owns the
   area (a limit).  */
static int
pluginnext_scenario (const char *path)
{
  void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  CHECK (h != NULL, "dlopen %s: %s", path, dlerror ());
  if (h == NULL)
    return rt_exit_status ();
  typedef int next_fn (void *(*) (void *), void *, void **, void **);
  next_fn *next = (next_fn *) dlsym (h, "c11_plugin_next");
  CHECK (next != NULL, "dlsym c11_plugin_next: %s", dlerror ());
  if (next == NULL)
    return rt_exit_status ();
  struct result r;
  memset (&r, 0, sizeof r);
  r.abi = rt_abi ();
  r.len = rt_expected_len ();
  void *pc = NULL, *tc = NULL;
  int ret = next (pthread_probe, &r, &pc, &tc);
#ifdef __GLIBC__
  int want_pc = 1, want_tc = libc_has_thrd_create ();
#else
  int want_pc = 0, want_tc = 0;
#endif
  CHECK ((pc != NULL) == want_pc && (tc != NULL) == want_tc,
         "the library's dlsym (RTLD_NEXT, ...): pthread_create %s, "
         "thrd_create %s; without the shim %s and %s",
         pc != NULL ? "found" : "NULL", tc != NULL ? "found" : "NULL",
         want_pc ? "found" : "NULL", want_tc ? "found" : "NULL");
  CHECK (ret == 0, "the library's pthread_create from RTLD_NEXT failed");
  if (pc == NULL || ret != 0 || r.abi.offset == NULL)
    return rt_exit_status ();
  CHECK (r.ran == 1, "the library's thread did not run");
  /* The limit doc/using.md states: the answer is the C library's own
     pthread_create, which the shim cannot tell from the caller's
     point of view (only the jump keeps the caller), so where the shim
     owns the area that thread runs unregistered.  */
  if (rt_expect_registered () && !rt_expect_is ("shim-owned"))
    CHECK (r.registered == 1 && r.cpu_id >= 0,
           "the library's thread: registered %d, cpu_id %d", r.registered,
           r.cpu_id);
  else
    CHECK (r.registered != 1 && r.cpu_id < 0,
           "the library's thread: registered %d, cpu_id %d in mode %s, "
           "where doc/using.md says it is not (a limit lifted: update both)",
           r.registered, r.cpu_id, rt_expect ());
  return rt_exit_status ();
}

static int
dlerror_scenario (create_fn *create, join_fn *join)
{
  /* Every lookup first: a successful one takes the message away.  */
  struct result r;
  memset (&r, 0, sizeof r);
  r.abi = rt_abi ();
  r.len = rt_expected_len ();
  const char *none = "/nonexistent/librseq-compat-c11-none.so";
  CHECK (dlopen (none, RTLD_NOW) == NULL, "dlopen %s succeeded", none);
  pthread_t t;
  int value = -1;
  CHECK (create (&t, thread_main, &r) == C11_SUCCESS
         && join (t, &value) == C11_SUCCESS && value == 1000,
         "thrd_create and thrd_join: %d", value);
  const char *msg = dlerror ();
  CHECK (msg != NULL && strstr (msg, "librseq-compat-c11-none") != NULL,
         "dlerror after the thread: %s, not the failed dlopen's message",
         msg != NULL ? msg : "(null)");
  return rt_exit_status ();
}

int
main (int argc, char **argv)
{
  if (argc == 2 && strcmp (argv[1], "before-2.28") == 0)
    return rt_glibc_before ("2.28") ? 0 : 1;
  if (argc == 3 && strcmp (argv[1], "ctor") == 0)
    return ctor_scenario (argv[2]);
  if (argc == 2 && strcmp (argv[1], "nextmsg") == 0)
    return nextmsg_scenario ();
  if (argc == 2 && strcmp (argv[1], "sandbox") == 0)
    return sandbox_scenario ();
  if (argc == 2 && strcmp (argv[1], "lpalias") == 0)
    return lpalias_scenario ();
  if (argc == 2 && strcmp (argv[1], "timerfirst") == 0)
    return timer_first_scenario ();
  int plugin = argc == 3 && strcmp (argv[1], "plugin") == 0;
  int pluginnext = argc == 3 && strcmp (argv[1], "pluginnext") == 0;
  int pluginbare = argc == 3 && strcmp (argv[1], "pluginbare") == 0;
  int linked = argc == 2 && strcmp (argv[1], "linked") == 0;
  CHECK (plugin || pluginnext || pluginbare || linked
         || (argc == 2
             && (strcmp (argv[1], "default") == 0
                 || strcmp (argv[1], "handle") == 0
                 || strcmp (argv[1], "lphandle") == 0
                 || strcmp (argv[1], "timer") == 0
                 || strcmp (argv[1], "next") == 0
                 || strcmp (argv[1], "dlerror") == 0)),
         "usage: c11-threads default|handle|lphandle|timer|next|nextmsg|"
         "dlerror|sandbox|lpalias|timerfirst|linked|before-2.28, or "
         "c11-threads plugin|pluginnext|pluginbare|ctor PLUGIN");
  if (argc != 2 && !plugin && !pluginnext && !pluginbare)
    return rt_exit_status ();
  /* Without the shim ("alone") there is no mode to ask.  */
  if (strcmp (rt_shim_mode (), "none") != 0)
    CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0,
           "mode %s, expected %s", rt_shim_mode (), rt_expect ());
  if (plugin || linked || pluginbare)
    return plugin_scenario (linked ? NULL : argv[2], pluginbare);
  if (pluginnext)
    return pluginnext_scenario (argv[2]);
  if (strcmp (argv[1], "timer") == 0)
    return timer_scenario ();
  if (strcmp (argv[1], "next") == 0)
    return next_scenario ();

  /* "lphandle" (the eighty-first review's F1): this program, built
     without libpthread, takes C11 threads from libpthread's handle
     (musl: libc's, under that name), which interposition does not
     reach.  */
  void *lib = RTLD_DEFAULT;
  if (strcmp (argv[1], "lphandle") == 0)
    {
      lib = dlopen ("libpthread.so.0", RTLD_NOW | RTLD_LOCAL);
      CHECK (lib != NULL, "dlopen libpthread.so.0: %s", dlerror ());
      if (lib == NULL)
        return rt_exit_status ();
    }
  create_fn *create = (create_fn *) dlsym (lib, "thrd_create");
  if (rt_glibc_before ("2.28"))
    {
      /* The shim defines one, but only as a stand-in for the C
         library's: a lookup finds none, and says so.  */
      CHECK (create == NULL, "this glibc has no thrd_create, yet dlsym found %p",
             (void *) create);
      CHECK (create != NULL || dlerror () != NULL,
             "the failed lookup left dlerror empty");
      return rt_exit_status ();
    }
  CHECK (create != NULL, "dlsym thrd_create: %s", dlerror ());
  join_fn *join = (join_fn *) dlsym (lib, "thrd_join");
  CHECK (join != NULL, "dlsym thrd_join: %s", dlerror ());
  c11_exit = (exit_fn *) dlsym (lib, "thrd_exit");
  CHECK (c11_exit != NULL, "dlsym thrd_exit: %s", dlerror ());
  if (create == NULL || join == NULL || c11_exit == NULL)
    return rt_exit_status ();
  if (strcmp (argv[1], "dlerror") == 0)
    return dlerror_scenario (create, join);
  if (strcmp (argv[1], "handle") == 0)
    {
      Dl_info info;
      CHECK (dladdr ((void *) join, &info) != 0 && info.dli_fname != NULL,
             "dladdr of thrd_join");
      void *h = dlopen (info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
      CHECK (h != NULL, "dlopen %s: %s", info.dli_fname, dlerror ());
      if (h == NULL)
        return rt_exit_status ();
      create = (create_fn *) dlsym (h, "thrd_create");
      CHECK (create != NULL, "dlsym (%s, thrd_create): %s", info.dli_fname,
             dlerror ());
      if (create == NULL)
        return rt_exit_status ();
    }

  /* glibc's C11 threads start with this mask, SIGUSR1 blocked and
     SIGUSR2 not; musl's with every application signal blocked (its
     start_c11 restores no mask).  So with the shim, whatever it blocks
     while they register.  */
  sigset_t usr1;
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  CHECK (sigprocmask (SIG_BLOCK, &usr1, NULL) == 0, "block SIGUSR1");

  struct result r[THREADS];
  pthread_t t[THREADS];
  int created[THREADS];
  memset (r, 0, sizeof r);
  for (int i = 0; i < THREADS; i++)
    {
      r[i].abi = rt_abi ();
      r[i].len = rt_expected_len ();
      r[i].index = i;
      int ret = create (&t[i], thread_main, &r[i]);
      CHECK (ret == C11_SUCCESS, "thrd_create %d: %d", i, ret);
      created[i] = ret == C11_SUCCESS;
    }
  for (int i = 0; i < THREADS; i++)
    {
      if (!created[i])
        continue;
      int value = 0;
      CHECK (join (t[i], &value) == C11_SUCCESS, "thrd_join %d", i);
      int want = i % 2 == 1 ? -1000 - i : 1000 + i;
      CHECK (value == want, "thread %d gave %d, not %d", i, value, want);
      CHECK (r[i].ran == 1, "thread %d did not run", i);
#ifdef __GLIBC__
      int usr2_want = 0;
#else
      int usr2_want = 1;
#endif
      CHECK (r[i].usr1_blocked == 1 && r[i].usr2_blocked == usr2_want,
             "thread %d: SIGUSR1 %s, SIGUSR2 %s: not the C library's mask", i,
             r[i].usr1_blocked ? "blocked" : "open",
             r[i].usr2_blocked ? "blocked" : "open");
      if (rt_expect_registered ())
        {
          CHECK (r[i].registered == 1,
                 "thread %d: not registered (cpu_id %d) while __rseq_size is %u",
                 i, r[i].cpu_id, r[i].abi.size != NULL ? *r[i].abi.size : 0);
          CHECK (r[i].cpu_id >= 0, "thread %d: cpu_id %d", i, r[i].cpu_id);
        }
      else
        CHECK (r[i].registered != 1, "thread %d registered in mode %s", i,
               rt_expect ());
    }
  return rt_exit_status ();
}
