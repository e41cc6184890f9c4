/* Telling FUSE files apart without asking their servers.
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

/* mountinfo names the file system of a mount, but only of the mounts of
   one namespace: a FUSE mount unmounted lazily (umount -l, while a
   process still maps a file of it) or left only in a third namespace is
   in no mountinfo we can read, and its files were opened as "not FUSE"
   (twenty-third review: info -p hung in the server's GETATTR, beyond
   SIGKILL).  The fuse control file system (fusectl) has a directory for
   every FUSE connection of the machine, named by the connection's
   device number, whatever is mounted where; it is read again for a
   device it lacks (conns_have).  Where it is not mounted, root's info
   has a child mount it in a mount namespace of its own (conns_list);
   where neither can be, mountinfo answers, and a device no mountinfo
   shows is taken for FUSE's if it is an anonymous one (fuse_dev).  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuse-check.h"

#define FUSECTL_DIR "/sys/fs/fuse/connections"
#define FUSECTL_MAGIC 0x65735543

#ifndef SYS_statx
# if defined __x86_64__
#  define SYS_statx 332
# elif defined __aarch64__
#  define SYS_statx 291
# endif
#endif
#ifndef AT_STATX_DONT_SYNC
# define AT_STATX_DONT_SYNC 0x4000
#endif

/* The kernel's struct statx (256 bytes), by another name: the C
   libraries the command is built against (glibc 2.17's headers) may
   have none, or their own.  Only the device is read.  */
struct rc_statx
{
  uint32_t mask, blksize;
  uint64_t attributes;
  uint32_t nlink, uid, gid;
  uint16_t mode, spare0;
  uint64_t ino, size, blocks, attributes_mask;
  struct
  {
    int64_t sec;
    uint32_t nsec;
    int32_t spare;
  } atime, btime, ctime, mtime;
  uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
  uint64_t spare[14];
};

/* All of PATH, NUL-terminated, at most MAX bytes (NULL past that, with
   errno EFBIG, or on error, with its errno).  */
static char *
read_text (const char *path, size_t max)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  size_t cap = 8192, len = 0;
  char *buf = malloc (cap);
  int e = buf == NULL ? ENOMEM : 0;
  while (buf != NULL)
    {
      if (len + 1 >= cap)
        {
          char *n = cap < max ? realloc (buf, cap * 2) : NULL;
          if (n == NULL)
            {
              e = cap < max ? ENOMEM : EFBIG;
              free (buf);
              buf = NULL;
              break;
            }
          buf = n;
          cap *= 2;
        }
      ssize_t r = read (fd, buf + len, cap - 1 - len);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        {
          if (r < 0)
            {
              e = errno;
              free (buf);
              buf = NULL;
            }
          break;
        }
      len += (size_t) r;
    }
  close (fd);
  if (buf != NULL)
    buf[len] = '\0';
  else
    errno = e;
  return buf;
}

/* Why what a verdict since the last fuse_fd_here or fuse_on_path
   needed could not be had, the first such cause: a mountinfo file, the
   list of FUSE connections, a layer's lookup, a descriptor's fdinfo.
   A verdict of "may be FUSE" made without them is no finding about the
   file system, and was said as one (session 64: under a limit of ten
   descriptors, with two taken by the caller, enable said that
   /usr/lib's overlay had a layer on FUSE).  Per verdict, as a table
   read that failed once and was read again since says nothing of a
   later one (the 143rd review's 3: a real FUSE mount was said to be
   what could not be read).  Outside mountinfo, only a want of
   descriptors or memory counts: the list's ENOENT or EPERM (no fusectl
   here, a user) and a layer's EACCES are how it is everywhere such.  */
static int unread_errno;
/* Whether UNREAD_ERRNO is the list of FUSE connections' (its ECHILD
   alone has the words of conns_end): an ECHILD of a table's read is
   the call's, and a list's words there told of another list (the 154th
   review's 3).  */
static int unread_list;
/* Where UNREAD_LIST: that list's words and signal, as it ended (the
   155th review's 3: a list made again in the same verdict put its own
   in their place).  */
static char unread_end[128];
static int unread_sig;

/* Whether E is a want of descriptors, memory, processes (fork's
   EAGAIN) or mount namespaces (unshare's ENOSPC), a call interrupted
   (EINTR), or the list's child ended without the list (ECHILD,
   conns_list's own mark): what failed so says nothing of what it would have
   shown.  */
static int
wanting (int e)
{
  return e == EMFILE || e == ENFILE || e == ENOMEM || e == EAGAIN
         || e == ENOSPC || e == EINTR || e == ECHILD;
}

static void
note_unread (int e, int any)
{
  if (unread_errno == 0 && (any || wanting (e)))
    unread_errno = e != 0 ? e : EIO;
}

int
fuse_unread_errno (void)
{
  return unread_errno;
}

/* The fusectl list: the kernel's dev_t of every connection.  STATE: 0
   not read yet, 1 read, -1 not to be had.  */
static unsigned long int *conns;
static size_t nconns;
static int conns_state;
/* Counts the lists read (overlay_untrusted's).  */
static int conns_gen;
/* Why the list could not be had, where it was a want of descriptors or
   memory (note_unread); else 0.  */
static int conns_err;
/* No FUSE file system is registered at all.  */
static int no_fuse;
/* Where CONNS_ERR is ECHILD, how the list's child ended.  */
static char conns_end[128];
/* The signal that ended the list's child, where that is how.  */
static int conns_sig;

const char *
fuse_list_end (void)
{
  return unread_list ? unread_end : "";
}

int
fuse_list_signal (void)
{
  return unread_list ? unread_sig : 0;
}

/* note_unread, of the list.  */
static void
note_list_unread (void)
{
  if (unread_errno == 0 && wanting (conns_err))
    {
      unread_list = 1;
      memcpy (unread_end, conns_end, sizeof unread_end);
      unread_sig = conns_sig;
    }
  note_unread (conns_err, 0);
}

/* Whether fusectl is mounted where this process sees it.  A directory
   that is not fusectl (a link in a chroot, sysfs's bare directory)
   would list nothing, and every device would pass.  */
static int
conns_mounted (const char *where)
{
  struct statfs s;
  /* -1 (errno kept) for a want: the 147th review's 3, a statfs out of
     memory taken for fusectl not mounted.  */
  if (statfs (where, &s) != 0)
    return wanting (errno) ? -1 : 0;
  return s.f_type == FUSECTL_MAGIC;
}

static int
conns_add (unsigned long int dev)
{
  unsigned long int *n = realloc (conns, (nconns + 1) * sizeof *n);
  if (n == NULL)
    return -1;
  conns = n;
  conns[nconns++] = dev;
  return 0;
}

/* conns_list's child's end where it cannot list: a want (E) is told
   to the parent on FD as "err E", for the parent to say that it could
   not tell and to try again (the 146th review's 1: a child out of
   memory was taken for root without CAP_SYS_ADMIN, which has no list,
   and the layers were judged by the tables alone); anything else as
   "none", the list not to be had here.  A child killed (the 147th
   review's 2) is a want too, but for a seccomp filter's SIGSYS
   (conns_list).  */
static _Noreturn void
conns_fail (int fd, int e)
{
  char line[32];
  int n = wanting (e) ? snprintf (line, sizeof line, "err %d\n", e)
          : snprintf (line, sizeof line, "none\n");
  if (write (fd, line, (size_t) n) != n)
    _exit (1);
  _exit (1);
}

/* A line of the list's child's not written: a want is said as such;
   anything else ends the child without a word, a list cut short and
   no "none" (the 150th review's 3: an EIO on a name was taken for no
   list, and the same on "end" for a child killed).  */
static void
conns_put (int fd, const char *line)
{
  if (dprintf (fd, "%s\n", line) < 0)
    {
      if (wanting (errno))
        conns_fail (fd, errno);
      _exit (1);
    }
}

