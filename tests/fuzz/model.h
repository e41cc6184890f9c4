/* A model of glibc 2.41's reading of glibc.pthread.rseq, for the fuzz targets.
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

/* Written apart from shim/tunables.c, as a plain restatement of what
   glibc's elf/dl-tunables.c and _dl_strtoul do (see the comment at the
   top of shim/tunables.c); the corpus expectations, taken from a real
   ld.so --list-tunables, keep both honest.  */

#ifndef RSEQ_COMPAT_FUZZ_MODEL_H
#define RSEQ_COMPAT_FUZZ_MODEL_H 1

#include <stdint.h>
#include <string.h>

/* _dl_strtoul over exactly LEN bytes.  Returns 0 and sets *OUT, or -1
   when glibc rejects the number.  */
static int
model_number (const char *v, size_t len, uint64_t *out)
{
  size_t i = 0;
  int negative = 0;
  unsigned __int128 acc = 0;

  while (i < len && (v[i] == ' ' || v[i] == '\t'))
    i++;
  if (i < len && (v[i] == '+' || v[i] == '-'))
    negative = v[i++] == '-';
  if (i < len && v[i] >= '0' && v[i] <= '9')
    {
      unsigned int base = 10;
      if (v[i] == '0' && i + 1 < len && (v[i + 1] | 0x20) == 'x')
        {
          base = 16;
          i += 2;
        }
      else if (v[i] == '0')
        base = 8;
      static const char digits[] = "0123456789abcdef";
      for (; i < len; i++)
        {
          const char *d = memchr (digits, v[i] >= 'A' && v[i] <= 'F'
                                          ? v[i] | 0x20 : v[i], base);
          if (v[i] == '\0' || d == NULL)
            break;
          acc = acc * base + (unsigned int) (d - digits);
          if (acc > UINT64_MAX)
            return -1;
        }
    }
  if (i != len)
    return -1;
  *out = negative ? -(uint64_t) acc : (uint64_t) acc;
  return 0;
}

/* glibc.pthread.rseq after one GLIBC_TUNABLES value S, from CURRENT.  */
static int
model_rseq (const char *s, int current)
{
  const char *rseq = NULL, *secure = NULL;
  size_t rseq_len = 0, secure_len = 0;

  if (s == NULL || *s == '\0')
    return current;
  for (const char *item = s;;)
    {
      const char *colon = strchr (item, ':');
      size_t len = colon != NULL ? (size_t) (colon - item) : strlen (item);
      const char *eq = memchr (item, '=', len);
      if (eq == NULL)
        {
          /* No value: skipped before a colon, fatal at the end.  */
          if (colon == NULL)
            return current;
          item = colon + 1;
          continue;
        }
      const char *value = eq + 1;
      size_t value_len = len - (size_t) (value - item);
      if (memchr (value, '=', value_len) != NULL)
        return current;
      size_t name_len = (size_t) (eq - item);
      if (name_len == strlen ("glibc.pthread.rseq")
          && memcmp (item, "glibc.pthread.rseq", name_len) == 0)
        rseq = value, rseq_len = value_len;
      else if (name_len == strlen ("glibc.rtld.enable_secure")
               && memcmp (item, "glibc.rtld.enable_secure", name_len) == 0)
        secure = value, secure_len = value_len;
      if (colon == NULL)
        break;
      item = colon + 1;
    }

  uint64_t n;
  if (secure != NULL && model_number (secure, secure_len, &n) == 0 && n == 1)
    return current;
  if (rseq == NULL || model_number (rseq, rseq_len, &n) != 0)
    return current;
  uint32_t low = (uint32_t) n;
  return low <= 1 ? (int) low : current;
}

#endif
