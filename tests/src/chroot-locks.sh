#!/bin/sh
# chroot-locks.sh: the locks that keep the cached Debian chroots from
# being updated or rebuilt under a tier that uses them
# (build-aux/matrix/common.sh), on a scratch cache; and build-aux/
# suite-index on a scratch file:// mirror.  One "PASS: WHAT" or
# "FAIL: WHAT (WHY)" line each.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RSEQ_COMPAT_CACHE=$tmp/cache
export RSEQ_COMPAT_CACHE
mkdir -p "$RSEQ_COMPAT_CACHE/chroot" "$tmp/root"
unset RC_CHROOT_HELD RC_SUITES_USED
lib=$top/build-aux/matrix/common.sh
check() { w=$1; shift; if "$@"; then echo "PASS: $w"; else echo "FAIL: $w"; fi; }
# with_lib SCRIPT: run SCRIPT in sh with common.sh's functions.
with_lib() { sh -c ". '$lib'; $1" "$top/build-aux/matrix/x" ; }

# A tier holding the chroot "foo" until it is told to end: not for a
# fixed time, which a loaded machine used up before the update below
# began waiting (make deb's make check, under a tier round: "the update
# goes ahead once the tier has ended" found it ended already).
( with_lib 'mx_hold_chroot foo; echo held > '"$tmp/held"'; while [ ! -e '"$tmp/release"' ]; do sleep 0.1; done' ) &
holder=$!
while [ ! -e "$tmp/held" ]; do sleep 0.1; done
MX_CHROOT_WAIT=1 with_lib 'mx_chroot_exclusive foo "updating it"' > "$tmp/x1" 2>&1
r1=$?
check "an update waits for a tier holding the chroot, and gives up naming it" \
  sh -c "[ $r1 -ne 0 ] && grep -q 'foo: still in use after 1 s' '$tmp/x1' && grep -q 'waiting for the tiers using it before updating it' '$tmp/x1'"
with_lib 'mx_hold_chroot foo' > "$tmp/x2" 2>&1
check "two tiers hold one chroot at once" [ $? -eq 0 ]
s=$(date +%s)
( sleep 2; : > "$tmp/release" ) &
MX_CHROOT_WAIT=30 with_lib 'mx_chroot_exclusive foo "updating it" && echo got' > "$tmp/x3" 2>&1
e=$(( $(date +%s) - s ))
check "the update goes ahead once the tier has ended" sh -c "grep -q '^got$' '$tmp/x3' && [ $e -ge 1 ] && [ $e -lt 30 ]"
wait "$holder"
with_lib 'mx_hold_chroot bar; mx_chroot_exclusive bar "updating it"' > "$tmp/x4" 2>&1
r4=$?
check "a run that holds the chroot and must update it stops at once, saying why" \
  sh -c "[ $r4 -ne 0 ] && grep -q 'bar: its package index changed while this run uses it' '$tmp/x4'"
# Held 5 s: under load (four tiers side by side) the second run took
# over a second to start, found the lock free and said nothing
# (session 66's glibc-2.36-project lane).
( with_lib 'mx_run_lock check-matrix; echo held > '"$tmp/held3"'; sleep 5' ) &
w=$!
while [ ! -e "$tmp/held3" ]; do sleep 0.1; done
s=$(date +%s)
with_lib 'mx_run_lock check-matrix' > "$tmp/x6" 2>&1
e=$(( $(date +%s) - s ))
wait "$w"
check "a second check-matrix run with the same cache waits for the first, and says so" \
  sh -c "[ $e -ge 1 ] && grep -q 'another check-matrix run uses this cache' '$tmp/x6'"
# The runs that rebuild work directories in shared chroots take it.
missing=
for f in matrix/run:check-matrix matrix/aarch64:check-aarch64 oldlibc/run:check-oldlibc deb/run:make-deb; do
  grep -q "^mx_run_lock ${f#*:}\$" "$top/build-aux/${f%%:*}" || missing="$missing ${f%%:*}"
done
check "check-matrix, check-aarch64, check-oldlibc and make deb each take their run lock${missing:+ (not:$missing)}" [ -z "$missing" ]
# A lock file planted as a link is not emptied through it.
echo precious > "$tmp/victim"
ln -s "$tmp/victim" "$RSEQ_COMPAT_CACHE/chroot/.planted.use"
with_lib 'mx_hold_chroot planted' > /dev/null 2>&1
with_lib 'MX_CHROOT_WAIT=1 mx_chroot_exclusive planted x' > /dev/null 2>&1
check "a lock file that is a link does not empty its target" [ "$(cat "$tmp/victim")" = precious ]

# A cache with no chroot made yet (the glibc tiers' own chroots).
RSEQ_COMPAT_CACHE=$tmp/fresh with_lib 'mx_hold_chroot glibc-bullseye 4 && mx_chroot_exclusive glibc-bookworm x' > "$tmp/x9" 2>&1
check "a hold and an update in a cache with no chroot directory yet" [ $? -eq 0 ]

