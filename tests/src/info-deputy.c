/* A process that points the name of a file it maps at another file.
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

/* Usage: info-deputy DIR TARGET [exit-main | stopper]

   Maps DIR/libc.so.6 (a page of its own making) at offset 0, removes
   it, and puts a symbolic link to TARGET where /proc/PID/maps names the
   mapping ("DIR/libc.so.6 (deleted)"); prints "pid=N" and "ready", and
   exits at end of file on stdin; with "exit-main", from a second
   thread, the main thread having exited (info -p then reads the
   process through that thread's directory, which has no map_files).
   "stopper" is exit-main with one more thread, which stops every other
   process of its user (kill (-1, SIGSTOP)) in a loop: root's info -p
   opened the names in a child that had become that user, which the
   process stopped, and info -p waited for it for ever (nineteenth
   review).
   info.exp runs it as nobody (stopper: as a user of its own), with
   TARGET a file only root can read that says it is glibc 9.99: root's
   rseq-compat info -p must not read it for this process.  */

#define _GNU_SOURCE 1
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static char link_name[4200];

static void
wait_for_eof (void)
{
  char c;
  while (read (0, &c, 1) > 0)
    ;
  unlink (link_name);
  _exit (0);
}

static void *
stop_all (void *arg)
{
  (void) arg;
  for (;;)
    kill (-1, SIGSTOP);
  return NULL;
}

/* exit-main: "ready" once the main thread has exited (a zombie
   leader); stopper (ARG not NULL): with stop_all running.  */
static void *
after_main (void *arg)
{
  pthread_t t;
  if (arg != NULL && pthread_create (&t, NULL, stop_all, NULL) != 0)
    _exit (1);
  char path[64];
  snprintf (path, sizeof path, "/proc/%d/task/%d/stat", (int) getpid (),
            (int) getpid ());
  for (int i = 0; i < 500; i++)
    {
      char buf[512] = "";
      int fd = open (path, O_RDONLY | O_CLOEXEC);
      ssize_t n = fd >= 0 ? read (fd, buf, sizeof buf - 1) : -1;
      if (fd >= 0)
        close (fd);
      const char *end = n > 0 ? strrchr (buf, ')') : NULL;
      if (end != NULL && end[1] == ' ' && end[2] == 'Z')
        break;
      usleep (10000);
    }
  printf ("ready\n");
  fflush (stdout);
  wait_for_eof ();
  return NULL;
}

int
main (int argc, char **argv)
{
  if (argc != 3 && !(argc == 4 && (strcmp (argv[3], "exit-main") == 0
                                    || strcmp (argv[3], "stopper") == 0)))
    {
      fprintf (stderr, "usage: info-deputy DIR TARGET [exit-main | stopper]\n");
      return 2;
    }
  char file[4096];
  char *link = link_name;
  snprintf (file, sizeof file, "%s/libc.so.6", argv[1]);
  snprintf (link_name, sizeof link_name, "%s (deleted)", file);
  int fd = open (file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 || ftruncate (fd, 4096) != 0)
    {
      perror (file);
      return 1;
    }
  /* Low, so that /proc/PID/maps lists it before the real C library,
     which info -p would otherwise find first.  */
  void *map = mmap ((void *) 0x200000, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED)
    {
      perror ("mmap");
      return 1;
    }
  close (fd);
  if (unlink (file) != 0 || symlink (argv[2], link) != 0)
    {
      perror (link);
      return 1;
    }
  printf ("pid=%d\n", (int) getpid ());
  fflush (stdout);
  if (argc == 4)
    {
      pthread_t t;
      if (pthread_create (&t, NULL, after_main,
                          strcmp (argv[3], "stopper") == 0 ? argv[3] : NULL)
          != 0)
        return 1;
      /* The main thread alone, by the system call: pthread_exit would
         unwind with libgcc_s, which a bare root lacks.  */
      for (;;)
        syscall (SYS_exit, 0);
    }
  printf ("ready\n");
  fflush (stdout);
  wait_for_eof ();
  return 0;
}
