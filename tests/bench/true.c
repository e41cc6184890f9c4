/* The trivial program that benchmark 4 starts over and over.
   Copyright (C) 2026 The rseq-compat developers.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

int
main (void)
{
  return 0;
}
