/* Making the shim's __rseq_* visible to dlsym (RTLD_NEXT).
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

/* librseq and the kernel's selftests look for a C library registration
   with dlsym (RTLD_NEXT, "__rseq_size") from their own library, which
   the loader places after a preloaded shim; RTLD_NEXT searches only the
   objects after the caller, so they would miss the shim, register their
   own area and fail.  The shim's dlsym (stubs.S) answers those three
   names itself when the C library has none, and passes every other call
   on with a jump, so the C library still sees the original caller.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/auxv.h>

#include "shim.h"

/* The shim's pthread_create, under a name that binds to it (thread.c).  */
extern __typeof (pthread_create) __rseq_compat_pthread_create
  attribute_hidden;
extern int __rseq_compat_thrd_create (pthread_t *, int (*) (void *), void *)
  attribute_hidden;

void *(*__rseq_compat_real_dlsym) (void *, const char *);

#if !RSEQ_COMPAT_GLIBC
/* musl's own pointer to its struct r_debug, for debuggers.  */
extern struct r_debug *_dl_debug_addr __attribute__ ((weak));
#endif

/* Used only if the C library's dlsym cannot be found, which would leave
   no sane answer: behave like a lookup that failed.  */
static void *
no_dlsym (void *handle, const char *name)
{
  (void) handle;
  (void) name;
  return NULL;
}

static void *(*find_real_dlsym (void)) (void *, const char *)
{
  void *real = NULL;
#if RSEQ_COMPAT_GLIBC
  /* The shim's own reference to "dlsym" would bind to the shim.  Before
     glibc 2.34 dlsym lived in libdl.so.2 under the architecture's base
     version; 2.34 moved it into libc.so.6 as GLIBC_2.34 and kept the
     base version there for old binaries, the same function.  So the
     base version first: it is found everywhere, and the lookup must not
     fail.  A failed dlvsym leaves an error message, malloc'ed, that the
     next one frees; the first call here comes from whoever calls dlsym
     first, and AddressSanitizer does while it sets up its interceptors,
     when its free of such early memory calls a memset it has not looked
     up yet: with the GLIBC_2.34 lookup first, every ASan program died at
     start-up under the shim on glibc 2.31 (make check-sanitize-bullseye
     found it).  */
  real = dlvsym (RTLD_NEXT, "dlsym", RSEQ_COMPAT_GLIBC_BASE_VERSION);
  if (real == NULL)
    real = dlvsym (RTLD_NEXT, "dlsym", "GLIBC_2.34");
  /* A shim linked after libdl (cc main.c -ldl -lrseq-compat, before
     glibc 2.34) has libdl ahead of it, where RTLD_NEXT does not look:
     without this every lookup failed for good, pthread_create's too,
     and no thread could be created (link-order.exp).  A versioned
     lookup in the whole scope cannot return the shim's own dlsym,
     which has no version.  */
  if (real == NULL)
    real = dlvsym (RTLD_DEFAULT, "dlsym", RSEQ_COMPAT_GLIBC_BASE_VERSION);
  if (real == NULL)
    real = dlvsym (RTLD_DEFAULT, "dlsym", "GLIBC_2.34");
#else
  /* musl's dynamic loader is libc.so itself, and has no dlvsym.  Run
     as a command it gets no AT_BASE (elf-sym.c); its own pointer to its
     debugger interface then still says where it is.  */
  uintptr_t base = getauxval (AT_BASE);
  if (base == 0)
    {
      const struct r_debug *dbg
        = __rseq_compat_loader_debug (getauxval (AT_PHDR),
                                      getauxval (AT_PHNUM),
                                      &_dl_debug_addr != NULL
                                      ? _dl_debug_addr : NULL);
      if (dbg != NULL)
        base = dbg->r_ldbase;
    }
  real = __rseq_compat_elf_sym (base, "dlsym");
#endif
  return real != NULL ? (void *(*) (void *, const char *)) real : no_dlsym;
}

