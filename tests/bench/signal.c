/* Benchmark 5: signal round trip, lmbench's lat_sig "catch".
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

/* The main thread sends itself SIGUSR1 with kill () and the handler
   counts it: one round trip per iteration (system call, delivery,
   handler, sigreturn).  In a registered thread the kernel also updates
   the rseq area and checks for a critical section on each delivery.
   Pinned to one CPU.  Run in a registered and an unregistered thread
   (with and without the shim, or glibc's tunable): the row is the same,
   tests/bench/run names the configuration.  */

#include "bench.h"

#include <signal.h>

static volatile sig_atomic_t caught;

static void
handler (int sig)
{
  (void) sig;
  caught++;
}

static double
loop_signal (long int n, void *arg)
{
  (void) arg;
  pid_t self = getpid ();
  double t0 = bench_cpu_now ();
  for (long int i = 0; i < n; i++)
    kill (self, SIGUSR1);
  return bench_cpu_now () - t0;
}

int
main (void)
{
  int cpus[1];
  if (bench_cpus (cpus, 1) == 1)
    bench_pin (cpus[0]);
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGUSR1, &sa, NULL);
  bench_run ("signal", "round trip", loop_signal, NULL, 1000);
  return caught == 0;
}
