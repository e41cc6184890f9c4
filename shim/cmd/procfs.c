/* Reading another process: /proc/PID, its memory, the ELF files it maps.
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

/* Everything here reads files under /proc/PID (maps, auxv, environ,
   status, the task directory), the process's memory through
   /proc/PID/mem, and the ELF files it maps, as the process sees them
   (its root may differ from ours).  Nothing here stops the process or knows about the report.  */

#define _GNU_SOURCE 1
#include <ctype.h>
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/fsuid.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <rseq-layout.h>

#include "fuse-check.h"
#include "procfs.h"
#include "tunables.h"

/* Reads all of PATH into a malloc'ed buffer.  Returns its length, or
   -1 with errno set: EFBIG when it is longer than MAX bytes (a part of
   a file read as the whole gave wrong answers: twenty-third review).  */
ssize_t
proc_slurp (const char *path, char **out, size_t max)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  size_t cap = 4096, len = 0;
  char *buf = malloc (cap + 1);
  if (buf == NULL)
    {
      close (fd);
      errno = ENOMEM;
      return -1;
    }
  for (;;)
    {
      if (len == cap)
        {
          if (cap >= max)
            {
              char more;
              ssize_t r;
              while ((r = read (fd, &more, 1)) < 0 && errno == EINTR)
                ;
              if (r == 0)
                break;
              int err = r > 0 ? EFBIG : errno;
              free (buf);
              close (fd);
              errno = err;
              return -1;
            }
          cap *= 2;
          char *n = realloc (buf, cap + 1);
          if (n == NULL)
            {
              free (buf);
              close (fd);
              errno = ENOMEM;
              return -1;
            }
          buf = n;
        }
      ssize_t n = read (fd, buf + len, cap - len);
      if (n < 0)
        {
          int err = errno;
          free (buf);
          close (fd);
          errno = err;
          return -1;
        }
      if (n == 0)
        break;
      len += n;
    }
  close (fd);
  buf[len] = '\0';
  *out = buf;
  return (ssize_t) len;
}

int
proc_status_field (const char *dir, const char *key, char *out,
                   size_t outlen)
{
  char path[PATH_MAX], *buf;
  snprintf (path, sizeof path, "%s/status", dir);
  if (proc_slurp (path, &buf, 1 << 16) < 0)
    return -1;
  size_t klen = strlen (key);
  int found = -1;
  for (char *line = buf; line != NULL && *line != '\0';)
    {
      char *nl = strchr (line, '\n');
      if (nl != NULL)
        *nl = '\0';
      if (strncmp (line, key, klen) == 0 && line[klen] == ':')
        {
          const char *v = line + klen + 1;
          while (*v == ' ' || *v == '\t')
            v++;
          snprintf (out, outlen, "%s", v);
          found = 0;
          break;
        }
      line = nl != NULL ? nl + 1 : NULL;
    }
  free (buf);
  if (found != 0)
    errno = ENOENT;
  return found;
}

/* One allocation holds the entries and, after them, the text of the
   file, which their paths point into: a path of its own for each entry
   (PATH_MAX bytes) made info -p of a process with 65,000 mappings take
   267 MB (twenty-second review), and max_map_count may be a million.
   The text is moved, not copied: a copy doubled the peak (twenty-third
   review: 132 MB for 64 MB of maps).  free (*MAPS) frees both.  Maps
   over 64 MB (long names) are refused, EFBIG.  */
int
read_maps (const char *dir, struct proc_map **maps, size_t *nmaps)
{
  char path[128], *buf;
  snprintf (path, sizeof path, "%s/maps", dir);
  ssize_t len = proc_slurp (path, &buf, 64u << 20);
  if (len < 0)
    return -1;
  size_t lines = 1;
  for (ssize_t i = 0; i < len; i++)
    lines += buf[i] == '\n';
  /* A large block is grown in place (mremap), and the text slides up
     over its own bytes.  */
  char *grown = realloc (buf, lines * sizeof (struct proc_map)
                              + (size_t) len + 1);
  if (grown == NULL)
    {
      free (buf);
      errno = ENOMEM;
      return -1;
    }
  struct proc_map *m = (struct proc_map *) grown;
  char *text = (char *) (m + lines);
  memmove (text, grown, (size_t) len + 1);
  size_t n = 0;
  for (char *line = text; *line != '\0' && n < lines;)
    {
      char *nl = strchr (line, '\n');
      if (nl != NULL)
        *nl = '\0';
      unsigned long long int start, end, offset, inode = 0;
      unsigned int major = 0, minor = 0;
      char perms[8];
      int pos = 0;
      if (sscanf (line, "%llx-%llx %7s %llx %x:%x %llu%n", &start, &end,
                  perms, &offset, &major, &minor, &inode, &pos) >= 4)
        {
          char *p = line + pos;
          while (*p == ' ')
            p++;
          m[n].start = start;
          m[n].end = end;
          m[n].offset = offset;
          m[n].dev_major = major;
          m[n].dev_minor = minor;
          m[n].inode = inode;
          snprintf (m[n].perms, sizeof m[n].perms, "%.4s", perms);
          /* A name longer than any path open takes cannot be opened.  */
          if (strlen (p) >= PATH_MAX)
            p[PATH_MAX - 1] = '\0';
          m[n].path = p;
          n++;
        }
      if (nl == NULL)
        break;
      line = nl + 1;
    }
  *maps = m;
  *nmaps = n;
  return 0;
}

const struct proc_map *
proc_find (const struct proc *p, uint64_t addr)
{
  /* The kernel lists the mappings in ascending order.  */
  size_t lo = 0, hi = p->nmaps;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (addr < p->maps[mid].start)
        hi = mid;
      else if (addr >= p->maps[mid].end)
        lo = mid + 1;
      else
        return &p->maps[mid];
    }
  return NULL;
}

const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash != NULL ? slash + 1 : path;
}

int
glibc_loader_name (const char *base)
{
  return (strncmp (base, "ld-", 3) == 0 && strncmp (base, "ld-musl", 7) != 0)
         || strcmp (base, "ld.so") == 0;
}

int
musl_loader_name (const char *base)
{
  return strncmp (base, "ld-musl", 7) == 0
         || strncmp (base, "libc.musl", 9) == 0
         || strcmp (base, "libc.so") == 0
         || strcmp (base, "libc.so (deleted)") == 0;
}

/* A regular file's descriptor for reading from the O_PATH descriptor
   FD (closed), or -1: O_PATH opens nothing (a device node's open has
   effects of its own), and the file is checked first: not on FUSE
   (fuse_fd, before fstat: FUSE asks its server for the attributes),
   and where M is not NULL the file mapped there (device and inode).  */
