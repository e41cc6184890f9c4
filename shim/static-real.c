/* The C library's functions that the archive calls, named at link time.
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

/* The shared library finds the C library's pthread_create and clone
   with dlsym (RTLD_NEXT), behind its own definitions (dlsym.c).  In a
   static link there is no next object: the archive's definitions take
   the public names, and the C library's code is reached by the names
   it also has in libc.a:

   - pthread_create is a weak alias there (glibc: of
     __pthread_create_2_1, in libpthread.a before 2.34 and libc.a
     since; musl: of __pthread_create, a hidden symbol, which other
     objects of the same static link may still use), so the archive's
     strong definition wins with no duplicate-symbol error;
   - glibc's clone is a weak alias of __clone; musl's clone is strong
     and does more than its __clone where CLONE_VM is clear, so the
     archive for musl defines __wrap_clone instead (thread.c) and the
     link line says --wrap=clone: this reference to __real_clone is
     then musl's clone, and without the option the link fails here
     rather than leave vfork-style clone children unpaused.

   These references also keep the archive glibc's or musl's: the one
   built for the other C library does not link.  */

#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "shim.h"

typedef int create_fn (pthread_t *, const pthread_attr_t *,
                       void *(*) (void *), void *);

#if RSEQ_COMPAT_GLIBC
extern create_fn __pthread_create_2_1;
extern int __clone (int (*) (void *), void *, int, void *, ...);
/* glibc 2.32 and later; weak, so that the archive links with older
   ones.  A static program has it only if something else pulled it in,
   which pthread_attr_setsigmask_np does not: such a program's threads
   then start with the creator's mask instead of the attribute's
   (README: static programs).  */
extern int pthread_attr_getsigmask_np (const pthread_attr_t *, sigset_t *)
  __attribute__ ((weak));
/* Likewise: a program that sets a default mask with
   pthread_setattr_default_np has its threads without attributes start
   with it only where something pulled this one in too.  */
extern int pthread_getattr_default_np (pthread_attr_t *)
  __attribute__ ((weak));
# define REAL_CREATE __pthread_create_2_1
# define REAL_CLONE __clone
# define ATTR_GETMASK pthread_attr_getsigmask_np
# define ATTR_GETDEFAULT pthread_getattr_default_np
#else
extern create_fn __pthread_create;
extern int __real_clone (int (*) (void *), void *, int, void *, ...);
# define REAL_CREATE __pthread_create
# define REAL_CLONE __real_clone
# define ATTR_GETMASK NULL
# define ATTR_GETDEFAULT NULL
#endif

void *
__rseq_compat_next_or_in (const char *name, const char *soname)
{
  (void) soname;
  if (strcmp (name, "pthread_create") == 0)
    return (void *) &REAL_CREATE;
  if (strcmp (name, "clone") == 0)
    return (void *) &REAL_CLONE;
  if (strcmp (name, "pthread_attr_getsigmask_np") == 0)
    return (void *) ATTR_GETMASK;
  if (strcmp (name, "pthread_getattr_default_np") == 0)
    return (void *) ATTR_GETDEFAULT;
  return NULL;
}

void *
__rseq_compat_next (const char *name)
{
  return __rseq_compat_next_or_in (name, NULL);
}
