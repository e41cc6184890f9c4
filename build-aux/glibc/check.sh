#!/bin/sh
# check.sh: make check-glibc.
#   1. what the patched build's results are compared with: the committed
#      lists build-aux/glibc/tests-SUITE (the unpatched build's test
#      names in $GL_SUBDIRS) and build-aux/glibc/xfail-SUITE (the tests
#      that fail, run alone, in the unpatched build in this project's
#      chroot: glibc's XFAIL discipline); with GL_BASELINE=1 (make
#      check-full), or when the lists are for another glibc-source, the
#      unpatched build itself (kept under
#      $RSEQ_COMPAT_CACHE/glibc/baseline/KEY and in the chroot, KEY =
#      source version + the chroot's toolchain), which also rewrites
#      both lists and fails if the committed ones differ;
#   2. make glibc (the patched build) and glibc's make check for the
#      subset on it, with the backport's own tests;
#   3. a test that fails there passes only if it is on the XFAIL list,
#      passes when rerun alone, or fails alone in the unpatched build
#      too (built then, if it was not: a failure is confirmed before it
#      is reported); none may be missing, every own test must pass,
#      check-abi (ld.so, libc and the rest) must pass.
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
gl_chroot
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

# 1. What the patched run is compared with.
key=$GL_SOURCE_VERSION-$tool
base=$GL_CACHE/baseline/$key
bsrc=$GL_WORK/$GL_UPSTREAM
bbuild=$GL_WORK/build-base
xfail_list=$GL_TOP/build-aux/glibc/xfail-$GLIBC_SUITE
GL_HOST_LIST=$GL_TOP/build-aux/glibc/xfail-host
. "$here/xfail-host.sh"
names_list=$GL_TOP/build-aux/glibc/tests-$GLIBC_SUITE
baseline=${GL_BASELINE:-0}
# gl_list_subdirs LIST: the subdirectories LIST speaks for.
gl_list_subdirs() {
  sed -n 's/^#% subdirs: //p' "$1" 2>/dev/null
}
if [ "$baseline" != 1 ]; then
  for f in "$xfail_list" "$names_list"; do
    v=$(sed -n 's/^#% glibc-source: //p' "$f" 2>/dev/null) || v=
    if [ "$v" != "$GL_SOURCE_VERSION" ]; then
      gl_log "${f#"$GL_TOP"/} is for glibc-source '${v:-none}', not $GL_SOURCE_VERSION:"
      gl_log "the unpatched build is the baseline (as with GL_BASELINE=1)"
      baseline=1
    fi
    for d in $GL_SUBDIRS; do
      case " $(gl_list_subdirs "$f") " in
        *" $d "*) ;;
        *) gl_log "${f#"$GL_TOP"/} does not cover $d (GL_SUBDIRS): the unpatched"
           gl_log "build is the baseline (as with GL_BASELINE=1)"
           baseline=1 ;;
      esac
    done
  done
fi

# gl_baseline: the unpatched build and the names of its tests, built
# once per KEY; its tests are not all run, only those gl_base_result
# asks for.
gl_baseline() {
  gl_base_build "$base"
  for d in $GL_SUBDIRS; do
    [ -s "$base/$d.tests" ] || gl_test_names "$bsrc" "$bbuild" "$d" > "$base/$d.tests" ||
      gl_die "baseline: no test list for $d (make -n check failed)"
  done
}

# What the unpatched build gives each test run alone there, taken
# afresh in each run (a failure under load once must not excuse the test
# for good).
results=$out/base-results
rm -rf "$results" "$out/names"
mkdir -p "$out/names"
if [ "$baseline" = 1 ]; then
  gl_baseline
  for d in $GL_SUBDIRS; do cp "$base/$d.tests" "$out/names/$d"; done
else
  gl_log "baseline: the committed lists ${names_list#"$GL_TOP"/} and ${xfail_list#"$GL_TOP"/}"
  for d in $GL_SUBDIRS; do grep "^$d/" "$names_list" > "$out/names/$d" || :; done
fi

