#!/bin/sh
# static-windows.sh REPORT LOG: the clone windows of the 2.31 series in
# a static program.  tests/src/create-trap.c, linked statically against
# the patched build's libc.a and libpthread.a, runs the modes whose
# handlers create threads inside a window and leave it by returning,
# by siglongjmp or by setcontext; each must print what stock 2.31 does
# (create-trap.exp's expectations for glibc before 2.32).  Static
# programs get libc.a's longjmp, which ends the windows only where
# pt-cleanup.o is linked (101st review, R3: it was not, and main's
# later thread started with the handler's signals blocked); make
# check-glibc-project links static programs against Debian's libc.a.
# Appends a table to REPORT; exit status 0 only if every mode did.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/common.sh"
report=$1 log=$2
: > "$log"
d=$GL_WORK/static-windows
rm -rf "$GL_ROOT$d" && mkdir -p "$GL_ROOT$d/inc"
(cd "$GL_TOP" && cp tests/src/create-trap.c tests/src/rtest.h \
   tests/src/seccomp-filter.h tests/src/seccomp-abi.h "$GL_ROOT$d/" &&
 tar cf - sysdeps/unix/sysv/linux shim/arch/x86_64) | tar xf - -C "$GL_ROOT$d/inc"
# The program as make check builds it, with the series' <sys/rseq.h>,
# and linked as gcc -static links, with the build's start files and
# archives in place of the chroot's.
gl_in_chroot /bin/sh -c '
  cd "$1" && b=$2 &&
  gcc -O2 -pthread -Iinc/shim/arch/x86_64 -Iinc/sysdeps/unix/sysv/linux/x86 \
    -Iinc/sysdeps/unix/sysv/linux -c create-trap.c -o create-trap.o &&
  gcc -static -nostdlib -nostartfiles -o create-trap "$b/csu/crt1.o" \
    "$b/csu/crti.o" "$(gcc -print-file-name=crtbeginT.o)" create-trap.o \
    -Wl,--start-group "$b/nptl/libpthread.a" "$b/dlfcn/libdl.a" "$b/libc.a" \
    -lgcc -lgcc_eh -Wl,--end-group "$(gcc -print-file-name=crtend.o)" \
    "$b/csu/crtn.o"' sh "$d" "$GL_BUILD" >> "$log" 2>&1 ||
  { echo "static-windows: the test program did not build (see $log)" >&2; exit 1; }
{
  echo
  echo "## Clone windows in a static program"
  echo
  echo "tests/src/create-trap.c linked statically against the patched"
  echo "libc.a and libpthread.a:"
  echo
  echo "| mode | printed | verdict |"
  echo "|---|---|---|"
} >> "$report"
status=0
for m in nested twice stale setcontext jump; do
  case $m in
    nested) want="pthread_create=0 handler=1 thread-ran=1 consistent=1 inner=12,31 setxid=0" ;;
    twice) want="pthread_create=0 handler=1 thread-ran=1 consistent=1 inner=12,31;10,12,31 setxid=0" ;;
    *) want="handler=1 $m=same" ;;
  esac
  out=$(gl_in_chroot timeout 60 "$d/create-trap" "$m" 2>&1)
  rc=$?
  echo "$m: exit $rc: $out" >> "$log"
  case "$rc $out" in
    "0 glibc 2.31: $want") verdict=right ;;
    *) verdict="WRONG (want exit 0, '$want')"; status=1 ;;
  esac
  echo "| $m | exit $rc: $(echo "$out" | head -c 300 | tr '\n' ' ' | sed 's/|/\\|/g') | $verdict |" >> "$report"
done
exit $status
