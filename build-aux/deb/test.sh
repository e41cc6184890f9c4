#!/bin/sh
# test.sh SUITE DEBS SRC: the packages in DEBS (build.sh's output) under
# Debian's own tools, each in a throw-away unpack of SUITE's minbase
# root (mx_bootstrap), so that nothing the build installed hides a
# missing dependency:
#   piuparts     install, remove and purge, and nothing left behind;
#   autopkgtest  SRC's debian/tests: what the installed packages do,
#                then enable --system and the packages' removal.
# Writes DEBS/piuparts.log and DEBS/autopkgtest.log; prints a PASS or
# FAIL line per step and fails if any step failed.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../matrix/common.sh"
suite=$1 debs=$2 src=$3
die() { printf 'deb: %s: %s\n' "$suite" "$*" >&2; exit 1; }
[ -f "$src/debian/tests/control" ] || die "no $src/debian/tests/control"
mirror=$(rc_mirror) || exit 1
t=$RSEQ_COMPAT_CACHE/deb-test/$suite
rm -rf "$t" && mkdir -p "$t" || exit 1
pkgs=$(ls "$debs"/*.deb | grep -v -- '-dbgsym_')
bad=0

# piuparts' own chroot is a copy of the unpacked root; its log ends in
# "PASS: All tests." or names what failed.
mx_bootstrap "$suite" "$t/base" "$debs/piuparts.log" || exit 1
# shellcheck disable=SC2086
if piuparts --existing-chroot="$t/base" --distribution="$suite" \
     --mirror="$mirror main" --no-eatmydata --tmpdir="$t" $pkgs \
     >> "$debs/piuparts.log" 2>&1; then
  echo "PASS: piuparts: install, remove, purge, nothing left behind"
else
  echo "FAIL: piuparts: $(grep -a -E 'ERROR|FAIL' "$debs/piuparts.log" | head -n 3 | tr '\n' ';') (see $debs/piuparts.log)"
  bad=1
fi

# autopkgtest's chroot server has no way back from a test that changes
# the root (breaks-testbed), and this root is thrown away after the
# run: such a test is run here, last, as debian/tests/control orders
# them.  The root gets /proc and /dev in a private mount namespace.
mx_bootstrap "$suite" "$t/testbed" "$debs/autopkgtest.log" || exit 1
mx_apt_setup "$t/testbed" "$suite"
# shellcheck disable=SC2086
unshare --mount --propagation private -- sh -c '
  d=$1; shift
  mount -t proc proc "$d/proc" && mount --rbind /dev "$d/dev" || exit 125
  exec autopkgtest --apt-upgrade --ignore-restrictions=breaks-testbed \
    --summary-file="$d.summary" "$@" -- chroot "$d"' \
  sh "$t/testbed" $pkgs "$src" >> "$debs/autopkgtest.log" 2>&1
st=$?
# The tests' own steps, then autopkgtest's verdict on each test.
grep -a -E '^(PASS|FAIL): ' "$debs/autopkgtest.log"
if [ -s "$t/testbed.summary" ]; then
  while read -r name result rest; do
    case $result in
      PASS) echo "PASS: autopkgtest: $name" ;;
      *) echo "FAIL: autopkgtest: $name: $result $rest"; bad=1 ;;
    esac
  done < "$t/testbed.summary"
fi
# 0: every test passed; anything else (2: one was skipped) is a failure.
if [ $st -ne 0 ]; then
  echo "FAIL: autopkgtest: exit status $st (see $debs/autopkgtest.log)"
  bad=1
fi
rm -rf "$t"
[ "$bad" -eq 0 ]
