/* Symbol lookup in an ELF image already mapped by the loader.
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

/* The shim must learn, while it is being relocated, whether the dynamic
   loader exports __rseq_offset (glibc 2.35+), and where the vDSO's getcpu
   is.  dlsym cannot be called then (the shim's PLT is not relocated yet),
   so the dynamic symbol table is read directly, and the loader is found
   without asking it.  */

#include <elf.h>
#include <link.h>

#include "shim.h"

#if UINTPTR_MAX > 0xffffffffu
# define ELFW(x) Elf64_##x
#else
# define ELFW(x) Elf32_##x
#endif

struct elf_image
{
  uintptr_t bias;
  /* The link-time addresses the object's PT_LOAD segments span, where
     its program headers were read (open_image); LO == HI where not.  */
  uintptr_t lo, hi;
  /* The kernel's vDSO: nobody relocates its dynamic section.  */
  int vdso;
  const ELFW(Sym) *symtab;
  const char *strtab;
  const uint32_t *hash;		/* DT_HASH */
  const uint32_t *gnu_hash;	/* DT_GNU_HASH */
};

/* glibc's loader adds the load bias to the d_ptr entries of every
   object it maps (elf_get_dynamic_info, in the dynamic section itself)
   but the vDSO's, whose section it cannot write (it relocates a copy);
   so does glibc's loader to its own.  musl's loader never does, nor
   does anyone to the vDSO's.  From glibc 2.35 on, a dynamic section in
   a read-only segment is left as it is too: the objects read through
   the loader's list here (libc.so.6, libpthread.so.0, libdl.so.2, the
   shim's copies) have writable ones.  Where the object's extent is
   known, a value that lies in exactly one of its link-time and its
   run-time span says which it is, whatever the loader.  Guesses read a
   bias away and crashed: "below the bias: not relocated" for a library
   linked at a fixed address and mapped below it, a bias that wraps
   (53rd review), "the reading nearer the dynamic section" for one
   mapped near it (54th review).  */
static const void *
dyn_ptr (const struct elf_image *img, uintptr_t value)
{
  if (img->bias == 0)
    return (const void *) value;
  uintptr_t moved = value + img->bias;
  if (img->hi > img->lo)
    {
      uintptr_t span = img->hi - img->lo;
      int link_time = value - img->lo < span;
      int run_time = value - img->bias - img->lo < span;
      if (link_time != run_time)
        return (const void *) (link_time ? moved : value);
    }
  return (const void *) (RSEQ_COMPAT_GLIBC && !img->vdso ? value : moved);
}

/* The image whose load bias is BIAS and whose dynamic section, already
   mapped, is at DYN; its extent as the caller set it.  */
static int
open_dynamic (struct elf_image *img, uintptr_t bias, const ELFW(Dyn) *dyn)
{
  img->bias = bias;
  img->symtab = NULL;
  img->strtab = NULL;
  img->hash = NULL;
  img->gnu_hash = NULL;
  for (; dyn->d_tag != DT_NULL; dyn++)
    switch (dyn->d_tag)
      {
      case DT_SYMTAB:
        img->symtab = dyn_ptr (img, dyn->d_un.d_ptr);
        break;
      case DT_STRTAB:
        img->strtab = dyn_ptr (img, dyn->d_un.d_ptr);
        break;
      case DT_HASH:
        img->hash = dyn_ptr (img, dyn->d_un.d_ptr);
        break;
      case DT_GNU_HASH:
        img->gnu_hash = dyn_ptr (img, dyn->d_un.d_ptr);
        break;
      }
  return img->symtab != NULL && img->strtab != NULL
         && (img->hash != NULL || img->gnu_hash != NULL);
}

