/* The values are final before every constructor.
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

/* A DT_NEEDED library (libctor-needed.so, whose constructor glibc runs
   before a preloaded library's) and a library preloaded after the shim
   (libctor-preload.so) record what they see in their constructors, and
   so does the program's own constructor; every record must show the
   final values and the final mode.

   argv[1] names the variant: "plain", "initfirst" (the DT_NEEDED
   library is flagged DF_1_INITFIRST), "threaded" (the program and
   the library link libpthread, and the library's constructor starts a
   thread, with a pthread_attr_setsigmask_np mask where there is one)
   or "initfirst-threaded" (both: the window on glibc 2.34 too).  glibc runs first the last object loaded with
   DF_1_INITFIRST: the shim, unless the library is, or, before glibc
   2.34, libpthread.so.0.  Where glibc registers by itself, and on musl,
   which runs the preloaded shim's constructor first, the main thread is
   registered before every constructor.  On a glibc that does not,
   every library constructor that glibc runs before the shim's (the
   window) sees cpu_id -1 and no registration, as documented; a thread
   started there is registered all the same.  Outside the window the
   area is registered (EBUSY on re-registration) with a CPU number in
   cpu_id in the modes that register, unregistered with cpu_id -2 in
   the others.  */

#include "rtest.h"
#include "ctor-order.h"

const struct ctor_record *ctor_needed_record (void);

static struct ctor_record program_record;

__attribute__ ((constructor)) static void
program_init (void)
{
  ctor_record_now (&program_record);
}

static int
initfirst_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  const char **last = data;
  (void) size;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      for (const ElfW(Dyn) *d = (const ElfW(Dyn) *)
             (info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
           d->d_tag != DT_NULL; d++)
        if (d->d_tag == DT_FLAGS_1 && (d->d_un.d_val & DF_1_INITFIRST))
          *last = info->dlpi_name;
  return 0;
}

/* The file name of the last object in load order flagged
   DF_1_INITFIRST, or "".  */
static const char *
last_initfirst (void)
{
  const char *last = NULL;
  dl_iterate_phdr (initfirst_cb, &last);
  return last != NULL ? last : "";
}

static void
check_area (const char *who, const char *what, int cpu_id, int registered,
            int window, long int ncpu)
{
  if (window)
    {
      CHECK (cpu_id == RSEQ_CPU_ID_UNINITIALIZED,
             "%s: %s cpu_id %d before the shim's constructor, expected -1",
             who, what, cpu_id);
      CHECK (registered == 0, "%s: %s registered (%d) before the shim's "
             "constructor", who, what, registered);
    }
  else if (rt_expect_registered ())
    {
      CHECK (cpu_id >= 0 && cpu_id < ncpu, "%s: %s cpu_id %d", who, what,
             cpu_id);
      CHECK (registered == 1, "%s: %s not registered (%d)", who, what,
             registered);
    }
  else
    {
      CHECK (cpu_id == RSEQ_CPU_ID_REGISTRATION_FAILED,
             "%s: %s cpu_id %d in mode %s, expected -2", who, what, cpu_id,
             rt_expect ());
      CHECK (registered == 0, "%s: %s registered (%d) in mode %s", who,
             what, registered, rt_expect ());
    }
}

static void
check_record (const char *who, const struct ctor_record *r,
              const struct rt_abi *abi, long int ncpu, int window,
              int threaded)
{
  CHECK (r != NULL, "%s: no record", who);
  if (r == NULL)
    return;
  CHECK (r->ran == 1, "%s: constructor ran %d times", who, r->ran);

  CHECK (r->dl_offset_p == abi->offset && r->dl_size_p == abi->size
         && r->dl_flags_p == abi->flags,
         "%s: dlsym found %p %p %p, now %p %p %p", who,
         (void *) r->dl_offset_p, (void *) r->dl_size_p,
         (void *) r->dl_flags_p, (void *) abi->offset, (void *) abi->size,
         (void *) abi->flags);
  CHECK (r->dl_offset == *abi->offset, "%s: dlsym __rseq_offset %td, final %td",
         who, r->dl_offset, *abi->offset);
  CHECK (r->dl_size == *abi->size, "%s: dlsym __rseq_size %u, final %u",
         who, r->dl_size, *abi->size);
  CHECK (r->dl_flags == *abi->flags, "%s: dlsym __rseq_flags %u, final %u",
         who, r->dl_flags, *abi->flags);

  CHECK (r->weak_offset_p != NULL && r->weak_size_p != NULL
         && r->weak_flags_p != NULL,
         "%s: weak references %p %p %p", who, (void *) r->weak_offset_p,
         (void *) r->weak_size_p, (void *) r->weak_flags_p);
  if (r->weak_offset_p != NULL)
    CHECK (r->weak_offset == *abi->offset,
           "%s: weak __rseq_offset %td, final %td", who, r->weak_offset,
           *abi->offset);
  if (r->weak_size_p != NULL)
    CHECK (r->weak_size == *abi->size, "%s: weak __rseq_size %u, final %u",
           who, r->weak_size, *abi->size);
  if (r->weak_flags_p != NULL)
    CHECK (r->weak_flags == *abi->flags,
           "%s: weak __rseq_flags %u, final %u", who, r->weak_flags,
           *abi->flags);

  CHECK (strcmp (r->mode, rt_expect ()) == 0, "%s: mode %s, expected %s",
         who, r->mode, rt_expect ());

  check_area (who, "main thread", r->cpu_id, r->registered, window, ncpu);
  if (threaded)
    {
      CHECK (r->thread_ret == 0, "%s: pthread_create: %d", who,
             r->thread_ret);
      if (r->thread_ret == 0)
        {
          check_area (who, "its thread", r->thread_cpu_id,
                      r->thread_registered, 0, ncpu);
          CHECK (r->thread_attr_mask != 0,
                 "%s: its thread runs without the mask of its attribute"
                 " (pthread_attr_setsigmask_np)", who);
        }
    }
}

