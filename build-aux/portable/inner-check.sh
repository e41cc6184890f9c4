#!/bin/sh
# inner-check.sh NAME CC KIND DIR MODE SIZE LEN WORK [LIBDIR]: runs where the C
# library NAME is the one CC builds for (a chroot, an older C library's
# prefix in one, or the host), with the portable tree unpacked at DIR.
# Builds tests/matrix/mxcheck.c and hold.c with CC in WORK and checks,
# against MODE SIZE LEN (the matrix's expectations for this C library
# and kernel, never the shim's): mxcheck with the shim preloaded by its
# path, mxcheck started by DIR's rseq-compat run (the preload layout
# next to the command, the loader's $LIB), and rseq-compat info -p of
# a running program.  KIND is glibc or musl.  Prints one line; exits 1
# when anything failed.  LIBDIR is where the files are installed
# (default DIR/lib; make check-rpm's packages: /usr/lib64).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
name=$1 cc=$2 kind=$3 dir=$4 mode=$5 size=$6 len=$7 work=$8 libdir=${9:-$4/lib}
rm -rf "$work" && mkdir -p "$work" || exit 1
src=$(pwd)/tests/matrix
fail=
note() { fail="$fail; $*"; }
# The installed header alone: DIR/include may be /usr/include, whose
# other headers are not the C library CC builds for.
mkdir -p "$work/inc" && ln -s "$dir/include/rseq-compat.h" "$work/inc/" || exit 1
$cc -std=gnu11 -O2 -pthread -I"$work/inc" "$src/mxcheck.c" -o "$work/mxcheck" -ldl \
  > "$work/cc.log" 2>&1 &&
  $cc -std=gnu11 -O2 -pthread "$src/hold.c" -o "$work/hold" >> "$work/cc.log" 2>&1 || {
    echo "$name: FAIL: the test programs did not build with $cc (log: $work/cc.log)"; exit 1; }
case $kind in
  glibc) shim=$libdir/librseq-compat.so.1 ;;
  musl) shim=$libdir/rseq-compat/musl/librseq-compat.so.1 ;;
esac
cd "$work" || exit 1
expect="MX_MODE=$mode MX_SIZE=$size MX_LEN=$len MX_STRESS=2"
# mxcheck's last line: "mxcheck: N ok, M failed".
verdict() { tail -n 1 "$1" | sed -n 's/^mxcheck: \([0-9]* ok, 0 failed\)$/\1/p'; }
env $expect LD_PRELOAD="$shim" ./mxcheck > direct.out 2>&1
direct=$(verdict direct.out)
[ -n "$direct" ] || note "preloaded by path: $(grep -m 3 '^FAIL' direct.out | tr '\n' ' ')$(tail -n 1 direct.out)"
env $expect "$dir/bin/rseq-compat" run ./mxcheck > run.out 2>&1
run=$(verdict run.out)
[ -n "$run" ] || note "rseq-compat run: $(grep -m 3 '^FAIL' run.out | tr '\n' ' ')$(tail -n 1 run.out)"

# Where this C library is the system's (PORTABLE_SELF=1: a Debian
# suite's glibc), the check the documentation gives: rseq-compat run
# rseq-compat info.
if [ "${PORTABLE_SELF:-}" = 1 ]; then
  "$dir/bin/rseq-compat" run "$dir/bin/rseq-compat" info --json > self.json 2>&1
  self_mode=$(sed -n 's/^  "mode": "\([^"]*\)",*$/\1/p' self.json)
  self_shim=$(sed -n 's/^  "shim": "\([^"]*\)",*$/\1/p' self.json)
  [ "$self_mode" = "$mode" ] && [ "$self_shim" = "$(readlink -f "$shim")" ] ||
    note "rseq-compat run rseq-compat info: mode '$self_mode', shim '$self_shim' (wanted $mode, $(readlink -f "$shim"))"
fi

"$dir/bin/rseq-compat" run ./hold > hold.out 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! grep -q '^ready$' hold.out 2>/dev/null; do sleep 0.2; i=$((i + 1)); done
"$dir/bin/rseq-compat" info -p "$pid" --json > info.json 2> info.err
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
field() { sed -n "s/^  \"$1\": \"*\([^\",]*\)\"*,*$/\1/p" info.json | head -n 1; }
got="libc $(field libc) $(field libc_version), mode $(field mode), __rseq_size $(field rseq_size), shim $(field shim)"
[ "$(field libc)" = "$kind" ] || note "info -p: C library '$(field libc)', not $kind ($(cat info.err))"
[ "$(field mode)" = "$mode" ] || note "info -p: mode '$(field mode)', not $mode"
[ "$(field rseq_size)" = "$size" ] || note "info -p: __rseq_size '$(field rseq_size)', not $size"
case $mode:$(field shim) in
  libc-owned:*) ;;
  *:"$dir"/*|*:"$libdir"/*) ;;
  *) note "info -p: shim '$(field shim)', not one under $dir" ;;
esac
if [ -n "$fail" ]; then
  echo "$name: FAIL${fail} (files: $work)"
  exit 1
fi
echo "$name: pass: by path $direct; by rseq-compat run $run; info -p: $got"
