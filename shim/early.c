/* Deciding the shim's mode and publishing __rseq_* before anyone reads them.
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

/* Three facts of the loaders fix when this must run (rseq-facts §3):
   constructors of a program's DT_NEEDED libraries run before a
   preloaded library's; a non-PIE program copies __rseq_* into its own
   RELRO when it is relocated, after every library; and glibc's own
   registration, if any, happened before any library was relocated.  So
   on glibc the decision is taken inside an IFUNC resolver, which the
   loader calls while relocating the shim itself, and the values are
   stored in the shim's RELRO before it is write-protected.  musl
   supports no IFUNC but runs a preloaded library's constructors first;
   there the constructor decides.  */

#include <elf.h>
#include <errno.h>
#include <link.h>

#include "shim.h"

struct rseq_compat_state __rseq_compat_state;

/* glibc places these in RELRO: write-protected once the shim is
   relocated, and a program's COPY of them lands in its RELRO too.  On
   musl the constructor writes them, so they stay writable, and so does
   the archive, whose start-up code (static-start.c) writes them.  */
#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC
# define PUBLISHED __attribute__ ((section (".data.rel.ro.rseq_compat")))
#else
# define PUBLISHED
#endif

/* In the archive the three symbols are weak: a static glibc 2.35 or
   later defines them itself, strong, in a libc.a member that every
   static program links (its TLS set-up refers to it), so the C
   library's win without a duplicate-symbol error, and static-libc.c
   then finds that they are not the archive's.  */
#if RSEQ_COMPAT_STATIC
# define PUBLIC_ABI attribute_public __attribute__ ((weak))
#else
# define PUBLIC_ABI attribute_public
#endif

/* Initialized, so that they are definitions: with gcc before 10
   (-fcommon) a tentative one is a common symbol, which the aliases
   below cannot name.  */
ptrdiff_t __rseq_compat_offset PUBLISHED = 0;
unsigned int __rseq_compat_size PUBLISHED = 0;
unsigned int __rseq_compat_flags PUBLISHED = 0;

extern const ptrdiff_t __rseq_offset
  __attribute__ ((alias ("__rseq_compat_offset"))) PUBLIC_ABI;
extern const unsigned int __rseq_size
  __attribute__ ((alias ("__rseq_compat_size"))) PUBLIC_ABI;
extern const unsigned int __rseq_flags
  __attribute__ ((alias ("__rseq_compat_flags"))) PUBLIC_ABI;

#if RSEQ_COMPAT_STATIC
/* A static program holds one copy of the archive (one member, linked
   once), and its C library's __rseq_* are resolved by the linker, not
   exported by a loader.  */
# define earlier_copy(boot) ((void) (boot), 0)
# define libc_ahead(boot) ((void) (boot), 0)

static int
libc_abi (const struct rseq_compat_boot *boot, const ptrdiff_t **offset,
          const unsigned int **size)
{
  (void) boot;
  return __rseq_compat_static_libc_abi (offset, size);
}
#else
/* This copy's dynamic section, provided by the linker.  Hidden, so
   that it is addressed relative to the code, never through the GOT,
   which is not relocated yet when the IFUNC resolver runs (<link.h>
   of glibc declares _DYNAMIC without a visibility).  */
extern const ElfW(Dyn) self_dynamic[] __asm__ ("_DYNAMIC") attribute_hidden;

/* Two copies of the shim can be loaded at once: preloaded from two
   paths, or preloaded from one and linked (DT_NEEDED) from another
   where the loader did not match the sonames.  The loaders tell objects
   apart by file, so both stay.  Every program and library binds to
   the first copy in the search order, and only that one may act: a
   later copy that also registered would take the main thread's
   registration from it when its constructor ran first (the first
   copy's area then never registered), and on musl its constructor
   would overwrite the first copy's __rseq_* through the GOT, which
   leads to the first copy's definitions.

   earlier_copy returns 1 if a copy comes before this one (an object
   named like the shim that defines rseq_compat_query), after storing
   that copy's entry points in the state.  The loaders describe an
   object by its load bias and its dynamic section, and that is how it
   is read: the bias is the address of the ELF header only for objects
   linked at address 0, and a library linked at a fixed address may be
   loaded right there, with bias 0.  This copy is the object whose
   dynamic section is its own (_DYNAMIC).  Only objects whose file name
   has "librseq-compat" in it are looked into.  */

