#!/bin/sh
# bounded_run (shim/cmd/bounded.c), which enable and disable --system
# do their work in, driven by tests/src/bounded-drive.c at the steps
# the real command cannot be stopped at from outside: its output held
# by the caller, signals around its gate and change, a child that dies
# of a signal of its own, poll refused, no /dev or /proc (the 130th
# review; the 134th's words after a signal, read-only output, /proc/self/fd).
# Usage: bounded.sh DRIVE REFUSE SCRATCH PROP SERVE
#   DRIVE: bounded-drive; REFUSE: system-refuse; SERVE: fuse-serve;
#   SCRATCH: an empty
#   directory; PROP: the propagation for unshare -m (private, or
#   unchanged where / is no mount point), or -WHY where no mount
#   namespace can be made.
# Prints PASS: NAME or FAIL: NAME: WHY for each row.
#
# Copyright (C) 2026 The rseq-compat developers.
# This file is part of rseq-compat.
#
# rseq-compat is free software; you can redistribute it and/or
# modify it under the terms of the GNU Lesser General Public
# License as published by the Free Software Foundation; either
# version 2.1 of the License, or (at your option) any later version.
#
# rseq-compat is distributed in the hope that it will be useful,
# but WITHOUT ANY WARRANTY; without even the implied warranty of
# MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
# Lesser General Public License for more details.
#
# You should have received a copy of the GNU Lesser General Public
# License along with rseq-compat; if not, see
# <https://www.gnu.org/licenses/>.

