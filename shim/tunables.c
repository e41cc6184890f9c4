/* Reading glibc.pthread.rseq from GLIBC_TUNABLES.
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

/* The shim honours glibc's switch on every C library, musl included, so
   one knob turns registration off whoever would have done it.  The
   syntax is glibc's: NAME=VALUE items separated by ':'.  glibc applies
   items in order (the last valid one wins) and ignores values it cannot
   parse or that fall outside the tunable's range (0 or 1 here), so a
   malformed item never disables anything.

   This runs inside an IFUNC resolver: no library calls.  */

#include "shim.h"

static const char rseq_tunable[] = "glibc.pthread.rseq";

/* Parse [BEGIN, END) as glibc's tunable parser does for an integer:
   decimal, 0x hexadecimal or 0 octal, nothing else after it.  Returns
   -1 when invalid.  */
static long int
parse_number (const char *begin, const char *end)
{
  unsigned int base = 10;
  if (begin == end)
    return -1;
  if (end - begin > 2 && begin[0] == '0' && (begin[1] == 'x' || begin[1] == 'X'))
    {
      base = 16;
      begin += 2;
    }
  else if (end - begin > 1 && begin[0] == '0')
    {
      base = 8;
      begin++;
    }

  unsigned long int value = 0;
  for (; begin < end; begin++)
    {
      unsigned int digit;
      char c = *begin;
      if (c >= '0' && c <= '9')
        digit = c - '0';
      else if (c >= 'a' && c <= 'f')
        digit = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F')
        digit = c - 'A' + 10;
      else
        return -1;
      if (digit >= base)
        return -1;
      value = value * base + digit;
      /* Anything this large is out of range already.  */
      if (value > 0xffffffffUL)
        return -1;
    }
  return (long int) value;
}

int
__rseq_compat_tunable_off (const char *s)
{
  int off = 0;
  if (s == NULL)
    return 0;

  while (*s != '\0')
    {
      const char *item = s;
      while (*s != '\0' && *s != ':')
        s++;
      const char *item_end = s;
      if (*s == ':')
        s++;

      const char *eq = item;
      while (eq < item_end && *eq != '=')
        eq++;
      if (eq == item_end)
        continue;

      size_t name_len = eq - item;
      if (name_len != sizeof rseq_tunable - 1)
        continue;
      size_t i;
      for (i = 0; i < name_len && item[i] == rseq_tunable[i]; i++)
        ;
      if (i != name_len)
        continue;

      long int value = parse_number (eq + 1, item_end);
      if (value == 0)
        off = 1;
      else if (value == 1)
        off = 0;
    }
  return off;
}
