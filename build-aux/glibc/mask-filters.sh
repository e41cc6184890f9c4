#!/bin/sh
# mask-filters.sh REPORT LOG: the 2.31 series under seccomp filters that
# refuse (EPERM) or answer 0 without doing it rt_sigprocmask of one
# `how', or of SIG_SETMASK and SIG_UNBLOCK both, or every call without
# an old-mask pointer (110th review, G1), installed before the
# program starts (tests/src/sigblock-refused.c): the masks of main and
# of a new thread, and the creator's after pthread_create
# (tests/src/sigmask-report.c), must be stock 2.31's, the chroot's
# Debian libc6, which makes no such call there.  make
# check-glibc-project's seccomp.exp compares the shim with the patched
# glibc alone, not with stock (101st review, R1: the series' clone
# window blocked with SIG_BLOCK, which such a filter let through while
# it stopped the restores, and the creator and the thread kept every
# asynchronous signal blocked); one that kills SIG_BLOCK (106th review:
# the window's read was one).  Then handlers run inside the window,
# and filters that trap rt_sigprocmask (below).  Appends a table to
# REPORT; exit status 0 only if every case gave stock's results.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/common.sh"
report=$1 log=$2
: > "$log"
d=$GL_WORK/mask-filters
rm -rf "$GL_ROOT$d" && mkdir -p "$GL_ROOT$d"
(cd "$GL_TOP/tests/src" && cp sigblock-refused.c sigmask-report.c \
   window-sigblock.c window-gap.c window-blockfail.c sigmask-emulated.c \
   window-jmpblk.c window-early.c window-green.c sigsys-context.h seccomp-abi.h \
   "$GL_ROOT$d/")
gl_in_chroot /bin/sh -c 'cd "$1" &&
  gcc -O2 -o sigblock-refused sigblock-refused.c &&
  for p in sigmask-report window-sigblock window-gap window-blockfail \
      sigmask-emulated window-jmpblk window-early window-green; do
    gcc -O2 -pthread -o $p $p.c || exit 1
  done' sh "$d" >> "$log" 2>&1 ||
  { echo "mask-filters: the test programs did not build (see $log)" >&2; exit 1; }
{
  echo
  echo "## Filters on rt_sigprocmask"
  echo
  echo "tests/src/sigmask-report.c under tests/src/sigblock-refused.c, on"
  echo "the chroot's stock libc6 and on the patched build (its ld.so):"
  echo
  echo "| filter | patched | verdict |"
  echo "|---|---|---|"
} >> "$report"
status=0
ld="$GL_BUILD/elf/ld-linux-x86-64.so.2 --library-path $GL_BUILD:$GL_BUILD/nptl:$GL_BUILD/elf:$GL_BUILD/dlfcn"
for f in none "" --answer-0 --kill --setmask "--answer-0 --setmask" --unblock \
    "--answer-0 --unblock" "--setmask --unblock" "--answer-0 --setmask --unblock" \
    --no-old "--answer-0 --no-old"; do
  if [ "$f" = none ]; then run=; else run="$d/sigblock-refused $f"; fi
  stock=$(gl_in_chroot timeout 60 $run "$d/sigmask-report" 2>&1; echo "exit $?")
  # The build's ld.so itself: testrun.sh is a bash script, whose own
  # masking under such a filter the program would inherit.
  patched=$(gl_in_chroot timeout 60 $run $ld "$d/sigmask-report" 2>&1; echo "exit $?")
  printf '%s\nstock:\n%s\npatched:\n%s\n' "filter ${f:-SIG_BLOCK}" "$stock" "$patched" >> "$log"
  if [ "$stock" = "$patched" ]; then
    verdict=right
  else
    verdict="WRONG (stock: $(echo "$stock" | tr '\n' ' '))"
    status=1
  fi
  echo "| ${f:-(SIG_BLOCK)} | $(echo "$patched" | tr '\n' ' ' | sed 's/|/\\|/g') | $verdict |" >> "$report"
done

