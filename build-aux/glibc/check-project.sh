#!/bin/sh
# check-project.sh: make check-glibc-project, the project's own make
# check on the patched glibc of GLIBC_SUITE (project-tests.sh says how).
# Apart from make check-glibc because it reads the whole tree: a change
# to the shim or to tests/ reruns this (a cached patched build and one
# make check) and not glibc's own tests and their comparison with the
# unpatched build, which read only the series and its scripts.  Builds
# the patched glibc first when the cache has none or an older one (make
# glibc).  Writes build/glibc/project.md (build/glibc-bookworm/ for
# GLIBC_SUITE=bookworm).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
# An arm64 build's project tests run in make check-aarch64's guests.
[ "$GLIBC_ARCH" = x86_64 ] ||
  gl_die "make check-glibc-project runs on this machine's architecture only (GLIBC_ARCH=$GLIBC_ARCH: make check-aarch64 runs the project's tests on that build)"
t0=$(date +%s)
out=$GL_OUT
mkdir -p "$out"
# Held to the end: the tests after the build use the chroot too.
gl_chroot
"$here/build.sh"
report=$out/project.md
status=0
if line=$("$here/project-tests.sh" "$out"); then
  verdict=PASS
else
  verdict=FAIL status=1
fi
{
  echo "# make check-glibc-project: the project's tests/ on the patched glibc-source $GL_SOURCE_VERSION"
  echo
  echo "    $verdict: $line"
  [ $status -eq 0 ] || echo "    (see $out/project-check.log)"
  echo
  echo "Left out: $MX_EXCLUDE_WHY."
  echo
  echo "make check-glibc-project: $(( $(date +%s) - t0 )) s this run."
} > "$report"
cat "$report"
gl_log "make check-glibc-project: $verdict ($report)"
exit $status
