/* rseq-compat info: what the collected facts mean.
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

#ifndef RSEQ_COMPAT_CMD_DERIVE_H
#define RSEQ_COMPAT_CMD_DERIVE_H 1

#include "report.h"

/* Mode, reason, registration length, kernel modes and the
   sched_getcpu path (the fields report.h marks as derived) from what a
   collector filled in.  */
void info_derive (struct info_report *);

/* Whether the kernel release RELEASE (uname -r) is Linux 6.19 or 7.0,
   whose rseq no longer rewrites the IDs of a legacy registration after
   each preemption unless it carries the fix series.  */
int info_kernel_drops_legacy_rewrite (const char *release);

#endif