# mf_judge T STOCK PATCHED: the verdict on case T (the program and its
# arguments) from the two outputs (each ending "exit STATUS"), in
# `verdict'; status 1 if it is not right.  A function, so that the
# verdicts can be tried on made-up outputs (a copy of it, sourced alone).
#
# A row that pins a limit names both values it expects, stock 2.31's as
# well as the series': PIN is the field whose value differs, PIN_STOCK
# and PIN_PATCHED its values; everything else on the first line must be
# stock's in both.  (113th review, L1: a stock line taken from stock's
# own output matched whatever stock printed, so a stock 2.31 that
# changed the value the limit is measured against passed unseen.)
mf_judge() {
  _t=$1 _stock=$2 _patched=$3
  pin='' pin_stock='' pin_patched='' why=''
  case $_t in
    window-gap*) want='creator-lost-change=0' ;;
    window-blockfail*) want='lacking SIGUSR1/SIGUSR2=0 ' ;;
    # The masks; stock runs the handler itself, after pthread_create.
    # The limit: every signal blocked but SIGKILL, SIGSTOP, the six
    # the window leaves open (rseq-signals.h) and glibc's 32 and 33;
    # stock keeps SIGTERM and the handler's SIGTRAP.
    "window-early autodis")
      pin='main after' pin_stock=0x4010 pin_patched=0xfffffffe3ffbfa37 ;;
    window-early*) want=$(echo "$_stock" | sed -n 1p) ;;
    # The limit of a handler that runs between the window's end and the
    # restore and leaves by siglongjmp (108th review, F3): the window's
    # blocking stays, with the handler's SIGSYS and SIGTRAP; stock keeps
    # SIGTERM, SIGTRAP and SIGSYS.
    "window-jmpblk restore")
      pin='main after' pin_stock=0x40004010 pin_patched=0xfffffffe7ffbfa37 ;;
    # Green threads that preempt creations (109th review; the limits
    # doc/glibc.md gives): one creating on a higher stack while it
    # preempts another's creation before its block (A1): the resumed
    # window goes unrecorded, and the jump out of it keeps its blocking
    # (stock: SIGTERM and SIGTRAP); one preempted in turn before its own
    # block, whose record slot the first's block marks begun (L1): a
    # handler there loses its sa_mask and signal, SIGUSR1 and SIGUSR2
    # (stock: SIGTERM, SIGTRAP, SIGUSR1, SIGUSR2; the series SIGTERM and
    # SIGTRAP); one left for good inside its window on a higher stack
    # (G2): a creation below it gives the thread the window's mask,
    # SIGINT open though its creator blocks it (stock: SIGTERM and
    # SIGINT; the series SIGTERM).
    "window-green a1")
      pin='creator after' pin_stock=0x4010 pin_patched=0xfffffffe3ffbfa37 ;;
    "window-green slot")
      pin='green after' pin_stock=0x4a10 pin_patched=0x4010 ;;
    "window-green left")
      pin='its thread' pin_stock=0x4002 pin_patched=0x4000 ;;
    *) want=$_stock ;;
  esac
  ok=1
  if [ -n "$pin" ]; then
    # The value after PIN on each side, compared whole: a pattern match
    # would take 0x40100 for 0x4010.
    # From the first line alone, which carries the masks: a value
    # printed again further down must not stand in for it.
    _got_stock=$(printf '%s\n' "$_stock" | sed -n "1s/.*$pin \(0x[0-9a-f]*\).*/\1/p")
    _got_patched=$(printf '%s\n' "$_patched" | sed -n "1s/.*$pin \(0x[0-9a-f]*\).*/\1/p")
    if [ "$_got_stock" != "$pin_stock" ]; then
      ok=0 why="stock gives $pin ${_got_stock:-(none)}, want $pin_stock; "
    fi
    if [ "$_got_patched" != "$pin_patched" ]; then
      ok=0 why="${why}patched gives $pin ${_got_patched:-(none)}, want $pin_patched; "
    fi
    # The rest of stock's first line, the pinned value the series'.
    want=$(echo "$_stock" | sed -n 1p |
           sed "s/$pin 0x[0-9a-f]*/$pin $pin_patched/; s/from inside pthread_create: 0/from inside pthread_create: 1/")
    # That is the series' first line, whole, not a line found anywhere.
    [ "$(printf '%s\n' "$_patched" | sed -n 1p)" = "$want" ] || ok=0
  else
    case "$_stock" in *"$want"*) ;; *) ok=0 ;; esac
  fi
  case "$_patched" in *"$want"*) ;; *) ok=0 ;; esac
  case "$_stock$_patched" in *"exit 0"*"exit 0") ;; *) ok=0 ;; esac
  case $_t in
    sigmask-emulated*)
      case "$_stock" in *": pthread_create 0; "*) ;; *) ok=0 ;; esac ;;
    window-early*|window-green*)
      case "$_stock" in *"from inside pthread_create: 0"*) ;; *) ok=0 ;; esac
      case "$_patched" in *"from inside pthread_create: 1"*) ;; *) ok=0 ;; esac ;;
  esac
  if [ $ok = 1 ]; then
    verdict=right
    [ -z "$pin" ] ||
      verdict="right (the limit doc/glibc.md gives: $pin $pin_patched where stock gives $pin_stock)"
    return 0
  fi
  _in=both
  [ -z "$pin" ] || _in=patched
  verdict="WRONG (${why}stock: $(echo "$_stock" | tr '\n' ' '); want '$want' in $_in)"
  return 1
}

