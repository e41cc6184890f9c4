#!/bin/sh
# run-tests.sh DIR: run the patched glibc's own rseq tests on this
# machine, as glibc's make check runs them, and report.  DIR is the
# guest/ directory make check-glibc GLIBC_ARCH=ARCH writes (this
# script is its run-tests.sh): glibc/ the staged install, tests/ the
# test programs, tests.list what guest-tests.sh took from the tree's
# Makefile ("SUBDIR/NAME static|dynamic [VAR=VALUE...]").  With
# RUN_TESTS_EMULATOR (a QEMU user-mode emulator), every program runs
# under it: the s390x build is run that way on an x86-64 machine.
#
# A dynamic test runs through the patched loader with --library-path
# naming the staged libraries, as glibc's rtld-prefix does, so neither
# the machine's own libc nor its ld.so.cache choices for libc are used;
# a static one runs as it is.  Each gets glibc's run-program-env (LC_ALL=C,
# GCONV_PATH at the staged iconv modules; there is no built locale
# directory for LOCPATH), its own NAME-ENV, and nothing else from the
# caller but TIMEOUTFACTOR (glibc's test driver stretches its timeout by
# it: a slow emulated guest may need it).  Prints "PASS: SUBDIR/NAME" or
# "FAIL: SUBDIR/NAME (exit N)" followed by the test's output, and exits 1
# if any test failed or none ran.  Exit 77 is glibc's UNSUPPORTED, which
# counts as a failure here.  Outputs are kept in DIR/out/ (or
# $RUN_TESTS_OUT).  POSIX sh.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
dir=${1:?usage: run-tests.sh DIR (the directory of run-tests.sh)}
rtld=
for f in "$dir"/glibc/lib/ld-linux-*.so.* "$dir"/glibc/lib/ld-linux.so.* \
         "$dir"/glibc/lib/ld64.so.* \
         "$dir"/glibc/lib64/ld-linux-*.so.* "$dir"/glibc/lib64/ld64.so.*; do
  [ -e "$f" ] && { rtld=$f; break; }
done
[ -n "$rtld" ] || { echo "FAIL: no loader in $dir/glibc/lib or lib64"; exit 1; }
# The libraries are where the loader itself is (the link in lib points
# there): lib64 for a 64-bit build, lib for i686; usr/ alike.  glibc
# 2.36 installs the loader itself in lib, not a link, and a 64-bit
# build's libraries in lib64.
lib=$(dirname "$(readlink -f "$rtld")")
[ -e "$lib/libc.so.6" ] || [ ! -e "$dir/glibc/lib64/libc.so.6" ] || lib=$dir/glibc/lib64
usrlib=$dir/glibc/usr/${lib##*/}
out=${RUN_TESTS_OUT:-$dir/out}
[ -r "$dir/tests.list" ] || { echo "FAIL: no $dir/tests.list"; exit 1; }

status=0 n=0
while read -r t kind env; do
  case $t in ''|'#'*) continue ;; esac
  n=$((n + 1))
  mkdir -p "$out/${t%/*}" || exit 1
  case $kind in
    static) set -- ${RUN_TESTS_EMULATOR:-} "$dir/tests/$t" ;;
    dynamic) set -- ${RUN_TESTS_EMULATOR:-} "$rtld" --library-path "$lib" "$dir/tests/$t" ;;
    *) echo "FAIL: $t (tests.list: unknown kind '$kind')"; status=1; continue ;;
  esac
  # $env is the Makefile's VAR=VALUE words, split as make would pass them.
  # shellcheck disable=SC2086
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C \
    GCONV_PATH="$usrlib/gconv" ${TIMEOUTFACTOR:+TIMEOUTFACTOR=$TIMEOUTFACTOR} \
    $env "$@" > "$out/$t.out" 2>&1 < /dev/null
  rc=$?
  if [ $rc -eq 0 ]; then
    echo "PASS: $t"
  else
    why="exit $rc"
    [ $rc -ne 77 ] || why="exit 77: UNSUPPORTED"
    echo "FAIL: $t ($why)"
    sed 's/^/  | /' "$out/$t.out"
    status=1
  fi
done < "$dir/tests.list"
[ $n -gt 0 ] || { echo "FAIL: $dir/tests.list names no test"; exit 1; }
exit $status
