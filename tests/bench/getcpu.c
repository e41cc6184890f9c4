/* Benchmark 1: the current CPU number, every way there is.
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

/* Rows (ns per call, pinned to one CPU):
     sched_getcpu   an ordinary call through the PLT: the C library's,
                    or the shim's when it is loaded
     PLT call floor a call through the PLT of a function in a shared
                    library that only returns (libbench-floor.so): what
                    any sched_getcpu costs at least when called this way
   Built a second time with -fno-plt (BENCH_NOPLT): the caller then
   calls through its GOT, without the PLT's extra indirect jump; that
   binary measures the first two rows only, named "... (-fno-plt)".
   Built -static with librseq-compat.a (BENCH_STATIC, plt-floor.c
   linked in), the program has no PLT: sched_getcpu is the archive's,
   reached by a direct call, and the floor row is a direct call of
   bench_floor, "direct call floor".
     vdso getcpu    the vDSO's __vdso_getcpu through a pointer (x86-64)
     getcpu syscall syscall (SYS_getcpu)
     accessor       rseq_compat_cpu () from <rseq-compat.h>, inlined
     raw TLS load   one load of cpu_id at thread pointer + __rseq_offset
                    + 4, the offset kept in a register: the floor
   The last two only when the thread is registered.  */

#include "bench.h"

#include <sys/auxv.h>
#include <sys/syscall.h>

#include <rseq-compat.h>

/* shim/elf-sym.c, compiled in: the symbol lookup the shim itself uses
   to find the vDSO's getcpu.  */
void *__rseq_compat_elf_sym (uintptr_t base, const char *name);

static int (*vdso_getcpu) (unsigned int *, unsigned int *, void *);

int bench_floor (void);

#ifdef BENCH_NOPLT
# define SUFFIX " (-fno-plt)"
#else
# define SUFFIX ""
#endif
#ifdef BENCH_STATIC
# define FLOOR "direct call floor"
#else
# define FLOOR "PLT call floor" SUFFIX
#endif

static double
loop_floor (long int n, void *arg)
{
  (void) arg;
  unsigned int sum = 0;
  double t0 = bench_cpu_now ();
  for (long int i = 0; i < n; i++)
    sum += (unsigned int) bench_floor ();
  double t = bench_cpu_now () - t0;
  BENCH_KEEP (sum);
  return t;
}

static double
loop_sched_getcpu (long int n, void *arg)
{
  (void) arg;
  unsigned int sum = 0;
  double t0 = bench_cpu_now ();
  for (long int i = 0; i < n; i++)
    sum += (unsigned int) sched_getcpu ();
  double t = bench_cpu_now () - t0;
  BENCH_KEEP (sum);
  return t;
}

static double
loop_vdso (long int n, void *arg)
{
  (void) arg;
  unsigned int sum = 0;
  int (*fn) (unsigned int *, unsigned int *, void *) = vdso_getcpu;
  double t0 = bench_cpu_now ();
  for (long int i = 0; i < n; i++)
    {
      unsigned int cpu;
      fn (&cpu, NULL, NULL);
      sum += cpu;
    }
  double t = bench_cpu_now () - t0;
  BENCH_KEEP (sum);
  return t;
}

static double
loop_syscall (long int n, void *arg)
{
  (void) arg;
  unsigned int sum = 0;
  double t0 = bench_cpu_now ();
  for (long int i = 0; i < n; i++)
    {
      unsigned int cpu;
      syscall (SYS_getcpu, &cpu, NULL, NULL);
      sum += cpu;
    }
  double t = bench_cpu_now () - t0;
  BENCH_KEEP (sum);
  return t;
}

static double
loop_accessor (long int n, void *arg)
{
  (void) arg;
  unsigned int sum = 0;
  double t0 = bench_cpu_now ();
  for (long int i = 0; i < n; i++)
    sum += (unsigned int) rseq_compat_cpu ();
  double t = bench_cpu_now () - t0;
  BENCH_KEEP (sum);
  return t;
}

static double
loop_raw (long int n, void *arg)
{
  ptrdiff_t off = *(const ptrdiff_t *) arg + 4;
  unsigned int sum = 0;
  double t0 = bench_cpu_now ();
  for (long int i = 0; i < n; i++)
    {
      unsigned int v;
#if defined __x86_64__
      __asm__ __volatile__ ("movl %%fs:(%1), %0" : "=r" (v) : "r" (off));
#elif defined __aarch64__
      char *tp;
      __asm__ __volatile__ ("mrs %0, tpidr_el0" : "=r" (tp));
      v = *(volatile unsigned int *) (tp + off);
#else
      v = 0;
#endif
      sum += v;
    }
  double t = bench_cpu_now () - t0;
  BENCH_KEEP (sum);
  return t;
}

int
main (void)
{
  int cpus[1];
  if (bench_cpus (cpus, 1) == 1)
    bench_pin (cpus[0]);

#ifdef __x86_64__
  vdso_getcpu = (int (*) (unsigned int *, unsigned int *, void *))
    __rseq_compat_elf_sym (getauxval (AT_SYSINFO_EHDR), "__vdso_getcpu");
#endif

  bench_run ("getcpu", "sched_getcpu" SUFFIX, loop_sched_getcpu, NULL, 1000);
  bench_run ("getcpu", FLOOR, loop_floor, NULL, 1000);
#ifdef BENCH_NOPLT
  return 0;
#endif
  if (vdso_getcpu != NULL)
    bench_run ("getcpu", "vdso getcpu", loop_vdso, NULL, 1000);
  bench_run ("getcpu", "getcpu syscall", loop_syscall, NULL, 100);

  int32_t id;
  if (rseq_compat_size () != 0 && __rseq_compat_load32 (4, &id) && id >= 0)
    {
      ptrdiff_t off = __rseq_offset;
      bench_run ("getcpu", "accessor", loop_accessor, NULL, 1000);
      bench_run ("getcpu", "raw TLS load", loop_raw, &off, 1000);
    }
  return 0;
}
