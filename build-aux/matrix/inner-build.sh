#!/bin/sh
# inner-build.sh OUT: run inside a userland (a chroot, or the host) in a
# copy of the tree.  Configures and builds the shim with that userland's
# compilers, builds the matrix test program for its glibc and, where
# musl-gcc exists, for musl, and writes into OUT/glibc and OUT/musl the
# program, the shim, "libs" (PATH<TAB>REAL-PATH of every file the
# dynamic loader needs) and "version".
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
out=$1
jobs=$(nproc 2>/dev/null || echo 2)
rm -rf "$out" && mkdir -p "$out"
./configure >"$out/configure.log" 2>&1 || { tail -n 20 "$out/configure.log"; exit 1; }
make -j"$jobs" all >"$out/make.log" 2>&1 || { tail -n 20 "$out/make.log"; exit 1; }
var() { sed -n "s/^$1 = //p" config.mk; }
cc=$(var CC)
musl_cc=$(var MUSL_CC)
cflags="-std=gnu11 -O2 -g -Wall -Wextra -Ishim/include -pthread"

# Every file the loader maps for PROGRAMs, resolved inside this userland
# (merged-/usr symlinks may be absolute).
libs() {
  ldd "$@" | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p' |
    sort -u | while read -r p; do printf '%s\t%s\n' "$p" "$(readlink -f "$p")"; done
}

mkdir -p "$out/glibc"
$cc $cflags tests/matrix/mxcheck.c -o "$out/glibc/mxcheck" -ldl
cp build/librseq-compat.so.1 "$out/glibc/"
libs "$out/glibc/mxcheck" "$out/glibc/librseq-compat.so.1" > "$out/glibc/libs"
# The C library's version, then its Debian package's.
pkgver() { dpkg-query -W -f '${Version}' "$1" 2>/dev/null || :; }
{ echo "glibc $(getconf GNU_LIBC_VERSION | sed 's/^glibc //')"; pkgver libc6; } > "$out/glibc/version"

if [ -n "$musl_cc" ]; then
  mkdir -p "$out/musl"
  $musl_cc $cflags tests/matrix/mxcheck.c -o "$out/musl/mxcheck"
  cp build/musl/librseq-compat.so.1 "$out/musl/"
  ldso=$(readelf -l "$out/musl/mxcheck" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
  printf '%s\t%s\n' "$ldso" "$(readlink -f "$ldso")" > "$out/musl/libs"
  v=$("$ldso" 2>&1 | sed -n 's/^Version //p')
  { echo "musl ${v:-unknown}"; pkgver musl; } > "$out/musl/version"
fi