static int
reopen_regular (const char *dir, int fd, const struct proc_map *m)
{
  if (fd < 0)
    return -1;
  struct stat st;
  int ret = -1;
  if (!fuse_fd (dir, fd) && fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
      && (m == NULL
          || (major (st.st_dev) == m->dev_major
              && minor (st.st_dev) == m->dev_minor
              && (uint64_t) st.st_ino == m->inode)))
    {
      char self[64];
      snprintf (self, sizeof self, "/proc/self/fd/%d", fd);
      ret = open (self, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    }
  close (fd);
  return ret;
}

/* Opens PATH as the process sees it (its root may differ from ours),
   else as we see it (/proc/PID/maps names a file as the reader sees
   it, where the reader can).  Where M is not NULL, only the file
   mapped there: a name is the process's to choose, and a link at it in
   a root of its own, resolved against ours, named a file outside it
   (sixteenth review).  Where only OURS is, that holds for the name as
   we see it alone: a process in a chroot, whatever its user, had a link
   at its name resolved against our root read for it (twenty-first
   review).  */
static int
open_by_name (const char *dir, const char *path, const struct proc_map *m,
              const struct proc_map *ours)
{
  /* A lookup passes through every directory on the way, and one on
     FUSE asks its server (twenty-third review: a FUSE mount over the
     directory of a mapped file held info -p; root's child was left
     behind).  */
  if (fuse_on_path (dir, path))
    return -1;
  char rooted[PATH_MAX + 32];
  snprintf (rooted, sizeof rooted, "%s/root%s", dir, path);
  int fd = reopen_regular (dir, open (rooted, O_PATH | O_CLOEXEC), m);
  if (fd < 0)
    fd = reopen_regular (dir, open (path, O_PATH | O_CLOEXEC),
                         m != NULL ? m : ours);
  /* A process in another mount namespace, whose root is a directory
     that is no mount point (a chroot's, as the matrix's): maps names
     its files from the machine's root, through that directory, as
     the link to its root does (session 58: a user's info -p in the
     bullseye chroot opened neither "/proc/PID/root/work/.../lib/..."
     nor "/work/.../lib/..." and reported the C library unknown).
     Only the file mapped at M.  */
  char top[PATH_MAX];
  snprintf (rooted, sizeof rooted, "%s/root", dir);
  ssize_t n = fd < 0 && m != NULL ? readlink (rooted, top, sizeof top - 1)
              : -1;
  if (n > 1 && top[0] == '/')
    {
      top[n] = '\0';
      if (strncmp (path, top, (size_t) n) == 0 && path[n] == '/'
          && !fuse_on_path (dir, path + n))
        {
          snprintf (rooted, sizeof rooted, "%s/root%s", dir, path + n);
          fd = reopen_regular (dir, open (rooted, O_PATH | O_CLOEXEC), m);
        }
    }
  return fd;
}

/* Fields FIELD and FIELD + 1 of DIR's stat file, numbered as in
   proc(5), in *A and *B (0 where absent: the kernel shows 0 for the
   memory bounds to a reader that may not trace the process).  The
   name, in parentheses, may hold anything: the fields go on after the
   last parenthesis, the third first.  -1 where the file cannot be
   read.  */
static int
stat_pair (const char *dir, int field, unsigned long long int *a,
           unsigned long long int *b)
{
  char path[PATH_MAX], *buf;
  snprintf (path, sizeof path, "%s/stat", dir);
  if (proc_slurp (path, &buf, 1 << 16) < 0)
    return -1;
  *a = *b = 0;
  const char *f = strrchr (buf, ')');
  for (int n = 2; f != NULL && n <= field;)
    {
      f = strchr (f + 1, ' ');
      if (f == NULL)
        break;
      n++;
      if (n == field)
        *a = strtoull (f + 1, NULL, 10);
      else if (n == field + 1)
        *b = strtoull (f + 1, NULL, 10);
    }
  free (buf);
  return 0;
}

int
proc_kernel_thread (const char *dir)
{
  char path[PATH_MAX], *buf;
  snprintf (path, sizeof path, "%s/stat", dir);
  if (proc_slurp (path, &buf, 1 << 16) < 0)
    return -1;
  /* The name, in parentheses, may hold anything: the fields go on
     after the last parenthesis.  The ninth is the flags.  */
  const char *end = strrchr (buf, ')');
  unsigned long int flags;
  int ret = -1;
  if (end != NULL
      && sscanf (end + 1, " %*c %*d %*d %*d %*d %*d %lu", &flags) == 1)
    ret = (flags & 0x00200000) != 0; /* PF_KTHREAD */
  free (buf);
  return ret;
}

int
proc_identity (pid_t pid, struct proc_identity *id)
{
  char path[64], *buf;
  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  if (proc_slurp (path, &buf, 1 << 16) < 0)
    return -1;
  /* The name, in parentheses, may hold anything: the fields go on
     after the last parenthesis, the third field first.  Those of the
     memory are 0 where we may not read them, and for a main thread
     that has exited.  */
  static const int fields[] = { 22, 26, 28, 47, 48, 50 };
  memset (id, 0, sizeof *id);
  const char *f = strrchr (buf, ')');
  int field = 2, got = 0;
  while (f != NULL && got < (int) (sizeof fields / sizeof fields[0]))
    {
      f = strchr (f + 1, ' ');
      if (f == NULL)
        break;
      field++;
      if (field == fields[got])
        id->v[got++] = strtoull (f + 1, NULL, 10);
    }
  free (buf);
  if (got < 1)
    return -1;
  /* The program's file: an exec of another program with the layout of
     the first (setarch -R, the same link addresses) has another
     (twenty-fourth review).  Its device from statx asking for nothing;
     its inode where it is not on FUSE (fuse-check.h).  */
  char dir[32];
  snprintf (dir, sizeof dir, "/proc/%d", (int) pid);
  snprintf (path, sizeof path, "%s/exe", dir);
  int fd = open (path, O_PATH | O_CLOEXEC);
  if (fd >= 0)
    {
      struct stat st;
      if (!fuse_fd (dir, fd) && fstat (fd, &st) == 0)
        {
          id->v[6] = (unsigned long long int) st.st_dev + 1;
          id->v[7] = (unsigned long long int) st.st_ino + 1;
        }
      close (fd);
    }
  return 0;
}

int
proc_identity_same (const struct proc_identity *a,
                    const struct proc_identity *b)
{
  if (a->v[0] != b->v[0])
    return 0;
  for (size_t i = 1; i < sizeof a->v / sizeof a->v[0]; i++)
    if (a->v[i] != 0 && b->v[i] != 0 && a->v[i] != b->v[i])
      return 0;
  return 1;
}

/* The fourth (file-system) ID of the line KEY ("Uid" or "Gid") of
   DIR/status.  */
static int
status_fs_id (const char *dir, const char *key, unsigned long int *id)
{
  char v[128];
  unsigned long int real, eff, saved, fs;
  if (proc_status_field (dir, key, v, sizeof v) != 0
      || sscanf (v, "%lu %lu %lu %lu", &real, &eff, &saved, &fs) != 4)
    return -1;
  *id = fs;
  return 0;
}

/* The process's supplementary groups, from DIR/status's "Groups:"
   line, all of them or -1: with fewer, the child would escape a denial
   that one of them carries (a file whose group may not read it but
   others may, an ACL entry for the group: nineteenth review, which
   found setgroups (0) doing that).  A line cut short (the file longer
   than what is read) is a failure too.  *GROUPS is malloc'ed.  */
static int
status_groups (const char *dir, gid_t **groups, size_t *count)
{
  char path[PATH_MAX], *buf;
  snprintf (path, sizeof path, "%s/status", dir);
  /* 65536 groups (NGROUPS_MAX) of 10 digits each fit.  */
  ssize_t len = proc_slurp (path, &buf, 1 << 20);
  if (len < 0)
    return -1;
  int ret = -1;
  char *line = strstr (buf, "\nGroups:");
  char *end = line != NULL ? strchr (line + 1, '\n') : NULL;
  size_t n = 0;
  gid_t *g = NULL;
  if (end != NULL)
    {
      *end = '\0';
      g = malloc ((size_t) (end - line) / 2 * sizeof *g + sizeof *g);
      const char *p = line + strlen ("\nGroups:");
      ret = g != NULL ? 0 : -1;
      while (ret == 0)
        {
          while (*p == ' ' || *p == '\t')
            p++;
          if (*p == '\0')
            break;
          char *after;
          errno = 0;
          unsigned long int v = strtoul (p, &after, 10);
          if (after == p || errno != 0 || v > (gid_t) -1 - 1
              || (*after != ' ' && *after != '\t' && *after != '\0'))
            ret = -1;
          else
            g[n++] = (gid_t) v;
          p = after;
        }
    }
  free (buf);
  if (ret != 0)
    {
      free (g);
      return -1;
    }
  *groups = g;
  *count = n;
  return 0;
}

/* Whether ID, as this command's user namespace shows it, may stand for
   an ID that namespace does not map: the overflow ID (KIND "uid" or
   "gid": /proc/sys/kernel/overflowuid, 65534), outside the initial
   namespace, which maps every ID.  A process of root's user namespace
   U with a supplementary group U does not map showed it as 65534, which
   U maps to another group, and the child that took it read a file that
   group may not (twenty-first review).  */
static int
maybe_unmapped (unsigned long int id, const char *kind)
{
  char path[64], buf[256];
  snprintf (path, sizeof path, "/proc/sys/kernel/overflow%s", kind);
  unsigned long int overflow = 65534;
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0)
    {
      ssize_t n = read (fd, buf, sizeof buf - 1);
      close (fd);
      if (n > 0)
        {
          buf[n] = '\0';
          overflow = strtoul (buf, NULL, 10);
        }
    }
  if (id != overflow)
    return 0;
  snprintf (path, sizeof path, "/proc/self/%s_map", kind);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 1;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 1;
  buf[n] = '\0';
  unsigned long int inner, outer, count;
  return !(sscanf (buf, "%lu %lu %lu", &inner, &outer, &count) == 3
           && inner == 0 && outer == 0 && count == 4294967295ul);
}

/* The child's capabilities, all dropped (capset: version 3, two
   words each).  */
struct cap_header
{
  uint32_t version;
  int pid;
};
struct cap_data
{
  uint32_t effective, permitted, inheritable;
};
#define CAP_VERSION_3 0x20080522

/* Makes this (child) process the file-system user UID and group GID,
   with the supplementary groups GROUPS and no capabilities: it opens
   what the process could open, and nothing else.  Its real and saved
   IDs stay root's, so that the process's user cannot signal it (a
   child that had become that user altogether was stopped, and info -p
   waited for it for ever: nineteenth review).  */
static int
become_fs_user (unsigned long int uid, unsigned long int gid,
                const gid_t *groups, size_t count)
{
  if (setgroups (count, groups) != 0)
    return -1;
  setfsgid ((gid_t) gid);
  setfsuid ((uid_t) uid);
  /* Each answers the previous ID, and refuses silently: ask again.  */
  if ((unsigned long int) setfsgid ((gid_t) -1) != gid
      || (unsigned long int) setfsuid ((uid_t) -1) != uid)
    return -1;
  struct cap_header h = { CAP_VERSION_3, 0 };
  struct cap_data d[2];
  memset (d, 0, sizeof d);
  return syscall (SYS_capset, &h, d) == 0 ? 0 : -1;
}

/* How long root waits for the child (a file on a network or FUSE file
   system may never answer): then the file is unknown.  */
#define OPEN_AS_TARGET_MS 10000

/* open_by_name in a child that has become the process's file-system
   user and group (become_fs_user), which passes the descriptor back:
   what root opens for a name the process chose is what the process
   could open itself.  */
