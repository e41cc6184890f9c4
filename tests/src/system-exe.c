/* A program, built as an executable and as a PIE, for system.exp: no
   loader loads either as a library, so enable --system must refuse
   each where another $LIB's shim's file would be (the 123rd review's
   3: a PIE passed).
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

int
main (void)
{
  return 0;
}
