#!/bin/bash
# soak-run.sh SRCDIR: tests/soak/run's run_soak, the bound around each
# soak, on stand-in programs built here: a soak that ends in time passes
# its status on; one killed from outside is reported killed by its
# signal, not as a hang; one still going at the bound (and its forked
# child) leaves every thread's stack and is killed, children too.  One
# "PASS: WHAT" or "FAIL: WHAT" line each.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
src=$1
t=$(mktemp -d)
trap 'pkill -KILL -f "$t/" 2>/dev/null; rm -rf "$t"' EXIT
check() { w=$1; shift; if "$@"; then echo "PASS: $w"; else echo "FAIL: $w"; fi; }
sed -n '/^run_soak() {/,/^}/p' "$src/tests/soak/run" > "$t/run_soak.sh"
cat > "$t/p.c" <<'C'
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
int
main (int argc, char **argv)
{
  const char *how = getenv ("HOW");
  (void) argc; (void) argv;
  if (strcmp (how, "exit3") == 0)
    return 3;
  if (strcmp (how, "killed") == 0)
    raise (SIGKILL);
  if (fork () == 0)
    pause ();
  pause ();
  return 0;
}
C
cc -o "$t/soak" "$t/p.c" || { echo "FAIL: cannot build the stand-in"; exit 1; }
rs() { (TIMEOUT=3 THREADS=1; . "$t/run_soak.sh"; HOW=$1 run_soak musl "$t/soak" ""); }
out=$(rs exit3 2>/dev/null); r=$?
check "a soak that ends in time passes its status on, and nothing else" sh -c "[ $r -eq 3 ] && [ -z '$out' ]"
out=$(rs killed 2>/dev/null); r=$?
check "one killed from outside is reported killed by its signal, not as a hang" \
  sh -c "[ $r -eq 137 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: killed by signal 9'"
s=$(date +%s)
out=$(rs hang 2>/dev/null); r=$?
e=$(( $(date +%s) - s ))
check "one still going at the bound fails as not finished, at the bound" \
  sh -c "[ $r -eq 124 ] && [ $e -ge 3 ] && [ $e -lt 60 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: not finished after 3 s'"
if command -v gdb >/dev/null 2>&1; then
  check "... leaving the stacks of the soak and of its forked child" \
    sh -c "[ \$(grep -c '^== process' '$t/soak-musl.stacks') -eq 2 ] && grep -q '^Thread ' '$t/soak-musl.stacks'"
else
  echo "FAIL: ... leaving the stacks (no gdb: build-aux/ensure-deps installs it)"
fi
sleep 1
left=$(pgrep -f "$t/soak")
check "... and killed, its child too${left:+ (left: $left)}" [ -z "$left" ]
