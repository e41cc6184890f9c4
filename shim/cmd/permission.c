/* Why rseq-compat may not read another process, and what to do.
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

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "permission.h"
#include "procfs.h"

static int
has_cap_sys_ptrace (void)
{
  char v[64];
  if (proc_status_field ("/proc/self", "CapEff", v, sizeof v) != 0)
    return geteuid () == 0;
  unsigned long long int caps = strtoull (v, NULL, 16);
  return (caps >> 19) & 1;	/* CAP_SYS_PTRACE */
}

static const char *
user_name (uid_t uid, char *buf, size_t len)
{
  struct passwd *pw = getpwuid (uid);
  if (pw != NULL)
    snprintf (buf, len, "%s", pw->pw_name);
  else
    snprintf (buf, len, "uid %u", (unsigned int) uid);
  return buf;
}

/* Whether the three IDs are all ID.  */
static int
all_are (const unsigned int ids[3], unsigned int id)
{
  return ids[0] == id && ids[1] == id && ids[2] == id;
}

/* A live thread of process PID, the main one where it lives, as
   /proc/PID/task/TID in DIR: its IDs, its files and its namespace are
   what the kernel compares (thirty-ninth review: the main thread gone,
   another thread that had set its own IDs was judged by the main
   thread's).  0, or -1 where none lives (DIR is then /proc/PID).  */
static int
live_thread (pid_t pid, char *dir, size_t len)
{
  size_t n = 0;
  pid_t *tids = proc_list_tasks (pid, &n);
  int ret = -1;
  snprintf (dir, len, "/proc/%d", (int) pid);
  for (size_t i = 0; tids != NULL && i < n && ret != 0; i++)
    if (!proc_state_dead (proc_task_state (pid, tids[i])))
      {
        snprintf (dir, len, "/proc/%d/task/%d", (int) pid, (int) tids[i]);
        ret = 0;
      }
  free (tids);
  return ret;
}

/* PATH's first LEN bytes into BUF: their count, or -1.  A map has 340
   lines at most, of 33 bytes each: 4096 hold those of every namespace
   but the most crowded, which then compare by their first lines.  */
static ssize_t
read_small (const char *path, char *buf, size_t len)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  size_t got = 0;
  ssize_t n;
  while (got < len && ((n = read (fd, buf + got, len - got)) > 0
                       || (n < 0 && errno == EINTR)))
    if (n > 0)
      got += n;
  close (fd);
  return n < 0 ? -1 : (ssize_t) got;
}

/* Whether the process at DIR is in our user namespace, as far as its
   map of user IDs tells, which anyone may read (its ns/user link asks
   for the very access that was refused): 1, 0 where it is another, -1
   where either cannot be read.  Each map is shown relative to the
   reader's namespace, so two differ where the namespaces do.  */
static int
same_user_ns (const char *dir)
{
  char path[128], mine[4096], its[4096];
  snprintf (path, sizeof path, "%s/uid_map", dir);
  ssize_t a = read_small ("/proc/self/uid_map", mine, sizeof mine);
  ssize_t b = read_small (path, its, sizeof its);
  if (a < 0 || b < 0)
    return -1;
  return a == b && memcmp (mine, its, a) == 0;
}

/* rseq-compat's users and groups.  */
struct ids
{
  uid_t uid, euid;
  gid_t gid, egid;
};

/* The hint where the process's user USER (-1: it is ours) or group
   GROUP (-1: ours) is not rseq-compat's, into OUT: both named in one
   sentence, with the IDs of ours that the kernel compares (the
   effective ones, and with STOP the real ones as well), so that
   following it is enough (thirty-fifth review: the group was named,
   and then the real user refused the attach; --no-stop was offered
   where it was refused too).  U and G are the process's IDs.  */
