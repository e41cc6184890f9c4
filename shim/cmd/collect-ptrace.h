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

#include "procfs.h"
#include "report.h"

/* Fills R's threads of process P, whose process-wide facts are known,
   stopping one thread at a time for its own read.  Returns 0, or an
   errno value with ERR saying why.  */
int ptrace_read_threads (struct proc *p, struct info_report *r, char *err,
                         size_t errlen);

#endif
