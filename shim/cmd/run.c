/* rseq-compat run: a program with librseq-compat preloaded.
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
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common.h"
#include "run.h"

#ifndef RSEQ_COMPAT_LIBDIR
# define RSEQ_COMPAT_LIBDIR "/usr/local/lib"
#endif

/* COMMAND as execvp would find it, or NULL with errno set.  */
static char *
find_command (const char *cmd)
{
  if (strchr (cmd, '/') != NULL)
    return access (cmd, F_OK) == 0 ? strdup (cmd) : NULL;

  const char *path = getenv ("PATH");
  if (path == NULL)
    path = "/usr/local/bin:/usr/bin:/bin";
  int saw_eacces = 0;
  while (*path != '\0')
    {
      const char *end = strchrnul (path, ':');
      char *full;
      int n = (int) (end - path);
      if (asprintf (&full, "%.*s%s%s", n, path, n ? "/" : "", cmd) < 0)
        return NULL;
      struct stat st;
      if (stat (full, &st) == 0 && S_ISREG (st.st_mode))
        {
          if (access (full, X_OK) == 0)
            return full;
          saw_eacces = 1;
        }
      free (full);
      path = *end ? end + 1 : end;
    }
  errno = saw_eacces ? EACCES : ENOENT;
  return NULL;
}

/* Whether FILE is an ELF program whose interpreter is musl's.  A musl
   program needs the shim built against musl.  */
static int
is_musl_program (const char *file)
{
  int fd = open (file, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  Elf64_Ehdr eh;
  int musl = 0;
  if (pread (fd, &eh, sizeof eh, 0) == sizeof eh
      && memcmp (eh.e_ident, ELFMAG, SELFMAG) == 0
      && eh.e_ident[EI_CLASS] == ELFCLASS64
      && eh.e_phentsize == sizeof (Elf64_Phdr))
    for (int i = 0; i < eh.e_phnum && !musl; i++)
      {
        Elf64_Phdr ph;
        char interp[PATH_MAX];
        if (pread (fd, &ph, sizeof ph, eh.e_phoff + i * sizeof ph) != sizeof ph)
          break;
        if (ph.p_type != PT_INTERP || ph.p_filesz == 0
            || ph.p_filesz >= sizeof interp)
          continue;
        if (pread (fd, interp, ph.p_filesz, ph.p_offset) != (ssize_t) ph.p_filesz)
          break;
        interp[ph.p_filesz] = '\0';
        musl = strstr (interp, "ld-musl") != NULL;
      }
  close (fd);
  return musl;
}

/* The library to preload: next to this program (a build tree), else
   the installed one.  */
static char *
find_library (int musl, char *looked, size_t looked_size)
{
  const char *env = getenv ("RSEQ_COMPAT_LIBRARY");
  if (env != NULL && *env != '\0')
    return realpath (env, NULL);

  char self[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  char *candidates[2] = { NULL, NULL };
  if (n > 0)
    {
      self[n] = '\0';
      *strrchr (self, '/') = '\0';
      if (asprintf (&candidates[0], "%s/%s" SONAME, self,
                    musl ? "musl/" : "") < 0)
        candidates[0] = NULL;
    }
  if (asprintf (&candidates[1], "%s/%s" SONAME, RSEQ_COMPAT_LIBDIR,
                musl ? "rseq-compat/musl/" : "") < 0)
    candidates[1] = NULL;

  looked[0] = '\0';
  char *found = NULL;
  for (int i = 0; i < 2; i++)
    {
      if (candidates[i] == NULL)
        continue;
      if (found == NULL && access (candidates[i], R_OK) == 0)
        found = realpath (candidates[i], NULL);
      size_t used = strlen (looked);
      snprintf (looked + used, looked_size - used, "%s%s",
                used ? ", " : "", candidates[i]);
      free (candidates[i]);
    }
  return found;
}

int
cmd_run (char **argv)
{
  char *cmd = find_command (argv[0]);
  if (cmd == NULL)
    {
      if (errno == EACCES)
        {
          fprintf (stderr, "rseq-compat: %s: permission denied\n", argv[0]);
          return EXIT_NOT_EXEC;
        }
      fprintf (stderr, "rseq-compat: %s: command not found\n", argv[0]);
      return EXIT_NOT_FOUND;
    }

  char looked[2 * PATH_MAX];
  int musl = is_musl_program (cmd);
  char *lib = find_library (musl, looked, sizeof looked);
  if (lib == NULL)
    {
      fprintf (stderr, "rseq-compat: cannot find the %s%s to preload "
               "(looked for %s); install it or set RSEQ_COMPAT_LIBRARY\n",
               musl ? "musl build of " : "", SONAME,
               getenv ("RSEQ_COMPAT_LIBRARY") ? getenv ("RSEQ_COMPAT_LIBRARY")
                                              : looked);
      free (cmd);
      return EXIT_CANNOT_RUN;
    }

  /* The shim goes first: musl runs preloaded constructors in order, and
     the shim must publish its values before any other.  */
  const char *old = getenv ("LD_PRELOAD");
  char *preload;
  if (asprintf (&preload, "%s%s%s", lib, old && *old ? ":" : "",
                old ? old : "") < 0
      || setenv ("LD_PRELOAD", preload, 1) != 0)
    {
      perror ("rseq-compat");
      free (lib);
      free (cmd);
      return EXIT_CANNOT_RUN;
    }
  free (preload);		/* setenv copied it.  */
  free (lib);

  execv (cmd, argv);
  int err = errno;
  free (cmd);
  fprintf (stderr, "rseq-compat: %s: %s\n", argv[0], strerror (err));
  return err == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXEC;
}
