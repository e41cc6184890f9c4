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
/* What the machine's glibc loader expands $LIB to (the Makefile asks
   it); empty where the build made no glibc copy of the shim.  */
#ifndef RSEQ_COMPAT_GLIBC_LIB
# define RSEQ_COMPAT_GLIBC_LIB ""
#endif
/* The installed preload layout relative to the installed command
   (bindir to pkglibdir), where both are under one prefix: "" where
   not.  */
#ifndef RSEQ_COMPAT_BIN_TO_PRELOAD
# define RSEQ_COMPAT_BIN_TO_PRELOAD ""
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

/* The C library FILE's interpreter belongs to.  */
enum libc_kind { LIBC_NONE, LIBC_GLIBC, LIBC_MUSL };

static enum libc_kind
program_libc (const char *file)
{
  int fd = open (file, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return LIBC_NONE;
  Elf64_Ehdr eh;
  enum libc_kind kind = LIBC_NONE;
  if (pread (fd, &eh, sizeof eh, 0) == sizeof eh
      && memcmp (eh.e_ident, ELFMAG, SELFMAG) == 0
      && eh.e_ident[EI_CLASS] == ELFCLASS64
      && eh.e_phentsize == sizeof (Elf64_Phdr))
    for (int i = 0; i < eh.e_phnum && kind == LIBC_NONE; i++)
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
        kind = strstr (interp, "ld-musl") != NULL ? LIBC_MUSL : LIBC_GLIBC;
      }
  close (fd);
  return kind;
}

/* <elf.h> has it from glibc 2.29; the portable build's older ones do
   not, but the flag's value is the ELF ABI's.  */
#ifndef DF_1_PIE
# define DF_1_PIE 0x08000000
#endif

/* Whether the 64-bit ELF object open on FD is a position-independent
   program (DF_1_PIE), which glibc's loader since 2.30 refuses to
   preload although its type is ET_DYN like a library's.  */
static int
is_pie (int fd)
{
  Elf64_Ehdr eh;
  if (pread (fd, &eh, sizeof eh, 0) != sizeof eh
      || eh.e_ident[EI_CLASS] != ELFCLASS64
      || eh.e_phentsize != sizeof (Elf64_Phdr))
    return 0;
  for (int i = 0; i < eh.e_phnum; i++)
    {
      Elf64_Phdr ph;
      if (pread (fd, &ph, sizeof ph, eh.e_phoff + i * sizeof ph) != sizeof ph)
        return 0;
      if (ph.p_type != PT_DYNAMIC)
        continue;
      for (Elf64_Off off = 0; off + sizeof (Elf64_Dyn) <= ph.p_filesz;
           off += sizeof (Elf64_Dyn))
        {
          Elf64_Dyn d;
          if (pread (fd, &d, sizeof d, ph.p_offset + off) != sizeof d
              || d.d_tag == DT_NULL)
            return 0;
          if (d.d_tag == DT_FLAGS_1)
            return (d.d_un.d_val & DF_1_PIE) != 0;
        }
    }
  return 0;
}

/* Why FILE cannot be preloaded, or NULL where it can: the loader takes
   a readable ELF shared object only, and prints an error for anything
   else in every process of the tree and runs it without the shim
   (ninety-second review, C1: a directory or /etc/passwd in
   RSEQ_COMPAT_LIBRARY passed an access check).  */
