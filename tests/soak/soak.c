/* make soak: a million threads under signals and forks, with the shim.
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

/* Usage: soak LABEL [THREADS]   (environment: SOAK_EXPECT, the mode the
   shim must report, shim-owned by default; SOAK_RSS_GROWTH_KIB, the
   allowed growth of the resident set, 8192 by default; SOAK_PROGRESS,
   a file for the count of threads that ran, which a soak that cannot
   write it fails at once)

   Creator threads start THREADS threads in total, five kinds in turn:
   joinable ones that return, call pthread_exit, or are cancelled while
   blocked in pause (), and detached ones that return or call
   pthread_exit.  Meanwhile one thread sends SIGUSR1 with tgkill to
   threads picked at random among the live ones, and another forks
   children that each create threads of their own and exit.

   Every thread, as soon as it runs:
   - reads cpu_id >= 0 in the area at thread pointer + __rseq_offset;
   - re-registers that area with the shim's length and signature and
     must get EBUSY: the kernel holds exactly this registration;
   - every 64th, compares cpu_id with the getcpu system call;
   - enters the area in a table of live threads' areas, where it must
     not find it (two live threads never share an area), and leaves it
     before it ends;
   then adds to a per-CPU counter (<rseq-compat.h>) and, separately, to
   an atomic expected sum.  Signal handlers do the same adds and check
   cpu_id >= 0 while their thread is in its checked part.

   At the end: the counter equals the expected sum, the rseq fast path
   served some of the adds, every joined thread returned what its kind
   says, each child exited 0 after the same checks on its own counter,
   /proc/self/task is back to the one thread the program started with,
   and the resident set grew by at most SOAK_RSS_GROWTH_KIB between the
   point where a tenth of the threads had run and the end (a leak of a
   few bytes per thread fails).  One summary line on stdout; every
   violation on stderr; exit 1 on any.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rseq-compat.h>

#if defined __x86_64__
# define NR_RSEQ 334
# define RSEQ_SIGNATURE 0x53053053u
#elif defined __aarch64__
# define NR_RSEQ 293
# define RSEQ_SIGNATURE 0xd428bc00u
#else
# error "soak: x86_64 or aarch64 only"
#endif

enum kind
{
  JOIN_RETURN, JOIN_EXIT, JOIN_CANCEL, DETACHED_RETURN, DETACHED_EXIT,
  KINDS
};
static const char *const kind_name[KINDS] =
  { "joinable-return", "joinable-pthread_exit", "cancelled",
    "detached-return", "detached-pthread_exit" };

#define WORKERS 4		/* Threads that create the threads.  */
#define BATCH 8			/* Joinable threads a worker has alive.  */
#define MAX_DETACHED 64		/* Detached threads alive at most.  */
#define ADDS 4			/* Counter adds per thread.  */
#define CHILD_THREADS 8		/* Threads of each forked child.  */

/* The kinds a forked child's threads take.  glibc before 2.34 forks
   without taking the loader's lock that dl_iterate_phdr holds, and
   pthread_exit and cancellation unwind through dl_iterate_phdr: when
   fork happens while another thread unwinds, the child's first
   pthread_exit waits for that lock forever.  A program without the
   shim hangs the same way on bullseye (glibc 2.31); glibc 2.36 does
   not.  There, the children's threads only return.  */
#define CHILD_KINDS 3
#ifdef __GLIBC__
# if !__GLIBC_PREREQ (2, 34)
#  undef CHILD_KINDS
#  define CHILD_KINDS 1
# endif
#endif
#define TABLE_SIZE 4096		/* Live-area table, a power of two.  */
#define REUSE_SIZE 65536	/* Recently seen areas, a power of two.  */

/* ---- state --------------------------------------------------------- */

static const char *label = "soak";
static long int total_threads = 1000000;
static long int reg_len;
static int in_child;

static struct rseq_compat_counter counter;
static int64_t expected;

static long int next_ticket;
static long int created[KINDS];	/* Started, per kind.  */
static long int ended[KINDS];	/* Seen to end as their kind says.  */
static long int detached_live;
static long int threads_run;	/* Threads whose checks ran.  */

static long int sig_sent, sig_gone, sig_delivered;
static long int forks, child_threads, child_failed;
static long int areas_reused;
static int stop_helpers;
static int sig_off, fork_off;	/* Turned off by SOAK_LOAD.  */

