/* rseq-compat info -p: every thread of another process, read with ptrace.
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

#ifndef RSEQ_COMPAT_CMD_COLLECT_PTRACE_H
#define RSEQ_COMPAT_CMD_COLLECT_PTRACE_H 1

#include <stddef.h>
#include <sys/types.h>

#include "report.h"

/* The process that info -p *PID reports: *PID's own, or that of the
   thread *PID.  Returns 0, or ESRCH with ERR saying why.  */
int info_pid_target (pid_t *pid, char *err, size_t errlen);
/* Fills R (all but the derived fields) for process PID, which is not
   the calling one.  Returns 0, or an errno value with ERR saying why.  */
int info_pid (pid_t pid, struct info_report *r, char *err, size_t errlen);

#endif
