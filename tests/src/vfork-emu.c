/* A library whose vfork is a fork, as some emulations are.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* differential.exp links differential-vforkemu with it: under the shim,
   the program's vfork reaches the shim first, which must not take this
   one for glibc's own (it may use any call-clobbered register).  */

#include <unistd.h>

pid_t
vfork (void)
{
  return fork ();
}