drive=$1 refuse=$2 s=$3 prop=$4 serve=$5
m=$s/marker
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $(printf '%s' "$2" | tr '\n' ' ')"; }
ms() { echo $(($(date +%s%N) / 1000000)); }
# child_of PID: a child of process PID, from /proc (no procps in every
# root).
child_of() {
  for _c in /proc/[0-9]*/stat; do
    { read -r _l < "$_c"; } 2> /dev/null || continue
    _l=${_l##*) }
    _l=${_l#* }
    [ "${_l%% *}" = "$1" ] && { _c=${_c#/proc/}; echo "${_c%/stat}"; return; }
  done
}
# Waits up to 10 s for FILE to exist.
await() {
  _i=0
  while [ ! -e "$1" ] && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
}

# The caller's output, a pipe, full until its reader starts 5 s on:
# the work ends meanwhile, and the time the parent waits to write is
# not the work's (it gave up after 2 s, blaming a file system).
n="output held by a full pipe past the limit: the work's end is not taken for a timeout"
rm -f "$m"
{ "$drive" fill "$m" && RSEQ_COMPAT_SYSTEM_TIMEOUT=2 "$drive" change-talk "$m" 2>&1
  echo $? > "$s/st"; } | { sleep 5; cat > "$s/out"; }
if [ "$(cat "$s/st")" != 0 ] || ! tr -d x < "$s/out" | grep -q '^changed$' ||
   grep -q 'gave up' "$s/out"; then
  fail "$n" "status $(cat "$s/st"): $(tr -d x < "$s/out")"
elif [ ! -e "$m" ]; then
  fail "$n" "the change was not made"
else
  pass "$n"
fi

# A SIGTERM while the parent waits to write to a full pipe (its
# standard error) ends the command at once, by the signal, as it ended
# alone (it waited for the reader, 6 s).
n="a signal while output waits for a full pipe ends the command at once, by the signal"
{ "$drive" fill "$m" && { t0=$(ms); "$drive" talk "$m" 2>&1 > /dev/null &
  p=$!; sleep 1; kill -TERM $p; wait $p; echo "$? $(($(ms) - t0))" > "$s/st"; }
} 2> /dev/null | { sleep 6; cat > /dev/null; }
read -r st t < "$s/st"
if [ "$st" != 143 ] || [ "$t" -gt 4000 ]; then
  fail "$n" "status $st after $t ms, not 143 within 4 s"
else
  pass "$n"
fi

# A line printed before a hang reaches the caller whose output is a
# file (it was lost in the child's buffer); the child, killed, is said
# to be (it was said to be left waiting).
n="a line printed before a hang reaches a file; the child killed at the limit is said to be"
RSEQ_COMPAT_SYSTEM_TIMEOUT=1 "$drive" print-hang "$m" > "$s/out" 2> "$s/err"
st=$?
if [ $st != 1 ] || [ "$(cat "$s/out")" != "before the hang" ]; then
  fail "$n" "status $st, output '$(cat "$s/out")': $(cat "$s/err")"
elif ! grep -Eq '^bounded-drive: gave up after 1 s while hanging: a file system there does not answer .*; nothing was changed \(process [0-9]+, killed; RSEQ_COMPAT_SYSTEM_TIMEOUT=SECONDS waits longer\)$' "$s/err"; then
  fail "$n" "words: $(cat "$s/err")"
else
  pass "$n"
fi

# A SIGTERM before the gate, to a child that blocks it: the gate is
# shut and the command ends by the signal, nothing changed (the gate
# opened, the change was made, and the words said it was not).
n="a signal before the gate, blocked by the child: nothing changed, the command ended by it"
rm -f "$m" "$m.ready"
"$drive" blocksig "$m" > "$s/out" 2>&1 &
p=$!
await "$m.ready"
kill -TERM $p
# The shell's word for a job killed is not the command's.
{ wait $p; } 2> /dev/null
st=$?
if [ $st != 143 ]; then
  fail "$n" "status $st, not 143: $(cat "$s/out")"
elif [ -e "$m" ]; then
  fail "$n" "the change was made: $(cat "$s/out")"
else
  pass "$n"
fi

# A SIGTERM during the change, then a hang: the command ends by the
# signal within about a second of the change, saying it was made (it
# gave 1; then it waited for the whole limit, 10 s here: the 134th
# review's F2).
n="a signal during the change, then a hang: ended by the signal at once, the change said"
rm -f "$m"
RSEQ_COMPAT_SYSTEM_TIMEOUT=10 "$drive" blocksig-hang "$m" > "$s/out" 2>&1 &
p=$!
await "$m"
t0=$(ms)
kill -TERM $p
# The shell's word for a job killed is not the command's.
{ wait $p; } 2> /dev/null
st=$? t=$(($(ms) - t0))
if [ $st != 143 ] || [ $t -gt 5000 ]; then
  fail "$n" "status $st after $t ms, not 143 within 5 s: $(cat "$s/out")"
elif ! grep -q '^bounded-drive: ended by a signal while hanging after the change; the change was made (process [0-9]*, killed)$' "$s/out"; then
  fail "$n" "words: $(cat "$s/out")"
else
  pass "$n"
fi

# A SIGTERM, and the words after it to a terminal whose reader stopped
# with a little room left: the command ends by the signal, its words
# cut short (the write of the rest waited for the reader: the 134th
# review's F1).
# pty_term NAME BLOCK_ALRM: the drive's work held, its words to a
# terminal with little room (DRIVE_PTY), SIGALRM blocked where
# BLOCK_ALRM is 1; a SIGTERM a second in must end it by the signal
# within 8 s.
pty_term() {
  # Set at all, DRIVE_BLOCK_ALRM blocks it.
  _alrm=
  [ "$2" = 1 ] && _alrm=DRIVE_BLOCK_ALRM=1
  env $_alrm DRIVE_PTY=1 RSEQ_COMPAT_SYSTEM_TIMEOUT=30 "$drive" hold "$m" > "$s/out" &
  _p=$!
  sleep 1
  _t0=$(ms)
  kill -TERM $_p
  _i=0
  while kill -0 $_p 2> /dev/null && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
  kill -KILL $_p 2> /dev/null
  { wait $_p; } 2> /dev/null
  _st=$? _t=$(($(ms) - _t0))
  if [ $_st != 143 ] || [ $_t -gt 8000 ]; then
    fail "$1" "status $_st after $_t ms, not 143 within 8 s"
  else
    pass "$1"
  fi
}
pty_term "a signal, the words to a terminal with little room: the command ends by it" 0

# A SIGTERM, and the words after it to a pipe no one reads: the command
# ends by the signal, not by SIGPIPE (141: the 134th review's F3).
n="a signal, the words to a pipe no one reads: the command ends by the signal"
{ "$drive" hold "$m" 2>&1 > /dev/null & p=$!; sleep 1; kill -TERM $p
  { wait $p; } 2> /dev/null; echo $? > "$s/st"; } | true
if [ "$(cat "$s/st")" != 143 ]; then
  fail "$n" "status $(cat "$s/st"), not 143"
else
  pass "$n"
fi

# Standard output open to read only, on standard error's file: its
# lines are not written to standard error; the command says it cannot
# write them, as it did alone (the 134th review's F5).
n="standard output read-only on standard error's file: its lines not sent to standard error"
: > "$s/f"
"$drive" talk "$m" 1< "$s/f" 2>> "$s/f"
st=$?
if grep -q '^out line$' "$s/f" ||
   ! grep -q '^bounded-drive: cannot write to standard output: ' "$s/f"; then
  fail "$n" "status $st: $(cat "$s/f")"
else
  pass "$n"
fi

# A child that closes its pipe to the parent without a status and
# stays: a SIGTERM ends the command within about a second (the wait
# for the child's end went on to the limit, 10 s here).
n="a child gone silent without a status, then a signal: the command ends by it at once"
RSEQ_COMPAT_SYSTEM_TIMEOUT=10 "$drive" closectl "$m" > "$s/out" 2>&1 &
p=$!
sleep 1
t0=$(ms)
kill -TERM $p
{ wait $p; } 2> /dev/null
st=$? t=$(($(ms) - t0))
if [ $st != 143 ] || [ $t -gt 5000 ]; then
  fail "$n" "status $st after $t ms, not 143 within 5 s: $(cat "$s/out")"
else
  pass "$n"
fi

# A child that dies of a signal no one passed it: said, with the
# change, and not raised in the command (it died of SIGSEGV too,
# silently).
n="a child killed by a signal of its own: said, with the change made"
rm -f "$m"
"$drive" segv "$m" > "$s/out" 2>&1
st=$?
if [ $st != 1 ]; then
  fail "$n" "status $st, not 1: $(cat "$s/out")"
elif ! grep -q '^bounded-drive: the process that did the work ([0-9]*) was killed by signal 11 (.*); the change was made$' "$s/out"; then
  fail "$n" "words: $(cat "$s/out")"
else
  pass "$n"
fi

# poll answered EPERM by a filter: ppoll is used (the command gave up
# at once, its work's output lost).
n="poll refused with EPERM: the work runs as without the filter"
"$refuse" pollperm low "$drive" talk "$m" > "$s/out" 2>&1
st=$?
if [ $st != 0 ] || ! grep -q '^out line$' "$s/out" ||
   ! grep -q '^err line$' "$s/out"; then
  fail "$n" "status $st: $(cat "$s/out")"
else
  pass "$n"
fi

# No /dev (a chroot, a container): the child holds none of the
# caller's input (it kept the caller's standard input, here a file).
n="no /dev/null: the child holds no input of the caller's"
case $prop in -*) fail "$n" "needs a mount namespace: ${prop#-}";; *)
  : > "$s/in"
  unshare -m --propagation "$prop" sh -c 'mount -t tmpfs none /dev && exec "$@"' \
    sh "$drive" stdin "$m" < "$s/in" > "$s/out" 2>&1
  st=$?
  want=$(stat -c '%d:%i' "$s/in")
  if [ $st != 0 ] || ! grep -q '^stdin [0-9]*:[0-9]*$' "$s/out"; then
    fail "$n" "status $st: $(cat "$s/out")"
  elif grep -q "^stdin $want\$" "$s/out"; then
    fail "$n" "the child's standard input is the caller's file"
  else
    pass "$n"
  fi;;
esac

# close_range refused and no /proc: a descriptor above both limits,
# lowered after it was opened, is not held by the child (it closed
# only those below the hard limit).  The same with a directory that is
# not procfs's at /proc/self/fd (an empty one, as a chroot's image may
# hold: none was closed, the 134th review's F4).
for fake in '' 'mkdir -p /proc/self/fd &&'; do
what="no /proc"
[ -n "$fake" ] && what="an empty directory at /proc/self/fd"
n="close_range refused, $what: a descriptor above the hard limit not held by the child"
case $prop in -*) fail "$n" "needs a mount namespace: ${prop#-}";; *)
  DRIVE_FD=2000 unshare -m --propagation "$prop" sh -c "mount -t tmpfs none /proc && $fake"' exec "$@"' \
    sh "$refuse" close_range low "$drive" high-fd "$m" > "$s/out" 2>&1
  st=$?
  if [ $st != 0 ] || ! grep -q '^fd 2000 closed$' "$s/out"; then
    fail "$n" "status $st: $(cat "$s/out")"
  else
    pass "$n"
  fi;;
