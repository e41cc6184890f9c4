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

/* Whether we run in the machine's user namespace, whose map is the
   whole range: our capabilities hold over every process only there
   (forty-first review: root of a user namespace was taken for the
   machine's).  A namespace that root made with the whole range as its
   map reads the same (43rd review, R2), so the namespace's own inode
   number decides where it can be read: the kernel gives the initial one
   a fixed number (PROC_USER_INIT_INO, since Linux 3.8) and every other
   one another.  */
#define USER_NS_INIT_INO 0xEFFFFFFDul

static int
in_initial_user_ns (void)
{
  char *map = NULL;
  unsigned long int inside, outside, count;
  int n = -1;
  int ret = proc_slurp ("/proc/self/uid_map", &map, 1 << 20) > 0
            && sscanf (map, "%lu %lu %lu %n", &inside, &outside, &count, &n)
               == 3
            && inside == 0 && outside == 0 && count == 4294967295UL
            && n > 0 && map[n] == '\0';
  free (map);
  struct stat st;
  if (ret && stat ("/proc/self/ns/user", &st) == 0)
    ret = (unsigned long int) st.st_ino == USER_NS_INIT_INO;
  return ret;
}

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

/* The real, effective and saved user (U) and group (G) IDs of the
   thread at DIR, from one read of its status: 0, or -1 where it cannot
   be read.  *MEM tells whether the thread has its memory still: one
   that is exiting gives it up first, and its files become root's
   (fortieth review: such a process was said to be not dumpable).  */
static int
thread_ids (const char *dir, unsigned int u[3], unsigned int g[3], int *mem)
{
  char path[128], *status = NULL;
  snprintf (path, sizeof path, "%s/status", dir);
  if (proc_slurp (path, &status, 1 << 16) < 0)
    return -1;
  int got = 0;
  *mem = 0;
  for (char *line = status; line != NULL && *line != '\0';
       line = strchr (line, '\n') != NULL ? strchr (line, '\n') + 1 : NULL)
    if (sscanf (line, "Uid: %u %u %u", &u[0], &u[1], &u[2]) == 3)
      got |= 1;
    else if (sscanf (line, "Gid: %u %u %u", &g[0], &g[1], &g[2]) == 3)
      got |= 2;
    else if (strncmp (line, "VmSize:", 7) == 0)
      *mem = 1;
  free (status);
  return got == 3 ? 0 : -1;
}

/* What the kernel compares of process PID, read from one live thread
   of it, the main one where it lives: its IDs, its files and its
   namespace (thirty-ninth review: the main thread gone, another thread
   that had set its own IDs was judged by the main thread's).  */
struct target
{
  char dir[96];			/* /proc/PID/task/TID.  */
  unsigned int u[3], g[3];	/* Its users and groups.  */
  int mixed;			/* Whether other live threads' differ.  */
  int owned;			/* Whether FILES was read.  */
  struct stat files;		/* Its environ file.  */
};

/* The first live thread of PID with its memory, read into T.  Threads
   that set their own IDs by raw system calls differ (fortieth review:
   the first alone was judged and its user named, who then read one
   thread of two): T->mixed, told by the IDs the kernel compares (not
   the file-system ones, which a file server sets per thread).  0; -1
   where none lives; -2 where those that live have given up their
   memory (the process is exiting).  */
static int
first_live (pid_t pid, struct target *t)
{
  size_t n = 0;
  pid_t *tids = proc_list_tasks (pid, &n);
  int found = 0, exiting = 0, mem;
  unsigned int u[3], g[3];
  t->mixed = 0;
  for (size_t i = 0; tids != NULL && i < n && !t->mixed; i++)
    {
      char tdir[96];
      snprintf (tdir, sizeof tdir, "/proc/%d/task/%d", (int) pid,
                (int) tids[i]);
      /* A thread that exits meanwhile reads nothing, and is left out.  */
      if (proc_state_dead (proc_task_state (pid, tids[i]))
          || thread_ids (tdir, u, g, &mem) != 0)
        continue;
      if (!mem)
        {
          exiting = 1;
          continue;
        }
      if (!found)
        {
          snprintf (t->dir, sizeof t->dir, "%s", tdir);
          memcpy (t->u, u, sizeof u);
          memcpy (t->g, g, sizeof g);
          found = 1;
        }
      else if (memcmp (t->u, u, sizeof u) != 0
               || memcmp (t->g, g, sizeof g) != 0)
        t->mixed = 1;
    }
  free (tids);
  return found ? 0 : exiting ? -2 : -1;
}

