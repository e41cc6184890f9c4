/* Holds rseq-compat info -p between two reads, for info.exp.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Preloaded into the command with RSEQ_TEST_HOOK=DIR: the first open
   after one of a file named ".../maps" (or ".../NAME" with
   RSEQ_TEST_HOOK_AFTER=NAME) creates DIR/paused and waits
   (30 s at most) until DIR/go exists, so that info.exp can end the
   process and give its PID to another between the two (twenty-second
   review: what info -p read next was the other process's, and root's
   child opened files as the other's user).  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int after_maps, held;

static void
seen (const char *path)
{
  const char *dir = getenv ("RSEQ_TEST_HOOK");
  if (dir == NULL || held)
    return;
  size_t len = strlen (path);
  if (!after_maps)
    {
      char want[256];
      const char *name = getenv ("RSEQ_TEST_HOOK_AFTER");
      snprintf (want, sizeof want, "/%s", name != NULL ? name : "maps");
      size_t wl = strlen (want);
      after_maps = len >= wl && strcmp (path + len - wl, want) == 0;
      return;
    }
  held = 1;
  char name[4096];
  snprintf (name, sizeof name, "%s/paused", dir);
  int (*real_open) (const char *, int, ...) = dlsym (RTLD_NEXT, "open");
  int fd = real_open (name, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd >= 0)
    close (fd);
  snprintf (name, sizeof name, "%s/go", dir);
  struct stat st;
  for (int i = 0; i < 300 && stat (name, &st) != 0; i++)
    {
      struct timespec t = { 0, 100 * 1000 * 1000 };
      nanosleep (&t, NULL);
    }
}

/* glibc before 2.19 has no O_TMPFILE (make check-oldlibc's 2.17):
   Linux's value, the same on x86-64 and AArch64.  */
#ifndef O_TMPFILE
# define O_TMPFILE (020000000 | O_DIRECTORY)
#endif

static int
forward (const char *sym, const char *path, int flags, va_list ap)
{
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE))
    mode = va_arg (ap, int);
  seen (path);
  int (*real) (const char *, int, ...) = dlsym (RTLD_NEXT, sym);
  return real (path, flags, mode);
}

int
open (const char *path, int flags, ...)
{
  va_list ap;
  va_start (ap, flags);
  int ret = forward ("open", path, flags, ap);
  va_end (ap);
  return ret;
}

int
open64 (const char *path, int flags, ...)
{
  va_list ap;
  va_start (ap, flags);
  int ret = forward ("open64", path, flags, ap);
  va_end (ap);
  return ret;
}
