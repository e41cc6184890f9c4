/* system.exp's other writer of /etc/ld.so.preload, preloaded into
   rseq-compat, which another program that takes no lock of ours could
   be.  RSEQ_TEST_REPLACE's text, and a newline, is put in the file:
   when RSEQ_TEST_REPLACE_AT says, "mkostemp" (the default: as the
   command makes its new file, after it has read the old one), "fsync"
   (as it syncs its new file, before that goes in place) or "remove"
   (as it takes the file away, by unlink or rename) or "exchange" (as
   it swaps its new file in); as RSEQ_TEST_REPLACE_HOW says, "rename"
   (the default: a new file renamed over it), "in-place-old-times" (the
   same file written over with text of its size, its times then set
   back, as cp -p, rsync -t or tar do), "chmod" (mode 0600, the text
   kept), "remove" (the file removed; the text is not used) or
   "setxattr" (the attribute trusted.rseq-compat-other set to the
   text).
   RSEQ_TEST_REPLACE2's text is put in place by a second program right
   after the swap.  RSEQ_TEST_RAISE=fsync sends the command SIGTERM as it
   syncs its new file.  Where the command asks the size of the
   attribute RSEQ_TEST_GROW and finds it empty, the attribute is given
   4000 'x' right after; and where it then sets that attribute on its
   new file with anything but 'x's (bytes of its heap), this aborts.
   RSEQ_TEST_FAIL=unlink-aside makes the unlink of a file of the
   command's in /etc (PF.rseq-compat.*) fail with EIO;
   RSEQ_TEST_FAIL=rename-eperm makes every rename of PF and every
   renameat2 fail with EPERM, as an immutable file's do.
   RSEQ_TEST_FAIL=mountinfo-once makes the Nth open of a mountinfo
   file (RSEQ_TEST_MOUNTINFO_AT, 1 by default) fail with ENFILE, as a
   full system table of open files would for a moment;
   RSEQ_TEST_FAIL=mountinfo-pid makes every open of a mountinfo file
   under /proc/PID (a number) fail so, as another root's table is read
   (where the FUSE mounts outside this root are).
   RSEQ_TEST_FAIL=pipe2-at makes the Nth pipe2 (RSEQ_TEST_PIPE2_AT, 1
   by default; a child counts on from its parent's count) fail with
   EMFILE, as too few descriptors would; RSEQ_TEST_FAIL=fork-at the
   Nth fork (RSEQ_TEST_FORK_AT) with EAGAIN, as a limit on processes
   would; RSEQ_TEST_FAIL=unshare-enomem every unshare with ENOMEM, and
   RSEQ_TEST_FAIL=unshare-kill kills the process that calls unshare (as
   the OOM killer would).  RSEQ_TEST_FAIL=statfs-fusectl makes every
   statfs of a name of fusectl's (".../fuse/connections", "/proc/fs")
   fail with ENOMEM, and RSEQ_TEST_FAIL=statfs-unshared each one after
   the process's own unshare (the list's child's, once it has mounted
   fusectl); RSEQ_TEST_FAIL=unshare-sigsys sends SIGSYS to the process
   that calls unshare, and RSEQ_TEST_FAIL=statfs-sigsys to the one that
   calls statfs of fusectl after its unshare (as another process may,
   with or without a seccomp filter in force), without a core file;
   RSEQ_TEST_FAIL=dprintf-unshared makes the first dprintf of a
   connection's name (a number) after it fail so, writing nothing, and
   RSEQ_TEST_FAIL=dprintf-eio the same with EIO.
   RSEQ_TEST_FAIL=readdir-conns makes the first readdir of a directory
   opened as fusectl (".../fuse/connections" or "/proc/fs") fail with
   ENOMEM, RSEQ_TEST_FAIL=readdir-conns-eio the same with EIO, and
   RSEQ_TEST_FAIL=readdir-proc that of "/proc".
   RSEQ_TEST_FAIL=read-after-mount makes the read of a pipe that
   follows one that brought "at mount" (the list's child's word) fail
   with EIO, 0.6 s late, and the child's mount of fusectl wait 0.3 s
   first, then its statfs of fusectl send it SIGSYS (as statfs-sigsys):
   it is read at its mount, and ends by SIGSYS past it.
   RSEQ_TEST_FAIL=lost-early writes "lost 5" (EIO, or RSEQ_TEST_ERRNO)
   where the list's child says "listing", a line no child of ours
   writes before that word, then sends it SIGSYS at its statfs of
   fusectl (as statfs-sigsys): its last step read is its mount.
   RSEQ_TEST_FAIL=listing-as writes RSEQ_TEST_AS (lines) there, then
   the same SIGSYS: a step again, or a name before "listing".
   RSEQ_TEST_FAIL=err-early writes "err 5" (EIO, or RSEQ_TEST_ERRNO)
   where it says "at mount", and ends it (status 1): an error no child
   of ours says so, as it says only a want.
   RSEQ_TEST_ERRNO (a number) is what readdir-conns, readdir-proc,
   statfs-fusectl and statfs-unshared fail with instead of ENOMEM
   (EACCES or EPERM: a denial), mountinfo-pid instead of ENFILE, and
   lost-early and err-early write instead of EIO.
   RSEQ_TEST_MIDWALK_NAME and RSEQ_TEST_MIDWALK_HOOK: the Nth time
   (RSEQ_TEST_MIDWALK_AT, 1 by default) the command opens a name whose
   last component is the first (open or openat, O_PATH included), the
   second is run with /bin/sh just before: a mount made between two
   lookups of one walk (the 124th review's 4).

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
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sched.h>
#include <sys/types.h>
#include <sys/vfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "cmd/renameat2.h"

#define PF "/etc/ld.so.preload"

/* Whether RSEQ_TEST_FAIL is WHAT.  */
static int
failing (const char *what)
{
  const char *f = getenv ("RSEQ_TEST_FAIL");
  return f != NULL && strcmp (f, what) == 0;
}

