/* dlsym test: libnext.so, linked by the program after the shim.
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

/* Every dlsym call here must stay a call from this library (no tail
   call): RTLD_NEXT is relative to the caller's return address.  */

#include "rtest.h"

extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));
extern const unsigned int __rseq_flags __attribute__ ((weak));

#define KEEP(p) __asm__ ("" : "+r" (p))

const char *
dlsym_dup (void)
{
  return "libnext";
}

void *
next_lookup (const char *name)
{
  void *p = dlsym (RTLD_NEXT, name);
  KEEP (p);
  return p;
}

/* dlsym (RTLD_NEXT, NAME) and the dlerror () that follows it.  */
void *
next_lookup_error (const char *name, const char **error)
{
  dlerror ();
  void *p = dlsym (RTLD_NEXT, name);
  KEEP (p);
  *error = dlerror ();
  return p;
}

const void *
next_weak (int which)
{
  const void *p;
  switch (which)
    {
    case 0:
      p = &__rseq_offset;
      break;
    case 1:
      p = &__rseq_size;
      break;
    default:
      p = &__rseq_flags;
      break;
    }
  KEEP (p);
  return p;
}