static void
mismatch (char *out, size_t outlen, const struct ids *c, int stop,
          long int user, long int group, const unsigned int u[3],
          const unsigned int g[3])
{
  /* Room for user names of 256 bytes (LDAP's may be that long:
     thirty-seventh review, a name of 48 cut the numbers off).  */
  char target[384], mine[768], who[260], self[260];
  int split_u = stop && c->uid != c->euid, split_g = stop && c->gid != c->egid;
  if (user >= 0 && group >= 0)
    snprintf (target, sizeof target, "it belongs to user %s and runs as "
              "group %ld", user_name (user, who, sizeof who), group);
  else if (user >= 0)
    snprintf (target, sizeof target, "it belongs to user %s",
              user_name (user, who, sizeof who));
  else
    snprintf (target, sizeof target, "it runs as group %ld", group);
  size_t n = 0;
  mine[0] = '\0';
  if (user >= 0 && split_u)
    n += snprintf (mine + n, sizeof mine - n, " with the real user %s and "
                   "the effective user ", user_name (c->uid, self,
                                                     sizeof self));
  else if (user >= 0)
    n += snprintf (mine + n, sizeof mine - n, " as ");
  if (user >= 0 && n < sizeof mine)
    n += snprintf (mine + n, sizeof mine - n, "%s",
                   user_name (c->euid, self, sizeof self));
  if (group >= 0 && split_g && n < sizeof mine)
    n += snprintf (mine + n, sizeof mine - n, "%s the real group %u and "
                   "the effective group %u", user >= 0 ? "," : " with",
                   (unsigned int) c->gid, (unsigned int) c->egid);
  else if (group >= 0 && n < sizeof mine)
    snprintf (mine + n, sizeof mine - n, "%s group %u",
              user >= 0 ? " and" : " as", (unsigned int) c->egid);
  /* With --stop, whether --no-stop, which compares the effective IDs
     alone, would read it.  */
  int reads_ok = stop && all_are (u, c->euid) && all_are (g, c->egid);
  snprintf (out, outlen, "%s, and rseq-compat runs%s, without "
            "CAP_SYS_PTRACE: the kernel lets only a process of the same "
            "user and group read it%s; run rseq-compat as %s%s%s%s %sor as "
            "root", target, mine,
            stop ? " (reading /proc compares the effective ones, attaching "
                   "with --stop the real ones as well)" : "",
            user >= 0 ? "that user" : "",
            user >= 0 && group >= 0 ? " and " : "",
            group >= 0 ? "that group (sg, newgrp)" : "",
            split_u || split_g ? ", real and effective," : ",",
            reads_ok ? "or with --no-stop (its reads compare the effective "
                       "ones only), " : "");
}

/* The hint where the process's own IDS, its WHAT ("users" or
   "groups"), differ among themselves: no ID of ours can match all
   three.  */
static void
differ (char *out, size_t outlen, const char *what, const unsigned int ids[3])
{
  snprintf (out, outlen, "its real, effective and saved %s are %u, %u and "
            "%u, and the kernel lets only a process with CAP_SYS_PTRACE "
            "read a process whose %s differ; run rseq-compat as root",
            what, ids[0], ids[1], ids[2], what);
}

