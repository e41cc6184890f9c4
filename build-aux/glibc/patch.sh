#!/bin/sh
# patch.sh OUT [verify]: make glibc-patch.  Writes the backport as a
# quilt series against glibc-source $GL_SOURCE_VERSION's unpacked tree:
# OUT/patches/series and OUT/patches/*.patch (apply with
# `QUILT_PATCHES=patches quilt push -a` or `patch -p1` in order).
# With "verify", also applies it with quilt to a fresh pristine copy in
# the chroot and compares the result with the tree make glibc builds.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
. "$(dirname "$0")/common.sh"
out=$1
"$(dirname "$0")/deps.sh"
gl_chroot
gl_unpack
"$(dirname "$0")/export-series.sh" "$GL_ROOT$GL_WORK/$GL_UPSTREAM" "$out/patches"
gl_log "wrote $out/patches ($(wc -l < "$out/patches/series") patches) against glibc-source $GL_SOURCE_VERSION"
[ "${2:-}" = verify ] || exit 0

q=$GL_WORK/quilt-check$GL_SUFFIX
rm -rf "$GL_ROOT$q"
mkdir -p "$GL_ROOT$q"
cp -a "$GL_ROOT$GL_WORK/$GL_UPSTREAM" "$GL_ROOT$q/tree"
cp -a "$out/patches" "$GL_ROOT$q/tree/patches"
gl_in_chroot /bin/sh -c 'cd "$1/tree" && QUILT_PATCHES=patches quilt push -a -q' sh "$q" \
  > "$out/quilt-push.log" 2>&1 ||
  gl_die "quilt push -a failed on a pristine tree; see $out/quilt-push.log"
rm -rf "$GL_ROOT$q/tree/patches" "$GL_ROOT$q/tree/.pc"
if ! diff -r --no-dereference -x .rc-version -x .rc-touched "$GL_ROOT$q/tree" "$GL_ROOT$GL_SRC" \
     > "$out/quilt-diff.log" 2>&1; then
  gl_die "the quilt series does not reproduce the tree make glibc builds; see $out/quilt-diff.log"
fi
rm -rf "$GL_ROOT$q"
gl_log "quilt push -a on a pristine tree gives exactly make glibc's tree"
