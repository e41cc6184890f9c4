#!/bin/sh
# info-hostile.sh SCENARIO INFO SERVE MANY DEPUTY FLIP-DYN FLIP-STATIC PAUSE
# MAIN-EXIT MOUNT-MANY FUSE-PAGE CLONEVM-EXEC GUARD-FIRST VFORK-THREADS
# TLS-MANY SECCOMP:
# info -p against processes built to hold or fool it (twenty-third
# and twenty-fifth reviews), each scenario as root in a mount and PID
# namespace of its own, so that whatever it mounts and starts goes with
# it.  INFO is the rseq-compat command; SERVE fuse-serve, MANY
# info-many, DEPUTY info-deputy, FLIP-* info-flip built dynamic and
# static, PAUSE info-pause.so, MAIN-EXIT info-main-exit, MOUNT-MANY
# mount-many, FUSE-PAGE info-fuse-page, CLONEVM-EXEC info-clonevm-exec,
# GUARD-FIRST info-guard-first, VFORK-THREADS info-vfork-threads,
# TLS-MANY info-tls-many, SECCOMP seccomp-run.  Unprivileged processes run as uid 54340 (or
# 65534).  Prints "PASS: WHAT" or "FAIL: WHAT (why)" lines, and NOTE
# lines.
#
# Scenarios:
#   fuse-exe          a program run from FUSE, whose server then
#                     answers nothing: info -p opened /proc/PID/exe and
#                     waited beyond SIGKILL;
#   fuse-lazy         a FUSE file mapped, its mount then unmounted
#                     lazily (in no mountinfo any more), the server
#                     silent: info -p took the file for "not FUSE" and
#                     waited in GETATTR; twice, with the fuse control
#                     file system mounted and, to be mounted by info -p
#                     itself, not;
#   fuse-over         a file mapped by a user's process, a FUSE mount
#                     then made over its directory, the server silent:
#                     the user's own info -p and root's (main thread
#                     gone: the name is looked up) waited in LOOKUP, and
#                     root's left its child behind;
#   fuse-big          fuse-over's root part, with the FUSE mount and the
#                     process in a mount namespace whose mountinfo is
#                     over 64 MB (5000 mounts of a long name): info -p
#                     took the unreadable list for one without FUSE;
#   fuse-late         a FUSE mount made, and a file of it mapped in place
#                     of one info -p had seen, after info -p had read the
#                     list of FUSE connections (held by info-pause.so
#                     after it read auxv), the server silent: the new
#                     device, not on the list, was taken for "not FUSE";
#   decoy             a user's process maps a file, removes it, and puts
#                     a C library of another kind where maps names it:
#                     the user's own info -p reported the other;
#   exec-flip         a process that runs two programs in turn: info -p
#                     reported one's C library with the other's name;
#   exec-same-layout  the same, with two copies of one static program
#                     under setarch -R: every address is the same after
#                     the exec, only the program's file differs;
#   main-exit         a process whose main thread exits during the
#                     read: info -p said it ran another program (the
#                     memory fields turn 0), or "No such process";
#   maps-64mb         maps over 64 MB (long names): info -p read the
#                     first 64 MB as the whole and reported "unknown";
#   fuse-area         a user's process whose registered rseq area's page
#                     is replaced by a page of a FUSE file not yet read
#                     in, the server silent (the process stopped, so
#                     that only a reader of its memory can fault the page
#                     in): root's and the user's info -p waited in the
#                     page fault, unkillable; info -p must end, answer
#                     and ask the server nothing (twenty-fifth review,
#                     as are those below);
#   fuse-ldso         the same with ld.so's page that holds
#                     __rseq_offset, --stop and --no-stop;
#   fuse-overlay      a user's process maps a file of an overlayfs
#                     (xino=on: its files show the overlay's device)
#                     whose lower layer is a FUSE mount, the server
#                     silent: the user's info -p waited in FUSE_OPEN
#                     (the review made both mounts in a user namespace;
#                     root makes them here, as none can be made from a
#                     chroot); root's and the user's must end, answer,
#                     and ask the server nothing; and root's with the
#                     layer named as the twenty-sixth review named it
#                     to pass the check (relative, through "..", a ':'
#                     or ',' in the mount point's name);
#   fuse-mmap-lock    a user's process holds its own mmap_lock behind a
#                     silent FUSE server (a read of its memory waits,
#                     an mmap queues): the user's info -p waited in
#                     state D; with --timeout=5 it must end with the
#                     "was not read within" message;
#   exec-clonevm      a process that runs itself again while info -p is
#                     held (info-pause.so) after it opened
#                     /proc/PID/mem, its old memory kept alive by a
#                     CLONE_VM child: info -p printed a report of the
#                     two images mixed; it must fail with "exited or ran
#                     another program";
#   guard-first       a process whose lowest anonymous mapping starts
#                     with a guard page (MADV_GUARD_INSTALL; before
#                     Linux 6.13 a page made unreadable by a
#                     userfaultfd of user mode only): info -p said it
#                     ran another program;
#   mountinfo-many    a user's process in a mount namespace whose
#                     mountinfo is about 42 MB, with 512 mapped files
#                     and an rseq area of its own: the user's info -p
#                     read mountinfo for each file, minutes; judged by
#                     the bytes it read (rchar of /proc/PID/io): from
#                     once to under four times the mountinfo, against
#                     512 times unfixed, whatever the load, and its C
#                     library named (122nd review: a run that never
#                     read mountinfo passed); by time it failed
#                     twice under five tiers on two cores (session 54:
#                     30 s of wall clock, then 42 s of CPU, as a read
#                     that took over a second was repeated for every
#                     file);
#   vfork-stuck       a process of 600 threads in state D (vfork
#                     parents): info -p --stop spent over 100 ms on
#                     each, a minute; judged by its time (30 s);
#   fuse-env          (twenty-sixth review) GLIBC_TUNABLES in a FUSE page
#                     of the environment: info -p, which does not read
#                     it, said "unavailable" and "(unset)";
#   fuse-env-secure   (forty-seventh review) the same in secure mode
#                     (set-user-ID) under a filter refusing rseq: the
#                     variable is ignored there, yet the mode was
#                     "unknown";
#   stop-during-read  info -p --timeout=2 stopped twice for 3 s (the
#                     whole group, as Ctrl-Z) during the read: it said
#                     the process was not read within 2 s;
#   stop-child        (twenty-seventh review) the reading child alone
#                     stopped and continued while it prints: info -p
#                     stopped itself too, for ever;
#   overlay-relative  (twenty-seventh review) a process run from an
#                     overlay whose layers are named relatively, as
#                     Docker's are: its C library was reported unknown;
#   no-fork           a user at its process limit (RLIMIT_NPROC): the
#                     reading child could not start, and info -p
#                     failed where it used to answer (now it says how
#                     to read without a child or a thread, --timeout=0
#                     --no-stop, which does);
#   fuse-no-fork      (twenty-eighth review) the same, of a process that
#                     holds its mmap_lock behind a silent FUSE server:
#                     info -p read in its own process and waited for
#                     ever, whatever --timeout said.
#   compat-32         (thirty-second review; x86-64 only) a 32-bit
#                     process: info -p said on every try that it was
#                     starting another program (exec); its auxv read
#                     with 64-bit words gave AT_SECURE and AT_RSEQ_*
#                     wrong (forty-seventh review), plain and
#                     set-user-ID;
#   fuse-compat-32    (thirty-third review) the same, its program on
#                     FUSE (whose header info -p does not read).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
# RSEQ_MOUNT_PROP: unshare's --propagation, "private", or "unchanged"
# in a chroot whose enclosing namespace keeps its mounts to itself
# (rseq_mount_ns_prop in tests/lib/rseq.exp: "/" is no mount point
# there, and making it private fails).
if [ "${1:-}" != --inner ]; then
  exec unshare -m -pf --mount-proc --propagation "${RSEQ_MOUNT_PROP:-private}" sh "$0" --inner "$@"
