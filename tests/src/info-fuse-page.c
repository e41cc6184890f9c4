/* Puts what info -p reads of a process on a FUSE page, for
   info-hostile.sh.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: info-fuse-page FILE ARM MODE
   FILE is a file of fuse-serve's, ARM its arm file, created here once
   the page is in place (the server answers nothing after).  Prints
   "pid=PID" (and "child=PID" in area, ldso and env modes) and "ready",
   then waits to be killed.  MODE (twenty-fifth
   review):

     area   the process registers rseq on an anonymous page (run it with
            GLIBC_TUNABLES=glibc.pthread.rseq=0), stops itself (SIGSTOP),
            and a CLONE_VM child of it, another process, then maps FILE
            over that page (MAP_FIXED, not yet read in): info -p --stop
            reads the area the kernel reports and waited for the server
            in the page fault, unkillable (state D).  The process stays
            stopped, so that it never returns to user mode, where the
            kernel would write the area's cpu_id and so fault the page in
            itself; the child never touches it: only a reader of the
            process's memory can ask the server for it.
     ldso   the same, with ld.so's page that holds __rseq_offset (which
            every method of info -p reads) as the page mapped over.
     env    the same, with the page of the environment (the kernel's
            copy, which /proc/PID/environ reads) that holds
            GLIBC_TUNABLES (twenty-sixth review: info -p, which does
            not read it there, took the tunable for unset and said
            "unavailable").
     map    maps FILE (shared, read-only) low, below every library:
            fuse-overlay maps an overlayfs file whose lower layer is on
            FUSE.
     has-rseq-offset
            FILE and ARM unused: exits 0 where __rseq_offset is defined
            (glibc 2.35 and later, or the shim preloaded), 1 if not.
     lock   holds its own mmap_lock behind the server: a thread reads,
            through /proc/self/mem, a page of FILE it mapped but never
            touched once ARM exists (the read holds mmap_lock for reading
            while it waits), and another then calls mmap, a writer that
            queues on the lock, behind which every later reader of
            /proc/PID/maps queues: info -p waited in state D.

   In area, ldso and env modes the process accepts any tracer of its user
   (PR_SET_PTRACER, for kernel.yama.ptrace_scope 1), so that a user's
   info -p --stop reads it as root's does.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sys-rseq.h"
#ifndef PR_SET_PTRACER
# define PR_SET_PTRACER 0x59616d61
#endif

static const char *file, *arm;
static int fd;
static char *page;
static size_t page_size;
static int prot = PROT_READ;
static pid_t parent;

static void
say (const char *s)
{
  if (write (STDOUT_FILENO, s, strlen (s)) < 0)
    _exit (1);
}

static void
arm_server (void)
{
  int a = open (arm, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  if (a < 0)
    {
      perror (arm);
      _exit (1);
    }
  close (a);
}

static void __attribute__ ((noreturn))
wait_for_ever (void)
{
  for (;;)
    syscall (SYS_pause);
}

/* The CLONE_VM child: once the process is stopped, the page over.
   After that, system calls only: in ldso mode the page may hold data
   that the C library reads (ld.so's), and a read of it here would
   fault it in (the program is linked with -z now: no lazy binding).  */
