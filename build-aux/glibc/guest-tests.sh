#!/bin/sh
# guest-tests.sh MAKEFILE TEST...: the tests list of make check-glibc
# GLIBC_ARCH=aarch64's guest/ (read by guest/run-tests.sh), one line
# per TEST (SUBDIR/NAME): "SUBDIR/NAME static|dynamic [VAR=VALUE...]".
# Both facts come from MAKEFILE, the patched tree's
# sysdeps/unix/sysv/linux/Makefile, as glibc's make check takes them: a
# test in a tests-static list runs as it is, any other through the new
# loader; NAME-ENV is the environment its run gets
# (tst-rseq-disable: GLIBC_TUNABLES=glibc.pthread.rseq=0).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
mk=$1; shift
[ -r "$mk" ] || { echo "guest-tests.sh: cannot read $mk" >&2; exit 1; }
# Continued lines joined first, as make reads them.
joined=$(sed -e :a -e '/\\$/N; s/\\\n/ /; ta' "$mk")
for t in "$@"; do
  printf '%s\n' "$joined" | awk -v t="$t" '
    BEGIN { n = t; sub(/.*\//, "", n); kind = "dynamic"; env = "" }
    $1 == "tests-static" && ($2 == "+=" || $2 == "=" || $2 == ":=") {
      for (i = 3; i <= NF; i++) if ($i == n) kind = "static"
    }
    $1 == n "-ENV" && $2 == "=" {
      env = ""
      for (i = 3; i <= NF; i++) env = env " " $i
    }
    END { print t, kind env }'
done
