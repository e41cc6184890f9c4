/* rc-vm-worker: the threaded service of make check-vm's guest
   (build-aux/vm/run).  It runs under systemd like any daemon, with no
   knowledge of rseq-compat, and says from the inside what every thread
   sees: whether the C library's published rseq area (__rseq_offset from
   the thread pointer, the glibc 2.35 ABI, found at run time so that the
   same binary runs on the stock glibc 2.31, which has none) holds a
   cpu_id the kernel wrote.  Linux 5.10, bullseye's kernel, has no
   PTRACE_GET_RSEQ_CONFIGURATION, so rseq-compat info cannot ask the
   kernel for each thread's registration there; this is the evidence
   from the threads themselves.

   Every second it writes /run/rc-vm-worker (replaced by rename, so a
   reader never sees half a line):
     pid P threads N registered R size S offset O getcpu G
   R counts the threads whose cpu_id is 0 or more; S and O are
   __rseq_size and __rseq_offset, or "none" where nothing exports them;
   G counts the threads whose sched_getcpu agreed with cpu_id.

   Copyright (C) 2026 The rseq-compat developers.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 4
#define STATUS "/run/rc-vm-worker"

static const ptrdiff_t *rseq_offset;
static const unsigned int *rseq_size;

/* Per thread, written by the thread itself: 1 when its cpu_id is
   valid, and 1 when sched_getcpu agreed with it.  */
static volatile int registered[WORKERS + 1];
static volatile int agreed[WORKERS + 1];

static void *
thread_pointer (void)
{
  void *tp;
  /* x86-64 keeps the TCB's self pointer at %fs:0 (the TLS ABI); the
     guest is amd64 only.  */
  __asm__ ("mov %%fs:0, %0" : "=r" (tp));
  return tp;
}

static void
look (int slot)
{
  if (rseq_offset == NULL || rseq_size == NULL || *rseq_size == 0)
    {
      registered[slot] = 0;
      agreed[slot] = 0;
      return;
    }
  /* cpu_id is the second 32-bit word of struct rseq.  */
  volatile int32_t *cpu_id
    = (volatile int32_t *) ((char *) thread_pointer () + *rseq_offset + 4);
  int32_t before = *cpu_id;
  int cpu = sched_getcpu ();
  int32_t after = *cpu_id;
  registered[slot] = before >= 0;
  /* A migration between the loads makes before and after differ; only a
     stable pair is compared.  */
  agreed[slot] = before >= 0 && (before != after || cpu == before);
}

static void *
work (void *arg)
{
  int slot = (int) (intptr_t) arg;
  for (;;)
    {
      look (slot);
      /* Some work between looks, so the threads migrate and are
         preempted, which the kernel answers by rewriting cpu_id.  */
      for (volatile unsigned i = 0; i < 200000; i++)
        ;
      usleep (100 * 1000);
    }
  return NULL;
}

int
main (void)
{
  rseq_offset = dlsym (RTLD_DEFAULT, "__rseq_offset");
  rseq_size = dlsym (RTLD_DEFAULT, "__rseq_size");
  pthread_t t;
  for (int i = 1; i <= WORKERS; i++)
    if (pthread_create (&t, NULL, work, (void *) (intptr_t) i) != 0)
      {
        fprintf (stderr, "rc-vm-worker: pthread_create failed\n");
        return 1;
      }
  char size[16] = "none", offset[32] = "none";
  if (rseq_size != NULL)
    snprintf (size, sizeof size, "%u", *rseq_size);
  if (rseq_offset != NULL)
    snprintf (offset, sizeof offset, "%td", *rseq_offset);
  printf ("rc-vm-worker: pid %d, %d threads, __rseq_size %s, "
          "__rseq_offset %s\n", (int) getpid (), WORKERS + 1, size, offset);
  fflush (stdout);
  for (;;)
    {
      /* The threads look first.  */
      sleep (1);
      look (0);
      int r = 0, g = 0;
      for (int i = 0; i <= WORKERS; i++)
        {
          r += registered[i];
          g += agreed[i];
        }
      FILE *f = fopen (STATUS ".tmp", "w");
      if (f != NULL)
        {
          fprintf (f, "pid %d threads %d registered %d size %s offset %s "
                   "getcpu %d\n", (int) getpid (), WORKERS + 1, r, size,
                   offset, g);
          if (fclose (f) == 0)
            rename (STATUS ".tmp", STATUS);
        }
    }
}
