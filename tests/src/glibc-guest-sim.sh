#!/bin/sh
# glibc-guest-sim.sh TOP TMP: make check-glibc GLIBC_ARCH=aarch64's
# guest scripts on made-up trees in TMP (tests/rseq.build/glibc-cross.exp
# compares what this prints).  TOP is the source tree.
#   run-tests: build-aux/glibc/guest-run-tests.sh on a guest/ whose
#     loader is a script that checks its --library-path and marks the
#     program's environment, and whose tests are scripts that check
#     theirs (through the loader or not, env -i, NAME-ENV).
#   overlay: build-aux/glibc/overlay.sh on small stages and Debian-like
#     roots (merged /usr or not, aarch64 and x86_64, a loader link that
#     names a file the stage lacks); prints what each path then holds.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
top=$1 tmp=$2
rm -rf "$tmp"
mkdir -p "$tmp"

# --- run-tests.sh
g=$tmp/guest
mkdir -p "$g/glibc/lib" "$g/glibc/lib64" "$g/tests/misc" "$g/tests/nptl"
cat > "$g/glibc/lib64/ld-2.31.so" <<EOF
#!/bin/sh
[ "\$1" = --library-path ] && [ "\$2" = "$g/glibc/lib64" ] ||
  { echo "loader: bad arguments: \$*"; exit 99; }
