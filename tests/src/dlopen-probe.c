/* dlopen-probe LIBRARY: prints "loads" if dlopen takes LIBRARY, else
   "rejected: " and the loader's message; dlopen.exp's oracle for what
   the loader does with the shim's initial-exec TLS.

   Copyright (C) 2026 The rseq-compat developers.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#include <dlfcn.h>
#include <stdio.h>

int
main (int argc, char **argv)
{
  if (argc != 2)
    return 2;
  void *h = dlopen (argv[1], RTLD_NOW);
  if (h == NULL)
    {
      const char *e = dlerror ();
      printf ("rejected: %s\n", e != NULL ? e : "");
    }
  else
    puts ("loads");
  return 0;
}
