/* rseq-compat info: the calling process, from the inside.
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

/* The command is an ordinary program of its C library: run alone it
   shows what that C library does, run as 'rseq-compat run rseq-compat
   info' (or with LD_PRELOAD) what the shim does in the same
   environment.  The values come from where any program would find them
   (dlsym, glibc's GLIBC_2.35 symbols, the shim's rseq_compat_mode and
   rseq_compat_query), and the registration of the calling thread from
   the kernel: re-registering the very same area answers EBUSY.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif

#include <arch.h>
#include <rseq-layout.h>
#include <sys/rseq.h>

#include "collect-self.h"
#include "common.h"
#include "errname.h"
#include "procfs.h"
#include "report.h"
#include "tunables.h"

/* The C library's own symbols: glibc 2.35+ exports them from ld.so at
   GLIBC_2.35.  A plain dlsym would find the shim's first.  */
static void *
libc_sym (const char *name)
{
#ifdef __GLIBC__
  return dlvsym (RTLD_DEFAULT, name, "GLIBC_2.35");
#else
  (void) name;
  return NULL;
#endif
}

static void *
shim_sym (const char *name)
{
#ifdef __GLIBC__
  return dlvsym (RTLD_DEFAULT, name, "RSEQ_COMPAT_1");
#else
  return dlsym (RTLD_DEFAULT, name);
#endif
}

/* 1 when the calling thread has (AREA, LEN, RSEQ_SIG) registered, 0
   when it has nothing registered, -1 when it has something else.  */
static int
registered_with (struct rseq *area, unsigned int len)
{
  volatile uint32_t *cpu_id = &area->cpu_id;
  uint32_t before = *cpu_id;
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, area, len, 0, RSEQ_SIG);
  if (ret == 0)
    {
      /* Nothing was registered, and now this is: undo it and put back
         the marker (-1 or -2) the unregistration overwrote.  */
      syscall (RSEQ_COMPAT_NR_rseq, area, len, RSEQ_FLAG_UNREGISTER,
               RSEQ_SIG);
      *cpu_id = before;
      return 0;
    }
  if (errno == EBUSY)
    return 1;
  if (errno == EINVAL || errno == EPERM)
    return -1;
  /* ENOSYS and the like: the kernel registers nothing for us.  */
  return 0;
}

/* errno of rseq (NULL, 0, 0, 0) here; 0 when it answers EINVAL, which
   means the system call works.  */
static int kernel_refuses;

static void
self_thread (struct info_report *r, struct info_thread *t)
{
  t->tid = (pid_t) syscall (SYS_gettid);
  snprintf (t->name, sizeof t->name, "%s", r->comm);
  t->state = TS_UNREGISTERED;
  if (r->abi_source == NULL)
    {
      snprintf (t->note, sizeof t->note, "no rseq area is published in "
                "this process");
      return;
    }

  char *tp = rseq_compat_thread_pointer ();
  struct rseq *area = (struct rseq *) (tp + r->offset);
  t->have_fields = 1;
  t->cpu_id = (int32_t) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
  if (kernel_refuses != 0)
    {
      snprintf (t->note, sizeof t->note, "the kernel answers %s to rseq",
                errno_name (kernel_refuses));
      return;
    }

  unsigned int candidates[4], n = 0;
  if (r->shim_reg_len > 0)
    candidates[n++] = (unsigned int) r->shim_reg_len;
  if (r->libc_abi && r->libc_size > RSEQ_LAYOUT_LEGACY_LEN)
    candidates[n++] = r->libc_size;
  candidates[n++] = RSEQ_LAYOUT_LEGACY_LEN;
  if (r->at_feature_size > RSEQ_LAYOUT_LEGACY_LEN
      && r->at_feature_size < 4096)
    candidates[n++] = (unsigned int) r->at_feature_size;

  int other = 0;
  for (unsigned int i = 0; i < n; i++)
    {
      int j;
      for (j = 0; j < (int) i && candidates[j] != candidates[i]; j++)
        ;
      if (j < (int) i)
        continue;
      int reg = registered_with (area, candidates[i]);
      if (reg == 1)
        {
          t->state = TS_REGISTERED;
          t->area = (uintptr_t) area;
          t->length = candidates[i];
          t->signature = RSEQ_SIG;
          t->have_signature = 1;
          t->flags = 0;
          if (r->libc_abi && r->offset == r->libc_offset)
            {
              t->owner = "libc";
              snprintf (t->owner_detail, sizeof t->owner_detail,
                        "%s's area at thread pointer %+lld", r->libc,
                        (long long int) r->offset);
            }
          else
            {
              t->owner = "librseq-compat";
              snprintf (t->owner_detail, sizeof t->owner_detail,
                        "the shim's thread-local area at thread pointer "
                        "%+lld", (long long int) r->offset);
            }
          t->have_node = r->at_feature_size >= RSEQ_LAYOUT_LEGACY_MAX_SIZE;
          t->cpu_id = (int32_t) __atomic_load_n (&area->cpu_id,
                                                 __ATOMIC_RELAXED);
          t->node_id = (int32_t) __atomic_load_n (&area->node_id,
                                                  __ATOMIC_RELAXED);
          t->mm_cid = (int32_t) __atomic_load_n (&area->mm_cid,
                                                 __ATOMIC_RELAXED);
          snprintf (t->note, sizeof t->note, "the kernel confirms: EBUSY "
                    "on registering the same area again");
          return;
        }
      if (reg == 0)
        return;
      other = 1;
    }
  if (other)
    {
      t->state = TS_UNKNOWN;
      snprintf (t->note, sizeof t->note, "the kernel has another area or "
                "length registered for this thread");
    }
}

