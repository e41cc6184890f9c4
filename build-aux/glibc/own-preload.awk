# own-preload.awk: the tests of a glibc subdirectory Makefile whose own
# environment sets LD_PRELOAD (NAME-ENV, or a recipe of $(objpfx)NAME.out),
# one a line: make check-glibc-shim names them as run without the shim.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
{
  line = $0
  while (line ~ /\\$/ && (getline nxt) > 0) { sub(/\\$/, "", line); line = line " " nxt }
}
line ~ /^\$\(objpfx\)[A-Za-z0-9_.-]+\.out *:/ {
  tgt = line; sub(/^\$\(objpfx\)/, "", tgt); sub(/\.out *:.*/, "", tgt)
}
line !~ /^\t/ && line !~ /^\$\(objpfx\)[A-Za-z0-9_.-]+\.out *:/ { tgt = "" }
line ~ /LD_PRELOAD/ {
  if (match(line, /^[A-Za-z0-9_.-]+-ENV/)) print substr(line, 1, RLENGTH - 4)
  else if (line ~ /^\t/ && tgt != "") print tgt
}
