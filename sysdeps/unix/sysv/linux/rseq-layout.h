/* Registration length, area alignment and __rseq_size for rseq.  Linux version.
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

/* This is the single place that decides how big an rseq area is, how it
   is aligned, which length is passed to the kernel and what __rseq_size
   publishes.  The preloadable shim (shim/) and the glibc backport
   (nptl/, elf/) both include it, so the two can never disagree.

   Everything here is freestanding: it runs inside an IFUNC resolver and
   inside the dynamic loader before relocation, where no library call is
   possible.  */

#ifndef _RSEQ_LAYOUT_H
#define _RSEQ_LAYOUT_H 1

/* The registration every kernel since 4.18 accepts: 32 bytes at 32-byte
   alignment.  On 7.0 and later this length also selects the legacy mode
   (IDs rewritten after every preemption).  */
#define RSEQ_LAYOUT_LEGACY_LEN 32u
#define RSEQ_LAYOUT_LEGACY_ALIGN 32u

/* Fields of the original ABI end at flags (offset 16 + 4).  Kernels
   before 6.3 publish no AT_RSEQ_FEATURE_SIZE and give exactly these.  */
#define RSEQ_LAYOUT_ORIG_SIZE 20u

/* offsetofend (struct rseq, mm_cid): the most a 32-byte registration can
   ever expose, whatever the kernel's feature size.  */
#define RSEQ_LAYOUT_LEGACY_MAX_SIZE 28u

/* The room a fixed-size area (the shim's TLS block, the glibc series'
   struct pthread member) reserves: enough for every kernel so far
   (7.0 registers 33 bytes at 64-byte alignment).  A kernel that wants
   more gets the legacy registration through rseq_layout_fit.  */
#define RSEQ_LAYOUT_FIXED_SIZE 64u
#define RSEQ_LAYOUT_FIXED_ALIGN 64u

/* auxv tags, absent before Linux 6.3 (getauxval then answers 0).  */
#define RSEQ_LAYOUT_AT_FEATURE_SIZE 27
#define RSEQ_LAYOUT_AT_ALIGN 28

struct rseq_layout
{
  /* Bytes the kernel may write, as it advertises them (0: unknown).  */
  unsigned int feature_size;
  /* Alignment of the area.  Never below 32.  */
  unsigned int align;
  /* Bytes to reserve for the area (a multiple of ALIGN).  */
  unsigned int alloc_size;
  /* LEN argument of the rseq system call.  */
  unsigned int reg_len;
  /* Value of __rseq_size while the thread is registered.  Never 32:
     glibc 2.35 to 2.39 published 32 meaning 20, and consumers still
     read 32 that way.  */
  unsigned int public_size;
};

static inline unsigned int
rseq_layout_roundup (unsigned int value, unsigned int align)
{
  return (value + align - 1) & ~(align - 1);
}

/* Power of two, at least 32.  A kernel advertising anything else is not
   trusted and the legacy alignment is used.  */
static inline unsigned int
rseq_layout_sanitize_align (unsigned long int at_align)
{
  if (at_align < RSEQ_LAYOUT_LEGACY_ALIGN || at_align > (1ul << 16)
      || (at_align & (at_align - 1)) != 0)
    return RSEQ_LAYOUT_LEGACY_ALIGN;
  return (unsigned int) at_align;
}

/* The layout glibc 2.41 and later choose, given what auxv says
   (AT_FEATURE and AT_ALIGN are 0 when absent).  The kernel accepts a
   length other than 32 only from 6.3 on, and selects its optimized mode
   for lengths above 32, so 32 stays the length whenever the feature size
   fits in it.  */
