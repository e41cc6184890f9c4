#!/bin/sh
# check.sh: make check-glibc.
#   1. the unpatched glibc-source build and the names of its tests in
#      $GL_SUBDIRS (kept under $RSEQ_COMPAT_CACHE/glibc/baseline/KEY and
#      in the chroot, KEY = source version + the chroot's toolchain);
#   2. make glibc (the patched build) and glibc's make check for the
#      subset on it, with the backport's own tests;
#   3. every test that fails there is run alone in the unpatched build:
#      none may fail that passes there, none may be missing, every own
#      test must pass, check-abi (ld.so, libc and the rest) must pass.
# The project's own tests on the patched glibc are make
# check-glibc-project (check-project.sh), a tier of their own.
# Writes build/glibc/report.md (build/glibc-bookworm/ for
# GLIBC_SUITE=bookworm).  A passing run is remembered by the hash of the
# change, the scripts and the toolchain; an identical rerun says so and
# does not rebuild (GL_RECHECK=1 forces it).  GLIBC_ARCH=aarch64:
# check-cross.sh instead.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
# A cross build cannot run glibc's tests here: check-cross.sh checks
# what it can and prepares the rest for an arm64 guest.
[ "$GLIBC_ARCH" = x86_64 ] || exec "$here/check-cross.sh"
t0=$(date +%s)
out=$GL_OUT
mkdir -p "$out"
"$here/deps.sh"
"$here/chroot.sh"
gl_unpack
tool=$(gl_toolchain_hash)
change=$(gl_change_hash)
pass_stamp=$GL_CACHE/passed-$GL_SOURCE_VERSION-$change-$tool-$(echo $GL_SUBDIRS | tr ' ' _)
if [ -e "$pass_stamp" ] && [ "${GL_RECHECK:-0}" != 1 ]; then
  gl_log "CACHED RESULT: this exact change (hash $change), these scripts and"
  gl_log "this toolchain ($tool) passed make check-glibc on $(cat "$pass_stamp");"
  gl_log "nothing rebuilt or rerun.  GL_RECHECK=1 make check-glibc runs it all."
  exit 0
fi

# 1. Baseline: the unpatched build, kept in the chroot, and the names
# of its tests.  Its tests are not all run: only those that fail in the
# patched run, alone (gl_base_result), which is what the comparison
# needs and saves a whole make check per series.
key=$GL_SOURCE_VERSION-$tool
base=$GL_CACHE/baseline/$key
bsrc=$GL_WORK/$GL_UPSTREAM
bbuild=$GL_WORK/build-base
if [ ! -e "$base/.complete" ] || [ ! -e "$GL_ROOT$bbuild/libc.so" ]; then
  gl_log "baseline: building unpatched glibc-source $GL_SOURCE_VERSION (log: $GL_LOG-build-base.log)"
  s=$(date +%s)
  rm -rf "$base" "$GL_ROOT$bbuild"
  gl_build "$bsrc" "$bbuild" "$GL_LOG-build-base.log" ||
    gl_die "the unpatched glibc does not build; see $GL_LOG-build-base.log"
  mkdir -p "$base"
  echo "$(( $(date +%s) - s ))" > "$base/build.seconds"
  touch "$base/.complete"
else
  gl_log "baseline: cached build $key"
fi
for d in $GL_SUBDIRS; do
  [ -s "$base/$d.tests" ] || gl_test_names "$bsrc" "$bbuild" "$d" > "$base/$d.tests" ||
    gl_die "baseline: no test list for $d (make -n check failed)"
done

# gl_base_result TEST: PASS or FAIL, TEST run alone in the unpatched
# build (remembered in $base/results/); NORESULT when glibc's make
# reported neither (the test could not be built or run), which excuses
# nothing.
gl_base_result() {
  if [ ! -s "$base/results/$1" ]; then
    mkdir -p "$(dirname "$base/results/$1")"
    if gl_run_test "$bsrc" "$bbuild" "$1" "$base/results/$1.log"; then
      echo PASS
    elif grep -q -x -F "FAIL: $1" "$base/results/$1.log"; then
      echo FAIL
    else
      echo NORESULT
    fi > "$base/results/$1"
  fi
  cat "$base/results/$1"
}

# 2. The patched build and its tests.
"$here/build.sh"
# The exported quilt series reproduces the tree just built.
"$here/patch.sh" "$out/glibc-patch" verify
src=$GL_SRC
build=$GL_BUILD
rm -rf "$out/patched"
mkdir -p "$out/patched"
# The output of every failing test of this run, and of its reruns, kept
# apart from the build tree (build/glibc/failures/RUN/), never removed by
# a later run.
run_id=$(date -u +%Y%m%dT%H%M%SZ)
fails=$out/failures/$run_id
status=0
for d in $GL_SUBDIRS; do
  gl_log "patched: make check in $d"
  s=$(date +%s)
  gl_subdir_check "$src" "$build" "$d" "$out/patched/check-$d.log"
  echo "$(( $(date +%s) - s ))" > "$out/patched/check-$d.seconds"
  cp "$GL_ROOT$build/$d/subdir-tests.sum" "$out/patched/$d.sum" || {
    gl_log "patched: make check in $d left no subdir-tests.sum; see $out/patched/check-$d.log"
    : > "$out/patched/$d.sum"; status=1; }
  gl_keep_failures "$out/patched/$d.sum" "$build" "$fails/first-run"
