# Shared settings for make check-oldlibc (sourced, not run).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

# mx_in_chroot, mx_ensure_deps, RSEQ_COMPAT_CACHE: as make check-matrix.
. "$(dirname "$0")/../matrix/common.sh"

OL_HERE=$(cd "$(dirname "$0")" && pwd)
OL_TOP=$(cd "$OL_HERE/../.." && pwd)
# The unmodified upstream trees, with SHA256SUMS.
OL_SOURCES=${RSEQ_COMPAT_SOURCES:-$OL_TOP/../shared/sources}
OL_CACHE=$RSEQ_COMPAT_CACHE/oldlibc
# Every build and test runs in the check-matrix bullseye chroot.
OL_SUITE=bullseye
OL_ROOT=$RSEQ_COMPAT_CACHE/chroot/$OL_SUITE

ol_log() { printf 'oldlibc: %s\n' "$*" >&2; }
ol_die() { printf 'oldlibc: %s\n' "$*" >&2; exit 1; }

# ol_names: the C libraries, in table order.
ol_names() { sed -n 's/^\([a-z][^ ]*\) .*/\1/p' "$OL_HERE/libcs"; }
# ol_field NAME N: field N of NAME's line in libcs (3: the rest).
ol_field() {
  awk -v n="$1" -v f="$2" '$1 == n {
    if (f < 3) print $f; else { $1 = $2 = ""; sub(/^ +/, ""); print } }' \
    "$OL_HERE/libcs"
}
# ol_prefix NAME: where NAME is installed, inside the chroot.
ol_prefix() { echo "/opt/rseq-compat/$1"; }