static inline void
rseq_layout_compute (struct rseq_layout *l, unsigned long int at_feature,
                     unsigned long int at_align)
{
  unsigned int feature = at_feature > (1ul << 16) ? 0 : (unsigned int) at_feature;

  l->feature_size = feature;
  l->public_size = feature > RSEQ_LAYOUT_ORIG_SIZE
                   ? feature : RSEQ_LAYOUT_ORIG_SIZE;
  l->reg_len = l->public_size > RSEQ_LAYOUT_LEGACY_LEN
               ? l->public_size : RSEQ_LAYOUT_LEGACY_LEN;
  l->align = rseq_layout_sanitize_align (at_align);
  /* Lengths above 32 need the feature size's power-of-two alignment
     (64 for 33 on 7.0): never trust an AT_ALIGN that says less.  */
  while (l->align < l->reg_len)
    l->align *= 2;
  l->alloc_size = rseq_layout_roundup (l->reg_len, l->align);
  if (l->public_size == RSEQ_LAYOUT_LEGACY_LEN)
    /* A kernel whose feature size is exactly 32 cannot exist (7.0 added
       a reserved byte to avoid it); refuse the ambiguous value anyway.  */
    l->public_size = RSEQ_LAYOUT_LEGACY_MAX_SIZE;
}

/* rseq_layout_compute with the values of the auxiliary vector AUXV
   (type and value words in pairs, up to AT_NULL), for the C library's
   own start-up code, which runs before getauxval can.  */
static inline void
rseq_layout_from_auxv (struct rseq_layout *l, const unsigned long int *auxv)
{
  unsigned long int at_feature = 0;
  unsigned long int at_align = 0;
  for (; auxv != NULL && auxv[0] != 0; auxv += 2)
    if (auxv[0] == RSEQ_LAYOUT_AT_FEATURE_SIZE)
      at_feature = auxv[1];
    else if (auxv[0] == RSEQ_LAYOUT_AT_ALIGN)
      at_align = auxv[1];
  rseq_layout_compute (l, at_feature, at_align);
}

/* Shrink L to the legacy 32-byte registration when the caller can only
   offer CAP_SIZE bytes at CAP_ALIGN alignment.  Returns nonzero if the
   layout had to fall back.  */
static inline int
rseq_layout_fit (struct rseq_layout *l, unsigned int cap_size,
                 unsigned int cap_align)
{
  if (l->alloc_size <= cap_size && l->align <= cap_align)
    return 0;
  l->reg_len = RSEQ_LAYOUT_LEGACY_LEN;
  l->align = RSEQ_LAYOUT_LEGACY_ALIGN;
  l->alloc_size = RSEQ_LAYOUT_LEGACY_LEN;
  if (l->public_size > RSEQ_LAYOUT_LEGACY_MAX_SIZE)
    l->public_size = RSEQ_LAYOUT_LEGACY_MAX_SIZE;
  return 1;
}

/* The length a C library that publishes PUBLISHED (non-zero) registered
   with: glibc 2.35 to 2.40 always 32, glibc 2.41 and later the feature
   size when it exceeds 32.  */
static inline unsigned int
rseq_layout_libc_reg_len (unsigned int published)
{
  return published > RSEQ_LAYOUT_LEGACY_LEN ? published
                                             : RSEQ_LAYOUT_LEGACY_LEN;
}

/* Whether the kernel runs a registration of REG_LEN bytes in its
   optimized mode (IDs written only when they change, user writes to them
   fatal), given its AT_FEATURE (0 when absent).  Only kernels whose
   feature size exceeds 32 (Linux 7.0 and later) have that mode, and they
   keep the legacy one for length 32; before 7.0 every registration gets
   the one behaviour there is, the legacy one, whatever its length (6.3
   to 6.19 accept lengths other than 32).  */
static inline int
rseq_layout_optimized (unsigned long int at_feature, unsigned int reg_len)
{
  return at_feature > RSEQ_LAYOUT_LEGACY_LEN
         && reg_len > RSEQ_LAYOUT_LEGACY_LEN;
}

/* The meaning of a published __rseq_size for a consumer: glibc 2.35 to
   2.39 published 32 for the original 20-byte feature set.  */
static inline unsigned int
rseq_layout_effective_size (unsigned int published)
{
  return published == RSEQ_LAYOUT_LEGACY_LEN ? RSEQ_LAYOUT_ORIG_SIZE
                                             : published;
}

#endif /* rseq-layout.h */
