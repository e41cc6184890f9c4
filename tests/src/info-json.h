/* A small JSON reader for the tests of rseq-compat info --json.
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

/* Strict RFC 8259 syntax (no trailing commas, no comments, no bare
   words, nothing after the value, no duplicate keys, strings in
   well-formed UTF-8 with non-ASCII characters read as '?'), so that a test
   passing here means any JSON parser reads the output.  Integers are
   kept exactly.  */

#ifndef INFO_JSON_H
#define INFO_JSON_H 1

#include <stdlib.h>
#include <string.h>

enum jtype { J_NULL, J_BOOL, J_INT, J_REAL, J_STR, J_ARR, J_OBJ };

struct jval
{
  enum jtype type;
  long long int i;		/* J_BOOL, J_INT.  */
  char *s;			/* J_STR.  */
  size_t n;			/* J_ARR, J_OBJ: number of items.  */
  struct jval *items;
  char **keys;			/* J_OBJ.  */
};

struct jparser
{
  const char *p;
  const char *err;
};

static int jp_value (struct jparser *, struct jval *, int depth);

static void
jp_space (struct jparser *jp)
{
  while (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r')
    jp->p++;
}

static int
jp_fail (struct jparser *jp, const char *why)
{
  if (jp->err == NULL)
    jp->err = why;
  return -1;
}

static int
jp_string (struct jparser *jp, char **out)
{
  if (*jp->p != '"')
    return jp_fail (jp, "string expected");
  jp->p++;
  size_t cap = 32, len = 0;
  char *s = malloc (cap);
  for (;;)
    {
      unsigned char c = (unsigned char) *jp->p++;
      if (len + 8 >= cap)
        s = realloc (s, cap *= 2);
      if (c == '"')
        break;
      if (c < 0x20)
        {
          free (s);
          return jp_fail (jp, "control character in a string");
        }
      if (c >= 0x80)
        {
          /* Well-formed UTF-8 only: 2 to 4 bytes, no overlong form,
             no surrogate, nothing above U+10FFFF.  */
          int n = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                  : (c & 0xf8) == 0xf0 ? 4 : 0;
          unsigned int u = n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
          for (int k = 1; k < n; k++)
            {
              unsigned char cc = (unsigned char) *jp->p;
              if ((cc & 0xc0) != 0x80)
                n = 0;
              else
                {
                  u = (u << 6) | (cc & 0x3f);
                  jp->p++;
                }
            }
          unsigned int min = n == 2 ? 0x80 : n == 3 ? 0x800 : 0x10000;
          if (n == 0 || u < min || u > 0x10ffff || (u >= 0xd800 && u <= 0xdfff))
            {
              free (s);
              return jp_fail (jp, "invalid UTF-8 in a string");
            }
          s[len++] = '?';
          continue;
        }
      if (c != '\\')
        {
          s[len++] = (char) c;
          continue;
        }
      c = (unsigned char) *jp->p++;
      switch (c)
        {
        case '"': case '\\': case '/': s[len++] = (char) c; break;
        case 'b': s[len++] = '\b'; break;
        case 'f': s[len++] = '\f'; break;
        case 'n': s[len++] = '\n'; break;
        case 'r': s[len++] = '\r'; break;
        case 't': s[len++] = '\t'; break;
        case 'u':
          {
            unsigned int u = 0;
            for (int k = 0; k < 4; k++)
              {
                char h = *jp->p++;
                u <<= 4;
                if (h >= '0' && h <= '9')
                  u |= h - '0';
                else if (h >= 'a' && h <= 'f')
                  u |= h - 'a' + 10;
                else if (h >= 'A' && h <= 'F')
                  u |= h - 'A' + 10;
                else
                  {
                    free (s);
                    return jp_fail (jp, "bad \\u escape");
                  }
              }
            /* Enough for the tests: ASCII as is, the rest as '?'.  */
            s[len++] = u < 0x80 ? (char) u : '?';
            break;
          }
        default:
          free (s);
          return jp_fail (jp, "bad escape");
        }
    }
  s[len] = '\0';
  *out = s;
  return 0;
}

static int
jp_number (struct jparser *jp, struct jval *v)
{
  const char *start = jp->p;
  if (*jp->p == '-')
    jp->p++;
  if (*jp->p == '0')
    jp->p++;
  else if (*jp->p >= '1' && *jp->p <= '9')
    while (*jp->p >= '0' && *jp->p <= '9')
      jp->p++;
  else
    return jp_fail (jp, "bad number");
  int real = 0;
  if (*jp->p == '.' || *jp->p == 'e' || *jp->p == 'E')
    {
      real = 1;
      jp->p += strspn (jp->p, "0123456789.eE+-");
    }
  v->type = real ? J_REAL : J_INT;
  v->i = strtoll (start, NULL, 10);
  return 0;
}

static int
jp_value (struct jparser *jp, struct jval *v, int depth)
{
  memset (v, 0, sizeof *v);
  if (depth > 32)
    return jp_fail (jp, "nested too deep");
  jp_space (jp);
  char c = *jp->p;
  if (c == '{' || c == '[')
    {
      char close = c == '{' ? '}' : ']';
      v->type = c == '{' ? J_OBJ : J_ARR;
      jp->p++;
      jp_space (jp);
      if (*jp->p == close)
        {
          jp->p++;
          return 0;
        }
      for (;;)
        {
          v->items = realloc (v->items, (v->n + 1) * sizeof *v->items);
          if (v->type == J_OBJ)
            {
              v->keys = realloc (v->keys, (v->n + 1) * sizeof *v->keys);
              jp_space (jp);
              if (jp_string (jp, &v->keys[v->n]) != 0)
                return -1;
              for (size_t k = 0; k < v->n; k++)
                if (strcmp (v->keys[k], v->keys[v->n]) == 0)
                  return jp_fail (jp, "duplicate key");
              jp_space (jp);
              if (*jp->p++ != ':')
                return jp_fail (jp, "':' expected");
            }
          if (jp_value (jp, &v->items[v->n], depth + 1) != 0)
            return -1;
          v->n++;
          jp_space (jp);
          if (*jp->p == ',')
            {
              jp->p++;
              continue;
            }
          if (*jp->p++ == close)
            return 0;
          return jp_fail (jp, "',' or end expected");
        }
    }
  if (c == '"')
    {
      v->type = J_STR;
      return jp_string (jp, &v->s);
    }
  if (strncmp (jp->p, "true", 4) == 0 || strncmp (jp->p, "false", 5) == 0)
    {
      v->type = J_BOOL;
      v->i = c == 't';
      jp->p += c == 't' ? 4 : 5;
      return 0;
    }
  if (strncmp (jp->p, "null", 4) == 0)
    {
      v->type = J_NULL;
      jp->p += 4;
      return 0;
    }
  return jp_number (jp, v);
}

/* Parses TEXT; NULL with *ERR set when it is not one JSON value.  */
static struct jval *
json_parse (const char *text, const char **err)
{
  struct jparser jp = { text, NULL };
  struct jval *v = malloc (sizeof *v);
  if (jp_value (&jp, v, 0) == 0)
    {
      jp_space (&jp);
      if (*jp.p == '\0')
        return v;
      jp_fail (&jp, "text after the value");
    }
  *err = jp.err;
  return NULL;
}

/* Frees what json_parse returned.  Inline: info-check keeps its values
   until it exits and does not call it.  */
static inline void
json_free_value (struct jval *v)
{
  for (size_t i = 0; i < v->n; i++)
    {
      json_free_value (&v->items[i]);
      if (v->keys != NULL)
        free (v->keys[i]);
    }
  free (v->items);
  free (v->keys);
  free (v->s);
}

static inline void
json_free (struct jval *v)
{
  if (v != NULL)
    json_free_value (v);
  free (v);
}

/* The member KEY of object O, or NULL.  */
static const struct jval *
json_get (const struct jval *o, const char *key)
{
  if (o == NULL || o->type != J_OBJ)
    return NULL;
  for (size_t i = 0; i < o->n; i++)
    if (strcmp (o->keys[i], key) == 0)
      return &o->items[i];
  return NULL;
}

#endif
