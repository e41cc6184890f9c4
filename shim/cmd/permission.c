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
#include <signal.h>
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
   thread's).  *MIXED is set where the live threads' users or groups
   are not all the same (threads that set their own IDs by raw system
   calls: fortieth review, the first alone was judged and its user
   named, who then read one thread of two).  0, or -1 where none lives
   (DIR is then /proc/PID).  */
static int
live_thread (pid_t pid, char *dir, size_t len, int *mixed)
{
  size_t n = 0;
  pid_t *tids = proc_list_tasks (pid, &n);
  int ret = -1;
  char first[2][128] = { "", "" }, v[128], tdir[96];
  static const char *const keys[2] = { "Uid", "Gid" };
  *mixed = 0;
  snprintf (dir, len, "/proc/%d", (int) pid);
  for (size_t i = 0; tids != NULL && i < n && !*mixed; i++)
    {
      if (proc_state_dead (proc_task_state (pid, tids[i])))
        continue;
      snprintf (tdir, sizeof tdir, "/proc/%d/task/%d", (int) pid,
                (int) tids[i]);
      /* The real, effective and saved IDs, which the kernel compares
         (not the file-system one, which a file server sets per
         thread).  A thread that exits meanwhile reads nothing, and is
         left out.  */
      unsigned int id[3];
      for (int k = 0; k < 2; k++)
        {
          if (proc_status_field (tdir, keys[k], v, sizeof v) != 0
              || sscanf (v, "%u %u %u", &id[0], &id[1], &id[2]) != 3)
            continue;
          snprintf (v, sizeof v, "%u %u %u", id[0], id[1], id[2]);
          if (first[k][0] == '\0')
            snprintf (first[k], sizeof first[k], "%s", v);
          else if (strcmp (first[k], v) != 0)
            *mixed = 1;
        }
      if (ret != 0)
        {
          snprintf (dir, len, "%s", tdir);
          ret = 0;
        }
    }
  free (tids);
  return ret;
}

/* Whether the files /proc/self/NAME and DIR/NAME differ: 1, 0, or -1
   where either cannot be read.  Read whole: a map may have 340 lines
   (fortieth review: maps that differed after 4096 bytes were taken for
   one).  */
static int
differs (const char *dir, const char *name)
{
  char path[128], *mine = NULL, *its = NULL;
  snprintf (path, sizeof path, "/proc/self/%s", name);
  ssize_t a = proc_slurp (path, &mine, 1 << 20);
  snprintf (path, sizeof path, "%s/%s", dir, name);
  ssize_t b = a < 0 ? -1 : proc_slurp (path, &its, 1 << 20);
  int ret = a < 0 || b < 0 ? -1 : a != b || memcmp (mine, its, a) != 0;
  free (mine);
  free (its);
  return ret;
}

/* How the process at DIR stands to our user namespace.  */
enum user_ns { NS_SAME, NS_OTHER, NS_UNTOLD };

/* Its namespace's link tells where we may read it; where we may not
   (it asks for the very access that was refused), the files that
   anyone may read tell another namespace where they differ: each map
   is shown relative to the reader's namespace, projid_map is empty
   where its maker wrote none, and setgroups is "deny" where an
   unprivileged maker wrote gid_map.  Where they are all alike the
   namespace may still be another (fortieth review: one made by root
   with the identity map was taken for ours): NS_UNTOLD.  */
static enum user_ns
user_ns_of (const char *dir)
{
  char mine[64], its[64], path[128];
  snprintf (path, sizeof path, "%s/ns/user", dir);
  ssize_t a = readlink ("/proc/self/ns/user", mine, sizeof mine);
  ssize_t b = readlink (path, its, sizeof its);
  if (a > 0 && b > 0)
    return a == b && memcmp (mine, its, a) == 0 ? NS_SAME : NS_OTHER;
  static const char *const files[] = { "uid_map", "gid_map", "projid_map",
                                       "setgroups" };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    if (differs (dir, files[i]) == 1)
      return NS_OTHER;
  return NS_UNTOLD;
}

/* The user that ID 0 of the namespace at DIR is in ours, where a line
   of its map gives it alone ("0 U 1"): the maker of a rootless
   container's namespace maps itself so (newuidmap does, and a line of
   one ID is the only map an unprivileged maker may write), where root
   maps a range ("0 100000 65536", Docker's userns-remap).  -1 where no
   such line.  */