static int
named_like_shim (const char *path)
{
  static const char want[] = "librseq-compat";
  if (path == NULL)
    return 0;
  /* No libc call: at the IFUNC's time the PLT is not relocated.  */
  for (; *path != '\0'; path++)
    {
      size_t i = 0;
      while (want[i] != '\0' && path[i] == want[i])
        i++;
      if (want[i] == '\0')
        return 1;
    }
  return 0;
}

static int
adopt_copy (const char *name, uintptr_t bias, const ElfW(Dyn) *dyn)
{
  struct rseq_compat_state *st = &__rseq_compat_state;
  if (dyn == NULL || !named_like_shim (name))
    return 0;
  st->primary_query = __rseq_compat_elf_sym_dyn (bias, dyn,
                                                 "rseq_compat_query");
  if (st->primary_query == NULL)
    return 0;
  st->primary_mode = __rseq_compat_elf_sym_dyn (bias, dyn,
                                                "rseq_compat_mode");
  return 1;
}

#if RSEQ_COMPAT_GLIBC
static int
earlier_copy (const struct rseq_compat_boot *boot)
{
  /* The loader's list of objects is complete before any relocation,
     in search order; nothing here may call through the PLT.  l_ld is
     the dynamic section's run-time address.  */
  for (const struct link_map *m = boot->loader_debug->r_map; m != NULL;
       m = m->l_next)
    {
      if (m->l_ld == self_dynamic)
        return 0;
      if (adopt_copy (m->l_name, m->l_addr, m->l_ld))
        return 1;
    }
  return 0;
}
#else
/* The run-time address of the dynamic section of the object INFO
   describes, NULL where it has none.  */
static const ElfW(Dyn) *
info_dynamic (const struct dl_phdr_info *info)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      return (const ElfW(Dyn) *) (info->dlpi_addr
                                  + info->dlpi_phdr[i].p_vaddr);
  return NULL;
}

static int
copy_search_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  int *found = data;
  (void) size;
  const ElfW(Dyn) *dyn = info_dynamic (info);
  if (dyn == self_dynamic)
    return 1;
  *found = adopt_copy (info->dlpi_name, info->dlpi_addr, dyn);
  return *found;
}

static int
earlier_copy (const struct rseq_compat_boot *boot)
{
  (void) boot;
  /* musl decides in a constructor, where dl_iterate_phdr may be called;
     it lists the objects in search order.  */
  int found = 0;
  dl_iterate_phdr (copy_search_cb, &found);
  return found;
}
#endif

/* Every caller reaches the first definition in the search order, so
   the shim's pthread_create, vfork and clone take effect only where it
   comes before the C library's objects: preloaded, or linked by the
   program ahead of them.  A program linked with -lpthread or -lc
   before -lrseq-compat, or one that has the shim only through a
   library it links (which the loader places after the C library),
   would have its threads start unregistered while __rseq_size said
   registered (51st review).  libc_ahead returns 1 where a C library
   object comes first; the shim then refuses, as when it is dlopened.  The program's own
   object (the first) does not count: a definition there is its own
   choice, as a preloaded wrapper's is (sanitizer runtimes forward to
   the next definition, which is the shim's).  */
#if RSEQ_COMPAT_GLIBC
/* glibc's objects by their DT_SONAME, where they define pthread_create:
   libpthread.so.0 before 2.34, libc.so.6 since (the libpthread.so.0 of
   2.34 and later is an empty stub, which does not count).  A libc.so.6
   ahead of the shim before 2.34 takes vfork and clone alone: the
   threads still reach the shim, and a vfork child then reads its
   parent's cpu_id, as under glibc 2.35 and later without the shim, so
   that is no reason to refuse (52nd review: a library linking the shim
   and -pthread, in a program that does not, was refused).  At the
   IFUNC's time, as earlier_copy: no call through the PLT.  */
static int
libc_ahead (const struct rseq_compat_boot *boot)
{
  const struct link_map *m = boot->loader_debug->r_map;
  for (m = m != NULL ? m->l_next : NULL; m != NULL; m = m->l_next)
    {
      if (m->l_ld == self_dynamic)
        return 0;
      /* The vDSO is in the list, and glibc relocates its dynamic
         section only in a copy (elf-sym.c).  */
      if (__rseq_compat_elf_contains (boot->vdso_base, m->l_ld))
        continue;
      if ((__rseq_compat_elf_soname_is (m->l_addr, m->l_ld, "libc.so.6")
           || __rseq_compat_elf_soname_is (m->l_addr, m->l_ld,
                                           "libpthread.so.0"))
          && __rseq_compat_elf_sym_dyn (m->l_addr, m->l_ld,
                                        "pthread_create") != NULL)
        return 1;
    }
  return 0;
}
#else
struct ahead_search
{
  int index, found;
};

