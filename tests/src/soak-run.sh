#!/bin/bash
# soak-run.sh SRCDIR: tests/soak/run's run_soak, the bounds around each
# soak, on stand-in programs built here: a soak that ends in time passes
# its status on; one killed from outside is reported killed by its
# signal, not as a hang; one that makes no progress for SOAK_STALL
# seconds (none at all, or none after a while) is a hang, and leaves
# every thread's system call (and stack) before it and its forked child
# are killed; one slower than the stall in all but progressing passes;
# one still progressing at SOAK_TIMEOUT fails as too slow, not as a
# hang.  One "PASS: WHAT" or "FAIL: WHAT" line each.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
src=$1
t=$(mktemp -d)
trap 'pkill -KILL -f "$t/" 2>/dev/null; rm -rf "$t"' EXIT
check() { w=$1; shift; if "$@"; then echo "PASS: $w"; else echo "FAIL: $w"; fi; }
sed -n '/^group_members() {/,/^}/p; /^run_soak() {/,/^}/p' "$src/tests/soak/run" > "$t/run_soak.sh"
# HOW: exit3, killed, hang (a forked child and no progress ever), stall
# (three steps of progress, then none), slow (a step every second, for
# 7 s, then exit 0), endless (a step every 0.5 s, for ever).
cat > "$t/p.c" <<'C'
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static void
step (long n, long ms)
{
  char buf[24];
  int fd = open (getenv ("SOAK_PROGRESS"), O_WRONLY | O_CREAT, 0644);
  int len = snprintf (buf, sizeof buf, "%20ld\n", n);
  if (fd < 0 || pwrite (fd, buf, len, 0) != len)
    exit (99);
  close (fd);
  struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };
  nanosleep (&ts, NULL);
}
int
main (void)
{
  const char *how = getenv ("HOW");
  if (strcmp (how, "exit3") == 0)
    return 3;
  if (strcmp (how, "killed") == 0)
    raise (SIGKILL);
  if (strcmp (how, "slow") == 0)
    {
      for (long n = 1; n <= 7; n++)
        step (n, 1000);
      return 0;
    }
  if (strcmp (how, "endless") == 0)
    for (long n = 1;; n++)
      step (n, 500);
  if (strcmp (how, "stall") == 0)
    for (long n = 1; n <= 3; n++)
      step (n, 300);
  if (fork () == 0)
    pause ();
  pause ();
  return 0;
}
C
cc -o "$t/rc-soak-standin" "$t/p.c" || { echo "FAIL: cannot build the stand-in"; exit 1; }
# rs HOW [TIMEOUT]: run_soak of the stand-in, with a stall of 5 s.
# run_soak reads the clock in whole seconds once a second, so it may
# call a hang after STALL - 1 s of silence and stop at TIMEOUT - 1 s:
# a stall of 2 s took 1.5 s steps for a hang in 4 of 24 runs, so
# the bounds below allow for that second.
rs() { (TIMEOUT=${2:-30} STALL=5 THREADS=1; . "$t/run_soak.sh"; HOW=$1 run_soak musl "$t/rc-soak-standin" ""); }
timed() { s=$(date +%s); out=$(rs "$@" 2>/dev/null); r=$?; e=$(( $(date +%s) - s )); }
timed exit3
check "a soak that ends in time passes its status on, and nothing else" sh -c "[ $r -eq 3 ] && [ -z '$out' ]"
timed killed
check "one killed from outside is reported killed by its signal, not as a hang" \
  sh -c "[ $r -eq 137 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: killed by signal 9'"
timed hang
check "one that never makes progress fails as a hang, at the stall" \
  sh -c "[ $r -eq 124 ] && [ $e -ge 3 ] && [ $e -lt 15 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: no progress for 5 s (SOAK_STALL; no threads ran by then): a hang'"
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
    [ "$(tr '\0' '\n' 2>/dev/null < "$c" | head -n 1)" = "$t/rc-soak-standin" ] || continue
    state=$(awk '{ sub(/.*\) /, ""); print $1 }' "${c%/cmdline}/stat" 2>/dev/null)
    [ "$state" = Z ] || [ -z "$state" ] || left="$left ${c%/cmdline}($state)"
  done
  [ -z "$left" ] && break
  sleep 0.5
done
check "... and killed, its child too${left:+ (left:$left)}" [ -z "$left" ]
timed stall
check "one whose progress stops fails as a hang, naming how far it got" \
  sh -c "[ $r -eq 124 ] && [ $e -lt 15 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: no progress for 5 s (SOAK_STALL; *3 threads ran by then): a hang'"
timed slow
check "one slower than the stall in all, but progressing, passes" \
  sh -c "[ $r -eq 0 ] && [ $e -ge 6 ] && [ -z '$out' ]"
timed endless 8
check "one still progressing at the bound fails as too slow, not as a hang" \
  sh -c "[ $r -eq 124 ] && [ $e -ge 7 ] && [ $e -lt 20 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: not finished after 8 s (SOAK_TIMEOUT), though still making progress (.*threads ran): a machine too slow for the bound'"
