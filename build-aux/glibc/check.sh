#!/bin/sh
# check.sh: make check-glibc.
#   1. the unpatched glibc-source build's results for $GL_SUBDIRS
#      (cached under $RSEQ_COMPAT_CACHE/glibc/baseline/KEY, KEY = source
#      version + the chroot's toolchain versions + the subset);
#   2. make glibc (the patched build) and the same subset on it, with the
#      backport's own tests;
#   3. no test may fail that passes in the baseline, every own test must
#      pass, check-abi (ld.so, libc and the rest) must pass;
#   4. the project's tests/ on the patched glibc (project-tests.sh).
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

# 1. Baseline.
key=$GL_SOURCE_VERSION-$tool-$(echo $GL_SUBDIRS | tr ' ' _)
base=$GL_CACHE/baseline/$key
if [ ! -e "$base/.complete" ]; then
  gl_log "baseline: building unpatched glibc-source $GL_SOURCE_VERSION (log: $GL_LOG-build-base.log)"
  s=$(date +%s)
  gl_build "$GL_WORK/$GL_UPSTREAM" "$GL_WORK/build-base" "$GL_LOG-build-base.log" ||
    gl_die "the unpatched glibc does not build; see $GL_LOG-build-base.log"
  rm -rf "$base.partial"
  mkdir -p "$base.partial"
  echo "$(( $(date +%s) - s ))" > "$base.partial/build.seconds"
  for d in $GL_SUBDIRS; do
    gl_log "baseline: make check in $d"
    s=$(date +%s)
    gl_subdir_check "$GL_WORK/$GL_UPSTREAM" "$GL_WORK/build-base" "$d" "$base.partial/check-$d.log"
    echo "$(( $(date +%s) - s ))" > "$base.partial/check-$d.seconds"
    cp "$GL_ROOT$GL_WORK/build-base/$d/subdir-tests.sum" "$base.partial/$d.sum" ||
      gl_die "baseline: make check in $d left no subdir-tests.sum; see $base.partial/check-$d.log"
    gl_keep_failures "$base.partial/$d.sum" "$GL_WORK/build-base" "$base.partial/failures"
  done
  touch "$base.partial/.complete"
  rm -rf "$base"
  mv "$base.partial" "$base"
  # The baseline build is only needed for its results.
  rm -rf "$GL_ROOT$GL_WORK/build-base"
else
  gl_log "baseline: cached results for $key"
fi

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

# 3. Compare.
report=$out/report.md
{
  echo "# make check-glibc: glibc-source $GL_SOURCE_VERSION, baseline vs patched"
  echo
  echo "The quilt series (make glibc-patch, $(wc -l < "$out/glibc-patch/patches/series") patches) applied with"
  echo "quilt push -a to a pristine tree gives exactly the tree built."
  echo
  echo "| subdir | build | PASS | FAIL | UNSUPPORTED | XFAIL | XPASS |"
  echo "|---|---|---|---|---|---|---|"
  for d in $GL_SUBDIRS; do
    for w in baseline patched; do
      f=$base/$d.sum; [ $w = patched ] && f=$out/patched/$d.sum
      set -- $(gl_counts "$f")
      echo "| $d | $w | $2 | $4 | $6 | $8 | ${10} |"
    done
  done
  echo
} > "$report"

new=$out/new-failures
: > "$new"
for d in $GL_SUBDIRS; do
  grep '^FAIL: ' "$base/$d.sum" | LC_ALL=C sort > "$out/base-fail-$d" || :
  grep '^FAIL: ' "$out/patched/$d.sum" | LC_ALL=C sort > "$out/patched-fail-$d" || :
  LC_ALL=C comm -13 "$out/base-fail-$d" "$out/patched-fail-$d" >> "$new"
  # A test of the baseline that the patched run did not report at all.
  sed -n 's/^[A-Z]*: //p' "$base/$d.sum" | LC_ALL=C sort > "$out/base-all-$d"
  sed -n 's/^[A-Z]*: //p' "$out/patched/$d.sum" | LC_ALL=C sort > "$out/patched-all-$d"
  LC_ALL=C comm -23 "$out/base-all-$d" "$out/patched-all-$d" | sed 's/^/MISSING: /' >> "$new"
done
# A new failure gets one rerun on its own (the machine may be loaded);
# it counts as a failure unless the rerun passes, and is reported.
: > "$out/flaky"
grep '^FAIL: ' "$new" | sed 's/^FAIL: //' | while read -r t; do
  rlog=$fails/rerun/$t.log
  mkdir -p "$(dirname "$rlog")"
  if gl_in_chroot /bin/sh -c 'cd "$1" && $4 make -r objdir="$2" test t="$3"' sh \
       "$src" "$build" "$t" "$GL_DEFAULT_SIGNALS" > "$rlog" 2>&1 &&
     grep -q '^PASS: ' "$rlog"; then
    echo "$t" >> "$out/flaky"
  fi
done
sed 's/^/FAIL: /' "$out/flaky" | grep -v -x -F -f - "$new" > "$new.final" || :

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
  echo "Baseline failures (cached, $key):"
  echo
  cat "$base"/*.sum | grep '^FAIL: ' | sed 's/^/    /' || echo "    none"
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

# 4. The project's own tests on the patched glibc.
{
  echo
  echo "## The project's tests/ on the patched glibc"
  echo
} >> "$report"
if line=$("$here/project-tests.sh" "$out"); then
  echo "    $line" >> "$report"
else
  echo "    FAILED: $line (see $out/project-check.log)" >> "$report"; status=1
fi

{
  echo
  echo "make glibc (patched): $(cat "$GL_CACHE/build-patched.seconds" 2>/dev/null) s this run;"
  echo "last full build from a fresh build directory: $(cat "$GL_CACHE/build-patched-full.seconds" 2>/dev/null || echo unknown) s."
  echo "Baseline build: $(cat "$base/build.seconds") s; glibc make check, baseline:"
  echo "$(for d in $GL_SUBDIRS; do printf '%s %s s, ' $d "$(cat "$base/check-$d.seconds")"; done)"
  echo "patched: $(for d in $GL_SUBDIRS; do printf '%s %s s, ' $d "$(cat "$out/patched/check-$d.seconds")"; done)"
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
