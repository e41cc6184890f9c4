/* system.exp's other writer of /etc/ld.so.preload, preloaded into
   rseq-compat: when the command makes its new file (mkostemp, after it
   has read the old one), RSEQ_TEST_REPLACE's text, and a newline, is
   put in place of the file, as another program that takes no lock of
   ours would; and where the command asks the size of the attribute
   RSEQ_TEST_GROW and finds it empty, the attribute is given 4000 'x'
   right after, as another program could.

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

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/xattr.h>

ssize_t
fgetxattr (int fd, const char *name, void *value, size_t size)
{
  ssize_t (*real) (int, const char *, void *, size_t)
    = (ssize_t (*) (int, const char *, void *, size_t))
      dlsym (RTLD_NEXT, "fgetxattr");
  ssize_t n = real (fd, name, value, size);
  const char *grow = getenv ("RSEQ_TEST_GROW");
  if (grow != NULL && size == 0 && n == 0 && strcmp (name, grow) == 0)
    {
      static char more[4000];
      memset (more, 'x', sizeof more);
      if (fsetxattr (fd, name, more, sizeof more, 0) != 0)
        abort ();
    }
  return n;
}

int
mkostemp (char *template, int flags)
{
  int (*real) (char *, int) = (int (*) (char *, int))
    dlsym (RTLD_NEXT, "mkostemp");
  const char *text = getenv ("RSEQ_TEST_REPLACE");
  if (text != NULL)
    {
      FILE *f = fopen ("/etc/ld.so.preload.other", "w");
      if (f == NULL || fprintf (f, "%s\n", text) < 0 || fclose (f) != 0
          || rename ("/etc/ld.so.preload.other", "/etc/ld.so.preload") != 0)
        abort ();
      unsetenv ("RSEQ_TEST_REPLACE");
    }
  return real (template, flags);
}