/* Whether E, fusectl's read refused (an LSM's EACCES or EPERM), holds
   for good: no list here, by design.  */
static int
conns_denied (int e)
{
  return e == EACCES || e == EPERM;
}

/* The list's child's end where fusectl, mounted, cannot be read for
   a reason that is no want (E): "lost E", a list cut short, refused
   (the 151st review's 7: taken for "none", no list by design).  */
static _Noreturn void
conns_lost (int fd, int e)
{
  if (wanting (e) || conns_denied (e))
    conns_fail (fd, e);
  dprintf (fd, "lost %d\n", e);
  _exit (1);
}

/* Each connection's name in fusectl at WHERE, written to FD one per
   line, then "end"; a directory that cannot be read to its end makes
   the child fail (the 146th review's 2: a failed readdir ended a list
   taken for all of it).  */
static _Noreturn void
conns_write (int fd, const char *where)
{
  DIR *d = opendir (where);
  if (d == NULL)
    conns_lost (fd, errno);
  for (;;)
    {
      errno = 0;
      struct dirent *e = readdir (d);
      if (e == NULL)
        {
          if (errno != 0)
            conns_lost (fd, errno);
          break;
        }
      /* A name not written is a list cut short (the 148th review's
         2): the parent would take the rest for all of it.  */
      if (e->d_name[0] >= '0' && e->d_name[0] <= '9')
        conns_put (fd, e->d_name);
    }
  closedir (d);
  conns_put (fd, "end");
  _exit (0);
}

/* Whether S is a number, digits alone, no more than MAX (a
   connection's dev_t, an errno), put in *V.  */
static int
conns_number (const char *s, unsigned long int max, unsigned long int *v)
{
  if (*s < '0' || *s > '9')
    return 0;
  char *end;
  errno = 0;
  *v = strtoul (s, &end, 10);
  return *end == '\0' && errno == 0 && *v <= max;
}

/* Reads the list into CONNS (anew), or sets CONNS_STATE -1.  Where
   fusectl is not mounted, root lists it from a child that mounts it in
   a mount namespace of its own, which receives the machine's mounts
   and sends none back (nothing of the machine's changes).  Not this
   process: in a namespace of its own, the names in another process's
   maps read from a chroot as the machine's paths (twenty-fourth
   review's run: "/work/.../rc/src/build/librseq-compat.so.1").  A
   chroot whose root is no mount point, a root of a user namespace
   (fusectl is the initial namespace's) or a seccomp filter leave the
   list to be had nowhere.  */
static void
conns_list_once (void)
{
  nconns = 0;
  conns_gen++;
  conns_err = 0;
  conns_end[0] = '\0';
  conns_sig = 0;
  int mounted = conns_mounted (FUSECTL_DIR);
  if (mounted < 0)
    {
      conns_err = errno;
      conns_state = -1;
      return;
    }
  if (mounted)
    {
      DIR *d = opendir (FUSECTL_DIR);
      int err = d == NULL ? errno : 0;
      while (err == 0)
        {
          errno = 0;
          struct dirent *e = readdir (d);
          if (e == NULL)
            {
              err = errno;
              break;
            }
          if (e->d_name[0] >= '0' && e->d_name[0] <= '9'
              && conns_add (strtoul (e->d_name, NULL, 10)) != 0)
            err = ENOMEM;
        }
      if (d != NULL)
        closedir (d);
      /* Cut short for a reason that is no want or denial: no list,
         refused (the 151st review's 7), in words of its own, also for
         the call's own ECHILD (the 152nd review's 2 and 3).  */
      if (err == ECHILD || (err != 0 && !wanting (err) && !conns_denied (err)))
        {
          snprintf (conns_end, sizeof conns_end, "the list of FUSE "
                    "connections in fusectl was cut short (%s)",
                    strerror (err));
          err = ECHILD;
        }
      if (err != 0)
        {
          conns_err = err;
          conns_state = -1;
        }
      return;
    }
  int p[2];
  if (pipe2 (p, O_CLOEXEC) != 0)
    {
      conns_err = errno;
      conns_state = -1;
      return;
    }
  pid_t pid = -1;
  /* Its status is read (a seccomp filter's SIGSYS): a caller's SIGCHLD
     ignored, which the work keeps (bounded.c), reaps it unread (the
     149th review's 1).  */
  struct sigaction dfl = { .sa_handler = SIG_DFL }, old;
  sigemptyset (&dfl.sa_mask);
  sigaction (SIGCHLD, &dfl, &old);
  if (geteuid () != 0 || (pid = fork ()) < 0)
    {
      sigaction (SIGCHLD, &old, NULL);
      if (pid < 0 && geteuid () == 0)
        conns_err = errno;
      close (p[0]);
      close (p[1]);
      conns_state = -1;
      return;
    }
  else if (pid == 0)
    {
      close (p[0]);
      /* Where no sysfs is mounted (a chroot), over procfs's /proc/fs,
         there as long as /proc is: a chroot in a directory on FUSE,
         whose mount no mountinfo of it shows, left the list to be had
         nowhere, and the walk took its root for no FUSE (the 124th
         review's 8).  A chroot's root that is no mount point cannot be
         made a slave (EINVAL, in the matrix's chroot: session 57's
         lanes); the mount that holds the target, /sys or /proc, can.  */
      const unsigned long int fl = MS_NOSUID | MS_NODEV | MS_NOEXEC;
      const char *where = FUSECTL_DIR;
      /* The steps a seccomp filter may refuse for good, said before
         each: only its SIGSYS there leaves no list (conns_list).  */
      conns_put (p[1], "at unshare");
      if (unshare (CLONE_NEWNS) != 0)
        conns_fail (p[1], errno);
      conns_put (p[1], "at mount");
      int slave = mount (NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) == 0;
      int ok = (slave || mount (NULL, "/sys", NULL, MS_SLAVE, NULL) == 0)
               && mount ("fusectl", where, "fusectl", fl, NULL) == 0;
      int e = ok ? 0 : errno;
      if (!ok)
        ok = (slave || mount (NULL, "/proc", NULL, MS_SLAVE, NULL) == 0)
             && mount ("fusectl", where = "/proc/fs", "fusectl", fl,
                       NULL) == 0;
      if (!ok)
        conns_fail (p[1], wanting (e) ? e : errno);
      conns_put (p[1], "listing");
      /* Its statfs denied is a denial, as its read's (the 152nd
         review's 1: conns_mounted took it for not fusectl).  */
      struct statfs sf;
      if (statfs (where, &sf) != 0)
        conns_lost (p[1], errno);
      if (sf.f_type != FUSECTL_MAGIC)
        conns_lost (p[1], ENODEV);
      conns_write (p[1], where);
    }
  close (p[1]);
  /* fusectl is the kernel's own and cannot hang; a pipe's worth of
     names (thousands of connections) is read as it comes.  */
  char buf[4096];
  size_t len = 0;
  int ended = 0, lost = 0, none = 0, step = 0, rerr = 0, cut = 0;
  /* A word that ends the child's words read (none, err, lost), and a
     line that is not the child's next (odd).  */
  int done = 0, odd = 0;
  ssize_t r = 0;
  while (!ended && !lost && !odd
         && ((r = read (p[0], buf + len, sizeof buf - 1 - len)) > 0
             || (r < 0 && errno == EINTR)))
    {
      if (r < 0)
        continue;
      len += (size_t) r;
      buf[len] = '\0';
      char *line = buf, *nl;
      while ((nl = strchr (line, '\n')) != NULL)
        {
          *nl = '\0';
          /* Only the child's words, in its order, are read as such: the
             SIGSYS that leaves no list is one at unshare or mount, so
             a step taken for another, or an end no child of ours
             writes ("lost 0", "err 5"), passed a layer (the 154th
             review's 1, the 155th's 1).  */
          unsigned long int n;
          if (done)
            odd = 1;
          else if (strcmp (line, "at unshare") == 0)
            odd = step++ != 0;
          else if (strcmp (line, "at mount") == 0)
            odd = step++ != 1;
          else if (strcmp (line, "listing") == 0)
            odd = step++ != 2;
          else if (strcmp (line, "end") == 0)
            odd = !(ended = step == 3);
          else if (strcmp (line, "none") == 0)
            odd = !(none = done = step > 0);
          else if (strncmp (line, "err ", 4) == 0)
            {
              odd = !conns_number (line + 4, INT_MAX, &n)
                    || !wanting ((int) n);
              conns_err = odd ? 0 : (int) n;
              done = 1;
            }
          else if (strncmp (line, "lost ", 5) == 0)
            {
              odd = step != 3 || !conns_number (line + 5, INT_MAX, &n)
                    || n == 0 || wanting ((int) n) || conns_denied ((int) n);
              cut = odd ? 0 : (int) n;
              done = 1;
            }
          else if (step != 3 || !conns_number (line, ULONG_MAX, &n))
            odd = 1;
          else if (conns_add (n) != 0)
            {
              lost = 1;
              break;
            }
          if (odd)
            break;
          line = nl + 1;
        }
      len = strlen (line);
      memmove (buf, line, len + 1);
      if (len + 1 >= sizeof buf)
        break;
    }
  if (!ended && !lost && !odd && r < 0)
    rerr = errno;
  close (p[0]);
  int status = 0;
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  sigaction (SIGCHLD, &old, NULL);
  /* A connection left off for want of memory is no list (the 144th
     review's 4: the rest was taken for all of it).  */
  if (odd)
    {
      conns_err = ECHILD;
      snprintf (conns_end, sizeof conns_end, "its child that lists the FUSE "
                "connections wrote a line out of its order");
    }
  else if (lost)
    conns_err = ENOMEM;
  else if (!ended && !none && conns_err == 0)
    {
      /* Ended without a word, or its words unread: a want (ECHILD, with
         how), tried again.  But a seccomp filter's SIGSYS at unshare or
         mount, which refuses them for good, leaves no list, as its
         EPERM does (the 148th review's 1: under systemd's
         SystemCallFilter=, whose default action kills, every enable
         with an overlay on the way was refused); a SIGSYS where no
         filter is in force (the 149th review's 2), or at any other
         step, which no filter that lets us run kills (the 150th
         review's 1: any SIGSYS under any filter was taken for none),
         is a kill as any other.  */
      int sig = WIFSIGNALED (status) ? WTERMSIG (status) : 0;
      const char *who = "its child that lists the FUSE connections";
      /* The step is the last one read: with the pipe failed, not known
         (the 151st review's 1).  A "lost" line, which only comes
         past "listing", before it is no child's of ours (the 154th
         review's 1).  */
      if (rerr == 0 && cut == 0 && sig == SIGSYS && (step == 1 || step == 2)
          && prctl (PR_GET_SECCOMP, 0, 0, 0, 0) == 2)
        ;
      else if (rerr != 0 && wanting (rerr))
        conns_err = rerr;
      else
        {
          conns_err = ECHILD;
          if (rerr != 0)
            snprintf (conns_end, sizeof conns_end,
                      "the pipe from %s failed (%s)", who, strerror (rerr));
          else if (cut != 0)
            snprintf (conns_end, sizeof conns_end,
                      "%s could not read fusectl (%s)", who, strerror (cut));
          else if ((conns_sig = sig) != 0)
            snprintf (conns_end, sizeof conns_end,
                      "%s was ended by signal %d (%s)", who, sig,
                      strsignal (sig));
          else
            snprintf (conns_end, sizeof conns_end,
                      "%s ended (status %d) without a word", who,
                      WIFEXITED (status) ? WEXITSTATUS (status) : -1);
        }
    }
  if (!ended || lost || odd)
    conns_state = -1;
}