# Handlers run inside the window (102nd review): a longjmp out of one
# under a filter on SIG_BLOCK (window-sigblock.c, modes 0 to 2: stock's
# output, exactly), one that changes the mask it returns to
# (window-gap.c: no change lost), one that creates a thread under a
# filter that refuses SIG_SETMASK with a set (window-blockfail.c: no
# such thread lacks the handler's signals).
#
# Filters that trap rt_sigprocmask, the program's SIGSYS handler doing
# the call's work (sigmask-emulated.c, modes 1 to 6): stock's output,
# exactly (session 38: the window's first call blocked every signal,
# SIGSYS with them, and the series died with SIGSYS in pthread_create
# under a filter trapping SIG_SETMASK, or with a handler that ignores
# the old-mask pointer kept the creator and the thread blocked; modes 4
# and 5, a handler that takes the set for given or a missing one for an
# empty one: 107th review, N5 and N6, where the window's read was
# SIG_SETMASK without a set; mode 6, SIG_BLOCK alone trapped and its
# set taken for given: 109th review, S4).  A
# handler run right after the block that leaves by siglongjmp without a
# saved mask (window-jmpblk.c: stock's output, exactly; 106th review,
# B3: the window, recorded after the block, was not ended); one that
# leaves the restore's own trap so, after the window ended (restore:
# the limit doc/glibc.md gives, 108th review, F3).  An
# ordinary handler run just before the block, with the window recorded
# and not begun, that jumps out, creates a thread, or leaves by
# setcontext, once or four times over (window-early.c: stock's masks,
# exactly, and the handler run from inside the patched pthread_create;
# 107th review, N1-N3: it was taken for one inside the window; 108th
# review, F1: records abandoned so filled the table).  One that creates
# on an SS_AUTODISARM stack above the window (N4) pins the limit
# doc/glibc.md gives: that creation ends the outer window, and a later
# siglongjmp out of a handler inside it leaves the window's blocking.
# Green threads that preempt creations (window-green.c: modes a1, slot
# and left) pin the limits doc/glibc.md gives (109th review, A1, L1 and
# G2).
for t in "window-sigblock 0" "window-sigblock 1" "window-sigblock 2" \
    "window-gap 2000 2000" "window-blockfail 1500 3000" \
    "sigmask-emulated 1" "sigmask-emulated 2" "sigmask-emulated 3" \
    "sigmask-emulated 4" "sigmask-emulated 5" "sigmask-emulated 6" \
    window-jmpblk "window-jmpblk restore" "window-early jmp" "window-early create" \
    "window-early ctx" "window-early exhaust" "window-early autodis" \
    "window-green a1" "window-green slot" "window-green left"; do
  # The handlers of window-gap and window-blockfail call pthread_create
  # while main may be inside its own, which is not async-signal-safe:
  # stock 2.31 deadlocked there once in a few dozen runs (its stack
  # cache's lock held by the creation the signal interrupted; exit 124,
  # 2026-12-03).  So a run that times out is run again, twice at most,
  # and the verdict says so; any other end counts as it is.
  reruns=
  stock=$(gl_in_chroot timeout 120 $d/$t 2>&1; echo "exit $?")
  for again in 1 2; do
    case $t:$stock in
      window-gap*"exit 124"|window-blockfail*"exit 124")
        reruns="$reruns stock timed out;"
        stock=$(gl_in_chroot timeout 120 $d/$t 2>&1; echo "exit $?") ;;
    esac
  done
  patched=$(gl_in_chroot timeout 120 $ld $d/$t 2>&1; echo "exit $?")
  for again in 1 2; do
    case $t:$patched in
      window-gap*"exit 124"|window-blockfail*"exit 124")
        reruns="$reruns patched timed out;"
        patched=$(gl_in_chroot timeout 120 $ld $d/$t 2>&1; echo "exit $?") ;;
    esac
  done
  printf '%s\nstock:\n%s\npatched:\n%s\n%s\n' "$t" "$stock" "$patched" "${reruns:+rerun:$reruns}" >> "$log"
  mf_judge "$t" "$stock" "$patched" || status=1
  [ -z "$reruns" ] || verdict="$verdict (run again:$reruns)"
  echo "| $t | $(echo "$patched" | tr '\n' ' ' | sed 's/|/\\|/g') | $verdict |" >> "$report"
done
exit $status
