#!/bin/sh
# test.sh SUITE DEBS SRC: the packages in DEBS (build.sh's output) under
# Debian's own tools, each in a throw-away unpack of SUITE's minbase
# root (mx_bootstrap), so that nothing the build installed hides a
# missing dependency:
#   piuparts     install, remove and purge, and nothing left behind;
#                install the previous version, enable --system, upgrade
#                (previous.sh, piuparts/), then purge;
#   autopkgtest  SRC's debian/tests: what the installed packages do,
#                then enable --system and the packages' removal.
# Writes DEBS/piuparts.log and DEBS/autopkgtest.log; prints a PASS or
# FAIL line per step and fails if any step failed.  Both tools run in
# a private mount namespace, so that nothing they mount outlives them,
# whatever signal ends them.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../matrix/common.sh"
suite=$1 debs=$2 src=$3
die() {
  echo "FAIL: $*"
  printf 'deb: %s: %s\n' "$suite" "$*" >&2
  exit 1
}
[ -f "$src/debian/tests/control" ] || die "no $src/debian/tests/control"
mirror=$(rc_mirror) || die "no Debian mirror (RSEQ_COMPAT_MIRROR)"
mkdir -p "$RSEQ_COMPAT_CACHE/deb-test" || exit 1
# What a killed run left (its lock is free; a running one holds its own).
for old in "$RSEQ_COMPAT_CACHE/deb-test/$suite".*; do
  case $old in *.lock) continue ;; esac
  [ -d "$old" ] && [ -e "$old.lock" ] || continue
  flock -n "$old.lock" rm -rf --one-file-system "$old" && rm -f "$old.lock"
done
# A directory of this run's own: two runs for one suite do not meet.
t=$(mktemp -d "$RSEQ_COMPAT_CACHE/deb-test/$suite.XXXXXX") || die "mktemp failed"
exec 7>> "$t.lock"
flock 7
trap 'rm -rf --one-file-system "$t"; rm -f "$t.lock"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
: > "$debs/piuparts.log"
: > "$debs/autopkgtest.log"
# The packages, one per line (a path may hold spaces).
pkgs=$(ls "$debs"/*.deb | grep -v -- '-dbgsym_')
[ -n "$pkgs" ] || die "no .deb in $debs"
bad=0

# in_ns CMD...: CMD in a private mount namespace.
in_ns() { unshare --mount --propagation private -- "$@"; }

# piuparts' own chroot is a copy of the unpacked root; its log ends in
# "PASS: All tests." or names what failed.  debconf from trixie on
# leaves /var/cache/debconf/tmp.ci/ behind after any apt run, which
# bookworm's piuparts (1.1.7) does not know to ignore yet (later ones
# do); no package of ours uses debconf.
# The upgrade test: piuparts installs, upgrades and purges whenever apt
# knows an earlier version of the packages, here the repository
# previous.sh makes (DEB_PREVIOUS, or these packages relabelled), and
# runs piuparts/post_install_rc_upgrade after each installation.
mx_bootstrap "$suite" "$t/base" "$debs/piuparts.log" || die "no $suite root (see $debs/piuparts.log)"
# The repository lies in the root piuparts copies, where apt's
# unprivileged downloader can read it (not under root's home).
prev=/var/local/rc-previous
sh "$here/previous.sh" "$suite" "$debs" "$t/base$prev" >> "$debs/piuparts.log" 2>&1 ||
  die "no previous version to upgrade from (see $debs/piuparts.log)"
chmod -R a+rX "$t/base$prev"
if printf '%s\n' "$pkgs" | in_ns sh -c '
     IFS="
"; set -f
     root=$1 suite=$2 mirror=$3 tmp=$4 prev=$5 scripts=$6
     set -- $(cat)
     exec piuparts --existing-chroot="$root" --distribution="$suite" \
       --mirror="$mirror main" --no-eatmydata --tmpdir="$tmp" \
       --ignore=/var/cache/debconf/tmp.ci/ \
       --extra-repo="deb [trusted=yes] file:$prev ./" \
       --scriptsdir="$scripts" "$@"' \
     sh "$t/base" "$suite" "$mirror" "$t" "$prev" "$here/piuparts" >> "$debs/piuparts.log" 2>&1; then
  echo "PASS: piuparts: install, remove, purge, nothing left behind"
else
  echo "FAIL: piuparts: $(grep -a -E 'ERROR|FAIL' "$debs/piuparts.log" | head -n 3 | tr '\n' ';') (see $debs/piuparts.log)"
  bad=1
fi
# The upgrade must have run (piuparts passes over it when apt does not
# know the packages), with the script's checks.
if grep -a -q 'PASS: Installation, upgrade and purging tests\.' "$debs/piuparts.log"; then
  echo "PASS: piuparts: upgrade from $(sed -n 's/.*rc-upgrade: NOTE: the previous version: //p' "$debs/piuparts.log" | head -n 1), then purge"
else
  echo "FAIL: piuparts: the upgrade from the previous version did not run or failed (see $debs/piuparts.log)"
  bad=1
fi
sed -n 's/^ *rc-upgrade: \(PASS\|FAIL\): /\1: piuparts upgrade: /p' "$debs/piuparts.log"
if grep -a -q 'rc-upgrade: FAIL' "$debs/piuparts.log" ||
   ! grep -a -q 'rc-upgrade: NOTE: upgraded to' "$debs/piuparts.log"; then
  bad=1
elif grep -a -q 'rc-upgrade: PASS: enable --system before' "$debs/piuparts.log" &&
     ! grep -a -q 'rc-upgrade: PASS: after the upgrade' "$debs/piuparts.log"; then
  # Enabled before, nothing checked after: the entry was gone.
  echo "FAIL: piuparts upgrade: /etc/ld.so.preload lost the shim's entry in the upgrade"
  bad=1
fi

# autopkgtest's chroot server has no way back from a test that changes
# the root (breaks-testbed), and this root is thrown away after the
# run: such a test is run here, last, as debian/tests/control orders
# them.  The root gets /proc and /dev.
mx_bootstrap "$suite" "$t/testbed" "$debs/autopkgtest.log" || die "no $suite root (see $debs/autopkgtest.log)"
mx_apt_setup "$t/testbed" "$suite"
printf '%s\n' "$pkgs" | in_ns sh -c '
  IFS="
"; set -f
  d=$1 src=$2
  set -- $(cat)
  mount -t proc proc "$d/proc" && mount --rbind /dev "$d/dev" || exit 125
  exec autopkgtest --apt-upgrade --ignore-restrictions=breaks-testbed \
    --summary-file="$d.summary" "$@" "$src" -- chroot "$d" < /dev/null' \
  sh "$t/testbed" "$src" >> "$debs/autopkgtest.log" 2>&1
st=$?
# The tests' own steps, then autopkgtest's verdict on each test.
grep -a -E '^(PASS|FAIL|NA): ' "$debs/autopkgtest.log"
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
[ "$bad" -eq 0 ]
