#!/bin/sh
# project-tests.sh OUT: the project's own `make check` on the patched
# glibc.  The build is installed with DESTDIR into a staging tree, its
# shared libraries are laid over the chroot's (an overlay
# mount in a private mount namespace: the cached chroot is not changed),
# and the tree is configured, built and checked there, so that every
# program the suite runs, the rseq-compat command and whatever it
# executes included, runs on the patched ld.so and libc.  Before that,
# the suite's libc probe runs through the build's testrun.sh.
# Prints make check's closing line; exit status 0 only if every test
# passed and the suite saw the C library register (libc-owned).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/common.sh"
out=$1
build=$GL_BUILD
stage=$GL_STAGE
log=$out/project-check.log
: > "$log"

gl_stage "$out/stage-install.log" || exit 1

# The suite's libc probe, through testrun.sh.
mkdir -p "$GL_ROOT$GL_WORK/probe"
(cd "$GL_TOP" && tar -cf - tests/src shim sysdeps) | tar -xf - -C "$GL_ROOT$GL_WORK/probe"
gl_in_chroot /bin/sh -c 'cd "$1" && gcc -std=gnu11 -O2 -Itests/src -Ishim/include -Ishim \
    -Ishim/arch/x86_64 -Isysdeps/unix/sysv/linux/x86 -Isysdeps/unix/sysv/linux \
    -o probe tests/src/libc-probe.c -ldl &&
  echo "plain: $("$2"/testrun.sh ./probe)" &&
  echo "abi: $("$2"/testrun.sh ./probe abi)"' sh "$GL_WORK/probe" "$build" \
  > "$out/testrun-probe.log" 2>&1
grep -qx 'plain: libc-owned' "$out/testrun-probe.log" &&
  grep -qx 'abi: abi' "$out/testrun-probe.log" ||
  { echo "the libc probe through testrun.sh did not report libc-owned with the ABI (see $out/testrun-probe.log)"; exit 1; }

ov=$GL_CACHE/overlay
rm -rf "$ov"
# The patched run-time libraries replace Debian's of the same names
# (overlay.sh says where and why), in the overlay's upper directory.
mkdir -p "$ov/upper" "$ov/work" "$ov/root"
"$(dirname "$0")/overlay.sh" "$GL_ROOT$stage" "$GL_ROOT" "$ov/upper" >> "$log" 2>&1 ||
  { echo "overlay.sh $GL_ROOT$stage failed (see $log)"; exit 1; }
# The matrix's test root for the 2.36 series (mxcheck and the shim
# built on it, with the files its loader maps), for make check-matrix to
# run under every guest kernel: row bookworm-glibcrseq.  Not for the
# 2.31 backport: glibc 2.31 starts threads with signals unblocked, so a
# handler may run before the new thread registers (nptl/README), and
# mxcheck's vfork-signal check signals a thread from its first moment.
row=
[ "$GLIBC_SUITE" = bullseye ] || row=$out/roots/$GLIBC_SUITE-glibcrseq
rm -rf "$out/roots"
# What make check cannot run in the chroot, and why (matrix/common.sh):
# static-old.exp reads RSEQ_COMPAT_CACHE, which the chroot cannot see.
echo "make check leaves out $MX_EXCLUDE_WHY" >> "$log"
unshare --mount --propagation private -- /bin/sh -s "$GL_ROOT" "$ov" "$GL_TOP" "$GL_JOBS" "$row" \
  "$(mx_exclude_flags "")" >>"$log" 2>&1 <<'EOS'
set -u
C=$1 ov=$2 top=$3 jobs=$4 row=$5 flags=$6
mount -t overlay overlay -o "lowerdir=$C,upperdir=$ov/upper,workdir=$ov/work" "$ov/root" || exit 125
R=$ov/root
mount -t proc proc "$R/proc" && mount --rbind /dev "$R/dev" || exit 125
mount -t tmpfs tmpfs "$R/tmp" || exit 125
rm -rf "$R/rcg/project" && mkdir -p "$R/rcg/project"
sh "$top/build-aux/tree-files" "$top" | (cd "$top" && tar --null -T - -cf -) |
  tar -xf - -C "$R/rcg/project"
in_root() {
  chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
    LANG=C.UTF-8 /bin/sh -c "$1"
}
in_root "cd /rcg/project && ./configure && make -j$jobs all && make check RUNTESTFLAGS='$flags'" || exit $?
[ -n "$row" ] || exit 0
in_root "cd /rcg/project && sh build-aux/matrix/inner-build.sh /rcg/mx" || exit 1
# The package line says the series is applied: the matrix expects
# glibc 2.41's values from this row, whatever the release.
sed -i '2s/$/ + rseq-compat series/' "$R/rcg/mx/glibc/version"
"$top/build-aux/glibc/stage-root.sh" "$R/rcg/mx/glibc" "$R" "$row" ||
  { echo "staging $row failed"; exit 1; }
# The patched loader, configured with --prefix=/usr, searches /lib64
# and /usr/lib64, not Debian's multiarch directory, which only the
# chroot's ld.so.cache names; the staged root has no cache.
for f in "$row"/lib/x86_64-linux-gnu/* "$row"/usr/lib/x86_64-linux-gnu/*; do
  [ ! -f "$f" ] || cp "$f" "$row/lib64/" || exit 1
done
EOS
status=$?
rm -rf "$ov/work"
cp "$ov/upper/rcg/project/build/tests/rseq.sum" "$out/project-rseq.sum" 2>/dev/null
cp "$ov/upper/rcg/project/build/tests/rseq.log" "$out/project-rseq.log" 2>/dev/null
cp "$ov/upper/rcg/project/build/tests/runtest.log" "$out/project-runtest.log" 2>/dev/null
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
mode=$(grep -o 'host C library: [a-z-]*' "$out/project-runtest.log" 2>/dev/null | head -n 1)
# Runs of glibc programs (musl children of the info tests aside), the
# static ones (static.exp's, tests/src/static*.c) apart: they are linked
# with the chroot's libc.a, which the overlay leaves Debian's (only the
# shared libraries are laid over), so their mode is that libc.a's:
# bullseye's 2.31 registers nothing and librseq-compat.a owns rseq
# there (shim-owned), bookworm's 2.36 registers (libc-owned).  Every
# other glibc program runs on the patched libc and must see it register.
glibc_log() { grep "^env RSEQ_EXPECT=$1 .*/bin/glibc/" "$out/project-rseq.log" | grep -v /bin/musl/; }
static_re='/bin/glibc/static[^ /]*( |$)'
glibc_runs() { glibc_log "$1" | grep -Evc "$static_re"; }
static_runs() { glibc_log "$1" | grep -Ec "$static_re"; }
owned=$(glibc_runs libc-owned)
shim=$(glibc_runs shim-owned)
static="$(static_runs libc-owned) libc-owned, $(static_runs shim-owned) shim-owned"
echo "${line:-no result line} (make check in the overlay; $mode; $owned glibc runs expect libc-owned, $shim shim-owned; static programs, on Debian's libc.a: $static; testrun.sh probe: libc-owned)"
[ "$shim" = 0 ] || status=1
[ $status -eq 0 ] && [ "$mode" = "host C library: libc-owned" ] &&
  case $line in *" 0 failed") exit 0 ;; esac
exit 1
