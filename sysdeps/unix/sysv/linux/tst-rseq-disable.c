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

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tst-rseq.h"

#ifdef RSEQ_SIG

/* The application's own area, registered with the legacy length.  */
static __thread struct rseq own_area __attribute__ ((aligned (32)));

/* With the tunable off nothing is registered, in the main thread, in a
   new thread and in a subprocess alike (Debian's 2.36 checks all
   three): the variables say so, the C library's area reads "failed",
   and the thread's own registration succeeds and is the one the kernel
   maintains.  WHERE names the thread.  */
static void
check_disabled (const char *where)
{
  printf ("info: %s\n", where);
  tst_check_area_alignment (where);
  TEST_COMPARE (__rseq_size, 0);
  TEST_COMPARE (__rseq_flags, 0);
  /* The offset stays valid so that consumers read "failed".  */
  struct rseq *area = tst_rseq_area ();
  TEST_COMPARE ((int) area->cpu_id, RSEQ_CPU_ID_REGISTRATION_FAILED);
  TEST_VERIFY (!tst_rseq_registered ());

  /* sched_getcpu falls back to the vDSO or the system call.  */
  int cpu = sched_getcpu ();
  TEST_VERIFY (cpu >= 0 && cpu < CPU_SETSIZE);

  /* Where the kernel has no rseq system call (qemu-user), the thread
     cannot register itself either.  */
  if (tst_rseq_enosys ())
    return;
  own_area.cpu_id = RSEQ_CPU_ID_UNINITIALIZED;
  TEST_COMPARE (tst_rseq_syscall (&own_area, RSEQ_LAYOUT_LEGACY_LEN, 0), 0);
  sched_yield ();
  TEST_VERIFY ((int) own_area.cpu_id >= 0);
  TEST_COMPARE ((int) area->cpu_id, RSEQ_CPU_ID_REGISTRATION_FAILED);
  cpu = sched_getcpu ();
  TEST_VERIFY (cpu >= 0 && cpu < CPU_SETSIZE);
  TEST_COMPARE (tst_rseq_syscall (&own_area, RSEQ_LAYOUT_LEGACY_LEN,
                                  RSEQ_FLAG_UNREGISTER), 0);
}

static void *
disabled_thread (void *closure)
{
  check_disabled ("a new thread");
  return closure;
}

static int
do_test (void)
{
  /* The Makefile sets the tunable; without it this test proves
     nothing.  */
  const char *tunables = getenv ("GLIBC_TUNABLES");
  TEST_VERIFY_EXIT (tunables != NULL
                    && strstr (tunables, "glibc.pthread.rseq=0") != NULL);

  check_disabled ("the main thread");
  pthread_t thread;
  TEST_COMPARE (pthread_create (&thread, NULL, disabled_thread, NULL), 0);
  TEST_COMPARE (pthread_join (thread, NULL), 0);

  /* A forked child's failures are recorded where the parent sees them
     (support_record_failure's shared memory).  */
  pid_t pid = fork ();
  TEST_VERIFY_EXIT (pid >= 0);
  if (pid == 0)
    {
      check_disabled ("a subprocess");
      TEST_COMPARE (pthread_create (&thread, NULL, disabled_thread, NULL), 0);
      TEST_COMPARE (pthread_join (thread, NULL), 0);
      _exit (0);
    }
  int status;
  TEST_COMPARE (waitpid (pid, &status, 0), pid);
  TEST_COMPARE (status, 0);
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