static int
open_as_target (const char *dir, const char *path, const struct proc_map *m)
{
  /* Only the file mapped at M, whatever the process's user: a name
     resolved by another root than the process's (a link in a chroot,
     absolute, led out of it) or through a file system that serves the
     child as root (FUSE) opened another file (twenty-second review).
     A file mapped from FUSE is not looked up at all.  After one child
     that did not answer in time, no other is started for this
     process: each could cost as long (twenty-second review: 112 names,
     19 minutes).  */
  static int stalled;
  if (m == NULL || stalled)
    return -1;
  unsigned long int uid, gid;
  gid_t *groups;
  size_t ngroups;
  if (status_fs_id (dir, "Uid", &uid) != 0
      || status_fs_id (dir, "Gid", &gid) != 0
      || status_groups (dir, &groups, &ngroups) != 0)
    return -1;
  /* IDs this namespace cannot name: the process's rights are unknown
     here, so nothing is opened for it.  */
  int unmapped = maybe_unmapped (uid, "uid") || maybe_unmapped (gid, "gid");
  for (size_t i = 0; i < ngroups && !unmapped; i++)
    unmapped = maybe_unmapped (groups[i], "gid");
  if (unmapped)
    {
      free (groups);
      return -1;
    }
  int sv[2];
  if (socketpair (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    {
      free (groups);
      return -1;
    }
  pid_t pid = fork ();
  if (pid < 0)
    {
      free (groups);
      close (sv[0]);
      close (sv[1]);
      return -1;
    }
  if (pid == 0)
    {
      close (sv[0]);
      if (become_fs_user (uid, gid, groups, ngroups) != 0)
        _exit (1);
      int fd = open_by_name (dir, path, m, m);
      if (fd < 0)
        _exit (1);
      char byte = 0;
      union
      {
        struct cmsghdr h;
        char buf[CMSG_SPACE (sizeof (int))];
      } ctl;
      memset (&ctl, 0, sizeof ctl);
      struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
      struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
                            .msg_control = ctl.buf,
                            .msg_controllen = sizeof ctl.buf };
      struct cmsghdr *c = CMSG_FIRSTHDR (&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN (sizeof (int));
      memcpy (CMSG_DATA (c), &fd, sizeof fd);
      _exit (sendmsg (sv[1], &msg, 0) == 1 ? 0 : 1);
    }
  free (groups);
  close (sv[1]);
  int fd = -1;
  char byte;
  union
  {
    struct cmsghdr h;
    char buf[CMSG_SPACE (sizeof (int))];
  } ctl;
  struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
  struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
                        .msg_control = ctl.buf,
                        .msg_controllen = sizeof ctl.buf };
  ssize_t n = -1;
  struct pollfd p = { .fd = sv[0], .events = POLLIN };
  int ready;
  while ((ready = poll (&p, 1, OPEN_AS_TARGET_MS)) < 0 && errno == EINTR)
    ;
  if (ready > 0)
    while ((n = recvmsg (sv[0], &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT)) < 0
           && errno == EINTR)
      ;
  struct cmsghdr *c = n == 1 ? CMSG_FIRSTHDR (&msg) : NULL;
  if (c != NULL && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS
      && c->cmsg_len == CMSG_LEN (sizeof (int)))
    memcpy (&fd, CMSG_DATA (c), sizeof fd);
  close (sv[0]);
  /* The child is reaped if it ends within 100 ms, else left to be
     reaped when this command exits: one stuck in a FUSE request (its
     open, or the FLUSH of its exit once it has handed the descriptor
     over) ends only when the server answers, SIGKILL or not (twenty-
     first review: info -p waited for it for ever; a later quick review:
     the FLUSH).  */
  if (ready <= 0)
    {
      kill (pid, SIGKILL);
      stalled = 1;
    }
  for (int i = 0; i < 10; i++)
    {
      pid_t w = waitpid (pid, NULL, WNOHANG);
      if (w == pid || (w < 0 && errno != EINTR))
        break;
      struct timespec pause = { 0, 10 * 1000 * 1000 };
      nanosleep (&pause, NULL);
    }
  return fd;
}

/* The file the process maps at M (PATH, as its maps name it).  The name
   is the process's to choose: it can map a file, remove it and put a
   link (or a device node) where the name was, and root's info -p must
   not open for it what it could not open itself (review: a root-only
   file read through "libc.so.6 (deleted)").  So root opens the mapping
   itself, /proc/PID/map_files/START-END (the kernel lets root alone
   open those), or, where that is refused (no CONFIG_CHECKPOINT_RESTORE,
   root of a user namespace, a main thread gone), the name as the
   process's user; anyone else can open no more than its own files
   anyway, and opens the name.  */
static int
open_target_file (const char *dir, const struct proc_map *m,
                  const char *path)
{
  if (path[0] != '/')
    return -1;
  /* A file mapped from FUSE is neither opened nor looked up, by anyone
     (fuse-check.h).  */
  if (m != NULL && fuse_dev (dir, m->dev_major, m->dev_minor))
    return -1;
  /* Anyone else opens no more than its own files, but the name is the
     process's: only the file mapped there is read (twenty-third review:
     a musl C library named "libc.so.6 (deleted)" beside the glibc the
     process maps was reported).  */
  if (geteuid () != 0)
    return open_by_name (dir, path, m, m);
  if (m != NULL)
    {
      /* The process's directory, not a thread's: only it has them.  */
      const char *task = strstr (dir, "/task/");
      int dirlen = task != NULL ? (int) (task - dir) : (int) strlen (dir);
      char link[128];
      snprintf (link, sizeof link, "%.*s/map_files/%" PRIx64 "-%" PRIx64,
                dirlen < 64 ? dirlen : 64, dir, m->start, m->end);
      /* O_PATH first: a mapped device node is never opened.  */
      int fd = open (link, O_PATH | O_CLOEXEC);
      if (fd >= 0)
        return reopen_regular (dir, fd, NULL);
    }
  return open_as_target (dir, path, m);
}

static int
pread_full (int fd, void *buf, size_t len, uint64_t off)
{
  return pread (fd, buf, len, (off_t) off) == (ssize_t) len ? 0 : -1;
}

/* The ELF file FD's header (64-bit, at most 4096 sections) in *EH, the
   virtual address of its first PT_LOAD in *FIRST_VADDR and its section
   headers in *SH (malloc'ed), or -1.  */
static int
elf_headers (int fd, Elf64_Ehdr *eh, uint64_t *first_vaddr,
             Elf64_Shdr **sh)
{
  if (pread_full (fd, eh, sizeof *eh, 0) != 0
      || memcmp (eh->e_ident, ELFMAG, SELFMAG) != 0
      || eh->e_ident[EI_CLASS] != ELFCLASS64
      || eh->e_shentsize != sizeof (Elf64_Shdr)
      || eh->e_phentsize != sizeof (Elf64_Phdr)
      || eh->e_shnum == 0 || eh->e_shnum > 4096)
    return -1;
  *first_vaddr = 0;
  for (int i = 0; i < eh->e_phnum; i++)
    {
      Elf64_Phdr ph;
      if (pread_full (fd, &ph, sizeof ph, eh->e_phoff + i * sizeof ph) != 0)
        return -1;
      if (ph.p_type == PT_LOAD)
        {
          *first_vaddr = ph.p_vaddr - ph.p_offset;
          break;
        }
    }
  *sh = malloc (eh->e_shnum * sizeof **sh);
  if (*sh == NULL
      || pread_full (fd, *sh, eh->e_shnum * sizeof **sh, eh->e_shoff) != 0)
    {
      free (*sh);
      return -1;
    }
  return 0;
}

/* The defined symbol NAME of the ELF file FD, from its dynamic symbol
   table, or from the static one too when SYMTAB: its value and type,
   and the virtual address of the file's first PT_LOAD.  */
static int
elf_symbol (int fd, const char *name, int symtab, uint64_t *value,
            unsigned char *type, uint64_t *first_vaddr)
{
  Elf64_Ehdr eh;
  Elf64_Shdr *sh;
  if (elf_headers (fd, &eh, first_vaddr, &sh) != 0)
    return -1;
  int found = -1;
  /* The first table of each type only: an object has at most one of
     each (gABI), and a file with thousands of them, which the kernel
     never reads, would otherwise take each lookup through all.  */
  int seen_dynsym = 0, seen_symtab = 0;
  for (int i = 0; i < eh.e_shnum && found != 0; i++)
    {
      if (sh[i].sh_type == SHT_DYNSYM && seen_dynsym++)
        continue;
      if (sh[i].sh_type == SHT_SYMTAB && seen_symtab++)
        continue;
      if ((sh[i].sh_type != SHT_DYNSYM
           && !(symtab && sh[i].sh_type == SHT_SYMTAB))
          || sh[i].sh_link >= eh.e_shnum
          || sh[i].sh_entsize != sizeof (Elf64_Sym)
          || sh[i].sh_size > (64u << 20))
        continue;
      const Elf64_Shdr *strsh = &sh[sh[i].sh_link];
      if (strsh->sh_size > (64u << 20))
        continue;
      Elf64_Sym *syms = malloc (sh[i].sh_size);
      char *strs = malloc (strsh->sh_size + 1);
      if (syms != NULL && strs != NULL
          && pread_full (fd, syms, sh[i].sh_size, sh[i].sh_offset) == 0
          && pread_full (fd, strs, strsh->sh_size, strsh->sh_offset) == 0)
        {
          strs[strsh->sh_size] = '\0';
          size_t count = sh[i].sh_size / sizeof (Elf64_Sym);
          for (size_t s = 0; s < count; s++)
            if (syms[s].st_shndx != SHN_UNDEF
                && syms[s].st_name < strsh->sh_size
                && strcmp (strs + syms[s].st_name, name) == 0)
              {
                *value = syms[s].st_value;
                *type = ELF64_ST_TYPE (syms[s].st_info);
                found = 0;
                break;
              }
        }
      free (syms);
      free (strs);
    }
  free (sh);
  return found;
}

/* The strings of PATH's dynamic section with tag TAG in turn: copied
   to OUT (OUTLEN bytes) and 0 at the first where PREFIX is NULL, 0 at
   the first that starts with PREFIX where it is not; -1 where there is
   none, -2 where the file (FD, closed here) cannot be read as an ELF
   file.  */
static int
elf_file_dyn_string (int fd, int64_t tag, const char *prefix, char *out,
                     size_t outlen)
{
  if (fd < 0)
    return -2;
  struct stat st;
  Elf64_Ehdr eh;
  Elf64_Shdr *sh = NULL;
  uint64_t first;
  int ret = -1;
  /* A library has about ten program headers; elf_headers reads them one
     by one (forty-ninth review: 65535 of them cost a second an
     entry).  */
  if (fstat (fd, &st) != 0 || pread_full (fd, &eh, sizeof eh, 0) != 0)
    {
      close (fd);
      return -2;
    }
  /* A file read whole that is no ELF file (or no regular file: a
     device) names nothing; only one that cannot be read is unknown (56th
     review: a data file mapped by a program that needs no C library).  */
  if (!S_ISREG (st.st_mode) || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0)
    {
      close (fd);
      return -1;
    }
  if (eh.e_phnum > 64 || elf_headers (fd, &eh, &first, &sh) != 0)
    {
      close (fd);
      return -2;
    }
  /* The first SHT_DYNAMIC section, its string table by sh_link; an
     object has one, of a few hundred bytes: a larger one is no
     library's.  */
  for (int i = 0; i < eh.e_shnum; i++)
    {
      if (sh[i].sh_type != SHT_DYNAMIC)
        continue;
      if (sh[i].sh_link >= eh.e_shnum || sh[i].sh_size > (64u << 10)
          || sh[i].sh_entsize != sizeof (Elf64_Dyn))
        break;
      const Elf64_Shdr *str = &sh[sh[i].sh_link];
      size_t n = sh[i].sh_size / sizeof (Elf64_Dyn);
      Elf64_Dyn *dyn = malloc (n * sizeof *dyn + 1);
      if (dyn == NULL
          || pread_full (fd, dyn, n * sizeof *dyn, sh[i].sh_offset) != 0)
        ret = -2;
      else
        for (size_t k = 0; k < n && dyn[k].d_tag != DT_NULL && ret == -1;
             k++)
          if (dyn[k].d_tag == tag && dyn[k].d_un.d_val < str->sh_size)
            {
              size_t want = str->sh_size - dyn[k].d_un.d_val;
              if (want > outlen - 1)
                want = outlen - 1;
              if (pread_full (fd, out, want,
                              str->sh_offset + dyn[k].d_un.d_val) != 0)
                {
                  ret = -2;
                  break;
                }
              out[want] = '\0';
              /* A name longer than OUT is no match for any.  */
              if (strlen (out) >= outlen - 1)
                continue;
              if (prefix == NULL
                  || strncmp (out, prefix, strlen (prefix)) == 0)
                ret = 0;
            }
      free (dyn);
      break;
    }
  free (sh);
  close (fd);
  return ret;
}

int
elf_file_soname (const char *path, char *out, size_t outlen)
{
  /* Non-blocking: a FIFO put where a library was must not hold the
     caller.  */
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  return elf_file_dyn_string (fd, DT_SONAME, NULL, out, outlen) == 0
         ? 0 : -1;
}

/* The allocated section NAME of the ELF file FD (found by the section
   header string table, which strip keeps): its address, size and the
   virtual address of the file's first PT_LOAD.  */
static int
elf_section (int fd, const char *name, uint64_t *addr, uint64_t *size,
             uint64_t *first_vaddr)
{
  Elf64_Ehdr eh;
  Elf64_Shdr *sh;
  if (elf_headers (fd, &eh, first_vaddr, &sh) != 0)
    return -1;
  if (eh.e_shstrndx >= eh.e_shnum)
    {
      free (sh);
      return -1;
    }
  const Elf64_Shdr *strsh = &sh[eh.e_shstrndx];
  size_t len = strlen (name);
  char *want = malloc (len + 1);
  int found = -1;
  for (int i = 0; want != NULL && i < eh.e_shnum && found != 0; i++)
    if ((sh[i].sh_flags & SHF_ALLOC) != 0 && sh[i].sh_type == SHT_PROGBITS
        && sh[i].sh_name < strsh->sh_size
        && strsh->sh_size - sh[i].sh_name > len
        && pread_full (fd, want, len + 1,
                       strsh->sh_offset + sh[i].sh_name) == 0
        && memcmp (want, name, len + 1) == 0)
      {
        *addr = sh[i].sh_addr;
        *size = sh[i].sh_size;
        found = 0;
      }
  free (want);
  free (sh);
  return found;
}

/* The file mapped as PATH: through /proc/PID/exe when EXE (the program
   itself, which stays readable there when deleted or in another mount
   namespace), else by its name in the process's root.  */
static int
open_mapped (struct proc *p, const struct proc_map *m, const char *path,
             int exe)
{
  if (!exe)
    return open_target_file (p->dir, m, path);
  char link[PATH_MAX + 8];
  snprintf (link, sizeof link, "%s/exe", p->dir);
  /* O_PATH first: a program on FUSE is not opened (fuse-check.h).  */
  return reopen_regular (p->dir, open (link, O_PATH | O_CLOEXEC), NULL);
}

/* Whether MAPPED, a name as /proc/PID/maps prints it, is PATH: the
   kernel writes a newline in a name as \012 there, while readlink of
   /proc/PID/exe gives it as it is.  */
static int
maps_name_is (const char *mapped, const char *path)
{
  for (; *path != '\0'; path++)
    if (*path == '\n')
      {
        if (strncmp (mapped, "\\012", 4) != 0)
          return 0;
        mapped += 4;
      }
    else if (*mapped++ != *path)
      return 0;
  return *mapped == '\0';
}

/* The lowest address at which the file mapped as PATH is mapped from
   its start (M: that mapping), or UINT64_MAX.  For the program (EXE),
   the file of /proc/PID/exe, by device and inode where they can be had:
   its symbols are read from there, and another file may have been
   mapped under its name (twenty-third review).  Otherwise the lowest
   where it is a loaded object, if it is anywhere: a copy mapped as
   data lies lower (64th review: glibc's thread list read through a
   data mapping of libc.so.6, every thread "unknown").  */
static uint64_t
mapped_start (struct proc *p, const char *path, int exe,
              const struct proc_map **m)
{
  struct stat st;
  int by_file = 0;
  if (exe)
    {
      char link[PATH_MAX + 8];
      snprintf (link, sizeof link, "%s/exe", p->dir);
      int fd = open (link, O_PATH | O_CLOEXEC);
      by_file = fd >= 0 && !fuse_fd (p->dir, fd) && fstat (fd, &st) == 0;
      if (fd >= 0)
        close (fd);
    }
  *m = NULL;
  for (size_t i = 0; i < p->nmaps; i++)
    if (p->maps[i].offset == 0
        && (by_file ? (p->maps[i].dev_major == major (st.st_dev)
                       && p->maps[i].dev_minor == minor (st.st_dev)
                       && p->maps[i].inode == (uint64_t) st.st_ino)
            : maps_name_is (p->maps[i].path, path)))
      {
        /* The kernel lists the mappings in ascending order.  */
        if (*m == NULL)
          *m = &p->maps[i];
        if (by_file || proc_map_is_image (p, i))
          {
            *m = &p->maps[i];
            break;
          }
      }
  return *m != NULL ? (*m)->start : UINT64_MAX;
}

/* The headers proc_map_is_image needs of M's file, read on the first
   question about that file.  Where PROC_IMAGE_FILES files were read,
   one more is not: it is judged as an unreadable one.  */
static const struct proc_image_file *
image_file (struct proc *p, const struct proc_map *m)
{
  static const struct proc_image_file unread = { .kind = -1 };
  for (size_t k = 0; k < p->nimage_files; k++)
    {
      const struct proc_image_file *f = &p->image_files[k];
      if (f->dev_major == m->dev_major && f->dev_minor == m->dev_minor
          && f->inode == m->inode
          && (m->inode != 0 || strcmp (f->path, m->path) == 0))
        return f;
    }
  if (p->nimage_files == PROC_IMAGE_FILES)
    return &unread;
  struct proc_image_file *f = &p->image_files[p->nimage_files++];
  *f = (struct proc_image_file) { .dev_major = m->dev_major,
                                  .dev_minor = m->dev_minor,
                                  .inode = m->inode, .path = m->path,
                                  .kind = -1 };
  int fd = open_mapped (p, m, m->path, 0);
  if (fd < 0)
    return f;
  /* The program headers in one read (63rd review: 4095 of them, one
     read each, per mapping).  A file that is no 64-bit ELF file is no
     object of ours, readable as it is.  */
  uint64_t page = (uint64_t) sysconf (_SC_PAGESIZE);
  Elf64_Ehdr eh;
  Elf64_Phdr *ph = NULL;
  f->kind = 0;
  if (pread_full (fd, &eh, sizeof eh, 0) == 0
      && memcmp (eh.e_ident, ELFMAG, SELFMAG) == 0
      && eh.e_ident[EI_CLASS] == ELFCLASS64
      && eh.e_phentsize == sizeof (Elf64_Phdr) && eh.e_phnum > 0
      && eh.e_phnum < 4096
      && (ph = malloc (eh.e_phnum * sizeof *ph)) != NULL
      && pread_full (fd, ph, eh.e_phnum * sizeof *ph, eh.e_phoff) == 0)
    {
      /* The first PT_LOAD gives the load bias; the last writable one
         (else the last) is the data.  */
      const Elf64_Phdr *first = NULL, *data = NULL;
      for (int k = 0; k < eh.e_phnum; k++)
        {
          if (ph[k].p_type != PT_LOAD)
            continue;
          if (first == NULL)
            first = &ph[k];
          if (ph[k].p_filesz != 0
              && (data == NULL || (ph[k].p_flags & PF_W) != 0
                  || (data->p_flags & PF_W) == 0))
            data = &ph[k];
        }
      if (first != NULL && data != NULL)
        {
          f->kind = 1;
          f->first_page = first->p_vaddr & ~(page - 1);
          f->data_page = data->p_vaddr & ~(page - 1);
          f->data_off = data->p_offset & ~(page - 1);
        }
    }
  free (ph);
  close (fd);
  return f;
}

/* Whether maps[I], a mapping from the start of a file, is where a
   loader mapped that file as an object: the file's writable segment
   (its data, which a loader maps from the file and nothing moves) is
   mapped from the file where the segment's address says, relative to
   maps[I].  A file mapped as data (a checksummer's, an ELF reader's),
   even executable, or twice (62nd review: from its start and from a
   page further, just above), is not, and its symbols' addresses there
   mean nothing: read from it, the shim's __rseq_offset was another
   word, and glibc's loader's 0 (59th and 60th reviews).  Code is not
   asked for: a program that moves its text to anonymous memory (huge
   pages) leaves none of the file's mapped executable (61st review).
   Where the file cannot be read, a mapping from further in the file
   before the next from its start will do: its symbols cannot be read
   then either.  Each file is read once (image_file) and each answer
   is a search of the sorted maps, so every mapping may be asked.  */
int
proc_map_is_image (struct proc *p, size_t i)
{
  const struct proc_map *m = &p->maps[i];
  if (m->offset != 0)
    return 0;
  const struct proc_image_file *f = image_file (p, m);
  if (f->kind == 1)
    {
      uint64_t want = m->start - f->first_page + f->data_page;
      const struct proc_map *n = proc_find (p, want);
      return n != NULL && n->start == want && n->offset == f->data_off
             && n->inode == m->inode && n->dev_major == m->dev_major
             && n->dev_minor == m->dev_minor;
    }
  if (f->kind == 0)
    return 0;
  for (size_t j = i + 1; j < p->nmaps && j < i + 64; j++)
    {
      const struct proc_map *n = &p->maps[j];
      if (n->inode != m->inode || n->dev_major != m->dev_major
          || n->dev_minor != m->dev_minor)
        continue;
      if (n->offset == 0)
        break;
      return 1;
    }
  return 0;
}

/* Whether the program's file (/proc/PID/exe) has a DT_SONAME: a shared
   object run as a program, which can only be a dynamic loader run as a
   command, whatever its name; never a static or static-pie program.
   0 where it cannot be read.  */
int
proc_exe_has_soname (struct proc *p)
{
  char name[256];
  return elf_file_dyn_string (open_mapped (p, NULL, NULL, 1), DT_SONAME,
                              NULL, name, sizeof name) == 0;
}

/* Whether M's file can be opened for reading as this process may.  */
int
proc_map_readable (struct proc *p, const struct proc_map *m)
{
  int fd = open_mapped (p, m, m->path, 0);
  if (fd < 0)
    return 0;
  close (fd);
  return 1;
}

/* The run-time address of NAME in the file mapped as PATH (or, GIVEN,
   the object mapped there), from its dynamic symbols (or SYMTAB its
   static ones too).  */
static uint64_t
symbol_in (struct proc *p, const char *path, const struct proc_map *given,
           const char *name, int symtab, int exe, int *is_tls,
           uint64_t *tls_value)
{
  const struct proc_map *m = given;
  uint64_t start = given != NULL ? given->start
                   : mapped_start (p, path, exe, &m);
  if (start == UINT64_MAX)
    return 0;
  int fd = open_mapped (p, m, path, exe);
  if (fd < 0)
    return 0;
  uint64_t value = 0, first_vaddr = 0;
  unsigned char type = 0;
  int ret = elf_symbol (fd, name, symtab, &value, &type, &first_vaddr);
  close (fd);
  if (ret != 0)
    return 0;
  if (is_tls != NULL)
    *is_tls = type == STT_TLS;
  if (type == STT_TLS)
    {
      if (tls_value != NULL)
        *tls_value = value;
      return 0;
    }
  return start - (first_vaddr & ~(uint64_t) 0xfff) + value;
}

uint64_t
proc_symbol (struct proc *p, const char *path, const char *name,
             int *is_tls, uint64_t *tls_value)
{
  return symbol_in (p, path, NULL, name, 0, 0, is_tls, tls_value);
}

uint64_t
proc_symbol_any (struct proc *p, const char *path, const char *name)
{
  return symbol_in (p, path, NULL, name, 1, 0, NULL, NULL);
}

uint64_t
proc_symbol_at (struct proc *p, const struct proc_map *m, const char *name)
{
  return symbol_in (p, m->path, m, name, 0, 0, NULL, NULL);
}

uint64_t
proc_symbol_exe (struct proc *p, const char *path, const char *name)
{
  return symbol_in (p, path, NULL, name, 1, 1, NULL, NULL);
}

uint64_t
proc_section_exe (struct proc *p, const char *path, const char *name,
                  uint64_t *size)
{
  const struct proc_map *m;
  uint64_t start = mapped_start (p, path, 1, &m);
  if (start == UINT64_MAX)
    return 0;
  int fd = open_mapped (p, NULL, path, 1);
  if (fd < 0)
    return 0;
  uint64_t addr = 0, first_vaddr = 0;
  int ret = elf_section (fd, name, &addr, size, &first_vaddr);
  close (fd);
  if (ret != 0 || addr == 0)
    return 0;
  return start - (first_vaddr & ~(uint64_t) 0xfff) + addr;
}

int
proc_exe_has_interp (struct proc *p)
{
  int fd = open_mapped (p, NULL, NULL, 1);
  if (fd < 0)
    return -1;
  Elf64_Ehdr eh;
  int ret = -1;
  if (pread_full (fd, &eh, sizeof eh, 0) == 0
      && memcmp (eh.e_ident, ELFMAG, SELFMAG) == 0
      && eh.e_ident[EI_CLASS] == ELFCLASS64
      && eh.e_phentsize == sizeof (Elf64_Phdr) && eh.e_phnum < 4096)
    {
      ret = 0;
      for (int i = 0; i < eh.e_phnum; i++)
        {
          Elf64_Phdr ph;
          if (pread_full (fd, &ph, sizeof ph, eh.e_phoff + i * sizeof ph) != 0)
            {
              ret = -1;
              break;
            }
          if (ph.p_type == PT_INTERP)
            {
              ret = 1;
              break;
            }
        }
    }
  close (fd);
  return ret;
}

int
proc_maps_need (struct proc *p, const char *prefix, size_t *files)
{
  /* Each file once, and a bounded number, as libc_identify: the
     program, which names the C library where anything does, is mapped
     lowest but in rare layouts, and a program that maps more files
     than that before its C library needs none.  */
  const struct proc_map *tried[LIBC_CANDIDATES];
  size_t ntried = 0;
  int ret = 0;
  *files = 0;
  for (size_t i = 0; i < p->nmaps && ret != 1; i++)
    {
      const struct proc_map *m = &p->maps[i];
      if (m->offset != 0 || m->path[0] != '/'
          || proc_map_seen (m, tried, ntried))
        continue;
      ++*files;
      if (ntried == LIBC_CANDIDATES)
        continue;
      tried[ntried++] = m;
      char name[256];
      /* By name in the process's root: the program too, whose file
         /proc/PID/exe may not be (the loader run as a command).  Never
         a file on FUSE (open_target_file).  */
      int found = elf_file_dyn_string (open_mapped (p, m, m->path, 0),
                                       DT_NEEDED, prefix, name,
                                       sizeof name);
      if (found == 0)
        ret = 1;
      else if (found == -2)
        ret = -1;
    }
  return ret;
}

/* The value of the entry TYPE of an auxiliary vector of LEN bytes at
   BUF, words of W bytes (4 or 8), in *VALUE: 1, or 0 where the vector
   ends, or is cut short, before one.  */
static int
auxv_find (const char *buf, ssize_t len, size_t w, uint64_t type,
           uint64_t *value)
{
  for (size_t i = 0; (i + 2) * w <= (size_t) len; i += 2)
    {
      uint64_t t = 0, v = 0;
      memcpy (&t, buf + i * w, w);
      memcpy (&v, buf + (i + 1) * w, w);
      if (t == AT_NULL)
        break;
      if (t == type)
        {
          *value = v;
          return 1;
        }
    }
  return 0;
}

/* DIR/auxv's AT_RANDOM: the address of the 16 random bytes, or 0.  */
static uint64_t
auxv_random (const char *dir)
{
  char path[128], *buf;
  snprintf (path, sizeof path, "%s/auxv", dir);
  ssize_t len = proc_slurp (path, &buf, 1 << 16);
  if (len < 0)
    return 0;
  uint64_t at = 0;
  auxv_find (buf, len, 8, AT_RANDOM, &at);
  free (buf);
  return at;
}

static int exe_header (const char *dir, Elf64_Ehdr *eh);

/* Whether DIR/auxv shows an execve under way: there, but without
   AT_RANDOM, which every ELF exec has had since Linux 2.6.29.  The
   kernel's copy of the vector is in the new memory, zeroed, and gets
   its entries one by one as the new program's tables are written: read
   meanwhile, it is blank or cut short (beside a process that runs
   programs in turn, 11,837 and 23 of 3.3 million reads).  Its words
   are the new program's: 32-bit ones for a 32-bit program (the
   thirty-second review: read as 64-bit ones, every 32-bit process was
   said to be starting another program).  A kernel thread's file, or
   one we may not read, is empty.  */
static int
auxv_mid_exec (const char *dir)
{
  char path[128], *buf;
  snprintf (path, sizeof path, "%s/auxv", dir);
  ssize_t len = proc_slurp (path, &buf, 1 << 16);
  if (len < 0)
    return 0;
  /* Where the program's class is unknown (its file on FUSE, which is
     not opened here: thirty-third review, a 32-bit one was then read
     with 64-bit words), either word size that finds AT_RANDOM will do:
     a vector mid-exec has none in either.  */
  Elf64_Ehdr eh;
  int known = exe_header (dir, &eh) == 0;
  int found = 0;
  uint64_t at;
  for (size_t w = 4; w <= 8 && !found; w += 4)
    if (!known || (eh.e_ident[EI_CLASS] == ELFCLASS32) == (w == 4))
      found = auxv_find (buf, len, w, AT_RANDOM, &at);
  free (buf);
  return len >= 8 && !found;
}

/* Whether every page of [ADDR, END) is in the process's page tables
   (DIR/pagemap's bit 63): reading it then takes no fault, and asks no
   file system for it.  */
static int
pages_present (struct proc *p, uint64_t addr, uint64_t end)
{
  if (p->pagemap_fd < 0)
    {
      char path[128];
      snprintf (path, sizeof path, "%s/pagemap", p->dir);
      p->pagemap_fd = open (path, O_RDONLY | O_CLOEXEC);
      if (p->pagemap_fd < 0)
        return 0;
    }
  /* One entry per page of the kernel's size (16 or 64 KiB on some
     AArch64 kernels).  */
  uint64_t size = (uint64_t) sysconf (_SC_PAGESIZE);
  for (uint64_t page = addr / size; page * size < end; page++)
    {
      uint64_t entry;
      if (pread_full (p->pagemap_fd, &entry, sizeof entry,
                      (off_t) (page * sizeof entry)) != 0
          || !(entry >> 63))
        return 0;
    }
  return 1;
}

int
proc_mem_safe (struct proc *p, uint64_t addr, size_t len)
{
  /* A read through the mem file faults in whatever page it needs; one
     of a file on FUSE comes from the server, which may never answer:
     info -p waited beyond SIGKILL for an rseq area, or ld.so's
     __rseq_offset, laid over by such a file (twenty-fifth review).  A
     page the process has in memory takes no fault.  What is mapped
     after the maps were read is the watchdog's (info.c).  */
  uint64_t end = addr + len;
  if (end < addr)
    return 0;
  for (uint64_t a = addr; a < end;)
    {
      const struct proc_map *m = proc_find (p, a);
      if (m == NULL)
        return 1;
      uint64_t e = m->end < end ? m->end : end;
      if ((m->inode != 0 || m->dev_major != 0 || m->dev_minor != 0)
          && fuse_dev (p->dir, m->dev_major, m->dev_minor)
          && !pages_present (p, a, e))
        return 0;
      a = e;
    }
  return 1;
}

/* The 16 bytes at AT_RANDOM of the memory MEM_FD holds, DIR's auxv
   naming where they are.  */
static int
read_random (struct proc *p, const char *dir, int mem_fd,
             unsigned char out[16])
{
  uint64_t at = auxv_random (dir);
  return at != 0 && proc_mem_safe (p, at, 16)
         && pread_full (mem_fd, out, 16, (off_t) at) == 0 ? 0 : -1;
}

/* The AT_RANDOM bytes of the memory DIR's process has now, through its
   mem file opened anew.  */
static int
random_now (struct proc *p, const char *dir, unsigned char out[16])
{
  char path[128];
  snprintf (path, sizeof path, "%s/mem", dir);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  int ret = read_random (p, dir, fd, out);
  close (fd);
  return ret;
}

int
proc_same_mm (struct proc *p)
{
  /* The start's bytes against those of the memory the process has now,
     through a mem file opened anew: an exec draws new ones, whether or
     not another process keeps the old memory alive.  The main thread
     may have exited meanwhile, and its files read nothing: then a live
     thread's are read.  */
  if (p->have_random)
    {
      unsigned char now[16];
      int got = random_now (p, p->dir, now) == 0;
      size_t n = 0;
      pid_t *tids = got ? NULL : proc_list_tasks (p->pid, &n);
      for (size_t i = 0; tids != NULL && i < n && !got; i++)
        {
          char dir[64];
          snprintf (dir, sizeof dir, "/proc/%d/task/%d", (int) p->pid,
                    (int) tids[i]);
          got = random_now (p, dir, now) == 0;
        }
      free (tids);
      return got && memcmp (now, p->random, sizeof now) == 0;
    }
  /* Without them (a process that made its stack unreadable): the mem
     descriptor holds the memory it was opened on, which an exec
     replaces, whereupon it reads 0 bytes; an error is a page that
     cannot be read (a guard page, MADV_GUARD_INSTALL: twenty-fifth
     review), and the next mapping is tried.  Anonymous memory only: a
     file's page may have to come from a FUSE server.  */
  for (size_t i = 0; i < p->nmaps; i++)
    if (p->maps[i].perms[0] == 'r'
        && (strcmp (p->maps[i].path, "[stack]") == 0
            || (p->maps[i].path[0] == '\0' && p->maps[i].inode == 0)))
      {
        char byte;
        ssize_t r = pread (p->mem_fd, &byte, 1, (off_t) p->maps[i].start);
        if (r >= 0)
          return r == 1;
      }
  return 1;
}

int
proc_env_safe (struct proc *p)
{
  /* The environment lies where the kernel put it at exec, on the stack,
     which a process may map a file over; the stat file gives the
     bounds (fields 50 and 51; 0 where we may not read them, and then
     the environ file cannot be read either).  */
  unsigned long long int start, end;
  if (stat_pair (p->dir, 50, &start, &end) < 0)
    return 0;
  if (end <= start)
    return 1;
  if (proc_mem_safe (p, start, end - start))
    return 1;
  p->fuse_skipped++;
  return 0;
}

int
proc_read (struct proc *p, uint64_t addr, void *buf, size_t len)
{
  if (p->mem_fd < 0 || addr == 0)
    return -1;
  if (!proc_mem_safe (p, addr, len))
    {
      p->fuse_skipped++;
      return -1;
    }
  return pread_full (p->mem_fd, buf, len, addr);
}

int
proc_open (struct proc *p, pid_t pid, const char *dir, char *err,
           size_t errlen)
{
  p->pid = pid;
  snprintf (p->dir, sizeof p->dir, "%s", dir);
  p->rseq_abi_definer = -1;
  p->maps = NULL;
  p->nmaps = 0;
  p->pagemap_fd = -1;
  p->fuse_skipped = 0;
  p->areas_unmapped = 0;
  p->have_random = 0;
  p->nimage_files = 0;
  char path[128];
  snprintf (path, sizeof path, "%s/mem", dir);
  p->mem_fd = open (path, O_RDONLY | O_CLOEXEC);
  if (p->mem_fd < 0)
    {
      int e = errno;
      /* The kernel answers ESRCH where the task behind DIR is gone: the
         process has exited (its threads may still be listed a moment;
         55th review, in a chroot).  */
      if (e == ESRCH && strchr (dir + 6, '/') == NULL)
        snprintf (err, errlen, "process %d exited while it was being read; "
                  "nothing to report", (int) pid);
      else
        snprintf (err, errlen, "cannot open %s: %s", path, strerror (e));
      return e;
    }
  if (read_maps (dir, &p->maps, &p->nmaps) != 0)
    {
      int e = errno;
      if (e == EFBIG)
        snprintf (err, errlen, "%s/maps is over 64 MB (mappings with long "
                  "names): not read, to bound this command's memory", dir);
      else
        snprintf (err, errlen, "cannot read %s/maps: %s", dir,
                  strerror (e));
      close (p->mem_fd);
      p->mem_fd = -1;
      return e;
    }
  p->have_random = read_random (p, p->dir, p->mem_fd, p->random) == 0;
  /* An auxv mid-exec: the process is inside execve, past its new memory
     and its new /proc/PID/exe but before the tables the kernel writes
     last, its name maybe still the old program's.  Read so, an exec
     went unseen and the report mixed two programs' names (the matrix,
     exec-same-layout, 1 of 87 reports under load; a tight read of auxv
     beside a process that runs programs in turn finds such a state
     about once in 15,000 reads).  */
  if (!p->have_random && auxv_mid_exec (dir))
    {
      proc_close (p);
      snprintf (err, errlen, "process %d was starting another program "
                "(exec) as it was read; nothing to report: run info -p "
                "again", (int) pid);
      return ESRCH;
    }
  return 0;
}

void
proc_close (struct proc *p)
{
  if (p->mem_fd >= 0)
    close (p->mem_fd);
  p->mem_fd = -1;
  if (p->pagemap_fd >= 0)
    close (p->pagemap_fd);
  p->pagemap_fd = -1;
  free (p->maps);
  p->maps = NULL;
  p->nmaps = 0;
}

/* A version string of musl: "1.2.3", maybe with a suffix.  */
static int
musl_version_like (const char *s, size_t len)
{
  if (len < 5 || len > 24)
    return 0;
  int dots = 0;
  size_t i = 0;
  for (; i < len && (isdigit ((unsigned char) s[i]) || s[i] == '.'); i++)
    {
      if (s[i] == '.')
        {
          if (i == 0 || s[i - 1] == '.')
            return 0;
          dots++;
        }
    }
  if (dots != 2 || s[i - 1] == '.')
    return 0;
  for (; i < len; i++)
    if (!(isalnum ((unsigned char) s[i]) || s[i] == '_' || s[i] == '-'
          || s[i] == '+'))
      return 0;
  return 1;
}

/* glibc names itself in "... release version 2.36." in libc.so.6; musl
   has "musl libc (ARCH)" and its version as a string of its own.  0, or
   -1 where the file names no C library, -2 where it cannot be read.  */
static int
libc_from_file (const char *dir, const struct proc_map *m, char *name,
                size_t namelen, char *version, size_t versionlen)
{
  int fd = open_target_file (dir, m, m->path);
  if (fd < 0)
    return -2;
  struct stat st;
  char *buf = NULL;
  int ret = -2;
  if (fstat (fd, &st) == 0 && st.st_size > 0 && st.st_size < (64 << 20)
      && (buf = malloc (st.st_size + 1)) != NULL
      && pread_full (fd, buf, st.st_size, 0) == 0)
    {
      ret = -1;
      size_t len = st.st_size;
      buf[len] = '\0';
      static const char gnu[] = "release version ";
      static const char musl[] = "musl libc (";
      char *hit = memmem (buf, len, gnu, sizeof gnu - 1);
      if (hit != NULL && memmem (buf, len, "GNU C Library", 13) != NULL)
        {
          const char *v = hit + sizeof gnu - 1;
          size_t n = 0;
          while (v + n < buf + len && n + 1 < versionlen
                 && (isdigit ((unsigned char) v[n]) || v[n] == '.'))
            n++;
          while (n > 0 && v[n - 1] == '.')
            n--;
          snprintf (name, namelen, "glibc");
          snprintf (version, versionlen, "%.*s", (int) n, v);
          ret = 0;
        }
      else if (memmem (buf, len, musl, sizeof musl - 1) != NULL)
        {
          snprintf (name, namelen, "musl");
          version[0] = '\0';
          for (size_t i = 0; i < len;)
            {
              size_t n = strnlen (buf + i, len - i);
              if (musl_version_like (buf + i, n)
                  && (i == 0 || buf[i - 1] == '\0'))
                {
                  snprintf (version, versionlen, "%.*s", (int) n, buf + i);
                  break;
                }
              i += n + 1;
            }
          ret = 0;
        }
    }
  free (buf);
  close (fd);
  return ret;
}

int
proc_map_seen (const struct proc_map *m, const struct proc_map *const *seen,
               size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (seen[i]->dev_major == m->dev_major
        && seen[i]->dev_minor == m->dev_minor && seen[i]->inode == m->inode
        && (m->inode != 0 || strcmp (seen[i]->path, m->path) == 0))
      return 1;
  return 0;
}

/* The first file named like a C library, mapped from its start, that
   names one (libc_from_file); where UNREAD is not NULL, of those that
   are loaded objects (proc_map_is_image), counting in *UNREAD those
   whose file cannot be read (any of them may be the C library).  */
static int
libc_named_in (struct proc *p, size_t *unread, const char *dir,
               const struct proc_map *maps, size_t nmaps, char *name,
               size_t namelen, char *version, size_t versionlen)
{
  /* Each file once, and a few at most: a process may map one file under
     such a name tens of thousands of times, each read whole (eighteenth
     review: hours of reading for root's info -p).  */
  const struct proc_map *tried[LIBC_CANDIDATES];
  size_t ntried = 0;
  for (size_t i = 0; i < nmaps && ntried < LIBC_CANDIDATES; i++)
    {
      const char *b = base_name (maps[i].path);
      if (maps[i].offset != 0 || maps[i].path[0] != '/')
        continue;
      if (strncmp (b, "libc.so", 7) != 0 && strncmp (b, "libc-", 5) != 0
          && strncmp (b, "ld-musl", 7) != 0 && strncmp (b, "libc.musl", 9) != 0)
        continue;
      if (unread != NULL && !proc_map_is_image (p, i))
        continue;
      if (proc_map_seen (&maps[i], tried, ntried))
        continue;
      tried[ntried++] = &maps[i];
      int ret = libc_from_file (dir, &maps[i], name, namelen, version,
                                versionlen);
      if (ret == 0)
        return 0;
      if (ret == -2 && unread != NULL)
        ++*unread;
    }
  return -1;
}

void
libc_identify (struct proc *p, const char *dir, const struct proc_map *maps,
               size_t nmaps, char *name, size_t namelen, char *version,
               size_t versionlen)
{
  snprintf (name, namelen, "unknown");
  version[0] = '\0';
  /* A loaded object; where none names a C library, by name, one the
     loader is still mapping: its data segment is not mapped yet (65th
     review: a glibc 2.31 process read then was "a static program?"; a
     loaded library named like one that is not, libc-client's, did
     not stop that: 68th review).  Not where a loaded one could not be
     read (its file deleted by an upgrade, the reader not root): a copy
     of another C library mapped as data was named then (66th
     review).  */
  size_t unread = 0;
  if (p == NULL
      || (libc_named_in (p, &unread, dir, maps, nmaps, name, namelen,
                         version, versionlen) != 0
          && unread == 0))
    libc_named_in (p, NULL, dir, maps, nmaps, name, namelen, version,
                   versionlen);
}

/* Whether glibc before 2.39 may have cut the GLIBC_TUNABLES value that
   ends at END (starting at VALUE) before the string NEXT of the
   environment block (tunables_from_environ): the value's last item sets
   a tunable of glibc's ("glibc." names), after whose value glibc wrote
   a NUL over the ':', and NEXT starts with another, or with what no
   variable starts with (':', '=', or nothing: the value ended with
   ':').  A variable of the environment named "glibc..." right after
   GLIBC_TUNABLES would be taken for the rest of it; the rest of a
   definition whose next item is not glibc's (a typo, a distribution's
   own tunable) is missed.  */
static int
tunables_rest (const char *value, const char *end, const char *next)
{
  static const char ns[] = "glibc.";
  const char *item = end;
  while (item > value && item[-1] != ':')
    item--;
  return strncmp (item, ns, sizeof ns - 1) == 0
         && memchr (item, '=', end - item) != NULL
         && (strncmp (next, ns, sizeof ns - 1) == 0 || next[0] == ':'
             || next[0] == '=' || next[0] == '\0');
}

/* Whether the N bytes at S are NAME=VALUE with NAME a valid
   environment name, [A-Za-z_][A-Za-z0-9_]* (POSIX's portable names,
   which shells export): ASCII tests, not the locale's.  */
static int
env_name_ok (const char *s, size_t n)
{
  const char *eq = memchr (s, '=', n);
  if (eq == NULL || eq == s || (s[0] >= '0' && s[0] <= '9'))
    return 0;
  for (const char *c = s; c < eq; c++)
    if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z')
          || (*c >= '0' && *c <= '9') || *c == '_'))
      return 0;
  return 1;
}