static const char *
not_preloadable (const char *file)
{
  int fd = open (file, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return errno == ENOENT ? "missing" : "unreadable";
  struct stat st;
  Elf64_Ehdr eh;
  const char *why = NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    why = S_ISDIR (st.st_mode) ? "a directory" : "not a regular file";
  /* e_type sits at the same offset in both ELF classes.  */
  else if (pread (fd, &eh, sizeof eh.e_ident + sizeof eh.e_type, 0)
           != (ssize_t) (sizeof eh.e_ident + sizeof eh.e_type)
           || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0)
    why = "not an ELF file";
  else if (eh.e_type != ET_DYN)
    why = "not a shared library";
  else if (is_pie (fd))
    why = "a program, not a shared library";
  close (fd);
  return why;
}

/* The preload layout's subdirectory that the loader of C library KIND
   opens: glibc's loader expands $LIB (to what the build found this
   machine's glibc uses), musl's takes it literally.  A script or a
   static program starts no loader itself; what it runs (a shell, say)
   is most likely of the C library this command was built for.  */
static const char *
layout_subdir (enum libc_kind kind)
{
  if (kind == LIBC_NONE)
#ifdef __GLIBC__
    kind = LIBC_GLIBC;
#else
    kind = LIBC_MUSL;
#endif
  if (kind == LIBC_MUSL)
    return "$LIB";
  return RSEQ_COMPAT_GLIBC_LIB[0] != '\0' ? RSEQ_COMPAT_GLIBC_LIB : NULL;
}

/* The LD_PRELOAD entry: RSEQ_COMPAT_LIBRARY as it is (made absolute),
   else the preload layout (build-aux/preload-layout) next to this
   program (a build tree), beside it under the same prefix (an
   installed tree moved elsewhere: the portable tarball unpacked
   anywhere), or where it was installed, provided it has the build for
   KIND.  Every process of the
   tree inherits the entry and its loader picks its own build from it,
   so it names the layout, not the file.  */
static char *
find_preload (enum libc_kind kind, char *looked, size_t looked_size,
              const char **why)
{
  *why = NULL;
  const char *env = getenv ("RSEQ_COMPAT_LIBRARY");
  if (env != NULL && *env != '\0')
    {
      /* As it is, made absolute where it is relative (every process of
         the tree resolves it from its own directory), and not resolved
         further: the preload layout's "$LIB/" entry leads, through its
         literal "$LIB" directory, to the musl build, where each loader
         must expand it for itself (51st review: realpath exported the
         musl build, and every glibc process exited with 127).  */
      char *path = NULL, cwd[PATH_MAX];
      if (env[0] == '/')
        path = strdup (env);
      else if (getcwd (cwd, sizeof cwd) != NULL
               && asprintf (&path, "%s/%s", cwd, env) < 0)
        path = NULL;
      /* The file KIND's loader opens: a layout entry's "$LIB" is
         expanded by glibc's loader and taken as it stands by musl's.  */
      static const char entry[] = "/$LIB/" SONAME;
      size_t len = path != NULL ? strlen (path) : 0;
      const char *sub = layout_subdir (kind);
      char *file = NULL;
      if (len >= sizeof entry - 1
          && strcmp (path + len - (sizeof entry - 1), entry) == 0
          && sub != NULL
          && asprintf (&file, "%.*s/%s/" SONAME,
                       (int) (len - (sizeof entry - 1)), path, sub) < 0)
        file = NULL;
      if (path != NULL
          && (*why = not_preloadable (file != NULL ? file : path)) != NULL)
        {
          free (path);
          path = NULL;
        }
      free (file);
      return path;
    }

  const char *sub = layout_subdir (kind);
  char self[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", self, sizeof self - 1);
  char *dirs[3] = { NULL, NULL, NULL };
  if (n > 0)
    {
      self[n] = '\0';
      *strrchr (self, '/') = '\0';
      if (asprintf (&dirs[0], "%s/preload", self) < 0)
        dirs[0] = NULL;
      if (RSEQ_COMPAT_BIN_TO_PRELOAD[0] != '\0'
          && asprintf (&dirs[1], "%s/%s", self, RSEQ_COMPAT_BIN_TO_PRELOAD) < 0)
        dirs[1] = NULL;
    }
  if (asprintf (&dirs[2], "%s/rseq-compat", RSEQ_COMPAT_LIBDIR) < 0)
    dirs[2] = NULL;

  looked[0] = '\0';
  char *found = NULL;
  for (int i = 0; i < 3; i++)
    {
      char *file = NULL;
      if (dirs[i] != NULL && sub != NULL
          && asprintf (&file, "%s/%s/" SONAME, dirs[i], sub) < 0)
        file = NULL;
      if (file != NULL)
        {
          char *dir;
          if (found == NULL && not_preloadable (file) == NULL
              && (dir = realpath (dirs[i], NULL)) != NULL)
            {
              if (asprintf (&found, "%s/$LIB/" SONAME, dir) < 0)
                found = NULL;
              free (dir);
            }
          size_t used = strlen (looked);
          snprintf (looked + used, looked_size - used, "%s%s",
                    used ? ", " : "", file);
          free (file);
        }
      free (dirs[i]);
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
  enum libc_kind kind = program_libc (cmd);
  const char *why;
  char *lib = find_preload (kind, looked, sizeof looked, &why);
  if (lib == NULL)
    {
      const char *what = getenv ("RSEQ_COMPAT_LIBRARY");
      if (why != NULL && strcmp (why, "missing") != 0)
        {
          fprintf (stderr, "rseq-compat: RSEQ_COMPAT_LIBRARY names %s, "
                   "which is %s; set it to the shim (%s) or unset it\n",
                   what, why, SONAME);
          free (cmd);
          return EXIT_CANNOT_RUN;
        }
      if (what == NULL || *what == '\0')
        what = looked[0] != '\0' ? looked : NULL;
      fprintf (stderr, "rseq-compat: cannot find the %s%s to preload "
               "(%s%s); install it or set RSEQ_COMPAT_LIBRARY\n",
               kind == LIBC_MUSL ? "musl build of "
               : kind == LIBC_GLIBC ? "glibc build of " : "", SONAME,
               what != NULL ? "looked for " : "",
               what != NULL ? what : "none is built on this machine");
      free (cmd);
      return EXIT_CANNOT_RUN;
    }

  /* Both loaders split LD_PRELOAD into names at these bytes (glibc at
     spaces and colons, musl at white space and colons), and glibc's
     expands a '$' ($ORIGIN, $PLATFORM, ${...}): a path holding one
     would reach neither as the file it names, and every process would
     print loader errors and run without the shim.  The "$LIB/" this
     command puts in a layout's entry is meant for the loader.  */
  static const char own[] = "/$LIB/" SONAME;
  size_t len = strlen (lib);
  if (len >= sizeof own - 1 && strcmp (lib + len - (sizeof own - 1), own) == 0)
    len -= sizeof own - 1;
  if (strcspn (lib, " \t\n\v\f\r:$") < len)
    {
      fprintf (stderr, "rseq-compat: the shim's path %s holds a space, a "
               "tab, a newline, a colon or a '$', which LD_PRELOAD cannot "
               "carry as it is (the loader would split it into several "
               "names, or expand the '$'); install it, or point "
               "RSEQ_COMPAT_LIBRARY at a copy, under a path without "
               "them\n", lib);
      free (lib);
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
  /* A file the kernel cannot execute but that is executable (a script
     without "#!"): run it with /bin/sh, as execvp, env and the shells
     do.  */
  if (err == ENOEXEC)
    {
      int argc = 0;
      while (argv[argc] != NULL)
        argc++;
      char **shargv = calloc (argc + 2, sizeof *shargv);
      if (shargv != NULL)
        {
          shargv[0] = (char *) "/bin/sh";
          shargv[1] = cmd;
          memcpy (shargv + 2, argv + 1, argc * sizeof *argv);
          execv ("/bin/sh", shargv);
          err = errno;
          free (shargv);
        }
    }
  free (cmd);
  fprintf (stderr, "rseq-compat: %s: %s\n", argv[0], strerror (err));
  return err == ENOENT ? EXIT_NOT_FOUND : EXIT_NOT_EXEC;
}
