/* Runs files through a fuzz target without libFuzzer (make check).
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

/* Usage: replay FILE...  Prints "NAME: SUMMARY" for each file, NAME
   being the file's base name; the target aborts on a wrong answer.  Any
   file that cannot be read is an error: a corpus that silently shrank
   would prove nothing.  */

#include <errno.h>
#include <string.h>

#include "fuzz.h"

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE...\n", argv[0]);
      return 2;
    }
  for (int i = 1; i < argc; i++)
    {
      FILE *f = fopen (argv[i], "rb");
      if (f == NULL)
        {
          fprintf (stderr, "%s: %s\n", argv[i], strerror (errno));
          return 1;
        }
      size_t cap = 4096, len = 0;
      uint8_t *buf = malloc (cap);
      size_t n;
      while (buf != NULL && (n = fread (buf + len, 1, cap - len, f)) > 0)
        {
          len += n;
          if (len == cap)
            buf = realloc (buf, cap *= 2);
        }
      if (buf == NULL || ferror (f))
        {
          fprintf (stderr, "%s: cannot read\n", argv[i]);
          return 1;
        }
      fclose (f);
      /* An exact-size copy, so that ASan sees the input's true end.  */
      uint8_t *exact = malloc (len ? len : 1);
      if (exact == NULL)
        return 1;
      memcpy (exact, buf, len);
      free (buf);
      char out[256];
      fuzz_one (exact, len, out, sizeof out);
      free (exact);
      const char *name = strrchr (argv[i], '/');
      printf ("%s: %s\n", name != NULL ? name + 1 : argv[i], out);
    }
  return 0;
}