/* T, from a thread that kept its memory until its files were read too:
   0; ESRCH where the process has exited (or is exiting); EAGAIN where
   its threads came and went too fast for five tries.  */
static int
read_target (pid_t pid, struct target *t)
{
  for (int attempt = 0; attempt < 5; attempt++)
    {
      /* None found may be threads that all went while others started
         (fortieth review: such a process was said to have exited).  */
      int live = first_live (pid, t);
      /* Threads that come and go may all have given up their memory
         just then, while another starts (forty-first review: such a
         process was said to have exited): only the last try's -2 says
         the process is exiting.  */
      if (live == -1 && !proc_alive (pid))
        return ESRCH;
      if (live == -2 && attempt == 4)
        return ESRCH;
      if (live != 0)
        continue;
      char path[128];
      unsigned int u[3], g[3];
      int mem;
      snprintf (path, sizeof path, "%s/environ", t->dir);
      t->owned = stat (path, &t->files) == 0;
      if (t->owned && thread_ids (t->dir, u, g, &mem) == 0 && mem
          && memcmp (t->u, u, sizeof u) == 0
          && memcmp (t->g, g, sizeof g) == 0)
        return 0;
    }
  return proc_alive (pid) ? EAGAIN : ESRCH;
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
  char v[128];
  struct target t;
  int ret = read_target (pid, &t);
  if (ret == EAGAIN)
    snprintf (out, outlen, "its threads came and went too fast to tell why "
              "(five tries); run rseq-compat again, or as root");
  if (ret != 0)
    return ret == EAGAIN ? 0 : ESRCH;
  const char *dir = t.dir;
  const unsigned int *u = t.u, *g = t.g;
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
  int user_bad = !cap
                 && (!all_are (u, c.euid) || (stop && !all_are (u, c.uid)));
  int group_bad = !cap
                  && (!all_are (g, c.egid) || (stop && !all_are (g, c.gid)));
  /* Another user namespace (a container's): the kernel wants
     CAP_SYS_PTRACE over it, which no user of the machine's has by its
     IDs, only root and the user that made the namespace, and /proc's
     file modes let that user read only where the files are its own
     (those of a process not dumpable there are the namespace's root's).
     Thirty-ninth review: a user, or the namespace's root, was named
     where it was refused too; fortieth: the files' owner was named
     where it was a subordinate ID, or a sibling container's user.  */
  const struct stat st = t.files;
  int owned = t.owned;
  char who[260];
  /* Even with CAP_SYS_PTRACE where we run in a namespace of our own:
     it holds only over that one and those below, and a refusal where
     the namespaces differ is theirs (forty-first review: root of a
     container reading the machine's process was told of a security
     module).  Not in the machine's, where it holds over every one, so
     something else refused (forty-third review: the machine's root was
     told to run as the machine's root).  */
  enum user_ns ns = cap && in_initial_user_ns () ? NS_SAME
                    : user_ns_of (dir);
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
                  "owner of its files, if that user made the namespace in "
                  "rseq-compat's own (a rootless container's)",
                  user_name (st.st_uid, who, sizeof who));
      snprintf (out, outlen, "it runs in another user namespace (a "
                "container's, or rseq-compat runs in one), and the kernel "
                "lets only a process with CAP_SYS_PTRACE over that "
                "namespace read it; run rseq-compat as the machine's root, "
                "outside any container%s", also);
      return 0;
    }
  /* Threads that set their own IDs: only root stops every one.  But
     --no-stop reads the memory they share through the first live
     thread, which its own user may read (fortieth review: only root was
     named).  */
  if (!cap && t.mixed)
    {
      char caps[64], also[400] = "";
      int its_user = all_are (u, u[0]) && all_are (g, g[0])
                     && owned && st.st_uid == u[1]
                     && proc_status_field (dir, "CapPrm", caps,
                                           sizeof caps) == 0
                     && strtoull (caps, NULL, 16) == 0;
      if (its_user && u[0] == c.euid && g[0] == c.egid && stop)
        snprintf (also, sizeof also, ", or with --no-stop, which reads "
                  "the memory they share through thread %s, one of "
                  "yours", base_name (dir));
      else if (its_user && (u[0] != c.euid || g[0] != c.egid))
        snprintf (also, sizeof also, ", or as user %s and group %u with "
                  "--no-stop, which reads the memory they share through "
                  "thread %s, one of that user's", user_name (u[0], who,
                                                              sizeof who),
                  g[0], base_name (dir));
      snprintf (out, outlen, "its threads run as different users or "
                "groups (a thread set its own IDs by a raw system call), "
                "and the kernel lets a process without CAP_SYS_PTRACE stop "
                "only the threads that run as its own user and group; run "
                "rseq-compat as root to read them all%s", also);
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
  if (!cap && owned && st.st_uid != u[1])
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

/* The hidepid= option of the proc mounted on /proc that we see, into
   HIDEPID (empty where none): the mount whose ID the kernel gives for
   an open /proc (fdinfo's mnt_id, since Linux 3.15), else the last one
   mountinfo lists there (fortieth review: mounts stacked or moved).
   Its super-block options follow " - proc SOURCE " in mountinfo.  */
static void
proc_hidepid (char *hidepid, size_t len)
{
  char *info = NULL, path[64], *fdinfo = NULL;
  long int want = -1;
  hidepid[0] = '\0';
  int fd = open ("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0)
    {
      snprintf (path, sizeof path, "/proc/self/fdinfo/%d", fd);
      if (proc_slurp (path, &fdinfo, 4096) >= 0 && strstr (fdinfo, "mnt_id:"))
        want = strtol (strstr (fdinfo, "mnt_id:") + 7, NULL, 10);
      free (fdinfo);
      close (fd);
    }
  if (proc_slurp ("/proc/self/mountinfo", &info, 16u << 20) < 0)
    return;
  for (char *line = info; line != NULL && *line != '\0';
       line = strchr (line, '\n') != NULL ? strchr (line, '\n') + 1 : NULL)
    {
      char point[16];
      long int id;
      const char *sep = strstr (line, " - proc ");
      const char *eol = strchr (line, '\n');
      if (sscanf (line, "%ld %*s %*s %*s %15s", &id, point) != 2
          || strcmp (point, "/proc") != 0 || sep == NULL
          || (eol != NULL && sep > eol) || (want >= 0 && id != want))
        continue;
      const char *opts = strchr (sep + 8, ' ');
      if (opts != NULL && (eol == NULL || opts < eol))
        mount_option (opts + 1, "hidepid=", hidepid, len);
    }
  free (info);
}

int
proc_mismatch_hint (char *out, size_t outlen)
{
  char self[32] = "";
  ssize_t n = readlink ("/proc/self", self, sizeof self - 1);
  struct stat st;
  if (n < 0 && stat ("/proc/1", &st) != 0 && errno == ENOENT)
    {
      snprintf (out, outlen, "/proc is not mounted, and rseq-compat reads "
                "every process through it; mount it (mount -t proc proc "
                "/proc)");
      return 1;
    }
  if (n <= 0 || (self[n] = '\0', atoi (self) != (int) getpid ()))
    {
      snprintf (out, outlen, "the /proc mounted here belongs to another PID "
                "namespace (its /proc/self is %s, where rseq-compat is "
                "process %d), so its numbers name other processes; run "
                "rseq-compat where /proc is that of its own PID namespace "
                "(mount -t proc proc /proc in it)",
                n > 0 ? self : "missing", (int) getpid ());
      return 1;
    }
  return 0;
}

int
hidden_hint (pid_t pid, char *out, size_t outlen)
{
  if (kill (pid, 0) != 0 && errno == ESRCH)
    return ESRCH;
  char hidepid[32];
  proc_hidepid (hidepid, sizeof hidepid);
  /* hidepid shows a process only to whoever may read it anyway (the
     kernel's ptrace check, or /proc's gid= group, which sees it but is
     then refused as anyone else): its user may be refused too (not
     dumpable, another group or user namespace), and /proc then tells
     nothing of why (fortieth review: the user named was refused the
     same way).  */
  if (hidepid[0] != '\0' && !(has_cap_sys_ptrace () && in_initial_user_ns ()))
    snprintf (out, outlen, "/proc is mounted with hidepid=%s, which shows "
              "a process only to those who may read it, and rseq-compat may "
              "not (another user's process, or one not dumpable, or in "
              "another user namespace: /proc does not say which); run "
              "rseq-compat as root", hidepid);
  else
    snprintf (out, outlen, "the kernel has a process %d, but /proc does not "
              "show it (a /proc of another PID namespace, or a security "
              "module that hides it); run rseq-compat as root where /proc "
              "is that of its own PID namespace", (int) pid);
  return 0;
}
