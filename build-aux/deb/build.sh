#!/bin/sh
# build.sh SUITE OUT: build the Debian packages (debian/) in SUITE's
# chroot with dpkg-buildpackage -b, make check included unless
# DEB_BUILD_OPTIONS says nocheck, then run lintian on them.  The
# version gets +debNN, so that each suite's build upgrades to the next
# suite's.  Writes OUT/*.deb, OUT/build.log and OUT/lintian.txt; fails
# on a failed build or any lintian error (E:) or warning (W:) that is
# not overridden in debian/*.lintian-overrides.  OUT/src is what
# test.sh gives autopkgtest as the source tree: the debian/ the packages
# were built from, and build-aux/i386-probe, the one file outside it
# that debian/tests reads (a source package has the whole tree).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../matrix/common.sh"
suite=$1 out=$2
die() { printf 'deb: %s: %s\n' "$suite" "$*" >&2; exit 1; }
case $suite in
  bullseye) debnn=deb11 ;;
  bookworm) debnn=deb12 ;;
  trixie) debnn=deb13 ;;
  sid) debnn=deb14 ;;
  *) die "no Debian release number known for this suite" ;;
esac
rm -rf "$out" && mkdir -p "$out" || exit 1
log=$out/build.log

root=$("$top/build-aux/matrix/chroot.sh" "$suite") || die "no chroot"
# The build's own directory, /rc-deb: the matrix rebuilds /rc in the
# same chroots, and once deleted a build under way here (one make deb
# at a time: build-aux/deb/run).  Held: no update replaces the chroot
# meanwhile.
mx_hold_chroot "$suite"
mx_ensure_deps "$root" "$suite" "$log" "$here/debian-packages" ||
  die "installing build-aux/deb/debian-packages in the chroot failed; see $log"

version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$top/debian/changelog")
[ -n "$version" ] || die "debian/changelog: no version on its first line"
src=rseq-compat-$version
rm -rf "$root/rc-deb" && mkdir -p "$root/rc-deb/$src" || exit 1
mx_copy_tree "$top" "$root/rc-deb/$src"
# A changelog entry of this build's own, on top of the tree's.
{
  printf 'rseq-compat (%s+%s) %s; urgency=medium\n\n' "$version" "$debnn" "$suite"
  printf '  * Built for Debian %s by make deb.\n\n' "$suite"
  printf ' -- %s  %s\n\n' "$(sed -n 's/^Maintainer: //p' "$top/debian/control")" \
    "$(LC_ALL=C date -R)"
  cat "$top/debian/changelog"
} > "$root/rc-deb/$src/debian/changelog"

mx_log "deb: $suite: dpkg-buildpackage -b (log: $log)"
t0=$(date +%s)
if ! mx_in_chroot "$root" env DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-}" \
     sh -c "cd /rc-deb/$src && dpkg-buildpackage -b -uc -us" >>"$log" 2>&1; then
  tail -n 15 "$log" >&2
  die "dpkg-buildpackage failed; see $log"
fi
t1=$(date +%s)
cp "$root"/rc-deb/*.deb "$root"/rc-deb/*.changes "$out/" || die "no packages were written"
# debian/ of what was built and the probe its tests ask, for the
# as-installed tests: the chroot's copy is another make deb's to
# replace.  OUT was emptied above, so no older OUT/src/debian is there
# for cp -r to copy into.
mkdir -p "$out/src/build-aux" &&
  cp -r "$root/rc-deb/$src/debian" "$out/src/" &&
  cp "$root/rc-deb/$src/build-aux/i386-probe" "$out/src/build-aux/" ||
  die "cannot copy debian/ and build-aux/i386-probe to $out/src"
grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 > "$out/check.txt"

# lintian is not to be run as root; it only reads the packages.  Its
# exit status means different things across versions (bookworm's counts
# an overridden error it is asked to show), so the tags decide; a status
# above 1 with no tag at all means lintian itself failed.  A second run
# shows the overrides: they must be seen in use, since a lintian that
# printed nothing may have checked nothing.
changes=$(cd "$root/rc-deb" && ls rseq-compat_*.changes)
chmod -R a+rX "$root/rc-deb"
lintian_run() {
  mx_in_chroot "$root" setpriv --reuid=65534 --regid=65534 --clear-groups \
    env HOME=/tmp lintian --display-info --pedantic "$@" "/rc-deb/$changes"
}
lintian_run > "$out/lintian.txt" 2>&1
lst=$?
if [ $lst -gt 1 ] && ! grep -q '^[EW]: ' "$out/lintian.txt"; then
  tail -n 5 "$out/lintian.txt" >&2
  die "lintian failed (status $lst); see $out/lintian.txt"
fi
lintian_run --show-overrides > "$out/lintian-overrides.txt" 2>&1
grep -q '^O: librseq-compat1: library-not-linked-against-libc' "$out/lintian-overrides.txt" ||
  die "lintian did not report debian/librseq-compat1.lintian-overrides in use; see $out/lintian-overrides.txt"
t2=$(date +%s)
echo "$((t1 - t0)) $((t2 - t1))" > "$out/times"
bad=$(grep -E '^[EW]: ' "$out/lintian.txt")
if [ -n "$bad" ]; then
  printf '%s\n' "$bad" >&2
  die "lintian reported errors or warnings; see $out/lintian.txt"
fi
mx_log "deb: $suite: built in $((t1 - t0)) s ($(cat "$out/check.txt")), lintian in $((t2 - t1)) s: $(grep -c '^[IP]: ' "$out/lintian.txt") notes, $(grep -c '^O: ' "$out/lintian-overrides.txt") overridden, no error or warning"
