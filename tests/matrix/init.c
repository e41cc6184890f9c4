/* The matrix's tiny init: runs the test plan of make check-matrix, as
   PID 1 of a qemu guest (results on the serial console, then power off)
   or on the host (init --host DIR: the same plan under DIR, in a private
   mount namespace).
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

/* The plan (/plan), one test a line, fields separated by tabs:

     ROW  ROOT  TIMEOUT-SECONDS  VAR=VALUE[ VAR=VALUE...]  PROGRAM

   PROGRAM runs chrooted into ROOT (a directory of the image holding a C
   library, the shim and the test programs) with exactly the variables
   given.  Every line it prints comes out as "[ROW] LINE"; then
   "@@ ROW exit STATUS" (or "@@ ROW timeout", "@@ ROW killed by N").
   The run ends with "@@ end".  Built static, so it needs no C library
   in the image.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *top = "";   /* prefix of every ROOT: "" in the guest */

static void
say (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

static void
say (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
  fflush (stdout);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* /proc and /sys inside a root, once.  */
static void
prepare_root (const char *root)
{
  static char done[64][256];
  static int ndone;
  char path[4096];
  for (int i = 0; i < ndone; i++)
    if (strcmp (done[i], root) == 0)
      return;
  if (ndone < 64)
    snprintf (done[ndone++], sizeof done[0], "%s", root);
  snprintf (path, sizeof path, "%s%s/proc", top, root);
  mkdir (path, 0555);
  if (mount ("proc", path, "proc", 0, NULL) != 0)
    say ("@@ warning: mount proc on %s: %s\n", path, strerror (errno));
  snprintf (path, sizeof path, "%s%s/sys", top, root);
  mkdir (path, 0555);
  if (mount ("sysfs", path, "sysfs", 0, NULL) != 0)
    say ("@@ warning: mount sysfs on %s: %s\n", path, strerror (errno));
}

static void
run_one (char *row, char *root, int timeout, char *vars, char *prog)
{
  int out[2];
  char *env[64];
  int n = 0;
  for (char *v = strtok (vars, " "); v != NULL && n < 63;
       v = strtok (NULL, " "))
    env[n++] = v;
  env[n] = NULL;
  prepare_root (root);
  if (pipe (out) != 0)
    {
      say ("@@ %s error pipe: %s\n", row, strerror (errno));
      return;
    }
  double start = now ();
  pid_t pid = fork ();
  if (pid == 0)
    {
      char dir[4096];
      snprintf (dir, sizeof dir, "%s%s", top, root);
      dup2 (out[1], 1);
      dup2 (out[1], 2);
      close (out[0]);
      close (out[1]);
      setsid ();
      if (chroot (dir) != 0 || chdir ("/") != 0)
        {
          printf ("chroot %s: %s\n", dir, strerror (errno));
          _exit (126);
        }
      char *argv[] = { prog, NULL };
      execve (prog, argv, env);
      printf ("exec %s in %s: %s\n", prog, dir, strerror (errno));
      _exit (127);
    }
  close (out[1]);
  if (pid < 0)
    {
      say ("@@ %s error fork: %s\n", row, strerror (errno));
      close (out[0]);
      return;
    }
  /* Copy the output line by line until the program is gone (processes
     it left behind may hold the pipe open) or its time is up.  */
  char buf[8192];
  size_t have = 0;
  int status = 0, timed_out = 0, done = 0, eof = 0;
  fcntl (out[0], F_SETFL, O_NONBLOCK);
  while (!eof)
    {
      struct pollfd p = { out[0], POLLIN, 0 };
      if (!done)
        {
          double left = start + timeout - now ();
          if (left <= 0)
            {
              timed_out = 1;
              kill (-pid, SIGKILL);
              kill (pid, SIGKILL);
              waitpid (pid, &status, 0);
              done = 1;
            }
          else
            {
              poll (&p, 1, left > 0.2 ? 200 : (int) (left * 1000) + 1);
              if (waitpid (pid, &status, WNOHANG) == pid)
                done = 1;
            }
        }
      ssize_t r;
      while ((r = read (out[0], buf + have, sizeof buf - 1 - have)) > 0)
        {
          have += (size_t) r;
          buf[have] = '\0';
          char *nl, *line = buf;
          while ((nl = strchr (line, '\n')) != NULL)
            {
              *nl = '\0';
              say ("[%s] %s\n", row, line);
              line = nl + 1;
            }
          have = strlen (line);
          memmove (buf, line, have + 1);
          if (have == sizeof buf - 1)
            {
              say ("[%s] %s\n", row, buf);
              have = 0;
            }
        }
      if (r == 0 || (done && r < 0))
        eof = 1;
    }
  if (have > 0)
    say ("[%s] %.*s\n", row, (int) have, buf);
  close (out[0]);
  while (!done)
    {
      if (waitpid (pid, &status, WNOHANG) == pid)
        done = 1;
      else if (now () > start + timeout)
        {
          timed_out = 1;
          kill (-pid, SIGKILL);
          kill (pid, SIGKILL);
          waitpid (pid, &status, 0);
          done = 1;
        }
      else
        poll (NULL, 0, 100);
    }
  if (timed_out)
    say ("@@ %s timeout after %d s\n", row, timeout);
  else if (WIFSIGNALED (status))
    say ("@@ %s killed by signal %d\n", row, WTERMSIG (status));
  else
    say ("@@ %s exit %d (%.1f s)\n", row, WEXITSTATUS (status),
         now () - start);
}

static void
run_plan (const char *plan)
{
  FILE *f = fopen (plan, "r");
  char line[8192];
  struct utsname u;
  uname (&u);
  say ("@@ begin %s %ld cpus\n", u.release, sysconf (_SC_NPROCESSORS_ONLN));
  if (f == NULL)
    {
      say ("@@ error: no plan %s: %s\n", plan, strerror (errno));
      return;
    }
  while (fgets (line, sizeof line, f) != NULL)
    {
      char *field[5];
      char *s = line;
      int n = 0;
      line[strcspn (line, "\n")] = '\0';
      if (line[0] == '\0' || line[0] == '#')
        continue;
      while (n < 5 && s != NULL)
        {
          field[n++] = s;
          s = strchr (s, '\t');
          if (s != NULL)
            *s++ = '\0';
        }
      if (n != 5)
        {
          say ("@@ error: bad plan line\n");
          continue;
        }
      run_one (field[0], field[1], atoi (field[2]), field[3], field[4]);
    }
  fclose (f);
}

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "--host") == 0)
    {
      /* On the host: every mount made here vanishes with this process.  */
      top = argv[2];
      if (unshare (CLONE_NEWNS) != 0
          || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        {
          say ("@@ error: private mount namespace: %s (run as root)\n",
               strerror (errno));
          return 1;
        }
      run_plan (argv[3]);
      say ("@@ end\n");
      return 0;
    }

  /* PID 1 in the guest.  */
  mkdir ("/dev", 0755);
  if (mount ("devtmpfs", "/dev", "devtmpfs", 0, NULL) != 0)
    mknod ("/dev/console", S_IFCHR | 0600, makedev (5, 1));
  int fd = open ("/dev/console", O_RDWR);
  if (fd >= 0)
    {
      dup2 (fd, 0);
      dup2 (fd, 1);
      dup2 (fd, 2);
      if (fd > 2)
        close (fd);
    }
  mkdir ("/proc", 0555);
  mount ("proc", "/proc", "proc", 0, NULL);
  run_plan ("/plan");
  say ("@@ end\n");
  sync ();
  reboot (RB_POWER_OFF);
  for (;;)
    pause ();
}
