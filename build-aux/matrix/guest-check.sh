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
echo "@@ begin $(uname -r) $(nproc) CPUs"
cd /rc/src || { echo "@@ result no /rc/src"; echo o > /proc/sysrq-trigger; }
s=$(date +%s)
make --no-print-directory check-run RUNTESTFLAGS="$(cat /rc/runtestflags 2>/dev/null)" \
  > /rc/check.log 2>&1
echo "@@ seconds $(( $(date +%s) - s ))"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' /rc/check.log | tail -n 1)
echo "@@ result ${line:-no result line}"
[ -n "$line" ] || tail -n 20 /rc/check.log | sed 's/^/@@ log /'
sed -n 's/^\(PASS\|FAIL\|XFAIL\|XPASS\|UNRESOLVED\|UNTESTED\|UNSUPPORTED\|ERROR\): /@@ sum &/p' \
  build/tests/rseq.sum
# The lines the report quotes, and what the failing programs said.
grep -E '^(getcpu system calls|counter) \[|^FAIL ' build/tests/rseq.log |
  sed 's/^/@@ log /'
echo "@@ end"
echo o > /proc/sysrq-trigger
sleep 30
