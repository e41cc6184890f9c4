/* Two copies of the shim in one process.
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

/* Usage: copies N

   The shim preloaded twice, from one path or two, or preloaded and
   linked: N objects named librseq-compat must be loaded (the loaders
   merge equal paths and, for DT_NEEDED, equal sonames; different files
   stay apart).  Every copy, asked through its own handle, must report
   the expected mode and the same registration length and
   thread_registered answer; its own __rseq_offset and __rseq_size must
   be the ones every lookup finds, except in a later copy on a glibc
   without rseq (before 2.35), which says "nothing registered" (size 0)
   because it decides before the first copy does.  In the main thread
   and in THREADS threads, the area at the global __rseq_offset is the
   one the kernel has registered (EBUSY) in the owned modes, no other
   copy's area is registered, and every copy's sched_getcpu answers the
   CPU the thread is pinned to.  In the owned modes a child of the first
   copy's vfork finds cpu_id -1: that vfork, the one the program binds
   to, pauses the registration only if its copy is the one that acts.
   It is called through the first copy's handle because an object ahead
   of the shim in the search order may define vfork too: the shared
   runtime of the sanitizer builds (make check-sanitize) does, and
   ThreadSanitizer's vfork is a fork.  */

#include "rtest.h"

#include <pthread.h>
#include <sys/wait.h>

#if defined __SANITIZE_ADDRESS__
# define COPIES_LSAN 1
#elif defined __has_feature
# if __has_feature (address_sanitizer)
#  define COPIES_LSAN 1
# endif
#endif
#ifdef COPIES_LSAN
# include <sanitizer/lsan_interface.h>
#endif

#define THREADS 4
#define MAX_COPIES 4

struct copy
{
  const char *name;
  void *handle;
  const char *(*mode) (void);
  long int (*query) (const char *);
  const ptrdiff_t *offset;
  const unsigned int *size;
  int (*getcpu) (void);
  pid_t (*vfork) (void);
};

static struct copy copies[MAX_COPIES];
static int ncopies;
static struct rt_abi abi;
static cpu_set_t allowed;

/* A handle for an object already loaded.  The first dlopen of a
   preloaded object makes the loader allocate its search list, with the
   program's malloc, and keep it in the object's link map, which lives in
   the loader's own memory.  LeakSanitizer counts what the loader
   allocates as reachable only once it has found the loader, by AT_BASE;
   with the loader run as a command there is none (0), and the search
   list is reported as leaked.  Seen with a plain ASan program and
   libz.so.1 preloaded, without the shim.  */
static void *
loaded_handle (const char *name)
{
#ifdef COPIES_LSAN
  int blind = getauxval (AT_BASE) == 0;
  if (blind)
    __lsan_disable ();
#endif
  void *handle = dlopen (name, RTLD_NOLOAD | RTLD_LAZY);
#ifdef COPIES_LSAN
  if (blind)
    __lsan_enable ();
#endif
  return handle;
}

static int
find_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  (void) data;
  if (info->dlpi_name == NULL
      || strstr (info->dlpi_name, "librseq-compat") == NULL)
    return 0;
  if (ncopies == MAX_COPIES)
    return 1;
  struct copy *c = &copies[ncopies++];
  c->name = info->dlpi_name;
  c->handle = loaded_handle (info->dlpi_name);
  CHECK (c->handle != NULL, "dlopen %s: %s", c->name, dlerror ());
  if (c->handle == NULL)
    return 0;
  /* dlsym on a handle searches that object first: its own symbols.  */
  c->mode = (const char *(*) (void)) dlsym (c->handle, "rseq_compat_mode");
  c->query = (long int (*) (const char *)) dlsym (c->handle,
                                                  "rseq_compat_query");
  c->offset = dlsym (c->handle, "__rseq_offset");
  c->size = dlsym (c->handle, "__rseq_size");
  c->getcpu = (int (*) (void)) dlsym (c->handle, "sched_getcpu");
  c->vfork = (pid_t (*) (void)) dlsym (c->handle, "vfork");
  CHECK (c->mode != NULL && c->query != NULL && c->offset != NULL
         && c->size != NULL && c->getcpu != NULL && c->vfork != NULL,
         "%s: a symbol is missing", c->name);
  return 0;
}

