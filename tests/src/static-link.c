/* What a static link line takes from librseq-compat.a.
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

/* Prints "mode=M size=S own=O": the archive's mode ("none" where the
   link took nothing of it: the header's references are weak),
   __rseq_size ("none" where nothing defines it), and whether the
   program's own sched_getcpu and getcpu answered (OWN_GETCPU: they
   return values no CPU has).  Built dynamically and statically, with
   and without the archive and the pkg-config words, by static.exp,
   which compares the lines.  OWN_CREATE defines pthread_create, which
   the archive must refuse at link time.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#include <rseq-compat.h>

#define OWN_CPU 4242

#ifdef OWN_GETCPU
int
sched_getcpu (void)
{
  return OWN_CPU;
}

int
getcpu (unsigned int *cpu, unsigned int *node)
{
  if (cpu != NULL)
    *cpu = OWN_CPU + 1;
  if (node != NULL)
    *node = 0;
  return 0;
}
#endif

#ifdef OWN_CREATE
extern int __pthread_create_2_1 (pthread_t *, const pthread_attr_t *,
                                 void *(*) (void *), void *);

int
pthread_create (pthread_t *t, const pthread_attr_t *a, void *(*f) (void *),
                void *arg)
{
  return __pthread_create_2_1 (t, a, f, arg);
}
#endif

int
main (void)
{
  const char *(*mode) (void) = rseq_compat_mode;
  const unsigned int *size = &__rseq_size;
  __RSEQ_COMPAT_LAUNDER (mode);
  __RSEQ_COMPAT_LAUNDER (size);
  int own = 0;
#ifdef OWN_GETCPU
  extern int getcpu (unsigned int *, unsigned int *);
  unsigned int cpu = 0;
  own = sched_getcpu () == OWN_CPU && getcpu (&cpu, NULL) == 0
        && cpu == OWN_CPU + 1;
#endif
  printf ("mode=%s size=", mode != NULL ? mode () : "none");
  if (size != NULL)
    printf ("%u", *size);
  else
    fputs ("none", stdout);
  printf (" own=%d\n", own);
  return 0;
}