int
info_self (struct info_report *r)
{
  r->self = 1;
  r->pid = getpid ();
  int fd = open ("/proc/self/comm", O_RDONLY | O_CLOEXEC);
  if (fd >= 0)
    {
      ssize_t n = read (fd, r->comm, sizeof r->comm - 1);
      r->comm[n > 0 ? n : 0] = '\0';
      /* The kernel ends the name with a newline; a name may hold
         others.  */
      if (n > 0 && r->comm[n - 1] == '\n')
        r->comm[n - 1] = '\0';
      close (fd);
    }
  ssize_t n = readlink ("/proc/self/exe", r->exe, sizeof r->exe - 1);
  r->exe[n > 0 ? n : 0] = '\0';

  struct utsname u;
  if (uname (&u) == 0)
    snprintf (r->kernel, sizeof r->kernel, "%s", u.release);
  r->at_feature_size = getauxval (RSEQ_LAYOUT_AT_FEATURE_SIZE);
  r->at_align = getauxval (RSEQ_LAYOUT_AT_ALIGN);

  /* The environment the loader saw, as the shim and glibc read it.
     glibc's environ holds a whole copy of each GLIBC_TUNABLES (glibc
     before 2.39 cuts the string /proc/self/environ shows), and the
     command has changed none of it yet; musl leaves the strings as they
     are.  */
  int off, off_loose;
  int t = -1;
#ifdef __GLIBC__
  static const char key[] = "GLIBC_TUNABLES=";
  for (char **e = environ; e != NULL && *e != NULL; e++)
    if (strncmp (*e, key, sizeof key - 1) == 0)
      {
        snprintf (r->tunables, sizeof r->tunables, "%s",
                  *e + sizeof key - 1);
        t = 1;
      }
  if (t < 0)
    t = 0;
  off = __rseq_compat_env_tunable_off (environ);
  off_loose = __rseq_compat_env_tunable_off_loose (environ);
#else
  t = tunables_from_environ ("/proc/self", r->tunables, sizeof r->tunables,
                             0, &off, &off_loose, NULL);
#endif
  if (t < 0 && getenv ("GLIBC_TUNABLES") != NULL)
    {
      snprintf (r->tunables, sizeof r->tunables, "%s",
                getenv ("GLIBC_TUNABLES"));
      off = __rseq_compat_env_tunable_off (environ);
      off_loose = __rseq_compat_env_tunable_off_loose (environ);
      t = 1;
    }
  r->have_tunables = t > 0;
  /* As in a program started with AT_SECURE, which ignores the
     variable (collect-proc.c).  */
  r->secure = getauxval (AT_SECURE) != 0;
  r->tunable_off = t > 0 && off && !r->secure;
  r->tunable_off_loose = t > 0 && off_loose && !r->secure;
  char v[64];
  r->seccomp = proc_status_field ("/proc/self", "Seccomp", v, sizeof v) == 0
               ? atoi (v) : -1;

#ifdef __GLIBC__
  snprintf (r->libc, sizeof r->libc, "glibc");
  snprintf (r->libc_version, sizeof r->libc_version, "%s",
            gnu_get_libc_version ());
#else
  struct proc_map *maps;
  size_t nmaps;
  snprintf (r->libc, sizeof r->libc, "unknown");
  if (read_maps ("/proc/self", &maps, &nmaps) == 0)
    {
      libc_identify (NULL, "/proc/self", maps, nmaps, r->libc,
                     sizeof r->libc, r->libc_version,
                     sizeof r->libc_version);
      free (maps);
    }
#endif

  const ptrdiff_t *lo = libc_sym ("__rseq_offset");
  const unsigned int *ls = libc_sym ("__rseq_size");
  const unsigned int *lf = libc_sym ("__rseq_flags");
  if (lo != NULL && ls != NULL && lf != NULL)
    {
      r->libc_abi = 1;
      r->libc_offset = *lo;
      r->libc_size = *ls;
      r->libc_flags = *lf;
    }

  const char *(*mode) (void) = (const char *(*) (void))
    dlsym (RTLD_DEFAULT, "rseq_compat_mode");
  long int (*query) (const char *) = (long int (*) (const char *))
    dlsym (RTLD_DEFAULT, "rseq_compat_query");
  r->shim_reg_len = -1;
  if (mode != NULL)
    {
      Dl_info dli;
      if (dladdr ((void *) mode, &dli) != 0 && dli.dli_fname != NULL)
        {
          char *real = realpath (dli.dli_fname, NULL);
          snprintf (r->shim, sizeof r->shim, "%s",
                    real != NULL ? real : dli.dli_fname);
          free (real);
        }
      else
        snprintf (r->shim, sizeof r->shim, "%s", SONAME);
      r->shim_mode = mode ();
      const ptrdiff_t *so = shim_sym ("__rseq_offset");
      const unsigned int *ss = shim_sym ("__rseq_size");
      const unsigned int *sf = shim_sym ("__rseq_flags");
      if (so != NULL && ss != NULL && sf != NULL)
        {
          r->shim_abi = 1;
          r->shim_offset = *so;
          r->shim_size = *ss;
          r->shim_flags = *sf;
        }
      if (query != NULL)
        {
          r->shim_reg_len = query ("registration_length");
          r->shim_probe_errno = query ("probe_errno");
          r->shim_fallback = query ("legacy_fallback");
        }
    }

  info_pick_abi (r);

  /* What the kernel says to anyone here: EINVAL means rseq works.  */
  if (syscall (RSEQ_COMPAT_NR_rseq, NULL, 0, 0, 0) != 0 && errno != EINVAL)
    kernel_refuses = r->probe_errno = errno;
  if (r->shim_probe_errno > 0)
    r->probe_errno = (int) r->shim_probe_errno;

  /* Which sched_getcpu the program's calls reach.  */
  void *sgc = dlsym (RTLD_DEFAULT, "sched_getcpu");
  Dl_info dli;
  r->getcpu_impl = r->libc;
  if (sgc != NULL && dladdr (sgc, &dli) != 0 && dli.dli_fname != NULL
      && strstr (dli.dli_fname, "librseq-compat") != NULL)
    r->getcpu_impl = "librseq-compat";

  r->threads = calloc (1, sizeof *r->threads);
  if (r->threads != NULL)
    {
      r->nthreads = 1;
      self_thread (r, &r->threads[0]);
    }
  r->threads_source = "self";
  r->method = "self";

  r->have_cpu = 1;
  r->cpu = sched_getcpu ();
  unsigned int cpu, node;
  if (syscall (SYS_getcpu, &cpu, &node, NULL) == 0)
    {
      r->have_node = 1;
      r->node = (int) node;
    }
  if (r->threads != NULL && r->threads[0].state == TS_REGISTERED
      && rseq_layout_effective_size (r->size) >= RSEQ_LAYOUT_LEGACY_MAX_SIZE)
    {
      struct rseq *area = (struct rseq *) (uintptr_t) r->threads[0].area;
      r->have_mm_cid = 1;
      r->mm_cid = (int) __atomic_load_n (&area->mm_cid, __ATOMIC_RELAXED);
    }

  return 0;
}
