/* A process whose threads sleep in system calls, for rseq-compat info -p.
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

/* Usage: info-block CALL...

   Starts one thread per CALL, each sleeping in that call, again and
   again, and counting the times it failed with EINTR.  The process has
   no signal handler at all: an EINTR can only come from a stop, as
   signal(7) says ("Interruption of system calls and library functions
   by stop signals").  The calls (through the C library, as programs
   make them):

     epoll_wait epoll_pwait sigtimedwait sigwaitinfo semop semtimedop
     recv-timeout accept-timeout io_getevents
     read poll select nanosleep cond_wait sigwait msgrcv pause
     vfork   vfork a child that waits for "release": the parent is in
             an uninterruptible sleep until the child exits

   Prints "pid=N", "libc=glibc|musl", "thread CALL tid=T" for each, and
   "ready" once every thread is about to sleep.  On stdin, "count"
   prints "CALL eintr=N returns=M" for each thread (M: the times the
   call returned otherwise), then "end"; "release" lets the vfork
   children exit.  At end of file it exits with status 0.  */

#include "rtest.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/msg.h>
#include <sys/select.h>
#include <sys/sem.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#define MAX_CALLS 32

struct worker
{
  const char *call;
  pthread_t thread;
  int tid;
  int eintr, returns;
};

static struct worker workers[MAX_CALLS];
static int nworkers, started, quitting;
static int quiet_pipe[2], vfork_pipe[2];
static int epfd, semid = -1, msqid = -1, sock_peer, listener;
static long int aio_ctx;
static sigset_t usr1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

/* io_getevents's event, as <linux/aio_abi.h> has it (not in musl's
   headers).  */
struct aio_event
{
  uint64_t data, obj;
  int64_t res, res2;
};

/* One sleep in W's call: -1 with errno set, or another value.  */
static long int
sleep_once (struct worker *w)
{
  const char *c = w->call;
  char byte;
  if (strcmp (c, "epoll_wait") == 0)
    {
      struct epoll_event e;
      return epoll_wait (epfd, &e, 1, -1);
    }
  if (strcmp (c, "epoll_pwait") == 0)
    {
      struct epoll_event e;
      return epoll_pwait (epfd, &e, 1, -1, NULL);
    }
  if (strcmp (c, "sigtimedwait") == 0)
    {
      struct timespec ts = { 100000, 0 };
      return sigtimedwait (&usr1, NULL, &ts);
    }
  if (strcmp (c, "sigwaitinfo") == 0)
    return sigwaitinfo (&usr1, NULL);
  if (strcmp (c, "semop") == 0)
    {
      struct sembuf b = { 0, -1, 0 };
      return semop (semid, &b, 1);
    }
  if (strcmp (c, "semtimedop") == 0)
    {
      struct sembuf b = { 0, -1, 0 };
      struct timespec ts = { 100000, 0 };
      return semtimedop (semid, &b, 1, &ts);
    }
  if (strcmp (c, "recv-timeout") == 0)
    return recv (sock_peer, &byte, 1, 0);
  if (strcmp (c, "accept-timeout") == 0)
    return accept (listener, NULL, NULL);
  if (strcmp (c, "io_getevents") == 0)
    {
      struct aio_event ev;
      return syscall (SYS_io_getevents, aio_ctx, 1L, 1L, &ev, NULL);
    }
  if (strcmp (c, "read") == 0)
    return read (quiet_pipe[0], &byte, 1);
  if (strcmp (c, "poll") == 0)
    {
      struct pollfd p = { quiet_pipe[0], POLLIN, 0 };
      return poll (&p, 1, -1);
    }
  if (strcmp (c, "select") == 0)
    {
      fd_set s;
      FD_ZERO (&s);
      FD_SET (quiet_pipe[0], &s);
      return select (quiet_pipe[0] + 1, &s, NULL, NULL, NULL);
    }
  if (strcmp (c, "nanosleep") == 0)
    {
      struct timespec ts = { 100000, 0 };
      return nanosleep (&ts, NULL);
    }
  if (strcmp (c, "cond_wait") == 0)
    {
      pthread_mutex_lock (&lock);
      int e = pthread_cond_wait (&never, &lock);
      pthread_mutex_unlock (&lock);
      errno = e;
      return e != 0 ? -1 : 0;
    }
  if (strcmp (c, "sigwait") == 0)
    {
      int sig, e = sigwait (&usr1, &sig);
      errno = e;
      return e != 0 ? -1 : 0;
    }
  if (strcmp (c, "msgrcv") == 0)
    {
      struct { long int type; char text[8]; } m;
      return msgrcv (msqid, &m, sizeof m.text, 0, 0);
    }
  if (strcmp (c, "pause") == 0)
    return pause ();
  if (strcmp (c, "vfork") == 0)
    {
      /* After its child is gone, the thread sleeps for good.  */
      if (w->returns > 0)
        return pause ();
      pid_t child = vfork ();
      if (child == 0)
        {
          /* Only read and _exit: the child borrows the parent's
             memory and stack.  */
          while (read (vfork_pipe[0], &byte, 1) < 0 && errno == EINTR)
            ;
          _exit (0);
        }
      if (child < 0)
        return -1;
      int status;
      while (waitpid (child, &status, 0) < 0 && errno == EINTR)
        ;
      return 0;
    }
  fprintf (stderr, "FAIL unknown call %s\n", c);
  exit (2);
}

