/* rseq-compat enable --system, disable --system: the shim in
   /etc/ld.so.preload, for every glibc program on the machine.
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

/* The loader reads /etc/ld.so.preload in every process, setuid ones
   included, and prints an error in each one whose entry it cannot
   load.  So the file is never written in place (a process starting
   meanwhile would read half of it): the new text goes to a file beside
   it, which is renamed over it.  Every rseq-compat entry is dropped
   before the new one goes in, so none is left that names a file the
   machine no longer has.  The entry names the preload layout (as
   rseq-compat run does), so glibc's loader expands $LIB itself, in
   the architecture-independent directory (RSEQ_COMPAT_PRELOADDIR)
   where each architecture's installation adds the name its own loader
   expands $LIB to: an i386 process, or an arm64 one under qemu-user,
   reads the same file as the native ones and must find its own copy
   there.  Only glibc's loader reads the file, so no musl name is
   needed there.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif

#include "common.h"
#include "bounded.h"
#include "fuse-check.h"
#include "procfs.h"
#include "renameat2.h"
#include "report.h"
#include "system.h"

#ifndef RSEQ_COMPAT_LIBDIR
# define RSEQ_COMPAT_LIBDIR "/usr/local/lib"
#endif
#ifndef RSEQ_COMPAT_GLIBC_LIB
# define RSEQ_COMPAT_GLIBC_LIB ""
#endif

#define ETC "/etc"
#define PRELOAD_FILE ETC "/ld.so.preload"
#ifndef RSEQ_COMPAT_PRELOADDIR
# define RSEQ_COMPAT_PRELOADDIR RSEQ_COMPAT_LIBDIR "/rseq-compat"
#endif
#define ENTRY RSEQ_COMPAT_PRELOADDIR "/$LIB/" SONAME
/* A file larger than this is no preload list anyone wrote.  */
#define MAX_PRELOAD_FILE (1 << 20)

static const char *verb;
/* disable --system --this-installation: only the entries that name
   this installation's copy of the shim (the package's prerm, before
   its files go; another architecture's copy, or make install's, stays
   loadable and stays named).  */
static int this_installation;

/* A line on standard error, after the command's name and KIND ("" or
   "warning: ").  */
static void
say (const char *kind, const char *fmt, va_list ap)
{
  fprintf (stderr, "rseq-compat: %s --system: %s", verb, kind);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
}

static void __attribute__ ((format (printf, 1, 2)))
complain (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  say ("", fmt, ap);
  va_end (ap);
}

static void __attribute__ ((format (printf, 1, 2)))
warn (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  say ("warning: ", fmt, ap);
  va_end (ap);
}

/* Why an edit of /etc may fail, and what to do, after E's words: what
   the admin meets most, a user not root, an immutable file, a mount on
   the file (thirty-fifth review: each said only strerror's words).  */
static const char *
errno_hint (int e)
{
  switch (e)
    {
    case EACCES:
      /* Root without CAP_DAC_OVERRIDE (a container that dropped it) was
         told to run it as root (thirty-seventh review).  */
      return geteuid () != 0 ? " (run it as root)"
             : " (rseq-compat runs as root without CAP_DAC_OVERRIDE, as in "
               "a container that dropped it: run it where root has its "
               "capabilities)";
    case EPERM:
      return geteuid () != 0 ? " (run it as root)"
             : " (" ETC " or " PRELOAD_FILE " may be immutable or "
               "append-only: lsattr -d " ETC " " PRELOAD_FILE " shows it, "
               "chattr -i -a lifts it)";
    case EBUSY:
      return " (something is mounted on it: findmnt " PRELOAD_FILE
             " shows what; edit the file mounted there)";
    case EROFS:
      return " (" ETC " is on a read-only file system)";
    default:
      return "";
    }
}

/* Nonzero if this machine's C library registers rseq by itself: it
   defines __rseq_size (glibc 2.35 and later in ld.so, or a glibc with
   the rseq-compat series).  Asked of libc.so.6's own scope, so that a
   shim already preloaded into this process does not answer.  */
