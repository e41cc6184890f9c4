#!/bin/sh
# previous.sh SUITE DEBS OUT: the "previous version" piuparts upgrades
# from, as an apt repository in OUT (Packages, no Release: the line
# that names it says trusted=yes).  With DEB_PREVIOUS (an earlier
# release's make deb output, build/deb), its SUITE/*.deb are taken as
# they are.  Without it (no release before
# this one exists), DEBS's packages are relabelled VERSION~prev1, which
# sorts before VERSION, with their exact-version dependencies on each
# other to match: the upgrade then runs every maintainer script's
# upgrade path and dpkg's replacement of the shim under a live
# /etc/ld.so.preload entry, though not changes between releases.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
suite=$1 debs=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
if [ -n "${DEB_PREVIOUS:-}" ]; then
  ls "$DEB_PREVIOUS/$suite"/*.deb > /dev/null 2>&1 ||
    { echo "previous.sh: DEB_PREVIOUS=$DEB_PREVIOUS has no $suite/*.deb" >&2; exit 1; }
  cp "$DEB_PREVIOUS/$suite"/*.deb "$out/"
  rm -f "$out"/*-dbgsym_*.deb
else
  w=$(mktemp -d) && trap 'rm -rf "$w"' EXIT
  for f in "$debs"/*.deb; do
    case $f in *-dbgsym_*) continue ;; esac
    ver=$(dpkg-deb -f "$f" Version)
    # Before any '+' or '-' (0.1.0+deb11 -> 0.1.0~prev1+deb11).
    prev=$(printf '%s\n' "$ver" | sed 's/^\([^+-]*\)/\1~prev1/')
    dpkg --compare-versions "$prev" lt "$ver" ||
      { echo "previous.sh: $prev does not sort before $ver" >&2; exit 1; }
    rm -rf "$w/p" && dpkg-deb -R "$f" "$w/p"
    # Version, and every "(= VERSION)" (the packages depend on each
    # other at exactly their own version).
    v=$(printf '%s\n' "$ver" | sed 's/[.]/\\&/g')
    sed -i -e "s/^Version: $v\$/Version: $prev/" -e "s/(= $v)/(= $prev)/g" "$w/p/DEBIAN/control"
    grep -qx "Version: $prev" "$w/p/DEBIAN/control" ||
      { echo "previous.sh: cannot relabel $f" >&2; exit 1; }
    dpkg-deb --root-owner-group -Zxz -b "$w/p" "$out/" > /dev/null
  done
fi
(cd "$out" && dpkg-scanpackages -m . > Packages 2>/dev/null) ||
  { echo "previous.sh: dpkg-scanpackages failed in $out" >&2; exit 1; }
[ -s "$out/Packages" ] || { echo "previous.sh: no package in $out" >&2; exit 1; }
