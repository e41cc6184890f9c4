/* glibc.pthread.rseq=0: no registration, and the application may
   register an area of its own.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat (the glibc 2.31 and 2.36 series).

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

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "tst-rseq.h"

#ifdef RSEQ_SIG

/* The application's own area, registered with the legacy length.  */
static __thread struct rseq own_area __attribute__ ((aligned (32)));

static int
do_test (void)
{
  /* The Makefile sets the tunable; without it this test proves
     nothing.  */
  const char *tunables = getenv ("GLIBC_TUNABLES");
  TEST_VERIFY_EXIT (tunables != NULL
                    && strstr (tunables, "glibc.pthread.rseq=0") != NULL);

  TEST_COMPARE (__rseq_size, 0);
  TEST_COMPARE (__rseq_flags, 0);
  /* The offset stays valid so that consumers read "failed".  */
  struct rseq *area = tst_rseq_area ();
  TEST_COMPARE ((int) area->cpu_id, RSEQ_CPU_ID_REGISTRATION_FAILED);
  TEST_VERIFY (!tst_rseq_registered ());

  /* sched_getcpu falls back to the vDSO or the system call.  */
  int cpu = sched_getcpu ();
  TEST_VERIFY (cpu >= 0 && cpu < CPU_SETSIZE);

  /* Nothing is registered: the application's registration succeeds,
     and the kernel then maintains its area, not the C library's.  */
  own_area.cpu_id = RSEQ_CPU_ID_UNINITIALIZED;
  TEST_COMPARE (tst_rseq_syscall (&own_area, RSEQ_LAYOUT_LEGACY_LEN, 0), 0);
  sched_yield ();
  TEST_VERIFY ((int) own_area.cpu_id >= 0);
  TEST_COMPARE ((int) area->cpu_id, RSEQ_CPU_ID_REGISTRATION_FAILED);
  cpu = sched_getcpu ();
  TEST_VERIFY (cpu >= 0 && cpu < CPU_SETSIZE);
  TEST_COMPARE (tst_rseq_syscall (&own_area, RSEQ_LAYOUT_LEGACY_LEN,
                                  RSEQ_FLAG_UNREGISTER), 0);
  return 0;
}

#else  /* !RSEQ_SIG */

static int
do_test (void)
{
  tst_check_no_signature ("main thread, rseq off");
  return 0;
}

#endif  /* RSEQ_SIG */

#include <support/test-driver.c>