static void
ensure_real_dlsym (void)
{
  /* Racing first calls store the same pointer.  */
  if (__atomic_load_n (&__rseq_compat_real_dlsym, __ATOMIC_ACQUIRE) == NULL)
    __atomic_store_n (&__rseq_compat_real_dlsym, find_real_dlsym (),
                      __ATOMIC_RELEASE);
}

/* Whether A and B are the same string.  Not strcmp: the hook runs for
   every dlsym, AddressSanitizer's first ones included, which it makes
   before its interceptor of strcmp has the real function (gcc 16's
   runtime calls through a null pointer then: the shim's check was the
   first strcmp of the process; make check-matrix on sid found it).  */
static int
same_string (const char *a, const char *b)
{
  while (*a != '\0' && *a == *b)
    a++, b++;
  return *a == *b;
}

/* The C library's handle: a reference the loader never unloads, so it
   is taken once and kept.  */
static void *
libc_handle (void)
{
  static void *libc;
  void *h = __atomic_load_n (&libc, __ATOMIC_ACQUIRE);
  if (h == NULL)
    {
      h = dlopen ("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
      __atomic_store_n (&libc, h, __ATOMIC_RELEASE);
    }
  return h;
}

/* Leaves dlerror the message of a failed lookup of NAME, as a program
   without the shim would find it: a lookup in the C library's handle.
   The failed RTLD_NEXT lookup before it leaves none on glibc 2.17.  */
static void
fail_lookup (const char *name)
{
  void *h = libc_handle ();
  if (h != NULL)
    __rseq_compat_real_dlsym (h, name);
}

/* Whether the hooks may look both creators up (thread.c): not before
   the shim's constructor has, since sanitizer runtimes look their
   interceptors up with dlsym while they start, before it, and in a
   sanitized build of the shim (make check-sanitize) the first call into
   thread.c's instrumented code crashed TSan's runtime, not yet
   started.  Read here, in the hook's own code, for that reason.  A
   lookup the constructor window needs is made at the creation.  */
static int
creators_ready (void)
{
#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC
  return __atomic_load_n (&__rseq_compat_creators_ready, __ATOMIC_ACQUIRE);
#else
  return 0;
#endif
}

/* The shim's own definition of NAME where NAME starts threads
   (pthread_create, C11's thrd_create), or NULL.  */
static void *
own_creator (const char *name)
{
  if (same_string (name, "pthread_create"))
    return (void *) &__rseq_compat_pthread_create;
  if (same_string (name, "thrd_create"))
    return (void *) &__rseq_compat_thrd_create;
  return NULL;
}

/* The hook's answer "no such symbol": the stub returns NULL for it.  */
attribute_hidden char __rseq_compat_dlsym_none;

/* Called by the dlsym stub.  Returns the answer for the names the shim
   owns, &__rseq_compat_dlsym_none for a lookup that must fail, or NULL
   to let the C library answer.  */
attribute_hidden void *
__rseq_compat_dlsym_hook (void *handle, const char *name)
{
  ensure_real_dlsym ();
  if (name == NULL)
    return NULL;
  /* Before glibc 2.34 a program without libpthread has no
     pthread_create but the shim's, and programs look it up to tell
     whether threads are available (glibc's elf/tst-dlopenfail does, and
     so do libraries that start threads only where the program has
     them).  A lookup that finds the shim's answers as it would without
     the shim: the shim's where the global scope has a definition after
     it (so that the threads it starts are registered), nothing where
     it has none, even if libpthread is loaded outside it (a dependency
     of a library dlopened with RTLD_LOCAL; glibc keeps it, as
     tst-dlopenfail checks).  That lookup, failing, leaves dlerror a
     message naming the symbol.  A library dlopened with RTLD_LOCAL that
     needs libpthread itself would find it through its own scope
     without the shim, and gets nothing here (doc/using.md).  So too
     thrd_create before glibc 2.28, which has none.  */
  void *own = own_creator (name);
  if (own != NULL && creators_ready ())
    __rseq_compat_creators_resolve ();
  if (handle != RTLD_NEXT && own != NULL
      && __rseq_compat_real_dlsym (handle, name) == own
      && __rseq_compat_next (name) == NULL)
    {
      fail_lookup (name);
      return &__rseq_compat_dlsym_none;
    }
  /* A lookup in a handle (dlopen of libpthread.so.0 or of the C
     library: the only way to threads for a program not linked with
     libpthread before glibc 2.34) bypasses interposition and would
     start threads the shim never registers, while __rseq_size promises
     every thread is.  The answer is the C library's own function, so
     the shim's, which calls it, is equivalent.  RTLD_DEFAULT and
     RTLD_NEXT lookups already find the shim's where they should.  Where
     the C library owns the area the shim's adds nothing: the lookup is
     left alone.  */
  if (__rseq_compat_state.own_area
      && handle != RTLD_NEXT && handle != RTLD_DEFAULT && own != NULL)
    return __rseq_compat_own_create (__rseq_compat_real_dlsym (handle, name));
  if (handle != RTLD_NEXT || !__rseq_compat_state.answer_rtld_next
      || strncmp (name, "__rseq_", 7) != 0)
    return NULL;
  if (strcmp (name + 7, "offset") == 0)
    return &__rseq_compat_offset;
  if (strcmp (name + 7, "size") == 0)
    return &__rseq_compat_size;
  if (strcmp (name + 7, "flags") == 0)
    return &__rseq_compat_flags;
  return NULL;
}

#if RSEQ_COMPAT_GLIBC
void *(*__rseq_compat_real_dlvsym) (void *, const char *, const char *);
#if defined __x86_64__
attribute_hidden void *__rseq_compat_libc_vfork_sym;
#endif

/* Used only if the C library's dlvsym cannot be found.  */
static void *
no_dlvsym (void *handle, const char *name, const char *version)
{
  (void) handle;
  (void) name;
  (void) version;
  return NULL;
}

/* Whether the object PATH names is SONAME: its last path component.  */
static int
names_object (const char *path, const char *soname)
{
  const char *base = path;
  for (const char *p = path; *p != '\0'; p++)
    if (*p == '/')
      base = p + 1;
  return same_string (base, soname);
}

/* The C library's dlvsym, read from the dynamic symbol table of the
   object that defines it: not through a call of dlvsym, which from
   inside the shim reaches the shim's own (it comes first in the global
   scope), and not through dlopen or dl_iterate_phdr, which
   AddressSanitizer intercepts and calls through a null pointer while
   it looks its own functions up with dlvsym (make check's ASan
   program died so).  The loader's list of objects needs no call at
   all.  libdl.so.2 defines dlvsym before glibc 2.34; from 2.34
   libc.so.6 does, under GLIBC_2.34 and the base version, one function,
   and libdl.so.2 is an empty stub.  */
static void *(*find_real_dlvsym (const struct r_debug *dbg))
  (void *, const char *, const char *)
{
  static const char *const sonames[] = { "libdl.so.2", "libc.so.6" };
  for (size_t i = 0; dbg != NULL && i < sizeof sonames / sizeof sonames[0];
       i++)
    for (const struct link_map *m = dbg->r_map; m != NULL; m = m->l_next)
      if (m->l_name != NULL && names_object (m->l_name, sonames[i]))
        {
          void *sym = __rseq_compat_elf_sym_dyn (m->l_addr, m->l_ld,
                                                 "dlvsym");
          if (sym != NULL)
            return (void *(*) (void *, const char *, const char *)) sym;
        }
  return no_dlvsym;
}

/* At start-up, or inside the dlopen that loads the shim, from its
   first code (early.c): the loader's list cannot change under the walk
   then, as it could later while another thread dlcloses.  Nothing here
   calls through the PLT.  */
attribute_hidden void
__rseq_compat_init_dlvsym (const struct r_debug *dbg)
{
  if (dbg != NULL)
    __atomic_store_n (&__rseq_compat_real_dlvsym, find_real_dlvsym (dbg),
                      __ATOMIC_RELEASE);
#if defined __x86_64__
  /* libc.so.6's own vfork, for the stub before glibc 2.25 (thread.c):
     read here, from its symbol table, not by dlopen, which before the C
     library's own initialization (the shim's constructor runs first)
     left glibc 2.17 with no environment at all, and not by RTLD_NEXT,
     which may find a library's vfork written in C.  */
  for (const struct link_map *m = dbg != NULL ? dbg->r_map : NULL;
       m != NULL; m = m->l_next)
    if (m->l_name != NULL && names_object (m->l_name, "libc.so.6"))
      {
        __rseq_compat_libc_vfork_sym
          = __rseq_compat_elf_sym_dyn (m->l_addr, m->l_ld, "vfork");
        break;
      }
#endif
}

/* This object's dynamic section, and its load bias: the address of its
   ELF header, since the shim is linked at address 0.  Hidden, so that
   both are addressed relative to the code.  */
extern const ElfW(Dyn) own_dynamic[] __asm__ ("_DYNAMIC") attribute_hidden;
extern const ElfW(Ehdr) own_ehdr __asm__ ("__ehdr_start") attribute_hidden;

/* Whether a versioned lookup of NAME for VERSION would crash in glibc
   on the shim's own definition.  glibc keeps no version record for the
   unversioned definitions of a versioned object (the interposed
   functions, librseq-compat.map): their record has hash 0 and no name.
   It compares the hash of the version asked for with the record's
   before the names, so a version whose ELF hash is 0 ("" is) made it
   call strcmp on that NULL name, and dlvsym (handle, "pthread_create",
   "") ended every process that had the shim (eighty-sixth review, F3).
   Without the shim such a lookup fails, the C library's definitions
   all having versions, unless an object without versions defines NAME
   first (unversioned_first).  */
static int
crashing_version (const char *name, const char *version)
{
  return version != NULL && __rseq_compat_elf_hash (version) == 0
         && __rseq_compat_elf_sym_dyn ((uintptr_t) &own_ehdr, own_dynamic,
                                       name) != NULL;
}

/* dl_iterate_phdr's callback: whether the object that contains
   P->addr has no symbol versions (no DT_VERSYM), in P->unversioned.  */
struct versioned_query
{
  uintptr_t addr;
  int unversioned;
};

static int
unversioned_cb (struct dl_phdr_info *info, size_t size, void *p)
{
  struct versioned_query *q = p;
  const ElfW(Dyn) *dyn = NULL;
  int inside = 0;
  (void) size;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_LOAD
          && q->addr - (info->dlpi_addr + ph->p_vaddr) < ph->p_memsz)
        inside = 1;
      else if (ph->p_type == PT_DYNAMIC)
        dyn = (const ElfW(Dyn) *) (info->dlpi_addr + ph->p_vaddr);
    }
  if (!inside)
    return 0;
  q->unversioned = dyn != NULL;
  for (; dyn != NULL && dyn->d_tag != DT_NULL; dyn++)
    if (dyn->d_tag == DT_VERSYM)
      q->unversioned = 0;
  return 1;
}