esac
done

# A SIGTERM, and the words after it to a terminal with little room,
# SIGALRM blocked by the caller: the command ends by the signal (a
# timer's SIGALRM that was to end the words never came: the 135th
# review's F3).
pty_term "a signal, the words to a terminal with little room, SIGALRM blocked: the command ends by it" 1

# A child that blocks the signals and goes silent without a status,
# then a SIGTERM: the child is killed, said so, and the command ends by
# the signal, also where its words go to a pipe no one reads (it ended
# by SIGPIPE, and said "ended without a status": the 135th review's F2
# and note).
n="a child gone silent with the signals blocked, then a signal: killed, said so, the command ends by the signal"
RSEQ_COMPAT_SYSTEM_TIMEOUT=30 "$drive" closectl-hold "$m" > /dev/null 2> "$s/err" &
p=$!
sleep 1
kill -TERM $p
{ wait $p; } 2> /dev/null
st=$?
{ "$drive" closectl-hold "$m" 2>&1 > /dev/null & p=$!; sleep 1; kill -TERM $p
  { wait $p; } 2> /dev/null; echo $? > "$s/st"; } | true
if [ $st != 143 ] || [ "$(cat "$s/st")" != 143 ]; then
  fail "$n" "status $st, and $(cat "$s/st") to a pipe no one reads, not 143: $(cat "$s/err")"
