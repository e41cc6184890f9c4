#!/bin/sh
# chroot.sh: make (or reuse) the Debian $GLIBC_SUITE chroot that builds
# and tests the series' glibc ($GL_ROOT: glibc/chroot for bullseye,
# glibc-bookworm/chroot for bookworm), with the
# packages of build-aux/glibc/debian-packages and of make check
# (build-aux/debian-packages), and glibc-source at $GL_SOURCE_VERSION;
# for a cross GLIBC_ARCH (aarch64, s390x) also its cross toolchain
# (build-aux/glibc/debian-packages-ARCH).
#
# It starts as a copy of make check-matrix's chroot of the suite when that
# exists (the matrix's own copy is never changed), else from the
# suite's minbase tarball (mx_bootstrap: mmdebstrap).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
. "$(dirname "$0")/common.sh"
log=$GL_LOG-chroot.log
mkdir -p "$GL_CACHE" "$RSEQ_COMPAT_CACHE/log"

if [ ! -e "$GL_ROOT/.rc-complete" ]; then
  mx_chroot_exclusive "glibc-$GLIBC_SUITE" "making it"
  rm -rf "$GL_ROOT.partial"
  matrix=$RSEQ_COMPAT_CACHE/chroot/$GLIBC_SUITE
  if [ -e "$matrix/.rc-complete" ]; then
    gl_log "chroot: copying $matrix"
    # Under the matrix chroot's own locks: no tier changes it meanwhile.
    ( flock 9 && flock 8 && cp -a "$matrix" "$GL_ROOT.partial" ) \
      9> "$RSEQ_COMPAT_CACHE/chroot/.$GLIBC_SUITE.lock" 8> "$matrix.apt.lock" ||
      gl_die "chroot: copying $matrix failed"
    rm -f "$GL_ROOT.partial/.rc-deps"
  else
    gl_log "chroot: a new $GLIBC_SUITE root (log: $log)"
    : > "$log"
    mx_bootstrap "$GLIBC_SUITE" "$GL_ROOT.partial" "$log" || exit 1
  fi
  rm -rf "$GL_ROOT"
  mv "$GL_ROOT.partial" "$GL_ROOT"
  touch "$GL_ROOT/.rc-complete"
fi

mx_apt_setup "$GL_ROOT" "$GLIBC_SUITE"

# Install again whenever a package list or the suite's package index
# changes (build-aux/suite-index: the tiers' keys hold that index, so
# the chroot must run what the mirror has now, not what it had when the
# chroot was made).
if ! index=$("$GL_TOP/build-aux/suite-index" --hash "$GLIBC_SUITE"); then
  # Offline: a chroot whose stamp is complete serves as it is.
  [ -s "$GL_ROOT/.rc-deps" ] || exit 1
  index=$(sed 's/.*-//' "$GL_ROOT/.rc-deps")
  gl_log "chroot: the mirror's $GLIBC_SUITE index cannot be read: the chroot is used as it is"
fi
want=$(cat "$GL_TOP/build-aux/glibc/debian-packages" "$GL_TOP/build-aux/debian-packages" \
         "$GL_TOP/build-aux/ensure-deps" "$GL_TOP/build-aux/debian-package-index" | sha256sum | cut -c1-16)-$GL_SOURCE_VERSION-$index
if [ "$(cat "$GL_ROOT/.rc-deps" 2>/dev/null)" != "$want" ]; then
  # Not under a build, a test run or an overlay of another tier's.
  mx_chroot_exclusive "glibc-$GLIBC_SUITE" "updating it"
  gl_log "chroot: installing build-aux/glibc/debian-packages and $GLIBC_SUITE's current packages (log: $log)"
  pkgs=$(sed -e 's/#.*//' "$GL_TOP/build-aux/glibc/debian-packages" |
         sed -e "s/^glibc-source\$/glibc-source=$GL_SOURCE_VERSION/")
  mx_apt "$GL_ROOT" apt-get update -q >>"$log" 2>&1 ||
    gl_die "apt-get update failed in $GL_ROOT; see $log"
  mx_apt "$GL_ROOT" apt-get dist-upgrade -y -q >>"$log" 2>&1 ||
    gl_die "apt-get dist-upgrade failed in $GL_ROOT; see $log"
  # What apt fetched is what the stamp names (see matrix/chroot.sh).
  have=$("$GL_TOP/build-aux/suite-index" --root "$GL_ROOT" "$GLIBC_SUITE")
  if [ "$have" != "$index" ]; then
    [ "$have" = "$(SUITE_INDEX_MAX_AGE=0 "$GL_TOP/build-aux/suite-index" --hash "$GLIBC_SUITE")" ] ||
      gl_die "chroot: apt fetched a $GLIBC_SUITE index that is neither this run's nor the mirror's now (the mirror is changing); run again"
    want=${want%-*}-$have
  fi
  mx_apt "$GL_ROOT" apt-get install -y -q $pkgs >>"$log" 2>&1 || {
    tail -n 5 "$log" >&2
    gl_die "installing build-aux/glibc/debian-packages in $GL_ROOT failed; see $log.  glibc-source $GL_SOURCE_VERSION must be on the mirror (GL_SOURCE_VERSION names another version, at your own risk: the patches are written against this one)"; }
  mx_ensure_deps "$GL_ROOT" "$GLIBC_SUITE" "$log" "$GL_TOP/build-aux/debian-packages" ||
    gl_die "installing build-aux/debian-packages in $GL_ROOT failed; see $log"
  echo "$want" > "$GL_ROOT/.rc-deps"
fi

# The cross toolchain of GLIBC_ARCH, with a stamp of its own: the
# host-arch builds in the same chroot neither need nor reinstall it.
if [ -n "$GL_CROSS_PACKAGES" ]; then
  want=$(cat "$GL_TOP/$GL_CROSS_PACKAGES" "$GL_TOP/build-aux/ensure-deps" \
           "$GL_TOP/build-aux/debian-package-index" | sha256sum | cut -c1-16)
  if [ "$(cat "$GL_ROOT/.rc-deps-$GLIBC_ARCH" 2>/dev/null)" != "$want" ]; then
    gl_log "chroot: installing $GL_CROSS_PACKAGES (log: $log)"
    mx_ensure_deps "$GL_ROOT" "$GLIBC_SUITE" "$log" "$GL_TOP/$GL_CROSS_PACKAGES" ||
      gl_die "installing $GL_CROSS_PACKAGES in $GL_ROOT failed; see $log"
    echo "$want" > "$GL_ROOT/.rc-deps-$GLIBC_ARCH"
  fi
fi

have=$(gl_in_chroot dpkg-query -W -f '${Version}' glibc-source 2>/dev/null) || have=
[ "$have" = "$GL_SOURCE_VERSION" ] ||
  gl_die "the chroot has glibc-source '${have:-none}', not $GL_SOURCE_VERSION; remove $GL_ROOT/.rc-deps and run again"
[ -f "$GL_ROOT/usr/src/glibc/$GL_UPSTREAM.tar.xz" ] ||
  gl_die "glibc-source installed no /usr/src/glibc/$GL_UPSTREAM.tar.xz in $GL_ROOT"