/* The image whose ELF header is at BASE; VDSO: it is the kernel's.  */
static int
open_image (struct elf_image *img, uintptr_t base, int vdso)
{
  const ELFW(Ehdr) *eh = (const ELFW(Ehdr) *) base;
  if (eh->e_ident[EI_MAG0] != ELFMAG0 || eh->e_ident[EI_MAG1] != ELFMAG1
      || eh->e_ident[EI_MAG2] != ELFMAG2 || eh->e_ident[EI_MAG3] != ELFMAG3)
    return 0;

  const ELFW(Phdr) *ph = (const ELFW(Phdr) *) (base + eh->e_phoff);
  uintptr_t dyn = 0;
  uintptr_t first_load = UINTPTR_MAX, end = 0;
  for (int i = 0; i < eh->e_phnum; i++)
    {
      if (ph[i].p_type == PT_LOAD)
        {
          if (ph[i].p_vaddr < first_load)
            first_load = ph[i].p_vaddr;
          if (ph[i].p_vaddr + ph[i].p_memsz > end)
            end = ph[i].p_vaddr + ph[i].p_memsz;
        }
      else if (ph[i].p_type == PT_DYNAMIC)
        dyn = ph[i].p_vaddr;
    }
  if (dyn == 0 || first_load == UINTPTR_MAX || end <= first_load)
    return 0;
  img->lo = first_load;
  img->hi = end;
  img->vdso = vdso;
  /* The header sits at the start of the first PT_LOAD segment, which
     need not be at address 0 (a library linked at a fixed address).  */
  uintptr_t bias = base - (first_load & ~(uintptr_t) 0xfff);
  return open_dynamic (img, bias, (const ELFW(Dyn) *) (dyn + bias));
}

static int
same_name (const char *a, const char *b)
{
  while (*a != '\0' && *a == *b)
    a++, b++;
  return *a == *b;
}

static void *
match (const struct elf_image *img, uint32_t index, const char *name)
{
  const ELFW(Sym) *sym = &img->symtab[index];
  if (sym->st_shndx == SHN_UNDEF || sym->st_value == 0)
    return NULL;
  unsigned int type = ELF64_ST_TYPE (sym->st_info);
  if (type != STT_OBJECT && type != STT_FUNC && type != STT_NOTYPE)
    return NULL;
  unsigned int bind = ELF64_ST_BIND (sym->st_info);
  if (bind != STB_GLOBAL && bind != STB_WEAK)
    return NULL;
  if (!same_name (img->strtab + sym->st_name, name))
    return NULL;
  return (void *) (img->bias + sym->st_value);
}

static void *
lookup_gnu (const struct elf_image *img, const char *name)
{
  uint32_t h = 5381;
  for (const unsigned char *p = (const unsigned char *) name; *p; p++)
    h = h * 33 + *p;

  uint32_t nbuckets = img->gnu_hash[0];
  uint32_t symoffset = img->gnu_hash[1];
  uint32_t bloom_size = img->gnu_hash[2];
  const uintptr_t *bloom = (const uintptr_t *) &img->gnu_hash[4];
  const uint32_t *buckets = (const uint32_t *) &bloom[bloom_size];
  const uint32_t *chain = &buckets[nbuckets];
  if (nbuckets == 0)
    return NULL;

  for (uint32_t i = buckets[h % nbuckets]; i >= symoffset; i++)
    {
      uint32_t ch = chain[i - symoffset];
      if ((ch | 1) == (h | 1))
        {
          void *addr = match (img, i, name);
          if (addr != NULL)
            return addr;
        }
      if (ch & 1)
        break;
    }
  return NULL;
}

uint32_t
__rseq_compat_elf_hash (const char *name)
{
  uint32_t h = 0;
  for (const unsigned char *p = (const unsigned char *) name; *p; p++)
    {
      h = (h << 4) + *p;
      uint32_t g = h & 0xf0000000u;
      h ^= g >> 24;
      h &= ~g;
    }
  return h;
}

static void *
lookup_sysv (const struct elf_image *img, const char *name)
{
  uint32_t h = __rseq_compat_elf_hash (name);
  uint32_t nbuckets = img->hash[0];
  const uint32_t *buckets = &img->hash[2];
  const uint32_t *chain = &buckets[nbuckets];
  if (nbuckets == 0)
    return NULL;
  for (uint32_t i = buckets[h % nbuckets]; i != 0; i = chain[i])
    {
      void *addr = match (img, i, name);
      if (addr != NULL)
        return addr;
    }
  return NULL;
}