/* Whether DIR's process wrote a title over its arguments that runs on
   into its environment area, as PostgreSQL's does: the area's string
   is then the title's tail, whatever it looks like ("user=alice
   db=sales": 114th review, F1).  The kernel's own test tells it
   (get_mm_cmdline, fs/proc/base.c): execve ends the argument area
   with a NUL; where its last byte is no NUL, the process wrote over
   it, and cmdline shows a title (get_mm_proctitle: the string at
   arg_start, on past arg_end only where the environment area starts
   there); where it is one, cmdline is exactly the area.  So at offset
   arg_end - arg_start - 1 cmdline shows that NUL and nothing after it,
   or the title ran on: a title shows there its own byte, or nothing.
   Not cmdline's length: since Linux 5.3 and 5.2.6 (d26d0cd97c88) the
   kernel shows at most a page of a title, no more than the area holds
   once that is a page or more (114th review's follow-up, I1: such a
   title was read as variables again).  Older kernels read a title on
   past that offset and show an untouched area whole too; before 4.2,
   which have no rseq, cmdline held a page at most, and a longer
   untouched area reads as one written over ("unknown" at worst, where
   its environment is a single variable).  The byte, not the whole
   file: an area may hold megabytes of arguments.  0 where it cannot
   be told.  */
static int
title_spilled (const char *dir)
{
  char path[128];
  /* arg_start, arg_end, env_start and env_end (0 where the reader may
     not trace the process).  A title runs on into the environment area
     only where that follows the arguments, as execve lays them out.  */
  unsigned long long int start, end, env_start, env_end;
  if (stat_pair (dir, 48, &start, &end) < 0
      || stat_pair (dir, 50, &env_start, &env_end) < 0)
    return 0;
  if (start == 0 || end <= start || env_start != end || env_end <= env_start)
    return 0;
  snprintf (path, sizeof path, "%s/cmdline", dir);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  /* Two bytes: the NUL must be the last one shown.  */
  char last[2];
  ssize_t r;
  while ((r = pread (fd, last, sizeof last, (off_t) (end - start - 1))) < 0
         && errno == EINTR)
    ;
  close (fd);
  if (r < 0 || (r == 1 && last[0] == '\0'))
    return 0;
  /* Nothing at that offset is a short title, or no memory to read: the
     process exited (a zombie's cmdline is empty) or exec'd between
     stat_pair and pread (review finding R5: a vanished process was said
     to be retitled).  Its stat again, after the read: the same area
     there means the memory the read found was the one measured, as a
     process's memory once gone never comes back; else it cannot be
     told, as where stat_pair fails above.  */
  unsigned long long int start2, end2;
  if (r == 0
      && (stat_pair (dir, 48, &start2, &end2) < 0
          || start2 != start || end2 != end))
    return 0;
  return 1;
}

