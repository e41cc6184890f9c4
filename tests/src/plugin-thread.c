/* A program without libpthread starts a thread from a plugin that has it.
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

/* argv[1] is the plugin, linked with -lpthread; this program is not.
   Before glibc 2.34 pthread_create exists only in libpthread.so.0,
   which the plugin's RTLD_LOCAL dlopen loads outside the global scope:
   the plugin's pthread_create still binds to the shim's, first in the
   global scope, and the shim must find the real one.  pthread_create
   must succeed as it does without the shim, leave no dlerror message,
   and the thread must be registered in the modes that register
   (EBUSY on re-registration, a CPU number in cpu_id), cpu_id -2 and
   nothing registered in the others.

   With "deepbind" as argv[2] (glibc), the plugin is opened with
   RTLD_DEEPBIND: its own scope comes first for it, so its
   pthread_create binds to the C library's, past the shim's, and where
   the shim owns the registration the thread starts unregistered (cpu_id
   -1, the TLS image's) while __rseq_size says registered.  That is the
   limit doc/using.md states (51st review), pinned here so that it
   changes only on purpose; where the C library registers by itself,
   the thread is registered as always.  */

#include "rtest.h"
#include "plugin-thread.h"

int
main (int argc, char **argv)
{
  CHECK (argc == 2 || argc == 3, "usage: plugin-thread PLUGIN [deepbind]");
  if (argc != 2 && argc != 3)
    return rt_exit_status ();
  int deep = argc == 3 && strcmp (argv[2], "deepbind") == 0;
  int flags = RTLD_NOW | RTLD_LOCAL;
#ifdef RTLD_DEEPBIND
  if (deep)
    flags |= RTLD_DEEPBIND;
#else
  CHECK (!deep, "no RTLD_DEEPBIND in this C library");
#endif
  CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0, "mode %s, expected %s",
         rt_shim_mode (), rt_expect ());
  /* musl answers for libpthread.so.0 with itself.  */
#ifdef __GLIBC__
  CHECK (!rt_libpthread_loaded (),
         "libpthread.so.0 is loaded before the plugin: the program must "
         "not need it");
#endif

  void *plugin = dlopen (argv[1], flags);
  CHECK (plugin != NULL, "dlopen %s: %s", argv[1], dlerror ());
  if (plugin == NULL)
    return rt_exit_status ();
  /* Where pthread_create is in libpthread.so.0 alone.  */
  if (rt_glibc_before ("2.34"))
    CHECK (rt_libpthread_loaded (),
           "libpthread.so.0 not loaded with the plugin");
  plugin_thread_run_fn *run = (plugin_thread_run_fn *)
    dlsym (plugin, "plugin_thread_run");
  CHECK (run != NULL, "plugin_thread_run: %s", dlerror ());
  if (run == NULL)
    return rt_exit_status ();

  struct plugin_thread_result r;
  memset (&r, 0, sizeof r);
  run (&r);
  CHECK (r.create_ret == 0, "pthread_create from the plugin: %d (%s)",
         r.create_ret, strerror (r.create_ret));
  CHECK (r.dlerror_after[0] == '\0', "dlerror after pthread_create: %s",
         r.dlerror_after);
  if (r.create_ret != 0)
    return rt_exit_status ();
  CHECK (r.join_ret == 0, "pthread_join: %d", r.join_ret);
  CHECK (r.ran == 1, "the thread did not run");

  long int ncpu = sysconf (_SC_NPROCESSORS_CONF);
  if (deep && !rt_expect_is ("libc-owned"))
    {
      /* Past the shim: nothing marks or registers the thread's area.
         A C library with the ABI marks it -2 itself when it is off.  */
      int want = rt_libc_has_abi () && !rt_expect_is ("shim-owned")
                 ? RSEQ_CPU_ID_REGISTRATION_FAILED
                 : RSEQ_CPU_ID_UNINITIALIZED;
      CHECK (r.registered == 0 && r.cpu_id == want, "thread of a "
             "RTLD_DEEPBIND plugin in mode %s: registered %d, cpu_id %d; "
             "the documented limit is unregistered, cpu_id %d (update "
             "doc/using.md if this changed)", rt_expect (), r.registered,
             r.cpu_id, want);
    }
  else if (rt_expect_registered ())
    {
      CHECK (r.registered == 1, "thread: area not registered (%d)",
             r.registered);
      CHECK (r.cpu_id >= 0 && r.cpu_id < ncpu, "thread: cpu_id %d",
             r.cpu_id);
    }
  else
    {
      CHECK (r.registered == 0, "thread: area registered in mode %s (%d)",
             rt_expect (), r.registered);
      CHECK (r.cpu_id == RSEQ_CPU_ID_REGISTRATION_FAILED,
             "thread: cpu_id %d in mode %s, expected -2", r.cpu_id,
             rt_expect ());
    }
  return rt_exit_status ();
}