/* conns_list_once, with words where a call's own ECHILD (a filter's
   errno), in this process or the child, is what ended it (the 152nd
   review's 2, the 153rd's 1: said as nothing).  */
static void
conns_list (void)
{
  conns_list_once ();
  if (conns_err == ECHILD && conns_end[0] == '\0')
    snprintf (conns_end, sizeof conns_end, "a call made to list the FUSE "
              "connections failed (%s)", strerror (ECHILD));
}

static void
conns_read (void)
{
  /* A list that could not be had for want of descriptors or memory is
     read again at its next use, as a mount table is.  */
  if (conns_state == -1 && wanting (conns_err))
    conns_state = 0;
  if (conns_state != 0)
    return;
  /* No FUSE file system registered: no connection can exist.  */
  char *fs = read_text ("/proc/filesystems", 1 << 20);
  if (fs != NULL && strstr (fs, "\tfuse\n") == NULL
      && strstr (fs, "\tfuseblk\n") == NULL)
    {
      free (fs);
      no_fuse = 1;
      conns_state = 1;
      return;
    }
  free (fs);
  conns_state = 1;
  conns_list ();
}

/* Devices found on no list read after they were first asked about:
   each is asked about once more at most (a child each, for root
   without fusectl mounted).  A device in use by a mapping cannot turn
   into a FUSE connection's while it is.  */
static unsigned long int clean[64];
static size_t nclean;

/* Whether the kernel's dev_t DEV is a FUSE connection: 1, 0, or -1
   where no list can be had.  A device not on the list is looked for
   again in a fresh one: a FUSE mount made after the list was read
   (twenty-fourth review: mounted, and a program of it run, while
   info -p read the process) is listed before its files can be
   reached.  */
static int
conns_have (unsigned long int dev)
{
  conns_read ();
  if (no_fuse)
    return 0;
  for (size_t i = 0; i < nclean; i++)
    if (clean[i] == dev)
      return 0;
  for (int pass = 0; pass < 2 && conns_state == 1; pass++)
    {
      if (pass == 1)
        conns_list ();
      for (size_t i = 0; i < nconns && conns_state == 1; i++)
        if (conns[i] == dev)
          return 1;
    }
  if (conns_state == 1 && nclean < sizeof clean / sizeof clean[0])
    clean[nclean++] = dev;
  if (conns_state != 1)
    note_list_unread ();
  return conns_state == 1 ? 0 : -1;
}

enum kind { KIND_FUSE, KIND_OTHER, KIND_OVERLAY };

/* A mount of a mountinfo file: its ID, its parent's, device and kind;
   for FUSE and overlayfs its mount point (unescaped), for overlayfs
   its super options (as written).  */
struct ment
{
  unsigned long int id, parent;
  unsigned int maj, min;
  enum kind kind;
  char *point, *text;
};

/* A mountinfo file, parsed.  STATE: 0 not read, 1 read, -1 unreadable
   (over 64 MB: a user namespace may stack thousands of mounts with long
   names).  Each is kept for a second after its read ended, or for four
   times as long as the read took where that is longer: reading it anew
   for every file and every address took minutes for a process with a
   few hundred mapped files in a namespace of thousands of mounts
   (twenty-fifth review), and a second counted from the read's start
   did the same once a read took over a second, as under load (session
   55: a 42 MB mountinfo read for each of 512 files again).  Scaled by
   the read's own time, reading takes a fifth of the wall clock at most,
   however slow the machine.  A mount made since the last read is not in
   it.  A FUSE mount's device is still told by the list of connections,
   read anew for a device it lacks (with no list, by its anonymous
   device: fuse_dev); an overlay over FUSE made since, and a FUSE mount
   made since over a name looked up (fuse_on_path), are not, and what
   reaches such a server is the watchdog's to bound (info.c).  The
   window is the target's to stretch, with a mountinfo of up to 64 MB,
   to about four times its read (the 122nd review's 5); that bound
   holds it too.  */