/* musl's libc.so has no DT_SONAME; it is the one object that defines
   both __libc_start_main and pthread_create.  */
static int
ahead_search_cb (struct dl_phdr_info *info, size_t size, void *data)
{
  struct ahead_search *q = data;
  (void) size;
  const ElfW(Dyn) *dyn = info_dynamic (info);
  if (dyn == self_dynamic)
    return 1;
  if (q->index++ == 0 || dyn == NULL)
    return 0;
  q->found = __rseq_compat_elf_sym_dyn (info->dlpi_addr, dyn,
                                        "__libc_start_main") != NULL
             && __rseq_compat_elf_sym_dyn (info->dlpi_addr, dyn,
                                           "pthread_create") != NULL;
  return q->found;
}

static int
libc_ahead (const struct rseq_compat_boot *boot)
{
  (void) boot;
  struct ahead_search q = { 0, 0 };
  dl_iterate_phdr (ahead_search_cb, &q);
  return q.found;
}
#endif

/* The loader's __rseq_offset and __rseq_size (glibc 2.35 and later,
   and RHEL 9's 2.34), found in its dynamic symbol table.  Returns 1 if
   it exports them.  */
static int
libc_abi (const struct rseq_compat_boot *boot, const ptrdiff_t **offset,
          const unsigned int **size)
{
  *offset = __rseq_compat_elf_sym (boot->loader_base, "__rseq_offset");
  *size = __rseq_compat_elf_sym (boot->loader_base, "__rseq_size");
  return *offset != NULL && *size != NULL;
}
#endif

/* Scratch area for probing the kernel: the thread's real area cannot be
   used before its TLS block is initialised.  */
static struct rseq_compat_area probe_area;

long int
__rseq_compat_sys_rseq (void *area, unsigned int len, int flags)
{
  return rseq_compat_syscall4 (RSEQ_COMPAT_NR_rseq, (long int) area, len,
                               flags, RSEQ_SIG);
}

/* Unregisters AREA, LEN bytes, for this thread: 0 or a negative
   errno.  A real unregistration has the kernel write cpu_id -1 before
   it answers, and nothing writes the area after it; a 0 that leaves a
   CPU number there came from a seccomp filter or a tracer that skipped
   the call (SECCOMP_RET_ERRNO with 0), the registration still live:
   told as -EPERM, a refusal (69th to 71st reviews: taken for done, it
   let musl unmap a live area, and vfork clear glibc's).  */
long int
__rseq_compat_sys_unregister (void *area, unsigned int len)
{
  long int ret = __rseq_compat_sys_rseq (area, len, RSEQ_FLAG_UNREGISTER);
  if (ret == 0
      && (int32_t) __atomic_load_n (&((struct rseq *) area)->cpu_id,
                                    __ATOMIC_RELAXED) >= 0)
    ret = -EPERM;
  return ret;
}

/* Whether this thread may register LAYOUT's area and take the
   registration back.  Returns 0 or a negative errno.

   The probe registers a scratch area, and only an unregistration
   undoes that: a seccomp filter (or a tracer) that refuses or fakes
   unregistrations while it lets registrations through, as an allowlist
   written by watching glibc 2.35 and later would (glibc never
   unregisters), left the kernel writing into the scratch area for the
   rest of the main thread's life, its real registration refused
   (cpu_id -2 under a nonzero __rseq_size), and on musl every detached
   thread kept at its exit (71st review).  So the unregistration is
   tried first, where the kernel itself can only answer EINVAL (this
   area is not registered); any other answer, 0 included, is such a
   filter's, and the process runs as the C library alone would,
   unregistered (EPERM stands for a faked 0).  A filter that answers
   the second unregistration otherwise than the first leaves the
   scratch area registered all the same; it is told too.  */
static long int
probe (const struct rseq_layout *layout)
{
  long int ret = __rseq_compat_sys_rseq (&probe_area, layout->reg_len,
                                         RSEQ_FLAG_UNREGISTER);
  if (ret != -EINVAL)
    return ret == 0 ? -EPERM : ret;
  probe_area.abi.cpu_id = (uint32_t) RSEQ_CPU_ID_UNINITIALIZED;
  ret = __rseq_compat_sys_rseq (&probe_area, layout->reg_len, 0);
  if (ret != 0)
    return ret;
  return __rseq_compat_sys_unregister (&probe_area, layout->reg_len);
}

