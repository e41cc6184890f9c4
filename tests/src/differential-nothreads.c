/* Programs without libpthread that must behave the same with and
   without the shim.
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

/* Usage: differential-nothreads CASE.  Built without -pthread: before
   glibc 2.34 such a program has no pthread_create but the shim's.

   dlsym-create  what the lookups a program makes to tell whether
                 threads are available find: dlsym of pthread_create
                 in the global scope and in the program's handle, with
                 dlerror's state after a failed one, then again once
                 libpthread.so.0 is loaded (glibc's elf/tst-dlopenfail
                 looks the same way; it failed under the shim).  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static void
lookup (const char *where, void *handle)
{
  dlerror ();
  void *fn = dlsym (handle, "pthread_create");
  const char *error = dlerror ();
  printf ("%s: %s\n", where,
          fn != NULL ? "found"
          : error != NULL && strstr (error, "pthread_create") != NULL
          ? "none, dlerror names it" : "none, no dlerror");
}

int
main (int argc, char **argv)
{
  if (argc != 2 || strcmp (argv[1], "dlsym-create") != 0)
    {
      fprintf (stderr, "usage: %s dlsym-create\n", argv[0]);
      return 2;
    }
  void *self = dlopen (NULL, RTLD_LAZY);
  lookup ("global scope", RTLD_DEFAULT);
  lookup ("the program's handle", self);
  void *lib = dlopen ("libpthread.so.0", RTLD_LAZY | RTLD_GLOBAL);
  printf ("libpthread.so.0: %s\n", lib != NULL ? "loaded" : "none");
  lookup ("global scope after it", RTLD_DEFAULT);
  return 0;
}
