#!/bin/sh
# deb-inner.sh MIRROR SOURCE-VERSION VERSION PROFILES SELECT JOBS: the
# inside of make glibc-deb (deb.sh), run in the overlay of the glibc
# chroot: the build dependencies (once), Debian's source package, the
# series from /rcdeb/patches added to its quilt stack, a changelog entry
# for VERSION, the symbols wildcard for GLIBC_2.35, then
# dpkg-buildpackage.  Prints "rcdeb: STEP, N s" per step.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
mirror=$1 srcver=$2 version=$3 profiles=$4 select=$5 jobs=$6
t=$(date +%s)
step() { echo "rcdeb: $1, $(( $(date +%s) - t )) s"; t=$(date +%s); }

echo "deb-src $mirror bullseye main" > /etc/apt/sources.list.d/rseq-compat-src.list
if [ ! -e /rcdeb/.build-deps ]; then
  apt-get update -q
  apt-get build-dep -y -q ${profiles:+-P "$profiles"} "glibc=$srcver"
  touch /rcdeb/.build-deps
  step "build dependencies installed"
fi

cd /rcdeb
rm -rf src ./*.deb ./*.changes && mkdir src && cd src
if [ ! -e "/rcdeb/dl/glibc_$srcver.dsc" ]; then
  apt-get update -q
  mkdir -p /rcdeb/dl
  (cd /rcdeb/dl && apt-get source --download-only -q "glibc=$srcver")
fi
dpkg-source -x "/rcdeb/dl/glibc_$srcver.dsc" glibc >/dev/null
cd glibc
step "source package unpacked"

# The series, after Debian's own patches (glibc-source's tarball, which
# the series is written against, is Debian's patched tree).
mkdir debian/patches/rseq-compat
while read -r p; do
  cp "/rcdeb/patches/$p" debian/patches/rseq-compat/
  echo "rseq-compat/$p" >> debian/patches/series
done < /rcdeb/patches/series
QUILT_PATCHES=debian/patches quilt push -a -q >/dev/null
QUILT_PATCHES=debian/patches quilt pop -a -q >/dev/null
rm -rf .pc
step "series added: $(grep -c '^rseq-compat/' debian/patches/series) patches after $(grep -vc '^rseq-compat/\|^#\|^$' debian/patches/series) of Debian's, quilt push -a clean"

# A program that uses __rseq_offset and the rest (GLIBC_2.35) must not
# install next to a libc6 without them.  A version bound cannot say
# that: Debian's next stock update, 2.31-13+deb11u12, sorts above
# 2.31-13+deb11u11+rseq1.  So this libc6 provides a virtual package
# that no stock libc6 does, and GLIBC_2.35 takes the symbols file's
# second alternative dependency template: a glibc of 2.35 or later (it
# has the symbols itself), or this one.
abi=libc6-rseq-abi
sed -i '1a| #PACKAGE# (>= 2.35) | '"$abi" debian/symbols.wildcards
printf ' (symver|optional)GLIBC_2.35 %s 2\n' "$version" >> debian/symbols.wildcards
# The Provides of the libc6 stanza (control.in/libc is its template).
for f in debian/control.in/libc debian/control; do
  awk -v abi="$abi" '
    /^Package: / { pkg = $2 }
    /^Provides: / && (pkg == "@libc@" || pkg == "libc6") { sub(/^Provides: /, "Provides: " abi ", ") }
    { print }' "$f" > "$f.new" && mv "$f.new" "$f"
done
grep -q "^Provides: $abi, " debian/control || { echo "rcdeb: no libc6 stanza took Provides: $abi" >&2; exit 1; }

# Built without the biarch packages (-Pnobiarch), this libc6 cannot
# replace Debian's where libc6-i386 or libc6-x32 (which depend on
# libc6 of their own version) or another architecture's libc6 (the same
# version on every architecture, Multi-Arch: same) is installed: dpkg
# would leave them broken, or stop half-way.  Each package a system
# upgrade takes refuses in its preinst, naming the packages and the way
# out, so that dpkg -i of the set unpacks none of them: libc6 (after
# its "set -e"), and libc-bin, libc6-dev (the libc-dev template) and
# libc-dev-bin, which have no preinst of their own.
case ",$profiles," in
  *,nobiarch,*)
    awk 'NR == 2 { print; while ((getline line < "/rcdeb/nobiarch.preinst") > 0) print line; next } { print }' \
      debian/debhelper.in/libc.preinst > debian/debhelper.in/libc.preinst.new &&
      mv debian/debhelper.in/libc.preinst.new debian/debhelper.in/libc.preinst
    grep -q rseq-compat debian/debhelper.in/libc.preinst ||
      { echo "rcdeb: the nobiarch check did not go into libc.preinst" >&2; exit 1; }
    for p in libc-bin libc-dev libc-dev-bin; do
      f=debian/debhelper.in/$p.preinst
      [ ! -e "$f" ] || { echo "rcdeb: $f exists; the nobiarch check would replace it" >&2; exit 1; }
      { printf '#!/bin/sh\nset -e\n'; cat /rcdeb/nobiarch.preinst; printf '\n#DEBHELPER#\n\nexit 0\n'; } > "$f"
    done ;;
esac
{
  printf 'glibc (%s) bullseye; urgency=medium\n\n' "$version"
  printf '  * Register rseq for every thread and export __rseq_offset,\n'
  printf '    __rseq_size and __rseq_flags (GLIBC_2.35) with glibc 2.41'"'"'s\n'
  printf '    semantics: the rseq-compat series, debian/patches/rseq-compat/.\n\n'
  printf ' -- rseq-compat <rseq-compat@lists.example.org>  %s\n\n' "$(LC_ALL=C date -R)"
  cat debian/changelog
} > debian/changelog.new
mv debian/changelog.new debian/changelog

if [ -n "${GLIBC_DEB_PREPARE:-}" ]; then
  echo "rcdeb: prepared the source tree (/rcdeb/src/glibc in the overlay); not building"
  exit 0
fi
DEB_BUILD_OPTIONS="nocheck parallel=$jobs" \
  dpkg-buildpackage "$select" -uc -us ${profiles:+-P"$profiles"}
step "dpkg-buildpackage $select done"
cp ../*.deb ../*.changes /rcdeb/ 2>/dev/null || :
rm -f /rcdeb/*.deb.tmp