int
permission_hint (pid_t pid, int stop, char *out, size_t outlen)
{
  char dir[96], v[128];
  int alive = live_thread (pid, dir, sizeof dir) == 0;
  int cap = has_cap_sys_ptrace ();

  if (proc_status_field (dir, "TracerPid", v, sizeof v) == 0)
    {
      long int tracer = strtol (v, NULL, 10);
      if (tracer != 0 && tracer != getpid ())
        {
          char tdir[64], comm[64] = "?";
          snprintf (tdir, sizeof tdir, "/proc/%ld", tracer);
          proc_status_field (tdir, "Name", comm, sizeof comm);
          snprintf (out, outlen, "it is already traced by process %ld (%s), "
                    "a debugger or strace, and a process can have only one "
                    "tracer; detach that one first", tracer, comm);
          return 0;
        }
    }

  /* The kernel lets a process without CAP_SYS_PTRACE read another only
     where the other's real, effective and saved IDs, user and group,
     are all its own: its effective ones for /proc's files (every run),
     and its real ones as well for ptrace's attach (--stop, STOP).  */
  struct ids c = { getuid (), geteuid (), getgid (), getegid () };
  unsigned int u[3], g[3];
  int have_uid = proc_status_field (dir, "Uid", v, sizeof v) == 0
                 && sscanf (v, "%u %u %u", &u[0], &u[1], &u[2]) == 3;
  int have_gid = proc_status_field (dir, "Gid", v, sizeof v) == 0
                 && sscanf (v, "%u %u %u", &g[0], &g[1], &g[2]) == 3;
  int user_bad = !cap && have_uid
                 && (!all_are (u, c.euid) || (stop && !all_are (u, c.uid)));
  int group_bad = !cap && have_gid
                  && (!all_are (g, c.egid) || (stop && !all_are (g, c.gid)));
  /* Another user namespace (a container's): the kernel wants
     CAP_SYS_PTRACE over it, which no user of the machine's has by its
     IDs, only root and the user that made the namespace (who reads its
     files only where they are its own: a process not dumpable there
     has its files given to the namespace's root, which may be that
     user).  Thirty-ninth review: a user, or the namespace's root, was
     named where it was refused too.  */
  struct stat st;
  char env[128], who[260];
  snprintf (env, sizeof env, "%s/environ", dir);
  int owned = alive && stat (env, &st) == 0;
  if (!cap && same_user_ns (dir) == 0)
    {
      char also[400] = "";
      /* Not the overflow user, which stands for every user that our
         namespace does not map.  */
      char ov[16] = "";
      read_small ("/proc/sys/kernel/overflowuid", ov, sizeof ov - 1);
      if (owned && st.st_uid != 0 && st.st_uid != c.euid
          && st.st_uid != (uid_t) strtoul (ov, NULL, 10))
        snprintf (also, sizeof also, ", or as user %s, to whom its files "
                  "belong, if that user made the namespace (a rootless "
                  "container's)", user_name (st.st_uid, who, sizeof who));
      snprintf (out, outlen, "it runs in another user namespace (a "
                "container's, or rseq-compat runs in one), and the kernel "
                "lets only a process with CAP_SYS_PTRACE over that "
                "namespace read it; run rseq-compat as the machine's root, "
                "outside any container%s", also);
      return 0;
    }
  /* Not dumpable: the kernel gives a process's files (not /proc/PID
     itself, which stays world-readable) to its effective user where it
     is dumpable, to the root of its user namespace where it is not
     (since Linux 4.11; twenty-ninth review: a process that called
     prctl (PR_SET_DUMPABLE, 0) was said to be refused by a security
     module), and to root where a thread has no memory: a live thread's
     files tell, against that thread's effective user (thirty-eighth
     review: a process whose main thread had exited was said to be not
     dumpable, and one whose real user is not its effective one).
     Before the users: a daemon that dropped root is not dumpable, and
     following a hint about its user fails (thirty-seventh review).  */
  if (!cap && have_uid && owned && st.st_uid != u[1])
    {
      snprintf (out, outlen, "it is not dumpable (a setuid or setgid "
                "program, or one that called prctl (PR_SET_DUMPABLE, 0)), "
                "so only root may read it; run rseq-compat as root");
      return 0;
    }
  /* A process whose own users differ (a set-user-ID program that
     dropped its privileges but kept the saved user): no user of ours
     can match all three (thirty-fifth review: the saved one was named
     as its owner).  */
  if (user_bad && !all_are (u, u[0]))
    {
      differ (out, outlen, "users", u);
      return 0;
    }
  if (user_bad && !(group_bad && !all_are (g, g[0])))
    {
      mismatch (out, outlen, &c, stop, u[0], group_bad ? (long int) g[0] : -1,
                u, g);
      return 0;
    }
  /* A process of ours whose group is another (thirtieth review: it was
     said to be refused by a security module); after the dumpable
     check, as a set-group-ID program's groups differ but being not
     dumpable is what refuses us there (thirty-first review).  */
  if (group_bad && !all_are (g, g[0]))
    {
      differ (out, outlen, "groups", g);
      return 0;
    }
  if (group_bad)
    {
      mismatch (out, outlen, &c, stop, -1, g[0], u, g);
      return 0;
    }

  /* A process of ours with a capability that we lack (an ambient one,
     a file capability): the kernel wants the caller's permitted set to
     hold the target's (thirty-seventh review: a security module or a
     container was blamed).  */
  char mine_caps[64], its_caps[64];
  /* Ours: the effective set, which /proc's files compare (the attach
     compares the permitted one, which holds it: thirty-eighth review,
     the permitted set hid a capability not effective).  */
  if (!cap && proc_status_field ("/proc/self", "CapEff", mine_caps,
                                 sizeof mine_caps) == 0
      && proc_status_field (dir, "CapPrm", its_caps, sizeof its_caps) == 0
      && (strtoull (its_caps, NULL, 16) & ~strtoull (mine_caps, NULL, 16))
         != 0)
    {
      snprintf (out, outlen, "it holds capabilities (CapPrm %s) that "
                "rseq-compat lacks (%s), and the kernel lets only a process "
                "with all of them, or with CAP_SYS_PTRACE, read it; run "
                "rseq-compat as root", its_caps, mine_caps);
      return 0;
    }

  char scope[16];
  int fd = open ("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);
  ssize_t n = fd >= 0 ? read (fd, scope, sizeof scope - 1) : -1;
  if (fd >= 0)
    close (fd);
  int yama = n > 0 ? (scope[n] = '\0', atoi (scope)) : 0;
  if (yama == 3)
    {
      snprintf (out, outlen, "kernel.yama.ptrace_scope is 3: ptrace attach "
                "is disabled for everyone until the next reboot; run "
                "'rseq-compat run rseq-compat info' in the same environment "
                "instead to see what the process sees");
      return 0;
    }
  if (yama == 2 && !cap)
    {
      snprintf (out, outlen, "kernel.yama.ptrace_scope is 2: only a process "
                "with CAP_SYS_PTRACE may attach; run rseq-compat as root");
      return 0;
    }
  if (yama == 1 && !cap)
    {
      snprintf (out, outlen, "kernel.yama.ptrace_scope is 1: only an "
                "ancestor of the process may attach; run rseq-compat as "
                "root, or set 'sysctl kernel.yama.ptrace_scope=0'");
      return 0;
    }


  /* Also where the process is not dumpable inside a user namespace
     whose root is its user: its files stay that user's (thirtieth
     review).  */
  snprintf (out, outlen, "a security module (SELinux, AppArmor), a "
            "container without CAP_SYS_PTRACE, or the process being not "
            "dumpable in a user namespace forbids reading it; run "
            "rseq-compat as root outside the container");
  return 0;
}
