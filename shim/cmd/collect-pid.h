/* rseq-compat info -p: another process, by the method asked for.
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

#ifndef RSEQ_COMPAT_CMD_COLLECT_PID_H
#define RSEQ_COMPAT_CMD_COLLECT_PID_H 1

#include <stddef.h>
#include <sys/types.h>

#include "report.h"

/* How info -p reads the threads.  */
enum info_method
{
  /* PTRACE_GET_RSEQ_CONFIGURATION, one thread stopped at a time: the
     kernel's word on every registration (collect-ptrace.c).  */
  METHOD_STOP,
  /* Memory only, nothing stopped: the published areas' cpu_id, where
     the thread pointers can be found (collect-nostop.c).  */
  METHOD_NO_STOP,
};

/* The process that info -p *PID reports: *PID's own, or that of the
   thread *PID.  Returns 0, or ESRCH with ERR saying why.  */
int info_pid_target (pid_t *pid, char *err, size_t errlen);
/* Fills R (all but the derived fields) for process PID, which is not
   the calling one.  Returns 0, or an errno value with ERR saying why.  */
int info_pid (pid_t pid, enum info_method method, struct info_report *r,
              char *err, size_t errlen);

#endif