#if RSEQ_COMPAT_STATIC
/* glibc registered nothing: 1 if it chose not to, although the kernel
   would have taken the registration.  glibc 2.35 to 2.38 read
   GLIBC_TUNABLES more loosely than tunables.c (glibc.pthread.rseq=0:,
   =0junk, =0=1 turn registration off there), so the static program's
   own glibc is asked instead, through the kernel: rseq (NULL, 0, 0)
   fails with EINVAL where the system call exists and is allowed
   (ENOSYS or EPERM from old kernels, emulators and sandboxes, where
   glibc's registration failed).  The shared library keeps the reader's
   answer alone.  */
static int
libc_declined (void)
{
  return __rseq_compat_sys_rseq (NULL, 0, 0) == -EINVAL;
}
#else
# define libc_declined() 0
#endif

/* glibc 2.35 and later (and RHEL 9's 2.34) register in the dynamic
   loader, or in a static program's start-up code, and export the
   result.  Returns 1 if they do.  */
static int
adopt_libc (const struct rseq_compat_boot *boot, int tunable_off)
{
  struct rseq_compat_state *st = &__rseq_compat_state;
  const ptrdiff_t *libc_offset;
  const unsigned int *libc_size;
  if (!libc_abi (boot, &libc_offset, &libc_size))
    return 0;

  __rseq_compat_offset = *libc_offset;
  if (*libc_size != 0)
    {
      __rseq_compat_size = rseq_layout_effective_size (*libc_size);
      st->libc_reg_len = rseq_layout_libc_reg_len (*libc_size);
      /* The mode last, as in __rseq_compat_decide: a fork child that
         takes the decision over keeps a decided mode, and the values
         that go with it must be there.  */
      __atomic_store_n (&st->mode, RSEQ_COMPAT_MODE_LIBC_OWNED,
                        __ATOMIC_RELEASE);
    }
  else if (!boot->startup)
    /* glibc registers nothing, and the threads already run: the shim
       cannot take over either.  */
    st->mode = RSEQ_COMPAT_MODE_REFUSED;
  else
    {
      st->libc_loose_off = boot->tunable_off_loose;
      st->mode = tunable_off || libc_declined ()
                 ? RSEQ_COMPAT_MODE_DISABLED : RSEQ_COMPAT_MODE_UNAVAILABLE;
    }
  return 1;
}

void
__rseq_compat_decide (const struct rseq_compat_boot *boot)
{
  struct rseq_compat_state *st = &__rseq_compat_state;
  int tunable_off = boot->tunable_off;

#ifdef RSEQ_COMPAT_VDSO_GETCPU
  st->vdso_getcpu = __rseq_compat_elf_vdso_sym (boot->vdso_base,
                                                RSEQ_COMPAT_VDSO_GETCPU);
#endif

  rseq_layout_compute (&st->layout, boot->at_feature_size, boot->at_align);
  rseq_layout_fit (&st->layout, RSEQ_COMPAT_AREA_SIZE,
                   RSEQ_COMPAT_AREA_ALIGN);

  __rseq_compat_flags = 0;
  __rseq_compat_size = 0;
  __rseq_compat_offset = (char *) &__rseq_compat_area
                         - rseq_compat_thread_pointer ();

  /* A second copy registers, probes and wraps nothing; its
     rseq_compat_mode and rseq_compat_query answer for the first copy.
     Its own __rseq_* (which only a lookup in its own handle finds)
     repeat the first copy's where it can know them: glibc's when glibc
     registers, and on musl what the first copy's constructor, which
     runs before, published (init.c).  Otherwise, on glibc before 2.35
     where this copy is relocated before the first one decides, they say
     "nothing registered" at this copy's area, where cpu_id stays -1.  */
  if (earlier_copy (boot))
    {
#if RSEQ_COMPAT_GLIBC
      const ptrdiff_t *libc_offset;
      const unsigned int *libc_size;
      if (libc_abi (boot, &libc_offset, &libc_size))
        {
          __rseq_compat_offset = *libc_offset;
          __rseq_compat_size = rseq_layout_effective_size (*libc_size);
        }
#endif
      return;
    }

  /* The archive asks on musl too: a musl that registered rseq itself
     would define the symbols, and would win over the archive's weak
     ones as glibc does.  */
  if ((RSEQ_COMPAT_GLIBC || RSEQ_COMPAT_STATIC)
      && adopt_libc (boot, tunable_off))
    return;

  st->answer_rtld_next = 1;
  st->own_area = boot->startup;
  if (!boot->startup)
    st->mode = RSEQ_COMPAT_MODE_REFUSED;
  else if (libc_ahead (boot))
    {
      st->own_area = 0;
      st->late_link = 1;
      st->mode = RSEQ_COMPAT_MODE_REFUSED;
    }
  else if (tunable_off)
    st->mode = RSEQ_COMPAT_MODE_DISABLED;
  else
    {
      long int ret = probe (&st->layout);
      /* A kernel that rejects the longer registration still takes the
         one every kernel since 4.18 knows.  */
      if (ret == -EINVAL && st->layout.reg_len != RSEQ_LAYOUT_LEGACY_LEN
          && rseq_layout_fit (&st->layout, RSEQ_LAYOUT_LEGACY_LEN,
                              RSEQ_LAYOUT_LEGACY_ALIGN))
        ret = probe (&st->layout);
      /* The mode last: a fork child that takes over a decision made
         in its parent (init.c) keeps what the mode says was decided.  */
      if (ret == 0)
        {
          /* After the offset: a reader that sees the size nonzero
             (rseq-compat.h tests it before it loads the offset) must
             see the offset too, even on a weakly ordered machine.  */
          __atomic_store_n (&__rseq_compat_size, st->layout.public_size,
                            __ATOMIC_RELEASE);
          __atomic_store_n (&st->mode, RSEQ_COMPAT_MODE_SHIM_OWNED,
                            __ATOMIC_RELEASE);
        }
      else
        {
          st->probe_errno = (int) -ret;
          __atomic_store_n (&st->mode, RSEQ_COMPAT_MODE_UNAVAILABLE,
                            __ATOMIC_RELEASE);
        }
    }
}