# make deb's build directory is none the matrix or arm64 builds delete.
bad=$(grep -h -o 'rm -rf "\$root/[^"]*"' "$top/build-aux/deb/build.sh" | grep -E '\$root/rc("|/)' || :)
check "make deb builds outside the /rc that check-matrix and check-aarch64 rebuild${bad:+ ($bad)}" \
  sh -c "[ -z '$bad' ] && grep -q 'work=\$prefix/rc\$' '$top/build-aux/matrix/build.sh' && grep -q 'rm -rf \"\$root/rc-deb\"' '$top/build-aux/deb/build.sh'"

# suite-index on a scratch mirror.
mkdir -p "$tmp/m/dists/alpha" "$tmp/r/var/lib/apt/lists"
printf 'Date: Sat, 01 Aug 2026 00:00:00 UTC\n' > "$tmp/m/dists/alpha/InRelease"
h=$(sha256sum < "$tmp/m/dists/alpha/InRelease" | cut -d' ' -f1)
si() { RSEQ_COMPAT_MIRROR=file://$tmp/m "$top/build-aux/suite-index" "$@"; }
check "suite-index prints the hash of the mirror's InRelease" [ "$(si --hash alpha)" = "$h" ]
check "... and its date on the key's line" [ "$(si alpha)" = "suite alpha $h (Sat, 01 Aug 2026 00:00:00 UTC)" ]
printf 'Date: Sun, 02 Aug 2026 00:00:00 UTC\n' > "$tmp/m/dists/alpha/InRelease"
check "... reused within SUITE_INDEX_MAX_AGE" [ "$(si --hash alpha)" = "$h" ]
h2=$(sha256sum < "$tmp/m/dists/alpha/InRelease" | cut -d' ' -f1)
check "... fetched again after it" [ "$(SUITE_INDEX_MAX_AGE=0 si --hash alpha)" = "$h2" ]
cp "$tmp/m/dists/alpha/InRelease" "$tmp/r/var/lib/apt/lists/mirror_dists_alpha_InRelease"
check "suite-index --root reads what a root's apt fetched" [ "$(si --root "$tmp/r" alpha)" = "$h2" ]
: > "$tmp/used"
RC_SUITES_USED=$tmp/used si --hash alpha > /dev/null
check "suite-index names each suite it is asked for in RC_SUITES_USED" [ "$(cat "$tmp/used")" = alpha ]
si --hash beta > "$tmp/x5" 2>&1
r5=$?
check "a suite the mirror does not serve fails, naming the file and the fix" \
  sh -c "[ $r5 -ne 0 ] && grep -q 'cannot fetch file://$tmp/m/dists/beta/InRelease' '$tmp/x5' && grep -q 'RSEQ_COMPAT_MIRROR=URL' '$tmp/x5'"
si --hash '../etc' > /dev/null 2>&1
check "a suite name with a path in it is refused" [ $? -ne 0 ]
RSEQ_COMPAT_MIRROR=file://$tmp/nowhere "$top/build-aux/suite-index" --hash alpha > "$tmp/x7" 2>&1
r7=$?
check "another mirror's index is not reused for this one" \
  sh -c "[ $r7 -ne 0 ] && grep -q 'cannot fetch file://$tmp/nowhere/dists/alpha/InRelease' '$tmp/x7'"
SUITE_INDEX_MAX_AGE=5m si --hash alpha > "$tmp/x8" 2>&1
r8=$?
check "a SUITE_INDEX_MAX_AGE that is not a number is refused" \
  sh -c "[ $r8 -ne 0 ] && grep -q 'is not a number of seconds' '$tmp/x8'"

# mmdebstrap under a caller with many descriptors open: it gives apt's
# /bin/sh a pipe as "cat >&FD", which dash cannot read past fd 9.  The
# stand-in does the same with its own pipe.
mkdir -p "$tmp/bin"
cat > "$tmp/bin/mmdebstrap" <<'STUB'
#!/usr/bin/perl
if ($ARGV[0] eq "--version") { print "mmdebstrap 1.3.5\n"; exit 0; }
use Fcntl;
pipe(my $r, my $w) or die;
fcntl($w, F_SETFD, 0) or die;
my $fd = fileno($w);
system("/bin/sh", "-c", "echo ok >&$fd") == 0 or die "sh could not write to fd $fd\n";
my @pos = grep { !/^--/ } @ARGV;
mkdir "$pos[1].d";
system("tar", "-C", "$pos[1].d", "-cf", $pos[1], ".") == 0 or die;
STUB
chmod +x "$tmp/bin/mmdebstrap"
PATH=$tmp/bin:$PATH RSEQ_COMPAT_MIRROR=file://$tmp/m bash -c \
  "exec 3>/dev/null 4>/dev/null 5>/dev/null 6>/dev/null 7>/dev/null 10>/dev/null 11>/dev/null 12>/dev/null; . '$lib'; mx_bootstrap alpha '$tmp/boot' '$tmp/boot.log'" \
  "$top/build-aux/matrix/x" > "$tmp/x10" 2>&1
r10=$?
check "mmdebstrap runs with none of the caller's descriptors (apt's sh reads one digit)" \
  sh -c "[ $r10 -eq 0 ] && [ -d '$tmp/boot' ] && ! grep -q 'Bad fd' '$tmp/x10' '$tmp/boot.log'"
