#!/bin/sh
# check.sh NAME OUT: the shim's make check tests (tests/rseq.shim) on
# the C library NAME, in the bullseye chroot.  NAME's installed tree
# (build.sh) is put at its prefix there; the project is configured with
# NAME's compiler driver, so that the shim, the command and every test
# program are built against NAME and run by NAME's own loader: the
# prefix holds the loader, the libraries and their ld.so.cache, so NAME
# is the system C library of all of them, and a program started from
# one of them is too.  For glibc the compiler is CC; for musl it is
# MUSL_CC (next to Debian's glibc, as on the host).  Keeps the log and
# rseq.sum as OUT/check-NAME.{log,sum}, prints make check's closing line
# and exits with its status.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/common.sh"
name=$1
out=$2
mkdir -p "$out"
tarball=$("$OL_HERE/build.sh" "$name") || exit 1
prefix=$(ol_prefix "$name")
rm -rf "$OL_ROOT$prefix"
tar -C "$OL_ROOT" -xzf "$tarball" || ol_die "$name: cannot unpack $tarball"

work=/rco/$name
rm -rf "$OL_ROOT$work" && mkdir -p "$OL_ROOT$work/src"
sh "$OL_TOP/build-aux/tree-files" "$OL_TOP" | (cd "$OL_TOP" && tar --null -T - -cf -) |
  tar -xf - -C "$OL_ROOT$work/src"

# The clang and aarch64 copies test compilers, not C libraries: they are
# left to the Debian userlands (make check, check-matrix).
nocc="ac_cv_prog_CLANG= ac_cv_prog_CROSS_CC_AARCH64="
case $name in
  glibc-*) ccs="CC=$prefix/bin/rc-cc ac_cv_prog_MUSL_CC= $nocc" ;;
  musl-*) ccs="MUSL_CC=$prefix/bin/musl-gcc $nocc" ;;
esac
# static-old.exp is left out: run on the host, it links static programs
# against these very builds (from RSEQ_COMPAT_CACHE, which the chroot
# cannot see).  Not named, rather than EXCLUDE (matrix/common.sh,
# MX_EXCLUDE): this list names every file anyway.  The log says why.
tests=$(cd "$OL_TOP/tests/rseq.shim" && ls ./*.exp | sed 's|^\./||' |
  grep -v '^static-old\.exp$' | tr '\n' ' ')
# The chroot's own programs (/bin/sh, expect, valgrind's launcher,
# setpriv) are Debian's glibc 2.31 programs.  A glibc that new or newer
# becomes their C library too, for the whole run (inner-syslibc.sh):
# then a shim built on it can be preloaded into them, as on a system
# that ships it (built on 2.34 it needs that glibc's symbol versions).
# An older glibc cannot run them; a shim built on it loads into them
# as they are.
syslibc=
case $name in
  glibc-2.3[1-9]*|glibc-2.[4-9][0-9]*)
    syslibc="sh build-aux/oldlibc/inner-syslibc.sh $prefix ${name#glibc-} &&" ;;
esac
log=$out/check-$name.log
{
  echo "oldlibc: $name: make check leaves out $MX_EXCLUDE_WHY"
  MX_SYSFS=1 mx_in_chroot "$OL_ROOT" sh -c "cd $work/src && $syslibc env $ccs ./configure &&
    make -j\$(nproc) all && make check RUNTESTFLAGS='$tests'"
} >"$log" 2>&1
status=$?
cp "$OL_ROOT$work/src/build/tests/rseq.sum" "$out/check-$name.sum" 2>/dev/null || :

# The test root for make check-matrix's guests and host run (a row
# named bullseye-NAME, as build-aux/matrix/build.sh stages them):
# tests/matrix/mxcheck.c and the shim built against NAME, and the files
# NAME's loader maps for them, at their paths.
row=$out/roots/bullseye-$(echo "$name" | tr -d -)
rm -rf "$row"
if [ $status -eq 0 ]; then
  MX_SYSFS=1 mx_in_chroot "$OL_ROOT" sh -c "cd $work/src && sh build-aux/oldlibc/inner-stage.sh $name $prefix $work/stage" \
    >>"$log" 2>&1 || status=$?
fi
if [ $status -eq 0 ]; then
  mx_stage_root "$OL_ROOT$work/stage" "$OL_ROOT" "$row" || status=1
fi
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)

# stress-ng (Debian's, a glibc 2.31 program) runs where this glibc is
# the chroot's system C library: the shim built against it must not
# change any stressor's outcome (tests/soak/stress-diff; make soak does
# the same on bullseye's own glibc).  The older glibcs cannot run it.
if [ $status -eq 0 ] && [ -n "$syslibc" ]; then
  if mx_ensure_deps "$OL_ROOT" "$OL_SUITE" "$out/stress-deps-$name.log" \
       "$OL_TOP/tests/soak/debian-packages"; then
    stress=$(MX_SYSFS=1 mx_in_chroot "$OL_ROOT" sh -c "cd $work/src && $syslibc
      sh tests/soak/stress-diff $name $work/src/build/librseq-compat.so.1 \
        ${OLDLIBC_STRESS_SECONDS:-3} $work/stress" 2>>"$log")
    [ $? -eq 0 ] || status=1
    printf '%s\n' "$stress" >> "$log"
    rm -rf "$out/stress-$name" && cp -r "$OL_ROOT$work/stress" "$out/stress-$name" 2>/dev/null
    verdict=$(printf '%s\n' "$stress" | tail -n 1 | sed "s/^stress\[$name\]: //")
  else
    status=1 verdict="FAIL: installing stress-ng failed (see $out/stress-deps-$name.log)"
  fi
  line="${line:-no result line (see $log)}; stress-ng: $verdict"
fi
echo "${line:-no result line (see $log)}"
exit $status
