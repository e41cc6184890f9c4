#!/bin/sh
# inner-musl.sh TARBALL TARGET PREFIX OUT: runs inside the bullseye
# chroot.  musl from TARBALL cross-built with TARGET-gcc (the chroot's
# cross compiler) for PREFIX, its loader at PREFIX/lib, and the
# installed tree written to OUT (a .tar.gz of PREFIX).  musl's own
# configure and its musl-gcc wrapper take the cross compiler as they
# would the native one, so PREFIX/bin/musl-gcc then builds for TARGET.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
tarball=$1 target=$2 prefix=$3 out=$4
work=/rco/build/musl-$target
rm -rf "$work"
mkdir -p "$work/src" "$work/inst"
tar -C "$work/src" --strip-components=1 -xzf "$tarball"
cd "$work/src"
# No -g, as check-oldlibc's builds: nothing reads musl's debug
# information, and it would only make the cached tree larger.
CC=$target-gcc CFLAGS="-O2 -pipe" ./configure --target="$target" \
  --prefix="$prefix" --syslibdir="$prefix/lib"
make -j"$(nproc)"
make install DESTDIR="$work/inst"
tar -C "$work/inst" -czf "$out.partial" .
mv "$out.partial" "$out"
rm -rf "$work"
