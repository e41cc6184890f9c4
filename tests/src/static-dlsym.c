/* Finding __rseq_* with dlsym, as librseq does, in a static program.
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

/* Prints one line:
     default=D next=N size=S direct=R same=M cpu=C other=O
   D and N: how many of __rseq_offset, __rseq_size and __rseq_flags
   dlsym finds with RTLD_DEFAULT and RTLD_NEXT; S: __rseq_size read
   through RTLD_NEXT's pointer ("none" where it found none); R: the
   program's own weak reference to __rseq_size ("none" where the link
   resolved nothing); M: 1 where all six pointers dlsym gave are the
   ones the link resolved, 0 where they differ, "none" where dlsym
   found nothing; C: "ok" where the area at the thread pointer plus
   the looked-up __rseq_offset holds the CPU the getcpu system call
   names, "none" where there is nothing to read (nothing found, or
   __rseq_size 0); O: whether dlsym finds a name nobody defines
   ("none" expected).  static.exp and static-old.exp link it with and
   without librseq-compat.a and -Wl,--wrap=dlsym; the link's own
   references (R, M) and the same program without the archive are the
   oracles.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));
extern const unsigned int __rseq_flags __attribute__ ((weak));

static void *
thread_pointer (void)
{
  void *tp;
#if defined __x86_64__
  __asm__ ("mov %%fs:0, %0" : "=r" (tp));
#elif defined __aarch64__
  __asm__ ("mrs %0, tpidr_el0" : "=r" (tp));
#else
# error "a thread pointer for this architecture"
#endif
  return tp;
}

static int
found (void *handle, const void **p)
{
  static const char *const names[3]
    = { "__rseq_offset", "__rseq_size", "__rseq_flags" };
  int n = 0;
  for (int i = 0; i < 3; i++)
    {
      p[i] = dlsym (handle, names[i]);
      n += p[i] != NULL;
    }
  return n;
}

int
main (void)
{
  const void *def[3], *next[3];
  int ndef = found (RTLD_DEFAULT, def);
  int nnext = found (RTLD_NEXT, next);
  const void *direct[3] = { &__rseq_offset, &__rseq_size, &__rseq_flags };

  char size[16] = "none", own[16] = "none", same[8] = "none";
  char cpu[64] = "none";
  if (direct[1] != NULL)
    snprintf (own, sizeof own, "%u", __rseq_size);
  if (nnext == 3)
    {
      unsigned int s = *(const unsigned int *) next[1];
      snprintf (size, sizeof size, "%u", s);
      snprintf (same, sizeof same, "%d",
                memcmp (def, direct, sizeof def) == 0
                && memcmp (next, direct, sizeof next) == 0);
      if (s != 0)
        {
          /* cpu_id follows cpu_id_start in struct rseq.  */
          volatile const uint32_t *cpu_id
            = (volatile const uint32_t *) ((char *) thread_pointer ()
                                           + *(const ptrdiff_t *) next[0]
                                           + 4);
          unsigned int sys = 0;
          uint32_t before = 0, after = 0;
          int tries;
          /* A migration between the reads changes one of them: only a
             pair that agrees around the system call can disagree with
             it.  */
          for (tries = 0; tries < 1000; tries++)
            {
              before = *cpu_id;
              syscall (SYS_getcpu, &sys, NULL, NULL);
              after = *cpu_id;
              if (before == after && before == sys)
                break;
            }
          if (tries < 1000)
            snprintf (cpu, sizeof cpu, "ok");
          else
            snprintf (cpu, sizeof cpu, "WRONG(%u,%u)", (unsigned) after, sys);
        }
    }
  printf ("default=%d next=%d size=%s direct=%s same=%s cpu=%s other=%s\n",
          ndef, nnext, size, own, same, cpu,
          dlsym (RTLD_DEFAULT, "rseq_compat_test_nothing_defines_this")
          != NULL ? "found" : "none");
  return 0;
}
