/* rseq-compat info: the report's own rules.
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

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* The values a program sees: the shim's when it is loaded (they mirror
   the C library's in libc-owned mode), else the C library's.  */
void
info_pick_abi (struct info_report *r)
{
  if (r->shim_abi)
    {
      r->abi_source = "librseq-compat";
      r->offset = r->shim_offset;
      r->size = r->shim_size;
      r->flags = r->shim_flags;
    }
  else if (r->libc_abi)
    {
      r->abi_source = r->libc;
      r->offset = r->libc_offset;
      r->size = r->libc_size;
      r->flags = r->libc_flags;
    }
}

const char *
info_state_name (enum thread_state s)
{
  switch (s)
    {
    case TS_REGISTERED: return "registered";
    case TS_UNREGISTERED: return "unregistered";
    case TS_EXITED: return "exited";
    default: return "unknown";
    }
}

int
info_add_thread (struct info_report *r, size_t *cap, pid_t tid)
{
  for (size_t i = 0; i < r->nthreads; i++)
    if (r->threads[i].tid == tid)
      return 0;
  if (r->nthreads == *cap)
    {
      size_t ncap = *cap ? 2 * *cap : 16;
      struct info_thread *n = realloc (r->threads, ncap * sizeof *n);
      if (n == NULL)
        return -1;
      r->threads = n;
      *cap = ncap;
    }
  struct info_thread *t = &r->threads[r->nthreads++];
  memset (t, 0, sizeof *t);
  t->tid = tid;
  return 1;
}

/* Length of the UTF-8 character at S (up to N bytes) if it is a
   valid one that is no C1 control (U+0080 to U+009F, which terminals
   may obey as they obey ESC), else 0.  */
static size_t
utf8_char (const unsigned char *s, size_t n)
{
  size_t len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
               : s[0] >= 0xe0 ? (s[0] <= 0xef ? 3 : 0)
               : s[0] >= 0xc2 ? 2 : 0;
  if (len == 0 || len > n)
    return 0;
  for (size_t i = 1; i < len; i++)
    if ((s[i] & 0xc0) != 0x80)
      return 0;
  if ((s[0] == 0xc2 && s[1] < 0xa0) || (s[0] == 0xe0 && s[1] < 0xa0)
      || (s[0] == 0xed && s[1] > 0x9f) || (s[0] == 0xf0 && s[1] < 0x90)
      || (s[0] == 0xf4 && s[1] > 0x8f))
    return 0;
  return len;
}

/* S made safe for a terminal, into OUT (OUTLEN bytes, 4 per byte of S
   plus one is always enough).  What another process chose (its name,
   its environment, the paths it maps) must neither reach the terminal
   as control sequences nor forge lines of the report: control bytes,
   DEL, backslash and bytes that are not UTF-8 are written as \n, \t,
   \\ or \xNN; printable ASCII and UTF-8 stay as they are.  */
const char *
info_escape (const char *s, char *out, size_t outlen)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t n = strlen (s), o = 0;
  for (size_t i = 0; i < n && o + 5 < outlen;)
    {
      size_t len = p[i] >= 0x80 ? utf8_char (p + i, n - i) : 0;
      if (len > 0)
        {
          if (o + len + 1 >= outlen)
            break;
          memcpy (out + o, p + i, len);
          o += len;
          i += len;
          continue;
        }
      unsigned char c = p[i++];
      if (c == '\\')
        o += snprintf (out + o, outlen - o, "\\\\");
      else if (c == '\n')
        o += snprintf (out + o, outlen - o, "\\n");
      else if (c == '\t')
        o += snprintf (out + o, outlen - o, "\\t");
      else if (c < 0x20 || c >= 0x7f)
        o += snprintf (out + o, outlen - o, "\\x%02x", c);
      else
        out[o++] = (char) c;
    }
  out[o] = '\0';
  return out;
}
