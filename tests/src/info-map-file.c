/* A program that maps files as data, or loads a copy (info.exp).
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

/* Usage: info-map-file [FILE | x:FILE | dlopen:FILE]...

   Maps each FILE read-only from its start, as a checksummer or an ELF
   reader would (x:FILE, executable too), or loads it with dlopen; then
   prints the __rseq_offset
   and __rseq_size the process's own lookup finds ("offset=N size=N",
   "offset=none" where nothing defines them), "ready", and waits until
   killed.  info -p must read the published values from the objects
   the loader set up, not from the files' other mappings (59th review:
   a data mapping of the loader's file below the loader was read, its
   0s taken for a failed registration or a program still starting; of
   the shim's file, another word for __rseq_offset).  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strncmp (argv[i], "dlopen:", 7) == 0)
        {
          if (dlopen (argv[i] + 7, RTLD_NOW) == NULL)
            {
              printf ("dlopen %s: %s\n", argv[i] + 7, dlerror ());
              return 1;
            }
          continue;
        }
      const char *file = argv[i];
      int prot = PROT_READ;
      if (strncmp (file, "x:", 2) == 0)
        {
          file += 2;
          prot |= PROT_EXEC;
        }
      int fd = open (file, O_RDONLY | O_CLOEXEC);
      struct stat st;
      if (fd < 0 || fstat (fd, &st) != 0
          || mmap (NULL, (size_t) st.st_size, prot, MAP_PRIVATE, fd, 0)
             == MAP_FAILED)
        {
          perror (file);
          return 1;
        }
      close (fd);
    }
  const ptrdiff_t *off = dlsym (RTLD_DEFAULT, "__rseq_offset");
  const unsigned int *size = dlsym (RTLD_DEFAULT, "__rseq_size");
  if (off != NULL && size != NULL)
    printf ("offset=%td size=%u\n", *off, *size);
  else
    printf ("offset=none\n");
  printf ("ready\n");
  fflush (stdout);
  for (;;)
    pause ();
}
