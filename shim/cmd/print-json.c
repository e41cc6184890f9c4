/* rseq-compat info: the report as JSON.
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

/* The JSON field names are an interface: rseq-compat(1) lists them, and
   a field once published keeps its name, type and meaning.  New fields
   may be added; "format" changes only if one ever has to change.  */

#define _GNU_SOURCE 1
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rseq-layout.h>
#include <sys/rseq.h>

#include "errname.h"
#include "print.h"
#include "report.h"

#define JSON_FORMAT 1

struct json
{
  FILE *f;
  int depth;
  int first[8];
};

static void
j_sep (struct json *j)
{
  if (!j->first[j->depth])
    fputc (',', j->f);
  j->first[j->depth] = 0;
  fprintf (j->f, "\n%*s", 2 * j->depth, "");
}

/* Thread names and paths are bytes: what is not UTF-8 becomes U+FFFD,
   so that the output stays valid JSON.  */
static void
j_string (FILE *f, const char *s)
{
  fputc ('"', f);
  for (const unsigned char *p = (const unsigned char *) s; *p != '\0'; p++)
    if (*p == '"' || *p == '\\')
      fprintf (f, "\\%c", *p);
    else if (*p == '\n')
      fputs ("\\n", f);
    else if (*p == '\t')
      fputs ("\\t", f);
    else if (*p < 0x20 || *p == 0x7f)
      fprintf (f, "\\u%04x", *p);
    else if (*p < 0x80)
      fputc (*p, f);
    else
      {
        int n = info_utf8_length (p);
        unsigned int hidden = n != 0 ? info_utf8_hidden (p, n) : 0;
        if (n == 0)
          fputs ("\\ufffd", f);
        else if (hidden != 0)
          {
            /* Escaped, for whoever prints the string later; past the
               BMP as JSON's surrogate pair.  */
            if (hidden > 0xffff)
              fprintf (f, "\\u%04x\\u%04x",
                       0xd800 + ((hidden - 0x10000) >> 10),
                       0xdc00 + ((hidden - 0x10000) & 0x3ff));
            else
              fprintf (f, "\\u%04x", hidden);
            p += n - 1;
          }
        else
          {
            fwrite (p, 1, n, f);
            p += n - 1;
          }
      }
  fputc ('"', f);
}

static void
j_key (struct json *j, const char *key)
{
  j_sep (j);
  j_string (j->f, key);
  fputs (": ", j->f);
}

static void
j_str (struct json *j, const char *key, const char *value)
{
  j_key (j, key);
  if (value == NULL)
    fputs ("null", j->f);
  else
    j_string (j->f, value);
}

static void
j_int (struct json *j, const char *key, long long int value)
{
  j_key (j, key);
  fprintf (j->f, "%lld", value);
}

static void
j_null (struct json *j, const char *key)
{
  j_key (j, key);
  fputs ("null", j->f);
}

static void
j_bool (struct json *j, const char *key, int value)
{
  j_key (j, key);
  fputs (value ? "true" : "false", j->f);
}

static void
j_open (struct json *j, char c)
{
  fputc (c, j->f);
  j->first[++j->depth] = 1;
}

static void
j_close (struct json *j, char c)
{
  int empty = j->first[j->depth];
  j->depth--;
  if (!empty)
    fprintf (j->f, "\n%*s", 2 * j->depth, "");
  fputc (c, j->f);
}