int
tunables_from_environ (const char *dir, char *out, size_t outlen, int cut,
                       int *off, int *off_loose, int *rewritten)
{
  char path[128], *buf;
  snprintf (path, sizeof path, "%s/environ", dir);
  ssize_t len = proc_slurp (path, &buf, 16u << 20);
  if (len < 0)
    return -1;
  static const char key[] = "GLIBC_TUNABLES=";
  int found = 0, rseq = 1, loose = 1;
  /* The kernel shows the area where the environment was put at exec,
     whatever lies there now.  A program that set its title by writing
     over argv and the environment (nginx, PostgreSQL, Perl's $0,
     libbsd's setproctitle) copies the variables elsewhere and leaves
     there the title's tail, if the title reached so far, and padding
     to the end (NULs on Linux, spaces elsewhere): one string at most
     that is no variable, then only padding (112th review, R4).  A
     title may hold '=' ("postgres: main: user=alice db=sales"), so a
     first string counts as a variable only where what comes before
     its first '=' is a valid name (env_name_ok; 114th review, F1:
     such a title was read as the environment, and
     info -p gave false causes).  Any other string that is no variable
     proves nothing: execve takes empty strings, and ones without '=',
     beside real variables, which then still tell the truth (112th
     review's follow-up, D4: one such string made a process that a
     seccomp filter kept from registering "unknown").  The cost: a
     process whose whole environment is one variable of an odd name
     (env 'a.b=1' prog) reads as retitled, "unknown", not wrong.  A
     title that ran on from the arguments into the area may leave there
     a tail of a variable's very shape ("user=alice db=sales"): the
     kernel tells that one (title_spilled).
     FIRST_ODD: the first string is no variable; REST_USED: a later one
     is not padding.  */
  int first_odd = 0, rest_used = 0;
  /* As glibc and the shim: every definition, in order, read in full
     (OUT may be too short for it); OUT shows the last one.  slurp ends
     the buffer with a NUL, so a cut-off last entry is a string too.  */
  for (ssize_t i = 0; i < len;)
    {
      size_t n = strnlen (buf + i, len - i);
      if (i == 0)
        first_odd = !env_name_ok (buf, n);
      else if (strspn (buf + i, " ") != n)
        rest_used = 1;
      if (strncmp (buf + i, key, sizeof key - 1) == 0)
        {
          /* glibc before 2.39 ends each value of a tunable it knows with
             a NUL where the ':' after it was, in the string the kernel
             shows here (its own environ points to a copy): the ':' is
             put back where what follows is the rest of the definition
             (tunables_rest).  */
          while (cut && (ssize_t) (i + n + 1) < len
                 && tunables_rest (buf + i + sizeof key - 1, buf + i + n,
                                   buf + i + n + 1))
            {
              buf[i + n] = ':';
              n = strnlen (buf + i, len - i);
            }
          const char *value = buf + i + sizeof key - 1;
          snprintf (out, outlen, "%s", value);
          rseq = __rseq_compat_tunable_rseq (value, rseq);
          loose = __rseq_compat_tunable_rseq_loose (value, loose);
          found = 1;
        }
      i += n + 1;
    }
  free (buf);
  *off = rseq == 0;
  *off_loose = loose == 0;
  if (rewritten != NULL)
    *rewritten = len > 0 && !rest_used
                 && (first_odd || title_spilled (dir));
  return found;
}

