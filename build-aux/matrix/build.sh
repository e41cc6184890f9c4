#!/bin/sh
# build.sh USERLAND OUT: copy the current tree into USERLAND (a suite's
# chroot made by chroot.sh, or "host"), build the shim and the matrix
# test program there (inner-build.sh), and stage what a test run needs
# as small root directories OUT/USERLAND-glibc and OUT/USERLAND-musl:
# the program and the shim in /rc, the dynamic loader and libraries at
# their usual paths, the C library's version in /.version.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
name=$1
out=$2
top=$(cd "$here/../.." && pwd)
log=$out/build-$name.log
mkdir -p "$out"

if [ "$name" = host ]; then
  prefix=
  work=$out/host-work
else
  prefix=$RSEQ_COMPAT_CACHE/chroot/$name
  [ -e "$prefix/.rc-complete" ] || mx_die "$name: no chroot"
  work=$prefix/rc
  # No update of the chroot while this build runs there (one run of
  # the matrix at a time owns /rc: build-aux/matrix/run).
  mx_hold_chroot "$name"
fi

# The working tree as it is, uncommitted changes included.
rm -rf "$work" && mkdir -p "$work/src"
mx_copy_tree "$top" "$work/src" || mx_die "$name: cannot copy the tree"

if [ "$name" = host ]; then
  (cd "$work/src" && sh build-aux/matrix/inner-build.sh "$work/out") >"$log" 2>&1
else
  mx_in_chroot "$prefix" sh -c 'cd /rc/src && sh build-aux/matrix/inner-build.sh /rc/out' \
    >"$log" 2>&1
fi || { tail -n 15 "$log" >&2; mx_die "$name: build failed; see $log"; }

for libc in glibc musl; do
  src=$work/out/$libc
  dst=$out/$name-$libc
  rm -rf "$dst"
  [ -d "$src" ] || continue
  mx_stage_root "$src" "$prefix" "$dst" || mx_die "$name: cannot stage $dst"
done