/* The answer to such a lookup in HANDLE (not RTLD_NEXT) where it
   cannot reach the shim's definition: glibc checks the definitions of
   NAME in HANDLE's search order, and accepts any version from an
   object without symbol versions.  So if the first definition there
   (an unversioned lookup, which cannot crash) is not the shim's and
   its object has no versions, that is the answer, as without the shim
   (a library dlopened with RTLD_LOCAL that defines getcpu so:
   eighty-sixth review's second round, F1).  Otherwise NULL: the search
   meets the shim's first, or may meet it after a versioned object.  */
static void *
unversioned_first (void *handle, const char *name)
{
  void *first = __rseq_compat_real_dlsym (handle, name);
  if (first == NULL
      || __rseq_compat_elf_contains ((uintptr_t) &own_ehdr, first))
    return NULL;
  struct versioned_query q = { (uintptr_t) first, 0 };
  dl_iterate_phdr (unversioned_cb, &q);
  return q.unversioned ? first : NULL;
}

/* Called by the dlvsym stub; the answer, &__rseq_compat_dlsym_none
   for a lookup that must fail, or NULL to let the C library
   answer.  A versioned lookup never finds the shim's pthread_create,
   which has no version (librseq-compat.map): without this, a thread
   started through dlvsym (handle, "pthread_create", "GLIBC_2.2.5")
   runs unregistered while __rseq_size promises every thread is.  The C
   library's own function is answered with the shim's, which calls it,
   where the shim owns the area; an RTLD_NEXT lookup is left to the C
   library, whose answer depends on the caller, which only the jump
   keeps.  */
