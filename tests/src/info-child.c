/* The process rseq-compat info looks at: it says what it knows of itself.
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

/* Usage: info-child report|serve [own] [exit-main] [nodump]

   Prints, one "key=value" line each, what it finds about itself
   without rseq-compat's help: the mode (the shim's, or derived from
   glibc's own symbols), the published values, auxv, and for every
   thread its thread pointer, its area and whether the kernel has it
   registered, with which length (EBUSY on re-registering the same area
   proves it).  "report" does that for the main thread and exits;
   "serve" starts THREADS threads first, prints "ready" and answers
   "ping" with "pong" on stdin until end of file.

   own        where nothing is registered for the program (disabled,
              none), thread 1 registers a thread-local __rseq_abi of the
              program's own (exported, as tcmalloc's is) and thread 2 a
              static area: rseq-compat must call both "other".
   exit-main  the main thread exits (pthread_exit) once ready.
   nodump     prctl (PR_SET_DUMPABLE, 0): only root may attach.

   info-child traced-zombies: every thread a zombie, one kept by a
   tracer (a child that never waits, until end of file on stdin);
   prints pid= and ready.

   info-child split-ids [fs] (as root): two threads that set their own
   IDs, 54342 and 54343 (with fs, their file-system IDs alone), the
   main thread gone; prints pid= and ready.  */

#include "rtest.h"

#include <limits.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif

#define THREADS 3

/* What tcmalloc and librseq define.  Exported with -rdynamic.  */
__thread struct rseq __rseq_abi __attribute__ ((aligned (32)))
  = { .cpu_id = (uint32_t) RSEQ_CPU_ID_UNINITIALIZED };
/* Thread 2's area, in .bss well past the page that holds the end of
   the file's data: the kernel maps that part anonymously, and
   rseq-compat must still name the program.  */
static char static_block[96 * 1024] __attribute__ ((aligned (4096)));
#define static_area (*(struct rseq *) (static_block + 64 * 1024))

struct seen
{
  pid_t tid;
  uintptr_t tp;
  uintptr_t area;
  int registered;
  unsigned int len;
  const char *owner;
  int have_cpu_id;
  int cpu_id;
};

static struct rt_abi abi;
static int have_abi, own;
static const char *mode;
static struct seen seen[THREADS + 1];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int observed, quit;
static pthread_t workers[THREADS];

/* GLIBC_TUNABLES as the program was started with it: in secure mode
   (AT_SECURE) glibc 2.39 and later take it out of the environment, but
   not out of the block the kernel wrote, which /proc/self/environ
   shows.  NULL where it is unset.  */
static const char *
start_tunables (void)
{
  if (getauxval (AT_SECURE) == 0)
    return getenv ("GLIBC_TUNABLES");
  static char block[65536];
  static const char key[] = "GLIBC_TUNABLES=";
  const char *found = NULL;
  FILE *f = fopen ("/proc/self/environ", "r");
  size_t n = f != NULL ? fread (block, 1, sizeof block - 1, f) : 0;
  if (f != NULL)
    fclose (f);
  block[n] = '\0';
  for (size_t i = 0; i < n; i += strlen (block + i) + 1)
    if (strncmp (block + i, key, sizeof key - 1) == 0)
      found = block + i + sizeof key - 1;
  return found;
}

/* Whether the tunable turns registration off: never in secure mode,
   where glibc (and the shim) ignore GLIBC_TUNABLES.  */
static int
tunable_off (void)
{
  const char *t = start_tunables ();
  return t != NULL && strstr (t, "glibc.pthread.rseq=0") != NULL
         && getauxval (AT_SECURE) == 0;
}

/* The mode as rseq-compat names it: the shim's where it is loaded.  */
static const char *
info_mode (void)
{
  const char *m = rt_shim_mode ();
  if (strcmp (m, "none") != 0)
    return m;
  const unsigned int *gs = rt_glibc_size ();
  if (gs == NULL)
    return "none";
  if (*gs != 0)
    return "libc-owned";
  return tunable_off () ? "disabled" : "unavailable";
}

