/* A program that dlopens the shim instead of preloading it.
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

/* argv[1] is the shim.  RSEQ_EXPECT says what must happen:
   refused     glibc that does not register (2.35+ with the tunable
               off, or any glibc before 2.35): dlopen succeeds, nothing
               on stderr, mode "refused", __rseq_size 0, nothing
               registered, __rseq_offset designating glibc's area
               (cpu_id -2) where glibc has the ABI, else the shim's
               (cpu_id -1);
   libc-owned  glibc that registers: dlopen succeeds silently and the
               shim mirrors glibc;
   rejected    musl: the loader refuses the initial-exec TLS, dlopen
               returns NULL with a dlerror message, nothing registered;
               glibc on AArch64: the same, the loader's static TLS
               being aligned less than the shim's area.
   stderr is captured through a pipe around dlopen.  */

#include "rtest.h"

#include <pthread.h>

static char captured[8192];
static char *open_error;

static void *
open_capturing (const char *path)
{
  int pfd[2];
  if (pipe (pfd) != 0)
    {
      CHECK (0, "pipe: %s", strerror (errno));
      return NULL;
    }
  fflush (stderr);
  int saved = dup (STDERR_FILENO);
  dup2 (pfd[1], STDERR_FILENO);
  close (pfd[1]);

  void *h = dlopen (path, RTLD_NOW);
  if (h == NULL)
    {
      const char *e = dlerror ();
      open_error = strdup (e != NULL ? e : "");
    }

  dup2 (saved, STDERR_FILENO);
  close (saved);
  size_t used = 0;
  ssize_t n;
  while (used < sizeof captured - 1
         && (n = read (pfd[0], captured + used,
                       sizeof captured - 1 - used)) > 0)
    used += n;
  captured[used] = '\0';
  close (pfd[0]);
  return h;
}

/* Whether the calling thread can register an area of its own, which
   means that nobody registered it.  */
static int
own_registration (void)
{
  static __thread struct rseq own __attribute__ ((aligned (32)));
  own.cpu_id = (uint32_t) RSEQ_CPU_ID_UNINITIALIZED;
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, &own, 32, 0, RSEQ_SIG);
  if (ret != 0)
    return -errno;
  int ok = (int) own.cpu_id == rt_syscall_cpu () || (int) own.cpu_id >= 0;
  syscall (RSEQ_COMPAT_NR_rseq, &own, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
  return ok ? 0 : -1000;
}

static void *
thread_main (void *arg)
{
  *(int *) arg = own_registration ();
  return NULL;
}

static void
check_nothing_registered (void)
{
  int ret = own_registration ();
  CHECK (ret == 0, "main: own registration: %d (%s)", ret,
         ret < 0 && ret > -1000 ? strerror (-ret) : "bad cpu_id");
  pthread_t t;
  int tret = -9999;
  CHECK (pthread_create (&t, NULL, thread_main, &tret) == 0,
         "pthread_create");
  pthread_join (t, NULL);
  CHECK (tret == 0, "thread: own registration: %d (%s)", tret,
         tret < 0 && tret > -1000 ? strerror (-tret) : "bad cpu_id");
}

