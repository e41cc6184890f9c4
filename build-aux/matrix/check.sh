#!/bin/sh
# check.sh SUITE OUT: run the full `make check` in SUITE's chroot, in the
# tree build.sh copied and built there.  Keeps the log and rseq.sum as
# OUT/check-SUITE.{log,sum} and prints make check's closing line
# ("N passed, N failed").  Exit status: make check's.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(dirname "$0")
. "$here/common.sh"
suite=$1
out=$2
root=$RSEQ_COMPAT_CACHE/chroot/$suite
# No update of the chroot under the run (build.sh held it for the build).
mx_hold_chroot "$suite"
# Less what the chroot cannot run, with the reason (common.sh).
{
  echo "matrix: $suite: make check leaves out $MX_EXCLUDE_WHY"
  mx_in_chroot "$root" sh -c "cd /rc/src && make check RUNTESTFLAGS='$(mx_exclude_flags "")'" 2>&1
} >"$out/check-$suite.log"
status=$?
cp "$root/rc/src/build/tests/rseq.sum" "$out/check-$suite.sum" 2>/dev/null || :
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out/check-$suite.log" | tail -n 1)
echo "${line:-no result line (see $out/check-$suite.log)}"
exit $status
