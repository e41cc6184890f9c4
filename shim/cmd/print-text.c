/* rseq-compat info: the report as text.
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

#define _GNU_SOURCE 1
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <rseq-layout.h>
#include <sys/rseq.h>

#include "derive.h"
#include "print.h"
#include "report.h"

static void
row (FILE *f, const char *label, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

/* One row of the report; its value may hold the target's strings.  */
static void
row (FILE *f, const char *label, const char *fmt, ...)
{
  char value[4096], safe[4 * sizeof value + 1];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (value, sizeof value, fmt, ap);
  va_end (ap);
  fprintf (f, "  %-16s %s\n", label, info_escape (value, safe, sizeof safe));
}

void
print_text (FILE *f, const struct info_report *r)
{
  char safe[4 * PATH_MAX + 1];
  fprintf (f, "process %d (%s)%s\n", (int) r->pid,
           info_escape (r->comm, safe, sizeof safe),
           r->self ? ", the calling process" : "");
  if (r->libc_version[0] != '\0')
    row (f, "C library", "%s %s", r->libc, r->libc_version);
  else if (r->libc_static)
    row (f, "C library", "%s, linked statically", r->libc);
  else
    row (f, "C library", "%s", r->libc);
  if (r->shim_static)
    row (f, "librseq-compat", "librseq-compat.a, linked into the program");
  else
    row (f, "librseq-compat", "%s", r->shim[0] != '\0' ? r->shim
                                                      : "not loaded");
  row (f, "mode", "%s: %s", r->mode, r->reason);
  row (f, "kernel", "Linux %s, AT_RSEQ_FEATURE_SIZE %lu, AT_RSEQ_ALIGN %lu",
       r->kernel, r->at_feature_size, r->at_align);
  size_t reg = 0, unknown = 0;
  for (size_t i = 0; i < r->nthreads; i++)
    {
      reg += r->threads[i].state == TS_REGISTERED;
      unknown += r->threads[i].state == TS_UNKNOWN;
    }
  /* A C library info does not know (a static program) and no __rseq_*
     symbols: nothing says where a thread's area is, so a thread read
     without stopping it may be registered all the same (a static glibc
     2.35 or later registers every thread), and "none" would be a
     guess.  A known C library that does not register, without the
     shim, has no registration of its own: "none" is a fact there.  */
  if (r->reg_len == 0 && reg == 0 && unknown > 0 && r->abi_source == NULL
      && strcmp (r->libc, "unknown") == 0)
    row (f, "registration", "not known: no __rseq_* symbols to find the "
         "threads' areas by%s", strcmp (r->method, "no-stop") == 0
         ? " without stopping them (--stop reads each registration)" : "");
  else if (r->reg_len == 0)
    row (f, "registration", "none");
  else if (strcmp (r->kernel_mode, "optimized") == 0)
    row (f, "registration", "length %u: optimized mode (IDs written only "
         "when they change; user writes to them kill the process)",
         r->reg_len);
  else if (info_kernel_drops_legacy_rewrite (r->kernel))
    row (f, "registration", "length %u: legacy mode (IDs rewritten after "
         "every preemption, but not on 6.19 and 7.0 kernels without the "
         "fix series \"rseq: Reenable performance optimizations "
         "conditionally\")", r->reg_len);
  else if (r->kernel_optimized)
    row (f, "registration", "length %u: legacy mode (IDs rewritten after "
         "every preemption; this kernel runs lengths above 32 in its "
         "optimized mode)", r->reg_len);
  else
    row (f, "registration", "length %u: legacy mode (the only one before "
         "Linux 7.0: IDs rewritten after every preemption)", r->reg_len);
  /* The mode says whose the registration is, except where it is the
     threads' and nothing tells whose those are (a static program).  */
  if (r->reg_owner != NULL && strcmp (r->reg_owner, "unknown") == 0)
    {
      size_t same = 0;
      for (size_t i = 0; i < r->nthreads; i++)
        same += r->threads[i].state == TS_REGISTERED
                && r->threads[i].length == r->reg_len;
      row (f, "registered by", "not known: the C library or the program "
           "itself (%zu of %zu thread%s with this length)", same,
           r->nthreads, r->nthreads == 1 ? "" : "s");
    }
  if (r->legacy_cause[0] != '\0')
    {
      row (f, "why legacy", "%s", r->legacy_cause);
      row (f, "fix", "%s", r->legacy_fix);
    }
  if (r->abi_source != NULL)
    {
      row (f, "__rseq_offset", "%" PRId64 " (%s's)", r->offset,
           r->abi_source);
      if (r->size == RSEQ_LAYOUT_LEGACY_LEN)
        row (f, "__rseq_size", "32 (the legacy value of glibc 2.35 to 2.39: "
             "20 usable bytes)");
      else
        row (f, "__rseq_size", "%" PRIu32, r->size);
      row (f, "__rseq_flags", "%" PRIu32, r->flags);
    }
  /* A static program whose C library is not known: stripped, so no
     static symbol table says whether its C library defines them.  */
  /* Before the C library's name: an upgrade deletes its files, which
     then tell nothing (61st review).  */
  else if (r->abi_unread == ABI_UNREAD_FILE)
    row (f, "__rseq_*", "not read: the file that would define them could "
         "not be opened");
  else if (strcmp (r->libc, "unknown") == 0 && r->shim[0] == '\0')
    row (f, "__rseq_*", "not found: no dynamic symbol table defines "
         "them, and no static one is there to read (a stripped static "
         "program?)");
  else if (r->abi_unread)
    row (f, "__rseq_*", "not read: they lie in a file on FUSE (see the "
         "warning)");
  else
    row (f, "__rseq_*", "not defined in this process");
  if (r->self && r->have_cpu)
    {
      char node[32] = "unknown", cid[64];
      if (r->have_node)
        snprintf (node, sizeof node, "%d", r->node);
      if (r->have_mm_cid)
        snprintf (cid, sizeof cid, "%d", r->mm_cid);
      else if (r->abi_source == NULL)
        snprintf (cid, sizeof cid, "none (no rseq area)");
      else if (r->nthreads == 0 || r->threads[0].state != TS_REGISTERED)
        snprintf (cid, sizeof cid, "none (not registered)");
      else
        snprintf (cid, sizeof cid, "none (__rseq_size %u does not cover it)",
                  rseq_layout_effective_size (r->size));
      row (f, "cpu", "%d, node %s, mm_cid %s", r->cpu, node, cid);
    }
  row (f, "sched_getcpu", "%s", r->sched_getcpu);
  row (f, "GLIBC_TUNABLES", "%s%s", r->have_tunables ? r->tunables
       : r->tunables_unread == TUNABLES_UNREAD_FUSE ? "not read: the "
       "environment lies in a file on FUSE (see the warning)"
       : r->tunables_unread ? "not known: the process wrote over its "
       "environment area (as setproctitle does), where it is not seen now"
       : "(unset)",
       (r->have_tunables || r->tunables_unread) && r->secure
       ? " (ignored: the process runs in secure mode, AT_SECURE: "
         "set-user-ID, set-group-ID or file capabilities)" : "");

  int nostop = strcmp (r->method, "no-stop") == 0;
  fprintf (f, "threads (%s): %zu, %zu registered",
           strcmp (r->threads_source, "self") == 0 ? "the calling thread"
           : strcmp (r->threads_source, "ptrace") == 0 ? "read with ptrace"
           : nostop ? "read from memory, nothing stopped"
           : "read from memory", r->nthreads, reg);
  if (unknown > 0)
    fprintf (f, ", %zu not known", unknown);
  fputc ('\n', f);
  if (nostop)
    fprintf (f, "  (the cpu_id of each thread's published area: lengths, "
             "signatures and areas\n   registered elsewhere are known only "
             "to --stop)\n");
  fprintf (f, "  %8s %-12s %-18s %4s %-9s %-11s %5s %-14s %6s %4s %6s "
           "%s\n", "TID", "STATE", "AREA", "LEN", "MODE", "SIGNATURE",
           "FLAGS", "OWNER", "CPU_ID", "NODE", "MM_CID", "NAME");
  for (size_t i = 0; i < r->nthreads; i++)
    {
      const struct info_thread *t = &r->threads[i];
      char area[24] = "-", len[12] = "-", sig[16] = "-", flags[12] = "-";
      char cpu[12] = "-", node[12] = "-", cid[12] = "-";
      if (t->state == TS_REGISTERED)
        {
          snprintf (area, sizeof area, "%#" PRIx64, t->area);
          if (t->length != 0)
            snprintf (len, sizeof len, "%" PRIu32, t->length);
          if (t->have_signature)
            {
              snprintf (sig, sizeof sig, "%#" PRIx32 "%s", t->signature,
                        t->signature == RSEQ_SIG ? "" : "!");
              snprintf (flags, sizeof flags, "%" PRIu32, t->flags);
            }
        }
      if (t->have_fields)
        snprintf (cpu, sizeof cpu, "%" PRId32, t->cpu_id);
      if (t->have_fields && t->have_node)
        {
          snprintf (node, sizeof node, "%" PRId32, t->node_id);
          snprintf (cid, sizeof cid, "%" PRId32, t->mm_cid);
        }
      char name[4 * sizeof t->name + 1];
      info_escape (t->name, name, sizeof name);
      fprintf (f, "  %8d %-12s %-18s %4s %-9s %-11s %5s %-14s %6s %4s %6s "
               "%s\n", (int) t->tid, info_state_name (t->state), area, len,
               t->kernel_mode != NULL ? t->kernel_mode : "-", sig, flags,
               t->owner != NULL ? t->owner : "-", cpu, node, cid, name);
    }
  for (size_t i = 0; i < r->nthreads; i++)
    {
      const struct info_thread *t = &r->threads[i];
      if (t->owner != NULL && (strcmp (t->owner, "other") == 0
                               || strcmp (t->owner, "unknown") == 0))
        fprintf (f, "  %8d owner: %s\n", (int) t->tid,
                 info_escape (t->owner_detail, safe, sizeof safe));
      /* The process's rows already say it for the threads it owns.  */
      if (t->legacy_cause[0] != '\0'
          && strcmp (t->legacy_cause, r->legacy_cause) != 0)
        {
          char fix[4 * sizeof t->legacy_fix + 1];
          fprintf (f, "  %8d why legacy: %s; fix: %s\n", (int) t->tid,
                   info_escape (t->legacy_cause, safe, sizeof safe),
                   info_escape (t->legacy_fix, fix, sizeof fix));
        }
      if (t->have_signature && t->signature != RSEQ_SIG)
        fprintf (f, "  %8d signature %#" PRIx32 " is not this architecture's "
                 "RSEQ_SIG %#x\n", (int) t->tid, t->signature,
                 (unsigned int) RSEQ_SIG);
      if (t->state != TS_REGISTERED && t->state != TS_UNREGISTERED
          && t->note[0] != '\0')
        fprintf (f, "  %8d %s\n", (int) t->tid,
                 info_escape (t->note, safe, sizeof safe));
    }
}
