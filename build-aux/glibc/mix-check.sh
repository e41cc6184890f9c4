#!/bin/sh
# mix-check.sh REPORT LOG: the 2.31 series' patched libraries mixed with
# Debian's stock ones, as a partial upgrade or a copied library would mix
# them.  A test program (malloc, a thread, sched_getcpu) runs under each
# of the eight combinations of ld.so, libc.so.6 and libpthread.so.0,
# patched (the build) or stock (the chroot's /lib).  The two pure ones
# must run; every mixed one must stop with the loader's error that names
# the cause (rseq-ldso-guard.c, patch 08), before the program prints
# anything or leaves any trace (before its first malloc, the program
# creates the file MIX_MARK names: a stock libc.so.6 under the patched
# ld.so once ran that far).  Appends a table to REPORT; exit status 0
# only if all eight did what they must.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/common.sh"
report=$1 log=$2
: > "$log"
d=$GL_WORK/mix
rm -rf "$GL_ROOT$d" && mkdir -p "$GL_ROOT$d"
cat > "$GL_ROOT$d/t.c" <<'EOF'
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *
run (void *arg)
{
  return (void *) (long) sched_getcpu () + (long) arg;
}

int
main (void)
{
  /* A side effect before any tunable is read (malloc reads them).  */
  const char *mark = getenv ("MIX_MARK");
  int fd = mark != NULL ? open (mark, O_WRONLY | O_CREAT | O_TRUNC, 0644) : -1;
  if (fd >= 0)
    close (fd);
  char *p = malloc (64);
  pthread_t t;
  void *r;
  if (p == NULL || pthread_create (&t, NULL, run, NULL) != 0
      || pthread_join (t, &r) != 0 || (long) r < 0 || sched_getcpu () < 0)
    return 1;
  puts ("ran");
  return 0;
}
EOF
# Each combination: "ld libc libpthread", p for the build, s for stock.
gl_in_chroot /bin/sh -c '
  d=$1 b=$2
  cd "$d" && gcc -O2 -o t t.c -lpthread || exit 1
  lib=/lib/x86_64-linux-gnu
  for c in "s s s" "p p p" "p s s" "s p p" "p p s" "s s p" "p s p" "s p s"; do
    set -- $c
    dir=$d/$1$2$3 && mkdir -p "$dir"
    if [ "$2" = p ]; then ln -s "$b/libc.so" "$dir/libc.so.6"; else ln -s "$lib/libc.so.6" "$dir/"; fi
    if [ "$3" = p ]; then ln -s "$b/nptl/libpthread.so" "$dir/libpthread.so.0"; else ln -s "$lib/libpthread.so.0" "$dir/"; fi
    if [ "$1" = p ]; then ld=$b/elf/ld.so; else ld=$lib/ld-linux-x86-64.so.2; fi
    rm -f "$dir.mark"
    MIX_MARK=$dir.mark "$ld" --library-path "$dir" ./t > "$dir.out" 2> "$dir.err"
    rc=$?
    if [ -e "$dir.mark" ]; then m=mark; else m=nomark; fi
    echo "$1$2$3 $rc $m $(cat "$dir.out" "$dir.err" | head -c 300 | tr "\n" " ")"
  done' sh "$d" "$GL_BUILD" > "$GL_ROOT$d/results" 2>> "$log" ||
  { echo "mix-check: the test program did not build (see $log)" >&2; exit 1; }
cat "$GL_ROOT$d/results" >> "$log"

status=0
{
  echo
  echo "## Mixed with the stock libraries (patches 08 and 09)"
  echo
  echo "ld.so, libc.so.6 and libpthread.so.0 each from the patched build (p) or"
  echo "from the chroot's stock libc6 (s); a test program run through the"
  echo "chosen ld.so with --library-path:"
  echo
  echo "| ld.so libc libpthread | exit | what it printed |"
  echo "|---|---|---|"
} >> "$report"
while read -r combo rc mark text; do
  case $combo in
    sss|ppp) want="0 ran" ;;
    # A patched libc.so.6 or libpthread.so.0 under the stock ld.so: the
    # loader's version check, at startup.
    spp|ssp|sps) want="1 version \`GLIBC_2.35' not found" ;;
    # Stock libraries under the patched ld.so: its version check too
    # (patch 09), not their first tunable read.
    *) want="1 not the rseq-compat build of glibc that this dynamic loader" ;;
  esac
  case "$rc $text" in
    "${want%% *} "*"${want#* }"*) verdict=ok ;;
    *) verdict="WRONG (want exit ${want%% *} and \"${want#* }\")" status=1 ;;
  esac
  # A mixed run must print nothing of its own and leave no trace.
  case $combo:$mark:$text in
    sss:mark:*|ppp:mark:*) ;;
    sss:*|ppp:*) verdict="WRONG (the program did not create its file)" status=1 ;;
    *:mark:*) verdict="WRONG (the program ran: it created its file)" status=1 ;;
    *ran*) verdict="WRONG (the program ran)" status=1 ;;
  esac
  echo "| $(echo "$combo" | sed 's/./& /g;s/ $//') | $rc | $(echo "$text" | sed 's/|/\\|/g') — $verdict |" >> "$report"
done < "$GL_ROOT$d/results"
n=$(wc -l < "$GL_ROOT$d/results")
[ "$n" -eq 8 ] || { echo "| (only $n of 8 combinations ran) | | WRONG |" >> "$report"; status=1; }
exit $status
