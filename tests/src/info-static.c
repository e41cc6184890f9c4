/* A static program for rseq-compat info -p to read.
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

/* Usage: info-static [dlopen] [retitle|retitle-eq] [oddenv] (linked
   with -static,
   or not)

   With "dlopen", first opens libm.so.6, as a static glibc program may:
   that maps a libc.so.6 and an ld.so beside the program's own C
   library, which never uses them, and prints "dlopen=ok" (or
   "dlopen=failed: WHY").  With "retitle", overwrites its environment
   area as a ps title does (PostgreSQL, nginx, setproctitle): the
   strings move to the heap and the area then holds one title, so that
   /proc/PID/environ no longer shows what the C library read at start.
   With "retitle-eq", a title written as PostgreSQL's is, from the
   arguments on into the environment area, whose tail there has a
   variable's shape (TITLE_EQ_TAIL): what info -p must not take for
   variables (114th review, F1).
   Any other argument is left alone: a test passes one to make the
   argument area as long as it needs (114th review's follow-up, I1).
   With "oddenv", first runs itself again with two more strings in its
   environment that are no variables, as execve allows: one without
   '=' (ODDENV_MARK) and an empty one, after the variables it has.
   Then starts one thread, prints "pid=N", "rseq_size=N" (the C
   library's __rseq_size, or a preloaded shim's; 0 where there is
   none), "rseq_abi=0|1" (whether the C library or a shim defines
   __rseq_size), "mode=M" (rseq_compat_mode (), "none" without the shim),
   "libc_version=V" (glibc's own, "unknown" for another C library),
   "arg_area=N" (the bytes of the argument area as execve laid it out:
   each argument with its NUL) and "ready", and exits at end of file
   on stdin.  It publishes no __rseq_* symbols, so info -p cannot tell
   whose a static program's areas are: a static glibc 2.35 or later
   registers every thread itself, musl none.  Nothing here touches
   rseq, and rtest.h is left out: it looks symbols up with dlsym, which
   a static program has not.  */

#include <dlfcn.h>
#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fds[2];

/* Posted by the worker once it runs: "ready" must wait for it, or a
   loaded machine lets info -p see the thread before its C library has
   registered it (glibc registers a new thread in its own start code,
   before the start routine).  */
static sem_t started;

static void *
worker (void *arg)
{
  char c;
  (void) arg;
  sem_post (&started);
  /* Asleep in read until main ends the process.  */
  while (read (fds[0], &c, 1) != 0)
    ;
  return NULL;
}

/* The C library's own word on whether it registered: a static glibc
   2.35 or later (or one with rseq-compat's series) defines __rseq_size,
   non-zero once the main thread is registered; musl and a stock older
   glibc define none.  The test compares what info -p reports with it,
   not with what the host's shared C library does: a static program
   links the archive, which another glibc may have built.  */
extern const unsigned int __rseq_size __attribute__ ((weak));
/* The shim's, linked in (librseq-compat.a) or preloaded: a dynamic
   program binds a weak reference to a preloaded definition too.  */
extern const char *rseq_compat_mode (void) __attribute__ ((weak));

extern char **environ;

/* A title with '=' in it, its tail of a variable's shape.  */
#define TITLE_EQ_HEAD "postgres: main: "
#define TITLE_EQ_TAIL "user=alice db=sales host=10.0.0.7 idle"

/* What setproctitle does (TITLE, or NULL for TITLE_EQ_HEAD and
   TITLE_EQ_TAIL): the environment strings are copied to the
   heap and their bytes given to a title.  The area is the one the
   kernel shows in /proc/PID/environ (env_start and env_end, the 50th
   and 51st fields of /proc/self/stat): glibc before 2.39 points
   environ's GLIBC_TUNABLES at a copy of its own, so environ alone does
   not say where the area lies.  */
