#!/bin/bash
# soak-run.sh SRCDIR: tests/soak/run's run_soak, the bounds around each
# soak, on stand-in programs built here: a soak that ends in time passes
# its status on; one killed from outside is reported killed by its
# signal, not as a hang; one that makes no progress for SOAK_STALL
# seconds (none at all, or none after a while) is a hang, and leaves
# every thread's system call (and stack) before it and its forked child
# are killed; one slower than the stall in all but progressing passes;
# one still progressing at SOAK_TIMEOUT fails as too slow, not as a
# hang.  Then what the watch once got wrong: a soak that ends while the
# watch reads its progress file passes its status on (it was taken for
# a hang: bash had reaped it, and wait -n said "no such job"); a
# SOAK_STALL or SOAK_TIMEOUT that is not whole seconds (1m, 30m), or
# of more than 7 digits, is refused at once, naming it (neither bound
# fired; 20 digits overflowed the watch's arithmetic); a step of the wall
# clock, back or forward, changes nothing (the watch reads the time
# since boot); tests/soak/soak.c fails at once, naming the file and the
# error, when it cannot open or write SOAK_PROGRESS (it was taken for a
# hang); SIGTERM to a shell running run_soak leaves neither the soak
# nor the watch running (both ran on); a soak that ends leaves none of
# its forked children (they ran on), nor a descendant that left its
# process group with setsid (it ran on under init); a FIFO at the
# progress path reads as no progress, and the stall or the bound still
# fires (the watch waited in its open() for ever); a SOAK_STALL with a
# newline is named escaped, on one line (the message was split in two).
# One "PASS: WHAT" or "FAIL: WHAT" line each.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
src=$1
t=$(mktemp -d)
trap 'pkill -KILL -f "$t/" 2>/dev/null; rm -rf "$t"' EXIT
check() { w=$1; shift; if "$@"; then echo "PASS: $w"; else echo "FAIL: $w"; fi; }
sed -n '/^log() {.*}$/p; /^bounds_ok() {/,/^}/p; /^group_members() {/,/^}/p
  /^marked_members() {/,/^}/p; /^uptime_cs() {/,/^}/p; /^run_soak() {/,/^}/p' "$src/tests/soak/run" > "$t/run_soak.sh"