elif ! grep -q '^bounded-drive: the process that did the work ([0-9]*) went silent without a status and was killed; nothing was changed$' "$s/err"; then
  fail "$n" "words: $(cat "$s/err")"
else
  pass "$n"
fi

# fuse_stopped NAME WORK TO: WORK's standard output (TO out) or error
# (TO err) a file on FUSE whose server fails each write (ENOSYS), which
# then stops reading requests; a SIGTERM must end the command by it
# within 5 s, as it ended alone.
fuse_stopped() {
  n=$1
  case $prop in -*) fail "$n" "needs a mount namespace: ${prop#-}"; return;; esac
  mkdir -p "$s/mnt"
  unshare -m --propagation "$prop" sh -c '
    serve=$1 drive=$2 s=$3 m=$4 work=$5 to=$6
    "$serve" "$s/mnt" 1000 noflush usr1 > "$s/serve.out" 2>&1 &
    f=$!
    i=0
    while ! grep -q mounted "$s/serve.out" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    if [ "$to" = err ]; then
      RSEQ_COMPAT_SYSTEM_TIMEOUT=30 "$drive" "$work" "$m" > /dev/null 2>> "$s/mnt/libc.x" &
    else
      RSEQ_COMPAT_SYSTEM_TIMEOUT=30 "$drive" "$work" "$m" >> "$s/mnt/libc.x" 2> /dev/null &
    fi
    p=$!
    sleep 1
    kill -USR1 $f
    sleep 0.3
    t0=$(date +%s%N)
    kill -TERM $p
    i=0
    while kill -0 $p 2> /dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    t=$((($(date +%s%N) - t0) / 1000000))
    kill -KILL $f
    { wait $p; } 2> /dev/null
    echo "$? $t" > "$s/st"
    umount -l "$s/mnt"' sh "$serve" "$drive" "$s" "$m" "$2" "$3" 2> /dev/null
  read -r st t < "$s/st"
  if [ "$st" != 143 ] || [ "$t" -gt 5000 ]; then
    fail "$n" "status $st after $t ms, not 143 within 5 s"
  else
    pass "$n"
  fi
}

