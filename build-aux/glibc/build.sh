#!/bin/sh
# build.sh: make glibc.  glibc-source $GL_SOURCE_VERSION with the
# series applied (the one export-series.sh writes), configured and
# built in the $GLIBC_SUITE chroot.  The tree is $GL_ROOT$GL_SRC, the
# build $GL_ROOT$GL_BUILD (/rcg/src-patched and /rcg/build-patched; with
# GLIBC_ARCH=aarch64, cross-built, /rcg/src-patched-aarch64 and
# /rcg/build-patched-aarch64).  A host-arch build's testrun.sh runs
# programs on it.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
. "$(dirname "$0")/common.sh"
"$(dirname "$0")/deps.sh"
gl_chroot
gl_unpack
"$(dirname "$0")/export-series.sh" "$GL_ROOT$GL_WORK/$GL_UPSTREAM" "$GL_CACHE/series"
gl_patched_tree "$GL_CACHE/series" "$GL_ROOT$GL_SRC"
gl_drop_stale_deps "$GL_ROOT$GL_SRC" "$GL_ROOT$GL_BUILD"
log=$GL_LOG-build-patched.log
gl_log "building the patched glibc in $GL_ROOT$GL_BUILD (log: $log)"
start=$(date +%s)
full=no
[ -e "$GL_ROOT$GL_BUILD/.rc-configure" ] || full=yes
gl_build "$GL_SRC" "$GL_BUILD" "$log" || {
  grep -E 'error|Error' "$log" | head -n 20 >&2
  gl_die "building the patched glibc failed; see $log"; }
echo "$(( $(date +%s) - start ))" > "$GL_CACHE/build-patched.seconds"
[ $full = no ] || cp "$GL_CACHE/build-patched.seconds" "$GL_CACHE/build-patched-full.seconds"
gl_log "patched glibc built in $(( $(date +%s) - start )) s: $GL_ROOT$GL_BUILD"