struct mtab
{
  char path[128];
  int state;
  int err;			/* Why it could not be read (STATE -1).  */
  struct timespec when;		/* When the read ended.  */
  long long keep;		/* For how long it stays, in ns.  */
  struct ment *e;
  size_t n;
};

/* DIR's mountinfo, and ours.  */
static struct mtab tabs[2];

static void
mtab_free (struct mtab *t)
{
  for (size_t i = 0; i < t->n; i++)
    {
      free (t->e[i].point);
      free (t->e[i].text);
    }
  free (t->e);
  t->e = NULL;
  t->n = 0;
  t->state = 0;
}

/* FIELD (LEN bytes, octal escapes such as \040 for a blank) in a
   malloc'ed string.  */
static char *
unescape (const char *field, size_t len)
{
  char *out = malloc (len + 1);
  if (out == NULL)
    return NULL;
  size_t j = 0;
  for (size_t i = 0; i < len; i++)
    if (field[i] == '\\' && i + 3 < len && field[i + 1] >= '0' && field[i + 1] <= '3'
        && field[i + 2] >= '0' && field[i + 2] <= '7'
        && field[i + 3] >= '0' && field[i + 3] <= '7')
      {
        out[j++] = (char) ((field[i + 1] - '0') * 64
                           + (field[i + 2] - '0') * 8 + (field[i + 3] - '0'));
        i += 3;
      }
    else
      out[j++] = field[i];
  out[j] = '\0';
  return out;
}

/* The Nth blank-separated field of LINE (0: the first), and its length
   in *LEN; NULL past the end.  */
static const char *
field_of (const char *line, int n, size_t *len)
{
  const char *f = line;
  for (int k = 0; k < n && f != NULL; k++)
    {
      f = strchr (f, ' ');
      if (f != NULL)
        f++;
    }
  if (f == NULL)
    return NULL;
  const char *e = strchr (f, ' ');
  *len = e != NULL ? (size_t) (e - f) : strlen (f);
  return f;
}

static void
mtab_parse (struct mtab *t, char *text)
{
  size_t cap = 0;
  for (char *line = text; line != NULL && *line != '\0';)
    {
      char *nl = strchr (line, '\n');
      if (nl != NULL)
        *nl = '\0';
      unsigned long int id, parent;
      unsigned int maj, min;
      const char *dash = strstr (line, " - ");
      if (dash != NULL
          && sscanf (line, "%lu %lu %u:%u", &id, &parent, &maj, &min) == 4)
        {
          const char *type = dash + 3;
          struct ment m = { id, parent, maj, min, KIND_OTHER, NULL, NULL };
          size_t len;
          if (strncmp (type, "fuse", 4) == 0
              && (type[4] == ' ' || type[4] == '.' || type[4] == 'b'))
            m.kind = KIND_FUSE;
          else if (strncmp (type, "overlay ", 8) == 0)
            {
              /* TYPE SOURCE OPTIONS.  */
              const char *f = field_of (type, 2, &len);
              m.kind = KIND_OVERLAY;
              m.text = f != NULL ? strndup (f, len) : NULL;
            }
          if (m.kind != KIND_OTHER)
            {
              const char *f = field_of (line, 4, &len);
              if (f != NULL && f < dash)
                m.point = unescape (f, len);
            }
          if (t->n == cap)
            {
              size_t ncap = cap != 0 ? cap * 2 : 256;
              struct ment *ne = realloc (t->e, ncap * sizeof *ne);
              if (ne == NULL)
                {
                  free (m.point);
                  free (m.text);
                  t->state = -1;
                  return;
                }
              t->e = ne;
              cap = ncap;
            }
          t->e[t->n++] = m;
        }
      line = nl != NULL ? nl + 1 : NULL;
    }
}

/* Nanoseconds from A to B.  */
static long long
ns_between (const struct timespec *a, const struct timespec *b)
{
  return (b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec);
}

/* Table I (0: DIR's, 1: ours), read anew where its time is up (struct
   mtab) or it was another process's.  */
static struct mtab *
mtab_get (int i, const char *dir)
{
  /* Ours twice is one file: a read of it that failed, kept as DIR's,
     outlived the next good read of ours, and each verdict after took
     it for what it could not tell (the 144th review's 1 and 2: a FUSE
     mount said to be what could not be read; a missing file taken for
     one on FUSE, then said to be a link that leads nowhere).  */
  if (i == 0 && strcmp (dir, "/proc/self") == 0)
    i = 1;
  struct mtab *t = &tabs[i];
  char path[128];
  snprintf (path, sizeof path, "%s/mountinfo",
            i == 0 ? dir : "/proc/self");
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  if (t->state != 0 && strcmp (t->path, path) == 0
      && ns_between (&t->when, &now) < t->keep)
    return t;
  mtab_free (t);
  snprintf (t->path, sizeof t->path, "%s", path);
  char *text = read_text (path, 64u << 20);
  if (text == NULL)
    {
      t->err = errno;
      t->state = -1;
    }
  else
    {
      t->state = 1;
      mtab_parse (t, text);
      free (text);
      if (t->state < 0)
        {
          mtab_free (t);
          t->state = -1;
          t->err = ENOMEM;
        }
    }
  clock_gettime (CLOCK_MONOTONIC, &t->when);
  t->keep = 4 * ns_between (&now, &t->when);
  if (t->keep < 1000000000LL)
    t->keep = 1000000000LL;
  /* A read that failed for want of a descriptor, or of /proc, is tried
     again at the next use, not kept for a second: it costs an open that
     fails, and what it lacked may be had by then.  One over 64 MB, or
     that ran out of memory, is kept: its read was long, and would fail
     alike at each use (the 145th review's 1: under ulimit -v, a 7.6 MB
     table read 21 times).  */
  if (t->state < 0 && t->err != EFBIG && t->err != ENOMEM)
    t->keep = 0;
  return t;
}

/* Whether a FUSE mount point of table T is PATH or one of its parent
   directories.  */
static int
fuse_point_over (const struct mtab *t, const char *path)
{
  for (size_t i = 0; i < t->n; i++)
    if (t->e[i].kind == KIND_FUSE && t->e[i].point != NULL)
      {
        size_t len = strlen (t->e[i].point);
        if (strncmp (t->e[i].point, path, len) == 0
            && (len == 1 || path[len] == '/' || path[len] == '\0'))
          return 1;
      }
  return 0;
}

/* Calls EACH with every layer of the overlayfs mount whose super
   options are OPTS (unescaped: the name its mounter gave, as given),
   and ARG; 1 as soon as one returns 1 (or memory runs out), else 0.
   lowerdir's layers are parted by ':'; the kernel shows a backslash as
   \134, so a ':' the mounter escaped reads "\134:" (an odd run of
   \134 before it), and lowerdir+= and datadir+= name one layer each,
   unescaped.  */