# Standard error there, the words after the signal written to it (the
# write waited for the server, which only a signal that kills ends: the
# 135th review's F1).
fuse_stopped "a signal, standard error on a FUSE file system that stopped answering: the command ends by it" hold err

# Standard output there, a line relayed to it before the server
# stopped (the output kept for stdio after the failed write was flushed
# at the end, waiting for the server: the 136th review's B1).
fuse_stopped "a signal, standard output on FUSE after a failed write, the server stopped: the command ends by it" print-hang out

# SIGPIPE blocked by the caller, the words to a pipe no one reads: the
# command ends as it did alone, with 1 (it raised SIGPIPE: 141, the
# 136th review's A1).
n="SIGPIPE blocked by the caller, the words to a pipe no one reads: status 1, as alone"
{ RSEQ_COMPAT_SYSTEM_TIMEOUT=1 DRIVE_BLOCK_PIPE=1 "$drive" print-hang "$m" 2>&1 > /dev/null
  echo $? > "$s/st"; } | true
if [ "$(cat "$s/st")" != 1 ]; then
  fail "$n" "status $(cat "$s/st"), not 1"
else
  pass "$n"
fi

# The caller ignores SIGTERM, or blocks it; the command, writing to a
# full pipe, is ended by SIGHUP: its child ends too (it ran on: the
# 136th review's C1, the 137th's F2).
for how in ignored blocked; do
n="SIGTERM $how, the command ended by SIGHUP in a write: its child ends too"
rm -f "$s/pid"
( [ $how = ignored ] && trap '' TERM
  { "$drive" fill "$m" && { DRIVE_PIDFILE="$s/pid" RSEQ_COMPAT_SYSTEM_TIMEOUT=30 $(case $how in blocked) echo env DRIVE_BLOCK_TERM=1;; esac) "$drive" print-hang "$m" 2> /dev/null &
      p=$!; sleep 1; kill -HUP $p; { wait $p; } 2> /dev/null; echo $? > "$s/st"; }; } | { sleep 3; cat > /dev/null; } )
c=$(cat "$s/pid" 2> /dev/null)
i=0
while [ -n "$c" ] && [ "$(awk '{ sub(/.*\) /, ""); print $1 }' /proc/$c/stat 2> /dev/null)" != Z ] &&
      kill -0 "$c" 2> /dev/null && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
if [ -z "$c" ]; then
  fail "$n" "the child did not start (status $(cat "$s/st"))"
elif kill -0 "$c" 2> /dev/null &&
     [ "$(awk '{ sub(/.*\) /, ""); print $1 }' /proc/$c/stat 2> /dev/null)" != Z ]; then
  kill -KILL "$c"
  fail "$n" "status $(cat "$s/st"); the child ($c) still runs 3 s after"
elif [ "$(cat "$s/st")" != 129 ]; then
  fail "$n" "status $(cat "$s/st"), not 129"
else
  pass "$n"
fi
done

# As a PID namespace's init (a container's command), a SIGTERM, which
# the kernel does not deliver to init with its default action: the
# work goes on to its end (it was passed on and ended the work, and the
# command returned 1: the 136th review's D1).
n="as a PID namespace's init, a SIGTERM changes nothing: the work ends as it would"
unshare -p -f sh -c 'exec "$@"' sh "$drive" slow "$m" > "$s/out" 2>&1 &
u=$!
sleep 1
i=$(child_of $u)
[ -n "$i" ] && kill -TERM "$i"
wait $u
st=$?
if [ -z "$i" ] || [ $st != 0 ] || ! grep -q '^done$' "$s/out"; then
  fail "$n" "status $st (init ${i:-not found}): $(cat "$s/out")"