int
read_auxv (const char *dir, unsigned long int *feature,
           unsigned long int *align, int *secure, uint64_t *base,
           uint64_t *phdr)
{
  char path[128], *buf;
  snprintf (path, sizeof path, "%s/auxv", dir);
  ssize_t len = proc_slurp (path, &buf, 1 << 16);
  if (len < 0)
    return -1;
  /* A 32-bit program's vector has 32-bit words (forty-seventh review:
     read as 64-bit ones, an i386 process's AT_SECURE was another
     entry's value, and its AT_RSEQ_* 0).  Where the program's class is
     unknown (its file on FUSE), the word size that finds AT_RANDOM,
     whose value is never 0, tells it.  */
  Elf64_Ehdr eh;
  uint64_t at;
  size_t w = exe_header (dir, &eh) == 0
             ? (eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8)
             : (!auxv_find (buf, len, 8, AT_RANDOM, &at)
                && auxv_find (buf, len, 4, AT_RANDOM, &at)) ? 4 : 8;
  uint64_t f = 0, a = 0, s = 0;
  *phdr = 0;
  auxv_find (buf, len, w, AT_PHDR, phdr);
  auxv_find (buf, len, w, RSEQ_LAYOUT_AT_FEATURE_SIZE, &f);
  auxv_find (buf, len, w, RSEQ_LAYOUT_AT_ALIGN, &a);
  auxv_find (buf, len, w, AT_SECURE, &s);
  *base = 0;
  auxv_find (buf, len, w, AT_BASE, base);
  *feature = f;
  *align = a;
  *secure = s != 0;
  free (buf);
  return 0;
}