static int
overlay_layers (const char *opts, int (*each) (const char *, void *),
                void *arg)
{
  static const char *const keys[] = { "lowerdir=", "upperdir=", "workdir=",
                                      "datadir+=", "lowerdir+=" };
  for (const char *o = opts; o != NULL && *o != '\0';)
    {
      const char *comma = strchr (o, ',');
      const char *oend = comma != NULL ? comma : o + strlen (o);
      for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        {
          size_t klen = strlen (keys[k]);
          if ((size_t) (oend - o) < klen || strncmp (o, keys[k], klen) != 0)
            continue;
          int split = keys[k][klen - 2] != '+';
          for (const char *l = o + klen; l < oend;)
            {
              const char *lend = l;
              while (split && lend < oend)
                {
                  if (*lend == ':')
                    {
                      size_t run = 0;
                      while ((size_t) (lend - l) >= 4 * (run + 1)
                             && strncmp (lend - 4 * (run + 1), "\\134", 4) == 0)
                        run++;
                      if (run % 2 == 0)
                        break;
                    }
                  lend++;
                }
              if (!split)
                lend = oend;
              /* "A::B": B is a data-only layer (Linux 6.5), no layer
                 is between.  */
              if (lend == l)
                {
                  l = lend + 1;
                  continue;
                }
              char *layer = unescape (l, (size_t) (lend - l));
              if (layer == NULL)
                return 1;
              if (split)
                {
                  /* The mounter's escapes: "\:" is ':', "\\" '\'.  */
                  char *w = layer;
                  for (const char *r = layer; *r != '\0'; r++)
                    {
                      if (*r == '\\' && r[1] != '\0')
                        r++;
                      *w++ = *r;
                    }
                  *w = '\0';
                }
              int hit = each (layer, arg);
              free (layer);
              if (hit)
                return 1;
              l = lend + 1;
            }
        }
      o = comma != NULL ? comma + 1 : NULL;
    }
  return 0;
}

/* Whether the absolute LAYER has "." or ".." for a name.  */
static int
dotted (const char *layer)
{
  size_t n = strlen (layer);
  return strstr (layer, "/./") != NULL || strstr (layer, "/../") != NULL
         || (n >= 2 && strcmp (layer + n - 2, "/.") == 0)
         || (n >= 3 && strcmp (layer + n - 3, "/..") == 0);
}

/* overlay_on_fuse's test of one LAYER.  */
static int
layer_on_fuse (const char *layer, void *arg)
{
  (void) arg;
  if (layer[0] != '/')
    return 0;
  if (dotted (layer))
    return 1;
  for (int i = 0; i < 2; i++)
    {
      if (tabs[i].state < 0)
        note_unread (tabs[i].err, 1);
      if (tabs[i].state < 0 || fuse_point_over (&tabs[i], layer))
        return 1;
    }
  return 0;
}

/* Whether the overlayfs mount whose super options are OPTS has a layer
   under a FUSE mount point in either table.  With xino, a file of an
   overlay shows the overlay's own device, and opening or reading it
   reaches the layer's server (twenty-fifth review: info -p waited in
   FUSE's OPEN through ovl_open).  A layer's name is the one its mounter
   gave, as given: one with "." or ".." in it counts as FUSE; a relative
   one cannot be placed either, but Docker's and containerd's overlays
   name their layers so when the absolute names do not fit in a page
   (twenty-seventh review: taken for FUSE, every such container's C
   library was reported unknown), so it is taken for what it most
   likely is, and one reached through a link, or a FUSE mount no table
   shows any more, is the watchdog's (info.c; twenty-sixth review).  A
   walk of this process's own asks more (overlay_untrusted).  */
static int
overlay_on_fuse (const char *opts)
{
  return overlay_layers (opts, layer_on_fuse, NULL);
}

static int overlay_untrusted (const char *opts, int depth);

/* The overlays being judged (overlay_untrusted), outermost first: a
   layer that leads into one of them is the directory it covers (an
   overlay mounted over its own lower directory, as over /etc): its
   device and mount ID.  */
static struct
{
  unsigned int maj, min;
  unsigned long int id;
} judging[8];
static int njudging;

/* Why the last overlay fuse_fd_here took for one that may be on FUSE
   is so (the first reason found, the innermost): fuse_overlay_why.  */
static char why[1024];

static void __attribute__ ((format (printf, 1, 2)))
say_why (const char *fmt, ...)
{
  if (why[0] != '\0')
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (why, sizeof why, fmt, ap);
  va_end (ap);
}

const char *
fuse_overlay_why (void)
{
  return why[0] != '\0' ? why : "its layers cannot be told";
}

/* The kind of the overlay mount M: KIND_FUSE or KIND_OTHER by
   overlay_on_fuse where DEPTH is below 0, else KIND_OVERLAY or
   KIND_OTHER by overlay_untrusted.  */
static enum kind
overlay_kind (const struct ment *m, int depth)
{
  /* overlay_untrusted may read the tables anew, which frees M.  */
  char *opts = m->text != NULL ? strdup (m->text) : NULL;
  enum kind k;
  if (depth < 0)
    k = opts == NULL || overlay_on_fuse (opts) ? KIND_FUSE : KIND_OTHER;
  else if (opts == NULL || njudging == 8)
    {
      say_why (opts == NULL ? "its options cannot be read"
               : "overlays stacked more than 8 deep");
      k = KIND_OVERLAY;
    }
  else
    {
      judging[njudging].maj = m->maj;
      judging[njudging].min = m->min;
      judging[njudging].id = m->id;
      njudging++;
      k = overlay_untrusted (opts, depth) ? KIND_OVERLAY : KIND_OTHER;
      njudging--;
    }
  free (opts);
  return k;
}

/* The kind of the mount of device MAJ:MIN (or whose mount ID is ID,
   where BY_ID) in DIR's mountinfo, else in ours: KIND_FUSE also for an
   overlay with a layer on FUSE (overlay_on_fuse; overlay_untrusted
   where DEPTH is 0 or more, for a walk of our own).  Returns 0 where
   neither names it, with *UNREAD set where one could not be read.  */
static int
mount_kind (const char *dir, int by_id, unsigned long int id,
            unsigned int maj, unsigned int min, enum kind *kind, int *unread,
            int depth)
{
  *unread = 0;
  struct mtab *t[2] = { mtab_get (0, dir), mtab_get (1, dir) };
  for (int i = 0; i < 2; i++)
    {
      if (t[i]->state < 0)
        {
          *unread = 1;
          note_unread (t[i]->err, 1);
          continue;
        }
      for (size_t j = 0; j < t[i]->n; j++)
        if (by_id ? t[i]->e[j].id == id
            : t[i]->e[j].maj == maj && t[i]->e[j].min == min)
          {
            *kind = t[i]->e[j].kind;
            if (*kind != KIND_OVERLAY)
              return 1;
            *kind = overlay_kind (&t[i]->e[j], depth);
            return 1;
          }
    }
  return 0;
}

int
fuse_dev (const char *dir, unsigned int maj, unsigned int min)
{
  int listed = conns_have (((unsigned long int) maj << 20) | min);
  enum kind k = KIND_OTHER;
  int unread;
  int found = mount_kind (dir, 0, 0, maj, min, &k, &unread, -1);
  /* Not a FUSE connection: an overlay over one still reaches its
     server.  */
  if (listed == 0)
    return found && k == KIND_FUSE;
  /* A FUSE connection: one whose mount names another type (virtiofs)
     is read; one no mountinfo shows is taken for FUSE.  */
  if (listed == 1)
    return !found || k != KIND_OTHER;
  /* No list (another user; no /sys; root of a user namespace): a mount
     no mountinfo shows is FUSE's where its device is an anonymous one
     (major 0), as FUSE's are, unmounted lazily or left in another
     namespace (twenty-fourth review: a user's info -p waited in such a
     server beyond SIGKILL).  A block device's (an overlayfs layer on a
     disk, a container's lower directories) is not: fuseblk's mount is
     in some mountinfo.  A mountinfo that cannot be read leaves FUSE:
     taking it for "no such mount" let a lookup reach a FUSE server
     (twenty-fourth review).  */
  if (found)
    return k == KIND_FUSE;
  return unread || maj == 0;
}

/* Whether the mount ID of the file FD names is to be had (in *ID):
   fdinfo's, the kernel's own, as in mountinfo.  */
static int
fd_mount_id (int fd, unsigned long int *id)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/self/fdinfo/%d", fd);
  char *info = read_text (path, 1 << 16);
  const char *at = info != NULL ? strstr (info, "mnt_id:") : NULL;
  int have = at != NULL && sscanf (at + 7, " %lu", id) == 1;
  free (info);
  if (info != NULL && !have)
    errno = ENODATA;
  return have;
}

