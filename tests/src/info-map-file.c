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

/* Usage: info-map-file [FILE | x:FILE | twice:FILE | dlopen:FILE
                         | anon:FILE | threads:N]...

   Maps each FILE read-only from its start, as a checksummer or an ELF
   reader would (x:FILE, executable too; twice:FILE, and again from its
   second page right above), loads it with dlopen, or
   (anon:FILE) moves the code of the loaded FILE to anonymous memory at
   the same address, as programs that put their text in huge pages do
   (61st review: the object was no longer found), or (threads:N) starts
   N threads that wait, before what follows is mapped; then prints the __rseq_offset
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
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Moves the executable mappings of PATH to anonymous memory in place.
   Nothing may run from them meanwhile: PATH is the dynamic loader or
   the shim, neither of which this code calls (memcpy is the C
   library's; on musl the C library is the loader, which is not moved
   there).  Returns 0, or -1.  */
static int
move_code (const char *path)
{
  FILE *maps = fopen ("/proc/self/maps", "r");
  if (maps == NULL)
    return -1;
  char line[4096];
  unsigned long int starts[16], ends[16];
  int n = 0;
  while (n < 16 && fgets (line, sizeof line, maps) != NULL)
    {
      unsigned long int start, end;
      char perms[8];
      int pos = 0;
      if (sscanf (line, "%lx-%lx %7s %*s %*s %*s %n", &start, &end, perms,
                  &pos) != 3 || pos == 0 || perms[2] != 'x')
        continue;
      char *name = line + pos;
      name[strcspn (name, "\n")] = '\0';
      if (strcmp (name, path) == 0)
        {
          starts[n] = start;
          ends[n] = end;
          n++;
        }
    }
  fclose (maps);
  if (n == 0)
    return -1;
  for (int i = 0; i < n; i++)
    {
      size_t len = ends[i] - starts[i];
      void *copy = mmap (NULL, len, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      /* Every function called while the code is away is bound first:
         a lazy binding would run the loader's code then.  */
      if (copy == MAP_FAILED
          || mprotect (copy, len, PROT_READ | PROT_WRITE) != 0)
        return -1;
      memcpy (copy, (void *) starts[i], len);
      if (mmap ((void *) starts[i], len, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
          == MAP_FAILED)
        return -1;
      memcpy ((void *) starts[i], copy, len);
      __builtin___clear_cache ((char *) starts[i], (char *) ends[i]);
      if (mprotect ((void *) starts[i], len, PROT_READ | PROT_EXEC) != 0)
        return -1;
      munmap (copy, len);
    }
  return 0;
}

/* Posted by each thread of threads:N once it runs: the C library (or
   the shim) has registered it by then, so that a reader never finds
   one still starting (a glibc 2.43 thread stopped before its
   registration was read "unregistered").  */
static sem_t started;

static void *
wait_forever (void *arg)
{
  sem_post (&started);
  for (;;)
    pause ();
  return arg;
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (strncmp (argv[i], "threads:", 8) == 0)
        {
          int want = atoi (argv[i] + 8);
          sem_init (&started, 0, 0);
          for (int n = want; n > 0; n--)
            {
              pthread_t t;
              if (pthread_create (&t, NULL, wait_forever, NULL) != 0)
                {
                  printf ("cannot create a thread\n");
                  return 1;
                }
            }
          for (int n = want; n > 0; n--)
            while (sem_wait (&started) != 0)
              ;
          continue;
        }
      if (strncmp (argv[i], "anon:", 5) == 0)
        {
          if (move_code (argv[i] + 5) != 0)
            {
              printf ("cannot move the code of %s\n", argv[i] + 5);
              return 1;
            }
          continue;
        }
      if (strncmp (argv[i], "dlopen:", 7) == 0)
        {
          if (dlopen (argv[i] + 7, RTLD_NOW) == NULL)
            {
              printf ("dlopen %s: %s\n", argv[i] + 7, dlerror ());
              return 1;
            }
          continue;
        }
      if (strncmp (argv[i], "twice:", 6) == 0)
        {
          const char *file = argv[i] + 6;
          int fd = open (file, O_RDONLY | O_CLOEXEC);
          struct stat st;
          long int page = sysconf (_SC_PAGESIZE);
          if (fd < 0 || fstat (fd, &st) != 0 || st.st_size <= page)
            {
              perror (file);
              return 1;
            }
          size_t len = ((size_t) st.st_size + (size_t) page - 1)
                       & ~((size_t) page - 1);
          char *r = mmap (NULL, 2 * len, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
          if (r == MAP_FAILED
              || mmap (r, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0)
                 == MAP_FAILED
              || mmap (r + len, len - (size_t) page, PROT_READ,
                       MAP_PRIVATE | MAP_FIXED, fd, page) == MAP_FAILED)
            {
              perror (file);
              return 1;
            }
          munmap (r + 2 * len - page, (size_t) page);
          close (fd);
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