/* Violations: counted anywhere (handlers too), the first few printed.  */
static long int violations;
static volatile int handler_bad_cpu = 99;

static void
violation (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

static void
violation (const char *fmt, ...)
{
  if (__atomic_fetch_add (&violations, 1, __ATOMIC_RELAXED) >= 20)
    return;
  char buf[512];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  fprintf (stderr, "soak[%s]: FAIL: %s%s\n", label, in_child ? "child: " : "",
           buf);
}

/* Nonzero in a thread between its checks and its clean-up: a signal
   handler then must see a registered area.  */
static __thread volatile sig_atomic_t checked;

/* ---- the area ------------------------------------------------------ */

static inline char *
thread_pointer (void)
{
  char *tp;
#if defined __x86_64__
  __asm__ ("mov %%fs:0, %0" : "=r" (tp));
#else
  __asm__ ("mrs %0, tpidr_el0" : "=r" (tp));
#endif
  return tp;
}

static inline char *
my_area (void)
{
  return thread_pointer () + __rseq_offset;
}

static inline int
area_cpu_id (const char *area)
{
  return __atomic_load_n ((const int32_t *) (area + 4), __ATOMIC_RELAXED);
}

static int
syscall_cpu (void)
{
  unsigned int cpu;
  if (syscall (SYS_getcpu, &cpu, NULL, NULL) != 0)
    return -1;
  return (int) cpu;
}

/* Areas of live threads: open addressing, removal by backward shift.
   The lock is never taken in a signal handler.  */
struct entry
{
  uintptr_t area;
  pid_t tid;
};
static struct entry table[TABLE_SIZE];
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *recent;	/* REUSE_SIZE areas seen, direct-mapped.  */

static inline unsigned int
slot_of (uintptr_t area)
{
  return (unsigned int) (((area >> 5) * 0x9e3779b97f4a7c15ull) >> 40)
         & (TABLE_SIZE - 1);
}

static void
table_insert (uintptr_t area, pid_t tid)
{
  pthread_mutex_lock (&table_lock);
  unsigned int i = slot_of (area), n = 0;
  while (table[i].area != 0 && n < TABLE_SIZE)
    {
      if (table[i].area == area)
        violation ("thread %d: area %#lx already belongs to live thread %d",
                   (int) tid, (unsigned long int) area, (int) table[i].tid);
      i = (i + 1) & (TABLE_SIZE - 1);
      n++;
    }
  if (n == TABLE_SIZE)
    violation ("more than %d live threads", TABLE_SIZE);
  else
    {
      table[i].area = area;
      table[i].tid = tid;
    }
  if (recent != NULL)
    {
      unsigned int r = (unsigned int) ((area >> 5) * 0x9e3779b97f4a7c15ull
                                       >> 32) & (REUSE_SIZE - 1);
      if (recent[r] == area)
        areas_reused++;
      recent[r] = area;
    }
  pthread_mutex_unlock (&table_lock);
}

static void
table_remove (uintptr_t area)
{
  pthread_mutex_lock (&table_lock);
  unsigned int i = slot_of (area), n = 0;
  while (table[i].area != area && n < TABLE_SIZE)
    {
      i = (i + 1) & (TABLE_SIZE - 1);
      n++;
    }
  if (n == TABLE_SIZE)
    violation ("area %#lx of an ending thread is not in the table",
               (unsigned long int) area);
  else
    {
      /* Backward shift: later entries of the run whose home slot is not
         between the hole and them move into the hole.  */
      unsigned int hole = i;
      for (unsigned int j = (i + 1) & (TABLE_SIZE - 1); table[j].area != 0;
           j = (j + 1) & (TABLE_SIZE - 1))
        {
          unsigned int home = slot_of (table[j].area);
          if (((j - home) & (TABLE_SIZE - 1))
              >= ((j - hole) & (TABLE_SIZE - 1)))
            {
              table[hole] = table[j];
              hole = j;
            }
        }
      table[hole].area = 0;
      table[hole].tid = 0;
    }
  pthread_mutex_unlock (&table_lock);
}

/* A random live thread's TID, or 0.  */
static pid_t
random_live_tid (unsigned int *seed)
{
  pid_t tid = 0;
  pthread_mutex_lock (&table_lock);
  for (int tries = 0; tries < 256 && tid == 0; tries++)
    tid = table[rand_r (seed) & (TABLE_SIZE - 1)].tid;
  pthread_mutex_unlock (&table_lock);
  return tid;
}

/* The checks every thread makes first.  Returns the area.  */
static uintptr_t
check_thread (const char *who, long int n)
{
  char *area = my_area ();
  pid_t tid = (pid_t) syscall (SYS_gettid);
  int id = area_cpu_id (area);
  if (id < 0)
    violation ("%s %d: cpu_id %d: not registered", who, (int) tid, id);

  long int ret = syscall (NR_RSEQ, area, reg_len, 0, RSEQ_SIGNATURE);
  if (ret == 0)
    {
      violation ("%s %d: the kernel accepted a registration of its area: "
                 "it had none", who, (int) tid);
      syscall (NR_RSEQ, area, reg_len, 1, RSEQ_SIGNATURE);
    }
  else if (errno != EBUSY)
    violation ("%s %d: re-registering its area (%ld bytes) gave %s, not "
               "EBUSY: the kernel holds another registration", who,
               (int) tid, reg_len, strerror (errno));

  if (n % 64 == 0)
    {
      /* The thread may migrate between the reads: retry a few times.  */
      int ok = 0, a = -1, s = -1, b = -1;
      for (int i = 0; i < 10 && !ok; i++)
        {
          a = area_cpu_id (area);
          s = syscall_cpu ();
          b = area_cpu_id (area);
          ok = a == s && s == b;
        }
      if (!ok)
        violation ("%s %d: cpu_id %d/%d, getcpu system call %d", who,
                   (int) tid, a, b, s);
      int g = sched_getcpu ();
      if (g < 0)
        violation ("%s %d: sched_getcpu %d", who, (int) tid, g);
    }
  if (!in_child)
    table_insert ((uintptr_t) area, tid);
  checked = 1;
  __atomic_add_fetch (&threads_run, 1, __ATOMIC_RELAXED);
  return (uintptr_t) area;
}

static void
uncheck_thread (uintptr_t area)
{
  checked = 0;
  if (!in_child)
    table_remove (area);
}

static inline void
add (int64_t v)
{
  rseq_compat_counter_add (&counter, v);
  __atomic_add_fetch (&expected, v, __ATOMIC_RELAXED);
}

/* ---- signals ------------------------------------------------------- */

static void
on_signal (int sig)
{
  (void) sig;
  int saved = errno;
  if (checked)
    {
      int id = area_cpu_id (my_area ());
      if (id < 0)
        {
          handler_bad_cpu = id;
          __atomic_add_fetch (&violations, 1, __ATOMIC_RELAXED);
        }
    }
  add (1);
  __atomic_add_fetch (&sig_delivered, 1, __ATOMIC_RELAXED);
  errno = saved;
}

static void *
signaller (void *arg)
{
  uintptr_t area = check_thread ("signaller", 0);
  if (arg != NULL)
    __atomic_store_n (&sig_off, 1, __ATOMIC_RELAXED);
  unsigned int seed = 12345;
  pid_t pid = getpid ();
  struct timespec gap = { 0, 20000 };
  while (!__atomic_load_n (&stop_helpers, __ATOMIC_RELAXED))
    {
      if (arg != NULL)
        {
          nanosleep (&gap, NULL);
          continue;
        }
      pid_t tid = random_live_tid (&seed);
      if (tid != 0)
        {
          if (syscall (SYS_tgkill, pid, tid, SIGUSR1) == 0)
            sig_sent++;
          else if (errno == ESRCH)
            sig_gone++;
          else
            violation ("tgkill %d: %s", (int) tid, strerror (errno));
        }
      nanosleep (&gap, NULL);
    }
  uncheck_thread (area);
  return NULL;
}

/* ---- threads ------------------------------------------------------- */

static void
thread_cleanup (void *p)
{
  uncheck_thread (*(uintptr_t *) p);
}

static void *
thread_main (void *arg)
{
  uintptr_t u = (uintptr_t) arg;
  enum kind kind = (enum kind) (u % KINDS);
  long int n = (long int) (u / KINDS);
  int old;
  /* Cancellation acts only in pause () below, after the adds.  */
  pthread_setcancelstate (PTHREAD_CANCEL_DISABLE, &old);
  uintptr_t area = check_thread ("thread", n);
  pthread_cleanup_push (thread_cleanup, &area);
  for (int i = 0; i < ADDS; i++)
    add ((int64_t) (n % 7) + 1);
  if (n % 16 == 0)
    sched_yield ();
  if (kind == JOIN_CANCEL)
    {
      /* glibc makes a thread blocked in a cancellation point (pause
         here) asynchronously cancellable for the system call's
         duration, and a signal handler run from there inherits that:
         the cancellation could then unwind the handler between its
         counter add and its expected add.  No handler runs while this
         thread waits (what the signaller sends it stays pending).  */
      sigset_t usr1;
      sigemptyset (&usr1);
      sigaddset (&usr1, SIGUSR1);
      pthread_sigmask (SIG_BLOCK, &usr1, NULL);
      pthread_setcancelstate (PTHREAD_CANCEL_ENABLE, &old);
      for (;;)
        pause ();
    }
  pthread_cleanup_pop (1);
  if (kind == DETACHED_RETURN || kind == DETACHED_EXIT)
    {
      __atomic_add_fetch (&ended[kind], 1, __ATOMIC_RELAXED);
      __atomic_sub_fetch (&detached_live, 1, __ATOMIC_RELEASE);
    }
  if (kind == JOIN_EXIT || kind == DETACHED_EXIT)
    pthread_exit ((void *) (uintptr_t) (kind + 1));
  return (void *) (uintptr_t) (kind + 1);
}

static void
join_one (pthread_t t, enum kind kind)
{
  void *ret = NULL;
  if (kind == JOIN_CANCEL)
    pthread_cancel (t);
  int err = pthread_join (t, &ret);
  if (err != 0)
    violation ("pthread_join: %s", strerror (err));
  else if (kind == JOIN_CANCEL ? ret != PTHREAD_CANCELED
                               : ret != (void *) (uintptr_t) (kind + 1))
    violation ("a %s thread returned %p", kind_name[kind], ret);
  else
    __atomic_add_fetch (&ended[kind], 1, __ATOMIC_RELAXED);
}

static void *
worker (void *arg)
{
  (void) arg;
  uintptr_t area = check_thread ("worker", 0);
  pthread_attr_t detached;
  pthread_attr_init (&detached);
  pthread_attr_setdetachstate (&detached, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize (&detached, 128 * 1024);
  pthread_t pending[BATCH];
  enum kind pending_kind[BATCH];
  int npending = 0;
  long int n;
  while ((n = __atomic_fetch_add (&next_ticket, 1, __ATOMIC_RELAXED))
         < total_threads)
    {
      enum kind kind = (enum kind) (n % KINDS);
      void *arg = (void *) (uintptr_t) (n * KINDS + kind);
      int err;
      if (kind == DETACHED_RETURN || kind == DETACHED_EXIT)
        {
          while (__atomic_load_n (&detached_live, __ATOMIC_ACQUIRE)
                 >= MAX_DETACHED)
            sched_yield ();
          __atomic_add_fetch (&detached_live, 1, __ATOMIC_RELAXED);
          pthread_t t;
          while ((err = pthread_create (&t, &detached, thread_main, arg))
                 == EAGAIN)
            sched_yield ();
          if (err != 0)
            __atomic_sub_fetch (&detached_live, 1, __ATOMIC_RELAXED);
        }
      else
        {
          while ((err = pthread_create (&pending[npending], NULL, thread_main,
                                        arg)) == EAGAIN)
            sched_yield ();
          if (err == 0)
            pending_kind[npending++] = kind;
        }
      if (err != 0)
        {
          violation ("pthread_create: %s", strerror (err));
          break;
        }
      __atomic_add_fetch (&created[kind], 1, __ATOMIC_RELAXED);
      if (npending == BATCH)
        {
          for (int i = 0; i < npending; i++)
            join_one (pending[i], pending_kind[i]);
          npending = 0;
        }
    }
  for (int i = 0; i < npending; i++)
    join_one (pending[i], pending_kind[i]);
  pthread_attr_destroy (&detached);
  uncheck_thread (area);
  return NULL;
}

/* ---- forks --------------------------------------------------------- */

static int
child_main (void)
{
  in_child = 1;
  __atomic_store_n (&violations, 0, __ATOMIC_RELAXED);
  /* The forking thread keeps its registration across fork.  */
  check_thread ("child main", 0);
  if (rseq_compat_counter_init (&counter) != 0)
    {
      violation ("out of memory");
      return 1;
    }
  expected = 0;
  pthread_t t[CHILD_THREADS];
  enum kind k[CHILD_THREADS];
  for (int i = 0; i < CHILD_THREADS; i++)
    {
      /* Joinable kinds only: the child must wait for its threads.  */
      k[i] = (enum kind) (i % CHILD_KINDS);
      int err = pthread_create (&t[i], NULL, thread_main,
                                (void *) (uintptr_t) (i * KINDS + k[i]));
      if (err != 0)
        {
          violation ("pthread_create: %s", strerror (err));
          return 1;
        }
    }
  for (int i = 0; i < CHILD_THREADS; i++)
    join_one (t[i], k[i]);
  int64_t got = rseq_compat_counter_read (&counter);
  if (got != expected)
    violation ("counter %lld, expected %lld", (long long int) got,
               (long long int) expected);
  return violations != 0;
}

static void *
forker (void *arg)
{
  uintptr_t area = check_thread ("forker", 0);
  struct timespec gap = { 0, 2000000 };
  if (arg != NULL)
    __atomic_store_n (&fork_off, 1, __ATOMIC_RELAXED);
  while (!__atomic_load_n (&stop_helpers, __ATOMIC_RELAXED))
    {
      if (arg != NULL)
        {
          nanosleep (&gap, NULL);
          continue;
        }
      fflush (NULL);
      pid_t pid = fork ();
      if (pid == 0)
        _exit (child_main ());
      if (pid < 0)
        {
          violation ("fork: %s", strerror (errno));
          break;
        }
      int status;
      while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
        ;
      forks++;
      if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
        child_threads += CHILD_THREADS;
      else
        {
          child_failed++;
          if (WIFSIGNALED (status))
            violation ("child %d killed by signal %d (%s)", (int) pid,
                       WTERMSIG (status), strsignal (WTERMSIG (status)));
          else
            violation ("child %d exited with status %d", (int) pid,
                       WEXITSTATUS (status));
        }
      nanosleep (&gap, NULL);
    }
  uncheck_thread (area);
  return NULL;
}

/* ---- process-wide measurements ------------------------------------- */

static long int
status_kib (const char *field)
{
  FILE *f = fopen ("/proc/self/status", "r");
  char line[256];
  size_t len = strlen (field);
  long int v = -1;
  if (f == NULL)
    return -1;
  while (fgets (line, sizeof line, f) != NULL)
    if (strncmp (line, field, len) == 0 && line[len] == ':')
      {
        v = strtol (line + len + 1, NULL, 10);
        break;
      }
  fclose (f);
  return v;
}

static int
task_count (void)
{
  DIR *d = opendir ("/proc/self/task");
  int n = 0;
  struct dirent *e;
  if (d == NULL)
    return -1;
  while ((e = readdir (d)) != NULL)
    if (e->d_name[0] != '.')
      n++;
  closedir (d);
  return n;
}

/* SOAK_PROGRESS: a file that holds how many threads ran, rewritten as
   that moves (at most once a second), for tests/soak/run's stall watch:
   a soak that creates no thread for a while is hung, however long a
   slow machine takes for the whole.  */
static const char *progress_path;
static int progress_fd = -1;

/* One write at offset 0 of a fixed width: a reader sees the old count
   or the new one.  The watch would take a soak whose count it cannot
   see for a hang, SOAK_STALL seconds later: stop at once and say why
   (with _exit: the other threads are still running).  */
static void
progress_write (long int count)
{
  char buf[24];
  int n = snprintf (buf, sizeof buf, "%20ld\n", count);
  ssize_t w = pwrite (progress_fd, buf, n, 0);
  if (w != n)
    {
      fprintf (stderr, "soak[%s]: FAIL: cannot write SOAK_PROGRESS=%s: %s\n",
               label, progress_path,
               w < 0 ? strerror (errno) : "short write");
      _exit (1);
    }
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

int
main (int argc, char **argv)
{
  if (argc > 1)
    label = argv[1];
  if (argc > 2)
    total_threads = strtol (argv[2], NULL, 10);
  const char *expect = getenv ("SOAK_EXPECT");
  if (expect == NULL)
    expect = "shim-owned";
  const char *growth_env = getenv ("SOAK_RSS_GROWTH_KIB");
  long int growth_limit = growth_env != NULL ? strtol (growth_env, NULL, 10)
                                             : 8192;
  setvbuf (stdout, NULL, _IOLBF, 0);

  /* First of all, before the shim is even looked for: tests/src/
     soak-run.sh runs this without it to see a bad path refused.  */
  progress_path = getenv ("SOAK_PROGRESS");
  if (progress_path != NULL && *progress_path != '\0')
    {
      progress_fd = open (progress_path,
                          O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (progress_fd < 0)
        {
          fprintf (stderr, "soak[%s]: FAIL: cannot open SOAK_PROGRESS=%s: "
                   "%s\n", label, progress_path, strerror (errno));
          return 1;
        }
      progress_write (0);
    }

  if (rseq_compat_mode == NULL || rseq_compat_query == NULL)
    {
      fprintf (stderr, "soak[%s]: FAIL: librseq-compat is not loaded "
               "(run it with LD_PRELOAD=.../librseq-compat.so.1)\n", label);
      return 1;
    }
  if (strcmp (rseq_compat_mode (), expect) != 0)
    {
      fprintf (stderr, "soak[%s]: FAIL: the shim's mode is %s, expected %s\n",
               label, rseq_compat_mode (), expect);
      return 1;
    }
  reg_len = rseq_compat_query ("registration_length");
  if (reg_len < 32 || rseq_compat_size () < 20)
    {
      fprintf (stderr, "soak[%s]: FAIL: registration length %ld, "
               "__rseq_size %u\n", label, reg_len, rseq_compat_size ());
      return 1;
    }
  int base_tasks = task_count ();
  if (rseq_compat_counter_init (&counter) != 0
      || (recent = calloc (REUSE_SIZE, sizeof *recent)) == NULL)
    {
      fprintf (stderr, "soak[%s]: FAIL: out of memory\n", label);
      return 1;
    }
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);

  uintptr_t main_area = check_thread ("main", 0);
  long int rss_start = status_kib ("VmRSS");
  double t0 = now ();

  pthread_t helpers[2], workers[WORKERS];
  /* SOAK_LOAD: which helpers run (for finding a failure's cause):
     "signals,forks" by default.  */
  const char *load = getenv ("SOAK_LOAD");
  if (load == NULL)
    load = "signals,forks";
  int err = pthread_create (&helpers[0], NULL, signaller,
                            strstr (load, "signals") ? NULL : (void *) 1);
  if (err == 0)
    err = pthread_create (&helpers[1], NULL, forker,
                          strstr (load, "forks") ? NULL : (void *) 1);
  for (int i = 0; i < WORKERS && err == 0; i++)
    err = pthread_create (&workers[i], NULL, worker, NULL);
  if (err != 0)
    {
      fprintf (stderr, "soak[%s]: FAIL: pthread_create: %s\n", label,
               strerror (err));
      return 1;
    }

  /* Watch: the resident set once a tenth of the threads ran, and a
     progress line every 15 seconds.  */
  long int rss_tenth = -1;
  double last = t0;
  long int progress_said = 0;
  double progress_at = 0;
  struct timespec tick = { 0, 50000000 };
  for (;;)
    {
      long int done = __atomic_load_n (&threads_run, __ATOMIC_RELAXED);
      if (rss_tenth < 0 && done >= total_threads / 10)
        rss_tenth = status_kib ("VmRSS");
      if (__atomic_load_n (&next_ticket, __ATOMIC_RELAXED) >= total_threads
          && __atomic_load_n (&detached_live, __ATOMIC_ACQUIRE) == 0)
        break;
      if (progress_fd >= 0 && done != progress_said
          && now () - progress_at >= 1)
        {
          progress_write (done);
          progress_said = done;
          progress_at = now ();
        }
      if (now () - last >= 15)
        {
          last = now ();
          fprintf (stderr, "soak[%s]: %.0f s: %ld threads, %ld signals, "
                   "%ld forks\n", label, last - t0, done, sig_delivered,
                   forks);
        }
      nanosleep (&tick, NULL);
    }
  if (progress_fd >= 0)
    close (progress_fd);
  for (int i = 0; i < WORKERS; i++)
    pthread_join (workers[i], NULL);
  while (__atomic_load_n (&detached_live, __ATOMIC_ACQUIRE) != 0)
    nanosleep (&tick, NULL);
  __atomic_store_n (&stop_helpers, 1, __ATOMIC_RELAXED);
  pthread_join (helpers[0], NULL);
  pthread_join (helpers[1], NULL);
  double elapsed = now () - t0;

  /* Detached threads end after they said so: wait for the kernel.  */
  int tasks = task_count ();
  for (int i = 0; i < 100 && tasks != base_tasks; i++)
    {
      nanosleep (&tick, NULL);
      tasks = task_count ();
    }
  if (tasks != base_tasks)
    violation ("%d threads in /proc/self/task at the end, %d at the start",
               tasks, base_tasks);

  /* Make the allocator give back what it can before measuring.  */
  uncheck_thread (main_area);
  long int rss_end = status_kib ("VmRSS");
  long int rss_peak = status_kib ("VmHWM");
  if (rss_tenth < 0)
    rss_tenth = rss_start;
  if (rss_end - rss_tenth > growth_limit)
    violation ("the resident set grew by %ld KiB from a tenth of the run to "
               "the end (%ld -> %ld KiB), more than %ld KiB: a leak",
               rss_end - rss_tenth, rss_tenth, rss_end, growth_limit);

  long int total_created = 0;
  for (int k = 0; k < KINDS; k++)
    {
      total_created += created[k];
      if (ended[k] != created[k])
        violation ("%ld %s threads created, %ld ended so", created[k],
                   kind_name[k], ended[k]);
    }
  if (total_created != total_threads)
    violation ("%ld threads created, %ld asked", total_created, total_threads);
  if (threads_run != total_created + WORKERS + 3)
    violation ("%ld threads checked, expected %ld", threads_run,
               total_created + WORKERS + 3);
  if (handler_bad_cpu != 99)
    violation ("a signal handler read cpu_id %d in a checked thread",
               handler_bad_cpu);

  int64_t got = rseq_compat_counter_read (&counter);
  int64_t fast = 0;
  for (unsigned int i = 0; i < counter.nslots; i++)
    fast += counter.slots[i].rseq;
  if (got != expected)
    violation ("per-CPU counter %lld, expected %lld",
               (long long int) got, (long long int) expected);
  if (fast <= 0)
    violation ("no add went through the restartable sequence");
  if ((sig_delivered == 0 && !sig_off) || (forks == 0 && !fork_off))
    violation ("%ld signals delivered, %ld forks: the load did not run",
               sig_delivered, forks);
  if (strcmp (rseq_compat_mode (), expect) != 0)
    violation ("the shim's mode is %s at the end", rseq_compat_mode ());

  printf ("soak[%s]: %s: threads %ld (joinable-return %ld, pthread_exit "
          "%ld+%ld detached, cancelled %ld, detached-return %ld); signals "
          "sent %ld (target gone %ld), delivered %ld; forks %ld with %ld "
          "threads (%ld failed); counter %lld = expected %lld (rseq %lld, "
          "atomic %lld); RSS KiB start %ld, tenth %ld, peak %ld, end %ld "
          "(limit +%ld); tasks %d/%d; areas reused >= %ld; %.1f s\n",
          label, violations == 0 ? "PASS" : "FAIL", total_created,
          created[JOIN_RETURN], created[JOIN_EXIT], created[DETACHED_EXIT],
          created[JOIN_CANCEL], created[DETACHED_RETURN], sig_sent, sig_gone,
          sig_delivered, forks, child_threads, child_failed,
          (long long int) got, (long long int) expected,
          (long long int) fast, (long long int) (got - fast), rss_start,
          rss_tenth, rss_peak, rss_end, growth_limit, tasks, base_tasks,
          areas_reused, elapsed);
  if (violations != 0)
    fprintf (stderr, "soak[%s]: %ld violation(s)\n", label, violations);
  return violations != 0;
}
