/* What a program sees of the rseq ABI, one fact a line.
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

/* ldso-direct.exp runs this program normally and through the dynamic
   loader run as a command, and requires the same report from both: a
   loader started as a program must change nothing the shim publishes.
   Printed: the mode and the shim's explanations (rseq_compat_query),
   every way a program or library finds __rseq_* (weak references,
   dlsym (RTLD_DEFAULT), dlsym (RTLD_NEXT) from the program and from
   libnext.so, a DT_NEEDED library the way librseq asks) with the value
   and the object defining it, glibc's own GLIBC_2.35 definitions, and
   which sched_getcpu the program reaches and whether it can answer from
   a registered cpu_id, in the main thread and in a new one.  It checks
   the mode against RSEQ_EXPECT itself, so the normal start the others
   are compared with is right too.  */

#include "rtest.h"

#include <pthread.h>

extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));
extern const unsigned int __rseq_flags __attribute__ ((weak));

/* libnext.so (dlsym-next.c).  */
void *next_lookup (const char *name);

static const char *const names[] =
  { "__rseq_offset", "__rseq_size", "__rseq_flags" };

/* The object defining ADDR, by file name without its directory (the
   loader names itself as it was invoked), "program" for the program,
   whose name is its argv[0].  */
static const char *
object_of (const void *addr)
{
  Dl_info self, dli;
  if (addr == NULL)
    return "-";
  if (dladdr (addr, &dli) == 0 || dli.dli_fname == NULL)
    return "?";
  if (dladdr ((void *) object_of, &self) != 0
      && dli.dli_fbase == self.dli_fbase)
    return "program";
  const char *slash = strrchr (dli.dli_fname, '/');
  return slash != NULL ? slash + 1 : dli.dli_fname;
}

static void
print_value (const char *how, const char *name, const void *p)
{
  if (p == NULL)
    {
      printf ("%s %s: none\n", how, name);
      return;
    }
  long int v = strcmp (name, "__rseq_offset") == 0
               ? (long int) *(const ptrdiff_t *) p
               : (long int) *(const unsigned int *) p;
  printf ("%s %s: %ld from %s\n", how, name, v, object_of (p));
}

/* How a sched_getcpu call in the calling thread is answered: from the
   area at __rseq_offset when the kernel holds it registered (EBUSY on
   re-registration) with a CPU in cpu_id, else by the vDSO or the
   system call.  */
static const char *
getcpu_path (void)
{
  const ptrdiff_t *offset = dlsym (RTLD_DEFAULT, "__rseq_offset");
  if (offset == NULL)
    return "no __rseq_offset";
  struct rseq *area = (struct rseq *) (rseq_compat_thread_pointer ()
                                       + *offset);
  const unsigned int *size = dlsym (RTLD_DEFAULT, "__rseq_size");
  unsigned int len = rt_len_for_size (size != NULL ? *size : 0);
  if (!rt_registered (area, len))
    return "fallback (area not registered)";
  if ((int) __atomic_load_n (&area->cpu_id, __ATOMIC_RELAXED) < 0)
    return "fallback (cpu_id negative)";
  return "cpu_id";
}

static void *
thread_main (void *arg)
{
  *(const char **) arg = getcpu_path ();
  return NULL;
}

int
main (void)
{
  const char *mode = rt_shim_mode ();
  CHECK (strcmp (mode, rt_expect ()) == 0, "mode %s, expected %s", mode,
         rt_expect ());
  printf ("mode: %s\n", mode);

  long int (*query) (const char *) = (long int (*) (const char *))
    dlsym (RTLD_DEFAULT, "rseq_compat_query");
  static const char *const keys[] =
    { "registration_length", "area_alignment", "legacy_fallback",
      "probe_errno", "thread_registered" };
  for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
    if (query != NULL)
      printf ("rseq_compat_query %s: %ld\n", keys[i], query (keys[i]));

  const void *weak[] = { &__rseq_offset, &__rseq_size, &__rseq_flags };
  for (int i = 0; i < 3; i++)
    {
      print_value ("weak reference", names[i], weak[i]);
      print_value ("dlsym (RTLD_DEFAULT)", names[i],
                   dlsym (RTLD_DEFAULT, names[i]));
      print_value ("dlsym (RTLD_NEXT) from the program", names[i],
                   dlsym (RTLD_NEXT, names[i]));
      print_value ("dlsym (RTLD_NEXT) from libnext.so", names[i],
                   next_lookup (names[i]));
#ifdef __GLIBC__
      print_value ("dlvsym (RTLD_DEFAULT, GLIBC_2.35)", names[i],
                   dlvsym (RTLD_DEFAULT, names[i], "GLIBC_2.35"));
#endif
    }

  printf ("sched_getcpu: %s\n",
          object_of (dlsym (RTLD_DEFAULT, "sched_getcpu")));
  printf ("sched_getcpu in the main thread: %s\n", getcpu_path ());
  const char *in_thread = "thread not started";
  pthread_t t;
  if (pthread_create (&t, NULL, thread_main, &in_thread) == 0)
    pthread_join (t, NULL);
  printf ("sched_getcpu in a new thread: %s\n", in_thread);
  int cpu = sched_getcpu ();
  CHECK (cpu >= 0, "sched_getcpu: %d", cpu);
  return rt_exit_status ();
}
