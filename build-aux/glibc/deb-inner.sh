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

# A program that uses __rseq_offset and the rest (GLIBC_2.35) must
# depend on this libc6.
printf ' (symver|optional)GLIBC_2.35 %s\n' "$version" >> debian/symbols.wildcards
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
