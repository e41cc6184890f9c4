/* A thread that registers its rseq area at one place after another.
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

/* Usage: info-area-move [unmapped]

   Prints "pid=N" and "ready", then a thread maps a page at one of 16
   places in turn (2 MB apart, in a hole the kernel chose), registers
   it as its rseq area, unregisters it and unmaps it, without end:
   info -p, which reads the memory map before the threads, finds the
   area outside the map it read (as it does beside a program that is
   starting, whose C library maps the areas).  After SIGUSR1 the thread
   stays registered where it is and prints "stay=0xADDR".

   With "unmapped", the thread registers one page and waits in read;
   the main thread unmaps the page under it, then prints "pid=N" and
   "ready": the area stays registered until the thread next runs, and
   then the kernel kills the process (SIGSEGV).

   Run it with the C library's own registration off
   (GLIBC_TUNABLES=glibc.pthread.rseq=0 on glibc 2.35 and later).  */

#define _GNU_SOURCE
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* glibc before 2.29 has no SYS_rseq.  */
#include "sys-rseq.h"

#ifndef MAP_FIXED_NOREPLACE
# define MAP_FIXED_NOREPLACE 0x100000
#endif

#define SIG 0x53053053

static atomic_int stay;

static void
on_usr1 (int sig)
{
  (void) sig;
  atomic_store (&stay, 1);
}

static void *
mover (void *arg)
{
  (void) arg;
  long int page = sysconf (_SC_PAGESIZE);
  /* A hole the kernel (or a sanitizer's mmap) chose: below this
     thread's stack, so far from its thread pointer that info -p does
     not take the area for thread-local storage.  */
  size_t span = (size_t) 34 << 20;
  char *hole = mmap (NULL, span, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (hole == MAP_FAILED)
    {
      perror ("info-area-move: mmap");
      exit (2);
    }
  munmap (hole, span);
  uintptr_t base = ((uintptr_t) hole + (2 << 20)) & -(uintptr_t) (2 << 20);
  int missed = 0;
  for (unsigned int i = 0;; i++)
    {
      void *want = (void *) (base + (uintptr_t) (i % 16) * (2 << 20));
      int32_t *a = mmap (want, page, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                         -1, 0);
      /* Something else may have taken a place since (an allocator).  */
      if (a == MAP_FAILED || a != want)
        {
          if (a != MAP_FAILED)
            munmap (a, page);
          if (++missed == 16)
            {
              fprintf (stderr, "info-area-move: no place left at %#"
                       PRIxPTR "\n", base);
              exit (2);
            }
          continue;
        }
      missed = 0;
      /* cpu_id: not registered yet (RSEQ_CPU_ID_UNINITIALIZED).  */
      a[1] = -1;
      if (syscall (SYS_rseq, a, 32, 0, SIG) != 0)
        {
          perror ("info-area-move: rseq (is the C library's registration "
                  "off?)");
          exit (2);
        }
      if (atomic_load (&stay))
        {
          printf ("stay=%#" PRIxPTR "\n", (uintptr_t) a);
          fflush (stdout);
          for (;;)
            pause ();
        }
      for (volatile int spin = 0; spin < 200000; spin++)
        ;
      if (syscall (SYS_rseq, a, 32, 1, SIG) != 0)
        {
          perror ("info-area-move: rseq unregister");
          exit (2);
        }
      munmap (a, page);
    }
  return NULL;
}

static int ready[2], hold[2];

static void *
sleeper (void *arg)
{
  int32_t *a = arg;
  a[1] = -1;
  if (syscall (SYS_rseq, a, 32, 0, SIG) != 0)
    {
      perror ("info-area-move: rseq (is the C library's registration "
              "off?)");
      exit (2);
    }
  char c = 'r';
  if (write (ready[1], &c, 1) != 1)
    exit (2);
  /* Nothing is ever written: it waits in the kernel for good.  */
  while (read (hold[0], &c, 1) != 0)
    ;
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "unmapped") == 0)
    {
      long int page = sysconf (_SC_PAGESIZE);
      void *a = mmap (NULL, page, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      pthread_t t;
      char c;
      if (a == MAP_FAILED || pipe (ready) != 0 || pipe (hold) != 0
          || pthread_create (&t, NULL, sleeper, a) != 0
          || read (ready[0], &c, 1) != 1)
        return 1;
      /* The sleeper is past its write; let it reach its read.  */
      usleep (100000);
      /* Nothing may be mapped after the unmap, where the page was
         (glibc 2.17's stdio took it for its buffer): the name first,
         then "ready" by a plain write.  */
      printf ("pid=%d\n", (int) getpid ());
      fflush (stdout);
      munmap (a, page);
      if (write (1, "ready\n", 6) != 6)
        return 1;
      for (;;)
        pause ();
    }
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction (SIGUSR1, &sa, NULL);
  pthread_t t;
  if (pthread_create (&t, NULL, mover, NULL) != 0)
    return 1;
  printf ("pid=%d\nready\n", (int) getpid ());
  fflush (stdout);
  for (;;)
    pause ();
}
