/* Start blocks for pthread_create, without malloc.
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

#define _GNU_SOURCE 1
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shim.h"
#include "start.h"

/* <linux/futex.h>'s values; musl's headers come without the kernel's.  */
#ifndef FUTEX_WAIT_PRIVATE
# define FUTEX_WAIT_PRIVATE 128
# define FUTEX_WAKE_PRIVATE 129
#endif

/* Start blocks do not come from malloc: programs create threads from
   signal handlers (musl's pthread_create takes no lock that malloc
   holds, so this works without the shim), and a handler that
   interrupted malloc would wait forever for malloc's lock.  A block is
   claimed with one atomic exchange and given back by the new thread
   once it has copied it.  The first blocks are static; more come in
   pages of their own, mapped when every block is in use and kept for
   the process's life, so their number is bounded by the most creations
   in flight at once.  */
enum { START_PAGE_BYTES = 4096 };
struct start_page
{
  struct start_page *next;
  struct start slot[(START_PAGE_BYTES - sizeof (void *))
                    / sizeof (struct start)];
};

static struct start_page first_page;
static struct start_page *pages = &first_page;

attribute_inline_atomics static struct start *
start_claim_in (struct start_page *p)
{
  for (; p != NULL; p = p->next)
    for (size_t i = 0; i < sizeof p->slot / sizeof p->slot[0]; i++)
      if (!__atomic_load_n (&p->slot[i].busy, __ATOMIC_RELAXED)
          && !__atomic_exchange_n (&p->slot[i].busy, 1, __ATOMIC_ACQUIRE))
        return &p->slot[i];
  return NULL;
}

attribute_inline_atomics struct start *
__rseq_compat_start_claim (void)
{
  struct start *s = start_claim_in (__atomic_load_n (&pages, __ATOMIC_ACQUIRE));
  if (s != NULL)
    return s;
  /* pthread_create leaves errno alone, whatever it returns.  */
  int saved = errno;
  struct start_page *np = mmap (NULL, sizeof *np, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  errno = saved;
  if (np == MAP_FAILED)
    return NULL;
  np->slot[0].busy = 1;
  struct start_page *head = __atomic_load_n (&pages, __ATOMIC_RELAXED);
  do
    np->next = head;
  while (!__atomic_compare_exchange_n (&pages, &head, np, 1, __ATOMIC_RELEASE,
                                       __ATOMIC_RELAXED));
  return &np->slot[0];
}

attribute_inline_atomics void
__rseq_compat_start_release (struct start *s)
{
  if (__atomic_exchange_n (&s->busy, 0, __ATOMIC_RELEASE) == START_WAITED)
    {
      int saved = errno;
      syscall (SYS_futex, &s->busy, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
      errno = saved;
    }
}

void
__rseq_compat_start_hold (struct start *s)
{
  __atomic_store_n (&s->busy, START_WAITED, __ATOMIC_RELAXED);
}

/* A futex, not a spin: the new thread may have a lower real-time
   priority than its creator on the same CPU.  */
void
__rseq_compat_start_wait (struct start *s)
{
  int saved = errno;
  while (__atomic_load_n (&s->busy, __ATOMIC_ACQUIRE) == START_WAITED)
    syscall (SYS_futex, &s->busy, FUTEX_WAIT_PRIVATE, START_WAITED, NULL,
             NULL, 0);
  errno = saved;
}