/* The device (1: *MAJ, *MIN) or, without statx (Linux before 4.11), the
   mount ID (2: *ID) of the file FD names; 0 where neither can be had.  */
static int
fd_mount (int fd, unsigned int *maj, unsigned int *min, unsigned long int *id)
{
#ifdef SYS_statx
  /* Asking for nothing, FUSE answers the device from the superblock
     alone, even to a process it does not serve; AT_STATX_DONT_SYNC
     keeps every other file system from syncing anything.  */
  struct rc_statx sx;
  if (syscall (SYS_statx, fd, "", AT_EMPTY_PATH | AT_STATX_DONT_SYNC, 0,
               &sx) == 0)
    {
      *maj = sx.dev_major;
      *min = sx.dev_minor;
      return 1;
    }
#endif
  return fd_mount_id (fd, id) ? 2 : 0;
}

int
fuse_fd (const char *dir, int fd)
{
  unsigned int maj = 0, min = 0;
  unsigned long int id = 0;
  int how = fd_mount (fd, &maj, &min, &id);
  if (how == 1)
    return fuse_dev (dir, maj, min);
  enum kind k = KIND_FUSE;
  int unread;
  return how == 0 || !mount_kind (dir, 1, id, 0, 0, &k, &unread, -1)
         || k == KIND_FUSE;
}

/* Where the last walk of a layer (layer_untrusted) entered an overlay
   being judged: the ID and mount point of the mount it reached
   (beneath), for covered_mount.  */
static unsigned long int reached_id;
static char reached_point[4096];

/* The FUSE mounts of this mount namespace outside our root
   (overlay_untrusted sets them): their mount points, as their root's
   mountinfo names them; OUTSIDE_MANY where more are than fit.  A layer
   named in that root may be on one.  */
static char *outside_at[16];
static size_t noutside;
static int outside_many;

static void
outside_clear (void)
{
  for (size_t i = 0; i < noutside; i++)
    free (outside_at[i]);
  noutside = 0;
  outside_many = 0;
}

/* The index of mount ID in table T, or T->n.  */
static size_t
ment_of (const struct mtab *t, unsigned long int id)
{
  size_t j = 0;
  while (j < t->n && t->e[j].id != id)
    j++;
  return j;
}

/* What a layer that leads into a mount (ID) of an overlay being judged
   reaches: the directory that mount covers, on the mount under it,
   whose directories the walk cannot reach.  Mounts of the same overlay
   stacked there (a bind of it over its own directory) are climbed
   past: the 126th review's 1, an overlay bind-mounted over its own
   FUSE layer, passed as what it covered was taken to be what the
   overlay's first mount covered.  3 where that is no FUSE and no
   overlay that may be over it, else 1.  A mount under it that no table
   shows is outside our root, as a chroot's whose root is an overlay
   (ours in CI), where every layer's walk starts: what its layers' names
   lead to there, layer_untrusted judges by name.  */
static int
beneath (unsigned long int id, int depth)
{
  struct mtab *t = mtab_get (1, "/proc/self");
  size_t j = ment_of (t, id);
  if (t->state != 1 || j == t->n)
    {
      if (t->state != 1)
        note_unread (t->err, 1);
      say_why ("the mount that one of its layers leads into is in no "
               "mount table we can read");
      return 1;
    }
  unsigned int maj = t->e[j].maj, min = t->e[j].min;
  unsigned long int p = t->e[j].parent;
  char point[sizeof reached_point];
  snprintf (point, sizeof point, "%s",
            t->e[j].point != NULL ? t->e[j].point : "");
  int r = 1;
  for (int hops = 0;; hops++)
    {
      size_t k = ment_of (t, p);
      if (hops == 64)
        say_why ("mounts stacked more than 64 deep under %s", point);
      else if (k == t->n)
        r = 3;
      else if (t->e[k].maj == maj && t->e[k].min == min
               && t->e[k].parent != p)
        {
          p = t->e[k].parent;
          continue;
        }
      else if (t->e[k].kind == KIND_FUSE)
        say_why ("one of its layers leads into a mount of it at %s, which "
                 "covers a FUSE mount", point);
      else if (t->e[k].kind == KIND_OVERLAY)
        r = overlay_kind (&t->e[k], depth) == KIND_OTHER ? 3 : 1;
      else
        r = 3;
      break;
    }
  /* Set last: overlay_kind's walks set them too.  */
  reached_id = id;
  memcpy (reached_point, point, sizeof point);
  return r;
}

/* The index in JUDGING of the overlay the file FD names is on, or -1.  */
static int
judged (int fd)
{
  unsigned int maj = 0, min = 0;
  unsigned long int id = 0;
  int how = njudging > 0 ? fd_mount (fd, &maj, &min, &id) : 0;
  for (int i = njudging - 1; how != 0 && i >= 0; i--)
    if (how == 1 ? judging[i].maj == maj && judging[i].min == min
        : judging[i].id == id)
      return i;
  return -1;
}

/* fuse_fd_here, DEPTH overlays deep (overlay_untrusted); 3 for a
   directory of an overlay being judged whose covered directory passes
   (beneath).  */
static int
fd_here (int fd, int depth)
{
  unsigned int maj = 0, min = 0;
  unsigned long int id = 0;
  int how = fd_mount (fd, &maj, &min, &id);
  if (how == 0)
    {
      note_unread (errno, 0);
      return 1;
    }
  if (judged (fd) >= 0)
    {
      /* Which of its mounts: a bind of it elsewhere covers another
         directory than its first mount does.  */
      if (how == 1 && !fd_mount_id (fd, &id))
        {
          note_unread (errno, 0);
          say_why ("the mount that one of its layers leads into cannot be "
                   "told without /proc");
          return 1;
        }
      return beneath (id, depth);
    }
  enum kind k = KIND_OTHER;
  int unread, found = 0;
  /* A mount the tables lack may be one made since they were read (a
     user's FUSE mount over a name the walk is about to look up), so
     they are read anew for it, once: few devices are in none (each
     overlayfs layer's), and a walk meets few files.  */
  for (int pass = 0; pass < 2 && !found; pass++)
    {
      if (pass == 1)
        for (int i = 0; i < 2; i++)
          tabs[i].keep = 0;
      found = how == 1
              ? mount_kind ("/proc/self", 0, 0, maj, min, &k, &unread, depth)
              : mount_kind ("/proc/self", 1, id, 0, 0, &k, &unread, depth);
    }
  if (found)
    return k == KIND_FUSE ? 1 : k == KIND_OVERLAY ? 2 : 0;
  /* A FUSE mount made since the table was read is on the list of
     connections, where there is one; a device no table and no list
     knows is another file system's own (overlayfs's per layer).  But
     where the list could not be had for a want (its child killed),
     such a device may be FUSE's: a chroot's root on FUSE that is no
     mount point passed (the 155th review's 2).  Without statx (a
     filter's ENOSYS or EPERM) a mount ID no table shows is told by its
     device all the same, from fstat, which may ask a FUSE server (the
     time limit ends a wait on one that does not answer): such a root
     passed (the 156th review's 1).  */
  if (how == 2)
    {
      struct stat st;
      if (fstat (fd, &st) != 0)
        {
          say_why ("its device cannot be told (%s)", strerror (errno));
          return 1;
        }
      maj = major (st.st_dev);
      min = minor (st.st_dev);
    }
  int listed = conns_have (((unsigned long int) maj << 20) | min);
  return unread || listed == 1 || (listed < 0 && wanting (conns_err));
}

int
fuse_fd_here (int fd)
{
  why[0] = '\0';
  unread_errno = 0;
  unread_list = 0;
  int r = fd_here (fd, 0);
  return r == 3 ? 0 : r;
}

