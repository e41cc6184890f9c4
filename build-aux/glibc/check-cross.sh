#!/bin/sh
# check-cross.sh: make check-glibc for a cross-built GLIBC_ARCH
# (aarch64; check.sh hands over to it).  This machine cannot run what
# it built, so it checks what needs no arm64 machine and prepares the
# rest for one:
#   1. make glibc (the cross build) and the exported quilt series
#      reproducing the tree built (patch.sh verify);
#   2. make check-abi: every library against its abilist, ld.so's with
#      the series' __rseq_* at GLIBC_2.35 (the series' last patch adds
#      them to aarch64's ld.abilist as to x86_64's), must pass;
#   3. the series' own tests (GL_OWN_TESTS) built, not run: a cross
#      build's run-built-tests is no;
#   4. make install DESTDIR (gl_stage);
#   5. $GL_OUT/guest/, for make check-aarch64 to copy into its arm64
#      guest: glibc/ (the staged install), tests/SUBDIR/NAME (the test
#      programs), tests.list (guest-tests.sh), run-tests.sh (runs them
#      there as glibc's make check would) and overlay.sh (lays glibc/
#      over a copy of an arm64 Debian root).
# Writes $GL_OUT/report.md (build/glibc-aarch64/).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
t0=$(date +%s)
out=$GL_OUT
mkdir -p "$out"
"$here/build.sh"
"$here/patch.sh" "$out/glibc-patch" verify

report=$out/report.md
status=0
{
  echo "# make check-glibc GLIBC_ARCH=$GLIBC_ARCH: glibc-source $GL_SOURCE_VERSION, cross-built"
  echo
  echo "The quilt series (make glibc-patch, $(wc -l < "$out/glibc-patch/patches/series") patches) applied with"
  echo "quilt push -a to a pristine tree gives exactly the tree built."
  echo
  echo "## check-abi"
  echo
} > "$report"
gl_check_abi "$report" "$out/check-abi.log" || status=1

# The own tests' programs, each by its target in its subdirectory
# (glibc's make check in a subdirectory would build all of its tests).
# The support library they link with is made first: it is only built
# for tests.
{
  echo
  echo "## The series' own tests (built, not run)"
  echo
} >> "$report"
subdirs=$(for t in $GL_OWN_TESTS; do echo "${t%%/*}"; done | LC_ALL=C sort -u)
s=$(date +%s)
: > "$out/build-tests.log"
for d in support $subdirs; do
  targets=
  for t in $GL_OWN_TESTS; do
    case $t in "$d"/*) targets="$targets $GL_BUILD/$t" ;; esac
  done
  [ "$d" != support ] || targets=others
  # shellcheck disable=SC2086
  gl_in_chroot /bin/sh -c 'src=$1 build=$2 d=$3 jobs=$4; shift 4
    cd "$src" && make -r -j"$jobs" objdir="$build" subdir="$d" -C "$d" ..=../ "$@"' \
    sh "$GL_SRC" "$GL_BUILD" "$d" "$GL_JOBS" $targets >> "$out/build-tests.log" 2>&1 ||
    { echo "    building $d:$targets failed (see $out/build-tests.log)" >> "$report"; status=1; }
done
for t in $GL_OWN_TESTS; do
  if [ -x "$GL_ROOT$GL_BUILD/$t" ]; then
    echo "    built: $t ($(file -b "$GL_ROOT$GL_BUILD/$t" | cut -d, -f1-2))" >> "$report"
  else
    echo "    MISSING: $t" >> "$report"; status=1
  fi
done
echo "$(( $(date +%s) - s ))" > "$out/build-tests.seconds"

# guest/.
guest=$out/guest
rm -rf "$guest"
mkdir -p "$guest/glibc"
if line=$(gl_stage "$out/stage-install.log"); then
  cp -a "$GL_ROOT$GL_STAGE/." "$guest/glibc/"
  rm -f "$guest/glibc/.rc-stamp"
else
  echo "    $line" >> "$report"; status=1
fi
for t in $GL_OWN_TESTS; do
  mkdir -p "$guest/tests/${t%/*}"
  [ ! -e "$GL_ROOT$GL_BUILD/$t" ] || cp "$GL_ROOT$GL_BUILD/$t" "$guest/tests/$t"
done
# shellcheck disable=SC2086
"$here/guest-tests.sh" "$GL_ROOT$GL_SRC/sysdeps/unix/sysv/linux/Makefile" $GL_OWN_TESTS \
  > "$guest/tests.list"
cp "$here/guest-run-tests.sh" "$guest/run-tests.sh"
cp "$here/overlay.sh" "$guest/overlay.sh"
chmod +x "$guest/run-tests.sh" "$guest/overlay.sh"
{
  echo
  echo "## guest/ for make check-aarch64"
  echo
  echo "    $guest ($(du -sh "$guest" | cut -f1)):"
  echo "    glibc/ (make install DESTDIR), tests/, tests.list, run-tests.sh, overlay.sh"
  echo "    in the guest: sh DIR/run-tests.sh DIR; tests.list:"
  sed 's/^/      /' "$guest/tests.list"
  echo
  echo "make glibc (cross): $(cat "$GL_CACHE/build-patched.seconds" 2>/dev/null) s this run;"
  echo "last full build from a fresh build directory: $(cat "$GL_CACHE/build-patched-full.seconds" 2>/dev/null || echo unknown) s."
  echo "The six tests built in $(cat "$out/build-tests.seconds") s."
  echo "make check-glibc GLIBC_ARCH=$GLIBC_ARCH: $(( $(date +%s) - t0 )) s this run."
} >> "$report"
cat "$report"
if [ $status -eq 0 ]; then
  gl_log "make check-glibc GLIBC_ARCH=$GLIBC_ARCH: PASS ($report; run guest/run-tests.sh in an arm64 guest)"
else
  gl_log "make check-glibc GLIBC_ARCH=$GLIBC_ARCH: FAIL ($report)"
fi
exit $status
