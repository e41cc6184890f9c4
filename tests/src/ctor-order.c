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
   final values and the final mode, and a cpu_id that is -1 or a CPU
   number in the modes that register, -1 or -2 in the others.  */

#include "rtest.h"
#include "ctor-order.h"

const struct ctor_record *ctor_needed_record (void);

static struct ctor_record program_record;

__attribute__ ((constructor)) static void
program_init (void)
{
  ctor_record_now (&program_record);
}

static void
check_record (const char *who, const struct ctor_record *r,
              const struct rt_abi *abi, long int ncpu)
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

  if (rt_expect_registered ())
    CHECK (r->cpu_id == RSEQ_CPU_ID_UNINITIALIZED
           || (r->cpu_id >= 0 && r->cpu_id < ncpu),
           "%s: cpu_id %d", who, r->cpu_id);
  else
    CHECK (r->cpu_id == RSEQ_CPU_ID_UNINITIALIZED
           || r->cpu_id == RSEQ_CPU_ID_REGISTRATION_FAILED,
           "%s: cpu_id %d in mode %s", who, r->cpu_id, rt_expect ());
}

int
main (void)
{
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

  check_record ("libctor-needed.so", ctor_needed_record (), &abi, ncpu);
  if (preload_record != NULL)
    check_record ("libctor-preload.so", preload_record (), &abi, ncpu);
  check_record ("program", &program_record, &abi, ncpu);
  return rt_exit_status ();
}