/* Whether mount J of table T is mounted on the mount whose ID is ID,
   or on a mount on it, and so not covered by it.  */
static int
on_top (const struct mtab *t, size_t j, unsigned long int id)
{
  unsigned long int p = t->e[j].parent;
  for (int hops = 0; hops < 64; hops++)
    {
      if (p == id)
        return 1;
      size_t k = ment_of (t, p);
      if (k == t->n || t->e[k].parent == p)
        return 0;
      p = t->e[k].parent;
    }
  return 0;
}

/* Whether a FUSE or overlay mount under the mount point of the overlay
   mount a layer's walk reached (beneath), and covered by it, lies on
   the way to LAYER: the layer was named before that overlay covered it,
   so the walk cannot reach it (the 125th review's A: an overlay on /o
   with a layer of /o/f, a FUSE mount, passed, and enable waited in its
   server).  */
static int
covered_mount (const char *layer)
{
  struct mtab *t = mtab_get (1, "/proc/self");
  const char *top = reached_point;
  size_t tlen = strlen (top);
  for (size_t j = 0; t->state == 1 && j < t->n; j++)
    {
      const char *p = t->e[j].point;
      size_t len = p != NULL ? strlen (p) : 0;
      if (t->e[j].kind != KIND_OTHER && t->e[j].id != reached_id
          && len > tlen && strncmp (p, top, tlen) == 0
          && (tlen <= 1 || p[tlen] == '/')
          && strncmp (p, layer, len) == 0
          && (layer[len] == '/' || layer[len] == '\0')
          && !on_top (t, j, reached_id))
        {
          say_why ("its layer %s is under %s, a%s mount that the overlay "
                   "at %s covers", layer, p,
                   t->e[j].kind == KIND_FUSE ? " FUSE" : "n overlay",
                   tlen > 0 ? top : "?");
          return 1;
        }
    }
  if (t->state != 1)
    {
      note_unread (t->err, 1);
      say_why ("our mount table cannot be read");
    }
  return t->state != 1;
}

/* Whether a FUSE file system may hold a layer whose name cannot be
   placed (relative: its mounter's working directory's).  With the list
   of connections, any may; without it (root without CAP_SYS_ADMIN, a
   default Docker or podman container, whose overlay names its layers
   relatively when their absolute names do not fit in a page: the
   126th review's 5), one our mount table shows may.  */
static int
fuse_anywhere (void)
{
  if (conns_state == 1)
    return 1;
  struct mtab *t = mtab_get (1, "/proc/self");
  for (size_t j = 0; t->state == 1 && j < t->n; j++)
    if (t->e[j].kind == KIND_FUSE)
      return 1;
  if (t->state != 1)
    note_unread (t->err, 1);
  return t->state != 1;
}

/* overlay_untrusted's test of one LAYER (ARG: the depth, an int): 1
   unless it is an absolute name without "." or ".." that leads from
   our root through directories alone, each looked up in the one before
   it, held, and each on no FUSE and on no overlay that fails in turn
   (fd_here) before a name is looked up in it.  A name it lacks ends
   the walk with 0: the layer was named in its mounter's root, which a
   chroot's overlay (a build chroot's, ours in CI) does not see, unless
   a FUSE mount of this namespace is outside our root (the 126th
   review's 2).  A name that cannot be placed passes where no FUSE
   file system can hold it (fuse_anywhere).  */
