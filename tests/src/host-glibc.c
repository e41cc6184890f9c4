/* What glibc itself reports, printed to compare with and without the shim.
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

/* The .exp runs this program on the host glibc without and with the
   shim preloaded (and both again with glibc.pthread.rseq=0) and
   requires identical output: glibc's own __rseq_offset, __rseq_size
   and __rseq_flags (dlvsym GLIBC_2.35), what an unversioned lookup
   finds, whether glibc's area is registered with length 32 and the
   sign of its cpu_id, in the main thread and in threads created with
   pthread_create.  RSEQ_EXPECT (libc-owned or disabled) adds a few
   checks of its own.

   On a glibc without the ABI (before 2.35: bullseye's 2.31) there is
   nothing of glibc's to mirror; what glibc reports is that it has no
   __rseq_*@GLIBC_2.35, and that must stay so with the shim (which must
   never pretend to be glibc 2.35).  RSEQ_EXPECT is then "none" without
   the shim, checked to register nothing and define nothing, and the
   shim's mode (shim-owned or disabled) with it.  */

#include "rtest.h"

#include <pthread.h>

#define THREADS 4

static const ptrdiff_t *goffset;
static const unsigned int *gsize;
static const unsigned int *gflags;

struct seen
{
  ptrdiff_t offset;
  uintptr_t area;
  int registered;
  int cpu_id;
  int getcpu_ok;
};

static void
observe (struct seen *s)
{
  struct rseq *area = (struct rseq *) (rseq_compat_thread_pointer ()
                                       + *goffset);
  s->offset = *goffset;
  s->area = (uintptr_t) area;
  /* Before the registration probe: undoing a successful probe leaves
     cpu_id at -1.  */
  s->cpu_id = (int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED);
  s->registered = rt_registered (area, rt_glibc_len ());
  s->getcpu_ok = sched_getcpu () >= 0;
}

static void *
thread_main (void *arg)
{
  observe (arg);
  return NULL;
}

static const char *
sign (int cpu_id)
{
  if (cpu_id >= 0)
    return "cpu";
  return cpu_id == -1 ? "-1" : cpu_id == -2 ? "-2" : "other";
}

/* glibc 2.35 to 2.40 (and our 2.31 series) keep the area in the
   thread descriptor, at an offset no library changes; from 2.41 it lies
   in static TLS (below the thread pointer on x86-64, after the initial
   modules' blocks on AArch64), where every preloaded library with TLS
   (the shim included) moves it.  Only the former can be compared
   between runs; the latter is checked through the registration.  Told
   apart by the version: the offset's sign says nothing on AArch64,
   where TLS lies above the thread pointer.  */
static void
print_offset (const char *what, ptrdiff_t offset)
{
  if (rt_glibc_before ("2.41"))
    printf ("%s=%td", what, offset);
  else
    printf ("%s=static-tls", what);
}

static void
print_seen (const char *who, const struct seen *s)
{
  printf ("%s: ", who);
  print_offset ("offset", s->offset);
  printf (" aligned=%d registered=%d cpu_id=%s sched_getcpu=%s\n",
          s->area % 32 == 0, s->registered, sign (s->cpu_id),
          s->getcpu_ok ? "ok" : "error");
}

/* Whether the calling thread can register a 32-byte area of its own:
   nobody registered it.  */
static int
own_registration_ok (void)
{
  static __thread struct rseq own __attribute__ ((aligned (32)));
  own.cpu_id = (uint32_t) RSEQ_CPU_ID_UNINITIALIZED;
  if (syscall (RSEQ_COMPAT_NR_rseq, &own, 32, 0, RSEQ_SIG) != 0)
    return 0;
  int ok = (int) own.cpu_id >= 0;
  syscall (RSEQ_COMPAT_NR_rseq, &own, 32, RSEQ_FLAG_UNREGISTER, RSEQ_SIG);
  return ok;
}

struct no_abi_seen
{
  int own_ok;
  int getcpu_ok;
};

static void *
no_abi_thread (void *arg)
{
  struct no_abi_seen *s = arg;
  s->own_ok = own_registration_ok ();
  s->getcpu_ok = sched_getcpu () >= 0;
  return NULL;
}

