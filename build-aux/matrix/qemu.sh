#!/bin/sh
# qemu.sh SUITE: make sure SUITE's chroot (made by chroot.sh) has
# qemu-system-x86; the guests boot under that QEMU, whatever the host
# has.  Measured: Debian 12's QEMU 7.2 (TCG) crashes Debian's 6.12 cloud
# kernel in most boots once user space forks and signals a lot (double
# faults in __kmalloc, "stack guard page" oopses, user processes killed
# by SIGSEGV); trixie's QEMU 10.0 runs all four kernels cleanly.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
suite=$1
root=$RSEQ_COMPAT_CACHE/chroot/$suite
log=$RSEQ_COMPAT_CACHE/log/qemu-$suite.log
[ -e "$root/.rc-complete" ] || mx_die "qemu: no $suite chroot"
[ -x "$root/usr/bin/qemu-system-x86_64" ] && exit 0
mx_log "$suite: installing qemu-system-x86 in the chroot"
mx_in_chroot "$root" apt-get install -y -q qemu-system-x86 >"$log" 2>&1 ||
  mx_die "qemu: apt-get install qemu-system-x86 failed in the $suite chroot; see $log"
