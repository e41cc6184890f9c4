#!/bin/sh
# qemu.sh SUITE [aarch64]: make sure SUITE's chroot (made by chroot.sh)
# has qemu-system-x86 (with aarch64: qemu-system-arm, and qemu-user-static
# for binfmt.sh); the guests boot under that QEMU, whatever the host
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
case ${2:-x86_64} in
  x86_64) need=qemu-system-x86_64 pkgs=qemu-system-x86 ;;
  aarch64) need="qemu-system-aarch64 qemu-aarch64" pkgs="qemu-system-arm qemu-user-static" ;;
  *) mx_die "qemu: no guests for $2" ;;
esac
missing=
for b in $need; do [ -x "$root/usr/bin/$b" ] || missing=1; done
[ -n "$missing" ] || exit 0
mx_log "$suite: installing $pkgs in the chroot"
mx_apt "$root" apt-get install -y -q $pkgs >"$log" 2>&1 ||
  mx_die "qemu: apt-get install $pkgs failed in the $suite chroot; see $log"