int
main (int argc, char **argv)
{
  const char *variant = argc > 1 ? argv[1] : "";
  int initfirst_threaded = strcmp (variant, "initfirst-threaded") == 0;
  int threaded = initfirst_threaded || strcmp (variant, "threaded") == 0;
  const char *want_first = "librseq-compat";
  if (strcmp (variant, "initfirst") == 0)
    want_first = "libctor-needed-first.so";
  else if (initfirst_threaded)
    /* libpthread, before 2.34, is loaded after the library that needs
       it, and is the last such object then: the window opens either
       way.  */
    want_first = rt_glibc_before ("2.34") ? "libpthread.so.0"
                                          : "libctor-needed-first-thr.so";
  else if (threaded && rt_glibc_before ("2.34"))
    want_first = "libpthread.so.0";
  else
    CHECK (threaded || strcmp (variant, "plain") == 0,
           "variant \"%s\": plain, initfirst, threaded or"
           " initfirst-threaded", variant);
  const char *first = last_initfirst ();
  CHECK (strstr (first, want_first) != NULL,
         "the last DF_1_INITFIRST object is \"%s\", expected %s", first,
         want_first);
  /* Only a glibc without an rseq ABI of its own leaves the main thread
     to the shim's constructor, and only glibc honours DF_1_INITFIRST.  */
  int window = 0;
#ifdef __GLIBC__
  window = !rt_libc_has_abi () && strstr (first, "librseq-compat") == NULL;
#endif

  struct rt_abi abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL && abi.flags != NULL,
         "__rseq_offset %p, __rseq_size %p, __rseq_flags %p",
         (void *) abi.offset, (void *) abi.size, (void *) abi.flags);
  if (abi.offset == NULL || abi.size == NULL || abi.flags == NULL)
    return rt_exit_status ();

  const char *mode = rt_shim_mode ();
  CHECK (strcmp (mode, rt_expect ()) == 0, "mode %s, expected %s", mode,
         rt_expect ());
  CHECK (*abi.size == rt_expected_size (), "__rseq_size %u, expected %u",
         *abi.size, rt_expected_size ());
  CHECK (*abi.flags == 0, "__rseq_flags %u", *abi.flags);
  /* glibc's offset where glibc has the ABI (the shim mirrors it in both
     glibc configurations), else the shim's own area (glibc 2.31, musl).  */
  rt_check_offset ("main", *abi.offset);

  long int ncpu = sysconf (_SC_NPROCESSORS_CONF);
  int cpu_id = rt_cpu_id (&abi);
  if (rt_expect_registered ())
    CHECK (cpu_id >= 0 && cpu_id < ncpu, "main: cpu_id %d", cpu_id);
  else
    CHECK (cpu_id == RSEQ_CPU_ID_REGISTRATION_FAILED,
           "main: cpu_id %d, expected -2", cpu_id);

  const struct ctor_record *(*preload_record) (void)
    = (const struct ctor_record *(*) (void))
      dlsym (RTLD_DEFAULT, "ctor_preload_record");
  CHECK (preload_record != NULL, "libctor-preload.so is not loaded");

  check_record ("libctor-needed.so", ctor_needed_record (), &abi, ncpu,
                window, threaded);
  if (preload_record != NULL)
    check_record ("libctor-preload.so", preload_record (), &abi, ncpu,
                  window, 0);
  check_record ("program", &program_record, &abi, ncpu, 0, 0);
  return rt_exit_status ();
}
