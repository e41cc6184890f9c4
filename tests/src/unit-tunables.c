/* Unit test of the GLIBC_TUNABLES reader (shim/tunables.c).
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

#include "rtest.h"

#include "shim.h"

static const struct
{
  const char *value;
  int off;
} cases[] =
  {
    { NULL, 0 },
    { "", 0 },
    { "glibc.pthread.rseq=0", 1 },
    { "glibc.pthread.rseq=1", 0 },
    { "glibc.pthread.rseq=00", 1 },
    { "glibc.pthread.rseq=0x0", 1 },
    { "glibc.pthread.rseq=0x1", 0 },
    /* Out of range or not a number: ignored, registration stays on.  */
    { "glibc.pthread.rseq=2", 0 },
    { "glibc.pthread.rseq=-1", 0 },
    { "glibc.pthread.rseq=", 0 },
    { "glibc.pthread.rseq=0x", 0 },
    { "glibc.pthread.rseq=0 ", 0 },
    { "glibc.pthread.rseq=08", 0 },
    { "glibc.pthread.rseq=99999999999999999999", 0 },
    { "glibc.pthread.rseq=\xc3\xa9", 0 },
    { "glibc.pthread.rseq", 0 },
    /* Other names, prefixes and extensions of the name.  */
    { "glibc.pthread.rse=0", 0 },
    { "glibc.pthread.rseqq=0", 0 },
    { "xglibc.pthread.rseq=0", 0 },
    { "GLIBC.PTHREAD.RSEQ=0", 0 },
    /* Among others, in any position; the last valid item wins.  */
    { "glibc.malloc.check=3:glibc.pthread.rseq=0", 1 },
    { "glibc.pthread.rseq=0:glibc.malloc.check=3", 1 },
    { "glibc.pthread.rseq=0:glibc.pthread.rseq=1", 0 },
    { "glibc.pthread.rseq=1:glibc.pthread.rseq=0", 1 },
    { "glibc.pthread.rseq=0:glibc.pthread.rseq=7", 1 },
    { ":::glibc.pthread.rseq=0:::", 1 },
    { "a=b=c:glibc.pthread.rseq=0", 1 },
    { "glibc.pthread.rseq=0=0", 0 },
    { "=:=:=", 0 },
  };

int
main (void)
{
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      int off = __rseq_compat_tunable_off (cases[i].value);
      CHECK (off == cases[i].off, "\"%s\": off %d, expected %d",
             cases[i].value ? cases[i].value : "(null)", off, cases[i].off);
    }

  /* A long value with the item at the end.  */
  static char big[1 << 16];
  memset (big, 'x', sizeof big);
  static const char tail[] = ":glibc.pthread.rseq=0";
  memcpy (big + sizeof big - sizeof tail, tail, sizeof tail);
  CHECK (__rseq_compat_tunable_off (big) == 1, "64 KiB value");
  return rt_exit_status ();
}