static void
observe (struct seen *s, int index)
{
  s->tid = (pid_t) syscall (SYS_gettid);
  s->tp = (uintptr_t) rseq_compat_thread_pointer ();
  s->owner = "-";
  int nobody = strcmp (mode, "disabled") == 0 || strcmp (mode, "none") == 0;
  /* Under seccomp nobody can register.  */
  int kernel_ok = syscall (RSEQ_COMPAT_NR_rseq, NULL, 0, 0, 0) != 0
                  && errno == EINVAL;
  if (own && nobody && kernel_ok && (index == 1 || index == 2))
    {
      struct rseq *mine = index == 1 ? &__rseq_abi : &static_area;
      mine->cpu_id = (uint32_t) RSEQ_CPU_ID_UNINITIALIZED;
      long int ret = syscall (RSEQ_COMPAT_NR_rseq, mine, 32, 0, RSEQ_SIG);
      CHECK (ret == 0, "thread %d: own registration: %s", index,
             strerror (errno));
      if (ret == 0)
        {
          s->registered = 1;
          s->area = (uintptr_t) mine;
          s->len = 32;
          s->owner = "other";
          s->have_cpu_id = 1;
          s->cpu_id = (int) mine->cpu_id;
          return;
        }
    }
  if (!have_abi)
    return;
  struct rseq *area = rt_area (&abi);
  s->area = (uintptr_t) area;
  s->have_cpu_id = 1;
  s->cpu_id = (int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
  unsigned int lens[3] = { 32, *abi.size, (unsigned int) getauxval (27) };
  for (int i = 0; i < 3 && !s->registered; i++)
    if (lens[i] >= 32 && rt_registered (area, lens[i]))
      {
        s->registered = 1;
        s->len = lens[i];
      }
  if (s->registered)
    {
      const ptrdiff_t *g = rt_glibc_offset ();
      s->owner = g != NULL && *g == *abi.offset ? "libc" : "librseq-compat";
      s->cpu_id = (int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
    }
}

static void *
thread_main (void *arg)
{
  int index = (int) (intptr_t) arg;
  /* A name that is neither UTF-8 nor printable: the JSON must stay
     valid, the text readable.  */
  if (index == 3)
    prctl (PR_SET_NAME, (unsigned long int) "w\xffk\x01" "er", 0, 0, 0);
  observe (&seen[index], index);
  pthread_mutex_lock (&lock);
  observed++;
  pthread_cond_broadcast (&cond);
  while (!quit)
    pthread_cond_wait (&cond, &lock);
  pthread_mutex_unlock (&lock);
  return NULL;
}

static void
print_thread (const struct seen *s)
{
  printf ("thread tid=%d tp=%#lx registered=%d area=%#lx len=%u owner=%s "
          "cpu_id=%s%d\n", (int) s->tid, (unsigned long int) s->tp,
          s->registered, (unsigned long int) s->area, s->len, s->owner,
          s->have_cpu_id ? "" : "none", s->have_cpu_id ? s->cpu_id : 0);
}

/* Answers "ping" until end of file on stdin; then, if ARG is not
   null, ends the process.  */
static int server_started;

static void *
serve_stdin (void *arg)
{
  pthread_mutex_lock (&lock);
  server_started = 1;
  pthread_cond_broadcast (&cond);
  pthread_mutex_unlock (&lock);
  char line[64];
  while (fgets (line, sizeof line, stdin) != NULL)
    if (strncmp (line, "ping", 4) == 0)
      {
        printf ("pong\n");
        fflush (stdout);
      }
  pthread_mutex_lock (&lock);
  quit = 1;
  pthread_cond_broadcast (&cond);
  pthread_mutex_unlock (&lock);
  /* With exit-main, end the process here rather than when its last
     thread returns: a thread the program did not start (ThreadSanitizer
     runs one) would keep it alive.  */
  if (arg != NULL)
    {
      for (int i = 0; i < THREADS; i++)
        pthread_join (workers[i], NULL);
      exit (rt_exit_status ());
    }
  return NULL;
}

/* split-ids: threads that each set their own IDs by a raw system call
   (glibc's setresuid would change every thread's), as a file server
   that acts for several users does: the first 54342, the second
   54343.  */
static int switched, split_fs;

static void *
split_main (void *arg)
{
  long int id = (long int) (intptr_t) arg;
  /* setfsuid answers the previous ID, not an error.  */
  if (split_fs)
    {
      syscall (SYS_setfsgid, id);
      syscall (SYS_setfsuid, id);
      CHECK ((long int) syscall (SYS_setfsuid, -1) == id,
             "setfsuid (%ld) in one thread", id);
    }
  else
    CHECK (syscall (SYS_setresgid, id, id, id) == 0
           && syscall (SYS_setresuid, id, id, id) == 0,
           "setresuid (%ld) in one thread: %s", id, strerror (errno));
  pthread_mutex_lock (&lock);
  switched++;
  pthread_cond_broadcast (&cond);
  pthread_mutex_unlock (&lock);
  for (;;)
    pause ();
  return NULL;
}

/* Started as root: two threads of different users (FS: of different
   file-system users), the main thread gone, dumpable again (changing
   IDs made it not dumpable).  */
static int
split_ids (int fs)
{
  split_fs = fs;
  pthread_t t[2];
  for (long int i = 0; i < 2; i++)
    CHECK (pthread_create (&t[i], NULL, split_main,
                           (void *) (intptr_t) (54342 + i)) == 0,
           "pthread_create");
  pthread_mutex_lock (&lock);
  while (switched < 2)
    pthread_cond_wait (&cond, &lock);
  pthread_mutex_unlock (&lock);
  CHECK (prctl (PR_SET_DUMPABLE, 1, 0, 0, 0) == 0, "PR_SET_DUMPABLE: %s",
         strerror (errno));
  printf ("pid=%d\nready\n", (int) getpid ());
  fflush (stdout);
  if (rt_failures != 0)
    return rt_exit_status ();
  pthread_exit (NULL);
}

/* traced-zombies: every thread a zombie, one of them not collected
   because its tracer, a child, never waits for it: the kernel still
   counts two threads.  The tracer ends at end of file on stdin.  */
#ifndef PTRACE_SEIZE
# define PTRACE_SEIZE 0x4206
#endif
static int zombie_tid[2], zombie_go[2];

static void *
zombie_main (void *arg)
{
  (void) arg;
  pid_t tid = (pid_t) syscall (SYS_gettid);
  char b;
  if (write (zombie_tid[1], &tid, sizeof tid) != sizeof tid
      || read (zombie_go[0], &b, 1) != 1)
    _exit (1);
  syscall (SYS_exit, 0);
  return NULL;
}

/* The state letter of thread TID of PID, 0 where gone.  */
static char
task_state (pid_t pid, pid_t tid)
{
  char path[64], buf[512];
  snprintf (path, sizeof path, "/proc/%d/task/%d/stat", (int) pid, (int) tid);
  FILE *f = fopen (path, "r");
  char *p = f != NULL && fgets (buf, sizeof buf, f) != NULL
            ? strrchr (buf, ')') : NULL;
  if (f != NULL)
    fclose (f);
  return p != NULL && p[1] == ' ' ? p[2] : 0;
}

static int
traced_zombies (void)
{
  pid_t me = getpid ();
  int to_tracer[2];
  if (pipe (to_tracer) != 0 || pipe (zombie_tid) != 0 || pipe (zombie_go) != 0)
    return 1;
  pid_t tracer = fork ();
  if (tracer == 0)
    {
      pid_t tid;
      char b;
      if (read (to_tracer[0], &tid, sizeof tid) != sizeof tid
          || ptrace (PTRACE_SEIZE, tid, NULL, NULL) != 0
          || write (zombie_go[1], "", 1) != 1)
        _exit (1);
      for (int i = 0; i < 10000; i++)
        {
          if (task_state (me, me) == 'Z' && task_state (me, tid) == 'Z')
            {
              printf ("pid=%d\nready\n", (int) me);
              fflush (stdout);
              while (read (0, &b, 1) > 0)
                ;
              _exit (0);
            }
          usleep (1000);
        }
      _exit (1);
    }
  /* Where Yama asks for it: the tracer is no ancestor.  */
  prctl (PR_SET_PTRACER, (unsigned long int) tracer, 0, 0, 0);
  pthread_t t;
  pid_t tid;
  if (tracer < 0 || pthread_create (&t, NULL, zombie_main, NULL) != 0
      || read (zombie_tid[0], &tid, sizeof tid) != sizeof tid
      || write (to_tracer[1], &tid, sizeof tid) != sizeof tid)
    return 1;
  pthread_exit (NULL);
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "traced-zombies") == 0)
    return traced_zombies ();
  if (argc > 1 && strcmp (argv[1], "split-ids") == 0)
    return split_ids (argc > 2 && strcmp (argv[2], "fs") == 0);
  int serve = argc > 1 && strcmp (argv[1], "serve") == 0;
  int exit_main = 0;
  for (int i = 2; i < argc; i++)
    if (strcmp (argv[i], "own") == 0)
      own = 1;
    else if (strcmp (argv[i], "exit-main") == 0)
      exit_main = 1;
    else if (strcmp (argv[i], "nodump") == 0)
      CHECK (prctl (PR_SET_DUMPABLE, 0, 0, 0, 0) == 0, "PR_SET_DUMPABLE: %s",
             strerror (errno));
  abi = rt_abi ();
  have_abi = abi.offset != NULL && abi.size != NULL && abi.flags != NULL;
  mode = info_mode ();
  if (getenv ("RSEQ_EXPECT") != NULL && *getenv ("RSEQ_EXPECT") != '\0')
    CHECK (rt_expect_is (mode), "mode %s, expected %s", mode, rt_expect ());
  /* A set-user-ID copy, started by another user: secure mode, unless
     its file system is mounted nosuid or no_new_privs is set.  */
  const char *want_secure = getenv ("RSEQ_EXPECT_SECURE");
  if (want_secure != NULL)
    CHECK (getauxval (AT_SECURE) == strtoul (want_secure, NULL, 10),
           "AT_SECURE %lu, expected %s", getauxval (AT_SECURE), want_secure);

  printf ("pid=%d\nmode=%s\n", (int) getpid (), mode);
#ifdef __GLIBC__
  printf ("libc=glibc\nlibc_version=%s\n", gnu_get_libc_version ());
#else
  printf ("libc=musl\nlibc_version=-\n");
#endif
  Dl_info dli;
  void *fn = dlsym (RTLD_DEFAULT, "rseq_compat_mode");
  char *shim = NULL;
  if (fn != NULL && dladdr (fn, &dli) != 0 && dli.dli_fname != NULL)
    shim = realpath (dli.dli_fname, NULL);
  printf ("shim=%s\n", shim != NULL ? shim : "-");
  /* Freed: LeakSanitizer reports it otherwise, in the make
     check-sanitize run of a set-user-ID child (info.exp, info_secure),
     and the child then fails.  */
  free (shim);
  const char *source = "none";
  if (fn != NULL && have_abi)
    source = "librseq-compat";
  else if (have_abi)
    source = "glibc";
  printf ("abi=%s\n", source);
  if (have_abi)
    printf ("offset=%td\nsize=%u\nflags=%u\n", *abi.offset, *abi.size,
            *abi.flags);
  printf ("feature=%lu\nalign=%lu\n", getauxval (27), getauxval (28));
  printf ("tunables=%s\n", start_tunables () ? start_tunables () : "-");
  printf ("secure=%lu\n", getauxval (AT_SECURE));
  printf ("ncpu=%ld\n", sysconf (_SC_NPROCESSORS_CONF));

  observe (&seen[0], 0);
  if (!serve)
    {
      print_thread (&seen[0]);
      printf ("ready\n");
      return rt_exit_status ();
    }

  for (int i = 1; i <= THREADS; i++)
    CHECK (pthread_create (&workers[i - 1], NULL, thread_main,
                           (void *) (intptr_t) i) == 0, "pthread_create");
  pthread_mutex_lock (&lock);
  while (observed < THREADS)
    pthread_cond_wait (&cond, &lock);
  pthread_mutex_unlock (&lock);
  /* With exit-main, the thread that answers stdin must be running (and
     so registered) before "ready": every info run then sees the same
     set of registered threads.  */
  pthread_t server;
  if (exit_main)
    {
      CHECK (pthread_create (&server, NULL, serve_stdin, (void *) 1) == 0,
             "pthread_create");
      pthread_mutex_lock (&lock);
      while (!server_started)
        pthread_cond_wait (&cond, &lock);
      pthread_mutex_unlock (&lock);
    }
  for (int i = 0; i <= THREADS; i++)
    print_thread (&seen[i]);
  printf ("ready\n");
  fflush (stdout);
  if (rt_failures != 0)
    return rt_exit_status ();

  if (exit_main)
    /* The process lives on in its other threads; they exit with
       status 0 when stdin ends.  */
    pthread_exit (NULL);
  serve_stdin (NULL);
  for (int i = 0; i < THREADS; i++)
    pthread_join (workers[i], NULL);
  return rt_exit_status ();
}