static int
replace (void *arg)
{
  (void) arg;
  char path[64], stat[512], msg[64];
  snprintf (path, sizeof path, "/proc/%d/stat", (int) parent);
  int len = snprintf (msg, sizeof msg, "pid=%d\nchild=%d\nready\n",
                      (int) parent, (int) getpid ());
  for (int i = 0; i < 3000; i++)
    {
      int s = open (path, O_RDONLY | O_CLOEXEC);
      ssize_t n = s < 0 ? -1 : read (s, stat, sizeof stat - 1);
      if (s >= 0)
        close (s);
      stat[n > 0 ? n : 0] = '\0';
      char *close_paren = strrchr (stat, ')');
      if (close_paren != NULL && close_paren[1] == ' '
          && close_paren[2] == 'T')
        {
          if (mmap (page, page_size, prot, MAP_PRIVATE | MAP_FIXED, fd, 0)
              != page)
            {
              perror ("info-fuse-page: mmap over the page");
              kill (parent, SIGKILL);
              _exit (1);
            }
          long int a = syscall (SYS_openat, AT_FDCWD, arm,
                                O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
          if (a < 0)
            {
              syscall (SYS_kill, parent, SIGKILL);
              syscall (SYS_exit, 1);
            }
          syscall (SYS_close, a);
          syscall (SYS_write, STDOUT_FILENO, msg, len);
          wait_for_ever ();
        }
      usleep (10000);
    }
  say ("info-fuse-page: the process did not stop\n");
  kill (parent, SIGKILL);
  _exit (1);
}

/* The page of the kernel's copy of the environment (from stat's field
   50, env_start, on) that holds the variable NAME (with its '='), or
   NULL.  */
static char *
env_page (const char *name)
{
  static char buf[1 << 16];
  int s = open ("/proc/self/stat", O_RDONLY | O_CLOEXEC);
  ssize_t n = s < 0 ? -1 : read (s, buf, sizeof buf - 1);
  if (s >= 0)
    close (s);
  if (n <= 0)
    return NULL;
  buf[n] = '\0';
  const char *f = strrchr (buf, ')');
  unsigned long long int start = 0;
  for (int field = 2; f != NULL && field < 50;)
    {
      f = strchr (f + 1, ' ');
      if (f != NULL && ++field == 50)
        start = strtoull (f + 1, NULL, 10);
    }
  int e = open ("/proc/self/environ", O_RDONLY | O_CLOEXEC);
  n = e < 0 ? -1 : read (e, buf, sizeof buf);
  if (e >= 0)
    close (e);
  size_t len = strlen (name);
  for (ssize_t i = 0; start != 0 && i + (ssize_t) len <= n;
       i += (ssize_t) strnlen (buf + i, (size_t) (n - i)) + 1)
    if (memcmp (buf + i, name, len) == 0)
      return (char *) ((uintptr_t) (start + (unsigned long long int) i)
                       & ~(uintptr_t) (page_size - 1));
  return NULL;
}

/* lock mode: each thread waits for its byte on its pipe (no memory
   of its own to allocate then: a stack's mmap would queue on the
   lock too).  */
static int go_read[2], go_write[2];

static void *
reader (void *arg)
{
  int mem = open ("/proc/self/mem", O_RDONLY | O_CLOEXEC);
  char c;
  if (read (go_read[0], &c, 1) != 1)
    return arg;
  if (mem < 0 || pread (mem, &c, 1, (off_t) (uintptr_t) page) != 1)
    perror ("info-fuse-page: reading the FUSE page");
  return arg;
}

static void *
writer (void *arg)
{
  char c;
  if (read (go_write[0], &c, 1) == 1)
    mmap (NULL, page_size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return arg;
}

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: info-fuse-page FILE ARM "
               "area|ldso|env|map|lock|has-rseq-offset\n");
      return 2;
    }
  /* Copies: in env mode the page over which FILE is mapped may hold
     the argument strings too.  */
  file = strdup (argv[1]);
  arm = strdup (argv[2]);
  if (file == NULL || arm == NULL)
    return 1;
  const char *mode = argv[3];
  /* Whether ldso mode can run here (info-hostile.sh preloads the shim
     where it cannot).  */
  if (strcmp (mode, "has-rseq-offset") == 0)
    return dlsym (RTLD_DEFAULT, "__rseq_offset") != NULL ? 0 : 1;
  page_size = sysconf (_SC_PAGESIZE);
  fd = open (file, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      perror (file);
      return 1;
    }

  if (strcmp (mode, "map") == 0 || strcmp (mode, "lock") == 0)
    {
      /* Low: listed before the program and its libraries.  */
      page = mmap ((void *) 0x100000000, 2 * page_size, PROT_READ,
                   MAP_SHARED, fd, 0);
      if (page == MAP_FAILED)
        {
          perror (file);
          return 1;
        }
      char msg[64];
      int len = snprintf (msg, sizeof msg, "pid=%d\nready\n",
                          (int) getpid ());
      pthread_t a, b;
      if (strcmp (mode, "lock") == 0
          && (pipe (go_read) != 0 || pipe (go_write) != 0
              || pthread_create (&a, NULL, reader, NULL) != 0
              || pthread_create (&b, NULL, writer, NULL) != 0))
        {
          perror ("info-fuse-page: threads");
          return 1;
        }
      arm_server ();
      if (strcmp (mode, "lock") == 0)
        {
          /* The read first, which holds the lock; then the mmap.  */
          if (write (go_read[1], "r", 1) != 1)
            return 1;
          usleep (300000);
          if (write (go_write[1], "w", 1) != 1)
            return 1;
          usleep (300000);
        }
      if (write (STDOUT_FILENO, msg, len) != len)
        return 1;
      wait_for_ever ();
    }

  if (strcmp (mode, "area") == 0)
    {
#ifdef SYS_rseq
      page = mmap (NULL, page_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (page == MAP_FAILED)
        {
          perror ("info-fuse-page: mmap");
          return 1;
        }
      prot = PROT_READ | PROT_WRITE;
      /* struct rseq: cpu_id_start, cpu_id (-1: not yet), ...  */
      uint32_t *area = (uint32_t *) (page + 64);
      area[1] = (uint32_t) -1;
      if (syscall (SYS_rseq, area, 32, 0, 0x53053053) != 0)
        {
          printf ("cannot register rseq: %s%s\n", strerror (errno),
                  errno == EBUSY ? " (the C library registered an area: "
                  "GLIBC_TUNABLES=glibc.pthread.rseq=0?)" : "");
          return 1;
        }
#else
      printf ("no rseq system call number for this architecture\n");
      return 1;
#endif
    }
  else if (strcmp (mode, "env") == 0)
    {
      page = env_page ("GLIBC_TUNABLES=");
      if (page == NULL)
        {
          printf ("no GLIBC_TUNABLES in the environment\n");
          return 1;
        }
    }
  else if (strcmp (mode, "ldso") == 0)
    {
      void *sym = dlsym (RTLD_DEFAULT, "__rseq_offset");
      if (sym == NULL)
        {
          printf ("no __rseq_offset (glibc before 2.35 without the shim): %s\n",
                  dlerror ());
          return 1;
        }
      page = (char *) ((uintptr_t) sym & ~(uintptr_t) (page_size - 1));
    }
  else
    {
      fprintf (stderr, "info-fuse-page: no mode %s\n", mode);
      return 2;
    }

  prctl (PR_SET_PTRACER, -1UL, 0, 0, 0);
  fflush (stdout);
  parent = getpid ();
  static char stack[1 << 16] __attribute__ ((aligned (16)));
  if (clone (replace, stack + sizeof stack, CLONE_VM | SIGCHLD, NULL) < 0)
    {
      perror ("info-fuse-page: clone");
      return 1;
    }
  /* Stopped for good: killed, never continued.  */
  kill (getpid (), SIGSTOP);
  wait_for_ever ();
}
