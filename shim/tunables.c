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
   one knob turns registration off whoever would have done it.  It reads
   the knob as glibc 2.41 and later do (measured against the ld.so
   --list-tunables of Debian trixie's 2.41 and sid's 2.43; the corpus in
   tests/fuzz/corpus/tunables pins each rule down):

   - Every GLIBC_TUNABLES definition in the environment is applied, in
     order, so the last one that sets the tunable validly wins.
   - A value is NAME=VALUE items separated by ':'.  A value that is not
     well formed (an item without '=' at the end of the string, which
     includes a trailing ':', or a second '=' in an item) is ignored as a
     whole, and so is one that sets glibc.rtld.enable_secure to 1.
   - Within a value the last item naming the tunable is the one taken,
     even when its number is then rejected.
   - The number is read like glibc's _dl_strtoul: blanks, a sign, then
     decimal, 0x hexadecimal or 0 octal; it must run to the end of the
     item, so "" and "-" read as 0.  Above 2^64 - 1 it is rejected; below,
     it is truncated to 32 bits and must then be 0 or 1.
   - Programs started with AT_SECURE ignore GLIBC_TUNABLES (early.c).

   Older glibc (2.26 to 2.38) parse more loosely: trailing garbage after
   a number is ignored and a malformed item does not void the value.  The
   shim follows the current rule, under which a malformed value never
   turns registration off, for what it does itself; the loose reader
   below only tells why such a glibc with the rseq ABI (2.35 to 2.38,
   RHEL 9's 2.34, the patched 2.31) registered nothing (the mode
   "disabled" rather than "unavailable").

   This runs inside an IFUNC resolver: no library calls.  */

#include "shim.h"

static const char rseq_tunable[] = "glibc.pthread.rseq";
static const char secure_tunable[] = "glibc.rtld.enable_secure";

/* Whether [BEGIN, END) is the tunable NAME.  */
static int
is_name (const char *begin, const char *end, const char *name,
         size_t name_len)
{
  if ((size_t) (end - begin) != name_len)
    return 0;
  for (size_t i = 0; i < name_len; i++)
    if (begin[i] != name[i])
      return 0;
  return 1;
}

/* _dl_strtoul on [BEGIN, END): blanks, a sign, then decimal, 0x
   hexadecimal or 0 octal digits.  Returns where it stopped and sets
   *VALUE, or NULL on overflow.  STRICT is glibc 2.41's overflow test,
   otherwise that of glibc before 2.39 (one value apart).  */
static const char *
scan_number (const char *begin, const char *end, int strict,
             uint64_t *value)
{
  const char *p = begin;
  int negative = 0;
  uint64_t result = 0;

  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  if (p < end && (*p == '-' || *p == '+'))
    negative = *p++ == '-';
  if (p < end && *p >= '0' && *p <= '9')
    {
      unsigned int base = 10;
      if (*p == '0')
        {
          if (end - p > 1 && (p[1] == 'x' || p[1] == 'X'))
            {
              base = 16;
              p += 2;
            }
          else
            base = 8;
        }
      for (; p < end; p++)
        {
          unsigned int digit;
          if (*p >= '0' && *p <= '9')
            digit = *p - '0';
          else if (*p >= 'a' && *p <= 'f')
            digit = *p - 'a' + 10;
          else if (*p >= 'A' && *p <= 'F')
            digit = *p - 'A' + 10;
          else
            break;
          if (digit >= base)
            break;
          if (strict ? result > (UINT64_MAX - digit) / base
                     : result >= (UINT64_MAX - digit) / base)
            return NULL;
          result = result * base + digit;
        }
    }
  *value = negative ? -result : result;
  return p;
}

/* Read [BEGIN, END) as glibc 2.41 reads a number tunable.  Returns 0 and
   sets *VALUE, or -1 when glibc rejects it: the number must run to the
   end of the item.  */
static int
parse_number (const char *begin, const char *end, uint64_t *value)
{
  return scan_number (begin, end, 1, value) == end ? 0 : -1;
}