/* DIR/exe's ELF header into *EH: 0, or -1 where it cannot be read or
   is no ELF file.  */
static int
exe_header (const char *dir, Elf64_Ehdr *eh)
{
  /* Through O_PATH and reopen_regular, as every file read here: a
     program run from FUSE held info -p in the open (twenty-third
     review).  */
  char path[PATH_MAX];
  snprintf (path, sizeof path, "%s/exe", dir);
  int fd = reopen_regular (dir, open (path, O_PATH | O_CLOEXEC), NULL);
  int ok = fd >= 0 && pread_full (fd, eh, sizeof *eh, 0) == 0
           && memcmp (eh->e_ident, ELFMAG, SELFMAG) == 0;
  if (fd >= 0)
    close (fd);
  return ok ? 0 : -1;
}

int
elf_foreign (const char *dir)
{
  Elf64_Ehdr eh;
  return exe_header (dir, &eh) == 0
         && (eh.e_ident[EI_CLASS] != ELFCLASS64
#if defined __x86_64__
             || eh.e_machine != EM_X86_64
#elif defined __aarch64__
             || eh.e_machine != EM_AARCH64
#endif
             );
}

char
proc_task_state (pid_t pid, pid_t tid)
{
  char path[96], buf[512];
  snprintf (path, sizeof path, "/proc/%d/task/%d/stat", (int) pid, (int) tid);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  ssize_t n = read (fd, buf, sizeof buf - 1);
  close (fd);
  if (n <= 0)
    return 0;
  buf[n] = '\0';
  /* The name may hold ") ": the state follows the last one.  */
  char *paren = strrchr (buf, ')');
  if (paren == NULL || paren[1] != ' ')
    return 0;
  return paren[2];
}

