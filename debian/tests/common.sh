# Sourced by the as-installed tests: what they expect, and how they
# report (a line per step, "PASS: NAME" or "FAIL: NAME: WHY"; finish
# exits 1 if any step failed).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch 2>/dev/null ||
     dpkg --print-architecture | sed 's/^amd64$/x86_64-linux-gnu/; s/^arm64$/aarch64-linux-gnu/')
pf=/etc/ld.so.preload
# glibc registers rseq itself from 2.35 on: an oracle that is not the
# shim's own decision.
v=$(getconf GNU_LIBC_VERSION | sed -n 's/^glibc 2\.\([0-9]*\).*/\1/p')
if [ "${v:-0}" -lt 35 ]; then mode=shim-owned; else mode=libc-owned; fi
failed=0
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; failed=1; }
# check NAME PATTERN CMD...: CMD succeeds and its output (stderr too)
# matches the grep -E PATTERN.
check() {
  _n=$1 _p=$2; shift 2
  out=$("$@" 2>&1) || { fail "$_n" "exit status $?: $out"; return 1; }
  printf '%s\n' "$out" | grep -Eq -- "$_p" || { fail "$_n" "no '$_p' in: $out"; return 1; }
  pass "$_n"
}
# quiet NAME CMD...: CMD succeeds and says nothing on stderr.
quiet() {
  _n=$1; shift
  _e=$("$@" 2>&1 >/dev/null) || { fail "$_n" "exit status $?: $_e"; return 1; }
  [ -z "$_e" ] || { fail "$_n" "said on stderr: $_e"; return 1; }
  pass "$_n"
}
finish() { exit "$failed"; }
