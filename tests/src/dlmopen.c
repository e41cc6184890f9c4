/* dlmopen of a library that links the shim (ninety-fourth review, F1).
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


/* argv[1] is the library (dlmopen-plug.c), argv[2] "pthread" where it
   was linked with -pthread, "plain" where not, "late" as plain, and
   then libpthread is loaded into the namespace and the library called
   again (95th review, F4: the shim's copy there looked pthread_create
   up with dlsym, which searches only the library's own dependencies,
   and the failed lookup ended the process).  The process must live through dlmopen and
   the library's call: before glibc 2.34 a lookup that fails in a
   namespace of dlmopen's ends the process (exit 127), and a copy of the
   shim there made such lookups in its constructor whenever another
   copy was loaded in the main namespace (preloaded or linked).  Its
   pthread_create then answers as in the main namespace: the C
   library's where the namespace has one (libpthread, or glibc 2.34 and
   later, which define it in libc), else EAGAIN.  */

#include "rtest.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/libc-version.h>

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: dlmopen LIBRARY pthread|plain|late|first\n");
      return 2;
    }
  /* first: libpthread is dlmopened first, and the library into its
     namespace after it (96th review, F5: the shim's copy looked only
     after itself in the namespace's list, and its pthread_create failed
     with EAGAIN).  */
  int first = strcmp (argv[2], "first") == 0;
  Lmid_t lmid = LM_ID_NEWLM;
  if (first)
    {
      void *lp = dlmopen (LM_ID_NEWLM, "libpthread.so.0", RTLD_NOW);
      CHECK (lp != NULL, "dlmopen of libpthread: %s", dlerror ());
      if (lp == NULL || dlinfo (lp, RTLD_DI_LMID, &lmid) != 0)
        return rt_exit_status () | 1;
    }
  void *h = dlmopen (lmid, argv[1], RTLD_NOW);
  CHECK (h != NULL, "dlmopen: %s", dlerror ());
  if (h == NULL)
    return rt_exit_status ();
  int (*run) (char *, size_t) = (int (*) (char *, size_t)) dlsym (h, "plug_run");
  CHECK (run != NULL, "no plug_run: %s", dlerror ());
  if (run == NULL)
    return rt_exit_status ();
  char out[64] = "";
  CHECK (run (out, sizeof out) == 42, "plug_run");
  int has_create = strcmp (argv[2], "pthread") == 0 || first
                   || strverscmp (gnu_get_libc_version (), "2.34") >= 0;
  char want[64];
  snprintf (want, sizeof want, "create=%d ran=%d", has_create ? 0 : EAGAIN,
            has_create);
  CHECK (strcmp (out, want) == 0, "the library's thread: %s, not %s", out,
         want);
  printf ("%s\n", out);
  if (strcmp (argv[2], "late") == 0)
    {
      Lmid_t id;
      CHECK (dlinfo (h, RTLD_DI_LMID, &id) == 0, "dlinfo: %s", dlerror ());
      void *p = dlmopen (id, "libpthread.so.0", RTLD_NOW);
      CHECK (p != NULL, "dlmopen of libpthread: %s", dlerror ());
      out[0] = '\0';
      CHECK (run (out, sizeof out) == 42, "plug_run after libpthread");
      CHECK (strcmp (out, "create=0 ran=1") == 0,
             "the library's thread once libpthread is there: %s", out);
      printf ("%s\n", out);
    }
  return rt_exit_status ();
}