done


# A test that fails in the patched run is a new failure unless it also
# fails, run alone, in the unpatched build, or passes when rerun alone
# in the patched one (the machine may be loaded; reported as such).  A
# test the unpatched build does not have (the backport's own) has
# nothing to compare with: its failure is new.
new=$out/new-failures
: > "$new"
: > "$out/flaky"
: > "$out/base-also-fail"
for d in $GL_SUBDIRS; do
  grep '^FAIL: ' "$out/patched/$d.sum" | sed 's/^FAIL: //' | while read -r t; do
    r=NEW
    grep -q -x -F "$t" "$base/$d.tests" && r=$(gl_base_result "$t")
    if [ "$r" = FAIL ]; then
      echo "$t" >> "$out/base-also-fail"
    elif [ "$r" = NORESULT ]; then
      echo "FAIL: $t (and no result alone in the unpatched build: $base/results/$t.log)" >> "$new"
    elif [ "$r" = PASS ] && gl_run_test "$src" "$build" "$t" "$fails/rerun/$t.log"; then
      echo "$t" >> "$out/flaky"
    else
      echo "FAIL: $t" >> "$new"
    fi
  done
  # A test of the unpatched build that the patched run did not report.
  sed -n 's/^[A-Z]*: //p' "$out/patched/$d.sum" | LC_ALL=C sort > "$out/patched-all-$d"
  LC_ALL=C sort "$base/$d.tests" | LC_ALL=C comm -23 - "$out/patched-all-$d" |
    sed 's/^/MISSING: /' >> "$new"
done
cp "$new" "$new.final"

# 3. The report.
report=$out/report.md
{
  echo "# make check-glibc: glibc-source $GL_SOURCE_VERSION, baseline vs patched"
  echo
  echo "The quilt series (make glibc-patch, $(wc -l < "$out/glibc-patch/patches/series") patches) applied with"
  echo "quilt push -a to a pristine tree gives exactly the tree built."
  echo
  echo "Patched: glibc's make check, $GL_CHECK_JOBS jobs.  Unpatched: each test that"
  echo "failed in the patched run, run alone (\`make test t=...\`)."
  echo
  echo "| subdir | tests (unpatched) | PASS | FAIL | UNSUPPORTED | XFAIL | XPASS | failed in both |"
  echo "|---|---|---|---|---|---|---|---|"
  for d in $GL_SUBDIRS; do
    set -- $(gl_counts "$out/patched/$d.sum")
    echo "| $d | $(wc -l < "$base/$d.tests") | $2 | $4 | $6 | $8 | ${10} | $(grep -c "^$d/" "$out/base-also-fail" || :) |"
  done
  echo
} > "$report"
{
  echo "## Failures in the patched build that the baseline does not have"
  echo
  if [ -s "$new.final" ]; then sed 's/^/    /' "$new.final"; else echo "None."; fi
  if [ -s "$out/flaky" ]; then
    echo
    echo "Failed once, passed when rerun alone (load on the machine); the"
    echo "first run's output is kept in $fails/first-run:"
    sed 's/^/    /' "$out/flaky"
  fi
  if [ -d "$fails" ]; then
    echo
    echo "The output of every test that failed in this run: $fails"
  fi
  echo
  echo "Failed in the patched run and, alone, in the unpatched build ($key):"
  echo
  if [ -s "$out/base-also-fail" ]; then sed 's/^/    /' "$out/base-also-fail"; else echo "    none"; fi
  echo
  echo "## The backport's own tests"
  echo
} >> "$report"
[ -s "$new.final" ] && status=1
for t in $GL_OWN_TESTS; do
  d=${t%%/*}
  r=$(grep -E "^[A-Z]+: $t\$" "$out/patched/$d.sum" | cut -d: -f1)
  echo "    ${r:-MISSING}: $t" >> "$report"
  [ "$r" = PASS ] || status=1
done

# check-abi for every library (ld.so and libc included).
{
  echo
  echo "## check-abi"
  echo
} >> "$report"
gl_check_abi "$report" "$out/check-abi.log" || status=1

{
  echo
  echo "make glibc (patched): $(cat "$GL_CACHE/build-patched.seconds" 2>/dev/null) s this run;"
  echo "last full build from a fresh build directory: $(cat "$GL_CACHE/build-patched-full.seconds" 2>/dev/null || echo unknown) s."
  echo "Unpatched build: $(cat "$base/build.seconds") s (when it was built)."
  echo "glibc make check, patched: $(for d in $GL_SUBDIRS; do printf '%s %s s, ' $d "$(cat "$out/patched/check-$d.seconds")"; done)"
  echo "make check-glibc: $(( $(date +%s) - t0 )) s this run."
} >> "$report"
cat "$report"
if [ $status -eq 0 ]; then
  date -u '+%Y-%m-%d %H:%M UTC' > "$pass_stamp"
  gl_log "make check-glibc: PASS ($report)"
else
  gl_log "make check-glibc: FAIL ($report)"
fi
exit $status
