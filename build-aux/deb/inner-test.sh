#!/bin/sh
# inner-test.sh DIR EXPECT: install, use, remove and purge the packages
# in DIR (librseq-compat1, librseq-compat-dev, rseq-compat) in the root
# this runs in (a throw-away overlay of a suite's chroot; test.sh).
# EXPECT: "shim" where the C library does not register rseq (bullseye),
# "libc" where it does.  Prints "PASS: NAME" or "FAIL: NAME: WHY" per
# step, then "done".
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
dir=$1 expect=$2
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
pkgs="librseq-compat1 librseq-compat-dev rseq-compat"
entry="/usr/lib/$ma/rseq-compat/\$LIB/librseq-compat.so.1"
pf=/etc/ld.so.preload
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
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

debs=$(for p in $pkgs; do ls "$dir"/${p}_*.deb; done)
check "install" "Setting up rseq-compat" dpkg -i $debs

check "files: the library" "librseq-compat.so.1" ls "/usr/lib/$ma/librseq-compat.so.1"
check "files: the layout's glibc link" "." readlink -e "/usr/lib/$ma/rseq-compat/lib/$ma/librseq-compat.so.1"
check "files: the layout's musl link" "/musl/librseq-compat.so.1" \
  readlink -e "/usr/lib/$ma/rseq-compat/\$LIB/librseq-compat.so.1"
check "files: man pages" "rseq-compat.7" sh -c 'man -w rseq-compat && man -w 7 rseq-compat && man -w 3 rseq-compat.h'
check "command: --version" "^rseq-compat [0-9]" rseq-compat --version

# The shim on this suite's C library, and on musl through the layout.
if [ "$expect" = shim ]; then mode=shim-owned; else mode=libc-owned; fi
check "run: glibc program, $mode" "mode +$mode" rseq-compat run rseq-compat info
mkdir -p /tmp/rc-use/h && cp /usr/include/rseq-compat.h /tmp/rc-use/h/ || exit 1
cat > /tmp/rc-use/size.c <<'C'
#include <stdio.h>
#include <rseq-compat.h>
int
main (void)
{
  printf ("size %u cpu %d\n", rseq_compat_size (), rseq_compat_cpu ());
  return 0;
}
C
if musl-gcc -I/tmp/rc-use/h -o /tmp/rc-use/musl-size /tmp/rc-use/size.c 2>/tmp/rc-use/err; then
  check "run: musl program, shim-owned" "^size (20|28|33) cpu [0-9]+$" \
    rseq-compat run /tmp/rc-use/musl-size
  check "musl program alone: unregistered" "^size 0 cpu [0-9]+$" /tmp/rc-use/musl-size
else
  fail "run: musl program, shim-owned" "musl-gcc failed: $(cat /tmp/rc-use/err)"
fi

# Linking: pkg-config, and -lrseq-compat alone.
check "pkg-config" "-lrseq-compat" pkg-config --cflags --libs rseq-compat
if cc -o /tmp/rc-use/pc-size /tmp/rc-use/size.c $(pkg-config --cflags --libs rseq-compat) &&
   cc -o /tmp/rc-use/l-size /tmp/rc-use/size.c -lrseq-compat; then
  check "linked (pkg-config): registered" "^size (20|28|33) cpu [0-9]+$" /tmp/rc-use/pc-size
  check "linked (cc -lrseq-compat): needs the library" "librseq-compat.so.1" \
    sh -c "readelf -d /tmp/rc-use/l-size | grep NEEDED"
else
  fail "linked (pkg-config): registered" "cc failed"
fi

# The whole machine.
libc=$(sed -n 's|.* \(/[^ ]*/libc[-.][^ /]*so[^ /]*\)$|\1|p' /proc/self/maps | head -n 1)
if [ "$expect" = shim ]; then
  check "enable --system" "enabled" rseq-compat enable --system
  check "enabled: $pf names the layout" "^$(printf '%s' "$entry" | sed 's/[$.]/\\&/g')\$" cat "$pf"
  check "enabled: a new process is shim-owned" "mode +shim-owned" env -u LD_PRELOAD rseq-compat info
  quiet "enabled: programs start without a word" sh -c 'ls / && dpkg -l dpkg'
  # Another entry, which removal must keep.
  echo "$libc" >> "$pf"
else
  check "enable --system: refused" "registers rseq itself" sh -c 'rseq-compat enable --system; test $? = 1'
  echo "$libc" > "$pf"
fi

if [ "$expect" = shim ]; then said="took the shim out of $pf"; else said="Removing librseq-compat1"; fi
check "remove" "$said" dpkg -r $pkgs
check "removed: other entries kept" "^$(printf '%s' "$libc" | sed 's/[.]/\\&/g')\$" cat "$pf"
if grep -q librseq-compat "$pf"; then fail "removed: the shim's entry is gone" "$(cat "$pf")"
else pass "removed: the shim's entry is gone"; fi
quiet "removed: programs start without a word" sh -c 'ls / && dpkg -l dpkg'
rm -f "$pf"
left=$(ls -d /usr/lib/$ma/librseq-compat* /usr/lib/$ma/rseq-compat /usr/bin/rseq-compat \
  /usr/include/rseq-compat.h 2>/dev/null)
if [ -n "$left" ]; then fail "removed: files gone" "$left"; else pass "removed: files gone"; fi

check "purge" "Purging configuration files|ignoring request to remove .* which isn't installed" \
  dpkg -P $pkgs
st=$(dpkg-query -W -f '${Package} ${Status}\n' $pkgs 2>/dev/null | grep -v 'not-installed$')
if [ -n "$st" ]; then fail "purged: dpkg knows nothing of them" "$st"
else pass "purged: dpkg knows nothing of them"; fi
rm -rf /tmp/rc-use
echo done
