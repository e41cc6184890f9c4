/* rseq-compat info -p: another process's process-wide facts.
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

#ifndef RSEQ_COMPAT_CMD_COLLECT_PROC_H
#define RSEQ_COMPAT_CMD_COLLECT_PROC_H 1

#include <stdint.h>

#include "procfs.h"
#include "report.h"

/* Fills the report's process-wide fields from /proc and the target's
   memory.  Returns 0, or an errno value with ERR describing it.  */
int proc_describe (struct proc *, struct info_report *, char *err,
                   size_t errlen);
/* Whose area the registered thread T is (its owner and owner_detail),
   given its thread pointer TP (0: unknown).  */
void owner_of (struct proc *, const struct info_report *,
               struct info_thread *t, uint64_t tp);

/* Names thread T; when it has exited already, marks it so and returns
   1, else returns 0.  */
int thread_begin (const struct info_report *, struct info_thread *t);
/* Reads the fields (cpu_id, node_id, mm_cid) of the area at ADDR into
   thread T; have_fields stays 0 when it cannot be read.  */
void area_fields (struct proc *, const struct info_report *,
                  struct info_thread *t, uint64_t addr);
/* Infers thread T's state from the cpu_id of its published area (at
   thread pointer TP + __rseq_offset), where no kernel's word on the
   registration is to be had: registered or not, without length and
   signature, and the owner.  */
void infer_from_area (struct proc *, const struct info_report *,
                      struct info_thread *t, uint64_t tp);

#endif