#ifdef __GLIBC__
static int
libc_registers (void)
{
  void *h = dlopen ("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  if (h == NULL)
    return 0;
  int found = dlsym (h, "__rseq_size") != NULL;
  dlclose (h);
  return found;
}
#endif

/* complain, or warn where WARNING: a call of each, not one through a
   pointer, so that gcc and clang both check the format string (N4 of
   the 113th review: a bare pointer lost the check; clang
   checks none through a typedef that has the attribute).  */
#define SAY(warning, ...) \
  ((warning) ? warn (__VA_ARGS__) : complain (__VA_ARGS__))

/* Whether ST is root's and writable by no one else.  */
static int
root_alone (const struct stat *st)
{
  return st->st_uid == 0 && (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/* lstat of NAME that asks no FUSE server: a server may answer a
   GETATTR, a LOOKUP or an OPEN never, and the command would wait for
   it beyond SIGKILL (the 123rd review's 1), and the owner and mode it
   answers are whatever it chooses, so a user's FUSE mount (allow_other)
   over a directory of theirs showed root's 0755 to the walk (the
   123rd's 2).  NAME's last name is looked up in a directory that is
   not on FUSE (the walk's order), which the kernel answers alone, and
   what it names is asked for its device only (fuse_fd_here): a FUSE
   mount point there is told without its server.  NAME is also matched
   against the FUSE mount points of this mount namespace first
   (fuse_on_path), which tells a name under one before any lookup.  0,
   -1 with errno set, or 1 where NAME is on FUSE (or cannot be told from
   it without /proc/self/mountinfo).  */
static int
look_at (int dir, const char *name, struct stat *st, int *fdp);

static int
look (const char *name, struct stat *st)
{
  if (fuse_on_path ("/proc/self", name))
    return 1;
  int fd, rc = look_at (AT_FDCWD, name, st, &fd);
  if (fd >= 0)
    close (fd);
  return rc;
}

/* look, of NAME in DIR (a descriptor of a directory not on FUSE, or
   AT_FDCWD), with no check of the mount table first: the descriptor of
   what it names (O_PATH) in *FDP where 0 is returned, else -1.  A walk
   that holds DIR looks NAME up in that directory as it was when it was
   opened: a FUSE mount made since over it, or over a directory on the
   way to it, is not passed (the 124th review's 4: a walk that met a
   directory not root's looked the names after it up from "/" again, so
   that its owner's FUSE mount, made between two lookups, held the
   walk in its server's LOOKUP beyond SIGKILL).  */
static int
look_at (int dir, const char *name, struct stat *st, int *fdp)
{
  *fdp = openat (dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
  if (*fdp < 0)
    return -1;
  int rc = fuse_fd_here (*fdp);
  if (rc == 0)
    rc = fstat (*fdp, st);
  if (rc != 0)
    {
      int e = errno;
      close (*fdp);
      *fdp = -1;
      errno = e;
    }
  return rc;
}

/* What to do where /etc cannot be opened or walked (F9 of the 114th
   review: "Too many levels of symbolic links"
   named the cause alone).  */
#define ETC_FIX ETC " must be a directory, or a link to one, that root " \
  "owns; point the link at such a directory, or make " ETC " one"

/* The most links met on the way, as the kernel's limit.  */
#define MAX_LINKS 40

/* A walk that met a link at AT in TODO goes on with the link's TARGET
   (T bytes), then what followed the link; TODO has room for both (the
   callers check).  Returns the new place in TODO: its start.  */
static size_t
splice_link (char *todo, size_t at, const char *target, size_t t)
{
  size_t restlen = strlen (todo + at);
  memmove (todo + t + 1, todo + at, restlen + 1);
  memcpy (todo, target, t);
  todo[t] = '/';
  return 0;
}

/* procfs's f_type (linux/magic.h, which musl's compiler does not see).  */
#define PROC_FS_MAGIC 0x9fa0

/* Whether the loader's walk of the absolute PATH goes through a
   procfs, where /proc/self/... leads each process to files of its own
   (its working directory, its root, its descriptors): 1, 0, or -1
   where it cannot be told (a loop of links, a name too long).  Walked
   a component at a time from descriptors, as the kernel walks it, with
   its limit of 40 links (forty-ninth review: realpath of each leading
   part cost the cube of the depth, and followed /proc/self's links into
   the command's own directories, so that a link of one's own into
   /proc/self/cwd, or a procfs mounted in a chroot, passed).  */
static int
reaches_procfs (const char *path)
{
  char todo[2 * PATH_MAX + 2], target[PATH_MAX];
  if (strlen (path) >= sizeof todo / 2)
    return -1;
  strcpy (todo, path);
  int dir = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
  int links = 0, ret = 0;
  size_t at = 0;
  while (dir >= 0 && ret == 0)
    {
      struct statfs sf;
      /* FUSE's statfs, and its lookups, are its server's to answer (or
         not): the walk refuses FUSE itself when it gets there (look).  */
      if (fuse_fd_here (dir))
        break;
      if (fstatfs (dir, &sf) == 0 && sf.f_type == PROC_FS_MAGIC)
        {
          ret = 1;
          break;
        }
      while (todo[at] == '/')
        at++;
      if (todo[at] == '\0')
        break;
      size_t n = strcspn (todo + at, "/");
      char name[NAME_MAX + 1];
      if (n > NAME_MAX)
        {
          ret = -1;
          break;
        }
      memcpy (name, todo + at, n);
      name[n] = '\0';
      at += n;
      int fd = openat (dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
      struct stat st;
      if (fd >= 0 && fuse_fd_here (fd))
        {
          close (fd);
          break;
        }
      if (fd < 0 || fstat (fd, &st) != 0)
        {
          /* Nothing there: the loader opens nothing through it.  */
          if (fd >= 0)
            close (fd);
          break;
        }
      if (!S_ISLNK (st.st_mode))
        {
          close (dir);
          dir = fd;
          continue;
        }
      ssize_t t = readlinkat (fd, "", target, sizeof target - 1);
      close (fd);
      if (t <= 0 || ++links > 40
          || (size_t) t + strlen (todo + at) + 2 > sizeof todo)
        {
          ret = -1;
          break;
        }
      target[t] = '\0';
      at = splice_link (todo, at, target, t);
      if (target[0] == '/')
        {
          close (dir);
          dir = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        }
    }
  if (dir >= 0)
    close (dir);
  return dir < 0 && ret == 0 ? -1 : ret;
}

/* A path that walk_trusted walks, and its words.  */
struct walk
{
  /* The absolute path: ETC, or one of the shim's.  */
  const char *path;
  /* What whoever may change a directory on the way could do.  */
  const char *harm;
  /* What to do where the walk cannot go on.  */
  const char *fix;
  /* What to do where a name on the way is missing; NULL: FIX.  */
  const char *nowhere;
  /* The words after the commands or the fix: ", then enable again".  */
  const char *again;
  /* Warnings, not errors.  */
  int warning;
  /* What the path must end at: WANT_ANY, WANT_DIR, or WANT_SHIM, a
     regular file all may read, through directories all may search.  */
  int want;
};

enum { WANT_ANY, WANT_DIR, WANT_SHIM };

/* S escaped (info_escape) into the Nth of a few buffers: the paths a
   walk names come from links that whoever made them chose, and a
   newline in one split the message into lines of a forged look
   (review finding R4).  */
static const char *
esc (int n, const char *s)
{
  static char safe[4][4 * (2 * PATH_MAX + 2) + 1];
  return info_escape (s, safe[n], sizeof safe[n]);
}

/* Says (a warning where W->warning) that BAD, the first directory met
   that is not root's alone, may be changed by others, with its owner
   UID and MODE and the commands that fix it: LEAD before its name,
   WHERE after (how the walk met it).  */
static void
say_untrusted (const struct walk *w, const char *lead, const char *bad,
               const char *where, uid_t uid, mode_t mode)
{
  SAY (w->warning, "%s%s%s is %s (owner %ju, mode %03o): whoever may change "
       "it %s; make it root's and writable by root alone (chown 0:0 %s; "
       "chmod go-w %s)%s", lead, esc (2, bad), where,
       uid != 0 ? "not owned by root" : "writable by others than root",
       (uintmax_t) uid, (unsigned int) (mode & 07777), w->harm,
       esc (2, bad), esc (2, bad), w->again);
}

/* Says that FILE, a shim's file where a loader opens it, is not a
   regular file but what ST says: before whose it is, as the fix of a
   device is not to chown it (the 121st review's N2).  -1.  */
static int
not_regular (const char *file, const struct stat *st)
{
  complain ("%s is (or leads to) %s, not a regular file: a loader whose "
            "$LIB leads there %s in every program it starts; take it out, "
            "then enable again", esc (0, file),
            S_ISFIFO (st->st_mode) ? "a FIFO"
            : S_ISDIR (st->st_mode) ? "a directory" : "a device or socket",
            S_ISFIFO (st->st_mode) ? "would wait on it"
            : "would fail to load it");
  return -1;
}

/* " (on the way to what W's path resolves to)", escaped, where REAL is
   not that path, else "".  */
static const char *
on_the_way (const struct walk *w, const char *real)
{
  static char way[4 * (2 * PATH_MAX + 2) + 64];
  if (strcmp (real, w->path) == 0)
    return "";
  snprintf (way, sizeof way, " (on the way to what %s resolves to)",
            esc (1, w->path));
  return way;
}

/* The fix for a want of E: of descriptors, memory, processes or mount
   namespaces, a mountinfo over 64 MB, a call interrupted, or the
   list's child ended without the list (ECHILD: say_untold); NULL for
   any other E.  */
static const char *
want_fix (int e)
{
  switch (e)
    {
    case EMFILE:
      return "raise the limit on open files it runs with (ulimit -n), or "
             "close descriptors its caller leaves open";
    case ENFILE:
      return "close files: the system's table of open files is full";
    case ENOMEM:
      return "free memory, or raise the limit on its address space "
             "(ulimit -v)";
    case EFBIG:
      return "unmount some of this mount namespace's mounts: its "
             "mountinfo is over 64 MB";
    case EAGAIN:
      return "raise the limit on processes it runs under (a cgroup's "
             "pids.max; in a user namespace, ulimit -u), or end some of "
             "them";
    case EINTR:
      return "a signal cut a call short";
    case ECHILD:
      /* The OOM killer's is SIGKILL; no other end is a want of memory
         (the 153rd review's 2).  */
      return fuse_list_signal () == SIGKILL
             ? "look for the cause in the kernel's log (the OOM killer's: "
               "free memory)"
             : "look for the cause in the kernel's log";
    case ENOSPC:
      return "raise the limit on mount namespaces (sysctl "
             "user.max_mnt_namespaces) or on mounts (sysctl fs.mount-max)";
    }
  return NULL;
}

/* Says (a warning where WARNING) that REAL (WAY: where it was met)
   cannot be told from FUSE, and why, where what its verdict needed
   could not be had (fuse_unread_errno, or no /proc); AGAIN ends the
   fix.  -1 after saying so, else 0.  */
static int
say_untold (int warning, const char *real, const char *way,
            const char *again)
{
  int e = fuse_unread_errno ();
  if (e == 0 && access ("/proc/self/mountinfo", R_OK) != 0)
    e = errno;
  if (want_fix (e) != NULL)
    {
      /* The list's ECHILD is fuse-check.c's mark, not the call's
         error; another's is the call's.  */
      SAY (warning, "%s%s: cannot tell whether it is on a FUSE file "
           "system, whose server says what its owners and modes are and "
           "may never answer: what is mounted could not be read (%s); %s%s",
           esc (0, real), way,
           e == ECHILD && *fuse_list_end () != '\0' ? fuse_list_end ()
           : strerror (e), want_fix (e),
           again);
      return -1;
    }
  if (e != 0)
    {
      SAY (warning, "%s%s: cannot tell whether it is on a FUSE file "
           "system, whose server says what its owners and modes are and "
           "may never answer, without /proc/self/mountinfo (%s); mount "
           "procfs on /proc (mount -t proc proc /proc)%s", esc (0, real),
           way, strerror (e), again);
      return -1;
    }
  return 0;
}

/* Says (a warning where W->warning) that REAL, met on the way to
   what W's path resolves to, is on FUSE (look; HOW 1), or on an
   overlay that may have a layer on FUSE (HOW 2), or, where what the
   verdict needed could not be had (fuse_unread_errno: no /proc; too
   few descriptors), that nothing can be told from FUSE, and why: that
   said "/ is on a FUSE file system" (the 124th review's 6), and under
   a tiny RLIMIT_NOFILE that an overlay had a layer on FUSE (session
   64; the 143rd review's 1 and 2: a layer's lookup, and fdinfo without
   statx).  -1.  */
static int
say_fuse (const struct walk *w, const char *real, int how)
{
  const char *way = on_the_way (w, real);
  if (say_untold (w->warning, real, way, w->again) != 0)
    return -1;
  if (how == 2)
    {
      SAY (w->warning, "%s%s is on an overlay file system that may "
           "have a layer on FUSE (%s): a FUSE server says what its owners "
           "and modes are and may never answer, so whoever runs it %s; "
           "mount the overlay with absolute names of layers that lead, "
           "through no link, to no FUSE, or unmount what is named%s",
           esc (0, real), way, esc (2, fuse_overlay_why ()), w->harm,
           w->again);
      return -1;
    }
  SAY (w->warning, "%s%s is on a FUSE file system: its server, a "
       "process, says what its owners and modes are, and may never "
       "answer, so whoever runs it %s; unmount it, or point the link "
       "that leads there elsewhere%s", esc (0, real), way, w->harm,
       w->again);
  return -1;
}

/* Says that the shim W's path resolves to (REAL) may not be read, or
   DIR, a directory on the way to it, searched, by all users (MODE): the
   loader opens it in the programs of every user, and fails in those
   that may not, with an error printed in each (the 123rd review's 3:
   a shim of mode 0600, or in a directory of mode 0700, passed, as
   check_loads runs as root).  -1.  */
static int
say_private (const struct walk *w, const char *real, const char *dir,
             mode_t mode, int acl)
{
  int whole = strcmp (real, w->path) == 0;
  const char *bad = dir[0] != '\0' ? dir : real;
  const char *x = dir[0] != '\0' ? "x" : "r";
  complain ("%s%s%s%s is %s by all users (mode %03o%s): the loader of every "
            "program that may not %s it would fail to load the shim and "
            "print its error; %s%s %s%s", esc (0, bad),
            dir[0] != '\0' ? " (on the way to what "
            : whole ? "" : " (what ",
            dir[0] == '\0' && whole ? "" : esc (1, w->path),
            dir[0] == '\0' && whole ? "" : " resolves to)",
            dir[0] != '\0' ? "not searchable" : "not readable",
            (unsigned int) (mode & 07777),
            acl ? ", and an access ACL that takes it from some" : "",
            dir[0] != '\0' ? "search" : "read",
            acl ? "setfacl -b" : "chmod a+", acl ? "" : x, esc (2, bad),
            w->again);
  return -1;
}

/* Whether all users may PERM (S_IROTH: read, S_IXOTH: search) the file
   FD names (O_PATH), whose status is ST: 0; 1 where its mode takes it
   from its group or from others; 2 where an access ACL takes it from a
   user or group it names, or from the owning group.  A mode such as
   0604 or 0701 gives others what it takes from the group's members,
   and an ACL's entries are asked before the mode's other bits (the
   124th review's 7: both passed).  The ACL is read through /proc, the
   descriptor being O_PATH, on a file system the walk found not to be
   FUSE.  */
static int
denied (int fd, const struct stat *st, mode_t perm)
{
  mode_t both = perm | (perm << 3);
  if ((st->st_mode & both) != both)
    return 1;
  char path[64];
  static unsigned char acl[4 + 8 * 1024];
  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  ssize_t n = getxattr (path, "system.posix_acl_access", acl, sizeof acl);
  if (n < 0)
    return errno == ERANGE ? 2 : 0;
  /* Little-endian entries of a tag, a permission and an ID, after a
     version: those of a named user (2), the owning group (4), a named
     group (8) and the mask (0x10) must give PERM.  */
  unsigned int want = perm == S_IROTH ? 4 : 1;
  for (ssize_t at = 4; at + 8 <= n; at += 8)
    {
      unsigned int tag = acl[at] | (unsigned int) acl[at + 1] << 8;
      unsigned int p = acl[at + 2] | (unsigned int) acl[at + 3] << 8;
      if ((tag & 0x1e) != 0 && (p & want) == 0)
        return 2;
    }
  return 0;
}

/* Walks W's path a component at a time as the kernel does, following
   each link met (relative or absolute, MAX_LINKS at most): the path it
   resolves to in REAL (PATH_MAX bytes), the status of what that is in
   *END.  "/", every directory a name is looked up in on the way, those
   that a later ".." leaves included, and what the path ends at must be
   root's alone (root_alone): whoever may change one can rename what it
   holds and put a directory or a link of theirs in its place (the
   114th review's S1: /etc -> /srv/pub/x/../../real/etc, /srv/pub mode
   777, passed, as /srv/pub holds no link and is above neither /etc
   nor /srv/real/etc; D3 of the 113th and F2 of the 114th: the
   directories above what /etc resolves to, and those that hold a link
   met).  A link resolved through procfs (one that lies there, as
   /proc/fs/xfs/stat, or leads there) is refused: each process
   resolves /proc/self/..., and /dev/fd/... (a link into it), as itself,
   its own working directory, root or descriptors, and would not find
   what this one does (S2: /etc -> /proc/self/cwd, /etc -> /dev/fd/7,
   passed, as did /proc/self/root/...).  Returns 0, or -1 after saying
   (a warning where W->warning) what fails, its owner and mode, and
   what to do.  */
static int
walk_trusted (const struct walk *w, char *real, struct stat *end)
{
  char todo[2 * PATH_MAX + 2], target[PATH_MAX];
  /* The first directory met that is not root's alone, its owner and
     mode, and whether it holds a link met on the way.  */
  char bad[PATH_MAX] = "";
  uid_t baduid = 0;
  mode_t badmode = 0;
  int held = 0;
  /* The first directory met that not all may search, its mode, and
     whether its ACL is why (denied); then the same of the end.  */
  char private[PATH_MAX] = "";
  mode_t privmode = 0;
  int privacl = 0, endpriv = 0;
  int r;
  if (strlen (w->path) >= PATH_MAX)
    {
      SAY (w->warning, "%s: %s; %s%s", esc (0, w->path),
           strerror (ENAMETOOLONG),
           w->fix, w->again);
      return -1;
    }
  strcpy (todo, w->path);
  size_t at = 0, len = 0;
  int links = 0;
  /* REAL holds what is resolved so far, with no link in it: "" is /.
     DIR is the directory it names, held: each name is looked up in it
     (look_at), never from "/" again.  */
  real[0] = '\0';
  int dir;
  if ((r = look_at (AT_FDCWD, "/", end, &dir)) != 0)
    {
      if (r > 0)
        return say_fuse (w, "/", r);
      SAY (w->warning, "/: %s", strerror (errno));
      return -1;
    }
  /* Whether REAL's last name is a file, not DIR.  */
  int at_file = 0;
  if ((privacl = denied (dir, end, S_IXOTH)) != 0)
    {
      strcpy (private, "/");
      privmode = end->st_mode;
    }
  if (!root_alone (end))
    {
      strcpy (bad, "/");
      baduid = end->st_uid;
      badmode = end->st_mode;
    }
  for (;;)
    {
      while (todo[at] == '/')
        at++;
      if (todo[at] == '\0')
        break;
      size_t n = strcspn (todo + at, "/");
      if (n == 1 && todo[at] == '.')
        {
          at += n;
          continue;
        }
      if (n == 2 && todo[at] == '.' && todo[at + 1] == '.')
        {
          /* REAL has no link in it: its parent is the physical one,
             already walked, which DIR's ".." is, unless something was
             mounted on it since: the kernel then goes into what is
             mounted there.  */
          char *slash = strrchr (real, '/');
          len = slash != NULL ? (size_t) (slash - real) : 0;
          real[len] = '\0';
          at += n;
          int up = openat (dir, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
          int e = errno;
          close (dir);
          if (up < 0)
            {
              SAY (w->warning, "%s: %s", len == 0 ? "/" : esc (0, real),
                   strerror (e));
              return -1;
            }
          if ((r = fuse_fd_here (up)) != 0)
            {
              close (up);
              return say_fuse (w, len == 0 ? "/" : real, r);
            }
          dir = up;
          continue;
        }
      int e = 0, fd = -1;
      if (len + 1 + n >= PATH_MAX)
        e = ENAMETOOLONG;
      else
        {
          real[len] = '/';
          memcpy (real + len + 1, todo + at, n);
          real[len + 1 + n] = '\0';
          at += n;
          /* DIR is on no FUSE, so this lookup is the kernel's alone.  */
          if ((r = look_at (dir, real + len + 1, end, &fd)) > 0)
            {
              close (dir);
              return say_fuse (w, real, r);
            }
          if (r < 0)
            e = errno;
        }
      ssize_t t = 0;
      if (e == 0 && S_ISLNK (end->st_mode))
        {
          t = readlinkat (fd, "", target, sizeof target - 1);
          e = t < 0 ? errno : t == 0 ? ENOENT
              : ++links > MAX_LINKS ? ELOOP
              : (size_t) t + strlen (todo + at) + 2 > sizeof todo
              ? ENAMETOOLONG : 0;
        }
      /* Only the end may be other than a directory, and only where
         the path may end at a file (a name after it is looked up in it;
         the '/' that splice_link puts after a link's target is none).  */
      else if (e == 0 && !S_ISDIR (end->st_mode)
               && (w->want == WANT_DIR
                   || todo[at + strspn (todo + at, "/")] != '\0'))
        e = ENOTDIR;
      if (e != 0)
        {
          if (fd >= 0)
            close (fd);
          close (dir);
        }
      if (e != 0 && bad[0] != '\0')
        {
          /* A directory others may change, met before: they may have
             made what follows dangle, loop or be a file, so it is named
             with its fix, not the end's failure alone (review finding
             R3: "cannot open /etc", /srv/pub of mode 777 never
             named).  */
          static char lead[8 * (2 * PATH_MAX + 2) + 128];
          snprintf (lead, sizeof lead, "%s: %s (on the way to what %s "
                    "resolves to); ", esc (0, real), strerror (e),
                    esc (1, w->path));
          say_untrusted (w, lead, bad, ", met on the way,", baduid,
                         badmode);
          return -1;
        }
      if (e != 0)
        {
          /* A lookup that ran short of descriptors or memory says
             nothing of the link (the 146th review's 5: "a link in the
             preload tree must lead to what root alone may change").  */
          int want = e == EMFILE || e == ENFILE || e == ENOMEM;
          SAY (w->warning, "%s: %s (on the way to what %s resolves to); "
               "%s%s", esc (0, real), strerror (e), esc (1, w->path),
               want ? want_fix (e)
               : e == ENOENT && w->nowhere != NULL ? w->nowhere : w->fix,
               w->again);
          return -1;
        }
      if (!S_ISLNK (end->st_mode))
        {
          if (bad[0] == '\0' && !root_alone (end))
            {
              strcpy (bad, real);
              baduid = end->st_uid;
              badmode = end->st_mode;
            }
          if (private[0] == '\0' && S_ISDIR (end->st_mode)
              && (privacl = denied (fd, end, S_IXOTH)) != 0)
            {
              strcpy (private, real);
              privmode = end->st_mode;
            }
          if (!S_ISDIR (end->st_mode) && w->want == WANT_SHIM)
            endpriv = denied (fd, end, S_IROTH);
          len += 1 + n;
          if (S_ISDIR (end->st_mode))
            {
              close (dir);
              dir = fd;
            }
          else
            {
              close (fd);
              at_file = 1;
            }
          continue;
        }
      close (fd);
      target[t] = '\0';
      if (reaches_procfs (real) > 0)
        {
          close (dir);
          /* Escaped: a target made to move the terminal or forge a
             line of ours (thirty-seventh review).  */
          SAY (w->warning, "%s%s is a symbolic link to %s, resolved "
               "through procfs (/proc, where /dev/fd leads too): each "
               "process resolves such a link as itself (its own working "
               "directory, root or descriptors), so other processes "
               "would not find what this one does; %s%s", esc (0, real),
               on_the_way (w, real), esc (2, target), w->fix, w->again);
          return -1;
        }
      /* The directory that holds the link: whoever may write it may
         point the link elsewhere.  */
      real[len] = '\0';
      if (bad[0] != '\0' && strcmp (bad, len == 0 ? "/" : real) == 0)
        held = 1;
      at = splice_link (todo, at, target, t);
      if (target[0] == '/')
        {
          len = 0;
          close (dir);
          /* "/" was walked first, on no FUSE.  */
          if ((dir = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
            {
              SAY (w->warning, "/: %s", strerror (errno));
              return -1;
            }
        }
      real[len] = '\0';
    }
  if (len == 0)
    strcpy (real, "/");
  /* A path that ends in ".." ends above its last name: DIR.  */
  r = at_file ? 0 : fstat (dir, end);
  int e = errno;
  close (dir);
  if (r != 0)
    {
      SAY (w->warning, "%s: %s", esc (0, real), strerror (e));
      return -1;
    }
  if (w->want == WANT_SHIM && !S_ISREG (end->st_mode))
    return not_regular (w->path, end);
  if (bad[0] == '\0')
    {
      /* Whose first, as above; then whether all may reach it.  */
      if (w->want != WANT_SHIM)
        return 0;
      if (private[0] != '\0')
        return say_private (w, real, private, privmode, privacl == 2);
      if (endpriv != 0)
        return say_private (w, real, "", end->st_mode, endpriv == 2);
      return 0;
    }
  static char where[8 * (2 * PATH_MAX + 2) + 64];
  where[0] = '\0';
  const char *epath = esc (0, w->path), *ereal = esc (1, real);
  size_t blen = strlen (bad);
  int above = strcmp (bad, "/") == 0
              || (strncmp (real, bad, blen) == 0 && real[blen] == '/');
  int is_end = strcmp (bad, real) == 0;
  if (strcmp (real, w->path) == 0 && (is_end || above))
    /* The path as written, with no link in it: nothing to explain.  */
    where[0] = '\0';
  else if (is_end)
    snprintf (where, sizeof where, " (what %s resolves to)", epath);
  else if (held)
    snprintf (where, sizeof where, " (it holds a link met on the way to "
              "what %s resolves to, %s)", epath, ereal);
  else if (above)
    snprintf (where, sizeof where, " (above %s, what %s resolves to)",
              ereal, epath);
  else
    snprintf (where, sizeof where, " (on the way to what %s resolves to, "
              "%s)", epath, ereal);
  say_untrusted (w, "", bad, where, baduid, badmode);
  return -1;
}

/* /etc, walked (walk_trusted): whoever may change a directory on its
   way can replace /etc/ld.so.preload.  Returns 0, or -1 after saying (a
   warning where WARNING) what fails and what to do (AGAIN: the words
   after the commands).  */
static int
etc_trusted (int warning, const char *again)
{
  const struct walk w = {
    .path = ETC,
    .harm = "can replace " PRELOAD_FILE " and so put code into every "
            "process, setuid ones included, with the shim or without it",
    .fix = ETC_FIX, .again = again, .warning = warning, .want = WANT_DIR
  };
  char real[PATH_MAX];
  struct stat st;
  return walk_trusted (&w, real, &st);
}

/* Walks PATH, the shim's preload directory or a name under it
   (walk_trusted), with its status, as the entry resolves it, in
   *END.  TREE: PATH is one of the preload tree's (preload_tree_trusted),
   not the build's own, and where it leads nowhere the fix is the
   link's.  A link to nothing is refused, not passed as no name is:
   what it would name may be made later for a user, in a directory
   root's alone (/run/user/UID by logind, /home/NAME, /dev/pts/N), and
   the loader then loads theirs (the 121st review's N1, against the
   120th's F2 fix).  WANT: what it must end at (struct walk).  */
/* What the walks of the build's own paths say where they lead nowhere
   (cmd_system).  */
static char own_nowhere[PATH_MAX + 128];

static int
shim_walk_in (const char *path, int want, int tree, struct stat *end)
{
  const struct walk w = {
    .path = path,
    .harm = "can replace the shim that every program on the machine, "
            "setuid ones included, would load",
    /* Not "through no link into /proc": a loop of links or a file on
       the way is none (the 123rd review's 5); a link through procfs
       is told so in its own words.  */
    .fix = tree ? "a link in the preload tree must lead to what root "
                  "alone may change: take it out or point it there"
           : "the shim's files must be reached through directories that "
             "root alone may change, and through no link into /proc: "
             "install the shim at a system path (make install as root, "
             "or the librseq-compat1 package)",
    .nowhere = tree ? "a link in the preload tree that leads nowhere may "
                      "come to lead to what a user makes later (as "
                      "/run/user/UID or /home/NAME), which a loader whose "
                      "$LIB leads there would load: take it out or point "
                      "it at what is there, root's alone"
               : own_nowhere[0] != '\0' ? own_nowhere : NULL,
    .again = ", then enable again", .want = want
  };
  char real[PATH_MAX];
  return walk_trusted (&w, real, end);
}

/* shim_walk_in for the build's own paths.  */
static int
shim_walk (const char *path, int want, struct stat *end)
{
  return shim_walk_in (path, want, 0, end);
}

/* How many names deep under the preload directory the loader looks:
   a $LIB and the shim's file in it.  Stock glibc's $LIB is one name,
   its slibdir's last (lib64, lib); Debian's multiarch glibc makes it
   two (lib/x86_64-linux-gnu).  At the last name a loader opens the
   shim's file and nothing else, and deeper no loader's entry leads: a
   walk that read more refused what no loader reads (the 117th review's
   F2: with lib -> /opt/libs, a mode 1777
   /opt/libs/x86_64-linux-gnu/perl/5/tmp refused enable; the 118th's
   1-3: a mode 1777 tmp, a link to a directory or a dangling link
   beside the shim's file did).  */
#define PRELOAD_DEPTH 3

/* How many links to directories the walk of the preload tree goes
   into, in all: a bound on its work, not the kernel's 40 links of one
   lookup (the 117th review's F1: 41 aliases of lib/x86_64-linux-gnu,
   no loop among them, were refused as a loop).  A directory reached
   through several links is walked, and the links in it counted, once
   for each, so links that lead back up grow the walk as their number
   squared.  */
#define PRELOAD_LINKS 1024

/* glibc 2.17's <elf.h> has no DF_1_PIE.  */
#ifndef DF_1_PIE
# define DF_1_PIE 0x08000000
#endif

/* Reads LEN bytes of FD at OFF into BUF: 0, or -1 with errno set (0
   where the file ends first).  */
static int
read_at (int fd, void *buf, size_t len, uint64_t off)
{
  size_t got = 0;
  if (off > (uint64_t) INT64_MAX - len)
    {
      errno = 0;
      return -1;
    }
  while (got < len)
    {
      ssize_t n = pread (fd, (char *) buf + got, len - got,
                         (off_t) (off + got));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          if (n == 0)
            errno = 0;
          return -1;
        }
      got += (size_t) n;
    }
  return 0;
}

/* The SIZE-byte field at P, in the byte order MSB says.  */
static uint64_t
elf_field (const unsigned char *p, int size, int msb)
{
  uint64_t v = 0;
  for (int i = 0; i < size; i++)
    v = v << 8 | p[msb ? i : size - 1 - i];
  return v;
}

/* What keeps FD, a file a loader would open as a shared object, from
   being one, in words ("" where nothing does): what glibc's loader
   checks of any ELF file before it maps it, so that a foreign $LIB's
   own shim passes (its class and machine are that loader's).  A
   position-independent executable is ET_DYN too, but glibc 2.30 and
   later load none as a library (DF_1_PIE); an ET_DYN without a
   dynamic section is refused as "object file has no dynamic section"
   (the 123rd review's 3: a PIE, 18 bytes of a header and a byte order
   of 0 passed).  */
static const char *
elf_problem (int fd, int *err)
{
  unsigned char h[64];
  *err = 0;
  ssize_t n;
  while ((n = pread (fd, h, sizeof h, 0)) < 0 && errno == EINTR)
    ;
  if (n < 0)
    {
      *err = errno;
      return "";
    }
  if (n == 0)
    return "empty";
  if (n < SELFMAG || memcmp (h, ELFMAG, SELFMAG) != 0)
    return "no ELF file";
  if (n <= EI_VERSION)
    return "a truncated ELF file";
  int wide = h[EI_CLASS] == ELFCLASS64, msb = h[EI_DATA] == ELFDATA2MSB;
  if ((h[EI_CLASS] != ELFCLASS32 && !wide)
      || (h[EI_DATA] != ELFDATA2LSB && !msb) || h[EI_VERSION] != EV_CURRENT)
    return "an ELF file of a class, byte order or version no loader reads";
  size_t ehsize = wide ? 64 : 52, phsize = wide ? 56 : 32;
  if ((size_t) n < ehsize)
    return "a truncated ELF file";
  unsigned type = (unsigned) elf_field (h + 16, 2, msb);
  uint64_t version = elf_field (h + 20, 4, msb);
  uint64_t phoff = elf_field (h + (wide ? 32 : 28), wide ? 8 : 4, msb);
  size_t phentsize = (size_t) elf_field (h + (wide ? 54 : 42), 2, msb);
  size_t phnum = (size_t) elf_field (h + (wide ? 56 : 44), 2, msb);
  if (type == ET_EXEC)
    return "an ELF executable";
  if (type == ET_REL)
    return "an ELF relocatable object";
  if (type == ET_CORE)
    return "an ELF core file";
  if (type != ET_DYN)
    return "an ELF file of no type a loader maps";
  if (version != EV_CURRENT || phentsize != phsize)
    return "an ELF file of a class, byte order or version no loader reads";
  /* glibc's loaders take the System V ABI, version 0, or the GNU one,
     up to the version each knows: 1 (unique symbols) in all of them.  */
  if (!((h[EI_OSABI] == ELFOSABI_SYSV && h[EI_ABIVERSION] == 0)
        || (h[EI_OSABI] == ELFOSABI_GNU && h[EI_ABIVERSION] <= 1)))
    return "an ELF file of an OS ABI or ABI version glibc's loader refuses";
  for (int i = EI_PAD; i < EI_NIDENT; i++)
    if (h[i] != 0)
      return "an ELF file with nonzero padding in e_ident, which glibc's "
             "loader refuses";
  /* The dynamic section, as the loader finds it: at its address, in the
     loadable segment that maps it (the 124th review's 5: it was read at
     its file offset; a PT_DYNAMIC of no bytes in the file, as objcopy
     --only-keep-debug leaves, is none).  */
  uint64_t dynaddr = 0, dynsize = 0, dynoff = 0;
  int dynamic = 0, loads = 0, mapped = 0;
  long ps = sysconf (_SC_PAGESIZE);
  uint64_t pagesize = ps >= 4096 ? (uint64_t) ps : 4096;
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < phnum; i++)
      {
        unsigned char ph[56];
        if (read_at (fd, ph, phsize, phoff + i * phsize) != 0)
          {
            *err = errno;
            return "a truncated ELF file";
          }
        int w8 = wide ? 8 : 4;
        uint64_t type = elf_field (ph, 4, msb);
        uint64_t off = elf_field (ph + (wide ? 8 : 4), w8, msb);
        uint64_t vaddr = elf_field (ph + (wide ? 16 : 8), w8, msb);
        uint64_t filesz = elf_field (ph + (wide ? 32 : 16), w8, msb);
        uint64_t align = elf_field (ph + (wide ? 48 : 28), w8, msb);
        /* glibc 2.34 skips a PT_DYNAMIC of no bytes in the file (the
           126th review's 4: refusing it refused what it loads).  */
        if (pass == 0 && type == PT_DYNAMIC && filesz != 0)
          {
            dynamic = 1;
            dynaddr = vaddr;
            dynsize = filesz;
          }
        else if (pass == 0 && type == PT_LOAD)
          {
            loads++;
            /* As glibc checks, at this machine's page size, which its
               loaders use (64 KiB on some arm64 and ppc64 kernels: the
               125th review's E).  */
            if ((align & (pagesize - 1)) != 0
                || ((vaddr - off) & (align - 1)) != 0)
              return "an ELF file with a loadable segment glibc's loader "
                     "refuses (its alignment)";
          }
        else if (pass == 1 && type == PT_LOAD && !mapped
                 && dynaddr >= vaddr && dynaddr - vaddr <= filesz
                 && dynsize <= filesz - (dynaddr - vaddr))
          {
            mapped = 1;
            dynoff = off + (dynaddr - vaddr);
          }
      }
  if (loads == 0)
    return "an ELF file with no loadable segment";
  if (!dynamic)
    return "an ELF file with no dynamic section";
  if (!mapped)
    return "an ELF file whose dynamic section no loadable segment maps "
           "from the file";
  size_t dynent = wide ? 16 : 8, tag = wide ? 8 : 4;
  /* A bound on the work: a real one is a few hundred bytes.  */
  if (dynsize > (1u << 20))
    dynsize = 1u << 20;
  for (uint64_t at = 0; at + dynent <= dynsize; at += dynent)
    {
      unsigned char d[16];
      if (read_at (fd, d, dynent, dynoff + at) != 0)
        {
          *err = errno;
          return "a truncated ELF file";
        }
      uint64_t t = elf_field (d, tag, msb), v = elf_field (d + tag, tag, msb);
      if (t == DT_NULL)
        break;
      if (t == DT_FLAGS_1 && (v & DF_1_PIE) != 0)
        return "a position-independent executable (no glibc since 2.30 "
               "loads one as a library)";
    }
  return NULL;
}

/* Says, where FILE (a regular file whose status the walk gave in *ST)
   is no ELF shared object (elf_problem), that a loader would fail to
   load it: an empty or foreign file there makes every program of that
   $LIB print the loader's error, as a device there would (the 122nd
   review's 3: an empty file passed).  0, or -1 after saying why.  */
static int
not_shared_object (const char *file, const struct stat *st)
{
  /* Root's alone and on no FUSE (the walk), so no one can swap it while
     it is read and no server holds the open; O_NONBLOCK all the same,
     as no open here may wait.  */
  int fd = open (file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  struct stat now;
  const char *why = NULL;
  int e = 0;
  if (fd < 0 || fstat (fd, &now) != 0)
    e = errno;
  else if (now.st_dev != st->st_dev || now.st_ino != st->st_ino)
    e = ESTALE;
  else
    why = elf_problem (fd, &e);
  if (fd >= 0)
    close (fd);
  if (e != 0)
    {
      complain ("cannot read %s: %s; enable again once it can be read",
                esc (0, file), strerror (e));
      return -1;
    }
  if (why == NULL)
    return 0;
  complain ("%s is (or leads to) %s, not a shared object: a loader whose "
            "$LIB leads there would fail to load it in every program it "
            "starts; take it out, then enable again", esc (0, file), why);
  return -1;
}

/* The directories under DIR, DEPTH levels below the preload directory,
   and the shim's file in each, walked (shim_walk), and so on down.  The
   entry names the preload directory's $LIB, which each loader expands
   to its own name, not this build's (another glibc, a foreign
   architecture's loader, a directory literally named $LIB): whoever
   may change any of them, or the file it holds, puts code into the
   processes of that loader (the 114th review's S4: only this build's
   $LIB was checked, so a lib64/ of mode 777 passed).  A link is walked
   to its end, and a link to a directory is gone into as a directory
   is: the loader looks names up in what it leads to (review
   finding R1: only the link and its shim's file were checked, so with
   lib -> /opt/x, /opt/x/x86_64-linux-gnu of mode 777 passed).  Depth
   ends the descent where the loader's lookups end (PRELOAD_DEPTH), where
   only the shim's file is walked, and *LINKS, the links to directories
   gone into so far, bounds the work (PRELOAD_LINKS).  The shim's file
   is looked up by its name, as the loader opens it, not told from the
   names readdir gives: a file system that folds case (ext4's and
   tmpfs's casefold) opens LIBRSEQ-COMPAT.SO.1 for it (the 119th
   review's R1: a link of that name to a file others may write
   passed).  A shim's file that is not a regular file (a FIFO, where
   the loader would wait in every program of that $LIB, a directory, a
   device) is refused, and said so before whose it is: the fix of a
   device is not to chown it (the 120th review's F1, the 121st's N2).
   0, or -1 after saying why.  */
static int
preload_tree_trusted (const char *dir, int depth, int *links)
{
  char file[PATH_MAX];
  struct stat fst;
  if (snprintf (file, sizeof file, "%s/%s", dir, SONAME)
      >= (int) sizeof file)
    {
      complain ("%s/%s: %s", esc (0, dir), SONAME, strerror (ENAMETOOLONG));
      return -1;
    }
  /* On FUSE (1), found: the walk refuses it; where that could not be
     told, not found nor missing: said so (the 144th review's 2: taken
     for found, a missing file was then said to be a link that leads
     nowhere).  */
  int l = look (file, &fst), found = l >= 0;
  if (l == 1 && say_untold (0, file, "", ", then enable again") != 0)
    return -1;
  if (!found && errno != ENOENT)
    {
      complain ("cannot look up %s: %s; make it readable by root, then "
                "enable again", esc (0, file), strerror (errno));
      return -1;
    }
  /* No $LIB is empty: the loader opens no shim's file at depth 1.  The
     walk follows it as the kernel does, and tells its type before whose
     it is, and a link through procfs for what it is (the 123rd review's
     5: a link there to /proc/self/cwd was called a directory); it never
     stats or opens a name on FUSE (the 123rd's 1: the open of a file
     there waited for its server).  */
  if (found
      && (shim_walk_in (file, depth > 1 ? WANT_SHIM : WANT_ANY, 1, &fst) != 0
          || (depth > 1 && not_shared_object (file, &fst) != 0)))
    return -1;
  if (depth == PRELOAD_DEPTH)
    return 0;

  DIR *d = opendir (dir);
  if (d == NULL)
    {
      complain ("cannot read %s: %s", esc (0, dir), strerror (errno));
      return -1;
    }
  int rc = 0;
  struct dirent *e;
  while (rc == 0 && (errno = 0, e = readdir (d)) != NULL)
    {
      if (strcmp (e->d_name, ".") == 0 || strcmp (e->d_name, "..") == 0)
        continue;
      char path[PATH_MAX];
      struct stat own = { 0 }, st;
      int r = 0;
      if (snprintf (path, sizeof path, "%s/%s", dir, e->d_name)
          >= (int) sizeof path || (r = look (path, &own)) < 0)
        {
          int err = errno != 0 ? errno : ENAMETOOLONG;
          complain ("%s/%s: %s", esc (0, dir), esc (1, e->d_name),
                    strerror (err));
          rc = -1;
        }
      else if (r == 1 && say_untold (0, path, "", ", then enable again")
               != 0)
        rc = -1;
      /* Files: the shim's was walked above, by its name, and no loader
         opens another here.  A link or a directory is walked (the
         shim's file again where it is one) and gone into.  */
      else if (r == 0 && !S_ISDIR (own.st_mode) && !S_ISLNK (own.st_mode))
        continue;
      /* On FUSE (r 1): refused there.  */
      else if (shim_walk_in (path, WANT_ANY, 1, &st) != 0)
        rc = -1;
      else if (!S_ISDIR (st.st_mode))
        continue;
      else if (S_ISLNK (own.st_mode) && ++*links > PRELOAD_LINKS)
        {
          complain ("%s: more than %d links to directories to walk under "
                    "%s, %d names deep (a directory reached through "
                    "several links is walked once for each); take out "
                    "those the loader does not need, then enable again",
                    esc (0, path), PRELOAD_LINKS, RSEQ_COMPAT_PRELOADDIR,
                    PRELOAD_DEPTH);
          rc = -1;
        }
      else
        rc = preload_tree_trusted (path, depth + 1, links);
    }
  if (rc == 0 && e == NULL && errno != 0)
    {
      complain ("cannot read %s: %s", esc (0, dir), strerror (errno));
      rc = -1;
    }
  closedir (d);
  return rc;
}

/* Loads the shim through ENTRY into a fresh copy of this program: the
   loader must take it without a word about it, and the program must
   run.  */
static int
check_loads (void)
{
  int fds[2];
  if (pipe2 (fds, O_CLOEXEC) != 0)
    {
      complain ("pipe: %s", strerror (errno));
      return -1;
    }
  /* Its status is wanted, whatever the caller set: SIGCHLD ignored
     reaps it unasked, and waitpid fails (the 130th review).  */
  struct sigaction dfl = { .sa_handler = SIG_DFL }, oldchld;
  sigemptyset (&dfl.sa_mask);
  sigaction (SIGCHLD, &dfl, &oldchld);
  pid_t parent = getpid (), pid = fork ();
  if (pid < 0)
    {
      complain ("fork: %s", strerror (errno));
      sigaction (SIGCHLD, &oldchld, NULL);
      close (fds[0]);
      close (fds[1]);
      return -1;
    }
  if (pid == 0)
    {
      /* Ends with the process that waits for it: one given up on by
         bounded_run and killed leaves no program running (the 130th
         review's 9).  */
      if (prctl (PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid () != parent)
        _exit (127);
      sigaction (SIGCHLD, &oldchld, NULL);
      int null = open ("/dev/null", O_WRONLY);
      if (null < 0 || dup2 (null, 1) < 0 || dup2 (fds[1], 2) < 0
          || setenv ("LD_PRELOAD", ENTRY, 1) != 0)
        _exit (127);
      execl ("/proc/self/exe", "rseq-compat", "--version", (char *) NULL);
      _exit (127);
    }
  close (fds[1]);
  /* Read to the end: a child left writing to a closed pipe dies of
     SIGPIPE, which read as the shim's failure when the entries already
     in /etc/ld.so.preload made the loader say more than the pipe holds
     (review: 700 missing libraries).  The loader's complaint about
     LD_PRELOAD is kept wherever it comes; otherwise the first words.  */
  char out[512], chunk[4096], line[512];
  static const char token[] = "LD_PRELOAD";
  size_t used = 0, lused = 0, matched = 0;
  int line_has = 0, have_line = 0;
  ssize_t n;
  while ((n = read (fds[0], chunk, sizeof chunk)) > 0
         || (n < 0 && errno == EINTR))
    for (ssize_t i = 0; i < n && !have_line; i++)
      {
        char c = chunk[i];
        if (used < sizeof out - 1)
          out[used++] = c;
        if (c == '\n')
          {
            have_line = line_has;
            if (!have_line)
              lused = matched = 0;
            continue;
          }
        if (lused < sizeof line - 1)
          line[lused++] = c;
        /* TOKEN has no proper prefix that is also its suffix: a
           mismatch restarts at its first letter.  */
        matched = c == token[matched] ? matched + 1 : c == token[0];
        if (matched == sizeof token - 1)
          {
            line_has = 1;
            matched = 0;
          }
      }
  close (fds[0]);
  out[used] = '\0';
  have_line = have_line || line_has;
  if (have_line)
    {
      line[lused] = '\0';
      snprintf (out, sizeof out, "%s", line);
      used = strlen (out);
    }
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      {
        complain ("waitpid: %s", strerror (errno));
        sigaction (SIGCHLD, &oldchld, NULL);
        return -1;
      }
  sigaction (SIGCHLD, &oldchld, NULL);
  /* The loader's complaints about entries already in
     /etc/ld.so.preload are not the shim's: only one about LD_PRELOAD
     is.  */
  if (WIFEXITED (status) && WEXITSTATUS (status) == 0 && !have_line)
    return 0;
  if (used > 0 && out[used - 1] == '\n')
    out[used - 1] = '\0';
  complain ("a program with %s preloaded %s%s%s; /etc/ld.so.preload is "
            "left as it was", ENTRY,
            !WIFEXITED (status) ? "was killed by a signal"
            : WEXITSTATUS (status) != 0 ? "failed" : "printed an error",
            used > 0 ? ": " : "", out);
  return -1;
}

/* The lock that serializes enable and disable (and the package's
   prerm, which runs disable): a file in /run, where only root can
   create one.  It was a flock on /etc itself, which any user can open
   and hold locked, stalling every enable, disable and package removal
   for as long as they liked (review).  Where that file cannot be made
   (no /run in a chroot, a read-only one) /etc is locked as before, but
   given up after LOCK_WAIT seconds with a message.  */
#define RUN_LOCK "/run/rseq-compat.lock"
#define LOCK_WAIT 30

static int
take_lock (void)
{
  /* Read-only is enough for flock, and opens one that exists on a
     read-only /run.  */
  int fd = open (RUN_LOCK, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
                 0600);
  if (fd >= 0)
    {
      struct stat st;
      /* Nobody but root may hold it: a file someone else made or can
         open (a misconfigured /run) is not taken.  */
      if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_uid != 0
          || (st.st_mode & 077) != 0)
        {
          complain (RUN_LOCK " is not a regular file that only root can "
                    "open; remove it and try again");
          close (fd);
          return -1;
        }
      if (flock (fd, LOCK_EX) != 0)
        {
          complain ("cannot lock " RUN_LOCK ": %s", strerror (errno));
          close (fd);
          return -1;
        }
      return fd;
    }
  /* No /run, or one that cannot take the file (read-only, not a
     directory: sixteenth review): /etc, as before.  */
  int run_errno = errno;
  /* Only where no root can make the file (every root then falls back
     alike): another failure (a full /run) is said, not worked around
     with a lock that another run may not take.  */
  if (run_errno != ENOENT && run_errno != ENOTDIR && run_errno != EROFS
      && run_errno != EACCES && run_errno != EPERM)
    {
      complain ("cannot open " RUN_LOCK ": %s", strerror (run_errno));
      return -1;
    }
  fd = open (ETC, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int e = errno;
  /* The walk names a directory on the way that others may change, as
     cmd_system's open of /etc does (review finding R3).  */
  if (fd < 0 && etc_trusted (0, strcmp (verb, "enable") == 0
                                ? ", then enable again" : "") != 0)
    return -1;
  if (fd < 0)
    {
      complain ("cannot open " ETC ": %s%s", strerror (e),
                e == ELOOP || e == ENOENT || e == ENOTDIR
                ? "; " ETC_FIX : "");
      return -1;
    }
  for (int i = 0; flock (fd, LOCK_EX | LOCK_NB) != 0; i++)
    {
      if (errno != EWOULDBLOCK || i == LOCK_WAIT * 10)
        {
          complain ("cannot lock " ETC " (" RUN_LOCK ": %s): %s",
                    strerror (run_errno), errno == EWOULDBLOCK
                    ? "another process has held a lock on it for "
                      "30 seconds (another rseq-compat, or any process "
                      "that opened /etc: lslocks names it)"
                    : strerror (errno));
          close (fd);
          return -1;
        }
      usleep (100000);
    }
  return fd;
}

/* What every name of the shim's file holds.  */
#define SHIM_STEM "librseq-compat"

/* Whether the file open at FD holds SHIM_STEM anywhere: for a file the
   commands do not parse (too large), whether it could name the shim
   at all.  */
static int
mentions_shim (int fd)
{
  char buf[65536 + sizeof SHIM_STEM];
  size_t keep = 0;
  ssize_t n;
  while ((n = read (fd, buf + keep, sizeof buf - keep)) > 0
         || (n < 0 && errno == EINTR))
    {
      if (n < 0)
        continue;
      size_t have = keep + n;
      if (memmem (buf, have, SHIM_STEM, strlen (SHIM_STEM)) != NULL)
        return 1;
      keep = have < strlen (SHIM_STEM) ? have : strlen (SHIM_STEM) - 1;
      memmove (buf, buf + have - keep, keep);
    }
  /* Unreadable: it may name the shim.  */
  return n < 0;
}

/* /etc/ld.so.preload's text (empty if there is none) in *TEXT, its
   mode and owner in *ST (st_mode 0: no file).  A symbolic link is
   never replaced (the file it names would stay as it was): enable
   refuses it; disable reads through it, with *LINK set to what it
   names, so that it can tell whether there is anything to take out.
   LINK is NULL for enable.  */
static int
read_preload (char **text, struct stat *st, char **link)
{
  memset (st, 0, sizeof *st);
  *text = NULL;
  int fd = open (PRELOAD_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == ELOOP && link != NULL)
    {
      char target[PATH_MAX];
      ssize_t n = readlink (PRELOAD_FILE, target, sizeof target - 1);
      target[n > 0 ? n : 0] = '\0';
      *link = strdup (n > 0 ? target : "?");
      fd = open (PRELOAD_FILE, O_RDONLY | O_CLOEXEC);
      if (fd < 0 && errno == ENOENT)
        {
          /* A dangling link: the loader reads nothing through it.  */
          *text = strdup ("");
          return *text != NULL && *link != NULL ? 0 : -1;
        }
    }
  if (fd < 0 && errno == ENOENT)
    {
      *text = strdup ("");
      return *text != NULL ? 0 : -1;
    }
  /* The package's prerm must not stop a removal over a file from which
     the loader takes no entry: a loop of links, a directory, a device
     (its size is 0 to the loader).  */
  if (fd < 0 && errno == ELOOP && link != NULL && this_installation)
    {
      *text = strdup ("");
      return *text != NULL ? 0 : -1;
    }
  if (fd < 0)
    {
      complain (errno == ELOOP
                ? "%s is a symbolic link; replacing it would not change "
                  "its target: edit the file it names by hand"
                : "%s: %s%s", PRELOAD_FILE, strerror (errno),
                errno_hint (errno));
      return -1;
    }
  if (fstat (fd, st) != 0)
    {
      complain ("%s: %s", PRELOAD_FILE, strerror (errno));
      close (fd);
      return -1;
    }
  if (!S_ISREG (st->st_mode) && this_installation)
    {
      close (fd);
      memset (st, 0, sizeof *st);
      *text = strdup ("");
      return *text != NULL ? 0 : -1;
    }
  if (!S_ISREG (st->st_mode) || st->st_size > MAX_PRELOAD_FILE)
    {
      int ours = this_installation && mentions_shim (fd);
      close (fd);
      if (this_installation && !ours)
        {
          memset (st, 0, sizeof *st);
          *text = strdup ("");
          return *text != NULL ? 0 : -1;
        }
      complain ("%s is %s; edit it by hand", PRELOAD_FILE,
                !S_ISREG (st->st_mode) ? "not a regular file"
                : "too large to be a preload list");
      return -1;
    }
  *text = malloc (st->st_size + 1);
  size_t used = 0;
  ssize_t n = 0;
  while (*text != NULL && used < (size_t) st->st_size
         && ((n = read (fd, *text + used, st->st_size - used)) > 0
             || (n < 0 && errno == EINTR)))
    if (n > 0)
      used += n;
  close (fd);
  /* A file that shrank while it was read was changed by someone who
     does not take the lock: nothing read can be trusted.  */
  if (*text != NULL && n == 0 && used < (size_t) st->st_size)
    {
      complain ("%s changed while it was read; try again", PRELOAD_FILE);
      free (*text);
      return -1;
    }
  if (*text == NULL || n < 0)
    {
      complain ("cannot read %s: %s", PRELOAD_FILE, strerror (errno));
      free (*text);
      return -1;
    }
  (*text)[used] = '\0';
  if (strlen (*text) != used)
    {
      int ours = !this_installation
                 || memmem (*text, used, SHIM_STEM, strlen (SHIM_STEM)) != NULL;
      free (*text);
      if (!ours)
        {
          memset (st, 0, sizeof *st);
          *text = strdup ("");
          return *text != NULL ? 0 : -1;
        }
      complain ("%s holds a NUL byte; edit it by hand", PRELOAD_FILE);
      return -1;
    }
  return 0;
}

/* Whoever may write /etc/ld.so.preload (ST; st_mode 0: none), or
   /etc or a directory above it, puts code into every process, setuid
   ones included, shim or not: enable, which vouches for no library
   such people could change, does not write its entry into such a file
   either (112th review, R1: it did, and kept the file's mode and owner).
   A file with other names (hard links) is split from them by the
   replacement, which leaves them with the old text (R2).  With REFUSE
   (enable, about to write): -1 after saying why and what to do.
   Otherwise a warning, and 0: disable, whose edit only takes code out,
   after its replacement (REPLACED; GONE: the file held nothing else
   and is removed); enable with nothing to write (neither).  The
   113th review: disable said nothing of an /etc others
   may write (L5), enable warned of the other names of a file it did
   not replace (N1), and disable told how to fix a file it had just
   removed (N2).  */
static int
preload_trusted (const struct stat *st, int refuse, int replaced, int gone)
{
  int bad = 0;
  if (st->st_mode != 0 && !root_alone (st))
    {
      const char *how = st->st_uid != 0 ? "not owned by root"
                        : "writable by others than root";
      if (gone)
        warn ("%s was %s: whoever could write it could put code into "
              "every process, setuid ones included; it held nothing else "
              "and is removed, so it needs no fix (a new one must be "
              "root's and writable by root alone)", PRELOAD_FILE, how);
      else
        SAY (!refuse, "%s is %s: whoever may write it can put code into "
             "every process, setuid ones included, with the shim or "
             "without it; make it root's and writable by root alone "
             "(chown 0:0 %s; chmod go-w %s)%s", PRELOAD_FILE, how,
             PRELOAD_FILE, PRELOAD_FILE,
             refuse ? ", then enable again" : "");
      bad = 1;
    }
  if (st->st_mode != 0 && st->st_nlink > 1 && (refuse || replaced))
    {
      if (refuse)
        complain ("%s has %ju names (hard links): replacing it would "
                  "leave the others with its old text; find them (find / "
                  "-xdev -samefile %s), remove them, then enable again, "
                  "or edit the file by hand", PRELOAD_FILE,
                  (uintmax_t) st->st_nlink, PRELOAD_FILE);
      else
        warn ("%s had %ju names (hard links): the others keep its old "
              "text; find them (find / -xdev -samefile ...) and remove "
              "them", PRELOAD_FILE, (uintmax_t) st->st_nlink);
      bad = 1;
    }
  /* Refused for one cause, the others wait for the next try.  */
  if ((!refuse || !bad)
      && etc_trusted (!refuse, refuse ? ", then enable again" : "") != 0)
    bad = 1;
  return refuse && bad ? -1 : 0;
}

/* Whether an entry names a copy of the shim, wherever it lies.  */
static int
is_shim_entry (const char *tok, size_t len)
{
  static const char *const names[] = { SONAME, "librseq-compat.so" };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    {
      size_t n = strlen (names[i]);
      if (len >= n && memcmp (tok + len - n, names[i], n) == 0
          && (len == n || tok[len - n - 1] == '/'))
        return 1;
    }
  return 0;
}

/* Whether this machine's glibc loader reads dynamic string tokens as
   glibc before 2.28 did: $NAME only where '/' or the end follows
   (elf/dl-load.c, is_dst; since 2.28 anything but a letter, a digit or
   '_' ends it).  forty-seventh review: read the newer way, an entry
   "$LIB-x" that glibc 2.17 opens as it stands was expanded.  */
static int
old_dst_rule (void)
{
#ifdef __GLIBC__
  static int old = -1;
  if (old < 0)
    {
      unsigned int major = 0, minor = 0;
      old = sscanf (gnu_get_libc_version (), "%u.%u", &major, &minor) == 2
            && major == 2 && minor < 28;
    }
  return old;
#else
  return 0;
#endif
}

/* The length of the dynamic string token NAME ("LIB") at P, which has
   LEFT bytes, as $NAME or ${NAME}, by this machine's loader's rule
   (old_dst_rule); 0 where there is none.  */
static size_t
dst_at (const char *p, size_t left, const char *name)
{
  size_t n = strlen (name);
  if (left >= n + 3 && p[0] == '$' && p[1] == '{'
      && memcmp (p + 2, name, n) == 0 && p[n + 2] == '}')
    return n + 3;
  if (left < n + 1 || p[0] != '$' || memcmp (p + 1, name, n) != 0)
    return 0;
  if (left == n + 1)
    return n + 1;
  char next = p[n + 1];
  if (old_dst_rule ())
    return next == '/' ? n + 1 : 0;
  return next == '_' || (next >= '0' && next <= '9')
         || ((next | 0x20) >= 'a' && (next | 0x20) <= 'z') ? 0 : n + 1;
}

/* The file an entry names, as this architecture's glibc loader opens
   it: $LIB and ${LIB} expanded, symbolic links resolved.  NULL where
   it names nothing.  */
static char *
entry_file (const char *tok, size_t len)
{
  const char *lib = RSEQ_COMPAT_GLIBC_LIB;
  char buf[PATH_MAX];
  size_t o = 0;
  for (size_t i = 0; i < len;)
    {
      size_t skip = dst_at (tok + i, len - i, "LIB");
      const char *piece = skip > 0 ? lib : tok + i;
      size_t n = skip > 0 ? strlen (lib) : 1;
      if (o + n >= sizeof buf)
        return NULL;
      memcpy (buf + o, piece, n);
      o += n;
      i += skip > 0 ? skip : 1;
    }
  buf[o] = '\0';
  /* A name without a slash is looked for in the library path, where
     this installation's directory is the one that matters here.  */
  if (memchr (buf, '/', o) == NULL)
    {
      char path[PATH_MAX];
      if (snprintf (path, sizeof path, "%s/%s", RSEQ_COMPAT_LIBDIR, buf)
          >= (int) sizeof path)
        return NULL;
      return realpath (path, NULL);
    }
  return realpath (buf, NULL);
}

/* Whether an entry names this installation's copy of the shim (its
   glibc build, or its musl build), however it is spelled: /lib for
   /usr/lib, the preload layout, a bare file name the loader finds in
   the library directory, a link of one's own of any name.  */
static int
names_this_installation (const char *tok, size_t len)
{
  static char *own[2];
  static int known;
  if (!known)
    {
      own[0] = realpath (RSEQ_COMPAT_LIBDIR "/" SONAME, NULL);
      own[1] = realpath (RSEQ_COMPAT_LIBDIR "/rseq-compat/musl/" SONAME,
                         NULL);
      known = 1;
    }
  char *file = entry_file (tok, len);
  int ours = file != NULL
             && ((own[0] != NULL && strcmp (file, own[0]) == 0)
                 || (own[1] != NULL && strcmp (file, own[1]) == 0));
  free (file);
  return ours;
}

/* Whether an absolute entry leads to a copy of the shim under another
   name: a symbolic link, a hard link or a copy, which the loader loads
   as the shim all the same (forty-sixth review: a plain disable left
   /usr/local/lib/libmine.so, a link to the shim, and said "not
   enabled"; forty-seventh: a hard link, a copy).  A copy is told by its
   DT_SONAME, the name the loader knows it by (forty-eighth review: by a
   symbol of the shim's, a library of the administrator's that carries
   the shim's archive was taken out).  Judged by their own names alone,
   as the loader's search cannot be followed from here: a bare name,
   found through ld.so.cache and the default directories (forty-seventh
   review: looked for in the installation's library directory, an entry
   the loader took elsewhere was taken out), a relative one, resolved
   from each process's working directory, one that reaches /proc,
   which each process resolves as itself (/proc/self/cwd/...:
   forty-eighth review), and one with a dynamic string token: the
   loader's $PLATFORM may come from the CPU rather than the kernel, and
   its $LIB from its own configuration, not this build's (forty-ninth
   review: a command built elsewhere, as the portable one is, or for
   musl, expanded it otherwise and took out an entry the loader reads
   as another library).  */
static int
resolves_to_shim (const char *tok, size_t len)
{
  if (len == 0 || len >= PATH_MAX || tok[0] != '/'
      || memchr (tok, '$', len) != NULL)
    return 0;
  char path[PATH_MAX];
  memcpy (path, tok, len);
  path[len] = '\0';
  if (reaches_procfs (path) != 0)
    return 0;
  char *file = realpath (path, NULL);
  char soname[sizeof SONAME + 1];
  int shim = file != NULL
             && (is_shim_entry (file, strlen (file))
                 || (elf_file_soname (file, soname, sizeof soname) == 0
                     && strcmp (soname, SONAME) == 0));
  free (file);
  return shim;
}

/* Whether this run takes the entry out: any entry that names or leads
   to a copy of the shim, or with --this-installation any entry that
   resolves to this installation's file, whatever its own name (a link
   of the administrator's), and no other copy.  */
static int
is_target_entry (const char *tok, size_t len)
{
  return this_installation ? names_this_installation (tok, len)
                           : is_shim_entry (tok, len)
                             || resolves_to_shim (tok, len);
}

/* A word glibc's loader takes from /etc/ld.so.preload as an entry:
   LEN bytes at OFF of the file's text.  */
struct preload_word
{
  size_t off, len;
};

static int
is_separator (char c)
{
  return c == ' ' || c == '\t' || c == ':' || c == '\n';
}

/* The entries glibc's loader reads in TEXT, in order, into WORDS (room
   for strlen (TEXT) / 2 + 1); returns how many, or -1 without memory.
   The loader's comment handling is followed exactly, quirk included
   (elf/rtld.c, unchanged from glibc 2.17 to 2.36 at least; make check
   holds this to the loader itself): it turns each '#' and the rest of
   its line into spaces, but looks for the next '#' from the start of
   the file within a count of bytes that each comment used up, so a
   '#' far enough into the file is no comment to it, and the words
   after it are entries.  */
static long
loader_words (const char *text, struct preload_word *words)
{
  size_t size = strlen (text);
  char *copy = malloc (size + 1);
  if (copy == NULL)
    return -1;
  memcpy (copy, text, size + 1);
  size_t rest = size;
  while (rest > 0)
    {
      char *c = memchr (copy, '#', rest);
      if (c == NULL)
        break;
      rest -= c - copy;
      do
        *c = ' ';
      while (--rest > 0 && *++c != '\n');
    }
  long n = 0;
  for (size_t i = 0; i < size;)
    {
      if (is_separator (copy[i]))
        {
          i++;
          continue;
        }
      size_t start = i;
      while (i < size && !is_separator (copy[i]))
        i++;
      words[n].off = start;
      words[n].len = i - start;
      n++;
    }
  free (copy);
  return n;
}

/* Whether the loader would read NEW as it read OLD less its shim
   entries (and, when ENTRY_FIRST, with ENTRY first): every other entry
   kept, in order, and none added.  That holds for words the loader
   takes from what looks like a comment too: it loads them (or prints
   its error for each in every process), and taking bytes out before a
   later '#' can move its search window over them, so that a library
   it loaded stops being loaded (seventy-sixth review).  */
static int
reads_the_same (const char *old, const char *new, int entry_first)
{
  struct preload_word *a = malloc ((strlen (old) / 2 + 1) * sizeof *a);
  struct preload_word *b = malloc ((strlen (new) / 2 + 1) * sizeof *b);
  long na = a != NULL ? loader_words (old, a) : -1;
  long nb = b != NULL ? loader_words (new, b) : -1;
  int same = na >= 0 && nb >= 0;
  long j = 0;
  if (same && entry_first)
    {
      same = nb > 0 && b[0].len == strlen (ENTRY)
             && memcmp (new + b[0].off, ENTRY, b[0].len) == 0;
      j = 1;
    }
  for (long i = 0; same && i < na; i++)
    {
      if (is_target_entry (old + a[i].off, a[i].len))
        continue;
      if (j < nb && b[j].len == a[i].len
          && memcmp (new + b[j].off, old + a[i].off, a[i].len) == 0)
        j++;
      else
        same = 0;
    }
  same = same && j == nb;
  free (a);
  free (b);
  return same;
}

/* TEXT with every shim entry the loader reads taken out, into OUT (as
   large as TEXT plus one).  Only the shim's words change, since the
   rest is somebody's configuration: a line without a shim entry is
   kept byte for byte; on a line with one, each shim entry goes with
   the separators after it when another word follows on the line, else
   with those before it, and the rest of the line, comments included,
   stays as it was.  A line left with nothing but separators goes.
   Returns how many entries went (-1 without memory); *FIRST_IS_ENTRY
   says whether the file's first entry was ENTRY itself.  */
static int
drop_shim_entries (const char *text, char *out, int *first_is_entry)
{
  size_t size = strlen (text);
  struct preload_word *w = malloc ((size / 2 + 1) * sizeof *w);
  char *del = calloc (size + 1, 1);
  long n = w != NULL && del != NULL ? loader_words (text, w) : -1;
  if (n < 0)
    {
      free (w);
      free (del);
      return -1;
    }
  int dropped = 0;
  *first_is_entry = n > 0 && w[0].len == strlen (ENTRY)
                    && memcmp (text + w[0].off, ENTRY, w[0].len) == 0;
  for (long k = 0; k < n; k++)
    {
      size_t off = w[k].off, end = off + w[k].len;
      if (!is_target_entry (text + off, w[k].len))
        continue;
      dropped++;
      memset (del + off, 1, w[k].len);
      size_t after = end;
      while (after < size && text[after] != '\n' && is_separator (text[after]))
        after++;
      size_t before = off;
      while (before > 0 && text[before - 1] != '\n'
             && is_separator (text[before - 1]))
        before--;
      int word_follows = after > end && after < size && text[after] != '\n'
                         && text[after] != '#';
      int first_on_line = before == 0 || text[before - 1] == '\n';
      if (word_follows || first_on_line)
        memset (del + end, 1, after - end);
      else
        memset (del + before, 1, off - before);
    }
  char *o = out;
  for (size_t i = 0; i < size;)
    {
      size_t linelen = strcspn (text + i, "\n");
      int has_nl = text[i + linelen] == '\n';
      char *line = o;
      int touched = 0;
      for (size_t k = i; k < i + linelen; k++)
        if (del[k])
          touched = 1;
        else
          *o++ = text[k];
      char *c = line;
      while (c < o && is_separator (*c))
        c++;
      if (touched && c == o)
        o = line;
      else if (has_nl)
        *o++ = '\n';
      i += linelen + has_nl;
    }
  *o = '\0';
  free (w);
  free (del);
  return dropped;
}

/* TEXT with every shim entry the loader reads overwritten with spaces,
   into OUT: no '#' or newline moves, so the loader's comment pass
   (loader_words) blanks exactly what it blanked before, and reads the
   file as before less the shim.  For where drop_shim_entries' tidier
   edit would change how the loader reads the rest.  Returns how many
   entries went, or -1 without memory.  */
static int
blank_shim_entries (const char *text, char *out)
{
  size_t size = strlen (text);
  struct preload_word *w = malloc ((size / 2 + 1) * sizeof *w);
  long n = w != NULL ? loader_words (text, w) : -1;
  if (n < 0)
    {
      free (w);
      return -1;
    }
  memcpy (out, text, size + 1);
  int dropped = 0;
  for (long k = 0; k < n; k++)
    if (is_target_entry (text + w[k].off, w[k].len))
      {
        memset (out + w[k].off, ' ', w[k].len);
        dropped++;
      }
  free (w);
  return dropped;
}

/* Whether ST, the file now at /etc/ld.so.preload, is still OLD, the
   one read: the same inode, its size and mtime, and where CTIME says
   its change time too, which every write, truncation, chmod, chown and
   attribute change moves and which user space cannot set back
   (thirty-second review: a writer that kept the size and set the old
   mtime back, as cp -p, rsync -t and tar do, went unseen and its text
   was lost).  A rename moves it as well: after ours, CTIME is 0.  */
static int
same_as_read (const struct stat *st, const struct stat *old, int ctime)
{
  /* The mode, owner and link count too: a chmod, a chown or an unlink
     just before the swap moves the change time where our own rename
     moves it as well (thirty-third review: a chmod then was lost).  */
  return st->st_dev == old->st_dev && st->st_ino == old->st_ino
         && st->st_mode == old->st_mode && st->st_uid == old->st_uid
         && st->st_gid == old->st_gid && st->st_nlink == old->st_nlink
         && st->st_size == old->st_size
         && st->st_mtim.tv_sec == old->st_mtim.tv_sec
         && st->st_mtim.tv_nsec == old->st_mtim.tv_nsec
         && (!ctime || (st->st_ctim.tv_sec == old->st_ctim.tv_sec
                        && st->st_ctim.tv_nsec == old->st_ctim.tv_nsec));
}

/* The file as read: its status and text, and where it is checked at
   the end, a descriptor of it and its extended attributes as they were
   then.  */
struct as_read
{
  const struct stat *st;	/* st_mode 0: there was no file.  */
  const char *text;		/* st->st_size bytes.  */
  int fd;			/* open_as_read's, or -1.  */
  char *xattrs;			/* xattr_snapshot's of FD.  */
  size_t xattrs_len;
};

static char *xattr_snapshot (int fd, size_t *len);

/* Whether the file open at FD holds TEXT, LEN bytes, and no more.  */
static int
same_text (int fd, const char *text, size_t len)
{
  char buf[8192];
  off_t at = 0;
  for (;;)
    {
      ssize_t n = pread (fd, buf, sizeof buf, at);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0 || (size_t) at + n > len)
        return 0;
      if (n == 0)
        return (size_t) at == len;
      if (memcmp (buf, text + at, n) != 0)
        return 0;
      at += n;
    }
}

/* Whether the file whose status is ST is still R's file as it was
   read: same_as_read's, then its text and its extended attributes,
   read through R's descriptor of the same inode.  The status alone
   misses a writer that keeps the size and sets the old mtime back
   after the swap, whose rename moves the change time as ours does
   (thirty-fifth review: its text was lost with exit 0), and a change
   of an attribute alone (thirty-fifth review: a relabel was lost).  */
static int
is_as_read (const struct as_read *r, const struct stat *st, int ctime)
{
  if (!same_as_read (st, r->st, ctime)
      || !same_text (r->fd, r->text, r->st->st_size))
    return 0;
  size_t len;
  char *now = xattr_snapshot (r->fd, &len);
  int same = now != NULL && len == r->xattrs_len
             && memcmp (now, r->xattrs, len) == 0;
  free (now);
  return same;
}

/* /etc/ld.so.preload opened into R, where it is still as read: 0, or
   -1 where it is another file (or none), or changed.  Kept open to the
   end, so that the file in place is checked the last moment before it
   is swapped, and the one swapped out after.  */
static int
open_as_read (struct as_read *r)
{
  r->xattrs = NULL;
  r->fd = open (PRELOAD_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK
                              | O_CLOEXEC);
  struct stat st;
  if (r->fd >= 0 && fstat (r->fd, &st) == 0 && same_as_read (&st, r->st, 1)
      && same_text (r->fd, r->text, r->st->st_size)
      && (r->xattrs = xattr_snapshot (r->fd, &r->xattrs_len)) != NULL)
    return 0;
  if (r->fd >= 0)
    close (r->fd);
  r->fd = -1;
  return -1;
}

static void
close_as_read (struct as_read *r)
{
  if (r->fd >= 0)
    close (r->fd);
  r->fd = -1;
  free (r->xattrs);
  r->xattrs = NULL;
}

/* Whether R's file is still as read, at its name as well.  */
static int
still_as_read (const struct as_read *r)
{
  struct stat st;
  return fstat (r->fd, &st) == 0 && is_as_read (r, &st, 1);
}

#ifndef RENAME_NOREPLACE
# define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
# define RENAME_EXCHANGE (1 << 1)
#endif

/* renameat2 by its system call: glibc has a wrapper only since 2.28,
   musl since 1.2.5.  */
static int
rename_flags (const char *from, const char *to, unsigned int flags)
{
#ifdef SYS_renameat2
  return syscall (SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, flags);
#else
  (void) from;
  (void) to;
  (void) flags;
  errno = ENOSYS;
  return -1;
#endif
}

/* A kernel before 3.15, a file system without the flag (NFS), or a
   seccomp filter that refuses the call.  */
static int
no_rename_flags (int e)
{
  return e == EINVAL || e == ENOSYS || e == EPERM;
}

/* Puts FROM at /etc/ld.so.preload where no file is there, atomically:
   0, 1 where another program made one meanwhile (FROM stays), or -1
   with errno.  */
static int
put_where_none (const char *from)
{
  if (rename_flags (from, PRELOAD_FILE, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno == EEXIST)
    return 1;
  if (!no_rename_flags (errno))
    return -1;
  /* A link, too, fails where the name is taken.  */
  if (link (from, PRELOAD_FILE) == 0)
    {
      unlink (from);
      return 0;
    }
  if (errno == EEXIST)
    return 1;
  /* A file system without links either: the check, then the rename;
     only a file made between the two is lost.  */
  struct stat st;
  if (lstat (PRELOAD_FILE, &st) == 0 || errno != ENOENT)
    return 1;
  return rename (from, PRELOAD_FILE);
}

/* Puts TMP, written and synced, in place of /etc/ld.so.preload if that
   is still R's file as read (none where R's mode is 0).  Returns 0
   (TMP is then gone, or names the old file: the caller removes it), 1
   where another program wrote or replaced the file meanwhile, which
   stays as that program made it, 2 where such a file could not be put
   back (it is then TMP, ours in place), or -1 with errno.  The file is
   checked, then the two are swapped, then the one swapped out is
   compared with R's and swapped back where it is another
   (thirty-second review: a check before the fsync and the rename left
   a window in which another writer's file, 19 times in 200, was lost
   without a word).  A program that writes the file in place, which no
   editor that renames can keep from losing its text (it may write on
   after the swap), is seen up to the swap: the file swapped out is
   compared by its text and attributes too.  */
static int
commit_preload (const char *tmp, const struct as_read *r,
                const struct stat *ours)
{
  if (r->st->st_mode == 0)
    return put_where_none (tmp);
  if (!still_as_read (r))
    return 1;
  struct stat st;
  if (rename_flags (tmp, PRELOAD_FILE, RENAME_EXCHANGE) == 0)
    {
      if (lstat (tmp, &st) == 0 && is_as_read (r, &st, 0))
        return 0;
      int e = errno;
      /* Another program's file, or one we cannot look at: it goes
         back, unless yet another program has put a file in place of
         ours since the swap, the newest, which stays (thirty-third
         review: swapped back, it was removed).  A process that started
         in between read our text, which is whole.  */
      if (lstat (PRELOAD_FILE, &st) != 0 || !same_as_read (&st, ours, 0))
        return 1;
      if (rename_flags (tmp, PRELOAD_FILE, RENAME_EXCHANGE) != 0)
        return 2;
      /* What goes now must be ours: a file yet another program put in
         place between the check and the swap back is left, named
         (thirty-fourth review: it was removed).  */
      if (lstat (tmp, &st) != 0 || st.st_dev != ours->st_dev
          || st.st_ino != ours->st_ino)
        return 2;
      errno = e;
      return 1;
    }
  /* The file went meanwhile (another program removed it): that is
     what stays (thirty-third review: "cannot write ...: No such
     file").  */
  if (errno == ENOENT)
    return 1;
  if (!no_rename_flags (errno))
    return -1;
  /* No exchange here: the checks, then the rename; only a file put in
     place between the two is lost.  */
  if (lstat (PRELOAD_FILE, &st) != 0 || !is_as_read (r, &st, 1))
    return 1;
  return rename (tmp, PRELOAD_FILE);
}

/* Removes PATH, a file of this run's in /etc that the loader does not
   read: where that fails, it is named, not left without a word
   (thirty-fifth review: an EIO left it, and disable said "removed").  */
static void
remove_ours (const char *path)
{
  if (unlink (path) != 0 && errno != ENOENT)
    warn ("cannot remove %s: %s; the loader does not read it: remove it "
          "by hand", path, strerror (errno));
}

/* Takes /etc/ld.so.preload, still R's file as read, away: it is
   checked, renamed aside, the file renamed compared with OLD, and put
   back where it is another program's (thirty-second review: unlink by
   name removed a file that another program had just written).  The
   name aside is one no file has, taken with RENAME_NOREPLACE: nothing
   is made for it, so that a file system without a free inode still
   lets the file go (thirty-third review: a placeholder from mkostemp
   failed there, and the package's prerm with it), and nothing comes
   between the check and the rename (the placeholder's making widened
   that window: 6 of 500 in-place writes were lost).  0, 1 where the
   file was another's (it stays), 2 where it was and could not go back
   (its name is then in LEFT), or -1 with errno.  */
static int
remove_preload (const struct as_read *r, char *left, size_t leftlen)
{
  char aside[sizeof PRELOAD_FILE + 48];
  struct stat st;
  for (unsigned int tries = 0;; tries++)
    {
      struct timespec now;
      clock_gettime (CLOCK_REALTIME, &now);
      snprintf (aside, sizeof aside, "%s.rseq-compat.%ld.%ld.%u",
                PRELOAD_FILE, (long int) getpid (), (long int) now.tv_nsec,
                tries);
      /* A file another program removed is what disable wants: no
         file names the shim (thirty-fourth review: exit 1 and "another
         program wrote it", and the package's prerm failed).  */
      if (!still_as_read (r))
        return lstat (PRELOAD_FILE, &st) != 0 && errno == ENOENT ? 0 : 1;
      if (rename_flags (PRELOAD_FILE, aside, RENAME_NOREPLACE) == 0)
        break;
      if (errno == EEXIST && tries < 16)
        continue;
      if (errno == ENOENT)
        return 0;
      /* A new name may need a directory block that a full file system
         lacks (thirty-fourth review): the unlink needs none.  */
      if (!no_rename_flags (errno) && errno != ENOSPC && errno != EDQUOT)
        return -1;
      /* No flags here: the check, then the unlink, as the name is;
         only a write between the two is lost.  */
      if (lstat (PRELOAD_FILE, &st) != 0)
        return errno == ENOENT ? 0 : -1;
      if (!is_as_read (r, &st, 1))
        return 1;
      if (unlink (PRELOAD_FILE) == 0 || errno == ENOENT)
        return 0;
      return -1;
    }
  if (lstat (aside, &st) == 0 && is_as_read (r, &st, 0))
    {
      remove_ours (aside);
      return 0;
    }
  if (put_where_none (aside) < 0)
    {
      /* Not lost: named for the admin to put back.  */
      snprintf (left, leftlen, "%s", aside);
      return 2;
    }
  /* Where yet another file took the name meanwhile, that one is the
     newest: the one set aside goes.  */
  remove_ours (aside);
  return 1;
}

#define XATTRS_LOST "the extended attributes of " PRELOAD_FILE " are not kept"

static void
xattr_warning (const char *what, const char *why)
{
  warn ("%s: %s", what, why);
}

/* The value of FROM's attribute NAME, malloc'd, its size in *LEN; NULL
   with errno set where there is none.  It may grow between the two
   calls (ERANGE): asked again.  */
static char *
xattr_value (int from, const char *name, ssize_t *len)
{
  for (int tries = 0; tries < 8; tries++)
    {
      ssize_t n = fgetxattr (from, name, NULL, 0);
      char *v = n >= 0 ? malloc (n + 1) : NULL;
      if (v == NULL)
        {
          if (n >= 0)
            errno = ENOMEM;
          return NULL;
        }
      /* Never a size of 0, which asks for the size and copies nothing
         (thirty-first review: an empty value grown meanwhile sent our
         heap to the new file).  */
      *len = fgetxattr (from, name, v, n + 1);
      if (*len >= 0)
        return v;
      int e = errno;
      free (v);
      errno = e;
      if (e != ERANGE)
        return NULL;
    }
  return NULL;
}

/* FD's list of attribute names (malloc'd, or NULL where it is empty),
   its size in *LEN: -1 with errno where it cannot be read.  The list,
   too, may grow between the two calls.  */
static char *
xattr_names (int fd, ssize_t *len)
{
  char *names = NULL;
  *len = -1;
  for (int tries = 0; tries < 8; tries++)
    {
      *len = flistxattr (fd, NULL, 0);
      if (*len <= 0)
        break;
      char *more = realloc (names, *len);
      if (more == NULL)
        {
          errno = ENOMEM;
          *len = -1;
          break;
        }
      names = more;
      *len = flistxattr (fd, names, *len);
      if (*len >= 0 || errno != ERANGE)
        break;
    }
  return names;
}

/* FD's extended attributes, names and values, in one block (malloc'd,
   its size in *LEN) for is_as_read to compare; what cannot be read is
   in it as its errno, which the same failure gives again.  NULL only
   where memory runs out.  */
static char *
xattr_snapshot (int fd, size_t *len)
{
  char *block = NULL;
  FILE *m = open_memstream (&block, len);
  if (m == NULL)
    return NULL;
  ssize_t nlen;
  char *names = xattr_names (fd, &nlen);
  if (nlen < 0)
    fprintf (m, "!%d", errno);
  for (ssize_t at = 0; nlen > 0 && at < nlen; at += strlen (names + at) + 1)
    {
      ssize_t vlen = 0;
      char *value = xattr_value (fd, names + at, &vlen);
      fprintf (m, "%s%c", names + at, 0);
      if (value != NULL)
        {
          fprintf (m, "%zd:", vlen);
          fwrite (value, 1, vlen, m);
        }
      else
        fprintf (m, "!%d", errno);
      free (value);
    }
  free (names);
  int bad = ferror (m);
  if (fclose (m) != 0 || bad)
    {
      free (block);
      return NULL;
    }
  return block;
}

/* Gives the new file FD, its text written, the extended attributes of
   the one it replaces, OLD: a POSIX ACL, an SELinux label or an
   attribute of the admin's own on /etc/ld.so.preload must outlive our
   edit (twenty-ninth review: each was dropped).  After the text, as a
   write takes security.capability away; and where OLD had no ACL, the
   one a default ACL of /etc gave the new file goes (thirtieth review).
   Not IMA's and EVM's: they vouch for the old text, and the kernel,
   where its policy measures the file, writes the new one's.  What
   cannot be kept (a security module that refuses the relabel) is named
   in a warning; the edit goes on, as the loader reads only the text.
   FROM is the old file, open.  */
static void
keep_xattrs (int fd, int from)
{
  ssize_t len;
  char *names = xattr_names (from, &len);
  if (len < 0 && errno != ENOTSUP)
    xattr_warning (XATTRS_LOST, strerror (errno));
  int had_acl = 0;
  for (ssize_t at = 0; len > 0 && at < len; at += strlen (names + at) + 1)
    {
      const char *name = names + at;
      if (strcmp (name, "system.posix_acl_access") == 0)
        had_acl = 1;
      if (strcmp (name, "security.ima") == 0
          || strcmp (name, "security.evm") == 0)
        continue;
      ssize_t vlen = 0;
      char *value = xattr_value (from, name, &vlen);
      if (value == NULL && errno == ENODATA)
        continue;
      if (value == NULL || fsetxattr (fd, name, value, vlen, 0) != 0)
        {
          char what[600];
          snprintf (what, sizeof what, "the extended attribute %s of "
                    PRELOAD_FILE " is not kept", name);
          xattr_warning (what, strerror (errno));
        }
      free (value);
    }
  if (len >= 0 && !had_acl
      && fremovexattr (fd, "system.posix_acl_access") != 0
      && errno != ENODATA && errno != ENOTSUP)
    xattr_warning ("the new " PRELOAD_FILE " keeps the ACL that the "
                   "default ACL of " ETC " gave it, which the old one did "
                   "not have", strerror (errno));
  free (names);
}

/* Where another program wrote the file during the edit.  */
static void
complain_changed (void)
{
  complain ("%s changed while rseq-compat edited it (another program "
            "wrote, replaced or removed it); it is left as that program "
            "made it: run "
            "rseq-compat %s --system again", PRELOAD_FILE, verb);
}

/* Where the edit could not put another program's file back: said,
   with the name it is left under.  */
static void
complain_left (const char *left)
{
  complain ("%s changed while rseq-compat edited it (another program "
            "wrote it), and that program's file could not be put back: "
            "it is %s; put it back by hand (mv %s %s), then run "
            "rseq-compat %s --system again", PRELOAD_FILE, left, left,
            PRELOAD_FILE, verb);
}

/* replace_preload's work, its signals blocked.  */
static int
replace_preload_1 (int etc, const char *text, const struct stat *old,
                   const char *oldtext)
{
  struct as_read r = { .st = old, .text = oldtext, .fd = -1 };
  const char *c = text;
  while (*c != '\0' && is_separator (*c))
    c++;
  if (*c == '\0')
    {
      char left[sizeof PRELOAD_FILE + 48];
      int ret = old->st_mode == 0 ? 0
                : open_as_read (&r) != 0 ? 1
                : remove_preload (&r, left, sizeof left);
      int e = errno;
      close_as_read (&r);
      if (ret < 0)
        complain ("cannot remove %s: %s%s", PRELOAD_FILE, strerror (e),
                  errno_hint (e));
      else if (ret == 1)
        complain_changed ();
      else if (ret == 2)
        complain_left (left);
      fsync (etc);
      return ret == 0 ? 0 : -1;
    }
  char tmp[] = PRELOAD_FILE ".rseq-compat.XXXXXX";
  int fd = mkostemp (tmp, O_CLOEXEC);
  if (fd < 0)
    {
      complain ("cannot create a file in " ETC ": %s%s", strerror (errno),
                errno_hint (errno));
      return -1;
    }
  size_t len = strlen (text), done = 0;
  int err = 0;
  /* The owner first: fchown clears the set-user-ID and set-group-ID
     bits that fchmod gives (thirty-first review).  */
  if ((old->st_mode != 0 && fchown (fd, old->st_uid, old->st_gid) != 0)
      || fchmod (fd, old->st_mode != 0 ? old->st_mode & 07777 : 0644) != 0)
    err = errno;
  while (err == 0 && done < len)
    {
      ssize_t n = write (fd, text + done, len - done);
      if (n > 0)
        done += n;
      else if (n < 0 && errno != EINTR)
        err = errno;
    }
  /* Another writer, which takes no lock of ours, may have written the
     file since we read it: its text wins, ours is not put over it.  The
     attributes are taken from the file in place, which must be the one
     read; commit_preload checks again, as it swaps.  */
  struct stat ours;
  if (err == 0 && fstat (fd, &ours) != 0)
    err = errno;
  int changed = err == 0 && old->st_mode != 0 && open_as_read (&r) != 0;
  if (r.fd >= 0)
    keep_xattrs (fd, r.fd);
  if (err == 0 && !changed && fsync (fd) != 0)
    err = errno;
  if (close (fd) != 0 && err == 0)
    err = errno;
  if (err == 0 && !changed)
    {
      int ret = commit_preload (tmp, &r, &ours);
      if (ret < 0)
        err = errno;
      else if (ret == 2)
        {
          complain_left (tmp);
          close_as_read (&r);
          fsync (etc);
          return -1;
        }
      changed = ret == 1;
    }
  close_as_read (&r);
  /* Ours, or, swapped out, the old file.  */
  remove_ours (tmp);
  if (err != 0 || changed)
    {
      if (changed)
        complain_changed ();
      else
        complain ("cannot write %s: %s%s; it is left as it was",
                  PRELOAD_FILE, strerror (err), errno_hint (err));
      return -1;
    }
  fsync (etc);
  return 0;
}

/* Puts TEXT in place of /etc/ld.so.preload, with the old file's mode
   and owner (0644 root for a new one), or removes the file when TEXT
   holds no entry.  Signals that end the command wait until the file is
   whole and no file of ours is left in /etc (thirty-second review: a
   kill during the edit left /etc/ld.so.preload.rseq-compat.XXXXXX).  */
static int
replace_preload (int etc, const char *text, const struct stat *old,
                 const char *oldtext)
{
  sigset_t all, was;
  sigfillset (&all);
  /* Faults are the program's own: blocked, a real one would loop.  */
  static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP,
                                SIGABRT, SIGSYS };
  for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
    sigdelset (&all, faults[i]);
  sigprocmask (SIG_BLOCK, &all, &was);
  int r = replace_preload_1 (etc, text, old, oldtext);
  sigprocmask (SIG_SETMASK, &was, NULL);
  return r;
}

/* Files of an earlier run's left in /etc: the new file of a run that
   SIGKILL ended, or one whose removal failed.  Named, not removed: one
   may be another program's file that could not be put back, which
   complain_left told the admin to restore (thirty-fifth review: no
   later run said a word of them).  */
static void
report_leftovers (int etc)
{
  static const char prefix[] = "ld.so.preload.rseq-compat.";
  int fd = openat (etc, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = fd >= 0 ? fdopendir (fd) : NULL;
  if (d == NULL)
    {
      if (fd >= 0)
        close (fd);
      return;
    }
  unsigned int n = 0;
  struct dirent *e;
  char safe[4 * sizeof e->d_name + 1];
  while ((e = readdir (d)) != NULL)
    if (strncmp (e->d_name, prefix, sizeof prefix - 1) == 0 && n++ < 8)
      /* Escaped: a name made to move the terminal's cursor or to forge
         a line of ours (thirty-sixth review).  */
      warn (ETC "/%s is left from an earlier rseq-compat that was killed "
            "or could not finish; the loader does not read it: look at "
            "it, then remove it",
            info_escape (e->d_name, safe, sizeof safe));
  if (n > 8)
    warn ("%u more such files are in " ETC, n - 8);
  closedir (d);
}

static int
usage_error (const char *what)
{
  fprintf (stderr, "rseq-compat %s: %s\n"
           "Usage: rseq-compat %s --system\n"
           "(for one command and its children: rseq-compat run COMMAND)\n",
           verb, what, verb);
  return EXIT_CANNOT_RUN;
}

/* How long enable and disable wait for their checks, then for their
   change (bounded_run), unless RSEQ_COMPAT_SYSTEM_TIMEOUT says: long
   enough for a walk of the preload tree at its bounds (1024 links) and
   the loaders check_loads runs on a loaded or emulated machine (30 s
   was not, under two CI lanes), short enough for a package's
   maintainer script.  */
#define SYSTEM_SECONDS 120

static int system_work (void *arg);

int
cmd_system (int argc, char **argv)
{
  verb = argv[0];
  int enable = strcmp (verb, "enable") == 0;
  if (argc < 2)
    return usage_error ("--system is required (it is the only scope there "
                        "is)");
  if (strcmp (argv[1], "--system") != 0)
    {
      fprintf (stderr, "rseq-compat %s: unknown argument '%s'\n", verb,
               argv[1]);
      return usage_error ("--system is required");
    }
  if (argc > 2 && !enable && strcmp (argv[2], "--this-installation") == 0)
    {
      this_installation = 1;
      argv++;
      argc--;
    }
  if (argc > 2)
    {
      fprintf (stderr, "rseq-compat %s: unexpected argument '%s'\n", verb,
               argv[2]);
      return usage_error (enable ? "only --system is taken"
                          : "only --system and --this-installation are "
                            "taken");
    }

#ifndef __GLIBC__
  if (enable)
    {
      complain ("this rseq-compat is built for musl, whose loader does not "
                "read /etc/ld.so.preload; preload the shim per program "
                "with rseq-compat run or LD_PRELOAD");
      return EXIT_SYSTEM_FAILED;
    }
#else
  if (enable && libc_registers ())
    {
      complain ("this machine's C library (glibc %s) registers rseq "
                "itself and exports __rseq_offset and __rseq_size; the "
                "shim would stand aside in every process, so there is "
                "nothing to enable", gnu_get_libc_version ());
      return EXIT_SYSTEM_FAILED;
    }
#endif

  /* Before the child: a typo in the limit is said, not taken for the
     default.  */
  unsigned int seconds = bounded_seconds (SYSTEM_SECONDS);
  if (seconds == 0)
    {
      complain ("RSEQ_COMPAT_SYSTEM_TIMEOUT is '%s', not a whole number "
                "of seconds from 1 to 86400: set it to one, or unset it "
                "for %d", getenv ("RSEQ_COMPAT_SYSTEM_TIMEOUT"),
                SYSTEM_SECONDS);
      return EXIT_SYSTEM_FAILED;
    }
  char who[64];
  snprintf (who, sizeof who, "rseq-compat: %s --system", verb);
  /* disable must go on where it can (a package's removal): without a
     child it runs unbounded.  enable cannot: its loader check runs
     programs (the 128th review's 2: it hung, then would fail).  */
  return bounded_run (system_work, &enable, seconds, who,
                      enable ? "enable runs the loaders in child processes "
                      "to check that they load the shim, so it cannot go "
                      "on" : NULL, EXIT_SYSTEM_FAILED);
}

/* What enable and disable do, in bounded_run's child: every lookup and
   read, and the change, whose start the parent allows (bounded_gate)
   only while it has not given up.  */
static int
system_work (void *arg)
{
  int enable = *(int *) arg;
  char file[PATH_MAX];
  /* Before the walks: without root's list of FUSE connections they
     take every overlay on the way for one that may be on FUSE
     (fuse_fd_here), and a user could write no entry anyway.  */
  if (enable && geteuid () != 0)
    {
      complain ("%s is root's to write, and what it names is checked "
                "for what root alone may change: run it as root",
                PRELOAD_FILE);
      return EXIT_SYSTEM_FAILED;
    }
  if (enable)
    {
      if (RSEQ_COMPAT_GLIBC_LIB[0] == '\0' || RSEQ_COMPAT_PRELOADDIR[0] != '/')
        {
          complain ("this build of rseq-compat has no glibc build of the "
                    "shim to install system-wide");
          return EXIT_SYSTEM_FAILED;
        }
      snprintf (file, sizeof file, "%s/%s/%s", RSEQ_COMPAT_PRELOADDIR,
                RSEQ_COMPAT_GLIBC_LIB, SONAME);
      /* Whether it is there at all is the walk's to find: realpath
         looked every name up from / before any was checked, through a
         FUSE mount on the way too (the 126th review's 3: enable waited
         in a server that answers nothing).  */
      snprintf (own_nowhere, sizeof own_nowhere,
                "the shim is not installed at %s: install it (make install "
                "as root, or the librseq-compat1 package) first", file);
      /* Walked as /etc is, link by link (the 114th review's S3: the
         directories as written and what realpath made of the file were
         checked, not one that holds a link on the way), then every
         directory the entry's $LIB may name (S4).  */
      struct stat st;
      int links = 0;
      /* The build's own file end to end too, whatever the tree's walk
         stops at (its depth, its links: review finding R1).  */
      bounded_stage (0, "while checking %s and what it leads to",
                     RSEQ_COMPAT_PRELOADDIR);
      if (shim_walk (RSEQ_COMPAT_PRELOADDIR, WANT_DIR, &st) != 0)
        return EXIT_SYSTEM_FAILED;
      bounded_stage (0, "while checking %s", file);
      if (shim_walk (file, WANT_SHIM, &st) != 0)
        return EXIT_SYSTEM_FAILED;
      bounded_stage (0, "while checking what lies under %s",
                     RSEQ_COMPAT_PRELOADDIR);
      if (preload_tree_trusted (RSEQ_COMPAT_PRELOADDIR, 1, &links) != 0)
        return EXIT_SYSTEM_FAILED;
      bounded_stage (0, "while checking that each loader loads %s", file);
      if (check_loads () != 0)
        return EXIT_SYSTEM_FAILED;
    }

  bounded_stage (1, "while waiting for the lock on " RUN_LOCK " (or on "
                 ETC " where it cannot be made), which another process "
                 "holds: lslocks names it");
  int lock = take_lock ();
  bounded_stage (0, "while reading " PRELOAD_FILE " and checking it, "
                 ETC " and the files its entries name");
  if (lock < 0)
    return EXIT_SYSTEM_FAILED;
  int etc = open (ETC, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int open_errno = errno;
  /* The walk says why where it can: a directory on the way that others
     may change is named, not "No such file or directory" alone (review
     finding R3).  */
  if (etc < 0
      && etc_trusted (0, enable ? ", then enable again" : "") != 0)
    {
      close (lock);
      return EXIT_SYSTEM_FAILED;
    }
  if (etc < 0)
    {
      int e = open_errno;
      complain ("cannot open " ETC ": %s%s", strerror (e),
                e == ELOOP || e == ENOENT || e == ENOTDIR
                ? "; " ETC_FIX : "");
      close (lock);
      return EXIT_SYSTEM_FAILED;
    }
  report_leftovers (etc);
  char *text, *link = NULL;
  struct stat old;
  if (read_preload (&text, &old, enable ? NULL : &link) != 0)
    {
      free (link);
      close (etc);
      close (lock);
      return EXIT_SYSTEM_FAILED;
    }
  size_t len = strlen (text);
  char *out = malloc (strlen (ENTRY) + 1 + len + 1);
  if (out == NULL)
    {
      complain ("%s", strerror (errno));
      free (text);
      close (etc);
      close (lock);
      return EXIT_SYSTEM_FAILED;
    }
  int first_is_entry = 0;
  char *rest = enable ? out + strlen (ENTRY) + 1 : out;
  int dropped = drop_shim_entries (text, rest, &first_is_entry);
  if (link != NULL && dropped != 0)
    {
      /* Replacing the link would leave its target naming the shim, and
         editing the target would change whoever else links to it: the
         package stays (its prerm fails) rather than leave an entry that
         names a file about to go.  */
      /* Escaped: a target made to move the terminal or forge a line of
         ours (thirty-seventh review).  */
      static char safe[4 * PATH_MAX + 1];
      if (dropped > 0)
        complain ("%s is a symbolic link to %s, which names the shim; "
                  "rseq-compat does not edit a file through a link: take "
                  "the shim's entr%s out of it by hand", PRELOAD_FILE,
                  info_escape (link, safe, sizeof safe),
                  dropped == 1 ? "y" : "ies");
      else
        complain ("%s", strerror (ENOMEM));
      free (link);
      free (text);
      free (out);
      close (etc);
      close (lock);
      return EXIT_SYSTEM_FAILED;
    }
  free (link);
  if (enable)
    {
      memcpy (out, ENTRY, strlen (ENTRY));
      out[strlen (ENTRY)] = '\n';
    }
  int changes = !(enable ? first_is_entry && dropped == 1 : dropped == 0);
  if (changes && enable && preload_trusted (&old, 1, 0, 0) != 0)
    {
      free (text);
      free (out);
      close (etc);
      close (lock);
      return EXIT_SYSTEM_FAILED;
    }
  /* Taking the words out moved a '#' the loader would then read
     otherwise: blank them instead, in place.  */
  if (dropped > 0 && changes && !reads_the_same (text, out, enable))
    dropped = blank_shim_entries (text, rest);
  if (dropped < 0
      || (changes && !reads_the_same (text, out, enable)))
    {
      if (dropped < 0)
        complain ("%s", strerror (ENOMEM));
      else
        complain ("the loader would read the other entries of %s "
                  "differently with the shim's entry first (it reads a "
                  "'#' as a comment only within a stretch of the file "
                  "that depends on where the '#'s before it lie, so a "
                  "comment after the first may become entries, or words "
                  "it loads a comment); it is "
                  "left as it was: put %s first by hand, or move the "
                  "comments to the file's first line", PRELOAD_FILE,
                  ENTRY);
      free (text);
      free (out);
      close (etc);
      close (lock);
      return EXIT_SYSTEM_FAILED;
    }

  int rc = 0;
  if (enable && first_is_entry && dropped == 1)
    {
      printf ("rseq-compat: already enabled: " PRELOAD_FILE " names %s\n",
              ENTRY);
      preload_trusted (&old, 0, 0, 0);
    }
  else if (!enable && dropped == 0)
    {
      /* The package's prerm says nothing when there is nothing to do.  */
      if (!this_installation)
        printf ("rseq-compat: not enabled: " PRELOAD_FILE " names no copy "
                "of the shim\n");
    }
  else
    {
      bounded_stage (0, "while changing " PRELOAD_FILE);
      bounded_gate ();
      rc = replace_preload (etc, out, &old, text) != 0
           ? EXIT_SYSTEM_FAILED : 0;
      if (rc == 0)
        {
          bounded_changed ();
          bounded_stage (0, "while checking " PRELOAD_FILE " after "
                         "changing it");
        }
      if (rc == 0 && !enable)
        preload_trusted (&old, 0, 1, access (PRELOAD_FILE, F_OK) != 0);
      if (rc == 0 && enable)
        printf ("rseq-compat: enabled: " PRELOAD_FILE " names %s; programs "
                "started from now on load the shim (running ones keep "
                "their state until they restart)\n", ENTRY);
      else if (rc == 0)
        printf ("rseq-compat: disabled: %d shim entr%s taken out of "
                PRELOAD_FILE "%s; programs started from now on run "
                "without the shim%s\n", dropped, dropped == 1 ? "y" : "ies",
                access (PRELOAD_FILE, F_OK) != 0
                ? " (it held nothing else and is removed)" : "",
                this_installation ? " (its files are about to go; "
                "rseq-compat enable --system puts it back for the copies "
                "still installed)" : "");
    }
  free (text);
  free (out);
  close (etc);
  close (lock);
  return rc;
}