static void *
lookup (const struct elf_image *img, const char *name)
{
  if (img->gnu_hash != NULL)
    return lookup_gnu (img, name);
  return lookup_sysv (img, name);
}

void *
__rseq_compat_elf_sym (uintptr_t base, const char *name)
{
  struct elf_image img;
  if (base == 0 || !open_image (&img, base, 0))
    return NULL;
  return lookup (&img, name);
}

void *
__rseq_compat_elf_vdso_sym (uintptr_t base, const char *name)
{
  struct elf_image img;
  if (base == 0 || !open_image (&img, base, 1))
    return NULL;
  return lookup (&img, name);
}

int
__rseq_compat_elf_contains (uintptr_t base, const void *addr)
{
  struct elf_image img;
  return base != 0 && open_image (&img, base, 0)
         && (uintptr_t) addr - img.bias - img.lo < img.hi - img.lo;
}

void *
__rseq_compat_elf_sym_dyn (uintptr_t bias, const void *dynamic,
                           const char *name)
{
  struct elf_image img = { .lo = 0, .hi = 0, .vdso = 0 };
  if (dynamic == NULL || !open_dynamic (&img, bias, dynamic))
    return NULL;
  return lookup (&img, name);
}

int
__rseq_compat_elf_soname_is (uintptr_t bias, const void *dynamic,
                             const char *name)
{
  struct elf_image img = { .lo = 0, .hi = 0, .vdso = 0 };
  if (dynamic == NULL || !open_dynamic (&img, bias, dynamic))
    return 0;
  for (const ELFW(Dyn) *d = dynamic; d->d_tag != DT_NULL; d++)
    if (d->d_tag == DT_SONAME)
      return same_name (img.strtab + d->d_un.d_val, name);
  return 0;
}

/* The kernel names the dynamic loader in AT_BASE only when it loaded it
   as the program's interpreter.  Run as a command ("ld.so PROGRAM",
   glibc's testrun.sh), the loader is the program the kernel started:
   AT_BASE is 0, and glibc then rewrites AT_PHDR, AT_PHNUM and AT_ENTRY
   to describe PROGRAM while musl leaves them describing itself.  So
   neither says where the loader is.  The loader does, in its debugger
   interface: r_ldbase is its load address, filled before any library
   is loaded, in both glibc and musl, however they were started.

   The shim's own reference to _r_debug is no sure way to that struct: a
   program that uses _r_debug gets a COPY relocation for it, the shim
   binds to the program's copy, and the copy is made when the program is
   relocated, after the shim.  The DT_DEBUG entry of the program's
   dynamic section, which the loader points at its struct before loading
   anything, always leads to the original.  */
const struct r_debug *
__rseq_compat_loader_debug (uintptr_t phdr, unsigned long int phnum,
                            const struct r_debug *fallback)
{
  const ELFW(Phdr) *ph = (const ELFW(Phdr) *) phdr;
  uintptr_t bias = 0, dyn_vaddr = 0;
  int have_bias = 0;
  for (unsigned long int i = 0; ph != NULL && i < phnum; i++)
    if (ph[i].p_type == PT_PHDR)
      {
        /* Only a program (one with an interpreter) has PT_PHDR: when
           PHDR describes the loader itself, there is nothing to find.  */
        bias = phdr - ph[i].p_vaddr;
        have_bias = 1;
      }
    else if (ph[i].p_type == PT_DYNAMIC)
      dyn_vaddr = ph[i].p_vaddr;
  if (have_bias && dyn_vaddr != 0)
    for (const ELFW(Dyn) *d = (const ELFW(Dyn) *) (bias + dyn_vaddr);
         d->d_tag != DT_NULL; d++)
      if (d->d_tag == DT_DEBUG && d->d_un.d_ptr != 0)
        return (const struct r_debug *) d->d_un.d_ptr;
  return fallback;
}
