/* The descriptor librseq-compat.a leaves in a static program.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Shared by the archive (static-start.c), which defines it, and
   rseq-compat info -p (collect-proc.c), which reads it in a static
   program whose symbol table was stripped: strip keeps the section
   headers and every allocated section, so the section's name still
   leads to the descriptor, and the descriptor to the archive's storage
   and to the __rseq_* the link resolved.  The archive's anchor
   (__rseq_compat_static, which the documented link lines name with -u)
   is an alias of the descriptor, so whatever links the archive, and any
   --gc-sections that keeps the anchor, keeps the descriptor.

   Addresses are link-time pointers in the archive and 64-bit words in
   the command, which reads only 64-bit programs of its own
   architecture.  */

#ifndef RSEQ_COMPAT_STATIC_DESC_H
#define RSEQ_COMPAT_STATIC_DESC_H 1

#include <stdint.h>

/* Writable: the pointers are relocated at start-up in a static-pie.  */
#define RSEQ_COMPAT_DESC_SECTION "rseq_compat_static"
/* The anchor's text (what the symbol read as a string has always
   said), NUL-padded to the field.  */
#define RSEQ_COMPAT_DESC_MAGIC "librseq-compat.a"
#define RSEQ_COMPAT_DESC_VERSION 1

/* Which C library the archive was built for.  */
#define RSEQ_COMPAT_DESC_GLIBC 1
#define RSEQ_COMPAT_DESC_MUSL 2

#ifndef RSEQ_COMPAT_DESC_ADDR
# define RSEQ_COMPAT_DESC_ADDR(type) type *
#endif

struct rseq_compat_static_desc
{
  char magic[24];
  uint32_t version;
  uint32_t libc;
  /* __rseq_offset, __rseq_size, __rseq_flags as the link resolved them:
     the archive's own (weak), or a static glibc 2.35 or later's.  */
  RSEQ_COMPAT_DESC_ADDR (const void) published[3];
  /* The archive's storage behind its own: equal to PUBLISHED where the
     archive's won.  */
  RSEQ_COMPAT_DESC_ADDR (const void) own[3];
};

#endif
