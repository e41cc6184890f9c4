/* A library whose initial-exec TLS has the size and alignment given on
   the command line (PROBE_SIZE, PROBE_ALIGN): dlopen.exp asks glibc's
   loader whether it would take one like the shim by dlopen, instead of
   a table of which glibc versions keep static TLS aligned enough.

   Copyright (C) 2026 The rseq-compat developers.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

__thread char rc_probe_tls[PROBE_SIZE]
  __attribute__ ((aligned (PROBE_ALIGN), tls_model ("initial-exec")));

char *
rc_probe (void)
{
  return rc_probe_tls;
}