#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC
/* The resolver of a never-called function whose only purpose is to have
   the loader run __rseq_compat_decide while relocating the shim: after
   TLS layout and the thread pointer are set up and glibc's own
   registration is done, before any constructor and before the program's
   COPY relocations.  */

extern void *__libc_stack_end;

static void
early_anchor_impl (void)
{
}

/* Whether this copy is in the main namespace's list of objects, which
   is all the loader's r_debug lists: a copy that dlmopen loads into
   another namespace is not there.  */
static int
in_main_namespace (const struct r_debug *dbg)
{
  for (const struct link_map *m = dbg->r_map; m != NULL; m = m->l_next)
    if (m->l_ld == self_dynamic)
      return 1;
  return 0;
}

static __attribute__ ((used)) void (*early_anchor_resolver (void)) (void)
{
  /* The loader may call this more than once: on AArch64 the linker
     gives the anchor a GOT entry besides the pointer below, each with
     its own IRELATIVE relocation.  Deciding twice would probe the
     kernel twice.  */
  static unsigned char decided;
  if (decided)
    return early_anchor_impl;
  decided = 1;

  struct rseq_compat_boot boot;
  /* The kernel's initial stack: argc, argv[], NULL, envp[], NULL, auxv.
     Unlike environ it is valid this early, and it is what glibc itself
     parsed GLIBC_TUNABLES from.  */
  __rseq_compat_boot_from_stack (&boot, (char **) __libc_stack_end + 1);

  boot.loader_debug = __rseq_compat_loader_debug (boot.at_phdr,
                                                  boot.at_phnum, &_r_debug);
  __rseq_compat_init_dlvsym (boot.loader_debug);
  if (boot.loader_base == 0)
    boot.loader_base = boot.loader_debug->r_ldbase;

  /* At start-up the loader reports its link map as being built
     (RT_ADD) and libc has not set environ; within dlopen the map is
     consistent and environ is set.  A program's COPY of environ, still
     0 at this point, does not matter: it is set before any dlopen.  */
  extern char **environ;
  boot.startup = boot.loader_debug->r_state == RT_ADD && environ == NULL;
  __rseq_compat_state.other_namespace
    = !in_main_namespace (boot.loader_debug);

  __rseq_compat_decide (&boot);
  return early_anchor_impl;
}

/* Hidden rather than static: clang 14 emits a static IFUNC as a global
   dynamic symbol, and a second copy of the shim would then bind its
   anchor to the first copy's, whose resolver has not run yet.  */
extern void __rseq_compat_early_anchor_fn (void) attribute_hidden;
void __rseq_compat_early_anchor_fn (void)
  __attribute__ ((ifunc ("early_anchor_resolver"), used));

/* Taking the address forces an IRELATIVE relocation in .rela.dyn, which
   the loader resolves eagerly, even under lazy binding.  */
void (*const __rseq_compat_early_anchor) (void) attribute_hidden
  __attribute__ ((used)) = __rseq_compat_early_anchor_fn;
#endif