# The time since boot in centiseconds, into the variable named $1: the
# checks' own times must not move with the wall clock either.
uptime_cs() { read -r u _ < /proc/uptime; printf -v "$1" '%d' $((10#${u/./})); }
# HOW: exit3, killed, hang (a forked child and no progress ever), stall
# (three steps of progress, then none), slow (a step every second, for
# STEPS s, 7 by default, then exit 0), endless (a step every 0.5 s, for
# ever), quiet (no progress, no child, and gone by itself after 30 s,
# for the checks whose watch may be killed from outside), opened (one
# step of progress, then waits until the progress file is opened, by the
# watch, and exits 5 at once: it ends while the watch reads), fifo
# (makes its progress file a FIFO and stays, as quiet), orphan (one step
# of progress, forks a child that outlives it, gone by itself after
# 30 s, and exits 0), escape (as orphan, but the child calls setsid and
# execs the stand-in as linger: it leaves the process group; and its
# standard output and error are /dev/null, so that the check's $(...)
# does not wait for it), linger (as quiet, but for 300 s: looking for
# what is left may take longer than 30 s on a loaded machine; the EXIT
# trap kills it).
cat > "$t/p.c" <<'C'
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/stat.h>
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
main (int argc, char **argv)
{
  (void) argc;
  const char *how = getenv ("HOW");
  if (strcmp (how, "exit3") == 0)
    return 3;
  if (strcmp (how, "killed") == 0)
    raise (SIGKILL);
  if (strcmp (how, "slow") == 0)
    {
      long steps = getenv ("STEPS") ? atol (getenv ("STEPS")) : 7;
      for (long n = 1; n <= steps; n++)
        step (n, 1000);
      return 0;
    }
  if (strcmp (how, "opened") == 0)
    {
      char ev[sizeof (struct inotify_event) + NAME_MAX + 1];
      step (1, 0);
      int in = inotify_init1 (IN_CLOEXEC);
      if (in < 0 || inotify_add_watch (in, getenv ("SOAK_PROGRESS"),
                                       IN_OPEN) < 0
          || read (in, ev, sizeof ev) <= 0)
        return 99;
      return 5;
    }
  if (strcmp (how, "fifo") == 0)
    {
      const char *p = getenv ("SOAK_PROGRESS");
      unlink (p);
      if (mkfifo (p, 0644) != 0)
        return 99;
      alarm (30);
      pause ();
    }
  if (strcmp (how, "escape") == 0)
    {
      if (fork () == 0)
        {
          int null = open ("/dev/null", O_RDWR);
          if (null < 0 || dup2 (null, 1) < 0 || dup2 (null, 2) < 0
              || setsid () < 0)
            _exit (99);
          setenv ("HOW", "linger", 1);
          execv (argv[0], argv);
          _exit (99);
        }
      step (1, 300);
      return 0;
    }
  if (strcmp (how, "orphan") == 0)
    {
      if (fork () == 0)
        {
          alarm (30);
          pause ();
        }
      step (1, 0);
      return 0;
    }
  if (strcmp (how, "linger") == 0)
    {
      alarm (300);
      pause ();
    }
  if (strcmp (how, "quiet") == 0)
    {
      alarm (30);
      pause ();
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
# rs HOW [TIMEOUT]: run_soak of the stand-in, with a stall of 5 s (a
# stall of 2 s took 1.5 s steps for a hang in 4 of 24 runs on a loaded
# machine).  run_soak looks once a second, at the time since boot in
# centiseconds: it calls a hang after STALL s of silence or a few
# seconds later on a loaded machine, never sooner, and stops at TIMEOUT
# s or a few seconds later.
# timed's E is whole seconds, rounded down.
rs() { (TIMEOUT=${2:-30} STALL=5 THREADS=1; . "$t/run_soak.sh"; HOW=$1 run_soak musl "$t/rc-soak-standin" ""); }
timed() { uptime_cs s; out=$(rs "$@" 2>/dev/null); r=$?; uptime_cs e; e=$(( (e - s) / 100 )); }
# rsb LIMIT HOW [NAME=VALUE...]: as timed, in a bash of its own which
# timeout ends after LIMIT s (for the checks below, where the watch
# these checks were written against waited for ever), with standard
# error in OUT too, and TIMEOUT, STALL or anything else set by the
# NAME=VALUE arguments; PRE, if set so, is shell code run first.
rsb() {
  local lim=$1 how=$2
  shift 2
  uptime_cs s
  out=$(env TIMEOUT=30 STALL=5 THREADS=1 T="$t" "$@" HOW="$how" timeout -k 2 "$lim" \
    bash -c '. "$1"; eval "${PRE:-}"; run_soak musl "$2" ""' rsb \
    "$t/run_soak.sh" "$t/rc-soak-standin" 2>&1)
  r=$?
  uptime_cs e
  e=$(( (e - s) / 100 ))
}
timed exit3
check "a soak that ends in time passes its status on, and nothing else" sh -c "[ $r -eq 3 ] && [ -z '$out' ]"
timed killed
check "one killed from outside is reported killed by its signal, not as a hang" \
  sh -c "[ $r -eq 137 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: killed by signal 9'"
# The upper bounds of these three leave the watch time for gdb's stacks
# (over 10 s at a load of 19 on two cores, session 52) and stay below
# SOAK_TIMEOUT (30), whose verdict reads otherwise.
timed hang
check "one that never makes progress fails as a hang, at the stall" \
  sh -c "[ $r -eq 124 ] && [ $e -ge 5 ] && [ $e -lt 29 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: no progress for 5 s (SOAK_STALL; no threads ran by then): a hang'"
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
# running: LEFT is set to the processes, zombies aside, that have the
# stand-in's path among their arguments: the stand-in and its children,
# and a bash -c that runs run_soak on it (below) with its watcher
# subshell.  By the path, which holds this run's own directory: the name
# alone would also find another run's stand-in (tiers run side by side).
running() {
  local c state
  left=
  for c in /proc/[0-9]*/cmdline; do
    tr '\0' '\n' 2>/dev/null < "$c" | grep -qxF "$t/rc-soak-standin" || continue
    state=$(awk '{ sub(/.*\) /, ""); print $1 }' "${c%/cmdline}/stat" 2>/dev/null)
    [ "$state" = Z ] || [ -z "$state" ] || left="$left ${c%/cmdline}($state)"
  done
}
# left_behind: as running, once they are gone or 5 s went by (a zombie
# waiting for init counts as gone).
left_behind() {
  local i
  for i in 1 2 3 4 5 6 7 8 9 10; do
    running
    [ -z "$left" ] && break
    sleep 0.5
  done
}
# Killed, and gone within 5 s.
left_behind
check "... and killed, its child too${left:+ (left:$left)}" [ -z "$left" ]
timed stall
check "one whose progress stops fails as a hang, naming how far it got (3, unpadded)" \
  sh -c "[ $r -eq 124 ] && [ $e -lt 29 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: no progress for 5 s (SOAK_STALL; 3 threads ran by then): a hang'"
timed slow
check "one slower than the stall in all, but progressing, passes" \
  sh -c "[ $r -eq 0 ] && [ $e -ge 6 ] && [ -z '$out' ]"
timed endless 8
check "one still progressing at the bound fails as too slow, not as a hang" \
  sh -c "[ $r -eq 124 ] && [ $e -ge 8 ] && [ $e -lt 29 ] && echo '$out' | grep -q '^soak\[musl\]: FAIL: not finished after 8 s (SOAK_TIMEOUT), though still making progress (.*threads ran): a machine too slow for the bound'"

# The watch reads the progress file while the soak exits (opened ends
# as the watch opens it).  Under 15 s: the stall here, which a soak
# taken for hung would have waited for (5 s failed once at a load of 35).
rsb 30 opened STALL=15
ended_in_read() {
  [ $r -eq 5 ] && [ -z "$out" ] && [ $e -lt 15 ] ||
    { echo "note: r=$r e=$e out=$out"; return 1; }
}
check "one that ends while the watch reads its progress passes its status on, at once" ended_in_read
# A FIFO at the progress path: the watch waited in its open() for ever,
# and neither bound fired (until timeout's 40 s here).  Now it reads as
# no progress: a hang at the stall of 2 s, killed; and with a stall too
# long to fire, too slow at the bound of 3 s, killed: both under 25 s
# (the watch's look at the soak before the kill took over 10 s at a load
# of 35).  What is left is killed here, so that it counts against this
# check alone.
# kill_left: SIGKILL to the processes that running or left_behind found.
kill_left() {
  local p
  for p in $left; do p=${p#/proc/}; kill -KILL "${p%%(*}" 2>/dev/null; done
}
rsb 40 fifo STALL=2 TIMEOUT=5
left_behind
kill_left
r1=$r e1=$e out1=$out left1=$left
rsb 40 fifo STALL=60 TIMEOUT=3
left_behind
kill_left
fifo_bounded() {
  [ $r1 -eq 124 ] && [ $e1 -ge 2 ] && [ $e1 -lt 25 ] && [ -z "$left1" ] &&
    echo "$out1" | grep -q '^soak\[musl\]: FAIL: no progress for 2 s (SOAK_STALL; no threads ran by then): a hang; ' &&
    [ $r -eq 124 ] && [ $e -ge 3 ] && [ $e -lt 25 ] && [ -z "$left" ] &&
    echo "$out" | grep -q '^soak\[musl\]: FAIL: not finished after 3 s (SOAK_TIMEOUT), ' ||
    { echo "note: r1=$r1 e1=$e1 out1=$out1; r=$r e=$e out=$out"; return 1; }
}
check "a FIFO at the progress path reads as no progress: a hang at the stall, or too slow at the bound, and killed${left1:+ (left:$left1)}${left:+ (left:$left)}" fifo_bounded
# No soak may start: under 4 s, before the stall could say anything.
rsb 15 quiet STALL=1m TIMEOUT=8
r1=$r e1=$e out1=$out
rsb 15 quiet TIMEOUT=30m
not_seconds() {
  [ $r1 -ne 0 ] && [ $e1 -lt 4 ] && [ "$out1" = "soak: FAIL: SOAK_STALL=1m: not whole seconds above 0; give seconds alone, with no unit and no leading 0 (the default is 60, a minute)" ] &&
    [ $r -ne 0 ] && [ $e -lt 4 ] && [ "$out" = "soak: FAIL: SOAK_TIMEOUT=30m: not whole seconds above 0; give seconds alone, with no unit and no leading 0 (the default is 1800, 30 minutes)" ]
}
check "a SOAK_STALL or SOAK_TIMEOUT that is not whole seconds (1m, 30m) is refused before the soak, naming it" not_seconds
# 20 digits overflowed $((STALL * 100)): the stall fired never (or at
# once, with 17 digits).  Refused under 4 s, as above.
rsb 10 quiet STALL=99999999999999999999
too_long() {
  [ $r -ne 0 ] && [ $e -lt 4 ] && [ "$out" = "soak: FAIL: SOAK_STALL=99999999999999999999: more than 7 digits; give at most 9999999 seconds, about 115 days (the default is 60, a minute)" ]
}
check "a SOAK_STALL of 20 digits is refused before the soak, naming it and the limit" too_long
# A newline in the value split the message in two lines; it is shown
# escaped, as printf %q writes it.  Refused under 4 s, as above.
rsb 10 quiet STALL=$'1\n'
newline_escaped() {
  [ $r -ne 0 ] && [ $e -lt 4 ] && [ "$out" = "soak: FAIL: SOAK_STALL=\$'1\\n': not whole seconds above 0; give seconds alone, with no unit and no leading 0 (the default is 60, a minute)" ]
}
check "a SOAK_STALL with a newline is refused, named escaped on one line" newline_escaped
# date stepped an hour back, then forward, after its first reading.
step_date() {
  echo "date() { if [ -e \"\$T/stepped$1\" ]; then echo \$(( \$(command date +%s) $2 3600 )); else : > \"\$T/stepped$1\"; command date \"\$@\"; fi; }"
}
rsb 20 quiet PRE="$(step_date back -)"
r1=$r e1=$e out1=$out
rsb 20 slow STEPS=2 PRE="$(step_date forward +)"
clock_steps() {
  [ $r1 -eq 124 ] && [ $e1 -ge 5 ] && [ $e1 -lt 15 ] &&
    echo "$out1" | grep -q '^soak\[musl\]: FAIL: no progress for 5 s (SOAK_STALL; no threads ran by then): a hang' &&
    [ $r -eq 0 ] && [ -z "$out" ]
}
check "a step of the wall clock, back or forward, neither hides a hang nor makes one" clock_steps
# tests/soak/soak.c looks at SOAK_PROGRESS before it looks for the shim,
# so it needs none here.
progress_refused() {
  cc -std=gnu11 -I"$src/shim/include" "$src/tests/soak/soak.c" -o "$t/soak" -lpthread || return 1
  uptime_cs s
  out1=$(SOAK_PROGRESS="$t/none/progress" timeout 20 "$t/soak" l3 1 2>&1)
  r1=$?
  out=$(SOAK_PROGRESS=/dev/full timeout 20 "$t/soak" l3 1 2>&1)
  r=$?
  uptime_cs e
  [ $r1 -eq 1 ] && [ "$out1" = "soak[l3]: FAIL: cannot open SOAK_PROGRESS=$t/none/progress: No such file or directory" ] &&
    [ $r -eq 1 ] && [ "$out" = "soak[l3]: FAIL: cannot write SOAK_PROGRESS=/dev/full: No space left on device" ] &&
    [ $((e - s)) -lt 1000 ]
}
check "a soak that cannot open or write SOAK_PROGRESS fails at once, naming the file and the error" progress_refused
# SIGTERM to a bash running run_soak, once its stand-in (quiet: neither
# bound fires in the check's time) and watcher run: the bash dies of it,
# and neither is left (both ran on; the watcher would later have killed
# a process group ID long gone, or by then another's).
term_kills_all() {
  local b i rb started=
  env TIMEOUT=60 STALL=60 THREADS=1 HOW=quiet bash -c '. "$1"; run_soak musl "$2" ""' \
    rsb "$t/run_soak.sh" "$t/rc-soak-standin" >/dev/null 2>&1 &
  b=$!
  # The bash, its watcher and the stand-in: 3 (in 10 s at most).
  for i in $(seq 1 40); do
    running
    set -- $left
    [ $# -ge 3 ] && { started=1; break; }
    sleep 0.25
  done
  kill -TERM $b
  wait $b
  rb=$?
  left_behind
  [ -n "$started" ] && [ $rb -eq 143 ] && [ -z "$left" ]
}
check "SIGTERM to a shell running run_soak leaves neither the soak nor the watch running, and the shell dies of it" term_kills_all
timed orphan
left_behind
check "a soak that ends leaves none of its forked children running${left:+ (left:$left)}" sh -c "[ $r -eq 0 ] && [ -z '$left' ]"
# A child that calls setsid leaves the soak's process group, which alone
# was killed: it ran on under init.  It is found by SOAK_RUN_ID in its
# environment, through its exec too.
kill_left
timed escape
left_behind
check "nor one that left its process group (setsid) and exec'd${left:+ (left:$left)}" sh -c "[ $r -eq 0 ] && [ $e -lt 10 ] && [ -z '$left' ]"
kill_left
