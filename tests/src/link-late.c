/* The shim linked behind the C library (link-late.exp).
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

/* Usage: link-late EXPECT|lib-threads

   Linked so that the shim comes after the C library's objects in the
   search order (with -lpthread or -lc ahead of -lrseq-compat, or with
   the shim only through liblink-late.so), or ahead of them (the
   control).  The invariant the kernel checks: where __rseq_size is not
   0, a pthread_create thread is registered (the kernel answers EBUSY
   to the same area again) and its cpu_id is the CPU the getcpu system
   call names; the main thread too.  EXPECT is the mode the shim must
   report: "refused" behind the C library (51st review: the threads ran
   unregistered while __rseq_size said 28), "shim-owned" ahead of it,
   "libc-owned" where the C library registers itself.

   Built with LINK_LATE_LIB_THREADS, the program neither links -pthread
   nor calls pthread_create: liblink-late.so, which links the shim and
   -pthread, starts the thread.  Before glibc 2.34 libpthread.so.0 then
   comes after the shim, whose pthread_create the library's call
   reaches, so the shim owns it (52nd review: it was refused, since
   libc.so.6 came first); on glibc 2.34 and later and on musl the C
   library object holding pthread_create comes first, and the shim
   refuses.  EXPECT "lib-threads" stands for that.

   EXPECT "behind-libpthread" is for -lpthread ahead of the shim: from
   glibc 2.34 on, libpthread.so.0 is an empty stub and pthread_create
   is libc.so.6's, which comes after the shim, so the shim owns the
   threads (glibc 2.34 registers none); before, it refuses.

   Built with LINK_LATE_FAR, the program links liblink-far.so ahead of
   the shim: a library linked at a fixed address above the mapped area,
   which glibc maps below it (a load bias that wraps, as for a prelinked
   library).  The shim reads the name of every object ahead of it; it
   read this one's relocated tables a bias away and crashed before main
   (53rd review).  The program checks that the bias wraps, or the case
   proves nothing.  With LINK_LATE_NEAR, the library is linked where
   the loader was mapped (link-near-base), 4 MB from its dynamic
   section, and mapped less than 64 MB from there, below or above: the
   program checks that its bias is so small (a rule that chose by
   distance to the dynamic section read a bias away: 54th review).  */

#include "rtest.h"

#include <inttypes.h>
#include <link.h>
#include <pthread.h>

int link_late_cpu (void) __attribute__ ((weak));
int link_late_spawn (void *(*) (void *)) __attribute__ ((weak));

static struct rt_abi abi;

/* 0 where the calling thread keeps the promise __rseq_size makes.  */
static int
broken_promise (const char *who)
{
  unsigned int size = *abi.size;
  if (size == 0)
    return 0;
  int pinned = rt_syscall_cpu ();
  if (rt_pin (pinned) != 0)
    return 1;
  int id = rt_cpu_id (&abi);
  int reg = rt_registered (rt_area (&abi), rt_len_for_size (size));
  CHECK (reg && id == pinned, "%s: __rseq_size %u, yet registered %d, "
         "cpu_id %d (the kernel says CPU %d)", who, size, reg, id, pinned);
  return !(reg && id == pinned);
}

#if defined LINK_LATE_FAR || defined LINK_LATE_NEAR
int link_far_value (void);

/* The load bias of liblink-far.so, or 0 where it is not loaded.  */
static int
far_bias (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  const char *slash = strrchr (info->dlpi_name, '/');
  const char *base = slash != NULL ? slash + 1 : info->dlpi_name;
  if (strcmp (base, "liblink-far.so") != 0)
    return 0;
  *(uintptr_t *) data = info->dlpi_addr;
  return 1;
}
#endif

static void *
thread (void *arg)
{
  (void) arg;
  broken_promise ("a pthread_create thread");
  return NULL;
}

int
main (int argc, char **argv)
{
  const char *expect = argc > 1 ? argv[1] : "";
  if (strcmp (expect, "lib-threads") == 0)
    expect = rt_libc_has_abi () ? "libc-owned"
             : rt_glibc_before ("2.34") ? "shim-owned" : "refused";
  else if (strcmp (expect, "behind-libpthread") == 0)
    expect = rt_libc_has_abi () ? "libc-owned"
             : rt_glibc_before ("2.34") ? "refused" : "shim-owned";
#ifdef LINK_LATE_FAR
  uintptr_t bias = 0;
  dl_iterate_phdr (far_bias, &bias);
  CHECK (link_far_value () == 42 && bias > UINTPTR_MAX / 2,
         "liblink-far.so's load bias is %#" PRIxPTR ", not one that wraps "
         "(mapped at or above its link address)", bias);
#endif
#ifdef LINK_LATE_NEAR
  uintptr_t bias = 0;
  dl_iterate_phdr (far_bias, &bias);
  intptr_t away = (intptr_t) bias;
  CHECK (link_far_value () == 42 && away != 0 && away > -(64 << 20)
         && away < (64 << 20),
         "liblink-far.so's load bias is %#" PRIxPTR ", not within 64 MB "
         "of its link address (or 0)", bias);
#endif
  abi = rt_abi ();
  CHECK (abi.size != NULL && abi.offset != NULL, "no __rseq_size");
  if (abi.size == NULL || abi.offset == NULL)
    return rt_exit_status ();
  if (link_late_cpu != NULL)
    CHECK (link_late_cpu () >= 0, "rseq_compat_cpu () %d", link_late_cpu ());
  CHECK (strcmp (rt_shim_mode (), expect) == 0, "mode %s, expected %s",
         rt_shim_mode (), expect);
  broken_promise ("the main thread");
#ifdef LINK_LATE_LIB_THREADS
  int err = link_late_spawn != NULL ? link_late_spawn (thread) : ENOSYS;
#else
  pthread_t t;
  int err = pthread_create (&t, NULL, thread, NULL);
  if (err == 0)
    pthread_join (t, NULL);
#endif
  CHECK (err == 0, "pthread_create: %s", strerror (err));
  printf ("mode %s, __rseq_size %u\n", rt_shim_mode (), *abi.size);
  return rt_exit_status ();
}