int
main (int argc, char **argv)
{
  CHECK (argc == 2, "usage: dlopen SHIM");
  if (argc != 2)
    return rt_exit_status ();

  CHECK (dlsym (RTLD_DEFAULT, "rseq_compat_mode") == NULL,
         "the shim is loaded before dlopen");
  void *h = open_capturing (argv[1]);

  if (rt_expect_is ("rejected"))
    {
      CHECK (h == NULL, "dlopen %s succeeded", argv[1]);
      CHECK (open_error != NULL && open_error[0] != '\0',
             "no dlerror message");
      CHECK (captured[0] == '\0', "stderr: %s", captured);
#ifdef __GLIBC__
      CHECK (open_error != NULL && strstr (open_error, "static TLS") != NULL,
             "dlerror does not name static TLS: %s",
             open_error ? open_error : "(none)");
#endif
      fprintf (stderr, "dlerror: %s\n", open_error ? open_error : "(none)");
      const unsigned int *gsize = rt_glibc_size ();
      const ptrdiff_t *goffset = rt_glibc_offset ();
      if (gsize != NULL && goffset != NULL && *gsize != 0)
        /* glibc registers (2.35+, AArch64): the failed dlopen left its
           registration alone.  */
        CHECK (rt_registered (rseq_compat_thread_pointer () + *goffset,
                              rt_glibc_len ()),
               "glibc's area (__rseq_size %u) is not registered", *gsize);
      else
        check_nothing_registered ();
      return rt_exit_status ();
    }

  CHECK (h != NULL, "dlopen %s: %s", argv[1],
         open_error != NULL ? open_error : "");
  if (h == NULL)
    return rt_exit_status ();

  const char *(*mode_fn) (void) = (const char *(*) (void))
    dlsym (h, "rseq_compat_mode");
  const ptrdiff_t *offset = dlsym (h, "__rseq_offset");
  const unsigned int *size = dlsym (h, "__rseq_size");
  const unsigned int *flags = dlsym (h, "__rseq_flags");
  CHECK (mode_fn != NULL && offset != NULL && size != NULL && flags != NULL,
         "dlsym (shim): rseq_compat_mode %p, __rseq_offset %p, "
         "__rseq_size %p, __rseq_flags %p", (void *) mode_fn,
         (void *) offset, (void *) size, (void *) flags);
  if (mode_fn == NULL || offset == NULL || size == NULL || flags == NULL)
    return rt_exit_status ();
  const char *mode = mode_fn ();
  CHECK (strcmp (mode, rt_expect ()) == 0, "mode %s, expected %s", mode,
         rt_expect ());
  CHECK (*flags == 0, "__rseq_flags %u", *flags);

  const unsigned int *gsize = rt_glibc_size ();
  const ptrdiff_t *goffset = rt_glibc_offset ();
  int libc_abi = rt_libc_has_abi ();
  /* Only a glibc with the ABI (2.35+) can own the registration.  */
  if (rt_expect_is ("libc-owned"))
    CHECK (libc_abi, "mode libc-owned, but no glibc __rseq_*");

  if (rt_expect_is ("refused"))
    {
      /* Silent: descriptor 2 may be anything by then
         (dlopen-stderr.c).  */
      CHECK (captured[0] == '\0', "stderr: \"%s\"", captured);
      CHECK (*size == 0, "__rseq_size %u", *size);
      CHECK (*offset != 0, "__rseq_offset is 0");
      struct rseq *area = (struct rseq *) (rseq_compat_thread_pointer ()
                                           + *offset);
      int cpu_id = (int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
      CHECK ((uintptr_t) area % 32 == 0, "area %p is not 32-aligned",
             (void *) area);
      if (libc_abi)
        {
          /* glibc 2.35+ with the tunable off (or a kernel without
             rseq): the shim mirrors glibc's unregistered area.  */
          CHECK (*gsize == 0, "glibc's __rseq_size %u", *gsize);
          CHECK (*offset == *goffset, "__rseq_offset %td, glibc's %td",
                 *offset, *goffset);
          CHECK (cpu_id == RSEQ_CPU_ID_REGISTRATION_FAILED,
                 "glibc's cpu_id %d, expected -2", cpu_id);
        }
      else
        /* glibc before 2.35: the shim's own area, never registered,
           still holds its initial image.  */
        CHECK (cpu_id == RSEQ_CPU_ID_UNINITIALIZED,
               "the shim's cpu_id %d, expected -1", cpu_id);
      check_nothing_registered ();
    }
  else
    {
      CHECK (rt_expect_is ("libc-owned"), "unknown RSEQ_EXPECT %s",
             rt_expect ());
      CHECK (captured[0] == '\0', "stderr: %s", captured);
      if (libc_abi)
        {
          CHECK (*gsize != 0, "glibc did not register");
          CHECK (*size == (*gsize == 32 ? 20 : *gsize),
                 "__rseq_size %u, glibc's %u", *size, *gsize);
          CHECK (*offset == *goffset, "__rseq_offset %td, glibc's %td",
                 *offset, *goffset);
          struct rseq *area = (struct rseq *) (rseq_compat_thread_pointer ()
                                               + *goffset);
          CHECK (rt_registered (area, rt_glibc_len ()),
                 "glibc's area is not registered");
          CHECK ((int) area->cpu_id == rt_syscall_cpu ()
                 || (int) area->cpu_id >= 0, "cpu_id %d",
                 (int) area->cpu_id);
        }
    }
  return rt_exit_status ();
}