static void *
worker_main (void *arg)
{
  struct worker *w = arg;
  w->tid = (int) syscall (SYS_gettid);
  /* Nothing after this but the call: once all are counted, every
     thread that sleeps sleeps in its call.  */
  __atomic_add_fetch (&started, 1, __ATOMIC_SEQ_CST);
  for (;;)
    {
      long int r = sleep_once (w);
      if (r < 0 && errno == EINTR)
        __atomic_add_fetch (&w->eintr, 1, __ATOMIC_RELAXED);
      else if (r < 0 && __atomic_load_n (&quitting, __ATOMIC_SEQ_CST))
        /* The IPC objects are going away: the process exits.  */
        pause ();
      else if (r < 0)
        {
          fprintf (stderr, "FAIL %s: %s\n", w->call, strerror (errno));
          exit (1);
        }
      else
        __atomic_add_fetch (&w->returns, 1, __ATOMIC_RELAXED);
    }
  return NULL;
}

static void
cleanup (void)
{
  if (semid >= 0)
    semctl (semid, 0, IPC_RMID);
  if (msqid >= 0)
    msgctl (msqid, IPC_RMID, NULL);
}

int
main (int argc, char **argv)
{
  if (argc < 2 || argc - 1 > MAX_CALLS)
    {
      fprintf (stderr, "FAIL usage: info-block CALL...\n");
      return 2;
    }
  /* SIGUSR1 is waited for by the sigwait family and never sent.  */
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  pthread_sigmask (SIG_BLOCK, &usr1, NULL);

  int sv[2];
  struct timeval long_timeout = { 100000, 0 };
  CHECK (pipe (quiet_pipe) == 0 && pipe (vfork_pipe) == 0, "pipe");
  epfd = epoll_create1 (0);
  struct epoll_event e = { EPOLLIN, { 0 } };
  CHECK (epfd >= 0 && epoll_ctl (epfd, EPOLL_CTL_ADD, quiet_pipe[0], &e) == 0,
         "epoll: %s", strerror (errno));
  semid = semget (IPC_PRIVATE, 1, 0600);
  msqid = msgget (IPC_PRIVATE, 0600);
  atexit (cleanup);
  CHECK (semid >= 0 && msqid >= 0, "System V IPC: %s", strerror (errno));
  CHECK (socketpair (AF_UNIX, SOCK_STREAM, 0, sv) == 0
         && setsockopt (sv[0], SOL_SOCKET, SO_RCVTIMEO, &long_timeout,
                        sizeof long_timeout) == 0, "socketpair");
  sock_peer = sv[0];
  /* An unnamed address: autobind gives the socket one of its own.  */
  listener = socket (AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un addr = { .sun_family = AF_UNIX };
  CHECK (listener >= 0
         && bind (listener, (struct sockaddr *) &addr, sizeof (sa_family_t))
            == 0
         && listen (listener, 1) == 0
         && setsockopt (listener, SOL_SOCKET, SO_RCVTIMEO, &long_timeout,
                        sizeof long_timeout) == 0, "listening socket: %s",
         strerror (errno));
  CHECK (syscall (SYS_io_setup, 1L, &aio_ctx) == 0, "io_setup: %s",
         strerror (errno));
  if (rt_failures != 0)
    return rt_exit_status ();

  for (int i = 1; i < argc; i++)
    {
      struct worker *w = &workers[nworkers++];
      w->call = argv[i];
      CHECK (pthread_create (&w->thread, NULL, worker_main, w) == 0,
             "pthread_create");
    }
  while (__atomic_load_n (&started, __ATOMIC_SEQ_CST) < nworkers)
    {
      struct timespec ms = { 0, 1000000 };
      nanosleep (&ms, NULL);
    }
  printf ("pid=%d\n", (int) getpid ());
#ifdef __GLIBC__
  printf ("libc=glibc\n");
#else
  printf ("libc=musl\n");
#endif
  for (int i = 0; i < nworkers; i++)
    printf ("thread %s tid=%d\n", workers[i].call, workers[i].tid);
  printf ("ready\n");
  fflush (stdout);

  char line[64];
  while (fgets (line, sizeof line, stdin) != NULL)
    if (strncmp (line, "count", 5) == 0)
      {
        for (int i = 0; i < nworkers; i++)
          printf ("%s eintr=%d returns=%d\n", workers[i].call,
                  __atomic_load_n (&workers[i].eintr, __ATOMIC_RELAXED),
                  __atomic_load_n (&workers[i].returns, __ATOMIC_RELAXED));
        printf ("end\n");
        fflush (stdout);
      }
    else if (strncmp (line, "release", 7) == 0)
      /* A byte for each child: each has its own copy of the write end,
         so closing ours would not end their reads.  */
      for (int i = 0; i < nworkers; i++)
        CHECK (write (vfork_pipe[1], "x", 1) == 1, "write");
  /* The threads never return: leave them sleeping.  */
  fflush (stdout);
  __atomic_store_n (&quitting, 1, __ATOMIC_SEQ_CST);
  cleanup ();
  _exit (rt_exit_status ());
}
