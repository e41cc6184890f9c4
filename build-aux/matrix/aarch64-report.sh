# aarch64-report.sh: sourced by aarch64; `aarch64_report` prints
# build/aarch64.md from what it left in $out (status/, vm-*.log,
# release-*, version-*, seconds-*) and writes one "CELL PASS|FAIL" line
# per cell to $out/cells.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

# aarch64_log CELL PATTERN: the "@@ log" lines of CELL's guest matching
# PATTERN (a grep -E expression), without the prefix.
aarch64_log() {
  sed -n 's/^@@ log //p' "$out/vm-$1.log" 2>/dev/null | grep -E "$2"
}

aarch64_report() {
  : > "$out/cells"
  qroot=$RSEQ_COMPAT_CACHE/chroot/$qemu_suite
  qv=$(mx_in_chroot "$qroot" qemu-system-aarch64 --version 2>/dev/null |
       sed -n '1s/^QEMU emulator version //p')
  echo "### AArch64 (make check-aarch64)"
  echo
  "$top/build-aux/provenance" "$top" check-aarch64
  echo
  echo "Debian's arm64 cloud kernels under qemu-system-aarch64 ${qv:-?} (TCG, \`-M virt"
  echo "-cpu max\`, 2 CPUs).  Each arm64 mmdebstrap userland builds the tree (under"
  echo "qemu-user); each guest runs tests/rseq.shim"
  echo "(RUNTESTFLAGS=\"$flags\", make check-run) and mxcheck with the shim preloaded"
  echo "and this kernel's values, and in each Debian userland the AArch64 portable"
  echo "tarball (make portable PORTABLE_ARCH=aarch64) with its glibc and musl, as make"
  echo "check-portable checks x86-64's: passed/run, guest seconds.  Left out:"
  echo "$MX_EXCLUDE_WHY."
  echo
  printf '| userland |'
  for k in $kernels; do printf ' Linux %s |' "$(cat "$out/release-$k" 2>/dev/null || echo "$k")"; done
  echo
  printf '|---|'
  for k in $kernels; do printf -- '---|'; done
  echo
  for u in $userlands; do
    printf '| %s (%s) |' "$u" "$(cat "$out/version-$u" 2>/dev/null || echo '?')"
    for k in $kernels; do
      cell=$u-$k
      why=$(failed_why "cell-$cell")
      if [ -n "$why" ]; then
        printf ' **FAIL**: %s |' "$why"
        echo "$cell FAIL" >> "$out/cells"
      else
        set -- $(sed -n 's/^@@ result //p' "$out/vm-$cell.log")
        mx=$(sed -n 's/^@@ mx \([a-z]*\) mxcheck: \([0-9]*\) ok.*/\1 \2\/\2/p' "$out/vm-$cell.log" |
             paste -sd, - | sed 's/,/, /g')
        gt=$(grep -c '^@@ glibc PASS: ' "$out/vm-$cell.log")
        [ "$gt" -eq 0 ] && gt= || gt="; glibc's tst-rseq* $gt/$gt"
        pt=$(sed -n 's/^@@ portable \([a-z]*\): pass:.*/\1/p' "$out/vm-$cell.log" |
             paste -sd, - | sed 's/,/, /g')
        [ -z "$pt" ] || pt="; portable tarball: $pt pass"
        printf ' PASS: make check %s/%s; mxcheck %s%s%s (%s s) |' "$1" "$1" "$mx" "$gt" "$pt" \
          "$(cat "$out/seconds-$cell")"
        echo "$cell PASS" >> "$out/cells"
      fi
    done
    echo
  done
  echo
  # The counter's restarts: its "aborts" build falls back to the atomic
  # add after the first abort, so each such add is a sequence the
  # kernel restarted.
  echo "Per-CPU counter (1,600,000 adds: a tenth, RSEQ_TEST_SCALE=10; and a signal handler that adds; exact in"
  echo "every run): adds that took the restartable sequence / adds whose"
  echo "sequence the kernel aborted (the \"aborts\" build falls back after one abort)."
  echo
  printf '| userland | config |'
  for k in $kernels; do printf ' Linux %s |' "$(short_release "$(cat "$out/release-$k" 2>/dev/null || echo "$k")")"; done
  echo
  printf '|---|---|'
  for k in $kernels; do printf -- '---|'; done
  echo
  # CONFIG|what the table calls it: the static musl program is linked
  # with librseq-compat.a (counter.exp).
  for u in $userlands; do
    for row in 'glibc|glibc + shim' 'musl|musl + shim' \
               'static musl|static musl + archive'; do
      c=${row%%|*}
      printf '| %s | %s |' "$u" "${row#*|}"
      for k in $kernels; do
        r=$(aarch64_log "$u-$k" "^counter \\[$c\\]:" | sed -n 's/.*; rseq \([0-9]*\), atomic.*/\1/p')
        a=$(aarch64_log "$u-$k" "^counter \\[$c, aborts\\]:" | sed -n 's/.*, atomic \([0-9]*\);.*/\1/p')
        printf ' %s / %s |' "${r:-?}" "${a:-?}"
      done
      echo
    done
  done
  echo
  echo "sched_getcpu: system calls strace counts during 2,000 calls (getcpu-syscalls.exp)."
  echo
  printf '| userland | kernel |'
  cfgs="glibc alone|glibc|glibc-off|musl alone|musl|musl-off|static musl alone|static musl"
  echo "$cfgs" | tr '|' '\n' | while read -r c; do printf ' %s |' "$c"; done
  echo
  printf '|---|---|'
  echo "$cfgs" | tr '|' '\n' | while read -r c; do printf -- '---|'; done
  echo
  for u in $userlands; do
    for k in $kernels; do
      printf '| %s | %s |' "$u" "$(short_release "$(cat "$out/release-$k" 2>/dev/null || echo "$k")")"
      echo "$cfgs" | tr '|' '\n' | while read -r c; do
        n=$(aarch64_log "$u-$k" "^getcpu system calls \\[$c\\]:" | sed -n 's/.*: \([0-9]*\) for.*/\1/p')
        printf ' %s |' "${n:-?}"
      done
      echo
    done
  done
  # What failed, by test.
  for u in $userlands; do
    for k in $kernels; do
      [ -e "$out/vm-$u-$k.log" ] || continue
      f=$(sed -n 's/^@@ sum FAIL: //p' "$out/vm-$u-$k.log")
      [ -n "$f" ] || continue
      echo
      echo "Failures, $u under $(cat "$out/release-$k"):"
      echo "$f" | sed 's/^/    /'
    done
  done
}