attribute_hidden void *
__rseq_compat_dlvsym_hook (void *handle, const char *name,
                           const char *version)
{
  /* Found at start-up; a process whose loader the shim could not find
     then looks once more, from the auxiliary vector.  */
  if (__atomic_load_n (&__rseq_compat_real_dlvsym, __ATOMIC_ACQUIRE) == NULL)
    __atomic_store_n (&__rseq_compat_real_dlvsym,
                      find_real_dlvsym (__rseq_compat_loader_debug
                                        (getauxval (AT_PHDR),
                                         getauxval (AT_PHNUM), NULL)),
                      __ATOMIC_RELEASE);
  if (name == NULL)
    return NULL;
  if (crashing_version (name, version))
    {
      /* Made from here, an RTLD_NEXT lookup starts after the shim and
         cannot meet its definitions: its answer, and what its failure
         leaves in dlerror (nothing on glibc 2.17), are the C library's
         own.  Any other fails with the message of that failed lookup
         in the C library's handle, where no definition can crash it.  */
      if (handle == RTLD_NEXT)
        {
          void *found = __rseq_compat_real_dlvsym (RTLD_NEXT, name, version);
          return found != NULL ? found : &__rseq_compat_dlsym_none;
        }
      void *found = unversioned_first (handle, name);
      if (found != NULL)
        return found;
      void *libc = libc_handle ();
      if (libc != NULL)
        __rseq_compat_real_dlvsym (libc, name, version);
      return &__rseq_compat_dlsym_none;
    }
  if (own_creator (name) == NULL)
    return NULL;
  if (creators_ready ())
    __rseq_compat_creators_resolve ();
  if (handle == RTLD_NEXT || !__rseq_compat_state.own_area)
    return NULL;
  return __rseq_compat_own_create (__rseq_compat_real_dlvsym (handle, name,
                                                              version));
}
#endif

