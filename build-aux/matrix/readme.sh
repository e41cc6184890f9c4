#!/bin/sh
# readme.sh [MATRIX_MD [README]]: copy the table of the last
# `make check-matrix` run (build/matrix.md) into README.md's
# "Tested on" section, between its two marker comments, so the README
# states exactly what a run showed and nothing is typed by hand.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
md=${1:-build/matrix.md}
readme=${2:-README.md}
begin='<!-- matrix:begin (make readme-matrix writes this part) -->'
end='<!-- matrix:end -->'
[ -r "$md" ] || { echo "readme.sh: no $md; run make check-matrix (as root) first" >&2; exit 1; }
grep -qxF "$begin" "$readme" && grep -qxF "$end" "$readme" ||
  { echo "readme.sh: $readme lacks the matrix markers" >&2; exit 1; }
# A failed run must not reach the README as if it were a result.
if grep -q 'FAIL' "$md"; then
  echo "readme.sh: $md has failing cells; not copied" >&2
  exit 1
fi
tmp=$readme.tmp.$$
awk -v b="$begin" -v e="$end" -v md="$md" '
  $0 == b { print; while ((getline l < md) > 0) if (l !~ /^# /) print l; skip = 1; next }
  $0 == e { skip = 0 }
  !skip' "$readme" > "$tmp"
mv "$tmp" "$readme"
echo "readme.sh: $readme updated from $md"