/* glibc before 2.35.  */
static int
no_abi_main (void)
{
  CHECK (goffset == NULL && gsize == NULL && gflags == NULL,
         "__rseq_*@GLIBC_2.35 in mode %s: %p %p %p", rt_expect (),
         (void *) goffset, (void *) gsize, (void *) gflags);
  printf ("glibc: no __rseq_*@GLIBC_2.35\n");

  const char *mode = rt_shim_mode ();
  int alone = rt_expect_is ("none");
  CHECK (alone || rt_expect_is ("shim-owned") || rt_expect_is ("disabled"),
         "RSEQ_EXPECT %s", rt_expect ());
  CHECK (strcmp (mode, rt_expect ()) == 0, "mode %s, expected %s", mode,
         rt_expect ());
  struct rt_abi abi = rt_abi ();
  if (alone)
    CHECK (abi.offset == NULL && abi.size == NULL && abi.flags == NULL,
           "without the shim, dlsym (RTLD_DEFAULT) finds %p %p %p",
           (void *) abi.offset, (void *) abi.size, (void *) abi.flags);
  else
    CHECK (abi.offset != NULL && abi.size != NULL && abi.flags != NULL,
           "with the shim, dlsym (RTLD_DEFAULT) finds %p %p %p",
           (void *) abi.offset, (void *) abi.size, (void *) abi.flags);

  struct no_abi_seen seen[THREADS + 1];
  no_abi_thread (&seen[0]);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK (pthread_create (&t[i], NULL, no_abi_thread, &seen[i + 1]) == 0,
           "pthread_create %d", i);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  for (int i = 0; i <= THREADS; i++)
    {
      /* glibc registers nothing: without the shim every thread is free
         to register its own area.  */
      if (alone)
        CHECK (seen[i].own_ok, "thread %d: cannot register its own area",
               i - 1);
      CHECK (seen[i].getcpu_ok, "thread %d: sched_getcpu failed", i - 1);
      printf ("%s %d: sched_getcpu=%s\n", i == 0 ? "main" : "thread", i - 1,
              seen[i].getcpu_ok ? "ok" : "error");
    }

  /* Still nothing of glibc's after threads ran.  */
  CHECK (dlvsym (RTLD_DEFAULT, "__rseq_size", "GLIBC_2.35") == NULL,
         "__rseq_size@GLIBC_2.35 appeared");
  fflush (stdout);
  return rt_exit_status ();
}

/* argv[1]: "abi" for glibc 2.35+, "noabi" for an older glibc (the
   harness's probe of the host).  */
int
main (int argc, char **argv)
{
  CHECK (argc == 2 && (strcmp (argv[1], "abi") == 0
                       || strcmp (argv[1], "noabi") == 0),
         "usage: host-glibc abi|noabi");
  if (rt_failures != 0)
    return rt_exit_status ();
  goffset = dlvsym (RTLD_DEFAULT, "__rseq_offset", "GLIBC_2.35");
  gsize = dlvsym (RTLD_DEFAULT, "__rseq_size", "GLIBC_2.35");
  gflags = dlvsym (RTLD_DEFAULT, "__rseq_flags", "GLIBC_2.35");
  if (strcmp (argv[1], "noabi") == 0)
    return no_abi_main ();
  CHECK (goffset != NULL && gsize != NULL && gflags != NULL,
         "no __rseq_*@GLIBC_2.35: %p %p %p", (void *) goffset,
         (void *) gsize, (void *) gflags);
  if (goffset == NULL || gsize == NULL || gflags == NULL)
    return rt_exit_status ();
  printf ("glibc: ");
  print_offset ("__rseq_offset", *goffset);
  printf (" __rseq_size=%u __rseq_flags=%u\n", *gsize, *gflags);

  struct rt_abi abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL && abi.flags != NULL,
         "dlsym (RTLD_DEFAULT): %p %p %p", (void *) abi.offset,
         (void *) abi.size, (void *) abi.flags);
  if (abi.offset != NULL && abi.size != NULL && abi.flags != NULL)
    {
      printf ("unversioned: ");
      print_offset ("__rseq_offset", *abi.offset);
      printf (" __rseq_size=%u __rseq_flags=%u\n", *abi.size, *abi.flags);
      /* Whoever answers the unversioned lookup agrees with glibc.  */
      CHECK (*abi.offset == *goffset, "unversioned __rseq_offset %td, "
             "glibc's %td", *abi.offset, *goffset);
    }

  struct seen main_seen, seen[THREADS];
  observe (&main_seen);
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK (pthread_create (&t[i], NULL, thread_main, &seen[i]) == 0,
           "pthread_create %d", i);
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);

  print_seen ("main", &main_seen);
  for (int i = 0; i < THREADS; i++)
    {
      char who[32];
      snprintf (who, sizeof who, "thread %d", i);
      print_seen (who, &seen[i]);
      CHECK (seen[i].area != main_seen.area, "thread %d shares main's area",
             i);
    }

  int on = rt_expect_is ("libc-owned");
  CHECK (on || rt_expect_is ("disabled"), "RSEQ_EXPECT %s", rt_expect ());
  CHECK (*gflags == 0, "glibc's __rseq_flags %u", *gflags);
  CHECK (on ? *gsize != 0 && *gsize != 32 : *gsize == 0,
         "glibc's __rseq_size %u in mode %s", *gsize, rt_expect ());
  for (int i = -1; i < THREADS; i++)
    {
      struct seen *s = i < 0 ? &main_seen : &seen[i];
      CHECK (s->registered == on, "thread %d: registered %d", i,
             s->registered);
      CHECK (on ? s->cpu_id >= 0 : s->cpu_id == -2, "thread %d: cpu_id %d",
             i, s->cpu_id);
      CHECK (s->getcpu_ok, "thread %d: sched_getcpu failed", i);
    }
  fflush (stdout);
  return rt_exit_status ();
}
