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

/* Each expectation is what the ld.so --list-tunables of glibc 2.41
   (Debian trixie) and 2.43 (sid) print for the value; more cases, with
   the environment and auxv around them, are in tests/fuzz/corpus.  */
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
    /* _dl_strtoul reads an empty number, a lone sign or "0x" as 0, and
       skips blanks (not newlines) before the sign.  */
    { "glibc.pthread.rseq=", 1 },
    { "glibc.pthread.rseq=-", 1 },
    { "glibc.pthread.rseq=0x", 1 },
    { "glibc.pthread.rseq= \t+0", 1 },
    { "glibc.pthread.rseq=\n0", 0 },
    /* Out of range or not a number: ignored, registration stays on.  */
    { "glibc.pthread.rseq=2", 0 },
    { "glibc.pthread.rseq=-1", 0 },
    { "glibc.pthread.rseq=0 ", 0 },
    { "glibc.pthread.rseq=08", 0 },
    { "glibc.pthread.rseq=0xg", 0 },
    { "glibc.pthread.rseq=99999999999999999999", 0 },
    { "glibc.pthread.rseq=\xc3\xa9", 0 },
    /* Truncated to 32 bits after the range check of 64.  */
    { "glibc.pthread.rseq=4294967296", 1 },
    { "glibc.pthread.rseq=0x100000000", 1 },
    { "glibc.pthread.rseq=-18446744069414584320", 1 },
    { "glibc.pthread.rseq=18446744073709551616", 0 },
    /* Other names, prefixes and extensions of the name.  */
    { "glibc.pthread.rse=0", 0 },
    { "glibc.pthread.rseqq=0", 0 },
    { "xglibc.pthread.rseq=0", 0 },
    { "GLIBC.PTHREAD.RSEQ=0", 0 },
    /* Among others, in any position.  */
    { "glibc.malloc.check=3:glibc.pthread.rseq=0", 1 },
    { "glibc.pthread.rseq=0:glibc.malloc.check=3", 1 },
    { "x:glibc.pthread.rseq=0", 1 },
    { "glibc.pthread.rseq=0::glibc.malloc.check=1", 1 },
    { "glibc.pthread.rseq=0:=1", 1 },
    /* The last item naming the tunable counts, even when invalid.  */
    { "glibc.pthread.rseq=0:glibc.pthread.rseq=1", 0 },
    { "glibc.pthread.rseq=1:glibc.pthread.rseq=0", 1 },
    { "glibc.pthread.rseq=0:glibc.pthread.rseq=7", 0 },
    /* A malformed value is ignored as a whole.  */
    { "glibc.pthread.rseq", 0 },
    { "glibc.pthread.rseq=0:", 0 },
    { ":::glibc.pthread.rseq=0:::", 0 },
    { "glibc.pthread.rseq=0:foo", 0 },
    { "a=b=c:glibc.pthread.rseq=0", 0 },
    { "glibc.pthread.rseq=0=0", 0 },
    { "=:=:=", 0 },
    /* So is one that asks for secure mode.  */
    { "glibc.rtld.enable_secure=1:glibc.pthread.rseq=0", 0 },
    { "glibc.pthread.rseq=0:glibc.rtld.enable_secure=0x1", 0 },
    { "glibc.pthread.rseq=0:glibc.rtld.enable_secure=0", 1 },
    { "glibc.rtld.enable_secure=1:glibc.rtld.enable_secure=0:"
      "glibc.pthread.rseq=0", 1 },
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

  /* Several definitions in the environment: each applies in turn, and a
     rejected one leaves the previous state.  */
  static char *const env1[] = { "GLIBC_TUNABLES=glibc.pthread.rseq=0",
                                "GLIBC_TUNABLES=glibc.pthread.rseq=1", NULL };
  static char *const env2[] = { "GLIBC_TUNABLES=glibc.pthread.rseq=1",
                                "GLIBC_TUNABLES=glibc.pthread.rseq=0", NULL };
  static char *const env3[] = { "GLIBC_TUNABLES=glibc.pthread.rseq=0",
                                "GLIBC_TUNABLES=glibc.pthread.rseq=7",
                                "GLIBC_TUNABLES=x=y=z",
                                "GLIBC_TUNABLES", "PATH=/bin", NULL };
  static char *const env4[] = { "GLIBC_TUNABLES =glibc.pthread.rseq=0",
                                "glibc_tunables=glibc.pthread.rseq=0", NULL };
  CHECK (__rseq_compat_env_tunable_off (env1) == 0, "0 then 1");
  CHECK (__rseq_compat_env_tunable_off (env2) == 1, "1 then 0");
  CHECK (__rseq_compat_env_tunable_off (env3) == 1, "0 then rejected ones");
  CHECK (__rseq_compat_env_tunable_off (env4) == 0, "other names");
  CHECK (__rseq_compat_env_tunable_off (NULL) == 0, "no environment");
  return rt_exit_status ();
}