static int
retitle (const char *title)
{
  char buf[4096];
  FILE *f = fopen ("/proc/self/stat", "r");
  if (f == NULL)
    return -1;
  size_t len = fread (buf, 1, sizeof buf - 1, f);
  fclose (f);
  buf[len] = '\0';
  char *p = strrchr (buf, ')');
  unsigned long int start = 0, end = 0, arg_start = 0, arg_end = 0;
  /* After ") ": field 3 onwards; arg_start is field 48, env_start
     50.  */
  for (int field = 2; p != NULL && field < 51; field++)
    {
      p = strchr (p + 1, ' ');
      if (p != NULL && field == 47)
        arg_start = strtoul (p + 1, NULL, 10);
      if (p != NULL && field == 48)
        arg_end = strtoul (p + 1, NULL, 10);
      if (p != NULL && field == 49)
        start = strtoul (p + 1, NULL, 10);
      if (p != NULL && field == 50)
        end = strtoul (p + 1, NULL, 10);
    }
  if (start == 0 || end <= start)
    return -1;
  size_t n = 0;
  while (environ[n] != NULL)
    n++;
  char **copy = calloc (n + 1, sizeof *copy);
  if (copy == NULL)
    return -1;
  for (size_t i = 0; i < n; i++)
    if ((copy[i] = strdup (environ[i])) == NULL)
      return -1;
  environ = copy;
  memset ((char *) start, 0, end - start);
  if (title != NULL)
    snprintf ((char *) start, end - start, "%s", title);
  else
    {
      /* The arguments' area, its last NUL included, holds the title's
         head; the environment area its tail.  */
      if (arg_start == 0 || arg_end <= arg_start)
        return -1;
      memset ((char *) arg_start, ' ', arg_end - arg_start);
      memcpy ((char *) arg_start, TITLE_EQ_HEAD,
              arg_end - arg_start < sizeof TITLE_EQ_HEAD - 1
              ? arg_end - arg_start : sizeof TITLE_EQ_HEAD - 1);
      snprintf ((char *) start, end - start, "%s", TITLE_EQ_TAIL);
    }
  return 0;
}

/* A string of the environment without '=', which execve passes on as
   it is: what info -p must not take for a title written over the area
   (113th review, D4).  */
#define ODDENV_MARK "info-static-no-variable"

/* Runs the program again with ODDENV_MARK and an empty string after
   its variables, unless they are there already.  */
static int
oddenv (char **argv)
{
  size_t n = 0;
  for (; environ[n] != NULL; n++)
    if (strcmp (environ[n], ODDENV_MARK) == 0)
      return 0;
  char **env = calloc (n + 3, sizeof *env);
  if (env == NULL)
    return -1;
  memcpy (env, environ, n * sizeof *env);
  env[n] = (char *) ODDENV_MARK;
  env[n + 1] = (char *) "";
  execve ("/proc/self/exe", argv, env);
  return -1;
}

int
main (int argc, char **argv)
{
  int want_dlopen = 0, want_retitle = 0;
  const char *title = NULL;
  /* Before "retitle-eq" writes over the strings.  */
  size_t arg_area = 0;
  for (int i = 0; i < argc; i++)
    arg_area += strlen (argv[i]) + 1;
  for (int i = 1; i < argc; i++)
    {
      want_dlopen |= strcmp (argv[i], "dlopen") == 0;
      if (strcmp (argv[i], "retitle") == 0)
        {
          want_retitle = 1;
          title = "info-static: retitled";
        }
      want_retitle |= strcmp (argv[i], "retitle-eq") == 0;
      if (strcmp (argv[i], "oddenv") == 0 && oddenv (argv) != 0)
        {
          perror ("info-static: running itself again");
          return 1;
        }
    }
  if (want_retitle && retitle (title) != 0)
    {
      fprintf (stderr, "info-static: no environment area to retitle\n");
      return 1;
    }
  if (want_dlopen)
    {
      void *h = dlopen ("libm.so.6", RTLD_NOW);
      if (h != NULL)
        printf ("dlopen=ok\n");
      else
        printf ("dlopen=failed: %s\n", dlerror ());
    }
  pthread_t t;
  if (sem_init (&started, 0, 0) != 0 || pipe (fds) != 0
      || pthread_create (&t, NULL, worker, NULL) != 0)
    {
      perror ("info-static");
      return 1;
    }
  while (sem_wait (&started) != 0)
    ;
  const char *version = "unknown";
#ifdef __GLIBC__
  version = gnu_get_libc_version ();
#endif
  printf ("pid=%d\nrseq_size=%u\nrseq_abi=%d\nmode=%s\nlibc_version=%s\n"
          "arg_area=%zu\nready\n", (int) getpid (),
          &__rseq_size != NULL ? __rseq_size : 0, &__rseq_size != NULL,
          rseq_compat_mode != NULL ? rseq_compat_mode () : "none", version,
          arg_area);
  fflush (stdout);
  char buf[64];
  while (fgets (buf, sizeof buf, stdin) != NULL)
    ;
  return 0;
}
