/* The capacity of librseq-compat's per-thread rseq area.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Shared by the library (shim.h) and rseq-compat info, which predicts
   the registration the library chooses.  A kernel that wants more gets
   the 32-byte registration (rseq_layout_fit).  */

#ifndef RSEQ_COMPAT_AREA_SIZE_H
#define RSEQ_COMPAT_AREA_SIZE_H 1

#include <rseq-layout.h>

#define RSEQ_COMPAT_AREA_SIZE RSEQ_LAYOUT_FIXED_SIZE
#define RSEQ_COMPAT_AREA_ALIGN RSEQ_LAYOUT_FIXED_ALIGN

#endif
