/* dlsym for __rseq_* in a static program: -Wl,--wrap=dlsym.
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

/* librseq finds the C library's registration with
   dlsym (RTLD_NEXT, "__rseq_offset") and its two siblings; where it
   finds nothing it registers an area of its own, which the kernel
   refuses once the archive has registered the thread (EINVAL), so
   librseq linked into a static program failed where the same program
   without the archive worked (musl).  A dynamic program finds the
   shim's symbols there; a static one has no symbol table to search,
   so the link line's -Wl,--wrap=dlsym sends the program's dlsym calls
   here, and the three names are answered as the shared library's
   would be: for RTLD_DEFAULT and RTLD_NEXT, where the archive's own
   __rseq_* are the program's.  A static glibc 2.35 or later has its
   own, for which the archive steps aside: as glibc alone, its dlsym
   answers.

   A member of the archive of its own, outside the one that holds the
   rest: only a link whose objects call dlsym under --wrap=dlsym
   refers to __wrap_dlsym and takes it, and only that link then needs
   the C library's dlsym (libdl.a before glibc 2.34, which such a
   program links already).  It reaches the rest through the public
   anchor, the descriptor of static-desc.h.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <string.h>

#include "static-desc.h"

extern const struct rseq_compat_static_desc rseq_compat_anchor
  __asm__ ("__rseq_compat_static");

void *__real_dlsym (void *handle, const char *name);
void *__wrap_dlsym (void *handle, const char *name)
  __attribute__ ((visibility ("default")));

void *
__wrap_dlsym (void *handle, const char *name)
{
  static const char names[3][14]
    = { "__rseq_offset", "__rseq_size", "__rseq_flags" };
  const struct rseq_compat_static_desc *d = &rseq_compat_anchor;
  if ((handle == RTLD_DEFAULT || handle == RTLD_NEXT) && name != NULL
      && strncmp (name, "__rseq_", 7) == 0
      && memcmp (d->published, d->own, sizeof d->own) == 0)
    for (int i = 0; i < 3; i++)
      if (strcmp (name, names[i]) == 0)
        return (void *) d->own[i];
  return __real_dlsym (handle, name);
}
