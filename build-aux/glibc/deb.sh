#!/bin/sh
# deb.sh: make glibc-deb.  Debian bullseye's own glibc source package
# ($GL_SOURCE_VERSION) rebuilt with the rseq-compat series added to its
# quilt stack (debian/patches/rseq-compat/, the same patches make
# glibc-patch writes), the version $GL_SOURCE_VERSION+rseq1, and
# GLIBC_2.35 in debian/symbols.wildcards so that a program using
# __rseq_offset depends on this libc6.  Built with dpkg-buildpackage in
# an overlay of make glibc's chroot (the build dependencies go into the
# overlay's upper directory, kept under the cache while the chroot
# underneath is unchanged), tests off.  Writes build/glibc-deb/*.deb and
# build/glibc-deb/report.md.
#
# Environment:
#   GLIBC_DEB_PROFILES  build profiles (default nobiarch,noudeb: the
#                       amd64 flavour alone, no installer udeb)
#   GLIBC_DEB_BUILD     dpkg-buildpackage's selection (default -B: the
#                       architecture's packages; -b adds glibc-source,
#                       glibc-doc, locales and libc-l10n)
#   GLIBC_DEB_JOBS      parallel jobs (default: the number of CPUs)
#   GLIBC_DEB_PREPARE   non-empty: stop once the source tree is patched
#                       (build dependencies installed, series added,
#                       version set), before dpkg-buildpackage
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
. "$(dirname "$0")/common.sh"
GLIBC_DEB_PREPARE=${GLIBC_DEB_PREPARE:-}
export GLIBC_DEB_PREPARE
[ "$GLIBC_SUITE" = bullseye ] && [ "$GLIBC_ARCH" = x86_64 ] ||
  gl_die "make glibc-deb rebuilds bullseye's glibc for amd64 (GLIBC_SUITE=bullseye GLIBC_ARCH=x86_64), not $GLIBC_SUITE/$GLIBC_ARCH"
profiles=${GLIBC_DEB_PROFILES-nobiarch,noudeb}
select=${GLIBC_DEB_BUILD:--B}
jobs=${GLIBC_DEB_JOBS:-$(nproc)}
version=$GL_SOURCE_VERSION+rseq1
out=$GL_TOP/build/glibc-deb
d=$RSEQ_COMPAT_CACHE/glibc-deb
log=$RSEQ_COMPAT_CACHE/log/glibc-deb.log
began=$(date +%s)

"$(dirname "$0")/deps.sh"
gl_chroot
gl_unpack
rm -rf "$out" && mkdir -p "$out"
"$(dirname "$0")/export-series.sh" "$GL_ROOT$GL_WORK/$GL_UPSTREAM" "$out/patches"
gl_log "glibc-deb: the series, $(wc -l < "$out/patches/series") patches (make glibc-patch's)"

# The overlay's upper directory holds the build dependencies; it is
# thrown away when the chroot underneath changed (its packages).
lower_id=$(sha256sum "$GL_ROOT/var/lib/dpkg/status" | cut -c1-16)
if [ "$(cat "$d/lower-id" 2>/dev/null)" != "$lower_id" ]; then
  rm -rf "$d"
fi
mkdir -p "$d/upper" "$d/work" "$d/root"
echo "$lower_id" > "$d/lower-id"
mirror=$(rc_mirror)
cp "$(dirname "$0")/deb-inner.sh" "$d/upper/deb-inner.sh"
mkdir -p "$d/upper/rcdeb"
cp "$(dirname "$0")/nobiarch.preinst" "$d/upper/rcdeb/nobiarch.preinst"
rm -rf "$d/upper/rcdeb/patches" && mkdir -p "$d/upper/rcdeb" &&
  cp -a "$out/patches" "$d/upper/rcdeb/patches"

gl_log "glibc-deb: glibc $version, dpkg-buildpackage $select${profiles:+ -P$profiles}, $jobs jobs (log: $log)"
if ! unshare --mount --propagation private sh -c '
  . "$(dirname "$0")/../matrix/common.sh"
  d=$1 lower=$2; shift 2
  mount -t overlay overlay -o "lowerdir=$lower,upperdir=$d/upper,workdir=$d/work" "$d/root" ||
    { echo "glibc-deb: cannot mount an overlay on $lower" >&2; exit 1; }
  mx_in_chroot "$d/root" env GLIBC_DEB_PREPARE="$GLIBC_DEB_PREPARE" sh /deb-inner.sh "$@"
' "$0" "$d" "$GL_ROOT" "$mirror" "$GL_SOURCE_VERSION" "$version" "$profiles" "$select" "$jobs" \
  > "$log" 2>&1; then
  tail -n 20 "$log" >&2
  gl_die "glibc-deb: the package build failed; see $log"
fi
if [ -n "${GLIBC_DEB_PREPARE:-}" ]; then
  grep '^rcdeb: ' "$log" >&2
  gl_log "glibc-deb: prepared; the tree is $d/upper/rcdeb/src/glibc"
  exit 0
fi
cp "$d"/upper/rcdeb/*.deb "$d"/upper/rcdeb/*.changes "$out/" ||
  gl_die "glibc-deb: no packages were written (see $log)"
grep '^rcdeb: ' "$log" > "$out/steps.txt" || :

# The libc6 package has the patched loader: __rseq_* in ld.so, GLIBC_2.35.
x=$out/libc6-extract
rm -rf "$x" && dpkg-deb -x "$out/libc6_${version}_amd64.deb" "$x" ||
  gl_die "glibc-deb: cannot unpack libc6_${version}_amd64.deb"
syms=$(readelf --dyn-syms -W "$x"/lib/x86_64-linux-gnu/ld-2.31.so | awk '$8 ~ /^__rseq_/ { print $8 }' | sort | tr '\n' ' ')
rm -rf "$x"
[ "$syms" = "__rseq_flags@@GLIBC_2.35 __rseq_offset@@GLIBC_2.35 __rseq_size@@GLIBC_2.35 " ] ||
  gl_die "glibc-deb: ld-2.31.so in libc6 exports '$syms', not __rseq_flags, __rseq_offset and __rseq_size at GLIBC_2.35"
secs=$(( $(date +%s) - began ))
{
  echo "make glibc-deb, $(date -u +%Y-%m-%d): glibc $version (amd64), dpkg-buildpackage $select${profiles:+ -P$profiles}, DEB_BUILD_OPTIONS nocheck, $secs s"
  echo
  echo "| package | size (KiB) |"
  echo "|---|---|"
  for f in "$out"/*.deb; do
    echo "| $(basename "$f") | $(( $(stat -c %s "$f") / 1024 )) |"
  done
  echo
  echo "ld-2.31.so in libc6 exports: $syms"
} > "$out/report.md"
# What the packages promise, checked with dpkg and apt: the dependency
# of a program that uses GLIBC_2.35, and the upgrade of a system that
# has biarch or foreign libc6 packages.
checks=0
"$(dirname "$0")/deb-check.sh" "$out" "$out/report.md" || checks=1
case ",$profiles," in
  *,nobiarch,*) "$(dirname "$0")/deb-upgrade-check.sh" "$out" "$out/report.md" || checks=1 ;;
esac
cat "$out/report.md"
[ $checks -eq 0 ] || gl_die "glibc-deb: the packages were built, but a check above failed ($out/report.md)"