int
__rseq_compat_tunable_rseq (const char *s, int current)
{
  const char *rseq = NULL, *rseq_end = NULL;
  const char *secure = NULL, *secure_end = NULL;

  if (s == NULL || *s == '\0')
    return current;

  const char *p = s;
  for (;;)
    {
      const char *name = p;
      while (*p != '=' && *p != ':' && *p != '\0')
        p++;
      if (*p == '\0')
        return current;		/* An item without a value.  */
      if (*p == ':')
        {
          p++;
          continue;
        }
      const char *name_end = p++;
      const char *value = p;
      while (*p != '=' && *p != ':' && *p != '\0')
        p++;
      if (*p == '=')
        return current;		/* NAME=VALUE=...  */

      if (is_name (name, name_end, rseq_tunable, sizeof rseq_tunable - 1))
        {
          rseq = value;
          rseq_end = p;
        }
      else if (is_name (name, name_end, secure_tunable,
                        sizeof secure_tunable - 1))
        {
          secure = value;
          secure_end = p;
        }
      if (*p == '\0')
        break;
    }

  uint64_t v;
  if (secure != NULL && parse_number (secure, secure_end, &v) == 0 && v == 1)
    return current;
  if (rseq == NULL || parse_number (rseq, rseq_end, &v) != 0)
    return current;
  int32_t narrow = (int32_t) (uint32_t) v;
  return narrow == 0 || narrow == 1 ? narrow : current;
}

/* What glibc before 2.39 makes of [BEGIN, END): the longest prefix
   that reads as a number, UINT64_MAX on overflow.  */
static uint64_t
loose_number (const char *begin, const char *end)
{
  uint64_t v;
  return scan_number (begin, end, 0, &v) != NULL ? v : UINT64_MAX;
}

/* The reading of glibc before 2.39 (checked against Debian bookworm's
   2.36 and the patched 2.31 by host-glibc.exp): each NAME=VALUE item is
   applied as it comes, up to an item without '=' at the end of the
   string; the value runs to the next ':' (a second '=' is part of it);
   the number is what _dl_strtoul makes of its longest prefix
   (UINT64_MAX on overflow), and it is taken if it is 0 or 1 as a 64-bit
   signed number.  There is no glibc.rtld.enable_secure yet.  */
int
__rseq_compat_tunable_rseq_loose (const char *s, int current)
{
  if (s == NULL)
    return current;
  const char *p = s;
  while (*p != '\0')
    {
      const char *name = p;
      while (*p != '=' && *p != ':' && *p != '\0')
        p++;
      if (*p == '\0')
        break;
      if (*p == ':')
        {
          p++;
          continue;
        }
      const char *name_end = p++;
      const char *value = p;
      while (*p != ':' && *p != '\0')
        p++;
      if (is_name (name, name_end, rseq_tunable, sizeof rseq_tunable - 1))
        {
          uint64_t v = loose_number (value, p);
          if ((int64_t) v == 0 || (int64_t) v == 1)
            current = (int) v;
        }
      if (*p == ':')
        p++;
    }
  return current;
}

int
__rseq_compat_tunable_off (const char *s)
{
  return __rseq_compat_tunable_rseq (s, 1) == 0;
}

/* glibc.pthread.rseq after every GLIBC_TUNABLES definition of ENVP, in
   order, as READ applies each.  */
static int
env_rseq (char *const *envp, int (*read) (const char *, int))
{
  static const char key[] = "GLIBC_TUNABLES=";
  int rseq = 1;

  for (; envp != NULL && *envp != NULL; envp++)
    {
      size_t i;
      for (i = 0; i < sizeof key - 1 && (*envp)[i] == key[i]; i++)
        ;
      if (i == sizeof key - 1)
        rseq = read (*envp + i, rseq);
    }
  return rseq;
}

int
__rseq_compat_env_tunable_off (char *const *envp)
{
  return env_rseq (envp, __rseq_compat_tunable_rseq) == 0;
}

int
__rseq_compat_env_tunable_off_loose (char *const *envp)
{
  return env_rseq (envp, __rseq_compat_tunable_rseq_loose) == 0;
}
