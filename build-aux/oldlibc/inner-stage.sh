#!/bin/sh
# inner-stage.sh NAME PREFIX OUT: runs inside the bullseye chroot, in a
# tree configured and built for NAME by check.sh.  Builds the matrix's
# test program against NAME and writes to OUT the program, the shim,
# "libs" (every file NAME's loader maps for them: PATH<TAB>REAL-PATH) and
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
    # NAME's own loader lists what it maps (its ldd script may not find
    # it in a prefix); libgcc_s is loaded by name when a thread exits or
    # is cancelled.
    ldso=$prefix/lib/ld-linux-x86-64.so.2
    { for f in "$out/mxcheck" "$out/librseq-compat.so.1"; do
        LD_TRACE_LOADED_OBJECTS=1 "$ldso" "$f"
      done | sed -n 's/.*=> \(\/[^ ]*\) .*/\1/p; s/^[[:space:]]*\(\/[^ ]*\) (0x.*/\1/p'
      echo "$ldso"
      echo "$prefix/lib/libgcc_s.so.1"; } | sort -u > "$out/libs.list"
    v=$("$prefix/lib/libc.so.6" | sed -n '1s/.*version \([0-9][0-9.]*[0-9]\).*/\1/p')
    echo "glibc $v" > "$out/version"
    ;;
  musl-*)
    "$prefix/bin/musl-gcc" $cflags tests/matrix/mxcheck.c -o "$out/mxcheck"
    cp build/musl/librseq-compat.so.1 "$out/"
    ldso=$prefix/lib/ld-musl-x86_64.so.1
    echo "$ldso" > "$out/libs.list"
    v=$("$ldso" 2>&1 | sed -n 's/^Version //p')
    echo "musl $v" > "$out/version"
    ;;
esac
echo "upstream, built in bullseye" >> "$out/version"
# PATH<TAB>the file it is, resolved here (the loader's name is an
# absolute link).
while read -r p; do printf '%s\t%s\n' "$p" "$(readlink -f "$p")"; done \
  < "$out/libs.list" > "$out/libs"