#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC
/* The first definition of NAME in an object after this copy in its
   namespace's list, or else before it, read from the symbol tables, or
   NULL.  In a
   namespace that dlmopen made, glibc before 2.34 ends the process on
   any lookup that fails, dlsym and dlopen alike (the loader's error is
   caught only by the main namespace's libdl): a copy there that looked
   up pthread_attr_getsigmask_np, or pthread_create without libpthread,
   took the program down inside dlmopen, exit 127 (94th review, F1).
   And a dlsym (RTLD_NEXT) there searches only the dependencies of the
   object dlmopen loaded, not a libpthread dlmopened into the namespace
   later, which this list shows (95th review, F4): so no dlsym is made
   there at all.  dladdr1 fails without raising.  */
static void *
defined_after_self (const char *name)
{
  Dl_info info;
  struct link_map *self = NULL;
  if (dladdr1 ((void *) &__rseq_compat_state, &info, (void **) &self,
               RTLD_DL_LINKMAP) == 0
      || self == NULL)
    return NULL;
  for (const struct link_map *m = self->l_next; m != NULL; m = m->l_next)
    {
      void *fn = __rseq_compat_elf_sym_dyn (m->l_addr, m->l_ld, name);
      if (fn != NULL)
        return fn;
    }
  /* Then those before it: a C library dlmopened into the namespace
     before the library that needs the shim (96th review, F5: its
     pthread_create failed with EAGAIN where it runs without the
     shim).  */
  for (const struct link_map *m = self->l_prev; m != NULL; m = m->l_prev)
    {
      void *fn = __rseq_compat_elf_sym_dyn (m->l_addr, m->l_ld, name);
      if (fn != NULL)
        return fn;
    }
  return NULL;
}
#endif