fi
shift
scenario=$1 info=$2 serve=$3 many=$4 deputy=$5 flipdyn=$6 flipsta=$7 pause=$8 mainexit=$9
mountmany=${10} fusepage=${11} clonevm=${12} guard=${13} vforks=${14} tlsmany=${15}
seccomp=${16} nolibc=${17} execstall=${18}
user="setpriv --reuid=54340 --regid=54340 --clear-groups"
# The shim built beside the command.
shim=$(dirname "$info")/librseq-compat.so.1
d=$(mktemp -d /tmp/rseq-hostile.XXXXXX) || exit 1
chmod 755 "$d"
servers=
# The servers go first: a removal that reaches an armed FUSE mount
# would wait for ever.
trap 'kill -KILL $servers 2>/dev/null
      grep -o " $d[^ ]*" /proc/self/mountinfo | sort -r | while read -r m; do umount -l "$m"; done
      rm -rf "$d" 2>/dev/null' EXIT

# suid_dir: a directory in $d where set-user-ID bits count: a tmpfs of
# the namespace's own, since /tmp may be mounted nosuid (systemd's
# tmp.mount: forty-eighth review).  The trap unmounts it.
suid_dir() {
  [ -d "$d/suid" ] || { mkdir "$d/suid" && mount -t tmpfs -o mode=755 tmpfs "$d/suid"; }
}
# wait_for FILE WORD: until FILE has WORD, 30 s at most (a loaded
# machine).
# wait_for_file FILE: until FILE exists, 30 s at most.
wait_for_file() {
  i=0
  while [ ! -e "$1" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
}
# wait_exec PID NAME: until process PID runs NAME (/proc/PID/comm), 30 s
# at most: the shell's child of "sleep 60 &" is the shell until it has
# run sleep, and an info -p that reads it meanwhile rightly says it ran
# another program (make check-matrix, sid, under load).
wait_exec() {
  i=0
  while [ "$(cat "/proc/$1/comm" 2>/dev/null)" != "$2" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
}
wait_for() {
  i=0
  while ! grep -q "$2" "$1" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
  grep -q "$2" "$1" 2>/dev/null
}
# serve DIR [OPTIONS]: a FUSE server at DIR (1000 opens answered, allow
# other, armed by $d/arm); SERVER is its PID.
serve() {
  mkdir -p "$1"
  m=$1; shift
  # A file of each server's own: a later one's is not read for it.
  so=$d/serve-$(basename "$m").out
  "$serve" "$m" 1000 allow_other arm="$d/arm" "$@" > "$so" 2>&1 &
  server=$!
  servers="$servers $server"
  wait_for "$so" mounted || { echo "FAIL: $scenario (fuse-serve did not mount: $(cat "$so"))"; exit 0; }
}
# run_info LIMIT CMD...: CMD (info -p, as whoever) in the background,
# for LIMIT seconds at most; STATUS is its exit status or "hung",
# SECONDS_TAKEN its time, OUT its output file.  A command waiting on
# a FUSE server ends only when the server does, SIGKILL or not: the
# server goes first.
run_info() {
  limit=$1; shift
  out=$d/info.out
  t0=$(date +%s)
  "$@" > "$out" 2>&1 &
  ip=$!
  i=0
  while kill -0 $ip 2>/dev/null && [ $i -lt $((limit * 10)) ]; do sleep 0.1; i=$((i + 1)); done
  if kill -0 $ip 2>/dev/null; then
    status=hung
    echo "--- still running after $limit s: $(cat /proc/$ip/wchan 2>/dev/null)" >> "$d/log"
    # Not "kill 0" where no server is: that is the process group.
    [ -z "${server:-}" ] || kill -KILL "$server" 2>/dev/null
    kill -KILL $ip 2>/dev/null
    wait $ip
  else
    wait $ip; status=$?
  fi
  seconds_taken=$(( $(date +%s) - t0 ))
  { echo "--- $*: status $status, $seconds_taken s"; cat "$out"; } >> "$d/log"
}
# root_verdict SERVER-OUT WHAT: the verdict on root's run_info, whose
# child must neither have sent the armed server a request (it logs each
# it leaves unanswered) nor be left behind; not its time, which a
# loaded machine stretches.
root_verdict() {
  # From /proc, not ps: the chroots of make check-oldlibc have none.
  left=
  for c in /proc/[0-9]*/comm; do
    n=
    { read -r n < "$c"; } 2>/dev/null
    [ "$n" != rseq-compat ] || left="$left ${c%/comm}"
  done
  asked=$(grep -c 'left unanswered' "$1")
  why=
  case $status in
    hung) why="info -p did not end within $limit s" ;;
    0) if [ "$asked" -gt 0 ]; then why="$asked requests reached the server: $(grep 'left unanswered' "$1" | head -n 2 | tr '\n' ' ')"
       elif [ -n "$left" ]; then why="a child of it is left: $left"
       fi ;;
    *) why="info -p failed: $(head -n 1 "$d/info.out")" ;;
  esac
  verdict "$2" "$why"
}
# flips PID MIXED: 150 reads of PID, which runs two programs in turn
# (killed after); MIXED NAME (the report's process name) says whether
# the report in $d/info.out mixed the two.  Sets RUNS, REPORTED, MIXED.
flips() {
  sleep 0.2
  mixed=0 runs=0 reported=0
  while [ $runs -lt 150 ]; do
    runs=$((runs + 1))
    "$info" info -p "$1" --no-stop > "$d/info.out" 2>&1 || continue
    reported=$((reported + 1))
    if "$2" "$(sed -n '1s/^process [0-9]* (\(.*\))$/\1/p' "$d/info.out")"; then
      mixed=$((mixed + 1)); { echo "--- mixed:"; cat "$d/info.out"; } >> "$d/log"
    fi
  done
  kill "$1"
}
# flip_verdict NAME WHAT: the verdict on the last flips.
flip_verdict() {
  why=
  [ $mixed -eq 0 ] || why="$mixed of $reported reports mixed the two programs"
  [ $reported -gt 0 ] || why="no run reported anything"
  verdict "$2" "$why"
  echo "NOTE: $1: $reported of $runs runs reported, $mixed mixed (a program every $ms ms)"
}
# clib: the C library row of the last report.
clib() { sed -n 's/^  C library  *//p' "$d/info.out" | head -n 1; }
# fuse_page MODE WHO [ARGS]: info-fuse-page MODE, as uid 54340, over a
# server of its own, then WHO's (root or user) info -p PID ARGS, whose
# verdict is root_verdict's: it ends, answers, sends the armed server no
# request (the process is stopped and its CLONE_VM child never touches
# the page: only a reader of its memory can fault it in) and leaves no
# child.
fuse_page() {
  mode=$1 who=$2; shift 2
  tag=$mode-$who$(printf '%s' "$*" | tr -d ' ')
  what="$who's info -p${*:+ $*} of a ${page_prog:+secure-mode }process whose $mode page is a page of an armed FUSE file ends, answers, asks the server nothing"
  mkdir -p "$d/u"; chmod 777 "$d/u"
  serve "$d/mnt-$tag" arm="$d/u/arm-$tag"
  # A C library without __rseq_offset (glibc before 2.35, musl): the
  # shim's, preloaded, is what info -p reads instead.
  pre=
  if { [ "$mode" = ldso ] || [ "$mode" = env ]; } &&
     ! "$fusepage" - - has-rseq-offset > /dev/null 2>&1; then
    pre=LD_PRELOAD=$shim
  fi
  # PAGE_WRAP, PAGE_PROG: a command the program runs under, and another
  # copy of it (fuse-env-secure).
  env GLIBC_TUNABLES=glibc.pthread.rseq=0 $pre ${page_wrap:-} $user "${page_prog:-$fusepage}" "$d/mnt-$tag/libc.x" "$d/u/arm-$tag" "$mode" > "$d/page-$tag.out" 2>&1 &
  if ! wait_for "$d/page-$tag.out" ready; then
    verdict "$what" "info-fuse-page $mode did not start: $(head -c 300 "$d/page-$tag.out")"
    kill -KILL "$server" $! 2>/dev/null
    return
  fi
  pid=$(sed -n 's/^pid=//p' "$d/page-$tag.out")
  od -An -tu8 -w16 -v "/proc/$pid/auxv" > "$d/auxv-$tag.out" 2>&1
  if [ "$who" = root ]; then
    run_info 40 "$info" info -p "$pid" "$@"
  else
    run_info 40 $user "$info" info -p "$pid" "$@"
  fi
  { echo "--- the server (pid $pid stopped):"; grep 'left unanswered' "$so"; } >> "$d/log"
  root_verdict "$so" "$what"
  kill -KILL "$server" "$pid" $(sed -n 's/^child=//p' "$d/page-$tag.out") 2>/dev/null
}
# lock_target: PID is a process of uid 54340's that holds its own
# mmap_lock behind a FUSE server (its own) that answers nothing.
lock_target() {
  mkdir -p "$d/u"; chmod 777 "$d/u"
  serve "$d/mnt" arm="$d/u/arm"
  $user "$fusepage" "$d/mnt/libc.x" "$d/u/arm" lock > "$d/lock.out" 2>&1 &
  wait_for "$d/lock.out" ready || { echo "FAIL: $scenario (info-fuse-page lock did not start: $(head -c 300 "$d/lock.out"))"; exit 0; }
  pid=$(sed -n 's/^pid=//p' "$d/lock.out")
}
# timeout_verdict PID WHAT [ANSWER]: the verdict on a run_info of
# info -p PID --timeout=5: it ended within 20 s (a loaded machine),
# with the message that it did not read PID within 5 s, or, with
# ANSWER, with a report.
timeout_verdict() {
  why=
  case $status in
    hung) why="info -p --timeout=5 did not end within 40 s" ;;
    0) [ -n "${3:-}" ] || why="info -p answered: $(head -n 1 "$d/info.out")" ;;
    1) grep -q "^rseq-compat: process $1 was not read within 5 s" "$d/info.out" \
         || why="info -p failed otherwise: $(head -n 1 "$d/info.out")" ;;
    *) why="info -p failed: status $status: $(head -n 1 "$d/info.out")" ;;
  esac
  if [ -z "$why" ] && [ "$seconds_taken" -gt 20 ]; then
    why="info -p --timeout=5 took $seconds_taken s"
  fi
  verdict "$2" "$why"
}
# timed_verdict WHAT: the verdict on a run_info of 60 s that must answer
# within 30 s (twice what the unbounded work took at least, and ten
# times what the bounded takes: a loaded machine).
timed_verdict() {
  why=
  case $status in
    hung) why="info -p did not end within 60 s" ;;
    0) [ "$seconds_taken" -le 30 ] || why="info -p took $seconds_taken s" ;;
    *) why="info -p failed: $(head -n 1 "$d/info.out")" ;;
  esac
  verdict "$1" "$why"
}
# says_both_ways TEXT WHAT: info -p of $pid, --no-stop and --stop, each
# within 20 s, must print TEXT, and the process must still be there.
says_both_ways() {
  for how in --no-stop --stop; do
    run_info 40 "$info" info -p "$pid" $how
    why=
    case $status in
      hung) why="info -p did not end within 40 s" ;;
      *) grep -q "$1" "$d/info.out" || why="status $status: $(head -n 1 "$d/info.out")" ;;
    esac
    [ -z "$why" ] && [ "$seconds_taken" -gt 20 ] && why="info -p took $seconds_taken s"
    [ -d /proc/$pid ] || why="the process is gone ($why)"
    verdict "$2 [$how]" "$why"
  done
}
verdict() {
  if [ -z "$2" ]; then echo "PASS: $1"; else echo "FAIL: $1 ($2)"; sed 's/^/  | /' "$d/log" | tail -n 30; fi
  : > "$d/log"
}
: > "$d/log"

