# xfail-host.sh: reading build-aux/glibc/xfail-host (sourced by
# check.sh; tests/rseq.build/glibc-xfail-host.exp calls the functions
# on lists and outputs of its own).  GL_HOST_LIST names the list.
#
# A line is SUBDIR/TEST, then the names of the checks whose failure is
# the machine's (none: any failure of TEST is); '#' starts a comment,
# blanks and carriage returns around the words do not count.  A failing
# check is the one a "Checking ... (NAME):" line names last before a
# "*** failure ***" line (glibc's tst-cpu-features-cpuinfo prints its
# results so).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

# gl_host_entry TEST: true if TEST is on the list; prints the checks its
# line names.
gl_host_entry() {
  [ -r "$GL_HOST_LIST" ] || return 1
  tr '\r' ' ' < "$GL_HOST_LIST" | sed -e 's/#.*//' |
    awk -v t="$1" '$1 == t { for (i = 2; i <= NF; i++) printf "%s ", $i; f = 1 }
      END { exit !f }'
}

# gl_host_failure TEST OUT: true if the failure of TEST, whose output is
# the file OUT, is the machine's: TEST is on the list, and its line names
# no check, or OUT shows at least one failing check and only those the
# line names.  A test that fails otherwise (a crash, another check) is
# not excused: the unpatched build is asked, as for any failure.
gl_host_failure() {
  _checks=$(gl_host_entry "$1") || return 1
  [ -n "$_checks" ] || return 0
  [ -r "$2" ] || return 1
  awk -v ok=" $_checks" '
    /^ *Checking .*\(.*\): *$/ {
      name = $0; sub(/^[^(]*\(/, "", name); sub(/\): *$/, "", name)
    }
    /\*\*\* failure \*\*\*/ { n++; if (index(ok, " " name " ") == 0) bad = 1 }
    END { exit !(n > 0 && !bad) }' "$2"
}