/* DFLT, or RSEQ_TEST_ERRNO.  */
static int
test_errno_or (int dflt)
{
  const char *e = getenv ("RSEQ_TEST_ERRNO");
  return e != NULL ? atoi (e) : dflt;
}

static int
test_errno (void)
{
  return test_errno_or (ENOMEM);
}

static int
real_rename (const char *from, const char *to)
{
  int (*real) (const char *, const char *)
    = (int (*) (const char *, const char *)) dlsym (RTLD_NEXT, "rename");
  return real (from, to);
}

/* Another program's file, TEXT, renamed over the file.  */
static void
put_over (const char *text)
{
  FILE *f = fopen (PF ".other", "w");
  if (f == NULL || fprintf (f, "%s\n", text) < 0 || fclose (f) != 0
      || real_rename (PF ".other", PF) != 0)
    abort ();
}

/* The other program's write, once, where RSEQ_TEST_REPLACE_AT is AT.  */
static void
other_writes (const char *at)
{
  const char *text = getenv ("RSEQ_TEST_REPLACE");
  const char *when = getenv ("RSEQ_TEST_REPLACE_AT");
  const char *how = getenv ("RSEQ_TEST_REPLACE_HOW");
  if (text == NULL || strcmp (when != NULL ? when : "mkostemp", at) != 0)
    return;
  unsetenv ("RSEQ_TEST_REPLACE");
  if (how != NULL && strcmp (how, "chmod") == 0)
    {
      if (chmod (PF, 0600) != 0)
        abort ();
      return;
    }
  if (how != NULL && strcmp (how, "setxattr") == 0)
    {
      if (setxattr (PF, "trusted.rseq-compat-other", text, strlen (text), 0)
          != 0)
        abort ();
      return;
    }
  if (how != NULL && strcmp (how, "remove") == 0)
    {
      int (*real) (const char *) = (int (*) (const char *))
        dlsym (RTLD_NEXT, "unlink");
      if (real (PF) != 0)
        abort ();
      return;
    }
  if (how != NULL && strcmp (how, "in-place-old-times") == 0)
    {
      struct stat st;
      size_t len = strlen (text);
      int fd = open (PF, O_WRONLY | O_CLOEXEC);
      if (fd < 0 || fstat (fd, &st) != 0 || (off_t) len + 1 != st.st_size
          || pwrite (fd, text, len, 0) != (ssize_t) len
          || pwrite (fd, "\n", 1, len) != 1)
        abort ();
      struct timespec times[2] = { st.st_atim, st.st_mtim };
      if (futimens (fd, times) != 0 || close (fd) != 0)
        abort ();
      return;
    }
  put_over (text);
}

