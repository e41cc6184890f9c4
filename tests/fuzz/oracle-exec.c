/* Helper of tests/fuzz/glibc-oracle: a real ld.so's reading of a file.
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

/* Usage: oracle-exec LDSO FILE [FIRST]
   Runs "LDSO --list-tunables" with an environment holding only
   GLIBC_TUNABLES=FIRST (when given) and then GLIBC_TUNABLES=<FILE's
   contents up to its first NUL>, as execve allows and a shell does not
   (two definitions, any bytes).  Linked statically so that it runs in
   a chroot of another release.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: %s LDSO FILE [FIRST]\n", argv[0]);
      return 2;
    }
  FILE *f = fopen (argv[2], "rb");
  if (f == NULL)
    {
      perror (argv[2]);
      return 2;
    }
  static char buf[1 << 18];
  strcpy (buf, "GLIBC_TUNABLES=");
  size_t len = fread (buf + 15, 1, sizeof buf - 16, f);
  buf[15 + len] = '\0';
  fclose (f);

  char first[4096];
  char *env[3] = { buf, NULL, NULL };
  if (argc > 3)
    {
      snprintf (first, sizeof first, "GLIBC_TUNABLES=%s", argv[3]);
      env[0] = first;
      env[1] = buf;
    }
  char *args[] = { argv[1], "--list-tunables", NULL };
  execve (argv[1], args, env);
  perror (argv[1]);
  return 127;
}
