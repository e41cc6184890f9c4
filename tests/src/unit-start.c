/* The start blocks of the shim's pthread_create (shim/start.c): many
   held at once, reuse, and claims racing from threads and from a
   signal handler.
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

#include "rtest.h"

#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>

#include "start.h"

enum { HELD = 500, THREADS = 4 };

static int
overlaps (struct start *const *b, int n, struct start *s)
{
  for (int i = 0; i < n; i++)
    if ((char *) s < (char *) (b[i] + 1) && (char *) b[i] < (char *) (s + 1))
      return 1;
  return 0;
}

static int
cmp_addr (const void *a, const void *b)
{
  uintptr_t x = *(const uintptr_t *) a, y = *(const uintptr_t *) b;
  return x < y ? -1 : x > y;
}

/* Holders write their own mark into the block and look again after a
   yield: a block handed to two holders at once shows the other's.  */
static long handler_claims, handler_clashes, handler_failures;

static int
hold_and_check (uintptr_t mark)
{
  struct start *s = __rseq_compat_start_claim ();
  if (s == NULL)
    return -1;
  s->arg = (void *) mark;
  s->fn = (void *(*) (void *)) mark;
  sched_yield ();
  int clash = s->arg != (void *) mark || s->fn != (void *(*) (void *)) mark;
  __rseq_compat_start_release (s);
  return clash;
}

static void
on_alarm (int sig)
{
  (void) sig;
  /* SIGALRM goes to whichever thread the kernel picks.  */
  int r = hold_and_check (~(uintptr_t) 0);
  __atomic_add_fetch (&handler_claims, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&handler_clashes, r == 1, __ATOMIC_RELAXED);
  __atomic_add_fetch (&handler_failures, r < 0, __ATOMIC_RELAXED);
}

static void *
racer (void *arg)
{
  long clashes = 0, failures = 0;
  for (long i = 0; i < rt_scaled (50000); i++)
    {
      int r = hold_and_check ((uintptr_t) arg);
      clashes += r == 1;
      failures += r < 0;
    }
  CHECK (clashes == 0, "racer %ju: %ld blocks held by another",
         (uintmax_t) (uintptr_t) arg, clashes);
  CHECK (failures == 0, "racer %ju: %ld claims failed",
         (uintmax_t) (uintptr_t) arg, failures);
  return NULL;
}

int
main (void)
{
  /* Many held at once: more than one page's worth, each its own
     memory, writable, and marked busy.  */
  static struct start *held[HELD], *again[HELD];
  for (int i = 0; i < HELD; i++)
    {
      struct start *s = __rseq_compat_start_claim ();
      CHECK (s != NULL, "claim %d failed", i);
      if (s == NULL)
        return rt_exit_status ();
      CHECK (!overlaps (held, i, s), "claim %d overlaps an earlier one", i);
      CHECK (s->busy != 0, "claim %d not marked busy", i);
      memset (&s->mask, 0xa5, sizeof s->mask);
      s->arg = s;
      held[i] = s;
    }
  for (int i = 0; i < HELD; i++)
    CHECK (held[i]->arg == held[i], "block %d changed while held", i);
  for (int i = 0; i < HELD; i++)
    __rseq_compat_start_release (held[i]);

  /* Released blocks are reused: as many again need no new memory,
     so each lies in a 4 KiB page that held one before (the last page
     mapped had free blocks left, which may come first).  */
  static uintptr_t held_pages[HELD];
  for (int i = 0; i < HELD; i++)
    held_pages[i] = (uintptr_t) held[i] & ~(uintptr_t) 4095;
  for (int i = 0; i < HELD; i++)
    again[i] = __rseq_compat_start_claim ();
  qsort (held_pages, HELD, sizeof held_pages[0], cmp_addr);
  int fresh = 0;
  for (int i = 0; i < HELD; i++)
    {
      uintptr_t page = (uintptr_t) again[i] & ~(uintptr_t) 4095;
      fresh += bsearch (&page, held_pages, HELD, sizeof held_pages[0],
                        cmp_addr) == NULL;
    }
  CHECK (fresh == 0, "%d of %d claims after release took new memory",
         fresh, HELD);
  for (int i = 0; i < HELD; i++)
    if (again[i] != NULL)
      __rseq_compat_start_release (again[i]);

  /* Threads racing, and a signal handler claiming in the middle of the
     main thread's claims (the case that malloc could not serve).  */
  struct sigaction sa = { .sa_handler = on_alarm, .sa_flags = SA_RESTART };
  sigemptyset (&sa.sa_mask);
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval it = { { 0, 200 }, { 0, 200 } };
  setitimer (ITIMER_REAL, &it, NULL);
  pthread_t t[THREADS];
  for (uintptr_t i = 0; i < THREADS; i++)
    pthread_create (&t[i], NULL, racer, (void *) (i + 1));
  racer ((void *) (uintptr_t) (THREADS + 1));
  for (int i = 0; i < THREADS; i++)
    pthread_join (t[i], NULL);
  struct itimerval off = { { 0, 0 }, { 0, 0 } };
  setitimer (ITIMER_REAL, &off, NULL);
  long clashes = __atomic_load_n (&handler_clashes, __ATOMIC_RELAXED);
  long failures = __atomic_load_n (&handler_failures, __ATOMIC_RELAXED);
  CHECK (clashes == 0, "%ld blocks claimed in a handler were held", clashes);
  CHECK (failures == 0, "%ld claims in a handler failed", failures);
  printf ("%d held at once, reused; %d racers; %ld claims in handlers\n",
          HELD, THREADS + 1,
          __atomic_load_n (&handler_claims, __ATOMIC_RELAXED));
  return rt_exit_status ();
}