void
print_json (FILE *f, const struct info_report *r)
{
  struct json j = { .f = f, .depth = 0 };
  j_open (&j, '{');
  j_int (&j, "format", JSON_FORMAT);
  j_int (&j, "pid", r->pid);
  j_bool (&j, "self", r->self);
  j_str (&j, "command", r->comm);
  j_str (&j, "exe", r->exe[0] != '\0' ? r->exe : NULL);
  j_str (&j, "libc", r->libc);
  j_bool (&j, "libc_static", r->libc_static);
  j_str (&j, "libc_version", r->libc_version[0] != '\0' ? r->libc_version
                                                         : NULL);
  j_str (&j, "kernel", r->kernel);
  j_int (&j, "at_rseq_feature_size", (long long int) r->at_feature_size);
  j_int (&j, "at_rseq_align", (long long int) r->at_align);
  j_str (&j, "shim", r->shim[0] != '\0' ? r->shim : NULL);
  j_bool (&j, "shim_static", r->shim_static);
  j_str (&j, "mode", r->mode);
  j_str (&j, "reason", r->reason);
  if (r->self && r->probe_errno != 0)
    j_str (&j, "probe_errno", errno_name (r->probe_errno));
  else
    j_null (&j, "probe_errno");
  j_str (&j, "glibc_tunables", r->have_tunables ? r->tunables : NULL);
  j_bool (&j, "secure", r->secure);
  j_str (&j, "abi_source", r->abi_source);
  if (r->abi_source != NULL)
    {
      j_int (&j, "rseq_offset", r->offset);
      j_int (&j, "rseq_size", r->size);
      j_int (&j, "rseq_usable_size", rseq_layout_effective_size (r->size));
      j_int (&j, "rseq_flags", r->flags);
    }
  else
    {
      j_null (&j, "rseq_offset");
      j_null (&j, "rseq_size");
      j_null (&j, "rseq_usable_size");
      j_null (&j, "rseq_flags");
    }
  if (r->reg_len != 0)
    j_int (&j, "registration_length", r->reg_len);
  else
    j_null (&j, "registration_length");
  j_str (&j, "registration_owner", r->reg_owner);
  j_str (&j, "kernel_mode", r->kernel_mode);
  j_bool (&j, "kernel_has_optimized_mode", r->kernel_optimized);
  j_str (&j, "legacy_cause", r->legacy_cause[0] != '\0' ? r->legacy_cause
                                                         : NULL);
  j_str (&j, "legacy_fix", r->legacy_fix[0] != '\0' ? r->legacy_fix : NULL);
  j_str (&j, "sched_getcpu_impl", r->getcpu_impl);
  j_bool (&j, "sched_getcpu_fast", r->sched_getcpu_fast);
  j_str (&j, "sched_getcpu", r->sched_getcpu);
  if (r->self && r->have_cpu)
    j_int (&j, "cpu", r->cpu);
  else
    j_null (&j, "cpu");
  if (r->self && r->have_node)
    j_int (&j, "node", r->node);
  else
    j_null (&j, "node");
  if (r->self && r->have_mm_cid)
    j_int (&j, "mm_cid", r->mm_cid);
  else
    j_null (&j, "mm_cid");
  j_str (&j, "threads_source", r->threads_source);
  j_str (&j, "method", r->method);
  j_str (&j, "warning", r->warning[0] != '\0' ? r->warning : NULL);

  j_key (&j, "threads");
  j_open (&j, '[');
  for (size_t i = 0; i < r->nthreads; i++)
    {
      const struct info_thread *t = &r->threads[i];
      j_sep (&j);
      j_open (&j, '{');
      j_int (&j, "tid", t->tid);
      j_str (&j, "name", t->name);
      j_str (&j, "state", info_state_name (t->state));
      j_str (&j, "note", t->note[0] != '\0' ? t->note : NULL);
      int reg = t->state == TS_REGISTERED;
      if (reg)
        {
          char area[24];
          snprintf (area, sizeof area, "%#" PRIx64, t->area);
          j_str (&j, "area", area);
        }
      else
        j_null (&j, "area");
      if (reg && t->length != 0)
        j_int (&j, "length", t->length);
      else
        j_null (&j, "length");
      if (reg && t->have_signature)
        {
          j_int (&j, "signature", t->signature);
          j_bool (&j, "signature_ok", t->signature == RSEQ_SIG);
          j_int (&j, "flags", t->flags);
        }
      else
        {
          j_null (&j, "signature");
          j_null (&j, "signature_ok");
          j_null (&j, "flags");
        }
      j_str (&j, "kernel_mode", t->kernel_mode);
      j_str (&j, "legacy_cause", t->legacy_cause[0] != '\0'
                                 ? t->legacy_cause : NULL);
      j_str (&j, "legacy_fix", t->legacy_fix[0] != '\0' ? t->legacy_fix
                                                         : NULL);
      j_str (&j, "owner", reg ? t->owner : NULL);
      j_str (&j, "owner_detail", reg && t->owner_detail[0] != '\0'
                                 ? t->owner_detail : NULL);
      if (t->have_fields)
        j_int (&j, "cpu_id", t->cpu_id);
      else
        j_null (&j, "cpu_id");
      if (t->have_fields && t->have_node)
        {
          j_int (&j, "node_id", t->node_id);
          j_int (&j, "mm_cid", t->mm_cid);
        }
      else
        {
          j_null (&j, "node_id");
          j_null (&j, "mm_cid");
        }
      j_bool (&j, "sched_getcpu_fast", t->fast);
      j_close (&j, '}');
    }
  j_close (&j, ']');
  j_close (&j, '}');
  fputc ('\n', f);
}
