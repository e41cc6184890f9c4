/* Fuzz target: the environment and auxv walk (shim/boot.c) and the layout.
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

/* The input is text, one item a line: "a STRING" an argument, "e STRING"
   an environment entry, "x TAG VALUE" an auxv entry (numbers as strtoull
   reads them with base 0); other lines are ignored.  The target lays
   them out as the kernel's initial stack (argc, argv, NULL, envp, NULL,
   auxv, AT_NULL) in an exact-size heap block, so that ASan catches any
   read beyond it, and runs __rseq_compat_boot_from_stack over it.  An
   explicit "x 0 ..." ends auxv early, as AT_NULL does.

   The result is checked against a model: the last value of each auxv tag
   before AT_NULL (AT_BASE alone gives the loader's base: elf-sym.c finds
   a loader run as a command from AT_PHDR and AT_PHNUM, recorded as
   they are), GLIBC_TUNABLES applied definition by definition and ignored under
   AT_SECURE.  Then the layout computed from that auxv and fitted into the
   shim's area must be one the kernel and consumers accept: aligned to a
   power of two of at least 32, the length within the area, __rseq_size
   never 32 and never above the length once it exceeds 32.  */

#include <elf.h>
#include <string.h>

#include "fuzz.h"
#include "model.h"
#include "shim.h"

/* Start of the next line in [P, END), its length in *LEN.  */
static const char *
next_line (const char *p, const char *end, size_t *len)
{
  const char *nl = memchr (p, '\n', (size_t) (end - p));
  *len = (size_t) ((nl != NULL ? nl : end) - p);
  return p;
}