# gl_base_result TEST: PASS or FAIL, TEST run alone in the unpatched
# build (remembered in $results/ for this run); NORESULT when glibc's make
# reported neither (the test could not be built or run), which excuses
# nothing.
gl_base_result() {
  gl_baseline
  if [ ! -s "$results/$1" ]; then
    mkdir -p "$(dirname "$results/$1")"
    if gl_run_test "$bsrc" "$bbuild" "$1" "$results/$1.log"; then
      echo PASS
    elif grep -q -x -F "FAIL: $1" "$results/$1.log"; then
      echo FAIL
    else
      echo NORESULT
    fi > "$results/$1"
  fi
  cat "$results/$1"
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


# A test that fails in the patched run is a new failure unless it is
# on the XFAIL list, passes when rerun alone in the patched build (the
# machine may be loaded; reported as such), or also fails alone in the
# unpatched build.  A test the unpatched build does not have (the
# backport's own) has nothing to compare with: its failure is new.
new=$out/new-failures
: > "$new"
: > "$out/flaky"
: > "$out/base-also-fail"
: > "$out/unlisted"
for d in $GL_SUBDIRS; do
  grep '^FAIL: ' "$out/patched/$d.sum" | sed 's/^FAIL: //' | while read -r t; do
    if [ "$baseline" != 1 ] && grep -q -x -F "$t" "$xfail_list"; then
      echo "$t" >> "$out/base-also-fail"
      continue
    fi
    # Failed on the checks xfail-host names for it, and on no other:
    # the machine's.  Not confirmed in the unpatched build either, but
    # in the full run (GL_BASELINE=1), which runs every failure there.
    if [ "$baseline" != 1 ] && gl_host_failure "$t" "$fails/first-run/$t.out"; then
      echo "$t (machine-dependent: build-aux/glibc/xfail-host)" >> "$out/base-also-fail"
      continue
    fi
    r=NEW
    if grep -q -x -F "$t" "$out/names/$d"; then
      if [ "$baseline" = 1 ]; then
        r=$(gl_base_result "$t" < /dev/null)
      else
        r=UNKNOWN
      fi
    fi
    if [ "$r" != NEW ] && [ "$r" != FAIL ] &&
       gl_run_test "$src" "$build" "$t" "$fails/rerun/$t.log" < /dev/null; then
      echo "$t" >> "$out/flaky"
      continue
    fi
    # Not on the list: confirmed in the unpatched build (built now if
    # need be) before it is reported.
    [ "$r" = UNKNOWN ] && r=$(gl_base_result "$t" < /dev/null)
    if [ "$r" = FAIL ]; then
      echo "$t" >> "$out/base-also-fail"
      [ "$baseline" = 1 ] || echo "$t" >> "$out/unlisted"
    elif [ "$r" = NORESULT ]; then
      echo "FAIL: $t (and no result alone in the unpatched build: $results/$t.log)" >> "$new"
    else
      echo "FAIL: $t" >> "$new"
    fi
  done
  # A test of the unpatched build that the patched run did not report.
  sed -n 's/^[A-Z]*: //p' "$out/patched/$d.sum" | LC_ALL=C sort > "$out/patched-all-$d"
  LC_ALL=C sort "$out/names/$d" | LC_ALL=C comm -23 - "$out/patched-all-$d" |
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
  echo "Patched: glibc's make check, $GL_CHECK_JOBS jobs.  Baseline: $(
    if [ "$baseline" = 1 ]; then
      echo "the unpatched build; each test that"
      echo "failed in the patched run, run alone there (\`make test t=...\`)."
    else
      echo "the committed lists"
      echo "${names_list#"$GL_TOP"/} and ${xfail_list#"$GL_TOP"/}; the unpatched build only"
      echo "to confirm a failure not on the XFAIL list."
    fi)"
  echo
  echo "| subdir | tests (unpatched) | PASS | FAIL | UNSUPPORTED | XFAIL | XPASS | failed in both |"
  echo "|---|---|---|---|---|---|---|---|"
  for d in $GL_SUBDIRS; do
    set -- $(gl_counts "$out/patched/$d.sum")
    echo "| $d | $(wc -l < "$out/names/$d") | $2 | $4 | $6 | $8 | ${10} | $(grep -c "^$d/" "$out/base-also-fail" || :) |"
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
  if [ "$baseline" = 1 ]; then
    echo "Failed in the patched run and, alone, in the unpatched build ($key):"
  else
    echo "Failed in the patched run and on the XFAIL list, or alone in the unpatched build:"
  fi
  echo
  if [ -s "$out/base-also-fail" ]; then sed 's/^/    /' "$out/base-also-fail"; else echo "    none"; fi
  if [ -s "$out/unlisted" ]; then
    echo
    echo "Of these, not on ${xfail_list#"$GL_TOP"/} (make check-full rewrites it):"
    sed 's/^/    /' "$out/unlisted"
  fi
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