else
  pass "$n"
fi

# As init, a signal to init and its child, as a signal to their
# process group (^C or ^Z in docker run -it, kill -1 or kill -USR1 -1
# in the container) gives: the work goes on to its end (the child died of
# SIGTERM, and the command returned 1 without a word: the 137th
# review's F1; of SIGUSR1, or stopped until the limit, the 138th's F1).
# A fault signal sent by hand (kill -ABRT -1, kill -SEGV) likewise: the
# kernel drops it for init, and the child drops one another process
# sent (it died of it, and mid-edit left the temporary file: the 140th
# review's 1).
# The work's 4 s are not cut short either (a caught SIGSEGV, dropped,
# still ended its sleep: the 141st review's 1).
for sig in TERM USR1 TSTP ABRT SEGV; do
n="as a PID namespace's init, a SIG$sig to it and its child, as to their group, changes nothing: the work ends as it would"
t0=$(ms)
unshare -p -f sh -c 'exec "$@"' sh "$drive" slow "$m" > "$s/out" 2>&1 &
u=$!
sleep 1
i=$(child_of $u)
c=$( [ -n "$i" ] && child_of "$i")
k=1
[ -n "$c" ] && kill -$sig "$i" "$c" && k=0
wait $u
st=$?
t=$(( $(ms) - t0 ))
if [ -z "$c" ] || [ $k != 0 ] || [ $st != 0 ] || ! grep -q '^done$' "$s/out" || [ $t -lt 3900 ]; then
  fail "$n" "status $st after $t ms, kill's $k (init ${i:-not found}, child ${c:-not found}): $(cat "$s/out")"
else
  pass "$n"
fi
done

# As init, the work's own fault and abort still end it, and are said:
# the kernel forces a real fault back to its default action, and abort
# restores SIGABRT's, where the child ignores them.
for w in fault:11 abort:6; do
n="as a PID namespace's init, the work's own ${w%:*} ends it, said"
rm -f "$m"
unshare -p -f sh -c 'exec "$@"' sh "$drive" "${w%:*}" "$m" > "$s/out" 2>&1
st=$?
if [ $st != 1 ] || ! grep -q "^bounded-drive: the process that did the work ([0-9]*) was killed by signal ${w#*:} (.*); the change was made\$" "$s/out"; then
  fail "$n" "status $st: $(cat "$s/out")"
else
  pass "$n"
fi
done

# A child stopped by SIGSTOP, in a PID namespace of its own whose /proc
# is still the machine's (unshare --pid without --mount-proc; a
# container sharing the host's /proc): its number there is another
# process, and the words blamed a file system (the 140th review's 2).
n="a child stopped, its PID namespace without a /proc of its own: said to be stopped"
rm -f "$m"
RSEQ_COMPAT_SYSTEM_TIMEOUT=2 unshare -p -f sh -c 'exec "$@"' sh "$drive" slow "$m" > "$s/out" 2>&1 &
u=$!
# The child looked for until it is there (a loaded machine: the 142nd
# review), a second at most, well within the 2 s.
i= c= j=0
while [ -z "$c" ] && [ $j -lt 20 ]; do
  sleep 0.05
  i=$(child_of $u)
  c=$( [ -n "$i" ] && child_of "$i")
  j=$((j + 1))
done
[ -n "$c" ] && kill -STOP "$c"
wait $u
st=$?
if [ -z "$c" ] || [ $st = 0 ] || ! grep -q 'as it was stopped (SIGSTOP, or a debugger)' "$s/out"; then
  fail "$n" "status $st (init ${i:-not found}, child ${c:-not found}): $(cat "$s/out")"
else
  pass "$n"
fi
