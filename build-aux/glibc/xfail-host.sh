# xfail-host.sh: reading build-aux/glibc/xfail-host (sourced by
# check.sh; tests/rseq.build/glibc-xfail-host.exp calls the functions
# on lists and outputs of its own).  GL_HOST_LIST names the list.
#
# A line is SUBDIR/TEST and the names of the checks of it whose failure
# is the machine's, at least one (a line without is not read); '#'
# starts a comment, and blanks, carriage returns, vertical tabs and form
# feeds around the words do not count.  The output is read as glibc's
# elf/tst-cpu-features-cpuinfo writes it: a "Checking ... (NAME):" line
# opens each check, " *** failure ***" under it says that it failed,
# and the last line counts them, "N differences between ...".
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

# gl_host_entry TEST: true if TEST is on the list; prints the checks its
# line names.
gl_host_entry() {
  [ -r "$GL_HOST_LIST" ] || return 1
  tr '\r\v\f' '   ' < "$GL_HOST_LIST" | sed -e 's/#.*//' |
    awk -v t="$1" '$1 == t && NF > 1 {
        for (i = 2; i <= NF; i++) printf "%s ", $i
        f = 1
      }
      END { exit !f }'
}

# gl_host_failure TEST OUT: true if the failure of TEST, whose output is
# the file OUT, is the machine's: TEST is on the list, at least one check
# failed and only those its line names, and the output ends with the
# test's own count of failures, equal to theirs.  A crash, an abort or a
# timeout (after the last check or in the middle of one), an output cut
# short, a failure outside a check or one the count disagrees with is
# not excused: the unpatched build is asked, as for any failure (75th
# review).
gl_host_failure() {
  _checks=$(gl_host_entry "$1") || return 1
  [ -r "$2" ] || return 1
  awk -v ok=" $_checks" '
    summed && NF > 0 { after = 1 }
    /^[0-9]+ differences? between / && !summed {
      summed = 1; count = $1 + 0; next
    }
    /^ *Checking / {
      name = ""
      if ($0 ~ /^ *Checking [^(]*\([^()]*\): *$/) {
        name = $0; sub(/^[^(]*\(/, "", name); sub(/\): *$/, "", name)
      }
    }
    /\*\*\* failure \*\*\*/ {
      n++
      if (name == "" || index(ok, " " name " ") == 0) bad = 1
    }
    END { exit !(n > 0 && !bad && summed && count == n && !after) }' "$2"
}
