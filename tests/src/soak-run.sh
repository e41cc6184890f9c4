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
sed -n '/^group_members() {/,/^}/p; /^run_soak() {/,/^}/p' "$src/tests/soak/run" > "$t/run_soak.sh"
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
cc -o "$t/rc-soak-standin" "$t/p.c" || { echo "FAIL: cannot build the stand-in"; exit 1; }
rs() { (TIMEOUT=3 THREADS=1; . "$t/run_soak.sh"; HOW=$1 run_soak musl "$t/rc-soak-standin" ""); }
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
# Each thread's system call (34: pause) needs nothing but /proc; the
# stacks need gdb, which the package builds' chroots lack.
st=$t/soak-musl.stacks
if command -v gdb >/dev/null 2>&1; then
  check "... leaving the system call and stack of the soak and of its forked child" \
    sh -c "[ \$(grep -c '^== process' '$st') -eq 2 ] && [ \$(grep -c '^[0-9]*: syscall 34 ' '$st') -eq 2 ] && grep -q '^Thread ' '$st'"
else
  check "... leaving the system call of the soak and of its forked child (no gdb here for stacks)" \
    sh -c "[ \$(grep -c '^== process' '$st') -eq 2 ] && [ \$(grep -c '^[0-9]*: syscall 34 ' '$st') -eq 2 ]"
fi
# Killed, and gone within 5 s (a zombie waiting for init counts as gone).
for i in 1 2 3 4 5 6 7 8 9 10; do
  left=
  # By the program's path, which holds this run's own directory: the
  # name alone would also find another run's stand-in (tiers run side
  # by side).
  for c in /proc/[0-9]*/cmdline; do
    [ "$(tr '\0' '\n' < "$c" 2>/dev/null | head -n 1)" = "$t/rc-soak-standin" ] || continue
    state=$(awk '{ sub(/.*\) /, ""); print $1 }' "${c%/cmdline}/stat" 2>/dev/null)
    [ "$state" = Z ] || [ -z "$state" ] || left="$left ${c%/cmdline}($state)"
  done
  [ -z "$left" ] && break
  sleep 0.5
done
check "... and killed, its child too${left:+ (left:$left)}" [ -z "$left" ]
