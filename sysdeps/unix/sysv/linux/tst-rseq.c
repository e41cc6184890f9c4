/* The main thread's rseq registration and the published values.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat (the glibc 2.31 and 2.36 series).

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

#include <link.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tst-rseq.h"

#ifdef RSEQ_SIG

/* A TLS variable, so that the program's own module has a TLS block the
   area must stay out of.  */
static __thread char tls_block[256] = { 1 };

/* Registered before any constructor.  */
static bool registered_in_constructor;
static void __attribute__ ((constructor))
early_constructor (void)
{
  registered_in_constructor = tst_rseq_registered ();
}

static int
check_tls_block (struct dl_phdr_info *info, size_t size, void *closure)
{
  int *blocks = closure;
  for (size_t i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_TLS && info->dlpi_tls_data != NULL)
      {
        uintptr_t start = (uintptr_t) info->dlpi_tls_data;
        uintptr_t end = start + info->dlpi_phdr[i].p_memsz;
        uintptr_t area = (uintptr_t) tst_rseq_area ();
        uintptr_t area_end = area + RSEQ_AREA_CAPACITY;
        if (area < end && start < area_end)
          TST_FAIL ("rseq area [%#lx, %#lx) overlaps the TLS block of %s "
                "[%#lx, %#lx)", (unsigned long) area,
                (unsigned long) area_end, info->dlpi_name,
                (unsigned long) start, (unsigned long) end);
        ++*blocks;
      }
  return 0;
}

static int
do_test (void)
{
  struct rseq_layout want = tst_rseq_expected_layout ();
  unsigned long int at_feature = tst_auxv (RSEQ_LAYOUT_AT_FEATURE_SIZE);
  unsigned long int at_align = tst_auxv (RSEQ_LAYOUT_AT_ALIGN);
  printf ("info: AT_RSEQ_FEATURE_SIZE %lu, AT_RSEQ_ALIGN %lu, __rseq_size %u, "
          "__rseq_offset %td, __rseq_flags %u\n", at_feature, at_align,
          __rseq_size, __rseq_offset, __rseq_flags);

  tst_check_area_alignment ("main thread");
  if (tst_rseq_enosys ())
    {
      puts ("info: no rseq system call here (ENOSYS): nothing registers");
      TEST_VERIFY (!registered_in_constructor);
      tst_check_unregistered ("main thread");
      return 0;
    }

  TEST_VERIFY (registered_in_constructor);
  TEST_COMPARE (__rseq_flags, 0);
  TEST_COMPARE (__rseq_size, want.public_size);
  /* glibc 2.41 semantics, independently of rseq-layout.h: 20 without
     auxv, the feature size otherwise (28 on 6.3-6.19, 33 on 7.0), and
     never 32.  */
  if (at_feature == 0)
    TEST_COMPARE (__rseq_size, 20);
  else if (at_feature <= RSEQ_AREA_CAPACITY)
    TEST_COMPARE (__rseq_size, at_feature);
  TEST_VERIFY (__rseq_size != 32);

  /* The thread pointer and the area: x86_64 keeps the TCB above the
     thread pointer, aarch64 below it.  */
#if defined __x86_64__
  TEST_VERIFY (__rseq_offset > 0);
#elif defined __aarch64__
  TEST_VERIFY (__rseq_offset < 0);
#endif
  struct rseq *area = tst_rseq_area ();
  unsigned int align = at_align > 32 ? at_align : 32;
  if (align <= RSEQ_AREA_ALIGN)
    TEST_COMPARE ((uintptr_t) area % align, 0);
  TEST_COMPARE ((uintptr_t) area % RSEQ_LAYOUT_LEGACY_ALIGN, 0);

  /* Pinned to one CPU, the area must name it.  */
  cpu_set_t set;
  TEST_COMPARE (sched_getaffinity (0, sizeof set, &set), 0);
  int cpu = -1;
  for (int i = 0; i < CPU_SETSIZE; ++i)
    if (CPU_ISSET (i, &set))
      {
        cpu = i;
        break;
      }
  TEST_VERIFY_EXIT (cpu >= 0);
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  TEST_COMPARE (sched_setaffinity (0, sizeof set, &set), 0);
  /* The kernel updates the area on the way back to user space.  */
  sched_yield ();
  TEST_COMPARE ((int) area->cpu_id, cpu);
  TEST_COMPARE ((int) area->cpu_id_start, cpu);
  TEST_COMPARE (sched_getcpu (), cpu);
  if (__rseq_size >= RSEQ_LAYOUT_LEGACY_MAX_SIZE)
    {
      long int ncpus = sysconf (_SC_NPROCESSORS_CONF);
      TEST_VERIFY (tst_rseq_field (area, TST_RSEQ_MM_CID)
                   < (unsigned long int) ncpus);
      unsigned int node = 0;
      TEST_COMPARE (syscall (__NR_getcpu, NULL, &node, NULL), 0);
      TEST_COMPARE (tst_rseq_field (area, TST_RSEQ_NODE_ID), node);
    }

  /* Registered with exactly this area and length: the kernel answers
     EBUSY only to the identical registration, EINVAL to others.  */
  unsigned int len = rseq_layout_libc_reg_len (__rseq_size);
  TEST_COMPARE (len, want.reg_len);
  /* The length and alignment written out per kernel (32 bytes at 32 up
     to Linux 6.19, the feature size at AT_RSEQ_ALIGN from 7.0), not
     computed with rseq-layout.h, which is what is under test: the
     kernel itself then confirms the length (EBUSY).  */
  unsigned int literal_len = 0, literal_align = 0;
  if (at_feature == 0 || (at_feature == 28 && at_align == 32))
    {
      literal_len = 32;
      literal_align = 32;
    }
  else if (at_feature == 33 && at_align == 64)
    {
      literal_len = 33;
      literal_align = 64;
    }
  if (literal_len == 0)
    printf ("info: no literal expectation for AT_RSEQ_FEATURE_SIZE %lu, "
            "AT_RSEQ_ALIGN %lu; only the computed one is checked\n",
            at_feature, at_align);
  else if (literal_len <= RSEQ_AREA_CAPACITY
           && literal_align <= RSEQ_AREA_ALIGN)
    {
      TEST_COMPARE (len, literal_len);
      TEST_COMPARE ((uintptr_t) area % literal_align, 0);
      errno = 0;
      TEST_COMPARE (tst_rseq_syscall (area, literal_len, 0), -1);
      TEST_COMPARE (errno, EBUSY);
    }
  errno = 0;
  TEST_COMPARE (tst_rseq_syscall (area, len, 0), -1);
  TEST_COMPARE (errno, EBUSY);
  errno = 0;
  TEST_COMPARE (tst_rseq_syscall (area, len == 32 ? 64 : 32, 0), -1);
  TEST_COMPARE (errno, EINVAL);

  /* Outside every TLS block (dl_iterate_phdr reports this thread's).  */
  int blocks = 0;
  tls_block[0] = 2;
  dl_iterate_phdr (check_tls_block, &blocks);
  TEST_VERIFY (blocks >= 1);
  /* Writing the whole TLS block left the registration alone.  */
  memset (tls_block, 3, sizeof tls_block);
  TEST_VERIFY (tst_rseq_registered ());
  return 0;
}

#else  /* !RSEQ_SIG */

static int
do_test (void)
{
  tst_check_no_signature ("main thread");
  return 0;
}

#endif  /* RSEQ_SIG */

#include <support/test-driver.c>
