#!/bin/sh
# inner-stage.sh NAME PREFIX OUT: runs inside the bullseye chroot, in a
# tree configured and built for NAME by check.sh.  Builds the matrix's
# test program against NAME and writes to OUT the program, the shim,
# "libs" (every file NAME's loader maps for them, absolute paths) and
# "version" (the C library's version, then how it was built).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
name=$1 prefix=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
cflags="-std=gnu11 -O2 -g -Wall -Wextra -Ishim/include -pthread"
case $name in
  glibc-*)
    "$prefix/bin/rc-cc" $cflags tests/matrix/mxcheck.c -o "$out/mxcheck" -ldl
    cp build/librseq-compat.so.1 "$out/"
    # NAME's own ldd asks NAME's loader; libgcc_s is loaded by name when
    # a thread exits or is cancelled.
    { "$prefix/bin/ldd" "$out/mxcheck" "$out/librseq-compat.so.1" |
        sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p'
      echo "$prefix/lib/libgcc_s.so.1"; } | sort -u > "$out/libs"
    v=$("$prefix/lib/libc.so.6" | sed -n '1s/.*version \([0-9.]*\).*/\1/p')
    echo "glibc $v" > "$out/version"
    ;;
  musl-*)
    "$prefix/bin/musl-gcc" $cflags tests/matrix/mxcheck.c -o "$out/mxcheck"
    cp build/musl/librseq-compat.so.1 "$out/"
    ldso=$prefix/lib/ld-musl-x86_64.so.1
    echo "$ldso" > "$out/libs"
    v=$("$ldso" 2>&1 | sed -n 's/^Version //p')
    echo "musl $v" > "$out/version"
    ;;
esac
echo "upstream, built in bullseye" >> "$out/version"