void
fuzz_one (const uint8_t *data, size_t size, char *out, size_t outlen)
{
  char *text = malloc (size + 1);
  FUZZ_CHECK (text != NULL, "out of memory");
  memcpy (text, data, size);
  text[size] = '\0';

  /* At most one stack word per input byte, plus the fixed ones.  */
  size_t cap = size + 8, nargs = 0, nenv = 0, naux = 0;
  char **args = calloc (cap, sizeof *args);
  char **env = calloc (cap, sizeof *env);
  uintptr_t *aux = calloc (2 * cap, sizeof *aux);
  FUZZ_CHECK (args != NULL && env != NULL && aux != NULL, "out of memory");

  const char *end = text + size;
  for (const char *p = text; p < end;)
    {
      size_t len;
      next_line (p, end, &len);
      char *line = (char *) p;
      p += len + 1;
      line[len] = '\0';		/* Cuts at an embedded NUL too.  */
      if (len < 2 || line[1] != ' ')
        continue;
      if (line[0] == 'a')
        args[nargs++] = line + 2;
      else if (line[0] == 'e')
        env[nenv++] = line + 2;
      else if (line[0] == 'x')
        {
          char *q;
          aux[2 * naux] = strtoull (line + 2, &q, 0);
          aux[2 * naux + 1] = strtoull (q, NULL, 0);
          naux++;
        }
    }

  size_t words = 1 + nargs + 1 + nenv + 1 + 2 * naux + 2;
  uintptr_t *stack = malloc (words * sizeof *stack);
  FUZZ_CHECK (stack != NULL, "out of memory");
  size_t w = 0;
  stack[w++] = nargs;
  for (size_t i = 0; i < nargs; i++)
    stack[w++] = (uintptr_t) args[i];
  stack[w++] = 0;
  for (size_t i = 0; i < nenv; i++)
    stack[w++] = (uintptr_t) env[i];
  stack[w++] = 0;
  memcpy (stack + w, aux, 2 * naux * sizeof *aux);
  w += 2 * naux;
  stack[w++] = AT_NULL;
  stack[w++] = 0;

  struct rseq_compat_boot boot;
  memset (&boot, 0xa5, sizeof boot);
  __rseq_compat_boot_from_stack (&boot, (char *const *) (stack + 1));

  /* The model.  */
  unsigned long int feature = 0, align = 0;
  uintptr_t base = 0, vdso = 0, phdr = 0, phnum = 0;
  int secure = 0;
  for (size_t i = 0; i < naux && aux[2 * i] != AT_NULL; i++)
    {
      uintptr_t v = aux[2 * i + 1];
      switch (aux[2 * i])
        {
        case 27: feature = v; break;
        case 28: align = v; break;
        case AT_BASE: base = v; break;
        case AT_SYSINFO_EHDR: vdso = v; break;
        case AT_PHDR: phdr = v; break;
        case AT_PHNUM: phnum = v; break;
        case AT_SECURE: secure = v != 0; break;
        }
    }
  int rseq = 1;
  for (size_t i = 0; i < nenv; i++)
    if (strncmp (env[i], "GLIBC_TUNABLES=", 15) == 0)
      rseq = model_rseq (env[i] + 15, rseq);
  int off = !secure && rseq == 0;

  FUZZ_CHECK (boot.at_feature_size == feature && boot.at_align == align
              && boot.loader_base == base && boot.vdso_base == vdso
              && boot.at_phdr == phdr && boot.at_phnum == phnum
              && boot.tunable_off == off,
              "boot: feature %lu align %lu base %#lx vdso %#lx phdr %#lx "
              "phnum %lu off %d; model %lu %lu %#lx %#lx %#lx %lu %d",
              boot.at_feature_size, boot.at_align,
              (unsigned long) boot.loader_base,
              (unsigned long) boot.vdso_base, (unsigned long) boot.at_phdr,
              boot.at_phnum, boot.tunable_off, feature, align,
              (unsigned long) base, (unsigned long) vdso,
              (unsigned long) phdr, (unsigned long) phnum, off);

  /* The layout the shim registers with, from that auxv.  */
  struct rseq_layout l;
  rseq_layout_compute (&l, boot.at_feature_size, boot.at_align);
  unsigned int wanted = l.public_size;
  int fell_back = rseq_layout_fit (&l, RSEQ_COMPAT_AREA_SIZE,
                                   RSEQ_COMPAT_AREA_ALIGN);
  FUZZ_CHECK (l.align >= 32 && (l.align & (l.align - 1)) == 0
              && l.align <= RSEQ_COMPAT_AREA_ALIGN
              && l.reg_len >= 32 && l.alloc_size >= l.reg_len
              && l.alloc_size % l.align == 0
              && l.alloc_size <= RSEQ_COMPAT_AREA_SIZE
              && l.public_size >= 20 && l.public_size != 32
              && (l.public_size < 32 ? l.reg_len == 32
                                     : l.reg_len == l.public_size)
              && (fell_back ? l.public_size <= 28 : l.public_size == wanted),
              "layout from auxv %lu/%lu: size %u len %u align %u alloc %u",
              boot.at_feature_size, boot.at_align, l.public_size, l.reg_len,
              l.align, l.alloc_size);
  /* The documented values: 20 without auxv, the feature size itself on
     Linux 6.3 to 6.19 (at most 28) and, whatever the alignment asked,
     33 on 7.0 and later when the alignment fits the area.  */
  unsigned long int expect = feature == 0 || feature > (1ul << 16) ? 20
                             : feature <= 20 ? 20 : feature;
  if (expect <= 28)
    FUZZ_CHECK (l.public_size == expect,
                "feature %lu align %lu: size %u, expected %lu", feature,
                align, l.public_size, expect);
  if (expect == 33 && align >= 32 && align <= RSEQ_COMPAT_AREA_ALIGN
      && (align & (align - 1)) == 0)
    FUZZ_CHECK (l.public_size == 33 && l.reg_len == 33 && !fell_back,
                "feature 33 align %lu: size %u len %u", align,
                l.public_size, l.reg_len);

  snprintf (out, outlen, "off=%d size=%u len=%u align=%u alloc=%u base=%#lx "
            "vdso=%#lx phdr=%#lx phnum=%lu", off, l.public_size, l.reg_len,
            l.align, l.alloc_size, (unsigned long) boot.loader_base,
            (unsigned long) boot.vdso_base, (unsigned long) boot.at_phdr,
            boot.at_phnum);
  free (stack);
  free (aux);
  free (env);
  free (args);
  free (text);
}
