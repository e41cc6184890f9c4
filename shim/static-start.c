/* Registering a static program's main thread before its constructors.
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

/* The shared library registers the main thread from a constructor of
   priority 101 in an object initialised first (init.c).  A static
   program has one object, whose constructors run in the order of
   their sections, and a section the program shares with the archive
   holds the program's entries first (its objects come first on the
   link line), so the archive takes a slot no program uses:

   - glibc runs .preinit_array before .init_array in a static program
     (static-pie included), after its TLS and its own rseq
     registration are set up.  A program's own .preinit_array entries
     still run before the archive's: sched_getcpu, getcpu and
     pthread_create are made safe there (getcpu.c, thread.c);
   - musl never runs .preinit_array: its __libc_start_main calls _init
     (crti.o's .init section, closed by crtn.o's) and then walks
     .init_array.  Code placed in .init therefore runs before every
     constructor, whatever its priority (0 to 100 included, which sort
     before anything a later object adds to .init_array.00100 or
     later, and tie with the program's at equal priority); crti.o's
     prologue leaves the stack aligned for a call.  A link without
     crti.o (-nostartfiles, left out) never runs .init: the entry in
     .init_array.00000, the earliest priority, is there for it, and
     runs after the program's own priority-0 entries only in such a
     link.  __rseq_compat_static_init runs once, whichever comes
     first.  */

#include "shim.h"

/* What the link line names with -Wl,-u (pkg-config --static, and
   doc/static.md), and what <rseq-compat.h> refers to strongly under
   RSEQ_COMPAT_STATIC_LINK, so that the archive is linked although the
   program refers to none of its other symbols (or only weakly, as the
   header does).  Defined in the archive alone: the shared library does
   not export it, so the same -u in a dynamic link names a symbol that
   nothing defines, which the linkers ignore.  (-u rseq_compat_mode,
   defined by the shared library too, fails a dynamic link with GNU ld
   2.40 in a program that refers to it weakly: --as-needed drops the
   library that only a weak reference needs, and the -u is left
   undefined.)  */
#include "static-desc.h"

extern const ptrdiff_t __rseq_offset;
extern const unsigned int __rseq_size;
extern const unsigned int __rseq_flags;

/* What rseq-compat info -p reads where the program's symbol table was
   stripped (static-desc.h).  The anchor is this descriptor under the
   name the link lines use, so it is linked and kept with it; read as a
   string, it says "librseq-compat.a" as it always has.  */
attribute_hidden __attribute__ ((section (RSEQ_COMPAT_DESC_SECTION), used))
struct rseq_compat_static_desc __rseq_compat_static_desc =
  {
    .magic = RSEQ_COMPAT_DESC_MAGIC,
    .version = RSEQ_COMPAT_DESC_VERSION,
#if RSEQ_COMPAT_GLIBC
    .libc = RSEQ_COMPAT_DESC_GLIBC,
#else
    .libc = RSEQ_COMPAT_DESC_MUSL,
#endif
    .published = { &__rseq_offset, &__rseq_size, &__rseq_flags },
    .own = { &__rseq_compat_offset, &__rseq_compat_size,
             &__rseq_compat_flags },
  };
extern const char __rseq_compat_static[sizeof (RSEQ_COMPAT_DESC_MAGIC)]
  __attribute__ ((alias ("__rseq_compat_static_desc"))) attribute_public;

#if RSEQ_COMPAT_GLIBC
typedef void init_fn (void);

static init_fn *const early_init
  __attribute__ ((section (".preinit_array"), used))
  = __rseq_compat_static_init;
#else
# if defined __x86_64__
#  define CALL_INSN "call"
#  define SECTION_TYPE "@progbits"
# elif defined __aarch64__
#  define CALL_INSN "bl"
#  define SECTION_TYPE "%progbits"
# else
#  error "a call instruction for .init"
# endif
__asm__ (".pushsection .init, \"ax\", " SECTION_TYPE "\n\t"
         CALL_INSN " __rseq_compat_static_init\n\t"
         ".popsection");

typedef void init_fn (void);

static init_fn *const fallback_init
  __attribute__ ((section (".init_array.00000"), used))
  = __rseq_compat_static_init;
#endif