static void
check_thread (const char *who)
{
  int owned = rt_expect_registered ();
  unsigned int len = rt_expected_len ();
  struct rseq *global = rt_area (&abi);
  CHECK (rt_registered (global, len) == owned,
         "%s: area at __rseq_offset %td registered: %d, expected %d", who,
         *abi.offset, !owned, owned);
  if (!owned)
    global->cpu_id
      = (uint32_t) RSEQ_CPU_ID_REGISTRATION_FAILED;
  for (int i = 0; i < ncopies; i++)
    {
      struct copy *c = &copies[i];
      if (c->offset == NULL || c->query == NULL)
        continue;
      if (*c->offset != *abi.offset)
        {
          char *other = rseq_compat_thread_pointer () + *c->offset;
          CHECK (!rt_registered (other, len),
                 "%s: the area of copy %s is registered too", who, c->name);
        }
      CHECK (c->query ("thread_registered") == copies[0].query
             ("thread_registered"), "%s: copy %s says thread_registered "
             "%ld, the first copy %ld", who, c->name,
             c->query ("thread_registered"),
             copies[0].query ("thread_registered"));
    }
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &allowed))
      {
        CHECK (rt_pin (cpu) == 0, "pin %d", cpu);
        for (int i = 0; i < ncopies; i++)
          if (copies[i].getcpu != NULL)
            {
              int got = copies[i].getcpu ();
              CHECK (got == cpu, "%s: pinned to %d, sched_getcpu of %s: %d",
                     who, cpu, copies[i].name, got);
            }
        if (owned)
          CHECK (rt_cpu_id (&abi) == cpu, "%s: pinned to %d, cpu_id %d", who,
                 cpu, rt_cpu_id (&abi));
      }
  sched_setaffinity (0, sizeof allowed, &allowed);
}

/* The compiler cannot know that a call through a pointer returns twice,
   so the child never leaves this frame, and the parent returns from it
   only after the child has exited.  */
static __attribute__ ((noinline)) pid_t
vfork_child_reads_cpu_id (pid_t (*vfork_fn) (void))
{
  pid_t pid = vfork_fn ();
  if (pid == 0)
    {
      /* Only a read and _exit: the child runs on the parent's memory.  */
      int id = rt_cpu_id (&abi);
      _exit (id == RSEQ_CPU_ID_UNINITIALIZED ? 0
             : id >= 0 && id < 250 ? id + 1 : 255);
    }
  return pid;
}

static void
check_vfork (void)
{
  if (!rt_expect_registered ())
    return;
  pid_t pid = vfork_child_reads_cpu_id (copies[0].vfork);
  CHECK (pid > 0, "vfork: %s", strerror (errno));
  if (pid <= 0)
    return;
  int status;
  CHECK (waitpid (pid, &status, 0) == pid, "waitpid: %s", strerror (errno));
  CHECK (WIFEXITED (status) && WEXITSTATUS (status) == 0,
         "a vfork child read cpu_id %d (status %#x): the registration was "
         "not paused, the copy that acts is not the first",
         WIFEXITED (status) ? WEXITSTATUS (status) - 1 : -1, status);
}

static void *
thread_main (void *arg)
{
  check_thread ("thread");
  return arg;
}

int
main (int argc, char **argv)
{
  int want = argc > 1 ? atoi (argv[1]) : 0;
  abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL, "no __rseq_offset/size");
  CHECK (sched_getaffinity (0, sizeof allowed, &allowed) == 0,
         "sched_getaffinity");
  dl_iterate_phdr (find_cb, NULL);
  CHECK (ncopies == want, "%d copies of librseq-compat loaded, expected %d",
         ncopies, want);
  if (rt_failures != 0)
    return rt_exit_status ();

  for (int i = 0; i < ncopies; i++)
    {
      struct copy *c = &copies[i];
      printf ("copy %d: %s: mode %s, __rseq_size %u, __rseq_offset %td\n", i,
              c->name, c->mode (), *c->size, *c->offset);
      CHECK (strcmp (c->mode (), rt_expect ()) == 0, "%s: mode %s, expected "
             "%s", c->name, c->mode (), rt_expect ());
      CHECK (c->query ("registration_length")
             == copies[0].query ("registration_length"),
             "%s: registration_length %ld, the first copy %ld", c->name,
             c->query ("registration_length"),
             copies[0].query ("registration_length"));
      int mirrors = *c->offset == *abi.offset && *c->size == *abi.size;
      if (i == 0 || rt_libc_has_abi ())
        CHECK (mirrors, "%s: __rseq_offset %td, __rseq_size %u; the "
               "process's %td, %u", c->name, *c->offset, *c->size,
               *abi.offset, *abi.size);
      else
        CHECK (mirrors || *c->size == 0, "%s: __rseq_size %u: neither the "
               "process's (%u) nor 0", c->name, *c->size, *abi.size);
    }
  CHECK (*abi.size == rt_expected_size (), "__rseq_size %u, expected %u",
         *abi.size, rt_expected_size ());

  check_thread ("main");
  check_vfork ();
  pthread_t t[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK (pthread_create (&t[i], NULL, thread_main, NULL) == 0,
           "pthread_create");
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  return rt_exit_status ();
}
