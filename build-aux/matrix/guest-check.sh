#!/bin/sh
# guest-check.sh: the init of make check-aarch64's guests.  The guest's
# root file system is its initramfs, a copy of an arm64 userland chroot
# whose /rc/src holds the tree, configured and built there (under
# qemu-user) by build-aux/matrix/aarch64.  Runs the DejaGnu suite of
# `make check` on this kernel (RUNTESTFLAGS from /rc/runtestflags), then
# prints what the host's report needs on the console, each line behind
# "@@ ", and powers the guest off.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
# The root is an initramfs without the kernel's modules: the ones the
# tests need came with it (build-aux/matrix/aarch64).
for m in /rc/modules/"$(uname -r)"/*.ko; do
  [ ! -e "$m" ] || insmod "$m" || echo "@@ note cannot load $m"
done
echo "@@ begin $(uname -r) $(nproc) CPUs"
cd /rc/src || { echo "@@ result no /rc/src"; echo o > /proc/sysrq-trigger; }
# TCG runs the tests' fixed workloads ten or more times slower than a
# machine: a tenth of them (tests/src/rtest.h, rt_scaled).
export RSEQ_TEST_SCALE=10
# The test programs the chroot compiled (build-aux/matrix/aarch64).
[ ! -d /rc/bincache ] || export RSEQ_BINCACHE=/rc/bincache
s=$(date +%s)
# A line a minute on the console: which .exp file runs (runtest's own
# output goes to its log).
(while sleep 60; do
   echo "@@ progress $(( $(date +%s) - s )) s: $(grep '^Running ' build/tests/runtest.log 2>/dev/null |
     tail -n 1 | sed 's|.*/||; s| \.\.\.||')"
 done) &
progress=$!
make --no-print-directory check-run RUNTESTFLAGS="$(cat /rc/runtestflags 2>/dev/null)" \
  > /rc/check.log 2>&1
kill $progress
echo "@@ seconds $(( $(date +%s) - s ))"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /rc/check.log | tail -n 1)
echo "@@ result ${line:-no result line}"
# What RUNTESTFLAGS' EXCLUDE left out (build-aux/matrix/common.sh says
# why; the report prints it).
sed -n 's/^excluded: /@@ note excluded: /p' build/tests/rseq.log
[ -n "$line" ] || tail -n 20 /rc/check.log | sed 's/^/@@ log /'
sed -n 's/^\(PASS\|FAIL\|XFAIL\|XPASS\|UNRESOLVED\|UNTESTED\|UNSUPPORTED\|ERROR\): /@@ sum &/p' \
  build/tests/rseq.sum
# The lines the report quotes, and what the failing programs said.
grep -E '^(getcpu system calls|counter) \[|^FAIL ' build/tests/rseq.log |
  sed 's/^/@@ log /'
# What each failing test logged before its verdict, so that a failure
# can be understood from the host's log alone.
grep -B 12 '^FAIL: ' build/tests/rseq.log | head -n 600 | sed 's/^/@@ ctx /'
# glibc's own tests of the series (make check-glibc GLIBC_ARCH=aarch64
# staged them), static and dynamic, on the patched libraries.
if [ -x /rc-glibc/run-tests.sh ]; then
  TIMEOUTFACTOR=10 sh /rc-glibc/run-tests.sh /rc-glibc > /rc/glibc-tests.log 2>&1
  st=$?
  echo "@@ glibc-tests exit $st"
  sed -n 's/^\(PASS\|FAIL\): /@@ glibc &/p' /rc/glibc-tests.log
  [ $st -eq 0 ] || tail -n 60 /rc/glibc-tests.log | sed 's/^/@@ gctx /'
fi

# mxcheck (make check-matrix's checks, built for each C library by
# inner-build.sh) with the shim preloaded and this kernel's values:
# among them the kernel mode, and on 7.x the optimized mode's read-only
# fields enforced while threads, signals and forks run.
. build-aux/matrix/expect.sh
set -- $(mx_kernel_expect "$(uname -r)")
size=$1 len=$2
for libc in glibc musl; do
  [ -x /rc/out/$libc/mxcheck ] || continue
  mode=shim-owned
  # glibc 2.35-2.40 would register 32 bytes with __rseq_size 20; the
  # userlands here have 2.31 (the shim's) or 2.41+ (glibc's, with the
  # kernel's values).
  if [ $libc = glibc ] && [ -d /rc-glibc ]; then
    mode=libc-owned
  elif [ $libc = glibc ]; then
    m=$(getconf GNU_LIBC_VERSION | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
    [ "${m:-0}" -lt 35 ] || mode=libc-owned
  fi
  stress=3
  [ "$len" -le 32 ] || stress=10
  echo "@@ mxcheck $libc: MX_MODE=$mode MX_SIZE=$size MX_LEN=$len MX_STRESS=$stress"
  env MX_MODE=$mode MX_SIZE=$size MX_LEN=$len MX_STRESS=$stress \
    LD_PRELOAD=/rc/out/$libc/librseq-compat.so.1 /rc/out/$libc/mxcheck 2>&1 |
    sed "s/^/@@ mx $libc /"
done
# The AArch64 portable tarball (make portable PORTABLE_ARCH=aarch64),
# which build-aux/matrix/aarch64 unpacked at /rc/portable in each Debian
# userland: with this userland's glibc and its musl, each program built
# by its own compiler, against the matrix's expectations for this C
# library and kernel (build-aux/portable/inner-check.sh, as make
# check-portable runs it on x86-64).
for dir in /rc/portable/rseq-compat-*-aarch64-linux; do
  [ -d "$dir" ] || continue
  minor=$(getconf GNU_LIBC_VERSION | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
  musl_cc=$(sed -n 's/^MUSL_CC = //p' config.mk)
  for kind in glibc musl; do
    if [ $kind = glibc ]; then cc=gcc m=$minor self=1
    else cc=$musl_cc m= self=
    fi
    if [ -z "$cc" ]; then
      echo "@@ portable $kind: FAIL: configure found no musl-gcc in this userland"
      continue
    fi
    set -- $(mx_libc_expect "$m" 0 "$(uname -r)")
    echo "@@ portable $(PORTABLE_SELF=$self sh build-aux/portable/inner-check.sh $kind "$cc" $kind \
      "$dir" $1 $2 $3 /rc/portable-work/$kind 2>&1 | tail -n 1)"
  done
done
echo "@@ end"
# The console drains before the power goes: under load the guest went
# down with "@@ end" unwritten, and the cell read as stopped early
# (session 25's aarch64 tier, every result in the log a pass).
sleep 2
echo o > /proc/sysrq-trigger
sleep 30
