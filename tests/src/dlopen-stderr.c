/* A dlopen the shim refuses, with descriptor 2 in the states a program
   may leave it in.
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

/* argv[1] is the shim, argv[2] the case; run where the shim refuses a
   dlopen (a glibc that does not register).  Without the shim such a
   dlopen writes nothing, so each case must end as it would then: the
   program lives on, dlopen returns at once, and descriptor 2 gets no
   byte (111th review, 2, and the review of its first fix: the shim's
   line on stderr ended the first three, hung the fourth and wrote into
   the fifth's file):
   epipe    a pipe whose reader has gone, SIGPIPE at its default action;
   shutwr   a socket shut down for writing (poll reports no error);
   fsize    a file at RLIMIT_FSIZE, SIGXFSZ at its default action;
   full     a full pipe, a one-second alarm whose handler does not
            restart calls: dlopen must return before it;
   file     a file of the program's that took descriptor 2.  */

#include "rtest.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>

static volatile sig_atomic_t alarmed;

static void
on_alarm (int sig)
{
  (void) sig;
  alarmed = 1;
}

int
main (int argc, char **argv)
{
  CHECK (argc == 3, "usage: dlopen-stderr SHIM epipe|shutwr|fsize|full|file");
  if (argc != 3)
    return rt_exit_status ();
  const char *c = argv[2];
  int err = dup (STDERR_FILENO);
  int fd = -1, peer = -1;
  off_t size = 0;
  size_t filled = 0;

  if (strcmp (c, "epipe") == 0 || strcmp (c, "full") == 0)
    {
      int pfd[2];
      CHECK (pipe (pfd) == 0, "pipe: %s", strerror (errno));
      fd = pfd[1];
      peer = pfd[0];
      if (c[0] == 'e')
        {
          close (peer);
          peer = -1;
        }
      else
        {
          /* Fill it: a write of the shim's would block.  */
          static char fill[4096];
          fcntl (fd, F_SETFL, O_NONBLOCK);
          for (;;)
            {
              ssize_t n = write (fd, fill, sizeof fill);
              if (n <= 0 && errno == EAGAIN)
                n = write (fd, fill, 1);
              if (n <= 0)
                break;
              filled += n;
            }
          fcntl (fd, F_SETFL, 0);
          struct sigaction sa = { .sa_handler = on_alarm };
          sigemptyset (&sa.sa_mask);
          sigaction (SIGALRM, &sa, NULL);
          alarm (1);
        }
    }
  else if (strcmp (c, "shutwr") == 0)
    {
      int sv[2];
      CHECK (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0,
             "socketpair: %s", strerror (errno));
      fd = sv[0];
      peer = sv[1];
      shutdown (fd, SHUT_WR);
    }
  else if (strcmp (c, "fsize") == 0 || strcmp (c, "file") == 0)
    {
      char path[] = "/tmp/rseq-compat-dlopen-stderr.XXXXXX";
      fd = mkstemp (path);
      CHECK (fd >= 0, "mkstemp: %s", strerror (errno));
      unlink (path);
      static char data[4096];
      memset (data, 'd', sizeof data);
      CHECK (write (fd, data, sizeof data) == (ssize_t) sizeof data,
             "write: %s", strerror (errno));
      size = sizeof data;
      if (c[1] == 's')
        {
          struct rlimit rl;
          getrlimit (RLIMIT_FSIZE, &rl);
          rl.rlim_cur = size;
          CHECK (setrlimit (RLIMIT_FSIZE, &rl) == 0, "setrlimit: %s",
                 strerror (errno));
        }
    }
  else
    CHECK (0, "unknown case %s", c);
  if (fd < 0)
    return rt_exit_status ();

  dup2 (fd, STDERR_FILENO);
  close (fd);
  void *h = dlopen (argv[1], RTLD_NOW);
  int was_alarmed = alarmed;
  alarm (0);
  struct stat st = { .st_size = 0 };
  fstat (STDERR_FILENO, &st);
  dup2 (err, STDERR_FILENO);
  CHECK (h != NULL, "dlopen: %s", dlerror ());
  CHECK (!was_alarmed, "dlopen returned only after the alarm (it blocked)");

  sigset_t pending;
  sigpending (&pending);
  CHECK (!sigismember (&pending, SIGPIPE) && !sigismember (&pending, SIGXFSZ),
         "a SIGPIPE or SIGXFSZ is pending");
  /* What descriptor 2 received.  */
  if (peer >= 0 && c[0] == 'f')
    {
      char buf[4096];
      ssize_t n;
      size_t got = 0;
      fcntl (peer, F_SETFL, O_NONBLOCK);
      while ((n = read (peer, buf, sizeof buf)) > 0)
        got += n;
      CHECK (got == filled, "the full pipe holds %zu bytes, %zu before",
             got, filled);
    }
  else if (peer >= 0)
    {
      char buf[256];
      fcntl (peer, F_SETFL, O_NONBLOCK);
      ssize_t n = read (peer, buf, sizeof buf);
      CHECK (n <= 0, "the socket's peer read %zd bytes", n);
    }
  else if (size != 0)
    CHECK (st.st_size == size, "the file grew from %lld to %lld bytes",
           (long long int) size, (long long int) st.st_size);
  printf ("%s: the program lives on, and dlopen returned at once\n", c);
  return rt_exit_status ();
}