case $scenario in
  fuse-exe)
    serve "$d/mnt" prog="$many"
    sleep 100 | "$d/mnt/prog" "$d/mnt/libc.so.6" 1 > "$d/many.out" 2>&1 &
    wait_for "$d/many.out" ready
    pid=$(sed -n 's/^pid=//p' "$d/many.out")
    touch "$d/arm"
    run_info 40 "$info" info -p "$pid" --no-stop
    why=
    case $status in
      hung) why="info -p did not end within 40 s" ;;
      0) case $(clib) in glibc\ [0-9]*) ;; *) why="C library '$(clib)', not the glibc on disk" ;; esac ;;
      *) why="info -p failed: $(head -n 1 "$d/info.out")" ;;
    esac
    verdict "info -p of a program run from FUSE, its server silent, ends" "$why" ;;

  fuse-exec-stall)
    # A process held inside execve, its new memory and program in place
    # and its auxiliary vector not yet: the kernel waits for a read of
    # the program's data page, which the server never answers.  It is
    # alive: info -p says it was starting a program, not that it exited
    # (56th review).
    off=$(readelf -lW "$execstall" | awk '$1 == "LOAD" && $7 ~ /W/ { print $2; exit }')
    serve "$d/mnt" prog="$execstall" stall=$((off))
    "$d/mnt/prog" > /dev/null 2>&1 &
    pid=$!
    i=0
    while [ "$(readlink /proc/$pid/exe 2>/dev/null)" != "$d/mnt/prog" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    sleep 0.5
    says_both_ways "was starting another program (exec) as it was read" \
      "info -p of a process held inside execve says it was starting a program"
    kill -KILL $pid 2>/dev/null ;;

  fuse-nolibc)
    # A dynamic program that needs no C library, run from FUSE: whether
    # it needs one is not asked of the silent server; it is taken to,
    # and the read says it is starting (54th review: info -p read the
    # program and waited out its whole bound).
    serve "$d/mnt" prog="$nolibc"
    "$d/mnt/prog" > /dev/null 2>&1 &
    pid=$!
    # Waiting once it runs the program, not while the shell's exec still
    # reads it from the server (a loaded oldlibc run: the server fell
    # silent inside that exec, and the shell was read).
    i=0
    while { [ "$(readlink /proc/$pid/exe 2>/dev/null)" != "$d/mnt/prog" ] \
            || [ "$(cat /proc/$pid/wchan 2>/dev/null)" = 0 ]; } && [ $i -lt 300 ]; do
      sleep 0.1; i=$((i + 1))
    done
    touch "$d/arm"
    if [ "$(readlink /proc/$pid/exe 2>/dev/null)" != "$d/mnt/prog" ]; then
      verdict "info -p of a program that needs no C library, run from FUSE, its server silent, ends at once" \
        "the program did not start within 30 s"
    else
      says_both_ways "is starting a program" \
        "info -p of a program that needs no C library, run from FUSE, its server silent, ends at once"
    fi
    kill -KILL $pid 2>/dev/null ;;

  fuse-lazy)
    for ctl in mounted by-info; do
      fc=/sys/fs/fuse/connections
      # Without /sys (a chroot), none to mount fusectl on.
      [ -d "$fc" ] || mount -t sysfs sysfs /sys 2>/dev/null
      umount "$fc" 2>/dev/null
      [ $ctl = mounted ] && mount -t fusectl fusectl "$fc"
      rm -f "$d/arm"
      serve "$d/mnt-$ctl"
      sleep 100 | "$many" "$d/mnt-$ctl/libc.so.6" 1 > "$d/many-$ctl.out" 2>&1 &
      wait_for "$d/many-$ctl.out" ready
      pid=$(sed -n 's/^pid=//p' "$d/many-$ctl.out")
      umount -l "$d/mnt-$ctl"
      if grep -q " $d/mnt-$ctl " /proc/self/mountinfo; then
        verdict "info -p of a file of a lazily unmounted FUSE mount [fusectl $ctl]" "the mount is still listed"
        continue
      fi
      touch "$d/arm"
      run_info 40 "$info" info -p "$pid" --no-stop
      why=
      case $status in
        hung) why="info -p did not end within 40 s" ;;
        0) case $(clib) in *9.99*) why="it read the file on FUSE" ;; glibc\ [0-9]*) ;; *) why="C library '$(clib)'" ;; esac ;;
        *) why="info -p failed: $(head -n 1 "$d/info.out")" ;;
      esac
      verdict "info -p of a file of a lazily unmounted FUSE mount, its server silent, ends [fusectl $ctl]" "$why"
      kill -KILL "$server" 2>/dev/null
    done ;;

  fuse-over)
    # TOP, which a FUSE mount covers once the processes map their files
    # under it: a page that says it is glibc 9.98 (info-many's), and
    # info-deputy's directory (its name, DIR/libc.so.6 (deleted), a
    # link there; its main thread gone, root's child looks it up).
    mkdir -p "$d/top/sub"
    printf 'GNU C Library (rseq-compat test) stable release version 9.98.\n' > "$d/top/libc.so.6"
    chmod 755 "$d/top"; chmod 644 "$d/top/libc.so.6"; chmod 777 "$d/top/sub"
    sleep 100 | setpriv --reuid=65534 --regid=65534 --clear-groups "$many" "$d/top/libc.so.6" 1 > "$d/many.out" 2>&1 &
    wait_for "$d/many.out" ready
    pid=$(sed -n 's/^pid=//p' "$d/many.out")
    sleep 100 | setpriv --reuid=65534 --regid=65534 --clear-groups "$deputy" "$d/top/sub" "$d/top/libc.so.6" exit-main > "$d/deputy.out" 2>&1 &
    wait_for "$d/deputy.out" ready
    dpid=$(sed -n 's/^pid=//p' "$d/deputy.out")
    serve "$d/top"
    touch "$d/arm"
    # Root's first: the user's, if it hangs, takes the server down.
    run_info 40 "$info" info -p "$dpid" --no-stop
    root_verdict "$d/serve-top.out" "root's info -p, whose child would look a name up through a FUSE mount, asks the server nothing and leaves no child"
    run_info 40 setpriv --reuid=65534 --regid=65534 --clear-groups "$info" info -p "$pid" --no-stop
    why=
    case $status in
      hung) why="info -p did not end within 40 s" ;;
      0) ;;
      *) why="info -p failed: $(head -n 1 "$d/info.out")" ;;
    esac
    verdict "a user's info -p of its process whose file a FUSE mount then covers ends" "$why" ;;

  fuse-big)
    mkdir -p "$d/top/sub" "$d/deep"
    chmod 755 "$d/top"; chmod 777 "$d/top/sub"
    printf 'GNU C Library (rseq-compat test) stable release version 9.98.\n' > "$d/top/libc.so.6"
    # 14 directories of 250 blanks (each \040 in mountinfo): 5000
    # mounts there make it about 70 MB.
    deep=$d/deep
    b=$(printf '%250s' '')
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do deep=$deep/$b; done
    mkdir -p "$deep"
    : > "$d/inner.out"
    # The inner namespace: the mounts, the server, then the process,
    # which stays (its main thread gone) until the namespace is killed.
    # Inside the namespace above, whose mounts are private already.
    unshare -m --propagation unchanged sh -c '
      d=$1 deep=$2 serve=$3 deputy=$4 mountmany=$5
      "$mountmany" "$deep" 5000 || exit 1
      echo "mounts $(wc -c < /proc/self/mountinfo)"
      sleep 100 | setpriv --reuid=65534 --regid=65534 --clear-groups "$deputy" "$d/top/sub" "$d/top/libc.so.6" exit-main > "$d/deputy-big.out" 2>&1 &
      i=0
      while ! grep -q ready "$d/deputy-big.out" && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
      "$serve" "$d/top" 1000 allow_other arm="$d/arm" > "$d/serve-big.out" 2>&1 &
      i=0
      while ! grep -q mounted "$d/serve-big.out" && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
      echo "served"
      wait
    ' sh "$d" "$deep" "$serve" "$deputy" "$mountmany" > "$d/inner.out" 2>&1 &
    inner=$!
    servers="$servers $inner"
    # 5000 mounts, then the server: 3 minutes at most.
    i=0
    while ! grep -q served "$d/inner.out" && [ $i -lt 1800 ]; do sleep 0.1; i=$((i + 1)); done
    grep -q served "$d/inner.out" || { echo "FAIL: $scenario (the inner namespace did not start: $(head -c 300 "$d/inner.out"))"; exit 0; }
    dpid=$(sed -n 's/^pid=//p' "$d/deputy-big.out")
    size=$(sed -n 's/^mounts //p' "$d/inner.out")
    touch "$d/arm"
    # The kernel makes a 70 MB mountinfo slowly: on a loaded machine
    # the read alone outlasted info's default 30 s (make check-vm's
    # package build, four tiers at once on 2 cores).  A request to the
    # silent server would still hold info past any limit.
    run_info 150 "$info" info -p "$dpid" --no-stop --timeout=120
    if [ "${size:-0}" -le $((64 << 20)) ]; then
      verdict "root's info -p, whose target's mountinfo is over 64 MB, asks its FUSE server nothing" "the inner mountinfo is ${size:-?} bytes, not over 64 MB"
    else
      root_verdict "$d/serve-big.out" "root's info -p, whose target's mountinfo is over 64 MB, asks its FUSE server nothing and leaves no child"
    fi
    # The server, in the inner namespace, goes with its processes.
    pkill_ns() { for p in /proc/[0-9]*; do [ "$(readlink $p/ns/mnt)" = "$1" ] && kill -KILL ${p#/proc/}; done 2>/dev/null; }
    pkill_ns "$(readlink /proc/$dpid/task/*/ns/mnt 2>/dev/null | head -n 1)" ;;

  fuse-late)
    mkdir -p "$d/plain" "$d/hook"
    printf 'GNU C Library (rseq-compat test) stable release version 9.98.\n' > "$d/plain/libc.so.6"
    mkfifo "$d/to-many"
    "$many" "$d/plain/libc.so.6" 1 < "$d/to-many" > "$d/many.out" 2>&1 &
    exec 8> "$d/to-many"
    wait_for "$d/many.out" ready
    pid=$(sed -n 's/^pid=//p' "$d/many.out")
    RSEQ_TEST_HOOK=$d/hook RSEQ_TEST_HOOK_AFTER=auxv LD_PRELOAD=$pause \
      "$info" info -p "$pid" --no-stop > "$d/late.out" 2>&1 &
    ip=$!
    i=0
    while [ ! -e "$d/hook/paused" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    [ -e "$d/hook/paused" ] || { echo "FAIL: $scenario (info -p was not held after auxv)"; exit 0; }
    serve "$d/fmnt"
    echo "remap $d/fmnt/libc.so.6" >&8
    wait_for "$d/many.out" remapped || { echo "FAIL: $scenario (the process did not map the FUSE file)"; exit 0; }
    touch "$d/arm" "$d/hook/go"
    i=0
    while kill -0 $ip 2>/dev/null && [ $i -lt 400 ]; do sleep 0.1; i=$((i + 1)); done
    why=
    if kill -0 $ip 2>/dev/null; then
      why="info -p did not end within 40 s: $(cat /proc/$ip/wchan 2>/dev/null)"
      kill -KILL $servers $ip 2>/dev/null
    fi
    wait $ip
    cp "$d/late.out" "$d/info.out"
    case $(clib) in *9.99*) why="it read the file on FUSE" ;; esac
    cat "$d/late.out" >> "$d/log"
    verdict "info -p of a file of a FUSE mount made after it read the list of connections, its server silent, ends" "$why" ;;

  decoy)
    mkdir -p "$d/own"; chmod 777 "$d/own"
    # Another C library's marks, the user's own.
    printf 'musl libc (x86_64)\0001.2.99\000' > "$d/musl"
    chown 65534:65534 "$d/musl"
    sleep 100 | setpriv --reuid=65534 --regid=65534 --clear-groups "$deputy" "$d/own" "$d/musl" > "$d/deputy.out" 2>&1 &
    wait_for "$d/deputy.out" ready
    pid=$(sed -n 's/^pid=//p' "$d/deputy.out")
    run_info 40 setpriv --reuid=65534 --regid=65534 --clear-groups "$info" info -p "$pid" --no-stop
    why=
    case $status in
      hung) why="info -p did not end within 40 s" ;;
      0) case $(clib) in *musl*|*1.2.99*) why="it reported the file the name now leads to: $(clib)" ;; esac ;;
      *) why="info -p failed: $(head -n 1 "$d/info.out")" ;;
    esac
    verdict "a user's info -p reads only the file mapped, not what its name leads to now" "$why" ;;

  exec-flip)
    # A report is mixed where its name and C library are of the two.
    mixed_libs() {
      case $1:$(clib) in
        info-flip-d*:*statically*|info-flip-s*:glibc\ [0-9]*) return 0 ;;
      esac
      return 1
    }
    # Every 3 ms; where a loaded machine reads none of 150 in time
    # (0 of 150 beside three test tiers), every 30 ms, then 300: a
    # verdict on no report at all would prove nothing.
    for ms in 3 30 300; do
      "$flipdyn" "$flipsta" $ms &
      flips $! mixed_libs
      [ $reported -eq 0 ] || break
    done
    flip_verdict exec-flip "info -p of a process that runs another program during the read reports one program" ;;

  exec-same-layout)
    # Two names of one length, one program: only the name and file
    # differ, which each report must show consistently: the thread
    # rows end with each thread's name.
    mixed_names() {
      grep -E '^ +[0-9]+ ' "$d/info.out" | grep -v 'thread pointer' | grep -v -q -E " $1\$"
    }
    cp "$flipsta" "$d/info-flip-sa"; cp "$flipsta" "$d/info-flip-sb"
    for ms in 3 30 300; do
      setarch "$(uname -m)" -R "$d/info-flip-sa" "$d/info-flip-sb" $ms &
      flips $! mixed_names
      [ $reported -eq 0 ] || break
    done
    flip_verdict exec-same-layout "info -p of a process that runs another program of the same layout (setarch -R) reports one program" ;;

  main-exit)
    bad=0 runs=0
    comm=$(basename "$mainexit" | cut -c1-15)
    for us in 2000 6000 10000 14000 18000 22000 26000 30000; do
      for k in 1 2 3; do
        runs=$((runs + 1))
        "$mainexit" $us &
        pid=$!
        # Once it runs the program: read during the shell's exec, it has
        # run another program indeed.  Its name, which stays once the
        # main thread has exited (the exe link does not), read without
        # a fork (a loop of readlink took seconds on a loaded machine,
        # and the process was gone).
        i=0
        while { read -r c < /proc/$pid/comm; } 2>/dev/null && [ "$c" != "$comm" ] && [ $i -lt 10000 ]; do i=$((i + 1)); done
        "$info" info -p "$pid" --no-stop > "$d/info.out" 2>&1
        st=$?
        # Its name is the program's from the exec on, before its loader
        # has mapped the C library or set up rseq: a read then says so,
        # rightly.
        if [ $st -ne 0 ] && ! grep -Eq "is starting a program: its dynamic loader (has not loaded the C library yet|is still loading its libraries)" "$d/info.out"; then
          bad=$((bad + 1)); { echo "--- $us us: status $st"; cat "$d/info.out"; } >> "$d/log"
        fi
        kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
      done
    done
    why=
    [ $bad -eq 0 ] || why="$bad of $runs reads of a live process failed"
    verdict "info -p of a process whose main thread exits during the read reports it" "$why" ;;

  maps-64mb)
    # A name of about 3,700 characters, mapped 20,000 times: 76 MB.
    p=$d
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do
      p=$p/$(printf '%0240d' $i)
    done
    mkdir -p "$p" && echo x > "$p/f" || { echo "FAIL: $scenario (cannot make the long name)"; exit 0; }
    sleep 100 | "$many" "$p/f" 20000 > "$d/many.out" 2>&1 &
    wait_for "$d/many.out" ready
    pid=$(sed -n 's/^pid=//p' "$d/many.out")
    size=$(wc -c < /proc/$pid/maps)
    run_info 60 "$info" info -p "$pid" --no-stop
    why=
    if [ "$size" -le $((64 << 20)) ]; then why="the maps are $size bytes, not over 64 MB"
    elif [ "$status" = 0 ] || [ "$status" = hung ]; then why="status $status: $(clib)"
    elif ! grep -q "over 64 MB" "$d/info.out"; then why="no word of the size: $(head -n 1 "$d/info.out")"
    fi
    verdict "info -p says maps over 64 MB are not read, and reports nothing from a part" "$why" ;;

  fuse-area)
    fuse_page area root
    fuse_page area user ;;

  fuse-ldso)
    fuse_page ldso root --stop
    fuse_page ldso root --no-stop ;;

  fuse-overlay)
    # Root mounts both, in this scenario's namespace: a user namespace
    # cannot be made from a chroot (make check-matrix's, -oldlibc's).
    # The layer named plainly, and as the twenty-sixth review named it
    # to pass the check: relative, through "..", with a ':' or a ','
    # in the FUSE mount point's name (which the mounter escapes).
    mkdir -p "$d/u" "$d/empty"; chmod 777 "$d/u"
    # A relative name cannot be placed; Docker's overlays name their
    # layers so (twenty-seventh review): it is left to the time limit.
    # bsl: a layer whose name ends in a backslash before the FUSE one.
    mkdir -p "$d/a\\"
    for how in plain relative dotdot colon comma bsl; do
      m=$d/lower-$how low=$m
      case $how in
        relative) low=lower-$how ;;
        dotdot) low=$d/empty/../lower-$how ;;
        colon) m=$d/fu:se; low="$d/fu\\:se" ;;
        comma) m=$d/fu,se; low="$d/fu\\,se" ;;
        bsl) low="$d/a\\\\:$m" ;;
      esac
      serve "$m" arm="$d/u/arm-$how"
      mkdir -p "$d/ovl-$how"
      if ! (cd "$d" && mount -t overlay overlay -o "lowerdir=$low:$d/empty,xino=on" "$d/ovl-$how") 2> "$d/ovl.err"; then
        verdict "info -p of a process mapping a file of an overlayfs over FUSE ($how)" \
          "no overlay over the FUSE mount: $(head -n 1 "$d/ovl.err")"
        continue
      fi
      out=$d/ovl-$how.out
      $user "$fusepage" "$d/ovl-$how/libc.so.9" "$d/u/arm-$how" map > "$out" 2>&1 &
      tp=$!
      if ! wait_for "$out" ready; then
        echo "FAIL: $scenario ($how: info-fuse-page map did not start: $(head -c 300 "$out" | tr '\n' ' ') state $(cut -d' ' -f3 /proc/$tp/stat 2>/dev/null) wchan $(cat /proc/$tp/wchan 2>/dev/null))"
        exit 0
      fi
      pid=$(sed -n 's/^pid=//p' "$out")
      for who in root user; do
        [ $how = plain ] || [ $who = root ] || continue
        # No --timeout: the time limit (30 s) would end it too, and
        # fail this scenario, where only seeing the overlay lets it
        # answer.
        if [ $how = relative ]; then
          run_info 40 "$info" info -p "$pid" --timeout=5
          timeout_verdict "$pid" "root's info -p --timeout=5 of a process mapping a file of an overlayfs (xino=on) over a silent FUSE server, the layer named relative, ends within its time" answer
        elif [ $who = root ]; then
          run_info 40 "$info" info -p "$pid"
        else
          run_info 40 $user "$info" info -p "$pid"
        fi
        [ $how = relative ] ||
          root_verdict "$so" "$who's info -p of a process mapping a file of an overlayfs (xino=on) over a silent FUSE server, the layer named $how, ends, answers, asks the server nothing"
      done
      # Its server first: what waits on it (a reader left behind) ends
      # with it, and the next variant starts clean.
      kill -KILL "$server" "$pid" 2>/dev/null
    done ;;

  overlay-relative)
    # Docker's and containerd's overlays, with many layers, name them
    # relatively (from the storage directory): a process run from one,
    # with its C library in a layer (no FUSE anywhere), must be read
    # (twenty-seventh review: its C library was reported unknown).
    libc=$(awk '$6 ~ /\/libc[.-][^\/]*$/ { print $6; exit }' /proc/$$/maps)
    ldso=$(awk '$6 ~ /\/ld-[^\/]*$/ { print $6; exit }' /proc/$$/maps)
    what="info -p of a process run from an overlayfs whose layers are named relatively (Docker's many layers), its C library in a layer, names the C library"
    if [ -z "$libc" ] || [ -z "$ldso" ]; then
      verdict "$what" "no C library or loader in this shell's maps"; exit 0
    fi
    mkdir -p "$d/store/l/A" "$d/store/l/B" "$d/store/up" "$d/store/work" "$d/merged"
    cp "$libc" "$ldso" "$(command -v sleep)" "$d/store/l/A/" || { verdict "$what" "cannot copy the C library"; exit 0; }
    if ! (cd "$d/store" && mount -t overlay overlay -o lowerdir=l/A:l/B,upperdir=up,workdir=work "$d/merged") 2> "$d/ovl.err"; then
      verdict "$what" "no overlay: $(head -n 1 "$d/ovl.err")"; exit 0
    fi
    "$d/merged/$(basename "$ldso")" --library-path "$d/merged" "$d/merged/sleep" 60 &
    pid=$!
    sleep 0.5
    run_info 40 "$info" info -p "$pid"
    why=
    case $status in
      0) case $(clib) in glibc\ [0-9]*) ;; *) why="C library '$(clib)'" ;; esac ;;
      *) why="status $status: $(head -n 1 "$d/info.out")" ;;
    esac
    verdict "$what" "$why"
    kill -KILL "$pid" 2>/dev/null ;;

  fuse-env)
    fuse_page env root --no-stop
    why=
    grep -q '^  mode  *unknown' "$d/info.out" || why="mode: $(sed -n 's/^  mode  *//p' "$d/info.out")"
    grep -q '^  GLIBC_TUNABLES  *not read' "$d/info.out" || why="$why; GLIBC_TUNABLES: $(sed -n 's/^  GLIBC_TUNABLES  *//p' "$d/info.out")"
    verdict "info -p of a process whose GLIBC_TUNABLES lies in a FUSE page reports the mode and the tunable unknown" "${why#; }" ;;

  fuse-env-secure)
    # The same in secure mode: a set-user-ID root copy started by
    # another user under a filter refusing rseq (installed without
    # no_new_privs, as root may).  Secure mode ignores GLIBC_TUNABLES,
    # so the environment's page need not be read: registration was
    # refused, not turned off (forty-seventh review: "unknown").  A C
    # library without __rseq_offset, whose shim the loader does not
    # preload in secure mode, has mode "none".
    suid_dir && cp "$fusepage" "$d/suid/fuse-page-suid" &&
      chmod 4755 "$d/suid/fuse-page-suid"
    want=none
    "$fusepage" - - has-rseq-offset > /dev/null 2>&1 && want=unavailable
    page_wrap="$seccomp --keep-privs ENOSYS" page_prog=$d/suid/fuse-page-suid
    fuse_page env root --no-stop
    why=
    awk '$1 == 23 { s = $2 } END { exit s == 1 ? 0 : 1 }' "$d/auxv-env-root--no-stop.out" ||
      why="the set-user-ID copy runs without AT_SECURE (a file system mounted nosuid?): $(head -c 200 "$d/auxv-env-root--no-stop.out")"
    grep -q "^  mode  *$want" "$d/info.out" || why="${why:+$why; }mode: $(sed -n 's/^  mode  *//p' "$d/info.out")"
    grep -q '^  GLIBC_TUNABLES  *not read.* (ignored: the process runs in secure mode' "$d/info.out" ||
      why="${why:+$why; }GLIBC_TUNABLES: $(sed -n 's/^  GLIBC_TUNABLES  *//p' "$d/info.out")"
    verdict "info -p of a secure-mode process whose GLIBC_TUNABLES lies in a FUSE page, a filter refusing rseq, reports mode $want" "$why" ;;

  stop-during-read)
    # Held after it read auxv, info -p and its child are stopped twice
    # as Ctrl-Z would (the whole group, 3 s each, longer than the time
    # limit together), then continued: the time stopped is not the
    # process's fault (twenty-sixth review: counted whole; twenty-
    # seventh: a second of each stop still counted).
    mkdir -p "$d/hook"
    sleep 60 &
    tgt=$!
    wait_exec "$tgt" sleep
    RSEQ_TEST_HOOK_AFTER=auxv RSEQ_TEST_HOOK=$d/hook LD_PRELOAD=$pause \
      setsid "$info" info -p "$tgt" --timeout=2 > "$d/info.out" 2>&1 &
    ip=$!
    wait_for_file "$d/hook/paused"
    kill -STOP -$ip
    sleep 3
    kill -CONT -$ip; kill -STOP -$ip
    sleep 3
    touch "$d/hook/go"
    kill -CONT -$ip
    wait $ip
    st=$?
    why=
    [ $st -eq 0 ] || why="status $st: $(head -n 1 "$d/info.out")"
    verdict "info -p --timeout=2, stopped twice for 3 s (Ctrl-Z) during the read and continued, reports the process" "$why"
    kill "$tgt" 2>/dev/null ;;

  stop-child)
    # The reading child alone stopped (SIGSTOP) while it prints into a
    # full pipe, then continued alone, as its stopper would: info -p
    # must end once the output is read (twenty-seventh review: it
    # stopped itself too, and nothing continued it).
    sleep 60 &
    tgt=$!
    wait_exec "$tgt" sleep
    { head -c 65536 /dev/zero; "$info" info -p "$tgt" --no-stop --timeout=10 2> "$d/err"
      echo "status $?" > "$d/st"; } | { sleep 4; cat > /dev/null; } &
    pipeline=$!
    child=
    i=0
    while [ -z "$child" ] && [ $i -lt 100 ]; do
      for c in /proc/[0-9]*; do
        n=; { read -r n < "$c/comm"; } 2>/dev/null
        [ "$n" = rseq-compat ] || continue
        pp=$(sed -n 's/^PPid:[[:space:]]*//p' "$c/status" 2>/dev/null)
        { read -r pn < "/proc/$pp/comm"; } 2>/dev/null || pn=
        # Blocked on its output (pipe_write, anon_pipe_write).
        case $pn:$(cat "$c/wchan" 2>/dev/null) in
          rseq-compat:*pipe_write) child=${c#/proc/} parent=$pp ;;
        esac
      done
      [ -n "$child" ] || sleep 0.1
      i=$((i + 1))
    done
    if [ -z "$child" ]; then
      verdict "info -p whose reading child alone is stopped and continued while it prints ends" "no reading child found blocked on its output"
      kill "$tgt" 2>/dev/null; exit 0
    fi
    kill -STOP "$child"; sleep 0.5; kill -CONT "$child"
    i=0
    while [ ! -s "$d/st" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    why=
    if [ ! -s "$d/st" ]; then
      why="info -p did not end within 20 s (its state: $(awk '{ print $3 }' /proc/$parent/stat 2>/dev/null))"
      kill -CONT "$parent" 2>/dev/null
    elif ! grep -qx "status 0" "$d/st"; then
      why="$(cat "$d/st"): $(head -n 1 "$d/err")"
    fi
    verdict "info -p whose reading child alone is stopped and continued while it prints ends" "$why"
    wait $pipeline 2>/dev/null
    kill "$tgt" 2>/dev/null ;;

  no-fork)
    # A user at its process limit: info -p cannot start its reading
    # child.  It says so, and how to read without one (reading in its
    # own process regardless broke --timeout: fuse-no-fork); with
    # --timeout=0 it does.
    $user sh -c 'sleep 60 & echo $!; wait' > "$d/sleep.out" &
    wait_for "$d/sleep.out" .
    tgt=$(head -n 1 "$d/sleep.out")
    wait_exec "$tgt" sleep
    $user prlimit --nproc=1 "$info" info -p "$tgt" --no-stop > "$d/info.out" 2>&1
    st=$?
    why=
    if [ $st -ne 1 ]; then why="status $st, not 1: $(head -n 1 "$d/info.out")"
    elif ! grep -q "^rseq-compat: process $tgt was not read: rseq-compat could not start the process that reads it" "$d/info.out"; then why="no word of the missing child: $(head -n 1 "$d/info.out")"
    elif ! grep -q -- "--timeout=0 --no-stop reads it in this process" "$d/info.out"; then why="no word of --timeout=0 --no-stop: $(head -n 1 "$d/info.out")"
    fi
    verdict "a user's info -p at its process limit (no fork) says the process was not read, and how to read it without a child" "$why"
    $user prlimit --nproc=1 "$info" info -p "$tgt" --no-stop --timeout=0 > "$d/info.out" 2>&1
    st=$?
    why=
    if [ $st -ne 0 ]; then why="status $st: $(head -n 1 "$d/info.out")"
    elif ! grep -q "^process $tgt (sleep)$" "$d/info.out"; then why="no report of process $tgt: $(head -n 1 "$d/info.out")"
    fi
    verdict "a user's info -p --timeout=0 at its process limit reads the process in its own" "$why"
    # --stop's tracer is a thread, which the same limit refuses: the
    # error says --no-stop reads without one (thirtieth review: it
    # said only "Resource temporarily unavailable").
    $user prlimit --nproc=1 "$info" info -p "$tgt" --stop --timeout=0 > "$d/info.out" 2>&1
    st=$?
    why=
    if [ $st -ne 1 ]; then why="status $st, not 1: $(head -n 1 "$d/info.out")"
    elif ! grep -q "cannot start a thread: .*RLIMIT_NPROC.*--no-stop reads without one" "$d/info.out"; then why="no word of the limit and --no-stop: $(head -n 1 "$d/info.out")"
    fi
    verdict "a user's info -p --stop --timeout=0 at its process limit says --no-stop reads without a thread" "$why"
    kill "$tgt" 2>/dev/null ;;

  fuse-no-fork)
    # Twenty-eighth review: the limit that stops the fork may be the
    # process's to fill (a pids cgroup that root's info shares with it,
    # as docker exec gives); info -p then read in its own process, and
    # one that holds its mmap_lock behind a silent FUSE server held it
    # for ever, --timeout or not.  A user at its process limit stands
    # for the full cgroup.
    lock_target
    run_info 40 $user prlimit --nproc=1 "$info" info -p "$pid" --timeout=5
    why=
    case $status in
      hung) why="info -p --timeout=5 did not end within 40 s" ;;
      1) grep -q "^rseq-compat: process $pid was not read: rseq-compat could not start the process" "$d/info.out" \
           || why="info -p failed otherwise: $(head -n 1 "$d/info.out")" ;;
      *) why="info -p: status $status: $(head -n 1 "$d/info.out")" ;;
    esac
    [ -n "$why" ] || [ "$seconds_taken" -le 20 ] || why="info -p --timeout=5 took $seconds_taken s"
    verdict "a user's info -p --timeout=5 at its process limit, of its process that holds its mmap_lock behind a silent FUSE server, ends and says so" "$why" ;;

  fuse-mmap-lock)
    lock_target
    run_info 40 $user "$info" info -p "$pid" --timeout=5
    timeout_verdict "$pid" "a user's info -p --timeout=5 of its process that holds its mmap_lock behind a silent FUSE server ends and says so" ;;

  exec-clonevm)
    what="info -p of a process that runs itself again during the read, its old memory kept by a CLONE_VM child, says it ran another program"
    mkdir -p "$d/hook"
    # The same sizes of arguments and environment in both images, and
    # no randomization: the same addresses.
    env -i GLIBC_TUNABLES=glibc.pthread.rseq=0 setarch "$(uname -m)" -R "$clonevm" "$d/trigger" a > "$d/cv.out" 2>&1 &
    wait_for "$d/cv.out" ready || { echo "FAIL: $scenario (info-clonevm-exec did not start: $(head -c 300 "$d/cv.out"))"; exit 0; }
    pid=$(sed -n 's/^pid=//p' "$d/cv.out")
    # Held after it opened /proc/PID/mem (by whichever process reads).
    RSEQ_TEST_HOOK=$d/hook RSEQ_TEST_HOOK_AFTER=mem LD_PRELOAD=$pause \
      "$info" info -p "$pid" > "$d/info.out" 2>&1 &
    ip=$!
    i=0
    while [ ! -e "$d/hook/paused" ] && kill -0 $ip 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    why=
    [ -e "$d/hook/paused" ] || why="info -p was not held after it opened /proc/PID/mem: $(head -n 1 "$d/info.out")"
    touch "$d/trigger"
    wait_for "$d/cv.out" "second image" || why="${why:-the process did not run itself again}"
    touch "$d/hook/go"
    i=0
    while kill -0 $ip 2>/dev/null && [ $i -lt 400 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 $ip 2>/dev/null; then
      kill -KILL $ip; st=hung
    else
      wait $ip; st=$?
    fi
    { echo "--- info -p $pid: status $st"; cat "$d/info.out"; } >> "$d/log"
    if [ -z "$why" ]; then
      case $st in
        1) grep -q "ran another program" "$d/info.out" || why="info -p failed otherwise: $(head -n 1 "$d/info.out")" ;;
        0) why="info -p reported the process (its two images mixed)" ;;
        *) why="info -p: status $st: $(head -n 1 "$d/info.out")" ;;
      esac
    fi
    verdict "$what" "$why" ;;

  guard-first)
    "$guard" > "$d/guard.out" 2>&1 &
    wait_for "$d/guard.out" ready || { echo "FAIL: $scenario (info-guard-first did not start: $(head -c 300 "$d/guard.out"))"; exit 0; }
    pid=$(sed -n 's/^pid=//p' "$d/guard.out")
    how=$(sed -n 's/^guard=//p' "$d/guard.out")
    [ "$how" = madvise ] || echo "NOTE: guard-first: no MADV_GUARD_INSTALL here (Linux 6.13): the first page is made unreadable with a userfaultfd of user mode only"
    for m in --stop --no-stop; do
      run_info 40 "$info" info -p "$pid" $m
      why=
      case $status in
        hung) why="info -p did not end within 40 s" ;;
        0) ;;
        *) why="info -p failed: $(head -n 1 "$d/info.out")" ;;
      esac
      verdict "info -p $m of a process whose lowest anonymous mapping starts with a guard page ($how) reads it" "$why"
    done ;;

  mountinfo-many)
    what="a user's info -p of its process with 512 mapped files, in a mount namespace whose mountinfo is about 42 MB, reads that mountinfo once, under four times its size in all, and names its C library"
    mkdir -p "$d/u/files" "$d/deep"; chmod 777 "$d/u" "$d/u/files"
    # 14 directories of 250 blanks (each \040 in mountinfo): 3000
    # mounts there make it about 42 MB (under the 64 MB info -p reads).
    deep=$d/deep
    b=$(printf '%250s' '')
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14; do deep=$deep/$b; done
    mkdir -p "$deep"
    # The inner namespace: the mounts, then the process.
    # Inside the namespace above, whose mounts are private already.
    unshare -m --propagation unchanged sh -c '
      deep=$1 mountmany=$2 tlsmany=$3 files=$4; shift 4
      "$mountmany" "$deep" 3000 || exit 1
      echo "mounts $(wc -c < /proc/self/mountinfo)"
      exec "$@" env GLIBC_TUNABLES=glibc.pthread.rseq=0 "$tlsmany" "$files" 512
    ' sh "$deep" "$mountmany" "$tlsmany" "$d/u/files" $user > "$d/inner.out" 2>&1 &
    inner=$!
    i=0
    while ! grep -q ready "$d/inner.out" && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
    grep -q ready "$d/inner.out" || { echo "FAIL: $scenario (the inner namespace did not start: $(head -c 300 "$d/inner.out"))"; exit 0; }
    pid=$(sed -n 's/^pid=//p' "$d/inner.out")
    size=$(sed -n 's/^mounts //p' "$d/inner.out")
    echo "NOTE: mountinfo-many: the target's mountinfo is $size bytes"
    # The bytes info -p and the children it waited for read (the kernel
    # adds a reaped child's counts to its parent's, as for cutime), in
    # a shell that waited for it: a count no load changes.  --timeout,
    # wall-clock time, as wide as the hard limit.
    rm -f "$d/io"
    run_info 300 sh -c '"$@"; s=$?; sed -n "s/^rchar: //p" /proc/$$/io > "$0"; exit $s' \
      "$d/io" $user "$info" info -p "$pid" --timeout=280
    bytes=$(cat "$d/io" 2>/dev/null)
    why=
    case $status:$size in
      hung:*) why="info -p did not end within 300 s" ;;
      0:*[!0-9]*|0:) why="the target's mountinfo size not read: '$size'" ;;
      0:*) case $bytes in
             ''|*[!0-9]*) why="no byte count read from /proc/PID/io: '$bytes'" ;;
             *) if [ "$bytes" -ge $((4 * size)) ]; then
                  why="info -p read $bytes bytes, $((bytes / size)) times the mountinfo"
                elif [ "$bytes" -lt "$size" ]; then
                  why="info -p read $bytes bytes, less than the mountinfo: it did not read it"
                else
                  case $(clib) in glibc\ [0-9]*) ;; *) why="C library '$(clib)'" ;; esac
                fi ;;
           esac ;;
      *) why="info -p failed: $(head -n 1 "$d/info.out")" ;;
    esac
    echo "NOTE: mountinfo-many: info -p read $bytes bytes (the mountinfo $size), $seconds_taken s in all"
    verdict "$what" "$why"
    kill -KILL "$pid" $inner 2>/dev/null ;;

  vfork-stuck)
    "$vforks" 600 > "$d/vfork.out" 2>&1 &
    i=0
    while ! grep -q ready "$d/vfork.out" && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
    grep -q ready "$d/vfork.out" || { echo "FAIL: $scenario (info-vfork-threads did not start: $(head -c 300 "$d/vfork.out"))"; exit 0; }
    pid=$(sed -n 's/^pid=//p' "$d/vfork.out")
    echo "NOTE: vfork-stuck: $(grep -l '^State:.*D' /proc/$pid/task/*/status 2>/dev/null | wc -l) threads in state D"
    run_info 60 "$info" info -p "$pid" --stop
    timed_verdict "info -p --stop of a process of 600 threads in state D (vfork parents) takes under 30 s"
    kids=$(cat /proc/$pid/task/*/children 2>/dev/null)
    kill -KILL "$pid" $kids 2>/dev/null ;;

  compat-32|fuse-compat-32)
    # A 32-bit process (x86-64 only, which runs i386 programs): its
    # auxv has 32-bit words, where AT_RANDOM was not found, so info -p
    # took it for one inside execve and said so on every try (thirty-
    # second review); and with its program on FUSE, whose header info
    # -p does not read (thirty-third review); it must report it, with
    # the warning that only its registrations are known where its
    # program can be read.
    if ! ${CC:-cc} -m32 -nostdlib -static -fno-pie -no-pie -O2 -o "$d/info-i386" \
         "$(dirname "$0")/info-i386.c" > "$d/cc.out" 2>&1; then
      echo "FAIL: $scenario (cannot build a 32-bit program with ${CC:-cc} -m32: $(head -n 3 "$d/cc.out"))"
      exit 0
    fi
    # Whether this kernel runs i386 programs at all, asked of a program
    # written byte for byte (build-aux/i386-probe), not of the one under
    # test: execve refuses a malformed build with the same ENOEXEC as a
    # kernel without IA32 emulation, and such a build must fail below,
    # not pass as "not applicable".  Where the kernel refuses them no
    # 32-bit process can exist, and there is nothing for info -p to
    # meet: said as NA, which make check prints.
    i386=$(sh "$(dirname "$0")/../../build-aux/i386-probe")
    case $i386 in
      runs) ;;
      refused)
        echo "NA: $scenario: this kernel runs no i386 program (build-aux/i386-probe: execve refuses a minimal ELF32 file with ENOEXEC): IA32 emulation is off"
        exit 0 ;;
      *)
        echo "FAIL: $scenario (build-aux/i386-probe: $i386)"
        exit 0 ;;
    esac
    prog=$d/info-i386 on= with=", with the warning"
    if [ "$scenario" = fuse-compat-32 ]; then
      serve "$d/mnt" prog="$d/info-i386"
      prog=$d/mnt/prog32 on=" whose program is on FUSE" with=
    fi
    "$prog" &
    pid=$!
    wait_exec "$pid" "$(basename "$prog")"
    for how in --stop --no-stop; do
      run_info 30 "$info" info -p "$pid" "$how"
      why=
      case $status in
        # On FUSE, whose files info -p does not open, the program's
        # class is not known: the report without the warning.
        0) if [ -z "$on" ]; then
             grep -q "process $pid is not a 64-bit program of this architecture" "$d/info.out" ||
               why="no warning that it is not a 64-bit program: $(head -n 3 "$d/info.out")"
           else
             grep -q "^process $pid (prog32)" "$d/info.out" ||
               why="no report of process $pid: $(head -n 3 "$d/info.out")"
           fi ;;
        hung) why="info -p did not end within 30 s" ;;
        *) why="info -p failed: $(head -n 1 "$d/info.out")" ;;
      esac
      verdict "info -p $how of a 32-bit process$on reports it$with" "$why"
    done
    kill -KILL "$pid"
    # Its auxv read with 32-bit words (forty-seventh review: read with
    # 64-bit ones, AT_SECURE was another entry's value, and the
    # AT_RSEQ_* values 0), in a plain copy started by root and a
    # set-user-ID root copy started by another user, with
    # GLIBC_TUNABLES set.  The oracle: the vector as od reads it.
    # (On FUSE, the plain copy alone: its class is then told from the
    # vector itself.)
    copies=$prog
    if [ -z "$on" ]; then
      suid_dir && cp "$prog" "$d/suid/info-i386-suid" &&
        chmod 4755 "$d/suid/info-i386-suid"
      copies="$prog $d/suid/info-i386-suid"
    fi
    for copy in $copies; do
      if [ "$copy" = "$prog" ]; then
        env GLIBC_TUNABLES=glibc.pthread.rseq=0 "$copy" & what="a plain"
      else
        env GLIBC_TUNABLES=glibc.pthread.rseq=0 $user "$copy" & what="a set-user-ID"
      fi
      pid=$!
      wait_exec "$pid" "$(basename "$copy" | cut -c1-15)"
      aux=$(od -An -tu4 -w8 -v "/proc/$pid/auxv")
      want_sec=$(printf '%s\n' "$aux" | awk '$1 == 23 { print ($2 != 0) ? "true" : "false" }')
      want_fs=$(printf '%s\n' "$aux" | awk '$1 == 27 { v = $2 } END { print v + 0 }')
      run_info 30 "$info" info -p "$pid" --no-stop --json
      why=
      if [ "$status" != 0 ]; then
        why="info -p failed: $(head -n 1 "$d/info.out")"
      else
        grep -q "\"secure\": $want_sec[,}]" "$d/info.out" ||
          why="not \"secure\": $want_sec (AT_SECURE in its auxv): $(grep -o '"secure": [a-z]*' "$d/info.out")"
        grep -q "\"at_rseq_feature_size\": $want_fs[,}]" "$d/info.out" ||
          why="${why:+$why; }not \"at_rseq_feature_size\": $want_fs: $(grep -o '"at_rseq_feature_size": [0-9]*' "$d/info.out")"
      fi
      [ "$copy" = "$prog" ] || [ "$want_sec" = true ] ||
        why="${why:+$why; }the set-user-ID copy runs without AT_SECURE (a file system mounted nosuid?)"
      verdict "info -p of $what 32-bit process reads its auxv with 32-bit words$on" "$why"
      kill -KILL "$pid"
    done ;;

  *) echo "FAIL: info-hostile.sh: no scenario $scenario"; exit 0 ;;
esac
exit 0