/* The next definition of NAME after the shim, for the shim's wrappers.  */
void *
__rseq_compat_next (const char *name)
{
#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC
  if (__rseq_compat_state.other_namespace)
    return defined_after_self (name);
#endif
  ensure_real_dlsym ();
  return __rseq_compat_real_dlsym (RTLD_NEXT, name);
}

/* RTLD_NEXT searches only the global scope.  A library dlopened with
   RTLD_LOCAL brings its dependencies in outside that scope, yet its
   calls to the functions the shim interposes still come to the shim,
   first in the global scope; before glibc 2.34 pthread_create is
   defined only in libpthread.so.0, so a plugin linked with libpthread
   in a program that is not gets there.  The call then comes from an
   object that has SONAME loaded, and a handle of the loaded object finds
   the definition.  Only an object the loader never unloads may be named
   here (libpthread is DF_1_NODELETE), since callers keep the address.
   musl and glibc 2.34 and later define pthread_create in the C library,
   which every scope has: the first lookup finds it.  */
#if RSEQ_COMPAT_GLIBC
/* dl_iterate_phdr's callback: whether an object whose file name starts
   as SONAME's does (libpthread.so.0, or libpthread-2.31.so opened by
   its path) is loaded.  */
static int
loaded_cb (struct dl_phdr_info *info, size_t size, void *p)
{
  const char *prefix = p;
  (void) size;
  if (info->dlpi_name == NULL)
    return 0;
  const char *base = info->dlpi_name;
  for (const char *c = base; *c != '\0'; c++)
    if (*c == '/')
      base = c + 1;
  /* By hand, as same_string: no string function of the C library's,
     which a sanitizer may intercept.  */
  while (*prefix != '\0' && *prefix == *base)
    prefix++, base++;
  return *prefix == '\0';
}

/* Whether SONAME may be loaded, for the dlsym and dlvsym hooks' lookup
   of both creators (thread.c).  dlopen with RTLD_NOLOAD of a name not
   loaded still searches the library path for it, opening ld.so.cache
   and each candidate file: a process that forbids open after start-up
   (a seccomp sandbox) died at its next lookup of pthread_create or
   thrd_create (eighty-fourth review, F1).  By file name, which may
   say yes wrongly (then the search is made, as before) or no wrongly
   (libpthread opened under another name: then the hook makes no lookup,
   and a thread's first creation makes it, as before fix63).  The walk
   takes only the loader's list lock.  Only after the shim's
   constructor: sanitizer runtimes that intercept dl_iterate_phdr
   (TSan, MSan) are started by then.  */
attribute_hidden int
__rseq_compat_may_be_loaded (const char *soname)
{
  char prefix[32];
  size_t n = 0;
  while (soname[n] != '\0' && soname[n] != '.' && soname[n] != '-'
         && n + 1 < sizeof prefix)
    {
      prefix[n] = soname[n];
      n++;
    }
  prefix[n] = '\0';
  return dl_iterate_phdr (loaded_cb, prefix) != 0;
}
#endif

void *
__rseq_compat_next_or_in (const char *name, const char *soname)
{
  void *fn = __rseq_compat_next (name);
#if RSEQ_COMPAT_GLIBC
  /* A dlopen that finds nothing is as fatal as a failed dlsym in
     another namespace (above), and the definition, if any, is in an
     object of the namespace's list, which __rseq_compat_next read.  */
  if (fn == NULL && soname != NULL && !__rseq_compat_state.other_namespace)
    {
      /* A successful dlopen also discards the failed lookup's dlerror
         message, which the caller would otherwise see as its own.  */
      void *handle = dlopen (soname, RTLD_LAZY | RTLD_NOLOAD);
      if (handle != NULL)
        {
          fn = __rseq_compat_real_dlsym (handle, name);
          dlclose (handle);
        }
    }
#else
  (void) soname;
#endif
  return fn;
}