int
proc_state_dead (char s)
{
  return s == 0 || s == 'Z' || s == 'X' || s == 'x';
}

pid_t
proc_task_own_tid (pid_t pid, pid_t tid)
{
  char dir[96], v[256];
  snprintf (dir, sizeof dir, "/proc/%d/task/%d", (int) pid, (int) tid);
  if (proc_status_field (dir, "NSpid", v, sizeof v) != 0)
    return tid;
  /* Tab-separated, outermost namespace first.  */
  const char *last = strrchr (v, '\t');
  long id = strtol (last != NULL ? last + 1 : v, NULL, 10);
  return id > 0 ? (pid_t) id : tid;
}

void
proc_task_name (pid_t pid, pid_t tid, char *out, size_t outlen)
{
  char path[96];
  snprintf (path, sizeof path, "/proc/%d/task/%d/comm", (int) pid, (int) tid);
  out[0] = '\0';
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  ssize_t n = read (fd, out, outlen - 1);
  out[n > 0 ? n : 0] = '\0';
  /* The kernel ends the name with a newline; a name may hold others.  */
  if (n > 0 && out[n - 1] == '\n')
    out[n - 1] = '\0';
  close (fd);
}

pid_t *
proc_list_tasks (pid_t pid, size_t *count)
{
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/task", (int) pid);
  DIR *d = opendir (path);
  if (d == NULL)
    return NULL;
  size_t cap = 16, n = 0;
  pid_t *tids = malloc (cap * sizeof *tids);
  struct dirent *e;
  while (tids != NULL && (e = readdir (d)) != NULL)
    {
      char *end;
      long int tid = strtol (e->d_name, &end, 10);
      if (*end != '\0' || tid <= 0)
        continue;
      if (n == cap)
        {
          pid_t *bigger = realloc (tids, 2 * cap * sizeof *tids);
          if (bigger == NULL)
            break;
          tids = bigger;
          cap *= 2;
        }
      tids[n++] = (pid_t) tid;
    }
  closedir (d);
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && tids[j] < tids[j - 1]; j--)
      {
        pid_t t = tids[j];
        tids[j] = tids[j - 1];
        tids[j - 1] = t;
      }
  for (size_t i = 0; i < n; i++)
    if (tids[i] == pid && i != 0)
      {
        memmove (tids + 1, tids, i * sizeof *tids);
        tids[0] = pid;
      }
  *count = n;
  return tids;
}

int
proc_alive (pid_t pid)
{
  /* Threads listed may all have gone by the time each is looked at,
     while others started meanwhile: the list is taken again then,
     twice at most (fortieth review: a process whose threads come and
     go was said to be a zombie).  */
  int alive = 0, gone = 1, churned = 0;
  for (int attempt = 0; attempt < 3 && !alive && gone; attempt++)
    {
      size_t n = 0;
      pid_t *tids = proc_list_tasks (pid, &n);
      gone = 0;
      for (size_t i = 0; tids != NULL && i < n && !alive; i++)
        {
          char s = proc_task_state (pid, tids[i]);
          alive = !proc_state_dead (s);
          gone |= s == 0;
        }
      churned |= gone;
      free (tids);
    }
  /* Where threads went while they were listed: the kernel's count of
     the threads not yet collected, the main one's among them even where
     it is a zombie; more than one is a live thread that the lists
     missed.  Not where every thread listed is a zombie (one a tracer
     has not collected counts too: forty-first review).  */
  char dir[32], v[32];
  snprintf (dir, sizeof dir, "/proc/%d", (int) pid);
  if (!alive && churned
      && proc_status_field (dir, "Threads", v, sizeof v) == 0
      && atoi (v) > 1)
    alive = 1;
  return alive;
}
