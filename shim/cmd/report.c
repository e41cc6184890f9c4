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

int
info_glibc_minor (const struct info_report *r)
{
  unsigned int major, minor;
  if (strcmp (r->libc, "glibc") != 0
      || sscanf (r->libc_version, "%u.%u", &major, &minor) != 2
      || major != 2)
    return -1;
  return (int) minor;
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

int
info_utf8_length (const unsigned char *p)
{
  int n;
  unsigned int min, c;
  if (*p < 0x80)
    return 1;
  else if ((*p & 0xe0) == 0xc0)
    n = 2, min = 0x80, c = *p & 0x1f;
  else if ((*p & 0xf0) == 0xe0)
    n = 3, min = 0x800, c = *p & 0x0f;
  else if ((*p & 0xf8) == 0xf0)
    n = 4, min = 0x10000, c = *p & 0x07;
  else
    return 0;
  for (int i = 1; i < n; i++)
    {
      if ((p[i] & 0xc0) != 0x80)
        return 0;
      c = (c << 6) | (p[i] & 0x3f);
    }
  if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
    return 0;
  return n;
}

/* S made safe for a terminal, into OUT (OUTLEN bytes, 4 per byte of S
   plus one is always enough).  What another process chose (its name,
   its environment, the paths it maps) must neither reach the terminal
   as control sequences nor forge lines of the report: control bytes,
   DEL, backslash, bytes that are not UTF-8 and the bytes of the
   characters info_utf8_hidden names are written as \n, \t, \\ or
   \xNN; printable ASCII and other UTF-8 stay as they are.  */
const char *
info_escape (const char *s, char *out, size_t outlen)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t n = strlen (s), o = 0;
  for (size_t i = 0; i < n && o + 5 < outlen;)
    {
      size_t len = p[i] >= 0x80 ? (size_t) info_utf8_length (p + i) : 0;
      if (len > 0 && !info_utf8_hidden (p + i, (int) len))
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