# The 2.31 series with Debian's stock libraries: every mix refused; its
# clone windows in a static program; filters on rt_sigprocmask, against
# stock 2.31.
if [ "$GLIBC_SUITE" = bullseye ]; then
  "$here/mix-check.sh" "$report" "$out/mix-check.log" || status=1
  "$here/static-windows.sh" "$report" "$out/static-windows.log" || status=1
  "$here/mask-filters.sh" "$report" "$out/mask-filters.log" || status=1
fi

# With the baseline, the lists are written anew: the test names, and
# every test that failed alone in the unpatched build this run (the
# listed ones were each run there).  The committed lists must say the
# same, or the next run without the baseline would compare with a
# wrong list.
if [ "$baseline" = 1 ]; then
  for t in $(sed -e 's/#.*//' "$xfail_list" 2>/dev/null); do
    case " $GL_SUBDIRS " in *" ${t%%/*} "*) gl_base_result "$t" > /dev/null ;; esac
  done
  # The subdirectories this run covers, and those the committed list
  # covers that it does not, whose lines are kept as they are.
  gl_list_head() {
    echo "# $1 in glibc-source $GL_SOURCE_VERSION's unpatched build"
    echo "# (x86-64, the $GLIBC_SUITE chroot of build-aux/glibc/chroot.sh),"
    echo "# for make check-glibc without GL_BASELINE=1."
    echo "# Written by make check-glibc with GL_BASELINE=1 (make check-full):"
    echo "# copy build/$GL_NAME/lists/$(basename "$2") here when that run says so."
    echo "#% glibc-source: $GL_SOURCE_VERSION"
    echo "#% subdirs: $(for d in $GL_SUBDIRS $(gl_list_subdirs "$2"); do echo "$d"; done |
                       awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')"
  }
  gl_kept_lines() {
    for d in $(gl_list_subdirs "$1"); do
      case " $GL_SUBDIRS " in *" $d "*) ;; *) grep "^$d/" "$1" || : ;; esac
    done
  }
  mkdir -p "$out/lists"
  {
    gl_list_head "The tests" "$names_list"
    { for d in $GL_SUBDIRS; do cat "$base/$d.tests"; done
      gl_kept_lines "$names_list"; } | LC_ALL=C sort
  } > "$out/lists/$(basename "$names_list")"
  {
    gl_list_head "The tests that fail, run alone," "$xfail_list"
    { for d in $GL_SUBDIRS; do
        for r in "$results/$d"/*; do
          case $r in *.log) continue ;; esac
          [ "$(cat "$r" 2>/dev/null)" = FAIL ] &&
            ! gl_host_entry "$d/$(basename "$r")" >/dev/null &&
            echo "$d/$(basename "$r")"
        done
      done
      gl_kept_lines "$xfail_list"; } | LC_ALL=C sort
  } > "$out/lists/$(basename "$xfail_list")"
  {
    echo
    echo "## The committed lists"
    echo
    for f in "$names_list" "$xfail_list"; do
      n=$out/lists/$(basename "$f")
      if cmp -s "$n" "$f"; then
        echo "${f#"$GL_TOP"/}: the same as this run's."
      else
        status=1
        echo "${f#"$GL_TOP"/} differs from this run's (FAIL; cp $n $f):"
        echo
        diff -u "$f" "$n" | sed 's/^/    /' || :
      fi
      echo
    done
  } >> "$report"
fi

{
  echo
  echo "make glibc (patched): $(cat "$GL_CACHE/build-patched.seconds" 2>/dev/null) s this run;"
  echo "last full build from a fresh build directory: $(cat "$GL_CACHE/build-patched-full.seconds" 2>/dev/null || echo unknown) s."
  if [ -e "$base/build.seconds" ]; then
    echo "Unpatched build: $(cat "$base/build.seconds") s (when it was built)."
  else
    echo "Unpatched build: none (the committed lists were the baseline)."
  fi
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