static long int
ns_root (const char *dir)
{
  char path[128], *map = NULL;
  snprintf (path, sizeof path, "%s/uid_map", dir);
  long int root = -1;
  if (proc_slurp (path, &map, 1 << 20) < 0)
    return -1;
  unsigned long int inside, outside, count;
  for (char *line = map; line != NULL && *line != '\0' && root < 0;
       line = strchr (line, '\n') != NULL ? strchr (line, '\n') + 1 : NULL)
    if (sscanf (line, "%lu %lu %lu", &inside, &outside, &count) == 3
        && inside == 0 && count == 1 && outside != 4294967295UL)
      root = (long int) outside;
  free (map);
  return root;
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
  int mixed;
  int alive = live_thread (pid, dir, sizeof dir, &mixed) == 0;
  if (!alive)
    return ESRCH;
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
     IDs, only root and the user that made the namespace, and /proc's
     file modes let that user read only where the files are its own
     (those of a process not dumpable there are the namespace's root's).
     Thirty-ninth review: a user, or the namespace's root, was named
     where it was refused too; fortieth: the files' owner was named
     where it was a subordinate ID, or a sibling container's user.  */
  struct stat st;
  char env[128], who[260];
  snprintf (env, sizeof env, "%s/environ", dir);
  int owned = alive && stat (env, &st) == 0;
  enum user_ns ns = cap ? NS_SAME : user_ns_of (dir);
  if (ns == NS_OTHER)
    {
      char also[400] = "";
      /* Not the overflow user, which stands for every user that our
         namespace does not map.  */
      char *ov = NULL;
      long int root = ns_root (dir);
      unsigned long int overflow = 65534;
      if (proc_slurp ("/proc/sys/kernel/overflowuid", &ov, 64) > 0)
        overflow = strtoul (ov, NULL, 10);
      free (ov);
      if (owned && root > 0 && (uid_t) root == st.st_uid
          && (uid_t) root != c.euid && (unsigned long int) root != overflow)
        snprintf (also, sizeof also, ", or as user %s, its root and the "
                  "owner of its files, if that user made the namespace (a "
                  "rootless container's)", user_name (st.st_uid, who,
                                                      sizeof who));
      snprintf (out, outlen, "it runs in another user namespace (a "
                "container's, or rseq-compat runs in one), and the kernel "
                "lets only a process with CAP_SYS_PTRACE over that "
                "namespace read it; run rseq-compat as the machine's root, "
                "outside any container%s", also);
      return 0;
    }
  /* Threads that set their own IDs: no user but root is all of
     theirs.  */
  if (!cap && mixed)
    {
      snprintf (out, outlen, "its threads run as different users or "
                "groups (a thread set its own IDs by a raw system call), "
                "and the kernel lets a process without CAP_SYS_PTRACE read "
                "only the threads that run as its own user and group; run "
                "rseq-compat as root to read them all");
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


  /* It may have exited while it was read, its files then refusing
     everyone (fortieth review: 2 of 150 such runs blamed a security
     module).  */
  if (!proc_alive (pid))
    return ESRCH;
  /* Also where the process is not dumpable inside a user namespace
     whose root is its user: its files stay that user's (thirtieth
     review).  */
  snprintf (out, outlen, "%sa security module (SELinux, AppArmor), a "
            "container without CAP_SYS_PTRACE, or the process being not "
            "dumpable in a user namespace forbids reading it; run "
            "rseq-compat as root outside any container",
            ns == NS_UNTOLD ? "it may run in another user namespace whose "
                              "ID maps read as ours (one made by root with "
                              "the identity map: only the machine's root "
                              "reads it), or " : "");
  return 0;
}

/* The value of OPTION ("hidepid=") among the comma-separated OPTS, into
   OUT; empty where it is not there.  */
static void
mount_option (const char *opts, const char *option, char *out, size_t outlen)
{
  size_t len = strlen (option);
  out[0] = '\0';
  for (const char *o = opts; o != NULL; o = strchr (o, ','))
    {
      o += *o == ',';
      if (strncmp (o, option, len) == 0)
        snprintf (out, outlen, "%.*s", (int) strcspn (o + len, ", \n"),
                  o + len);
    }
}

int
hidden_hint (pid_t pid, char *out, size_t outlen)
{
  if (kill (pid, 0) != 0 && errno == ESRCH)
    return ESRCH;
  /* The options of the proc mounted last on /proc, the one we see:
     mountinfo's fifth field is the mount point, and its super-block
     options follow " - proc SOURCE ".  */
  char *info = NULL, hidepid[32] = "", gid[32] = "";
  if (proc_slurp ("/proc/self/mountinfo", &info, 16u << 20) >= 0)
    for (char *line = info; line != NULL && *line != '\0';
         line = strchr (line, '\n') != NULL ? strchr (line, '\n') + 1 : NULL)
      {
        char point[16];
        const char *sep = strstr (line, " - proc ");
        const char *eol = strchr (line, '\n');
        if (sscanf (line, "%*s %*s %*s %*s %15s", point) != 1
            || strcmp (point, "/proc") != 0 || sep == NULL
            || (eol != NULL && sep > eol))
          continue;
        const char *opts = strchr (sep + 8, ' ');
        if (opts == NULL || (eol != NULL && opts > eol))
          continue;
        mount_option (opts + 1, "hidepid=", hidepid, sizeof hidepid);
        mount_option (opts + 1, "gid=", gid, sizeof gid);
      }
  free (info);
  char dir[64], who[260], owner[300] = "the process's user";
  struct stat st;
  snprintf (dir, sizeof dir, "/proc/%d", (int) pid);
  /* hidepid=noaccess (1) still shows the directory, and its owner.  */
  if (stat (dir, &st) == 0)
    snprintf (owner, sizeof owner, "user %s, its owner",
              user_name (st.st_uid, who, sizeof who));
  if (hidepid[0] == '\0')
    snprintf (out, outlen, "the kernel has a process %d, but /proc does not "
              "show it to rseq-compat (a /proc of another PID namespace, or "
              "one that hides other users' processes); run rseq-compat as "
              "root, or as %s, where that /proc is mounted", (int) pid,
              owner);
  else
    snprintf (out, outlen, "/proc is mounted with hidepid=%s, which hides "
              "other users' processes from rseq-compat; run rseq-compat as "
              "root, or as %s%s%s%s", hidepid, owner,
              gid[0] != '\0' ? ", or as a member of group " : "", gid,
              gid[0] != '\0' ? " (/proc's gid=)" : "");
  return 0;
}
