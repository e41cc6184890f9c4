/* trace DIR SKIP: every file opened under DIR, for build-aux/tiers/tier.
   Copyright (C) 2026 The rseq-compat developers.
   SPDX-License-Identifier: LGPL-2.1-or-later

   Prints "OPEN PATH" for each file opened under DIR and "OPENDIR PATH"
   for each directory listed, directories made later included, except
   under SKIP (DIR's build/, whose own outputs are no input); "READY" on
   standard error once every directory is watched.  Where the kernel's
   queue overflowed it prints "OVERFLOW": events were lost and the
   trace proves nothing (inotifywait drops that event without a word,
   which is why this exists).  Ends on SIGTERM once the queue is
   drained.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

static int fd;
static const char *skip;
static size_t skiplen;
static char **paths;
static size_t npaths;
static volatile sig_atomic_t stop;

static int
skipped (const char *path)
{
  return strncmp (path, skip, skiplen) == 0
         && (path[skiplen] == '\0' || path[skiplen] == '/');
}

static int
watch_one (const char *path, const struct stat *st, int type, struct FTW *f)
{
  (void) st;
  if (type != FTW_D)
    return 0;
  if (skipped (path))
    return FTW_SKIP_SUBTREE;
  int wd = inotify_add_watch (fd, path, IN_OPEN | IN_CREATE | IN_MOVED_TO
                              | IN_ONLYDIR | IN_DONT_FOLLOW);
  if (wd < 0)
    {
      fprintf (stderr, "trace: cannot watch %s: %s\n", path,
               strerror (errno));
      exit (1);
    }
  if ((size_t) wd >= npaths)
    {
      size_t n = (size_t) wd * 2 + 16;
      paths = realloc (paths, n * sizeof *paths);
      if (paths == NULL)
        exit (1);
      memset (paths + npaths, 0, (n - npaths) * sizeof *paths);
      npaths = n;
    }
  free (paths[wd]);
  paths[wd] = strdup (path);
  (void) f;
  return 0;
}

static void
watch_tree (const char *dir)
{
  if (nftw (dir, watch_one, 64, FTW_PHYS | FTW_ACTIONRETVAL) != 0)
    {
      fprintf (stderr, "trace: cannot walk %s\n", dir);
      exit (1);
    }
}

static void
on_term (int sig)
{
  (void) sig;
  stop = 1;
}

/* Reads and prints what is queued; returns how many events.  */
static int
drain (void)
{
  char buf[65536] __attribute__ ((aligned (__alignof__ (struct inotify_event))));
  ssize_t n = read (fd, buf, sizeof buf);
  if (n <= 0)
    return 0;
  int count = 0;
  for (char *p = buf; p < buf + n;)
    {
      struct inotify_event *e = (struct inotify_event *) p;
      p += sizeof *e + e->len;
      count++;
      if (e->mask & IN_Q_OVERFLOW)
        {
          puts ("OVERFLOW");
          continue;
        }
      if (e->wd < 0 || (size_t) e->wd >= npaths || paths[e->wd] == NULL)
        continue;
      char path[PATH_MAX * 2];
      snprintf (path, sizeof path, "%s%s%s", paths[e->wd],
                e->len ? "/" : "", e->len ? e->name : "");
      if ((e->mask & (IN_CREATE | IN_MOVED_TO)) && (e->mask & IN_ISDIR))
        {
          if (!skipped (path))
            watch_tree (path);
        }
      else if (e->mask & IN_OPEN)
        printf ("%s %s\n", e->mask & IN_ISDIR ? "OPENDIR" : "OPEN", path);
    }
  return count;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: trace DIR SKIP\n");
      return 2;
    }
  skip = argv[2];
  skiplen = strlen (skip);
  setvbuf (stdout, NULL, _IOLBF, 0);
  fd = inotify_init1 (IN_CLOEXEC | IN_NONBLOCK);
  if (fd < 0)
    {
      fprintf (stderr, "trace: inotify_init1: %s\n", strerror (errno));
      return 1;
    }
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_term;
  sigaction (SIGTERM, &sa, NULL);
  watch_tree (argv[1]);
  /* The walk's own listings of the directories it watched.  */
  char buf[65536] __attribute__ ((aligned (__alignof__ (struct inotify_event))));
  while (read (fd, buf, sizeof buf) > 0)
    ;
  fputs ("READY\n", stderr);
  while (!stop)
    {
      struct pollfd pf = { fd, POLLIN, 0 };
      if (poll (&pf, 1, -1) > 0)
        drain ();
    }
  while (drain () > 0)
    ;
  return ferror (stdout) != 0;
}