static int
layer_untrusted (const char *layer, void *arg)
{
  int depth = *(const int *) arg;
  if (layer[0] != '/' || dotted (layer))
    {
      if (!fuse_anywhere ())
        return 0;
      say_why ("its layer %s is no absolute name without \".\" or \"..\", "
               "and cannot be placed where FUSE is mounted", layer);
      return 1;
    }
  /* Named from the root of its mounter, which may be the one outside
     ours: a name under a FUSE mount there is in doubt, whatever our
     root has under that name (the 126th review's 2: none, and it
     passed).  */
  for (size_t i = 0; i < noutside || outside_many; i++)
    {
      size_t len = outside_many ? 0 : strlen (outside_at[i]);
      if (outside_many
          || (strncmp (outside_at[i], layer, len) == 0
              && (len == 1 || layer[len] == '/' || layer[len] == '\0')))
        {
          say_why ("its layer %s may be under %s, a FUSE mount outside this "
                   "root", layer, outside_many ? "one of many" : outside_at[i]);
          return 1;
        }
    }
  int dir = open ("/", O_PATH | O_DIRECTORY | O_CLOEXEC), bad = dir < 0;
  if (bad)
    {
      note_unread (errno, 0);
      say_why ("/ cannot be opened (%s)", strerror (errno));
    }
  for (const char *p = layer; !bad;)
    {
      struct stat st;
      int r = fd_here (dir, depth);
      /* Into an overlay being judged: what it covers was judged, but
         not the mounts it covers.  */
      if (r == 3)
        {
          bad = covered_mount (layer);
          break;
        }
      int fe = r == 0 && fstat (dir, &st) != 0 ? errno : 0;
      bad = r != 0 || fe != 0 || !S_ISDIR (st.st_mode);
      /* The 146th review's 4: an fstat out of memory was said to be a
         link.  */
      if (fe != 0)
        {
          note_unread (fe, 0);
          say_why ("its layer %s cannot be looked at (%s)", layer,
                   strerror (fe));
        }
      else if (bad)
        say_why ("its layer %s is %s", layer,
                 r == 1 ? "on FUSE" : r == 2 ? "on an overlay in doubt"
                 : "reached through a symbolic link, or no directory");
      while (*p == '/')
        p++;
      if (bad || *p == '\0')
        break;
      size_t n = strcspn (p, "/");
      char name[256];
      if (n >= sizeof name)
        {
          say_why ("its layer %s has a name longer than 255 bytes", layer);
          bad = 1;
          break;
        }
      memcpy (name, p, n);
      name[n] = '\0';
      p += n;
      int fd = openat (dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
      int e = errno;
      close (dir);
      dir = fd;
      if (fd < 0 && e == ENOENT)
        return 0;
      if (fd < 0)
        {
          note_unread (e, 0);
          say_why ("its layer %s cannot be looked up (%s)", layer,
                   strerror (e));
        }
      bad = fd < 0;
    }
  if (dir >= 0)
    close (dir);
  return bad;
}

/* The mount ID, device and inode of the directory PATH names (a
   process's root, through its link in /proc), without asking its file
   system anything that may reach a FUSE server: the kernel's cached
   attributes.  A chroot's root that is a bind mount of / has the
   device and inode of / (the 126th review's C row in session 58: taken
   for ours); its mount ID differs.  The link's text cannot tell roots
   apart either: from a chroot, the machine's root reads "/".  ID[2] is
   0 where the kernel has no mount ID to give (before Linux 5.8).  */
static int
root_of (const char *path, unsigned long int id[3])
{
#ifdef SYS_statx
  struct rc_statx sx;
  if (syscall (SYS_statx, AT_FDCWD, path, AT_STATX_DONT_SYNC,
               0x100 /* INO */ | 0x1000 /* MNT_ID */, &sx) != 0)
    return -1;
  id[0] = ((unsigned long int) sx.dev_major << 20) | sx.dev_minor;
  id[1] = sx.ino;
  id[2] = sx.mask & 0x1000 ? sx.spare[0] : 0;
  return 0;
#else
  (void) path;
  id[0] = id[1] = id[2] = 0;
  return 0;
#endif
}

/* Where the N FUSE connections DEVS that our mount table does not
   show are mounted in this mount namespace outside our root (a
   chroot's: the 125th review's C), into outside_at: read from the
   mountinfo of one process of each other root, procfs's, which reaches
   no file system that may be FUSE.  64 roots and 64 MB in all at most
   (any user may make roots: unshare -Ur chroot): past that a name is
   missed, and the walk's time limit bounds what that costs
   (bounded.c).  Other mount namespaces are not read: their mounts are
   no layers of an overlay named in ours, and a FUSE mount in none
   (unmounted lazily) is judged by no one, as any user can make one
   (session 58: it let any user refuse every enable where an overlay
   was on the way).  Returns 0, or the errno of a read that failed for
   want of descriptors or memory, which may have left out any of them
   (the 144th review's 4: taken for none, and a layer under one passed);
   the caller places them again at its next use.  */
static int
conns_placed (const unsigned long int *devs, size_t n)
{
  struct stat ours;
  DIR *d = opendir ("/proc");
  if (d == NULL || stat ("/proc/self/ns/mnt", &ours) != 0)
    {
      int e = errno;
      if (d != NULL)
        closedir (d);
      return wanting (e) ? e : 0;
    }
  /* Roots already read, by mount ID, device and inode; one without a
     mount ID (before Linux 5.8) is read each time.  */
  static unsigned long int roots[64][3];
  size_t nroots = 0, budget = 64u << 20;
  unsigned long int ours_root[3];
  if (root_of ("/", ours_root) != 0)
    {
      int e = errno;
      closedir (d);
      return wanting (e) ? e : 0;
    }
  int err = 0;
  struct dirent *e;
  while (err == 0 && nroots < 64 && budget > 0)
    {
      errno = 0;
      if ((e = readdir (d)) == NULL)
        {
          /* The 146th review's 3: a failed readdir was the end.  */
          if (wanting (errno))
            err = errno;
          break;
        }
      char *end, path[64];
      long int pid = strtol (e->d_name, &end, 10);
      if (pid <= 0 || *end != '\0')
        continue;
      struct stat ns;
      snprintf (path, sizeof path, "/proc/%ld/ns/mnt", pid);
      /* A process that exited, or one not ours to look at, is passed
         by; one that could not be looked at for want of memory may be
         the other root's.  */
      if (stat (path, &ns) != 0)
        {
          if (wanting (errno))
            err = errno;
          continue;
        }
      if (ns.st_dev != ours.st_dev || ns.st_ino != ours.st_ino)
        continue;
      unsigned long int root[3];
      snprintf (path, sizeof path, "/proc/%ld/root", pid);
      if (root_of (path, root) != 0)
        {
          if (wanting (errno))
            err = errno;
          continue;
        }
      if (root[2] != 0 && memcmp (root, ours_root, sizeof root) == 0)
        continue;
      size_t k = 0;
      while (root[2] != 0 && k < nroots
             && memcmp (roots[k], root, sizeof root) != 0)
        k++;
      if (root[2] != 0 && k < nroots)
        continue;
      memcpy (roots[nroots++], root, sizeof root);
      snprintf (path, sizeof path, "/proc/%ld/mountinfo", pid);
      char *text = read_text (path, budget);
      /* Once more at once: a system table of open files full for a
         moment (the 145th review's row: a failed read answers when
         read again).  */
      if (text == NULL && wanting (errno))
        text = read_text (path, budget);
      if (text == NULL)
        {
          /* A process that exited, or one of another user's, shows no
             root; a want of descriptors or memory leaves one unread.  */
          if (wanting (errno))
            err = errno;
          continue;
        }
      budget -= strlen (text) < budget ? strlen (text) : budget;
      for (char *line = text; *line != '\0';)
        {
          char *nl = strchr (line, '\n');
          if (nl != NULL)
            *nl = '\0';
          unsigned int maj, min;
          size_t len;
          const char *f = field_of (line, 4, &len);
          if (sscanf (line, "%*u %*u %u:%u", &maj, &min) == 2)
            for (size_t i = 0; i < n; i++)
              if (devs[i] == (((unsigned long int) maj << 20) | min))
                {
                  char *at = f != NULL ? unescape (f, len) : NULL;
                  if (at == NULL || noutside == 16)
                    {
                      free (at);
                      outside_many = 1;
                    }
                  else
                    outside_at[noutside++] = at;
                }
          if (nl == NULL)
            break;
          line = nl + 1;
        }
      free (text);
    }
  closedir (d);
  return err;
}

/* Whether the kernel's dev_t DEV is a mount of table T.  */
static int
in_table (const struct mtab *t, unsigned long int dev)
{
  for (size_t j = 0; t->state == 1 && j < t->n; j++)
    if ((((unsigned long int) t->e[j].maj << 20) | t->e[j].min) == dev)
      return 1;
  return 0;
}

/* For a walk of this process's own (fuse_fd_here): whether the overlayfs
   mount whose super options are OPTS, DEPTH overlays deep, may have a
   layer on FUSE, whose server the overlay asks for each name looked up
   in it and whose answers (owners, modes) it shows as its own (the
   124th review's 1-2: an overlay over an overlay over FUSE, a layer
   named through a link or by a relative name, each passed).  None can
   be where FUSE is not registered or no FUSE connection exists.  Else
   each layer must pass layer_untrusted; 8 overlays deep at most.
   Where there is no list of connections (root without CAP_SYS_ADMIN,
   as in a container) the layers are judged by the tables alone:
   refusing them all refused every default Docker or podman container
   (the 125th review's B).  A layer is judged by the name its mounter
   gave, so what this cannot see is root's doing: a layer moved,
   shadowed or unmounted (lazily, or while an overlay holds it) since
   it was mounted, an overlay moved or propagated from another
   namespace, a name its mounter read in another root (the 127th
   review's 1-6).  Each such overlay is root's own choice of layers;
   where its server does not answer, the walk's time limit ends the
   wait (bounded.c).  */
static int
overlay_untrusted (const char *opts, int depth)
{
  conns_read ();
  if (no_fuse || (conns_state == 1 && nconns == 0))
    return 0;
  /* Without the list for want of descriptors or memory, not for want of
     CAP_SYS_ADMIN: the tables alone would pass a relative layer on a
     FUSE mount outside this root (the 144th review's 4).  */
  if (conns_state != 1 && wanting (conns_err))
    {
      note_list_unread ();
      say_why ("the list of FUSE connections cannot be read (%s)",
               strerror (conns_err));
      return 1;
    }
  if (depth >= 8)
    {
      say_why ("overlays stacked more than 8 deep");
      return 1;
    }
  /* Placed once for each list read: a walk meets many overlays.  */
  static int placed_gen = -1;
  if (conns_state == 1 && placed_gen != conns_gen)
    {
      outside_clear ();
      unsigned long int *devs = malloc (nconns * sizeof *devs);
      size_t n = 0;
      if (devs == NULL)
        {
          note_unread (ENOMEM, 0);
          say_why ("%s", strerror (ENOMEM));
          return 1;
        }
      /* Those our root shows the walk of a layer meets; of the others,
         a chroot's (a mount under our root) shows none.  */
      for (size_t c = 0; c < nconns; c++)
        if (!in_table (&tabs[0], conns[c]) && !in_table (&tabs[1], conns[c]))
          devs[n++] = conns[c];
      int e = n > 0 ? conns_placed (devs, n) : 0;
      free (devs);
      if (e != 0)
        {
          outside_clear ();
          note_unread (e, 0);
          say_why ("the FUSE mounts outside this root cannot be placed (%s)",
                   strerror (e));
          return 1;
        }
      placed_gen = conns_gen;
    }
  int deeper = depth + 1;
  return overlay_layers (opts, layer_untrusted, &deeper);
}

int
fuse_on_path (const char *dir, const char *path)
{
  unread_errno = 0;
  unread_list = 0;
  for (int i = 0; i < 2; i++)
    {
      const struct mtab *t = mtab_get (i, dir);
      /* Unreadable (over 64 MB): any mount may be on the way.  */
      if (t->state < 0)
        note_unread (t->err, 1);
      if (t->state < 0 || fuse_point_over (t, path))
        return 1;
    }
  return 0;
}
