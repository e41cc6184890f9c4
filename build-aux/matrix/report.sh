# report.sh: sourced by run; `report` prints build/matrix.md from what
# run left in $out (status/, vm-*.log, check-*.result, release-*) and
# writes one "ROW COLUMN PASS|FAIL" line per cell to $out/cells.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

# The kernel a suite ships, for headings when its kernel never came.
nominal_release() {
  case $1 in bullseye) echo 5.10 ;; bookworm) echo 6.1 ;; trixie) echo 6.12 ;;
             sid) echo 7.x ;; host) uname -r ;; esac
}
short_release() { echo "$1" | sed 's/^\([0-9]*\.[0-9x]*\).*/\1/'; }

row_label() {
  v=$(sed -n 1p "$out/$1/.version" 2>/dev/null)
  pkg=$(sed -n 2p "$out/$1/.version" 2>/dev/null)
  echo "${v:-${1#*-}} (${1%-*}${pkg:+ $pkg})"
}

# One cell's text; sets cell_ok (1/0) and appends details to $out/details.
cell() {  # ROW COLUMN
  r=$1 c=$2 cell_ok=0
  key=row-$r; why=$(failed_why "$key")
  [ -n "$why" ] || { key=kernel-$c; why=$(failed_why "$key"); }
  if [ -n "$why" ]; then
    text="**FAIL**: $why"
    more=$(cat "$out/status/$key.more" 2>/dev/null)
    # One line per cause, not per cell.
    grep -qxF -- "- $why: $more" "$out/details" ||
      printf -- '- %s: %s\n' "$why" "$more" >> "$out/details"
    return
  fi
  log=$out/vm-$c.log
  ok=$(grep -c "^\[$r\] ok - " "$log")
  bad=$(grep -c "^\[$r\] FAIL - " "$log")
  end=$(grep "^@@ $r " "$log" | tail -n 1 | sed "s/^@@ $r //")
  names=$(grep "^\[$r\] FAIL - " "$log" | sed 's/^[^]]*\] FAIL - \([^:]*\).*/\1/' |
          paste -sd, - | sed 's/,/, /g')
  case $end in
    "exit 0"*) [ "$bad" -eq 0 ] && [ "$ok" -gt 0 ] && cell_ok=1 ;;
  esac
  if [ $cell_ok -eq 1 ]; then
    text="$ok/$ok"
  else
    text="$ok/$((ok + bad))"
    [ -z "$names" ] || text="$text: $names"
    case $end in
      "exit "*) ;;
      "") text="$text (no result: $(failed_why "crash-$c" || echo "none reported"))"
          end="no result: $(cat "$out/status/crash-$c.more" 2>/dev/null)" ;;
      *) text="$text ($end)" ;;
    esac
    {
      printf -- '- %s × %s (%s):\n' "$r" "$c" "$end"
      grep -E "^\[$r\] (FAIL - |# stress: [a-z]|# fork|# after)" "$log" | head -n 8 |
        sed 's/^\[[^]]*\] /    /'
    } >> "$out/details"
  fi
  # The host column carries make check in the distribution's chroot.
  if [ "$c" = host ] && [ "${r#*-}" = glibc ] && [ -e "$out/check-${r%-*}.result" ]; then
    res=$(cat "$out/check-${r%-*}.result")
    p=$(echo "$res" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    f=$(echo "$res" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -n "$p" ] && [ "$f" -eq 0 ]; then
      text="$text; make check $p/$p"
    else
      cell_ok=0
      text="$text; make check ${p:-?}/$(( ${p:-0} + ${f:-0} ))"
      {
        printf -- '- %s: make check in the chroot: %s (%s, %s)\n' "${r%-*}" "$res" \
          "$out/check-${r%-*}.sum" "$out/check-${r%-*}.log"
        grep -E '^(FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|ERROR):' "$out/check-${r%-*}.sum" \
          2>/dev/null | head -n 12 | sed 's/^/    /'
      } >> "$out/details"
    fi
  fi
  if [ $cell_ok -eq 1 ]; then text="pass $text"; else text="**FAIL** $text"; fi
}

report() {
  cols="$suites host"
  : > "$out/details"
  : > "$out/cells"
  head="| C library (userland) | mode |"
  rule="|---|---|"
  for c in $cols; do
    rel=$(cat "$out/release-$c" 2>/dev/null || nominal_release "$c")
    if [ "$c" = host ]; then head="$head host $(short_release "$rel") |"
    else head="$head $(short_release "$rel") ($c) |"; fi
    rule="$rule---|"
  done
  echo "# rseq-compat compatibility matrix"
  echo
  "$top/build-aux/provenance" "$top" check-matrix
  echo "Cells: checks of \`tests/matrix/mxcheck.c\` passed/run with the shim preloaded,"
  echo "under Debian's cloud kernels booted with qemu (TCG) and under the host's kernel;"
  echo "in the host column the glibc rows add the full \`make check\` run in that suite's chroot,"
  echo "less $MX_EXCLUDE_WHY."
  echo
  echo "$head"
  echo "$rule"
  for r in $rows; do
    line="| $(row_label "$r") | $(row_mode "$r") |"
    for c in $cols; do
      cell "$r" "$c"
      line="$line $text |"
      if [ $cell_ok -eq 1 ]; then echo "$r $c PASS"; else echo "$r $c FAIL"; fi >> "$out/cells"
    done
    echo "$line"
  done
  echo
  echo "Expected \`__rseq_size\` / registration length (shim-owned, glibc 2.41+, a glibc with rseq-compat's series):"
  exp=""
  for c in $cols; do
    rel=$(cat "$out/release-$c" 2>/dev/null || nominal_release "$c")
    case $rel in [0-9]*.*) set -- $(mx_kernel_expect "$rel"); exp="$exp $(short_release "$rel") $1/$2;" ;; esac
  done
  echo "${exp# }" | sed 's/;$/; glibc 2.35–2.40 (bookworm): 20\/32 everywhere./'
  echo
  echo "Kernels:"
  for c in $suites; do
    p=$(cat "$out/kernel-$c.path" 2>/dev/null)
    [ -n "$p" ] && echo "- $c: $(basename "$(dirname "$p")" | sed 's/_/ /')" ||
      echo "- $c: none ($(failed_why "kernel-$c"))"
  done
  echo "- host: $(uname -r)"
  echo
  echo "QEMU: $(cat "$out/qemu-version" 2>/dev/null || echo none) (TCG, -cpu max, 2 vCPUs); run time $(elapsed) s."
  if [ -s "$out/notes" ]; then
    echo
    echo "Notes:"
    echo
    cat "$out/notes"
  fi
  if [ -s "$out/details" ]; then
    echo
    echo "Failures:"
    echo
    cat "$out/details"
  fi
}