shift 2
RTLD=yes exec "\$@"
EOF
chmod +x "$g/glibc/lib64/ld-2.31.so"
ln -s ../lib64/ld-2.31.so "$g/glibc/lib/ld-linux-aarch64.so.1"
# test NAME BODY: a test program that reports its environment's faults.
test_prog() {
  { echo '#!/bin/sh'
    echo '[ -z "${LEAK:-}" ] || echo "caller environment leaked"'
    echo '[ "$LC_ALL" = C ] || echo "LC_ALL is ${LC_ALL:-unset}"'
    echo "[ \"\$GCONV_PATH\" = \"$g/glibc/usr/lib64/gconv\" ] || echo \"GCONV_PATH is \$GCONV_PATH\""
    echo "$2"
  } > "$g/tests/$1"
  chmod +x "$g/tests/$1"
}
test_prog misc/tst-ok '[ "${RTLD:-}" = yes ] || echo "not through the loader"
[ -z "${GLIBC_TUNABLES:-}" ] || echo "GLIBC_TUNABLES=$GLIBC_TUNABLES"
[ "${TIMEOUTFACTOR:-}" = 7 ] || echo "TIMEOUTFACTOR ${TIMEOUTFACTOR:-unset}"
exit 0'
test_prog misc/tst-ok-static '[ -z "${RTLD:-}" ] || echo "static test run through the loader"
exit 0'
test_prog misc/tst-dis '[ "$GLIBC_TUNABLES" = glibc.pthread.rseq=0 ] || echo "GLIBC_TUNABLES=${GLIBC_TUNABLES:-unset}"
[ "$SECOND" = 2 ] || echo "SECOND=${SECOND:-unset}"
exit 0'
test_prog nptl/tst-bad 'echo boom; echo "second line" >&2; exit 1'
test_prog nptl/tst-unsup 'echo "not here"; exit 77'
# A test that finds a fault prints it; a clean one is silent, so make
# every fault a failure.
for f in "$g"/tests/*/*; do
  sed -i '2,$s/|| echo \(.*\)$/|| { echo \1; exit 3; }/' "$f"
done
cat > "$g/tests.list" <<EOF
misc/tst-ok dynamic
misc/tst-ok-static static
misc/tst-dis dynamic GLIBC_TUNABLES=glibc.pthread.rseq=0 SECOND=2
nptl/tst-bad dynamic
nptl/tst-unsup static
EOF
echo "== run-tests: all"
env LEAK=yes GLIBC_TUNABLES=glibc.pthread.rseq=1 TIMEOUTFACTOR=7 \
  sh "$top/build-aux/glibc/guest-run-tests.sh" "$g"
echo "status $?"
echo "== run-tests: passing only"
sed -i '/tst-bad\|tst-unsup/d' "$g/tests.list"
env TIMEOUTFACTOR=7 sh "$top/build-aux/glibc/guest-run-tests.sh" "$g"
echo "status $?"
echo "== run-tests: none"
: > "$g/tests.list"
out=$(sh "$top/build-aux/glibc/guest-run-tests.sh" "$g"); st=$?
printf '%s\n' "$out" | sed "s|$g|GUEST|"
echo "status $st"
# glibc 2.36 installs the loader itself in lib, not a link to lib64,
# and the libraries in lib64: the loader's --library-path is lib64.
echo "== run-tests: the loader itself in lib, the libraries in lib64"
g0=$g g=$tmp/guest-2.36
mkdir -p "$g/glibc/lib" "$g/glibc/lib64" "$g/tests/misc"
sed "s|$g0/|$g/|g" "$g0/glibc/lib64/ld-2.31.so" > "$g/glibc/lib/ld-linux-aarch64.so.1"
chmod +x "$g/glibc/lib/ld-linux-aarch64.so.1"
: > "$g/glibc/lib64/libc.so.6"
test_prog misc/tst-ok '[ "${RTLD:-}" = yes ] || { echo "not through the loader"; exit 3; }
exit 0'
echo "misc/tst-ok dynamic" > "$g/tests.list"
sh "$top/build-aux/glibc/guest-run-tests.sh" "$g"
echo "status $?"
g=$g0

# --- overlay.sh
# stage DIR RTLDDIR RTLD: a staged install with the loader link where
# glibc's make install puts it.
stage() {
  mkdir -p "$1/lib64" "$1/$2"
  for f in ld libc libpthread libcrypt; do echo "patched $f" > "$1/lib64/$f-2.31.so"; done
  ln -s libc-2.31.so "$1/lib64/libc.so.6"
  ln -s libpthread-2.31.so "$1/lib64/libpthread.so.0"
  ln -s libcrypt-2.31.so "$1/lib64/libcrypt.so.1"
  if [ "$2" = lib64 ]; then ln -s ld-2.31.so "$1/lib64/$3"; else ln -s ../lib64/ld-2.31.so "$1/$2/$3"; fi
}
# root DIR TRIPLET RTLDDIR RTLD LINK MERGED: a Debian-like root.
root() {
  d=$1 m=lib
  if [ "$6" = merged ]; then
    mkdir -p "$d/usr/lib" "$d/usr/lib64"; ln -s usr/lib "$d/lib"; ln -s usr/lib64 "$d/lib64"; m=usr/lib
  fi
  mkdir -p "$d/$m/$2" "$d/$3"
  for f in ld libc libpthread; do echo "debian $f" > "$d/$m/$2/$f-2.31.so"; done
  echo "debian xcrypt" > "$d/$m/$2/libcrypt.so.1.1.0"
  ln -s libc-2.31.so "$d/$m/$2/libc.so.6"
  ln -s libpthread-2.31.so "$d/$m/$2/libpthread.so.0"
  ln -s libcrypt.so.1.1.0 "$d/$m/$2/libcrypt.so.1"
  ln -s "$5" "$d/$3/$4"
}
# show ROOT PATH...: what each path holds as the root resolves it (an
# absolute link's target is in the root).
show() {
  _r=$1; shift
  for p in "$@"; do
    _f=$_r/$p
    if [ -L "$_f" ]; then case $(readlink "$_f") in /*) _f=$_r$(readlink "$_f") ;; esac; fi
    printf '  %s: %s\n' "$p" "$(cat "$_f" 2>/dev/null || echo missing)"
  done
}
o=$tmp/ov
stage "$o/stage-a64" lib ld-linux-aarch64.so.1
stage "$o/stage-x86" lib64 ld-linux-x86-64.so.2
a64="lib/ld-linux-aarch64.so.1 lib/aarch64-linux-gnu/libc.so.6 lib/aarch64-linux-gnu/libpthread.so.0
  lib/aarch64-linux-gnu/libcrypt.so.1 lib/aarch64-linux-gnu/libcrypt-2.31.so"

echo "== overlay: aarch64, merged /usr, in place"
root "$o/a" aarch64-linux-gnu lib ld-linux-aarch64.so.1 aarch64-linux-gnu/ld-2.31.so merged
out=$(sh "$top/build-aux/glibc/overlay.sh" "$o/stage-a64" "$o/a"); st=$?
printf '%s\n' "$out" | sed "s|$o/||g"
echo "status $st"
# shellcheck disable=SC2086
show "$o/a" $a64
echo "== overlay: aarch64, merged /usr, into an upper directory"
root "$o/b" aarch64-linux-gnu lib ld-linux-aarch64.so.1 aarch64-linux-gnu/ld-2.31.so merged
sh "$top/build-aux/glibc/overlay.sh" "$o/stage-a64" "$o/b" "$o/b-upper" > /dev/null
echo "status $?"
(cd "$o/b-upper" && find . | LC_ALL=C sort | sed 's/^/  /')
# shellcheck disable=SC2086
show "$o/b" $a64
echo "== overlay: x86_64, separate /usr, absolute loader link"
root "$o/c" x86_64-linux-gnu lib64 ld-linux-x86-64.so.2 /lib/x86_64-linux-gnu/ld-2.31.so split
sh "$top/build-aux/glibc/overlay.sh" "$o/stage-x86" "$o/c" > /dev/null
echo "status $?"
show "$o/c" lib64/ld-linux-x86-64.so.2 lib/x86_64-linux-gnu/libc.so.6 lib/x86_64-linux-gnu/libcrypt.so.1
echo "== overlay: aarch64, the loader link names a file the stage lacks"
root "$o/d" aarch64-linux-gnu lib ld-linux-aarch64.so.1 aarch64-linux-gnu/ld-linux-aarch64.so.1 merged
sh "$top/build-aux/glibc/overlay.sh" "$o/stage-a64" "$o/d" > /dev/null
echo "status $?"
show "$o/d" lib/ld-linux-aarch64.so.1 lib/aarch64-linux-gnu/ld-2.31.so
echo "== overlay: an x86_64 stage on an aarch64 root"
root "$o/e" aarch64-linux-gnu lib ld-linux-aarch64.so.1 aarch64-linux-gnu/ld-2.31.so merged
out=$(sh "$top/build-aux/glibc/overlay.sh" "$o/stage-x86" "$o/e" 2>&1); st=$?
printf '%s\n' "$out" | sed "s|$o/||g"
echo "status $st"
show "$o/e" lib/aarch64-linux-gnu/libc.so.6