/* renameat2, which rseq-compat makes by syscall (): a file taken away
   (from the file's name) or swapped in (to it, RENAME_EXCHANGE).  */
long int
syscall (long int number, ...)
{
  long int (*real) (long int, ...)
    = (long int (*) (long int, ...)) dlsym (RTLD_NEXT, "syscall");
  va_list ap;
  long int a[6];
  va_start (ap, number);
  for (int i = 0; i < 6; i++)
    a[i] = va_arg (ap, long int);
  va_end (ap);
#ifdef SYS_renameat2
  if (number == SYS_renameat2 && failing ("rename-eperm"))
    {
      errno = EPERM;
      return -1;
    }
  if (number == SYS_renameat2)
    {
      const char *from = (const char *) a[1], *to = (const char *) a[3];
      int swap = (a[4] & 2) != 0 && strcmp (to, PF) == 0;
      if (strcmp (from, PF) == 0)
        other_writes ("remove");
      if (swap)
        other_writes ("exchange");
      long int r = real (number, a[0], a[1], a[2], a[3], a[4], a[5]);
      const char *second = getenv ("RSEQ_TEST_REPLACE2");
      if (r == 0 && swap && second != NULL)
        {
          unsetenv ("RSEQ_TEST_REPLACE2");
          put_over (second);
        }
      return r;
    }
#endif
  return real (number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int
fsync (int fd)
{
  int (*real) (int) = (int (*) (int)) dlsym (RTLD_NEXT, "fsync");
  struct stat st;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
    {
      other_writes ("fsync");
      const char *sig = getenv ("RSEQ_TEST_RAISE");
      if (sig != NULL && strcmp (sig, "fsync") == 0)
        {
          unsetenv ("RSEQ_TEST_RAISE");
          kill (getpid (), SIGTERM);
        }
    }
  return real (fd);
}

int
rename (const char *from, const char *to)
{
  if (failing ("rename-eperm")
      && (strcmp (from, PF) == 0 || strcmp (to, PF) == 0))
    {
      errno = EPERM;
      return -1;
    }
  if (strcmp (from, PF) == 0)
    other_writes ("remove");
  return real_rename (from, to);
}

int
unlink (const char *path)
{
  int (*real) (const char *) = (int (*) (const char *))
    dlsym (RTLD_NEXT, "unlink");
  if (strcmp (path, PF) == 0)
    other_writes ("remove");
  if (failing ("unlink-aside")
      && strncmp (path, PF ".rseq-compat.", strlen (PF ".rseq-compat.")) == 0)
    {
      errno = EIO;
      return -1;
    }
  return real (path);
}

ssize_t
fgetxattr (int fd, const char *name, void *value, size_t size)
{
  ssize_t (*real) (int, const char *, void *, size_t)
    = (ssize_t (*) (int, const char *, void *, size_t))
      dlsym (RTLD_NEXT, "fgetxattr");
  ssize_t n = real (fd, name, value, size);
  const char *grow = getenv ("RSEQ_TEST_GROW");
  if (grow != NULL && size == 0 && n == 0 && strcmp (name, grow) == 0)
    {
      static char more[4000];
      memset (more, 'x', sizeof more);
      if (fsetxattr (fd, name, more, sizeof more, 0) != 0)
        abort ();
    }
  return n;
}

int
fsetxattr (int fd, const char *name, const void *value, size_t size,
           int flags)
{
  int (*real) (int, const char *, const void *, size_t, int)
    = (int (*) (int, const char *, const void *, size_t, int))
      dlsym (RTLD_NEXT, "fsetxattr");
  const char *grow = getenv ("RSEQ_TEST_GROW");
  if (grow != NULL && strcmp (name, grow) == 0)
    for (size_t i = 0; i < size; i++)
      if (((const char *) value)[i] != 'x')
        {
          fprintf (stderr, "system-replace: %s set with a byte other "
                   "than 'x' at %zu of %zu\n", name, i, size);
          abort ();
        }
  return real (fd, name, value, size, flags);
}

int
mkostemp (char *template, int flags)
{
  int (*real) (char *, int) = (int (*) (char *, int))
    dlsym (RTLD_NEXT, "mkostemp");
  other_writes ("mkostemp");
  return real (template, flags);
}

/* The mid-walk hook, where PATH is its name's Nth open.  */
static void
midwalk (const char *path)
{
  static int seen;
  const char *name = getenv ("RSEQ_TEST_MIDWALK_NAME");
  const char *hook = getenv ("RSEQ_TEST_MIDWALK_HOOK");
  const char *at = getenv ("RSEQ_TEST_MIDWALK_AT");
  if (name == NULL || hook == NULL || path == NULL)
    return;
  const char *last = strrchr (path, '/');
  last = last != NULL ? last + 1 : path;
  if (strcmp (last, name) != 0 || ++seen != (at != NULL ? atoi (at) : 1))
    return;
  if (system (hook) != 0)
    abort ();
}

/* glibc before 2.19 has no O_TMPFILE (make check-oldlibc's 2.17): the
   kernel's bit, the same on every architecture these tests run on.  */
#ifndef __O_TMPFILE
# define __O_TMPFILE 020000000
#endif

/* The mode argument of an open with FLAGS, from AP.  */
static mode_t
mode_arg (int flags, va_list ap)
{
  return (flags & (O_CREAT | __O_TMPFILE)) != 0 ? va_arg (ap, mode_t) : 0;
}

/* The real NAME, of openat's arguments where AT, else of open's, after
   the mid-walk hook.  */
static int
real_open (const char *name, int at, int dir, const char *path, int flags,
           mode_t mode)
{
  midwalk (path);
  static int mountinfo_opens;
  size_t len = path != NULL ? strlen (path) : 0;
  if (len >= 10 && strcmp (path + len - 10, "/mountinfo") == 0
      && failing ("mountinfo-once"))
    {
      const char *at = getenv ("RSEQ_TEST_MOUNTINFO_AT");
      if (++mountinfo_opens == (at != NULL ? atoi (at) : 1))
        {
          errno = ENFILE;
          return -1;
        }
    }
  if (len >= 10 && strcmp (path + len - 10, "/mountinfo") == 0
      && strncmp (path, "/proc/", 6) == 0 && path[6] >= '0' && path[6] <= '9'
      && failing ("mountinfo-pid"))
    {
      errno = test_errno_or (ENFILE);
      return -1;
    }
  void *f = dlsym (RTLD_NEXT, name);
  return at ? ((int (*) (int, const char *, int, ...)) f) (dir, path, flags,
                                                           mode)
         : ((int (*) (const char *, int, ...)) f) (path, flags, mode);
}

/* Whether this call, the *COUNT-th under RSEQ_TEST_FAIL=MODE, is the
   one the environment variable VAR (1 by default) makes fail with E.  */
static int
nth_fails (const char *mode, const char *var, int *count, int e)
{
  if (!failing (mode))
    return 0;
  const char *at = getenv (var);
  if (++*count != (at != NULL ? atoi (at) : 1))
    return 0;
  errno = e;
  return 1;
}

int
pipe2 (int fds[2], int flags)
{
  static int pipes;
  if (nth_fails ("pipe2-at", "RSEQ_TEST_PIPE2_AT", &pipes, EMFILE))
    return -1;
  return ((int (*) (int *, int)) dlsym (RTLD_NEXT, "pipe2")) (fds, flags);
}

pid_t
fork (void)
{
  static int forks;
  if (nth_fails ("fork-at", "RSEQ_TEST_FORK_AT", &forks, EAGAIN))
    return -1;
  return ((pid_t (*) (void)) dlsym (RTLD_NEXT, "fork")) ();
}

/* This process called unshare (statfs-unshared).  */
static int unshared;


/* Sleeps MS milliseconds.  */
static void
wait_ms (long int ms)
{
  struct timespec t = { ms / 1000, ms % 1000 * 1000000 };
  while (nanosleep (&t, &t) != 0 && errno == EINTR)
    ;
}

/* read and __read_chk alike (read-after-mount).  */
static ssize_t
some_read (const char *name, int fd, void *buf, size_t n)
{
  static int poisoned = -1;
  if (fd == poisoned)
    {
      poisoned = -1;
      wait_ms (600);
      errno = EIO;
      return -1;
    }
  ssize_t r = ((ssize_t (*) (int, void *, size_t)) dlsym (RTLD_NEXT, name))
                (fd, buf, n);
  if (r > 0 && failing ("read-after-mount")
      && memmem (buf, (size_t) r, "at mount\n", 9) != NULL)
    poisoned = fd;
  return r;
}

ssize_t
read (int fd, void *buf, size_t n)
{
  return some_read ("read", fd, buf, n);
}

ssize_t
__read_chk (int fd, void *buf, size_t n, size_t len)
{
  (void) len;
  return some_read ("read", fd, buf, n);
}

/* SIGSYS to this process, as from another: no core file left.  */
static void
sigsys_self (void)
{
  struct rlimit none = { 0, 0 };
  setrlimit (RLIMIT_CORE, &none);
  kill (getpid (), SIGSYS);
}

/* fusectl's mount, in the list's child, waits first (read-after-mount).  */
int
mount (const char *source, const char *target, const char *type,
       unsigned long int flags, const void *data)
{
  if (failing ("read-after-mount") && type != NULL
      && strcmp (type, "fusectl") == 0)
    wait_ms (300);
  return ((int (*) (const char *, const char *, const char *,
                    unsigned long int, const void *))
          dlsym (RTLD_NEXT, "mount")) (source, target, type, flags, data);
}

int
unshare (int flags)
{
  if (failing ("unshare-enomem"))
    {
      errno = ENOMEM;
      return -1;
    }
  if (failing ("unshare-kill"))
    kill (getpid (), SIGKILL);
  if (failing ("unshare-sigsys"))
    sigsys_self ();
  unshared = 1;
  return ((int (*) (int)) dlsym (RTLD_NEXT, "unshare")) (flags);
}

/* dprintf and __dprintf_chk (_FORTIFY_SOURCE) alike.  */
static int
some_dprintf (int fd, const char *fmt, va_list ap)
{
  static int failed;
  int eio = failing ("dprintf-eio");
  /* The list's child writes its lines with "%s\n".  */
  const char *line = NULL;
  if (strcmp (fmt, "%s\n") == 0)
    {
      va_list peek;
      va_copy (peek, ap);
      line = va_arg (peek, const char *);
      va_end (peek);
    }
  if (line == NULL)
    return vdprintf (fd, fmt, ap);
  if (failing ("lost-early") && strcmp (line, "listing") == 0)
    return dprintf (fd, "lost %d\n", test_errno_or (EIO));
  if (failing ("listing-as") && strcmp (line, "listing") == 0)
    return dprintf (fd, "%s\n", getenv ("RSEQ_TEST_AS"));
  if (failing ("err-early") && strcmp (line, "at mount") == 0)
    {
      dprintf (fd, "err %d\n", test_errno_or (EIO));
      _exit (1);
    }
  /* A name, not a step's word ("at mount").  */
  if ((eio || failing ("dprintf-unshared")) && unshared && !failed
      && line[0] >= '0' && line[0] <= '9')
    {
      failed = 1;
      errno = eio ? EIO : ENOMEM;
      return -1;
    }
  return vdprintf (fd, fmt, ap);
}

int
dprintf (int fd, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  int r = some_dprintf (fd, fmt, ap);
  va_end (ap);
  return r;
}

int
__dprintf_chk (int fd, int flag, const char *fmt, ...)
{
  (void) flag;
  va_list ap;
  va_start (ap, fmt);
  int r = some_dprintf (fd, fmt, ap);
  va_end (ap);
  return r;
}

/* Whether PATH names fusectl where the command looks for it.  */
static int
fusectl_name (const char *path)
{
  size_t len = strlen (path);
  return (len >= 17 && strcmp (path + len - 17, "/fuse/connections") == 0)
         || strcmp (path, "/proc/fs") == 0;
}

/* statfs and statfs64 alike: both end in the same call of NAME.  */
static int
real_statfs (const char *name, const char *path, void *buf)
{
  if (fusectl_name (path) && unshared
      && (failing ("statfs-sigsys") || failing ("read-after-mount")
          || failing ("lost-early") || failing ("listing-as")))
    sigsys_self ();
  if (fusectl_name (path)
      && (failing ("statfs-fusectl")
          || (failing ("statfs-unshared") && unshared)))
    {
      errno = test_errno ();
      return -1;
    }
  return ((int (*) (const char *, void *)) dlsym (RTLD_NEXT, name)) (path,
                                                                      buf);
}

int
statfs (const char *path, struct statfs *buf)
{
  return real_statfs ("statfs", path, buf);
}

int
statfs64 (const char *path, struct statfs64 *buf)
{
  return real_statfs ("statfs64", path, buf);
}

/* The directory readdir-conns or readdir-proc fails, once opened, and
   with what.  */
static DIR *doomed;
static int doomed_errno;

DIR *
opendir (const char *path)
{
  DIR *d = ((DIR *(*) (const char *)) dlsym (RTLD_NEXT, "opendir")) (path);
  int eio = failing ("readdir-conns-eio");
  if (d != NULL
      && (((eio || failing ("readdir-conns")) && fusectl_name (path))
          || (failing ("readdir-proc") && strcmp (path, "/proc") == 0)))
    {
      doomed = d;
      doomed_errno = eio ? EIO : test_errno ();
    }
  return d;
}

/* readdir and readdir64 alike: both end in the same call of NAME.  */
static void *
real_readdir (const char *name, DIR *d)
{
  if (d != NULL && d == doomed)
    {
      doomed = NULL;
      errno = doomed_errno;
      return NULL;
    }
  return ((void *(*) (DIR *)) dlsym (RTLD_NEXT, name)) (d);
}

struct dirent *
readdir (DIR *d)
{
  return real_readdir ("readdir", d);
}

struct dirent64 *
readdir64 (DIR *d)
{
  return real_readdir ("readdir64", d);
}

/* open, openat and the names a build with _FILE_OFFSET_BITS=64 calls.  */
#define OPEN_AT(name)                                                   \
  int name (int dir, const char *path, int flags, ...)                  \
  {                                                                     \
    va_list ap;                                                         \
    va_start (ap, flags);                                               \
    mode_t mode = mode_arg (flags, ap);                                 \
    va_end (ap);                                                        \
    return real_open (#name, 1, dir, path, flags, mode);                \
  }
#define OPEN(name)                                                      \
  int name (const char *path, int flags, ...)                           \
  {                                                                     \
    va_list ap;                                                         \
    va_start (ap, flags);                                               \
    mode_t mode = mode_arg (flags, ap);                                 \
    va_end (ap);                                                        \
    return real_open (#name, 0, AT_FDCWD, path, flags, mode);           \
  }
OPEN_AT (openat)
OPEN_AT (openat64)
OPEN (open)
OPEN (open64)
