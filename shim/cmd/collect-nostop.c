/* rseq-compat info -p --no-stop: every thread, read without stopping it.
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

/* Nothing here attaches to the process: the threads come from
   /proc/PID/task, their thread pointers from glibc's own list of
   threads (glibc-threads.c), and their state from the cpu_id of the
   published area at thread pointer + __rseq_offset (collect-proc.c),
   all read through /proc/PID/mem, which needs the same permission as
   ptrace but leaves the threads running.  Only the kernel knows a
   registration's length and signature, and whether a thread registered
   some other area: PTRACE_GET_RSEQ_CONFIGURATION tells, and it works
   on stopped threads only.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect-nostop.h"
#include "collect-proc.h"
#include "glibc-threads.h"
#include "procfs.h"
#include "report.h"

int
nostop_read_threads (struct proc *p, struct info_report *r, char *err,
                     size_t errlen)
{
  size_t n = 0, cap = 0;
  pid_t *tids = proc_list_tasks (r->pid, &n);
  if (tids == NULL)
    {
      snprintf (err, errlen, "process %d exited while it was being read; "
                "nothing to report", (int) r->pid);
      return ESRCH;
    }
  for (size_t i = 0; i < n; i++)
    if (info_add_thread (r, &cap, tids[i]) < 0)
      {
        free (tids);
        snprintf (err, errlen, "out of memory");
        return ENOMEM;
      }
  free (tids);

  struct thread_pointer *tps = NULL;
  size_t ntps = 0;
  char why[256] = "";
  int have_list = strcmp (r->libc, "musl") != 0
                  && glibc_thread_pointers (p, r->libc_static ? r->exe
                                            : NULL, &tps, &ntps, why,
                                            sizeof why) == 0;
  if (strcmp (r->libc, "musl") == 0)
    snprintf (why, sizeof why, "musl keeps no description of its thread "
              "list for debuggers");

  int live = 0;
  for (size_t i = 0; i < r->nthreads; i++)
    {
      struct info_thread *t = &r->threads[i];
      if (thread_begin (r, t))
        continue;
      live = 1;
      /* glibc's list holds the TIDs of the process's own PID
         namespace, which a container's are not.  */
      pid_t own = ntps > 0 ? proc_task_own_tid (r->pid, t->tid) : t->tid;
      uint64_t tp = 0;
      for (size_t k = 0; k < ntps && tp == 0; k++)
        if (tps[k].tid == own)
          tp = tps[k].tp;
      if (tp != 0)
        infer_from_area (p, r, t, tp);
      else
        {
          t->state = TS_UNKNOWN;
          if (have_list)
            snprintf (t->note, sizeof t->note, "not in glibc's list of "
                      "threads (not a pthread): its thread pointer is "
                      "known only with --stop");
          else
            snprintf (t->note, sizeof t->note, "thread pointer unknown "
                      "without stopping (%.120s): use --stop", why);
        }
    }
  free (tps);

  if (!live)
    {
      snprintf (err, errlen, "process %d (%s) exited while it was being "
                "read; nothing to report", (int) r->pid, r->comm);
      return ESRCH;
    }
  r->threads_source = "memory";
  r->method = "no-stop";
  return 0;
}
