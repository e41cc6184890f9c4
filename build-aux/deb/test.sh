#!/bin/sh
# test.sh SUITE DEBS EXPECT: install, use, remove and purge the packages
# in DEBS (build.sh's output) in a throw-away overlay of SUITE's chroot
# (inner-test.sh says what it checks), then look at what the overlay
# kept: after the purge nothing may be left but dpkg's own records,
# logs and caches.  Writes DEBS/test.log; prints the PASS/FAIL lines
# and fails if any step failed or anything was left behind.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../matrix/common.sh"
suite=$1 debs=$2 expect=$3
die() { printf 'deb: %s: %s\n' "$suite" "$*" >&2; exit 1; }
root=$RSEQ_COMPAT_CACHE/chroot/$suite
[ -e "$root/.rc-complete" ] || die "no chroot $root (build.sh makes it)"
t=$RSEQ_COMPAT_CACHE/deb-test/$suite
rm -rf "$t" && mkdir -p "$t/upper" "$t/work" "$t/merged" || exit 1
log=$debs/test.log

unshare --mount --propagation private sh -c '
  . "$(dirname "$0")/../matrix/common.sh"
  root=$1 t=$2 debs=$3 expect=$4
  mount -t overlay overlay -o "lowerdir=$root,upperdir=$t/upper,workdir=$t/work" "$t/merged" ||
    { echo "FAIL: setup: cannot mount an overlay on the chroot"; exit 1; }
  mkdir -p "$t/merged/tmp/rc-debs" &&
    cp "$debs"/*.deb "$(dirname "$0")/inner-test.sh" "$t/merged/tmp/rc-debs/" || exit 1
  mx_in_chroot "$t/merged" sh /tmp/rc-debs/inner-test.sh /tmp/rc-debs "$expect"
  rm -rf "$t/merged/tmp/rc-debs"
' "$here/test.sh" "$root" "$t" "$debs" "$expect" > "$log" 2>&1
grep -E '^(PASS|FAIL): ' "$log"
bad=$(grep -c '^FAIL: ' "$log")
grep -q '^done$' "$log" || { echo "FAIL: inner-test.sh did not finish (see $log)"; bad=$((bad + 1)); }

# What the overlay kept: files, links and new directories (a directory
# that the chroot has is only a copy-up), and whiteouts (a chroot file
# removed).  dpkg's records, logs, caches and /tmp are allowed.
left=$(cd "$t/upper" && find . -mindepth 1 \( -path ./tmp -o -path ./root -o -path ./var/lib/dpkg \
    -o -path ./var/log -o -path ./var/cache/debconf -o -path ./var/cache/man \
    -o -path ./var/cache/ldconfig -o -path ./etc/ld.so.cache \) -prune -o -print |
  while read -r p; do
    if [ -d "$t/upper/$p" ] && [ ! -L "$t/upper/$p" ]; then
      [ -d "$root/$p" ] || echo "new directory ${p#.}"
    elif [ -c "$t/upper/$p" ]; then
      echo "removed ${p#.}"
    else
      echo "left ${p#.}"
    fi
  done)
if [ -n "$left" ]; then
  echo "FAIL: purged: nothing left behind: $(echo "$left" | head -n 10 | tr '\n' ';')"
  bad=$((bad + 1))
else
  echo "PASS: purged: nothing left behind"
fi
printf '%s\n' "$left" > "$debs/left.txt"
rm -rf "$t"
[ "$bad" -eq 0 ]
