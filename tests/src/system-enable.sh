#!/bin/sh
# system-enable.sh CMD SHIM LAYOUT LIBDIR GLIBC_LIB NAMES OTHER EXPECT SCRATCH PRELOADDIR XATTR REPLACE AGENT:
# rseq-compat enable --system and disable --system against a private
# /etc (an overlay) and, for EXPECT "enable", a private view of LIBDIR
# (an overlay) that the scenarios install the shim SHIM into with the
# preload-layout script LAYOUT, under each $LIB name in NAMES (a
# space-separated list: the one the command was built with, GLIBC_LIB,
# and the one its own loader uses, which differ where the command runs
# on a glibc other than the system's).  OTHER is a library with no
# dependencies, the other entry of /etc/ld.so.preload that must stay:
# it loads into every process whichever glibc runs it, which a C
# library's path would not.  system.exp runs this as root in a mount
# namespace of its own, so nothing here reaches the machine's
# /etc/ld.so.preload or LIBDIR.  PRELOADDIR is the directory the entry
# names (the Makefile's preloaddir); make install adds the glibc names
# there where it is not LIBDIR/rseq-compat, and so do the scenarios.
# XATTR is tests/src/xattr-tool.c, built; REPLACE system-replace.c's
# preload; AGENT system-agent.c's library; SERVE fuse-serve.c, FUSEWHY
# why FUSE cannot be mounted here ("" where it can); EXE and PIE
# system-exe.c as an executable and a PIE; ELF system-elf.c; PROP the
# propagation system.exp gave its own mount namespace (rseq_mount_ns_prop).
#
# EXPECT: "enable" (a C library that does not register: every case),
# "refuse-abi" (glibc 2.35+ or the patched glibc: enable is refused,
# disable still cleans up), "refuse-musl" (a musl build of the command).
# Prints "PASS: NAME" or "FAIL: NAME: WHY" per case, then "done".
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/ns-libdir.sh"
cmd=$1 shim=$2 layout=$3 libdir=$4 glib=$5 names=$6 other=$7 expect=$8 scratch=$9
preloaddir=${10} xattr=${11} replace=${12} agent=${13} serve=${14}
fusewhy=${15} exe=${16} pie=${17} elf=${18} prop=${19} sysrefuse=${20}
soname=librseq-compat.so.1
entry="$preloaddir/\$LIB/$soname"
pf=/etc/ld.so.preload

mount -t tmpfs -o mode=755 tmpfs "$scratch" && mkdir "$scratch/upper" "$scratch/work" &&
  mount -t overlay overlay -o "lowerdir=/etc,upperdir=$scratch/upper,workdir=$scratch/work" /etc ||
  { echo "FAIL: setup: cannot mount an overlay on /etc"; exit 1; }
rm -f "$pf"

[ -f "$other" ] || { echo "FAIL: setup: $other (the other entry) is missing"; exit 1; }

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }
# run NAME STATUS PATTERN CMD...: CMD exits with STATUS and says PATTERN
# (a grep -E expression); its output is in $out.
run() {
  _n=$1 _want=$2 _pat=$3
  shift 3
  out=$("$@" 2>&1)
  _st=$?
  if [ "$_st" != "$_want" ]; then
    fail "$_n" "exit status $_st, not $_want: $out"
    return 1
  fi
  if ! printf '%s\n' "$out" | grep -Eq -- "$_pat"; then
    fail "$_n" "output does not match '$_pat': $out"
    return 1
  fi
  return 0
}
# is_file NAME TEXT: /etc/ld.so.preload holds exactly TEXT (printf %b).
is_file() {
  if [ ! -f "$pf" ] || [ -L "$pf" ]; then
    fail "$1" "$pf is missing"
    return 1
  fi
  if [ "$(od -An -c "$pf")" != "$(printf '%b' "$2" | od -An -c)" ]; then
    fail "$1" "$pf holds '$(cat "$pf")', not '$(printf '%b' "$2")'"
    return 1
  fi
  return 0
}
no_file() {
  if [ -e "$pf" ] || [ -L "$pf" ]; then
    fail "$1" "$pf exists: '$(cat "$pf" 2>&1)'"
    return 1
  fi
  return 0
}
# kids PID: the processes whose parent is PID, one a line (procps is
# in no root the tests run in).
kids() {
  _p=$1
  for _s in /proc/[0-9]*/stat; do
    read -r _l < "$_s" 2>/dev/null || continue
    # shellcheck disable=SC2086 # the fields after the name, split
    set -- ${_l##*) }
    [ "${2:-}" = "$_p" ] && { _d=${_s#/proc/}; echo "${_d%/stat}"; }
  done
}
# state_of PID: the state letter of process PID.
state_of() {
  read -r _l < "/proc/$1/stat" 2>/dev/null || return 1
  # shellcheck disable=SC2086
  set -- ${_l##*) }
  echo "$1"
}
# alive PID: PID is a process that has not ended (a zombie has).
alive() {
  _a=$(state_of "$1") && [ "$_a" != Z ] && [ "$_a" != X ]
}
# A temporary file left in /etc by an interrupted or failed write.
no_litter() {
  _l=$(ls -d /etc/ld.so.preload.* 2>/dev/null)
  [ -z "$_l" ] || { fail "$1" "left in /etc: $_l"; return 1; }
  return 0
}
# fewfds CMD...: CMD under a limit of ten descriptors, with 3-9 closed
# but those the caller's $held names ("9</dev/null ..."): what a caller
# leaves open is not the test's to count (session 64: make deb's two
# lock descriptors left enable five, and the row failed there alone).
# $outer (words) runs the shell that sets the limit, $inner (words)
# runs CMD under it.
fewfds() {
  ${outer:-} sh -c "exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&- ${held:-}; ulimit -n 10 && exec \"\$@\"" sh ${inner:-} "$@"
}
# fd_ladder NAME VERB SETUP DONE: VERB --system with fewer and fewer of
# descriptors 3-9 free, from 7 to 1 (the caller holding the rest),
# SETUP (shell code) run before each: every run ends with the change
# made (0, its line matching DONE) or refused (1) naming the want of
# descriptors (EMFILE: glibc's words or musl's), and none says what it
# could not tell of a file system (session 64: with five free, enable
# said that /usr/lib's overlay had a layer on FUSE, and disable warned
# so of /etc's); one at least is refused, or the ladder no longer
# reaches the checks.  $outer and $inner: as fewfds'; unset after.
fd_ladder() {
  _ln=$1 _lverb=$2 _lsetup=$3 _ldone=$4 held= _lrefused=0 _lbad=
  for _lfree in 7 6 5 4 3 2 1; do
    eval "$_lsetup"
    fewfds "$cmd" "$_lverb" --system > "$scratch/o1" 2> "$scratch/o2"
    _lst=$?
    _lwords=$(grep -v 'cannot make the pipes to a child process' "$scratch/o2")
    case $_lst in
      0) grep -q "$_ldone" "$scratch/o1" ||
           _lbad="$_lfree free: exit status 0 without '$_ldone': $(cat "$scratch/o1" "$scratch/o2")" ;;
      1) _lrefused=$((_lrefused + 1))
         printf '%s\n' "$_lwords" | grep -Eq 'Too many open files|No file descriptors available' ||
           _lbad="$_lfree free: refused without naming the want of descriptors: $_lwords"
         # The want's fix, not a link's (the 146th review's 5).
         printf '%s\n' "$_lwords" | grep -Eq 'must lead to what root alone|must be reached through directories' &&
           _lbad="$_lfree free: the want of descriptors given a link's fix: $_lwords" ;;
      *) _lbad="$_lfree free: exit status $_lst: $(cat "$scratch/o1" "$scratch/o2")" ;;
    esac
    if printf '%s\n' "$_lwords" | grep -v 'cannot tell whether' |
         grep -Eq 'is on (a FUSE|an overlay) file system'; then
      _lbad="$_lfree free: a finding about a file system it could not look at: $_lwords"
    fi
    [ -n "$_lbad" ] && break
    held="$held $((_lfree + 2))</dev/null"
  done
  held= outer= inner=
  rm -f "$pf"
  if [ -n "$_lbad" ]; then
    fail "$_ln" "$_lbad"
  elif [ "$_lrefused" = 0 ]; then
    fail "$_ln" "never refused, with 7 to 1 descriptors free: the ladder no longer reaches the checks"
  else
    pass "$_ln"
  fi
}

# disable's cleaning up works wherever the command runs: an entry of
# another copy of the shim goes, the other entries and the mode stay.
printf '%s\n%s:%s\n' "$other" "$shim" "$other" > "$pf"
chmod 640 "$pf"
run "disable: takes the shim out, keeps the rest" 0 "disabled: 1 shim entry" \
    "$cmd" disable --system &&
  is_file "disable: takes the shim out, keeps the rest" "$other\n$other\n" &&
  [ "$(stat -c %a "$pf")" = 640 ] &&
  no_litter "disable: takes the shim out, keeps the rest" &&
  pass "disable: takes the shim out, keeps the rest"
run "disable: nothing to do" 0 "not enabled" "$cmd" disable --system &&
  is_file "disable: nothing to do" "$other\n$other\n" && pass "disable: nothing to do"
rm -f "$pf"

# An entry that is a link of another name to a copy of the shim: the
# loader follows it, so it goes too (forty-sixth review: it stayed, and
# disable said "not enabled"); a link of another name to any other
# library stays.
n="disable: an entry that links to the shim under another name"
ln -sf "$shim" "$scratch/libmine.so" && ln -sf "$other" "$scratch/libown.so" &&
  printf '%s\n%s\n%s\n' "$scratch/libmine.so" "$other" "$scratch/libown.so" > "$pf" &&
  run "$n" 0 "disabled: 1 shim entry" "$cmd" disable --system &&
  is_file "$n" "$other\n$scratch/libown.so\n" && no_litter "$n" && pass "$n"
rm -f "$pf" "$scratch/libmine.so" "$scratch/libown.so"

# Entries that reach a copy of the shim under other names, each with
# the other entry: the oracle is the loader itself, the one the command
# runs on (a musl command: the system's), which LD_TRACE_LOADED_OBJECTS
# makes list what it loads for /etc/ld.so.preload; cmp tells the shim.
# An entry the loader loads the shim through must go, any other stay
# (forty-seventh review: a hard link and a copy stayed; forty-eighth: a
# library of another DT_SONAME that defines the shim's function names
# went).
oracle=$cmd
[ "$expect" != refuse-musl ] || oracle=/bin/true
loads_shim() {
  LD_TRACE_LOADED_OBJECTS=1 "$oracle" 2>/dev/null |
    awk -v e="$1" '$1 == e { print ($2 == "=>") ? $3 : $1 }' |
    { read -r _f && [ -n "$_f" ] && cmp -s "$_f" "$shim"; }
}
# entry_case NAME ENTRY RULE: RULE "loader" (out where the loader loads
# the shim through ENTRY, else kept), "out" (and the loader must load
# the shim through it), "keep" (kept, whatever the loader does).
entry_case() {
  _n=$1 _e=$2 _rule=$3
  printf '%s\n%s\n' "$other" "$_e" > "$pf"
  _loads=no
  loads_shim "$_e" && _loads=yes
  case $_rule in
    out) _want=out ;;
    keep) _want=keep ;;
    *) if [ $_loads = yes ]; then _want=out; else _want=keep; fi ;;
  esac
  if [ "$_rule" = out ] && [ $_loads = no ]; then
    fail "$_n" "the loader does not load the shim through $_e (the test's setup)"
  elif [ $_want = out ]; then
    run "$_n" 0 "disabled: 1 shim entry" "$cmd" disable --system &&
      is_file "$_n" "$other\n" && no_litter "$_n" && pass "$_n"
  else
    run "$_n" 0 "not enabled" "$cmd" disable --system &&
      is_file "$_n" "$other\n$_e\n" && pass "$_n"
  fi
  rm -f "$pf"
}
cp "$shim" "$scratch/copy.so" && ln "$scratch/copy.so" "$scratch/hard.so" &&
  rm "$scratch/copy.so" && cp "$shim" "$scratch/dup.so" &&
  cp "$agent" "$scratch/agent.so" || fail "setup" "cannot copy the shim into $scratch"
entry_case "disable: a hard link to the shim under another name" "$scratch/hard.so" out
entry_case "disable: a copy of the shim under another name" "$scratch/dup.so" out
entry_case "disable: another library with the shim's function names stays" \
  "$scratch/agent.so" keep
# A dynamic string token: its value is the loader's, which the command
# cannot know ($LIB is configured into the loader, which may not be the
# glibc the command was built for; $PLATFORM may come from the CPU),
# so such an entry is judged by its name alone (forty-ninth review),
# even where the loader loads the shim through it, as here: the links
# are made under every $LIB name the test knows and the kernel's
# platform.
for _l in $names; do
  mkdir -p "$scratch/ld/$_l" && ln -sf "$shim" "$scratch/ld/$_l/libmine.so"
done
entry_case "disable: a \$LIB entry under another name is judged by its name alone" \
    "$scratch/ld/\$LIB/libmine.so" keep
plat=$(LD_SHOW_AUXV=1 /bin/true 2>/dev/null | sed -n 's/^AT_PLATFORM: *//p')
mkdir -p "$scratch/plat/${plat:-x86_64}" &&
  ln -s "$shim" "$scratch/plat/${plat:-x86_64}/libmine.so" &&
  entry_case "disable: a \$PLATFORM entry is judged by its name alone" \
    "$scratch/plat/\$PLATFORM/libmine.so" keep
rm -rf "$scratch/hard.so" "$scratch/dup.so" "$scratch/agent.so" "$scratch/ld" "$scratch/plat"

# A bare name is found by the loader through ld.so.cache and its
# default directories, which the command does not search; a relative
# name, or one under /proc/self, from each process's working directory:
# all are judged by their own names (forty-seventh review: a bare name
# was looked for in LIBDIR, where a link to the shim made disable take
# out an entry the loader took from elsewhere; forty-eighth:
# /proc/self/cwd/... was resolved as the command's; forty-ninth: so were
# //proc/... and /dev/fd/../cwd/...; fiftieth: a link into
# /proc/self/cwd, and a procfs mounted in a chroot).  LIBDIR's link is made in a
# namespace of its own, on an overlay (within this one, which keeps
# its mounts to itself: "unchanged" works in a chroot too, where "/"
# is no mount point and "private" fails).
n="disable: a bare, relative or /proc/self name is judged by its name alone"
mkdir "$scratch/bare" &&
  proc_entries="/proc/self/cwd/lib/libmine.so
//proc/self/cwd/lib/libmine.so
/dev/fd/../cwd/lib/libmine.so
$scratch/bare/c/lib/libmine.so
$scratch/bare/l/libmine.so
$scratch/bare/chroot/proc/self/cwd/lib/libmine.so" &&
  printf '%s\nlibmine-bare.so\nlib/libmine.so\n%s\n' "$other" "$proc_entries" > "$pf" &&
  mkdir -p "$scratch/bare/lib" "$scratch/bare/l" "$scratch/bare/chroot/proc" &&
  ln -s "$shim" "$scratch/bare/lib/libmine.so" &&
  ln -s /proc/self/cwd "$scratch/bare/c" &&
  ln -s /proc/self/cwd/lib/libmine.so "$scratch/bare/l/libmine.so" &&
  out=$(unshare -m --propagation unchanged sh -c '
    mount -t proc proc "$1/chroot/proc" || exit 125
    # (No LIBDIR, no link: the loader would not search it either.)
    if [ -d "$2" ]; then
      mkdir "$1/u" "$1/w" &&
        mount -t overlay overlay -o "lowerdir=$2,upperdir=$1/u,workdir=$1/w" "$2" &&
        ln -s "$3" "$2/libmine-bare.so" || exit 125
    fi
    cd "$1" && exec "$4" disable --system' sh "$scratch/bare" "$libdir" "$shim" "$cmd" 2>&1)
st=$?
if [ $st -ne 0 ] || ! printf '%s\n' "$out" | grep -q "not enabled"; then
  fail "$n" "status $st: $out"
else
  is_file "$n" "$other\nlibmine-bare.so\nlib/libmine.so\n$proc_entries\n" && pass "$n"
fi
rm -rf "$pf" "$scratch/bare"

# An entry 1500 directories deep: read in time linear in its length
# (fiftieth review: a realpath of each leading part took 28 s at 1000,
# 223 s at 2000).  The bound is for a hang, not a measure: the loader
# takes milliseconds.
n="disable: an entry 1500 directories deep ends within 20 s"
deep=$scratch/deep
i=0
while [ $i -lt 1500 ]; do deep=$deep/d; i=$((i + 1)); done
mkdir -p "$deep" && ln -s "$other" "$deep/libx.so" &&
  printf '%s\n' "$deep/libx.so" > "$pf" &&
  t0=$(date +%s) &&
  run "$n" 0 "not enabled" timeout 120 "$cmd" disable --system &&
  t1=$(date +%s) &&
  if [ $((t1 - t0)) -le 20 ]; then
    is_file "$n" "$deep/libx.so\n" && pass "$n"
  else
    fail "$n" "it took $((t1 - t0)) s"
  fi
rm -rf "$pf" "$scratch/deep"

# The file's extended attributes stay, an ACL, one of the admin's own
# and a file capability, which a write takes away (twenty-ninth review:
# the new file that replaces it had none; thirtieth: the capability).
# xattrs_set: gives $pf the three; ACL_WANT is the ACL as the kernel
# keeps it.  The capability: version 2, effective, CAP_NET_BIND_SERVICE.
cap_want=0100000200040000000000000000000000000000
xattrs_set() {
  "$xattr" acl "$pf" 54340 && "$xattr" set "$pf" trusted.rseq-compat-test 6b657074 &&
    "$xattr" set "$pf" security.capability $cap_want &&
    acl_want=$("$xattr" get "$pf" system.posix_acl_access)
}
# xattrs_kept NAME: $pf has the three still, and mode 640.
xattrs_kept() {
  _a=$("$xattr" get "$pf" system.posix_acl_access 2>&1)
  _t=$("$xattr" get "$pf" trusted.rseq-compat-test 2>&1)
  _c=$("$xattr" get "$pf" security.capability 2>&1)
  if [ "$_a" != "$acl_want" ] || [ "$_t" != 6b657074 ] || [ "$_c" != $cap_want ]; then
    fail "$1" "after it: ACL $_a (was $acl_want), trusted.rseq-compat-test $_t (was 6b657074), security.capability $_c (was $cap_want)"
    return 1
  fi
  [ "$(stat -c %a "$pf")" = 640 ] || { fail "$1" "mode $(stat -c %a "$pf"), not 640"; return 1; }
}
printf '%s\n%s\n' "$other" "$shim" > "$pf"
chmod 640 "$pf"
if xattrs_set; then
  run "disable: extended attributes kept" 0 "disabled: 1 shim entry" "$cmd" disable --system &&
    is_file "disable: extended attributes kept" "$other\n" &&
    xattrs_kept "disable: extended attributes kept" &&
    pass "disable: extended attributes kept"
else
  fail "disable: extended attributes kept" "cannot give $pf an ACL, a trusted attribute and a capability (setup)"
fi
# The list of attributes grows between the two reads of it (thirtieth
# review: every attribute, the ACL too, was then dropped without a
# word, in 8 of 300 runs), and a value between the two reads of it
# (thirty-first: an empty one grown meanwhile took our heap's bytes to
# the new file, in 41 of 300).
racer=
if xattrs_set; then
  "$xattr" race "$pf" trusted.rseq-compat-race &
  racer=$!
  _i=0 _lost=0 _bad=0
  while [ $_i -lt 300 ]; do
    printf '%s\n%s\n' "$other" "$shim" > "$pf"
    "$cmd" disable --system > /dev/null 2>&1
    [ "$("$xattr" get "$pf" system.posix_acl_access 2>&1)" = "$acl_want" ] || _lost=$((_lost + 1))
    "$xattr" raced "$pf" trusted.rseq-compat-race 2>> "$scratch/raced" || _bad=$((_bad + 1))
    # Once lost, given back, so that each run counts.
    [ "$_lost" = 0 ] || "$xattr" acl "$pf" 54340
    _i=$((_i + 1))
  done
  kill $racer; wait $racer 2>/dev/null
  if [ $_lost = 0 ] && [ $_bad = 0 ]; then
    pass "disable: extended attributes kept while they change"
  else
    fail "disable: extended attributes kept while they change" "the ACL was lost in $_lost of 300 runs, and the changing attribute held what was never set in $_bad: $(head -n 1 "$scratch/raced")"
  fi
else
  fail "disable: extended attributes kept while they change" "cannot give $pf an ACL (setup)"
fi
rm -f "$pf"
# An empty attribute that grows between the two reads of it (thirty-
# first review: the second read, of size 0, copied nothing and gave the
# size, and that many bytes of our heap went to the new file: REPLACE
# aborts the command where it sets such bytes).  The old file changed
# meanwhile (its change time moved), so the edit stops and leaves it.
printf '%s\n%s\n' "$other" "$shim" > "$pf"
if "$xattr" set "$pf" trusted.rseq-compat-grow ""; then
  run "disable: an attribute that grows while it is copied" 1 "changed while rseq-compat edited it" \
      env LD_PRELOAD="$replace" RSEQ_TEST_GROW=trusted.rseq-compat-grow "$cmd" disable --system &&
    is_file "disable: an attribute that grows while it is copied" "$other\n$shim\n" &&
    no_litter "disable: an attribute that grows while it is copied" &&
    if _r=$("$xattr" raced "$pf" trusted.rseq-compat-grow 2>&1); then
      pass "disable: an attribute that grows while it is copied"
    else
      fail "disable: an attribute that grows while it is copied" "$_r"
    fi
else
  fail "disable: an attribute that grows while it is copied" "cannot give $pf an empty trusted attribute (setup)"
fi
rm -f "$pf"
# The set-user-ID and set-group-ID bits stay (thirty-first review: the
# owner, given after the mode, cleared them).
printf '%s\n%s\n' "$other" "$shim" > "$pf"
chmod 6644 "$pf"
run "disable: set-user-ID and set-group-ID bits kept" 0 "disabled: 1 shim entry" "$cmd" disable --system &&
  is_file "disable: set-user-ID and set-group-ID bits kept" "$other\n" &&
  if [ "$(stat -c %a "$pf")" = 6644 ]; then
    pass "disable: set-user-ID and set-group-ID bits kept"
  else
    fail "disable: set-user-ID and set-group-ID bits kept" "mode $(stat -c %a "$pf"), not 6644"
  fi
rm -f "$pf"
# Another program writes the file while disable edits it (it takes no
# lock of ours): its text stays (thirty-first review: a warning, then
# ours over it).  The preload REPLACE writes it as disable makes its
# new file.
printf '%s\n%s\n' "$other" "$shim" > "$pf"
run "disable: a file written meanwhile is left as written" 1 "changed while rseq-compat edited it.*run rseq-compat disable --system again" \
    env LD_PRELOAD="$replace" RSEQ_TEST_REPLACE="$other:$other" "$cmd" disable --system &&
  is_file "disable: a file written meanwhile is left as written" "$other:$other\n" &&
  no_litter "disable: a file written meanwhile is left as written" &&
  pass "disable: a file written meanwhile is left as written"
rm -f "$pf"
# The same, later: as disable syncs its new file, the last moment
# before it goes in place, another program renames its file over, or
# writes the file in place with text of its size and sets its times
# back, as cp -p, rsync -t and tar do; and where the file held the
# shim alone, as disable takes it away (thirty-second review: each was
# lost without a word, the first in 19 of 200 runs with no help).
# written_meanwhile NAME AT HOW TEXT BEFORE: the file holds BEFORE (printf
# %b), REPLACE writes TEXT at AT as HOW says; disable must leave TEXT.
written_meanwhile() {
  printf '%b' "$5" > "$pf"
  run "$1" 1 "changed while rseq-compat edited it.*run rseq-compat disable --system again" \
      env LD_PRELOAD="$replace" RSEQ_TEST_REPLACE="$4" RSEQ_TEST_REPLACE_AT="$2" \
      RSEQ_TEST_REPLACE_HOW="$3" "$cmd" disable --system &&
    is_file "$1" "$4\n" && no_litter "$1" && pass "$1"
  rm -f "$pf"
}
written_meanwhile "disable: a file put in place as the new one is synced is left as written" \
  fsync rename "$other:$other" "$other\n$shim\n"
# Of the size of "$other\n$shim\n": $other, then spaces.
same_size="$other$(printf '%*s' $((${#shim} + 1)) '')"
written_meanwhile "disable: a file written in place, its size and times kept, is left as written" \
  fsync in-place-old-times "$same_size" "$other\n$shim\n"
written_meanwhile "disable: a file written as disable removes it is left as written" \
  remove rename "$other" "$shim\n"
# Just before the swap, another program changes the file's mode, or
# removes it; or one puts its file in place then, and another its own
# right after the swap (thirty-third review: the
# mode was lost with exit 0; the removal was reported as "cannot write
# ...: No such file"; the second program's file, the newest, was swapped
# out and removed).  The first two act after the last check, as the
# swap is made.
printf '%s\n%s\n' "$other" "$shim" > "$pf"
chmod 640 "$pf"
run "disable: a file whose mode changes just before the swap is left so" 1 "changed while rseq-compat edited it" \
    env LD_PRELOAD="$replace" RSEQ_TEST_REPLACE=- RSEQ_TEST_REPLACE_AT=exchange \
    RSEQ_TEST_REPLACE_HOW=chmod "$cmd" disable --system &&
  is_file "disable: a file whose mode changes just before the swap is left so" "$other\n$shim\n" &&
  no_litter "disable: a file whose mode changes just before the swap is left so" &&
  if [ "$(stat -c %a "$pf")" = 600 ]; then
    pass "disable: a file whose mode changes just before the swap is left so"
  else
    fail "disable: a file whose mode changes just before the swap is left so" "mode $(stat -c %a "$pf"), not 600"
  fi
rm -f "$pf"
printf '%s\n%s\n' "$other" "$shim" > "$pf"
run "disable: a file removed just before the swap stays removed" 1 "changed while rseq-compat edited it" \
    env LD_PRELOAD="$replace" RSEQ_TEST_REPLACE=- RSEQ_TEST_REPLACE_AT=exchange \
    RSEQ_TEST_REPLACE_HOW=remove "$cmd" disable --system &&
  no_file "disable: a file removed just before the swap stays removed" &&
  no_litter "disable: a file removed just before the swap stays removed" &&
  pass "disable: a file removed just before the swap stays removed"
rm -f "$pf"
printf '%s\n%s\n' "$other" "$shim" > "$pf"
run "disable: of two other programs' files, the newest is left" 1 "changed while rseq-compat edited it" \
    env LD_PRELOAD="$replace" RSEQ_TEST_REPLACE="$other:$other" RSEQ_TEST_REPLACE_AT=exchange \
    RSEQ_TEST_REPLACE2="$other:$other:$other" "$cmd" disable --system &&
  is_file "disable: of two other programs' files, the newest is left" "$other:$other:$other\n" &&
  no_litter "disable: of two other programs' files, the newest is left" &&
  pass "disable: of two other programs' files, the newest is left"
rm -f "$pf"
# Between the last check and the swap, or the rename aside, another
# program writes the file in place with text of its size and sets its
# times back, or sets an attribute on it: the rename moves the change
# time as ours does, so only the text and the attributes tell
# (thirty-fifth review: each was lost with exit 0).
written_meanwhile "disable: a file written in place just before the swap, its size and times kept, is left as written" \
  exchange in-place-old-times "$same_size" "$other\n$shim\n"
# Of the size of "$shim": a comment.
shim_size="#$(printf '%*s' $((${#shim} - 1)) '')"
written_meanwhile "disable: a file written in place as disable removes it, its size and times kept, is left as written" \
  remove in-place-old-times "$shim_size" "$shim\n"
printf '%s\n%s\n' "$other" "$shim" > "$pf"
run "disable: an attribute set just before the swap is kept" 1 "changed while rseq-compat edited it" \
    env LD_PRELOAD="$replace" RSEQ_TEST_REPLACE=other RSEQ_TEST_REPLACE_AT=exchange \
    RSEQ_TEST_REPLACE_HOW=setxattr "$cmd" disable --system &&
  is_file "disable: an attribute set just before the swap is kept" "$other\n$shim\n" &&
  no_litter "disable: an attribute set just before the swap is kept" &&
  if [ "$("$xattr" get "$pf" trusted.rseq-compat-other 2>&1)" = 6f74686572 ]; then
    pass "disable: an attribute set just before the swap is kept"
  else
    fail "disable: an attribute set just before the swap is kept" "trusted.rseq-compat-other: $("$xattr" get "$pf" trusted.rseq-compat-other 2>&1)"
  fi
rm -f "$pf"
# A file of the command's own in /etc that it cannot remove is named,
# and so is one that an earlier run left (thirty-fifth review: an EIO
# left it without a word, and no later run said anything).
printf '%s\n' "$shim" > "$pf"
run "disable: a file of its own it cannot remove is named" 0 "disabled: 1 shim entry" \
    env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=unlink-aside "$cmd" disable --system &&
  no_file "disable: a file of its own it cannot remove is named" &&
  if printf '%s\n' "$out" | grep -q "warning: cannot remove /etc/ld.so.preload.rseq-compat.*Input/output error.*remove it by hand"; then
    pass "disable: a file of its own it cannot remove is named"
  else
    fail "disable: a file of its own it cannot remove is named" "no warning: $out"
  fi
run "disable: a file left by an earlier run is named" 0 "not enabled" "$cmd" disable --system &&
  if printf '%s\n' "$out" | grep -q "warning: /etc/ld.so.preload.rseq-compat.* is left from an earlier rseq-compat"; then
    pass "disable: a file left by an earlier run is named"
  else
    fail "disable: a file left by an earlier run is named" "no warning: $out"
  fi
rm -f /etc/ld.so.preload.rseq-compat.*
# Such a file's name is escaped: one made to move the terminal's cursor
# or to forge a line of the command's came out raw (thirty-sixth
# review).
esc=$(printf '\033')
: > "/etc/ld.so.preload.rseq-compat.x$esc[2K
rseq-compat: disabled: forged"
run "disable: a left file's name is escaped" 0 "not enabled" "$cmd" disable --system &&
  if printf '%s\n' "$out" | grep -q "$esc" || printf '%s\n' "$out" | grep -q '^rseq-compat: disabled: forged'; then
    fail "disable: a left file's name is escaped" "raw: $(printf '%s\n' "$out" | od -c | head -n 5)"
  elif printf '%s\n' "$out" | grep -qF 'rseq-compat.x\x1b[2K\nrseq-compat: disabled: forged is left'; then
    pass "disable: a left file's name is escaped"
  else
    fail "disable: a left file's name is escaped" "no warning that names it escaped: $out"
  fi
rm -f /etc/ld.so.preload.rseq-compat.*
# Refusals say their cause and the fix: not root, an immutable file
# (EPERM from every rename), a file something is mounted on (thirty-fifth
# review: strerror's words alone).
printf '%s\n' "$shim" > "$pf"
run "disable: not root, said plainly" 1 "cannot remove /etc/ld.so.preload: Permission denied \\(run it as root\\)" \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$cmd" disable --system &&
  is_file "disable: not root, said plainly" "$shim\n" && no_litter "disable: not root, said plainly" &&
  pass "disable: not root, said plainly"
printf '%s\n' "$shim" > "$pf"
chmod 600 "$pf"
run "disable: not root, a file it cannot read, said plainly" 1 "/etc/ld.so.preload: Permission denied \\(run it as root\\)" \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$cmd" disable --system &&
  is_file "disable: not root, a file it cannot read, said plainly" "$shim\n" &&
  no_litter "disable: not root, a file it cannot read, said plainly" &&
  pass "disable: not root, a file it cannot read, said plainly"
# Root without CAP_DAC_OVERRIDE (a container that dropped it) was told
# to run it as root (thirty-seventh review).
printf '%s\n' "$shim" > "$pf"
chmod 600 "$pf" && chown 65534 "$pf"
run "disable: root without CAP_DAC_OVERRIDE, said plainly" 1 "Permission denied \\(rseq-compat runs as root without CAP_DAC_OVERRIDE" \
    setpriv --inh-caps=-dac_override,-dac_read_search --bounding-set=-dac_override,-dac_read_search "$cmd" disable --system &&
  is_file "disable: root without CAP_DAC_OVERRIDE, said plainly" "$shim\n" &&
  no_litter "disable: root without CAP_DAC_OVERRIDE, said plainly" &&
  pass "disable: root without CAP_DAC_OVERRIDE, said plainly"
rm -f "$pf"
# A link whose target's name would move the terminal or forge a line:
# escaped (thirty-seventh review).
printf '%s\n' "$shim" > "$scratch/x$esc[2K
rseq-compat: ok"
ln -s "$scratch/x$esc[2K
rseq-compat: ok" "$pf"
run "disable: a link's target is escaped" 1 "is a symbolic link to .*x\\\\x1b\\[2K\\\\nrseq-compat: ok, which names the shim" \
    "$cmd" disable --system &&
  if printf '%s\n' "$out" | grep -q "$esc" || printf '%s\n' "$out" | grep -q '^rseq-compat: ok'; then
    fail "disable: a link's target is escaped" "raw: $(printf '%s\n' "$out" | od -c | head -n 5)"
  else
    pass "disable: a link's target is escaped"
  fi
rm -f "$pf" "$scratch/x$esc"*
printf '%s\n%s\n' "$other" "$shim" > "$pf"
run "disable: an immutable file, said plainly" 1 "Operation not permitted \\(.*immutable or append-only: lsattr" \
    env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=rename-eperm "$cmd" disable --system &&
  is_file "disable: an immutable file, said plainly" "$other\n$shim\n" &&
  no_litter "disable: an immutable file, said plainly" &&
  pass "disable: an immutable file, said plainly"
printf '%s\n%s\n' "$other" "$shim" > "$scratch/mounted"
: > "$pf"
if mount --bind "$scratch/mounted" "$pf"; then
  run "disable: a file something is mounted on, said plainly" 1 "Device or resource busy \\(something is mounted on it: findmnt" \
      "$cmd" disable --system &&
    is_file "disable: a file something is mounted on, said plainly" "$other\n$shim\n" &&
    no_litter "disable: a file something is mounted on, said plainly" &&
    pass "disable: a file something is mounted on, said plainly"
  umount "$pf"
else
  fail "disable: a file something is mounted on, said plainly" "cannot bind a file on $pf (setup)"
fi
rm -f "$pf"
# Its message lost to a full disk: said on standard error, and the
# status still says what the file holds (thirty-fifth review: nothing
# was said).
printf '%s\n%s\n' "$other" "$shim" > "$pf"
run "disable: a message lost to a full disk is said" 0 "cannot write to standard output: No space left on device" \
    sh -c 'exec "$0" disable --system > /dev/full' "$cmd" &&
  is_file "disable: a message lost to a full disk is said" "$other\n" &&
  pass "disable: a message lost to a full disk is said"
rm -f "$pf"
# /etc with no free inode: the file, which held the shim alone, goes
# (thirty-third review: taking it away made a file first, which failed,
# and the package's prerm with it).  A small tmpfs, filled, bound on
# /etc with the loader's cache, which the programs run from here may
# need to find their libraries.
small=$scratch/small
if mkdir "$small" && mount -t tmpfs -o mode=755,nr_inodes=64 tmpfs "$small"; then
  for f in ld.so.cache ld.so.conf; do [ ! -f "/etc/$f" ] || cp "/etc/$f" "$small/$f"; done
  printf '%s\n' "$shim" > "$small/ld.so.preload"
  _i=0
  while (: > "$small/fill.$_i") 2>/dev/null && [ $_i -lt 100 ]; do _i=$((_i + 1)); done
  if [ $_i -lt 100 ] && mount --bind "$small" /etc; then
    run "disable: the file goes where /etc has no inode left" 0 "it held nothing else and is removed" \
        "$cmd" disable --system &&
      no_file "disable: the file goes where /etc has no inode left" &&
      no_litter "disable: the file goes where /etc has no inode left" &&
      pass "disable: the file goes where /etc has no inode left"
    umount /etc
  else
    fail "disable: the file goes where /etc has no inode left" "cannot fill a small tmpfs and bind it on /etc (setup)"
  fi
  umount "$small"
else
  fail "disable: the file goes where /etc has no inode left" "cannot mount a small tmpfs (setup)"
fi
# A file another program removes as disable takes it away: no file names
# the shim, which is what disable is for (thirty-fourth review: exit 1,
# "another program wrote it", and the package's prerm failed).
printf '%s\n' "$shim" > "$pf"
run "disable: a file removed as disable removes it is gone, and that is done" 0 "disabled: 1 shim entry" \
    env LD_PRELOAD="$replace" RSEQ_TEST_REPLACE=- RSEQ_TEST_REPLACE_AT=remove \
    RSEQ_TEST_REPLACE_HOW=remove "$cmd" disable --system &&
  no_file "disable: a file removed as disable removes it is gone, and that is done" &&
  no_litter "disable: a file removed as disable removes it is gone, and that is done" &&
  pass "disable: a file removed as disable removes it is gone, and that is done"
rm -f "$pf"
# A signal that ends the command during the edit: it ends once the file
# is whole, leaving nothing of its own in /etc (thirty-second review:
# /etc/ld.so.preload.rseq-compat.XXXXXX was left).
printf '%s\n%s\n' "$other" "$shim" > "$pf"
env LD_PRELOAD="$replace" RSEQ_TEST_RAISE=fsync "$cmd" disable --system > "$scratch/killed" 2>&1
_st=$?
if [ $_st != 143 ]; then
  fail "disable: a kill during the edit leaves the file whole and nothing else" "exit status $_st, not 143 (SIGTERM): $(cat "$scratch/killed")"
else
  is_file "disable: a kill during the edit leaves the file whole and nothing else" "$other\n" &&
    no_litter "disable: a kill during the edit leaves the file whole and nothing else" &&
    pass "disable: a kill during the edit leaves the file whole and nothing else"
fi
rm -f "$pf"
# A default ACL on /etc gives the new file an ACL the old one did not
# have (thirtieth review).
printf '%s\n%s\n' "$other" "$shim" > "$pf"
chmod 600 "$pf"
if "$xattr" acl /etc 54340 default; then
  run "disable: no ACL from /etc's default ACL" 0 "disabled: 1 shim entry" "$cmd" disable --system &&
    if _a=$("$xattr" get "$pf" system.posix_acl_access 2>&1); then
      fail "disable: no ACL from /etc's default ACL" "the new file has the ACL $_a"
    elif [ "$(stat -c %a "$pf")" != 600 ]; then
      fail "disable: no ACL from /etc's default ACL" "mode $(stat -c %a "$pf"), not 600"
    else
      pass "disable: no ACL from /etc's default ACL"
    fi
  "$xattr" rm /etc system.posix_acl_default
else
  fail "disable: no ACL from /etc's default ACL" "cannot give /etc a default ACL (setup)"
fi
rm -f "$pf"

# The file as the loader reads it, the loader itself the judge: the
# names it fails to preload, from a program it starts now (every entry
# below but OTHER names a missing file, so each one it reads is named).
# A '#' starts a comment to the end of its line, but glibc's loader
# looks for each next '#' only within a shrinking stretch from the
# start of the file, so words after a later '#' are entries to it.
view() {
  /bin/true 2>&1 | sed -n "s|^ERROR: ld\.so: object '\(.*\)' from /etc/ld\.so\.preload.*|\1|p" |
    tr '\n' ' '
}
# case NAME STATUS PATTERN TEXT WANT VIEW_BEFORE VIEW_AFTER: the file
# holds TEXT (printf %b); disable exits STATUS saying PATTERN, leaves
# exactly WANT, and the loader reads VIEW_BEFORE before, VIEW_AFTER
# after.
case_disable() {
  printf '%b' "$4" > "$pf"
  if [ "$(view)" != "$6" ]; then
    fail "$1" "the loader reads '$(view)' in the file before, not '$6'"
    return 1
  fi
  run "$1" "$2" "$3" "$cmd" disable --system && is_file "$1" "$5" &&
    no_litter "$1" || return 1
  if [ "$(view)" != "$7" ]; then
    fail "$1" "the loader reads '$(view)' in the file after, not '$7'"
    return 1
  fi
  pass "$1"
}
m=/nonexistent
case_disable "disable: a comment naming the shim is no entry, and stays" 0 "not enabled" \
  "#/opt/old/$soname $m/libSegFault.so (disabled)\n$m/a.so\n" \
  "#/opt/old/$soname $m/libSegFault.so (disabled)\n$m/a.so\n" "$m/a.so " "$m/a.so "
case_disable "disable: an entry followed directly by a comment" 0 "disabled: 1 shim entry" \
  "$m/a.so\n/opt/x/$soname#added by hand\n" "$m/a.so\n#added by hand\n" \
  "$m/a.so /opt/x/$soname " "$m/a.so "
case_disable "disable: separators and comments kept byte for byte" 0 "disabled: 2 shim entries" \
  "#c\n$m/a.so:/opt/y/$soname\t$m/b.so # keep: note\n  $m/c.so /lib/x/$soname  # end\n" \
  "#c\n$m/a.so:$m/b.so # keep: note\n  $m/c.so  # end\n" \
  "$m/a.so /opt/y/$soname $m/b.so $m/c.so /lib/x/$soname # end " \
  "$m/a.so $m/b.so $m/c.so # end "
case_disable "disable: a last line without a newline is not rewritten" 0 "not enabled" \
  "$m/a.so\n$m/b.so" "$m/a.so\n$m/b.so" "$m/a.so $m/b.so " "$m/a.so $m/b.so "
case_disable "disable: the shim on a last line without a newline" 0 "disabled: 1 shim entry" \
  "$m/a.so\n$m/b.so /usr/lib/librseq-compat.so" "$m/a.so\n$m/b.so" \
  "$m/a.so $m/b.so /usr/lib/librseq-compat.so " "$m/a.so $m/b.so "
# The loader reads the words "#", "comment" and "b" here (its window
# ends before the second '#'); taking the first line out would make it
# read only "comment b": the entry is blanked in place, and every other
# word stays an entry (seventy-sixth review: the "#" was let go).
case_disable "disable: comments the loader half reads" 0 "disabled: 1 shim entry" \
  "/opt/z/$soname\n# comment a\n# comment b\n" "$(printf '%*s' 26 '')\n# comment a\n# comment b\n" \
  "/opt/z/$soname # comment b " "# comment b "
# A library the loader preloads from what looks like a comment (past
# its window) stays preloaded: taking the shim's line out would have
# moved the window over it (seventy-sixth review: "disabled", and the
# library was gone from every process).
case_disable "disable: a library the loader reads after a later '#' stays" 0 "disabled: 1 shim entry" \
  "/x/$soname\n$m/a.so #\n# $m/foo.so\n$m/bar.so\n" \
  "$(printf '%*s' 22 '')\n$m/a.so #\n# $m/foo.so\n$m/bar.so\n" \
  "/x/$soname $m/a.so # $m/foo.so $m/bar.so " "$m/a.so # $m/foo.so $m/bar.so "
# Taking the last line out would move the loader's window past the
# second comment's '#': the entry is blanked in place instead.
case_disable "disable: blanks the entry where taking it out moves a comment" 0 "disabled: 1 shim entry" \
  "# preload list\n/n/a.so\n# second lib\n/n/b.so\n/x/$soname\n" \
  "# preload list\n/n/a.so\n# second lib\n/n/b.so\n                      \n" \
  "/n/a.so /n/b.so /x/$soname " "/n/a.so /n/b.so "
rm -f "$pf"

# Any user can open /etc and hold a lock on it: that must not stall a
# disable, nor the package's removal, which runs one (review: they
# waited for as long as the lock was held).
# -o: flock holds the lock itself, and killing it lets it go.
setpriv --reuid=65534 --regid=65534 --clear-groups flock -o /etc sleep 120 &
lockpid=$!
i=0
while flock -n /etc true 2>/dev/null && [ $i -lt 100 ]; do
  sleep 0.1
  i=$((i + 1))
done
printf '%s\n' "$other" > "$pf"
if flock -n /etc true 2>/dev/null; then
  fail "disable: another user's lock on /etc does not stall it" "nobody's flock on /etc was not taken"
elif run "disable: another user's lock on /etc does not stall it" 0 "not enabled" \
    timeout 20 "$cmd" disable --system; then
  is_file "disable: another user's lock on /etc does not stall it" "$other\n" &&
    pass "disable: another user's lock on /etc does not stall it"
fi
kill "$lockpid" 2>/dev/null
wait "$lockpid" 2>/dev/null
rm -f "$pf"

# The time limit (bounded.c), on something that holds the command and
# that a test can end: root's lock.  Past the limit, the command says
# what it waited for and that nothing was changed; its child, killed,
# changes nothing once the lock is let go.
"$cmd" disable --system > /dev/null 2>&1
n="disable: root's lock held past the time limit, given up, nothing changed then or later"
printf '%s\n' "$shim" > "$pf"
flock -o /run/rseq-compat.lock sleep 6 &
lockpid=$!
sleep 0.5
t0=$(date +%s)
if run "$n" 1 "rseq-compat: disable --system: gave up after 2 s while waiting for the lock on /run/rseq-compat.lock \(or on /etc where it cannot be made\), which another process holds: lslocks names it; nothing was changed \(process [0-9]+, killed; " \
    env RSEQ_COMPAT_SYSTEM_TIMEOUT=2 timeout 20 "$cmd" disable --system; then
  t1=$(date +%s)
  wait "$lockpid"
  sleep 1
  if [ $((t1 - t0)) -gt 5 ]; then
    fail "$n" "took $((t1 - t0)) s, not about 2"
  else
    is_file "$n" "$shim\n" && pass "$n"
  fi
fi
kill "$lockpid" 2>/dev/null; wait "$lockpid" 2>/dev/null
# The command killed alone (kill PID, not its process group) while its
# child waits: the child asks before it changes anything, and ends
# (bounded_gate).
n="disable: the command killed alone while its child waits for the lock, nothing changed once the lock is let go"
printf '%s\n' "$shim" > "$pf"
flock -o /run/rseq-compat.lock sleep 3 &
lockpid=$!
sleep 0.5
"$cmd" disable --system > "$scratch/alone.out" 2>&1 &
epid=$!
sleep 1
kid=$(kids "$epid")
kill -9 "$epid"
wait "$epid" 2>/dev/null
if [ -z "$kid" ]; then
  fail "$n" "setup: the command has no child while it waits for the lock"
else
  wait "$lockpid"
  _i=0
  while alive "$kid" && [ $_i -lt 50 ]; do sleep 0.1; _i=$((_i + 1)); done
  if alive "$kid"; then
    fail "$n" "the child did not end once the lock was let go"
  else
    is_file "$n" "$shim\n" && pass "$n"
  fi
fi
rm -f "$pf"
for v in abc 0 86401 "" "5 "; do
  n="disable: RSEQ_COMPAT_SYSTEM_TIMEOUT='$v' refused, saying why"
  printf '%s\n' "$shim" > "$pf"
  run "$n" 1 "rseq-compat: disable --system: RSEQ_COMPAT_SYSTEM_TIMEOUT is '$v', not a whole number of seconds from 1 to 86400: set it to one, or unset it for 120" \
      env RSEQ_COMPAT_SYSTEM_TIMEOUT="$v" "$cmd" disable --system &&
    is_file "$n" "$shim\n" && pass "$n"
done
rm -f "$pf"
# disable goes on without a child (a package's removal), without a
# limit, saying so (the 128th review's 2).
n="disable: no child process can be made, done without a time limit, saying so"
printf '%s\n' "$shim" > "$pf"
run "$n" 0 "rseq-compat: disable --system: warning: cannot make a child process for the work \(Operation not permitted\), so it runs without a time limit" \
    timeout 60 "$sysrefuse" fork low "$cmd" disable --system &&
  no_file "$n" && pass "$n"
rm -f "$pf"
# A caller that ignores SIGCHLD (the 129th review's F2: the work's
# status was lost, and a kill during the edit gave 1 and words, not 143).
n="disable: a kill during the edit, SIGCHLD ignored by its caller, ends it by the signal, silently"
printf '%s\n%s\n' "$other" "$shim" > "$pf"
# perl: dash's trap leaves SIGCHLD as it is.
perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or exit 125' env LD_PRELOAD="$replace" \
  RSEQ_TEST_RAISE=fsync "$cmd" disable --system > "$scratch/killed" 2>&1
_st=$?
if [ $_st != 143 ]; then
  fail "$n" "exit status $_st, not 143 (SIGTERM): $(cat "$scratch/killed")"
elif grep -q 'rseq-compat' "$scratch/killed"; then
  fail "$n" "words: $(cat "$scratch/killed")"
else
  is_file "$n" "$other\n" && no_litter "$n" && pass "$n"
fi
rm -f "$pf"
# Too few descriptors for the pipes: the work runs here, as before,
# saying why it has no limit (F3: enable refused, naming ENOTTY).
n="disable: too few descriptors for the pipes to its child, done without a time limit, saying so"
printf '%s\n' "$shim" > "$pf"
# Output and error apart: four pipes, fds 3-10.
fewfds "$cmd" disable --system > "$scratch/o1" 2> "$scratch/o2"
_st=$?
if [ $_st != 0 ]; then
  fail "$n" "exit status $_st, not 0: $(cat "$scratch/o1" "$scratch/o2")"
elif ! grep -q "^rseq-compat: disable --system: warning: cannot make the pipes to a child process for the work (Too many open files), so it runs without a time limit" "$scratch/o2" ||
     ! grep -q "^rseq-compat: disabled: 1 shim entry" "$scratch/o1"; then
  fail "$n" "words: $(cat "$scratch/o1" "$scratch/o2")"
else
  no_file "$n" && pass "$n"
fi
rm -f "$pf"
fd_ladder "disable: fewer descriptors still, done or refused naming the want, no word on a file system it could not look at" \
  disable 'printf "%s\\n" "$shim" > "$pf"' "^rseq-compat: disabled: 1 shim entry"
# Without statx (Linux before 4.11, a container's filter) a file's
# mount comes from /proc/self/fdinfo, whose read wants a descriptor too
# (the 143rd review's 2: "/etc is on a FUSE file system").
inner="$sysrefuse statx low"
fd_ladder "disable: fewer descriptors still, statx refused, done or refused naming the want, no word on a file system it could not look at" \
  disable 'printf "%s\\n" "$shim" > "$pf"' "^rseq-compat: disabled: 1 shim entry"
# poll refused (an allowlist of ppoll alone): the command waits with
# ppoll (F4: it gave up at once, blaming a file system).
n="disable: poll refused, done as without it"
printf '%s\n' "$shim" > "$pf"
run "$n" 0 "^rseq-compat: disabled: 1 shim entry" \
    timeout 60 "$sysrefuse" poll low "$cmd" disable --system &&
  no_file "$n" && pass "$n"
rm -f "$pf"
# Stopped (^Z) past the limit and continued (fg), the command has its
# time again (the 128th review's 6: the lock was blamed).
n="disable: stopped past the time limit and continued, not given up"
printf '%s\n' "$shim" > "$pf"
flock -o /run/rseq-compat.lock sleep 3 &
lockpid=$!
sleep 0.3
env RSEQ_COMPAT_SYSTEM_TIMEOUT=4 "$cmd" disable --system > "$scratch/stop.out" 2>&1 &
sp=$!
sleep 0.5
# As ^Z stops the job: the command and its child (dash's kill takes no
# process group).
group="$sp $(kids "$sp")"
# shellcheck disable=SC2086
kill -STOP $group
sleep 0.2
_state=$(state_of "$sp")
sleep 6
# shellcheck disable=SC2086
kill -CONT $group
wait "$sp"
_st=$?
wait "$lockpid" 2>/dev/null
if [ "$_state" != T ] || [ "$group" = "$sp " ]; then
  fail "$n" "setup: the command (state $_state) or its child ($group) was not stopped"
elif [ $_st != 0 ]; then
  fail "$n" "exit status $_st, not 0: $(cat "$scratch/stop.out")"
else
  no_file "$n" && pass "$n"
fi
rm -f "$pf"
# Its child alone stopped: the words say so, not that a file system or
# the lock holds it.
n="disable: its child stopped past the time limit, given up, saying so"
printf '%s\n' "$shim" > "$pf"
flock -o /run/rseq-compat.lock sleep 4 &
lockpid=$!
sleep 0.3
env RSEQ_COMPAT_SYSTEM_TIMEOUT=2 "$cmd" disable --system > "$scratch/stop.out" 2>&1 &
ep=$!
sleep 0.5
kid=$(kids "$ep")
[ -n "$kid" ] && kill -STOP $kid
wait "$ep"
_st=$?
if [ $_st != 1 ]; then
  fail "$n" "exit status $_st, not 1: $(cat "$scratch/stop.out")"
elif ! grep -Eq "rseq-compat: disable --system: gave up after 2 s while [^;]*, as it was stopped \(SIGSTOP, or a debugger\); nothing was changed" "$scratch/stop.out"; then
  fail "$n" "the words do not say it was stopped: $(cat "$scratch/stop.out")"
else
  is_file "$n" "$shim\n" && pass "$n"
fi
kill "$lockpid" 2>/dev/null; wait "$lockpid" 2>/dev/null
rm -f "$pf"

# A /run that cannot take the lock file (read-only here): /etc is
# locked instead (review: every enable and disable failed, the
# package's removal with them).
if mount -t tmpfs -o ro tmpfs /run; then
  printf '%s\n' "$other" > "$pf"
  run "disable: a read-only /run" 0 "not enabled" \
      timeout 20 "$cmd" disable --system &&
    is_file "disable: a read-only /run" "$other\n" &&
    pass "disable: a read-only /run"
  umount /run
else
  fail "disable: a read-only /run" "cannot mount a read-only tmpfs on /run"
fi
rm -f "$pf"

# disable warns of an /etc that others than root may write, as the
# manual says, and still takes the shim out (113th review,
# L5: it said nothing); of a file others may write that it
# removed, it says so, and gives no commands for a file that is gone
# (N2: "chown 0:0 /etc/ld.so.preload; chmod go-w ...").
n="disable: /etc writable by others than root, done with a warning"
etcmode=$(stat -c %a /etc)
printf '%s\n%s\n' "$shim" "$other" > "$pf"
chmod 644 "$pf"
chmod g+w /etc
run "$n" 0 "disabled: 1 shim entry" "$cmd" disable --system &&
  if printf '%s\n' "$out" | grep -q "warning: /etc is writable by others than root (owner 0, mode 775).*(chown 0:0 /etc; chmod go-w /etc)$"; then
    is_file "$n" "$other\n" && pass "$n"
  else
    fail "$n" "no warning of /etc: $out"
  fi
chmod "$etcmode" /etc
rm -f "$pf"
n="disable: a file others may write that it removes, said so"
printf '%s\n' "$shim" > "$pf"
chmod 666 "$pf"
run "$n" 0 "it held nothing else and is removed" "$cmd" disable --system &&
  no_file "$n" &&
  if ! printf '%s\n' "$out" | grep -q "warning: $pf was writable by others than root: .*is removed, so it needs no fix"; then
    fail "$n" "no word of the removed file's mode: $out"
  elif printf '%s\n' "$out" | grep -q "chmod go-w $pf"; then
    fail "$n" "advice for the removed file: $out"
  else
    pass "$n"
  fi
rm -f "$pf"

case $expect in
  refuse-abi|refuse-musl)
    if [ "$expect" = refuse-abi ]; then
      pat="registers rseq itself"
    else
      pat="built for musl"
    fi
    run "enable: refused" 1 "$pat" "$cmd" enable --system &&
      no_file "enable: refused" && no_litter "enable: refused" && pass "enable: refused"
    echo done
    exit 0
    ;;
esac

ns_private_libdirs "$scratch" "$libdir" "$preloaddir"
run "enable: not installed" 1 "not installed at $preloaddir/$glib/$soname" \
    "$cmd" enable --system && no_file "enable: not installed" &&
  pass "enable: not installed"

ns_install_shim "$shim" "$layout" "$libdir" "$preloaddir" "$names"

# Whoever could change the file or a directory above it could put code
# into every process.
chmod g+w "$libdir"
run "enable: group-writable directory" 1 "$libdir( \([^)]*\))? is writable by others than root" \
    "$cmd" enable --system && no_file "enable: group-writable directory" &&
  pass "enable: group-writable directory"
chmod g-w "$libdir"
chown 65534 "$libdir/$soname"
run "enable: file not root's" 1 "$libdir/$soname( \([^)]*\))? is not owned by root" \
    "$cmd" enable --system && no_file "enable: file not root's" &&
  pass "enable: file not root's"
chown 0 "$libdir/$soname"

# The shim's path is walked link by link, as /etc's is: a directory
# that holds a link on the way to the library, others may write, and
# they could point the link at a library of theirs (114th review, S3:
# only the directories as written and the end realpath found were
# checked, and enable went on).  A directory of mode 777 in /etc (the
# overlay, root's, with every directory above it) holds a link to
# LIBDIR, which each layout link now goes through.
n="enable: the shim reached through a link in a directory others may write, refused"
mkdir -m 777 /etc/rseq-pub && ln -s "$libdir" /etc/rseq-pub/lib &&
  for l in $names; do ln -sfn "/etc/rseq-pub/lib/$soname" "$preloaddir/$l/$soname" || break; done &&
  run "$n" 1 "/etc/rseq-pub \(it holds a link met on the way to what $preloaddir/.*/$soname resolves to, $libdir/$soname\) is writable by others than root \(owner 0, mode 777\): whoever may change it can replace the shim .*\(chown 0:0 /etc/rseq-pub; chmod go-w /etc/rseq-pub\), then enable again" \
      "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf /etc/rseq-pub "$pf"
ns_install_shim "$shim" "$layout" "$libdir" "$preloaddir" "$names"

# Every directory the entry's $LIB may name, and the shim's file in
# each, whatever it links to: another glibc, a foreign architecture's
# loader, expands $LIB to its own name, not to this build's, the only
# one checked before (114th review, S4: a lib64/ of mode 777 passed).
# s4_case NAME SUB PATTERN SETUP: SETUP (shell) spoils $preloaddir/SUB,
# made for the case if there is none; enable must refuse, saying
# PATTERN.
s4_case() {
  _made=
  [ -d "$preloaddir/$2" ] || { mkdir -p "$preloaddir/$2" && _made=1; }
  _mode=$(stat -c %a "$preloaddir/$2")
  if (cd "$preloaddir/$2" && eval "$4"); then
    run "$1" 1 "$3" "$cmd" enable --system && no_file "$1" && pass "$1"
  else
    fail "$1" "setup: $4"
  fi
  rm -f "$pf"
  if [ -n "$_made" ]; then rm -rf "$preloaddir/$2"; else chmod "$_mode" "$preloaddir/$2"; fi
}
fix_re=": whoever may change it can replace the shim .*then enable again"
s4_case "enable: a \$LIB directory others may write (lib64), refused" lib64 \
  "$preloaddir/lib64 is writable by others than root \(owner 0, mode 777\)$fix_re" \
  'chmod 777 .'
s4_case "enable: a \$LIB directory others may write (\$LIB), refused" '$LIB' \
  "$preloaddir/\\\$LIB is writable by others than root \(owner 0, mode 777\)$fix_re" \
  'chmod 777 .'
s4_case "enable: the shim's file in another \$LIB directory not root's (lib64), refused" lib64 \
  "$preloaddir/lib64/$soname is not owned by root \(owner 65534, mode 755\)$fix_re" \
  'cp "$shim" "$soname" && chmod 755 "$soname" && chown 65534 "$soname"'
s4_case "enable: the shim's file in another \$LIB directory, through a link, others may write (\$LIB), refused" '$LIB' \
  "$preloaddir/\\\$LIB/other.so \(what $preloaddir/\\\$LIB/$soname resolves to\) is writable by others than root \(owner 0, mode 666\)$fix_re" \
  'cp "$shim" other.so && chmod 666 other.so && ln -s other.so "$soname"'

# A link to a directory in the preload tree is gone into, as the
# loader goes into it: with lib -> a directory elsewhere, a directory
# below that others may write held the shim every process loads, and
# enable went on (review finding R1: only the link and its own shim's
# file were checked).  The build's own $LIB where it has two names
# (lib/x86_64-linux-gnu), else one made for the case (alt/sub).
n="enable: a \$LIB directory others may write, under a link to a directory, refused"
case $glib in */*) top=${glib%%/*} sub=${glib#*/} ;; *) top=alt sub=sub ;; esac
mkdir -p /etc/rseq-x/"$sub" &&
  if [ -d "$preloaddir/$top" ]; then
    cp -a "$preloaddir/$top/$sub/." /etc/rseq-x/"$sub"/ &&
      ln -sfn "$libdir/$soname" /etc/rseq-x/"$sub/$soname" &&
      mv "$preloaddir/$top" "$preloaddir/$top.real"
  else
    cp "$shim" /etc/rseq-x/"$sub/$soname"
  fi &&
  chmod 777 /etc/rseq-x/"$sub" && ln -s /etc/rseq-x "$preloaddir/$top" &&
  run "$n" 1 "/etc/rseq-x/$sub( \([^)]*\))? is writable by others than root \(owner 0, mode 777\)$fix_re" \
      "$cmd" enable --system && no_file "$n" && pass "$n"
rm -f "$preloaddir/$top" "$pf"
[ -d "$preloaddir/$top.real" ] && mv "$preloaddir/$top.real" "$preloaddir/$top"
rm -rf /etc/rseq-x
# A loop of links is walked as deep as the loader looks, no deeper, and
# all it holds is root's alone: accepted (the 117th review's F1 and F2:
# a walk to depth 8, with 40 links in all, refused such trees as loops).
n="enable: a loop of links in the preload tree, walked to the loader's depth, accepted"
ln -s "$preloaddir" "$preloaddir/up1" && ln -s . "$preloaddir/up2" &&
run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
timeout 60 "$cmd" disable --system > /dev/null 2>&1
rm -f "$preloaddir/up1" "$preloaddir/up2" "$pf"
# More than 40 links, no loop: 41 names for the build's own $LIB.
n="enable: 41 links to the \$LIB directory, accepted"
i=0
while [ $i -lt 41 ]; do i=$((i + 1)); ln -s "$glib" "$preloaddir/alias$i" || break; done
run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
timeout 60 "$cmd" disable --system > /dev/null 2>&1
rm -f "$preloaddir"/alias* "$pf"
# Below a $LIB and its file, no loader looks: a directory others may
# write there does not refuse enable.
n="enable: a directory others may write below the loader's depth, accepted"
mkdir -p /etc/rseq-d/"$glib"/perl/5/tmp && chmod 1777 /etc/rseq-d/"$glib"/perl/5/tmp &&
  cp "$shim" /etc/rseq-d/"$glib/$soname" && ln -s /etc/rseq-d "$preloaddir/deep" &&
  run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
timeout 60 "$cmd" disable --system > /dev/null 2>&1
rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
# At a $LIB's end a loader opens the shim's file and nothing else: what
# lies beside that file there does not refuse enable (the 118th
# review's 1-3: a tmp of mode 1777, a link to a directory whose shim's
# file others may write, a dangling link were refused).  deep/sub/NAME
# is the third name, as lib/x86_64-linux-gnu/librseq-compat.so.1.
beside_case() {
  n="enable: beside the shim's file at a \$LIB's end, $1, accepted"
  mkdir -p /etc/rseq-d/sub /etc/rseq-o && ln -s /etc/rseq-d "$preloaddir/deep" &&
    (cd /etc/rseq-d/sub && eval "$2") &&
    run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
  timeout 60 "$cmd" disable --system > /dev/null 2>&1
  rm -rf "$preloaddir/deep" /etc/rseq-d /etc/rseq-o "$pf"
}
beside_case "a directory others may write" 'mkdir -m 1777 tmp'
beside_case "a link to a directory whose shim's file others may write" \
  'cp "$shim" /etc/rseq-o/"$soname" && chmod 666 /etc/rseq-o/"$soname" && ln -s /etc/rseq-o other'
beside_case "a link to nothing" 'ln -s /nonexistent/rseq-compat dangling'
# ... but the shim's file there is walked: another loader's $LIB of two
# names may lead to it (a walk two names deep would let this pass).
n="enable: the shim's file at a \$LIB's end not root's, refused"
mkdir -p /etc/rseq-d/sub && cp "$shim" /etc/rseq-d/sub/"$soname" &&
  chown 65534 /etc/rseq-d/sub/"$soname" && ln -s /etc/rseq-d "$preloaddir/deep" &&
  run "$n" 1 "/etc/rseq-d/sub/$soname \(what $preloaddir/deep/sub/$soname resolves to\) is not owned by root \(owner 65534, mode [0-7]*\)$fix_re" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
# A link in the preload tree that leads nowhere is refused, with words
# that say why: what it would name may be made later for a user, in a
# directory root's alone (logind's /run/user/UID): the 121st review's
# N1 against the 120th's F2 fix, which passed such links (before it,
# they were refused, saying to install the shim at a system path).
nowhere_re="a link in the preload tree that leads nowhere may come to lead to what a user makes later \\(as /run/user/UID or /home/NAME\\), which a loader whose .LIB leads there would load: take it out or point it at what is there, root's alone, then enable again"
n="enable: a link to nothing beside a \$LIB, refused, saying why"
ln -s /nonexistent/rseq-compat "$preloaddir/dangling" &&
  run "$n" 1 "/nonexistent: No such file or directory \(on the way to what $preloaddir/dangling resolves to\); $nowhere_re" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -f "$preloaddir/dangling" "$pf"
n="enable: the shim's file at another \$LIB a link to a user's directory not made yet, refused"
mkdir -p /etc/rseq-d/sub /etc/rseq-u && ln -s /etc/rseq-u/1001/"$soname" /etc/rseq-d/sub/"$soname" &&
  ln -s /etc/rseq-d "$preloaddir/deep" &&
  run "$n" 1 "/etc/rseq-u/1001: No such file or directory \(on the way to what $preloaddir/deep/sub/$soname resolves to\); $nowhere_re" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/deep" /etc/rseq-d /etc/rseq-u "$pf"
n="enable: a link to nothing in a directory others may write, in the preload tree, refused"
mkdir -m 777 /etc/rseq-pub && ln -s /etc/rseq-pub/lib "$preloaddir/publib" &&
  run "$n" 1 "/etc/rseq-pub/lib: No such file or directory \(on the way to what $preloaddir/publib resolves to\); /etc/rseq-pub, met on the way, is writable by others than root \(owner 0, mode 777\)$fix_re" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/publib" /etc/rseq-pub "$pf"
# The shim's file where a loader opens it must be one: a FIFO there
# holds every program of that $LIB in open (the 120th review's F1: it
# passed); its type is said before whose it is (the 121st's N2: a link
# to /dev/null was refused with "chown 0:0 /dev/null; chmod go-w").
n="enable: a FIFO where another \$LIB's shim's file would be, refused"
mkdir -p /etc/rseq-d/sub && mkfifo -m 644 /etc/rseq-d/sub/"$soname" &&
  ln -s /etc/rseq-d "$preloaddir/deep" &&
  run "$n" 1 "$preloaddir/deep/sub/$soname is \(or leads to\) a FIFO, not a regular file: a loader whose .LIB leads there would wait on it in every program it starts; take it out, then enable again" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
n="enable: a link to /dev/null where another \$LIB's shim's file would be, refused as no regular file"
mkdir -p /etc/rseq-d/sub && ln -s /dev/null /etc/rseq-d/sub/"$soname" &&
  ln -s /etc/rseq-d "$preloaddir/deep" &&
  run "$n" 1 "$preloaddir/deep/sub/$soname is \(or leads to\) a device or socket, not a regular file: a loader whose .LIB leads there would fail to load it in every program it starts; take it out, then enable again" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
# ... and a shared object: an empty file or a script there makes every
# program of that $LIB print the loader's error (the 122nd review's 3:
# an empty file passed).
# loader_refuses NAME FILE [nobody [GID]]: the oracle, this system's
# loader, will not preload FILE (as the user nobody where a third
# argument is given, in group GID where a fourth is).
loader_refuses() {
  _as=
  [ $# -lt 3 ] || _as="setpriv --reuid=65534 --regid=${4:-65534} --clear-groups"
  _o=$($_as env LD_PRELOAD="$2" /bin/true 2>&1)
  case $_o in
    *"cannot be preloaded"*) return 0 ;;
    *) fail "$1" "the loader itself preloads $2${_as:+ as nobody} (it said '$_o')"; return 1 ;;
  esac
}
notso_case() {
  n="enable: $1 where another \$LIB's shim's file would be, refused"
  mkdir -p /etc/rseq-d/sub && (cd /etc/rseq-d/sub && eval "$2") &&
    chmod 644 /etc/rseq-d/sub/"$soname" && ln -s /etc/rseq-d "$preloaddir/deep" &&
    loader_refuses "$n" /etc/rseq-d/sub/"$soname" &&
    run "$n" 1 "$preloaddir/deep/sub/$soname is \(or leads to\) $3, not a shared object: a loader whose .LIB leads there would fail to load it in every program it starts; take it out, then enable again" \
        timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
  rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
}
notso_case "an empty file" ': > "$soname"' empty
notso_case "a script" 'printf "#!/bin/sh\\nexit 0\\n" > "$soname"' "no ELF file"
notso_case "three bytes of an ELF header" 'printf "\\177EL" > "$soname"' "no ELF file"
# A link in the tree through procfs is refused for what it is, not
# with the words for a link that leads nowhere (the 122nd review's 1).
n="enable: a link through procfs beside a \$LIB, refused with its own words"
ln -s /proc/self/cwd "$preloaddir/pc" &&
  run "$n" 1 "$preloaddir/pc is a symbolic link to /proc/self/cwd, resolved through procfs .*; a link in the preload tree must lead to what root alone may change: take it out or point it there, then enable again" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -f "$preloaddir/pc" "$pf"
# What glibc's loader checks of an ELF file before it maps one, so that
# a file it refuses is refused here too (the 123rd review's 3: a PIE,
# 18 bytes of a header, a byte order of 0 passed; 4: no row reached
# e_type or the big-endian branch).  The system's loader is the oracle
# (loader_refuses).
notso_case "18 bytes of an ELF header" 'head -c 18 "$shim" > "$soname"' \
  "a truncated ELF file"
notso_case "an ELF file cut short in its program headers" \
  'head -c 100 "$shim" > "$soname"' "a truncated ELF file"
notso_case "an ELF file of byte order 0" \
  'cp "$shim" "$soname" && printf "\\000" | dd of="$soname" bs=1 seek=5 conv=notrunc 2>/dev/null' \
  "an ELF file of a class, byte order or version no loader reads"
notso_case "an executable" 'cp "$exe" "$soname"' "an ELF executable"
notso_case "a position-independent executable" 'cp "$pie" "$soname"' \
  "a position-independent executable \\(no glibc since 2.30 loads one as a library\\)"
# be_elf PIE: a big-endian 64-bit ET_DYN (s390x) of two program
# headers, PT_LOAD of the whole file and PT_DYNAMIC, whose first entry
# is DT_FLAGS_1: DF_1_PIE where PIE is 1, else 0.
z() { _i=0; while [ $_i -lt "$1" ]; do printf '\000'; _i=$((_i + 1)); done; }
be_elf() {
  printf '\177ELF\002\002\001'; z 9
  printf '\000\003\000\026\000\000\000\001'; z 8
  z 7; printf '\100'; z 12
  printf '\000\100\000\070\000\002\000\100'; z 4
  printf '\000\000\000\001\000\000\000\006'
  z 24; z 7; printf '\320'; z 7; printf '\320'; z 6; printf '\020\000'
  printf '\000\000\000\002\000\000\000\006'
  for _v in 260 260 260 040 040 010; do z 7; printf "\\$_v"; done
  printf '\000\000\000\000\157\377\377\373\000\000\000\000'
  if [ "$1" = 1 ]; then printf '\010'; else printf '\000'; fi; z 3
  z 16
}
notso_case "a big-endian position-independent executable" 'be_elf 1 > "$soname"' \
  "a position-independent executable \\(no glibc since 2.30 loads one as a library\\)"
# ... and what glibc's loader checks besides (the 124th review's 5): a
# dynamic section with no bytes in the file, an OS ABI or ABI version
# it does not know, e_ident's padding, loadable segments, and the
# dynamic section found at its address, not its offset.
notso_case "a debug-only file (objcopy --only-keep-debug)" \
  'objcopy --only-keep-debug "$shim" "$soname"' "an ELF file with no dynamic section"
notso_case "an ELF file of OS ABI 9" \
  'cp "$shim" "$soname" && printf "\\011" | dd of="$soname" bs=1 seek=7 conv=notrunc 2>/dev/null' \
  "an ELF file of an OS ABI or ABI version glibc's loader refuses"
notso_case "an ELF file of ABI version 5" \
  'cp "$shim" "$soname" && printf "\\005" | dd of="$soname" bs=1 seek=8 conv=notrunc 2>/dev/null' \
  "an ELF file of an OS ABI or ABI version glibc's loader refuses"
notso_case "an ELF file with nonzero padding in e_ident" \
  'cp "$shim" "$soname" && printf "\\001" | dd of="$soname" bs=1 seek=12 conv=notrunc 2>/dev/null' \
  "an ELF file with nonzero padding in e_ident, which glibc's loader refuses"
notso_case "an ELF file with no loadable segment" \
  'cp "$shim" "$soname" && "$elf" noload "$soname"' \
  "an ELF file with no loadable segment"
notso_case "a position-independent executable whose dynamic section's offset is 0" \
  'cp "$pie" "$soname" && "$elf" dynoff "$soname"' \
  "a position-independent executable \\(no glibc since 2.30 loads one as a library\\)"
# ... while another architecture's shim, of either byte order, is that
# loader's to take.
acc_case() {
  n="enable: $1 where another \$LIB's shim's file would be, accepted"
  mkdir -p /etc/rseq-d/sub && (cd /etc/rseq-d/sub && eval "$2") &&
    chmod 644 /etc/rseq-d/sub/"$soname" && ln -s /etc/rseq-d "$preloaddir/deep" &&
    run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
  timeout 60 "$cmd" disable --system > /dev/null 2>&1
  rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
}
acc_case "an arm64 shim" \
  'cp "$shim" "$soname" && printf "\\267\\000" | dd of="$soname" bs=1 seek=18 conv=notrunc 2>/dev/null'
acc_case "a big-endian shared object" 'be_elf 0 > "$soname"'
# A link through procfs as the shim's file is refused for that, not
# called a directory (the 123rd review's 5: the type of what
# /proc/self/cwd led to was told first).
n="enable: a link through procfs where another \$LIB's shim's file would be, refused with its own words"
mkdir -p /etc/rseq-d/sub && ln -s /proc/self/cwd /etc/rseq-d/sub/"$soname" &&
  ln -s /etc/rseq-d "$preloaddir/deep" &&
  run "$n" 1 "/etc/rseq-d/sub/$soname \(on the way to what $preloaddir/deep/sub/$soname resolves to\) is a symbolic link to /proc/self/cwd, resolved through procfs" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
# A loop of links there gets the link's fix, with no word of /proc (the
# 123rd review's 5: the tree's fix spoke of links into /proc for it).
n="enable: a loop of links where another \$LIB's shim's file would be, refused with the link's fix"
mkdir -p /etc/rseq-d/sub && ln -s "$soname" /etc/rseq-d/sub/"$soname" &&
  ln -s /etc/rseq-d "$preloaddir/deep" &&
  run "$n" 1 "/etc/rseq-d/sub/$soname: Too many levels of symbolic links \(on the way to what $preloaddir/deep/sub/$soname resolves to\); a link in the preload tree must lead to what root alone may change: take it out or point it there, then enable again\$" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
# The loader opens the shim in every user's programs: one that not all
# may read, or reach, makes each of theirs print its error (the 123rd
# review's 3: check_loads runs as root, and passed them).  The oracle:
# the loader as nobody.
n="enable: another \$LIB's shim of mode 600, refused"
mkdir -p /etc/rseq-d/sub && cp "$shim" /etc/rseq-d/sub/"$soname" &&
  chmod 600 /etc/rseq-d/sub/"$soname" && ln -s /etc/rseq-d "$preloaddir/deep" &&
  loader_refuses "$n" /etc/rseq-d/sub/"$soname" nobody &&
  run "$n" 1 "/etc/rseq-d/sub/$soname \(what $preloaddir/deep/sub/$soname resolves to\) is not readable by all users \(mode 600\): the loader of every program that may not read it would fail to load the shim and print its error; chmod a\+r /etc/rseq-d/sub/$soname, then enable again" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
n="enable: another \$LIB's shim in a directory of mode 700, refused"
mkdir -p /etc/rseq-d/sub && cp "$shim" /etc/rseq-d/sub/"$soname" &&
  chmod 644 /etc/rseq-d/sub/"$soname" && chmod 700 /etc/rseq-d/sub &&
  ln -s /etc/rseq-d "$preloaddir/deep" &&
  loader_refuses "$n" /etc/rseq-d/sub/"$soname" nobody &&
  run "$n" 1 "/etc/rseq-d/sub \(on the way to what $preloaddir/deep/sub/$soname resolves to\) is not searchable by all users \(mode 700\): the loader of every program that may not search it would fail to load the shim and print its error; chmod a\+x /etc/rseq-d/sub, then enable again" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
n="enable: the shim of mode 600, refused"
chmod 600 "$libdir/$soname" &&
  loader_refuses "$n" "$libdir/$soname" nobody &&
  run "$n" 1 "is not readable by all users \(mode 600\): the loader of every program that may not read it would fail to load the shim and print its error; chmod a\+r [^ ]*, then enable again" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
chmod 755 "$libdir/$soname"
rm -f "$pf"
# A mode that gives others what it takes from the group's members, and
# an access ACL that takes it from a user, are refused too (the 124th
# review's 7: 0604, 0701 and such an ACL passed).  The oracle: the
# loader as nobody, in root's group for the mode.
n="enable: the shim of mode 604, refused"
chmod 604 "$libdir/$soname" &&
  loader_refuses "$n" "$libdir/$soname" nobody 0 &&
  run "$n" 1 "is not readable by all users \(mode 604\): the loader of every program that may not read it would fail to load the shim and print its error; chmod a\+r [^ ]*, then enable again" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
chmod 755 "$libdir/$soname"
rm -f "$pf"
n="enable: another \$LIB's shim in a directory of mode 701, refused"
mkdir -p /etc/rseq-d/sub && cp "$shim" /etc/rseq-d/sub/"$soname" &&
  chmod 644 /etc/rseq-d/sub/"$soname" && chmod 701 /etc/rseq-d/sub &&
  ln -s /etc/rseq-d "$preloaddir/deep" &&
  loader_refuses "$n" /etc/rseq-d/sub/"$soname" nobody 0 &&
  run "$n" 1 "/etc/rseq-d/sub \(on the way to what $preloaddir/deep/sub/$soname resolves to\) is not searchable by all users \(mode 701\): the loader of every program that may not search it would fail to load the shim and print its error; chmod a\+x /etc/rseq-d/sub, then enable again" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/deep" /etc/rseq-d "$pf"
# An access ACL of the user nobody without read, the mask and others
# with it: mode 644.
n="enable: the shim with an ACL that takes reading from a user, refused"
"$xattr" set "$libdir/$soname" system.posix_acl_access 0200000001000600ffffffff02000000feff000004000400ffffffff10000400ffffffff20000400ffffffff &&
  loader_refuses "$n" "$libdir/$soname" nobody &&
  run "$n" 1 "is not readable by all users \(mode 644, and an access ACL that takes it from some\): the loader of every program that may not read it would fail to load the shim and print its error; setfacl -b [^ ]*, then enable again" \
      timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
"$xattr" rm "$libdir/$soname" system.posix_acl_access
chmod 755 "$libdir/$soname"
rm -f "$pf"
# FUSE: its server, a process, says what its owners and modes are, and
# may never answer; the walk asks it nothing and refuses it anywhere in
# the preload tree (the 123rd review's 2: a user's FUSE mount,
# allow_other, over a directory of theirs at a $LIB's end showed root's
# 0755 and passed; 1: a server that answers nothing held enable in a
# lookup or an open, beyond SIGKILL).  fuse-serve mounts in this mount
# namespace; a killed server leaves its mount, taken off lazily.
fuse_up() {
  # Emptied here: the job's own redirection empties it only once it
  # runs, and a loaded machine let the loop below read the last
  # server's "mounted" first, and an overlay go over the bare
  # directory (EINVAL: "maximum fs stacking depth exceeded").
  : > "$scratch/fuse.out"
  "$serve" "$1" 0 allow_other ${2:+"arm=$2"} > "$scratch/fuse.out" 2>&1 &
  fuse_pid=$!
  _i=0
  # 30 s: a loaded machine (two CI lanes) took more than 10.
  while ! grep -q mounted "$scratch/fuse.out" && [ $_i -lt 300 ]; do sleep 0.1; _i=$((_i + 1)); done
  grep -q mounted "$scratch/fuse.out" ||
    { echo "fuse-serve: $(cat "$scratch/fuse.out")"; return 1; }
}
fuse_down() {
  kill "$fuse_pid" 2>/dev/null; wait "$fuse_pid" 2>/dev/null
  umount -l "$1" 2>/dev/null
}
fuse_re="is on a FUSE file system: its server, a process, says what its owners and modes are, and may never answer, so whoever runs it can replace the shim that every program on the machine, setuid ones included, would load; unmount it, or point the link that leads there elsewhere, then enable again"
n="enable: a user's FUSE mount in the preload tree, refused"
n2="enable: a user's FUSE mount in the preload tree, one read of what is mounted failed before, the mount named"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
  fail "$n2" "FUSE cannot be mounted here: $fusewhy"
else
  if mkdir -p "$preloaddir/fz/sub" && chown 65534 "$preloaddir/fz/sub" &&
     chmod 755 "$preloaddir/fz/sub" && fuse_up "$preloaddir/fz/sub"; then
    run "$n" 1 "$preloaddir/fz/sub $fuse_re" \
        timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
    # A read of what is mounted that failed once, and was made again
    # since, is nothing to say of a later verdict (the 143rd review's
    # 3: the FUSE mount was said to be what could not be read).
    n2="enable: a user's FUSE mount in the preload tree, one read of what is mounted failed before, the mount named"
    run "$n2" 1 "$preloaddir/fz/sub $fuse_re" \
        env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=mountinfo-once \
        timeout 60 "$cmd" enable --system && no_file "$n2" && pass "$n2"
  else
    fail "$n" "setup: cannot mount FUSE at $preloaddir/fz/sub"
    fail "$n2" "setup: cannot mount FUSE at $preloaddir/fz/sub"
  fi
  fuse_down "$preloaddir/fz/sub"
  rm -rf "$preloaddir/fz" "$pf"
fi
# stall_row NAME PATTERN SETUP: a FUSE server at /etc/rseq-f that
# answers nothing once SETUP has run; enable, given the time limit
# stall_limit (below), must refuse with PATTERN within it (20 s after
# it the server is killed, which ends the wait, and the row fails).
# stall_pre: words put before the command; stall_want: its status (1).  SETUP may mount overlays at /etc/rseq-o1 and -o2, each
# with the empty $scratch/e, on tmpfs, for a second layer (an overlay
# has two at least without an upper one, and /etc is an overlay here:
# the kernel stacks two at most).
# ov_re WHY: the words of an overlay in doubt, for WHY.
ov_re() {
  printf '%s' "is on an overlay file system that may have a layer on FUSE \($1\): a FUSE server says what its owners and modes are and may never answer, so whoever runs it can replace the shim"
}
# The time limit stall_row and chroot_row give enable: ten times what a
# plain enable takes here, 10 s at least (the arm64 guests emulate the
# CPU, and the lanes load the machine: a walk of 1024 links passed 30 s
# under load).
_t0=$(date +%s%N)
"$cmd" enable --system > /dev/null 2>&1
_t1=$(date +%s%N)
"$cmd" disable --system > /dev/null 2>&1
rm -f "$pf"
stall_limit=$(( (_t1 - _t0) / 100000000 ))
[ "$stall_limit" -ge 10 ] || stall_limit=10
# stall_fuse_here: /etc/rseq-f is a FUSE mount in our table, on top,
# before an overlay goes over it (fuse_up once read a stale "mounted":
# the overlay went over /etc's own directory, EINVAL); else it says
# what the table shows.
stall_fuse_here() {
  _i=0
  while [ $_i -lt 50 ]; do
    case $(awk '$5 == "/etc/rseq-f" { t = $0 } END { sub(/.* - /, "", t); split(t, f, " "); print f[1] }' /proc/self/mountinfo) in
      fuse | fuse.*) return 0 ;;
    esac
    sleep 0.1
    _i=$((_i + 1))
  done
  echo "stall_row: /etc/rseq-f is no FUSE mount on top: $(grep ' /etc/rseq-f ' /proc/self/mountinfo)"
  return 1
}
stall_row() {
  n=$1
  if [ -n "$fusewhy" ]; then
    fail "$n" "FUSE cannot be mounted here: $fusewhy"
    return
  fi
  rm -f "$scratch/arm" "$scratch/fuse.late" "$scratch/fuse.done"
  if mkdir -p /etc/rseq-f "$scratch/e" /etc/rseq-o1 /etc/rseq-o2 &&
     fuse_up /etc/rseq-f "$scratch/arm" && stall_fuse_here && eval "$3" &&
     : > "$scratch/arm"; then
    (sleep $((stall_limit + 20)); [ -e "$scratch/fuse.done" ] ||
       { : > "$scratch/fuse.late"; kill -9 "$fuse_pid"; }) &
    dog=$!
    # shellcheck disable=SC2086 # stall_pre: words
    run "$n" "${stall_want:-1}" "$2" env RSEQ_COMPAT_SYSTEM_TIMEOUT=$stall_limit ${stall_pre:-} "$cmd" enable --system
    ok=$?
    : > "$scratch/fuse.done"
    kill "$dog" 2>/dev/null; wait "$dog" 2>/dev/null
    if [ -e "$scratch/fuse.late" ]; then
      fail "$n" "enable waited for a FUSE server that answers nothing until the server was killed, after $((stall_limit + 20)) s"
    elif [ $ok = 0 ]; then
      no_file "$n" && pass "$n"
    fi
  else
    fail "$n" "setup failed: $3"
  fi
  rm -f "$preloaddir/deep"
  umount -l /etc/rseq-o2 2>/dev/null
  umount -l /etc/rseq-o1 2>/dev/null
  fuse_down /etc/rseq-f
  # The child the command left waiting ends once its server is gone,
  # before the next row mounts anything (a row after one whose child
  # still ended failed to mount FUSE, under load).
  _left=$(printf '%s\n' "$out" | sed -n 's/.*(process \([0-9]*\), left waiting.*/\1/p' | head -n 1)
  _i=0
  while [ -n "$_left" ] && alive "$_left" && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
  if [ -n "$_left" ] && alive "$_left"; then
    fail "$n" "process $_left, left waiting, has not ended 10 s after its server was killed"
  fi
  rm -rf /etc/rseq-f "$scratch/e" /etc/rseq-o1 /etc/rseq-o2 /etc/rseq-fl "$pf"
}
stall_row "enable: a FUSE server that answers nothing, through a link in the preload tree, refused at once" \
  "/etc/rseq-f \(on the way to what $preloaddir/deep resolves to\) $fuse_re" \
  'ln -s /etc/rseq-f "$preloaddir/deep"'
# Overlays: each lookup in one asks its layers, so a layer on FUSE
# holds the walk in that server as FUSE itself does (the 124th review's
# 1-2: an overlay over an overlay over FUSE, a layer named through a
# link or by a relative name, a layer on a FUSE mount unmounted lazily,
# each passed, and enable waited in the server beyond SIGKILL).
stall_row "enable: an overlay over an overlay over a FUSE server that answers nothing, refused at once" \
  "/etc/rseq-o2 \(on the way to what $preloaddir/deep resolves to\) $(ov_re "its layer /etc/rseq-f is on FUSE")" \
  'mount -t overlay overlay -o lowerdir=/etc/rseq-f:$scratch/e /etc/rseq-o1 &&
   mount -t overlay overlay -o lowerdir=/etc/rseq-o1:$scratch/e /etc/rseq-o2 &&
   ln -s /etc/rseq-o2 "$preloaddir/deep"'
stall_row "enable: an overlay whose layer is named through a link to FUSE, refused at once" \
  "/etc/rseq-o1 \(on the way to what $preloaddir/deep resolves to\) $(ov_re "its layer /etc/rseq-fl is reached through a symbolic link, or no directory")" \
  'ln -s /etc/rseq-f /etc/rseq-fl &&
   mount -t overlay overlay -o lowerdir=/etc/rseq-fl:$scratch/e /etc/rseq-o1 &&
   ln -s /etc/rseq-o1 "$preloaddir/deep"'
stall_row "enable: an overlay whose layer on FUSE has a relative name, refused at once" \
  "/etc/rseq-o1 \(on the way to what $preloaddir/deep resolves to\) $(ov_re "its layer rseq-f is no absolute name without [^)]*")" \
  '(cd /etc && mount -t overlay overlay -o lowerdir=rseq-f:$scratch/e /etc/rseq-o1) &&
   ln -s /etc/rseq-o1 "$preloaddir/deep"'
# What no name in a mount table shows is bounded by the time limit
# instead (bounded.c): a layer's FUSE mount unmounted lazily, or
# plainly while the overlay holds it, whether or not another namespace
# holds a copy, a layer's name shadowed by a later mount, a layer named
# through a link the overlay then covers (the 127th review's 3-5).
# Each setup is the review's; the words name what the child was doing,
# and the limit (10 s, stall_row's) ends the wait, which the child
# holding the row's pipe would not.
limit_re="gave up after $stall_limit s while checking what lies under $preloaddir: a file system there does not answer \(a FUSE server, or a network file system, that stopped answering\); nothing was changed \(process [0-9]+, left waiting, ends once it can; RSEQ_COMPAT_SYSTEM_TIMEOUT=SECONDS waits longer\)"
stall_row "enable: an overlay over a FUSE mount unmounted lazily, given up after the time limit" \
  "$limit_re" \
  'mount -t overlay overlay -o lowerdir=/etc/rseq-f:$scratch/e /etc/rseq-o1 &&
   umount -l /etc/rseq-f && ln -s /etc/rseq-o1 "$preloaddir/deep"'
stall_row "enable: an overlay over a FUSE mount unmounted plainly, given up after the time limit" \
  "$limit_re" \
  'mount -t overlay overlay -o lowerdir=/etc/rseq-f:$scratch/e /etc/rseq-o1 &&
   umount /etc/rseq-f && ln -s /etc/rseq-o1 "$preloaddir/deep"'
holder=
stall_row "enable: an overlay over a FUSE mount unmounted plainly while another namespace holds a copy, given up after the time limit" \
  "$limit_re" \
  'mount -t overlay overlay -o lowerdir=/etc/rseq-f:$scratch/e /etc/rseq-o1 &&
   { unshare -m --propagation $prop sleep 600 & holder=$!; } && sleep 0.5 &&
   grep -q " /etc/rseq-f " /proc/$holder/mountinfo &&
   umount /etc/rseq-f && ln -s /etc/rseq-o1 "$preloaddir/deep"'
[ -n "$holder" ] && { kill "$holder"; wait "$holder"; } 2>/dev/null
stall_row "enable: an overlay whose FUSE layer a later mount shadows, given up after the time limit" \
  "$limit_re" \
  'mount -t overlay overlay -o lowerdir=/etc/rseq-f:$scratch/e /etc/rseq-o1 &&
   mount -t tmpfs tmpfs /etc/rseq-f && ln -s /etc/rseq-o1 "$preloaddir/deep"'
umount -l /etc/rseq-f 2>/dev/null
stall_row "enable: an overlay whose layer is named through a link it covers to FUSE, given up after the time limit" \
  "$limit_re" \
  'ln -s /etc/rseq-f /etc/rseq-o1/l &&
   mount -t overlay overlay -o lowerdir=/etc/rseq-o1/l:$scratch/e /etc/rseq-o1 &&
   ln -s /etc/rseq-o1 "$preloaddir/deep"'
# The child closes every descriptor it does not need, those above the
# soft limit too where close_range is refused (the 128th review's 1:
# the caller's pipe at 15000 held $(...) until the server was killed).
lazy_setup='mount -t overlay overlay -o lowerdir=/etc/rseq-f:$scratch/e /etc/rseq-o1 &&
   umount -l /etc/rseq-f && ln -s /etc/rseq-o1 "$preloaddir/deep"'
stall_pre="$sysrefuse close_range high"
stall_row "enable: close_range refused, the caller's pipe above the soft limit of descriptors, not held past the time limit" \
  "$limit_re" "$lazy_setup"
# SIGTERM ends the checks at once, by the signal, though the child
# waits in the kernel (the 128th review's 3: it waited for the limit).
cat > "$scratch/term-after.sh" <<'EOS'
"$@" &
p=$!
sleep 1
kill -TERM $p
wait $p
EOS
stall_pre="sh $scratch/term-after.sh" stall_want=143
stall_row "enable: SIGTERM while a file system holds its checks, ended by the signal at once" \
  "rseq-compat: enable --system: ended by a signal while checking what lies under $preloaddir; nothing was changed \(process [0-9]+, left waiting, ends once it can\)" \
  "$lazy_setup"
stall_pre= stall_want=
# enable's loader check runs programs: where no process can be made it
# refuses at once, not after a walk without a limit (the 128th
# review's 2).
n="enable: no child process can be made, refused at once"
run "$n" 1 "rseq-compat: enable --system: cannot make a child process \(Operation not permitted\): enable runs the loaders in child processes to check that they load the shim, so it cannot go on" \
    timeout 60 "$sysrefuse" fork low "$cmd" enable --system &&
  no_file "$n" && pass "$n"
# A caller that ignores SIGCHLD: the loader check's program is waited
# for all the same (the 130th review: "waitpid: No child processes").
n="enable: SIGCHLD ignored by its caller, the loaders checked and the entry written"
rm -f "$pf"
run "$n" 0 "^rseq-compat: enabled: " \
    perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV or exit 125' "$cmd" enable --system &&
  is_file "$n" "$entry\n" && pass "$n"
rm -f "$pf"
# Too few descriptors for the pipes to a child: enable runs here too,
# without a limit, saying so (the 130th review's 3: the manual said it
# refused).
n="enable: too few descriptors for the pipes to its child, done without a time limit, saying so"
# Output and error apart: four pipes, fds 3-10.
fewfds "$cmd" enable --system > "$scratch/o1" 2> "$scratch/o2"
_st=$?
if [ $_st != 0 ]; then
  fail "$n" "exit status $_st, not 0: $(cat "$scratch/o1" "$scratch/o2")"
elif ! grep -q "^rseq-compat: enable --system: warning: cannot make the pipes to a child process for the work (Too many open files), so it runs without a time limit" "$scratch/o2" ||
     ! grep -q "^rseq-compat: enabled: " "$scratch/o1"; then
  fail "$n" "words: $(cat "$scratch/o1" "$scratch/o2")"
else
  is_file "$n" "$entry\n" && pass "$n"
fi
rm -f "$pf"
fd_ladder "enable: fewer descriptors still, done or refused naming the want, no word on a file system it could not look at" \
  enable 'rm -f "$pf"' "^rseq-compat: enabled: "
inner="$sysrefuse statx low"
fd_ladder "enable: fewer descriptors still, statx refused, done or refused naming the want, no word on a file system it could not look at" \
  enable 'rm -f "$pf"' "^rseq-compat: enabled: "
# With a FUSE connection anywhere, the layers of an overlay on the way
# are walked, and where the root is a mount point (a machine's, a
# VM's; a chroot's directory is none) the mount tables are read once:
# a layer's lookup ran out of descriptors first (the 143rd review's 1:
# "its layer /usr/lib cannot be looked up (Too many open files)", said
# as an overlay in doubt).  Here the root is a recursive bind of ours.
n="enable: fewer descriptors still, a FUSE mount elsewhere and the root a mount point, done or refused naming the want, no word on a file system it could not look at"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
elif ! mkdir -p "$scratch/rb" "$scratch/fz" || ! mount --rbind / "$scratch/rb"; then
  fail "$n" "setup: cannot bind the root at $scratch/rb"
else
  if fuse_up "$scratch/fz"; then
    outer="chroot $scratch/rb"
    fd_ladder "$n" enable 'rm -f "$pf"' "^rseq-compat: enabled: "
  else
    fail "$n" "setup: cannot mount FUSE at $scratch/fz"
  fi
  fuse_down "$scratch/fz"
  umount -l "$scratch/rb"
fi
rm -f "$pf"
# rb_tree: the root bound recursively at $scratch/rb (a mount point,
# as a machine's root is; a chroot's directory is none) and, in it, the
# preload tree on a tmpfs of its own, the shim a file there under each
# $LIB name: no file on the way has a device outside the mount tables,
# so nothing makes the command read them again (the 144th review).
rb_tree() {
  mkdir -p "$scratch/rb" && mount --rbind / "$scratch/rb" &&
    mount -t tmpfs -o mode=755 tmpfs "$scratch/rb$preloaddir" || return 1
  for _nm in $names; do
    mkdir -p "$scratch/rb$preloaddir/$_nm" &&
      cp "$shim" "$scratch/rb$preloaddir/$_nm/$soname" &&
      chmod 644 "$scratch/rb$preloaddir/$_nm/$soname" || return 1
  done
}
# A read of what is mounted that failed once was kept for a second as
# the table of "/proc/self" besides ours, the same file read well just
# after: every verdict of that second took it for what it could not
# tell (the 144th review's 1 and 2).
n="enable: a FUSE mount in a preload tree of its own under a root that is a mount point, one read of what is mounted failed before, the mount named"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
elif ! rb_tree; then
  fail "$n" "setup: cannot bind the root at $scratch/rb with a preload tree of its own"
  umount -l "$scratch/rb" 2>/dev/null
else
  if mkdir -p "$scratch/rb$preloaddir/sub" && chown 65534 "$scratch/rb$preloaddir/sub" &&
     fuse_up "$scratch/rb$preloaddir/sub"; then
    run "$n" 1 "$preloaddir/sub $fuse_re" \
        chroot "$scratch/rb" env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=mountinfo-once \
        timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
  else
    fail "$n" "setup: cannot mount FUSE at $scratch/rb$preloaddir/sub"
  fi
  fuse_down "$scratch/rb$preloaddir/sub"
  umount -l "$scratch/rb"
fi
rm -f "$pf"
# Without FUSE, the read made again at its next use answers, whichever
# of the first three failed (the 145th review's 3: with the second, 16
# refused "/usr/lib", which a row allowing "could not be read" passed).
n="enable: a preload tree of its own under a root that is a mount point, one of the first reads of what is mounted failed, enabled"
if ! rb_tree; then
  fail "$n" "setup: cannot bind the root at $scratch/rb with a preload tree of its own"
  umount -l "$scratch/rb" 2>/dev/null
else
  _bad=
  for _at in 1 2 3; do
    rm -f "$pf"
    out=$(chroot "$scratch/rb" env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=mountinfo-once \
            RSEQ_TEST_MOUNTINFO_AT=$_at timeout 60 "$cmd" enable --system 2>&1)
    _st=$?
    if [ $_st != 0 ] || ! printf '%s\n' "$out" | grep -q "^rseq-compat: enabled: "; then
      _bad="open $_at failed: exit status $_st: $out"
      break
    fi
  done
  if [ -n "$_bad" ]; then
    fail "$n" "$_bad"
  else
    is_file "$n" "$entry\n" && pass "$n"
  fi
  umount -l "$scratch/rb"
fi
rm -f "$pf"
# A line on standard output reaches a terminal before the warning that
# follows it, as without the child's pipe (the 128th review's 5).
n="enable: already enabled, with a warning, on a terminal: the line first"
printf '%s\n' "$entry" > "$pf" && chmod 666 "$pf"
out=$(script -qec "$cmd enable --system" /dev/null 2>&1 | tr -d '\r')
first=$(printf '%s\n' "$out" | sed -n 1p)
second=$(printf '%s\n' "$out" | sed -n 2p)
case $first in
  "rseq-compat: already enabled: $pf names $entry")
    case $second in
      "rseq-compat: enable --system: warning: $pf is writable by others than root"*) pass "$n" ;;
      *) fail "$n" "the warning is not the second line: $out" ;;
    esac ;;
  *) fail "$n" "the first line is not the 'already enabled' line: $out" ;;
esac
chmod 644 "$pf"
rm -f "$pf"
# The 129th review, with the mid-walk hook, which runs in the process
# that does the work; "$pp" in a hook is the command's own process.
pp='pp=$(cut -d" " -f4 /proc/$PPID/stat)'
# A signal the caller ignores (nohup, a background job) stays ignored
# (F1: the command ended by it, a second after).
n="enable: SIGTERM during its checks, ignored by its caller, ignored"
run "$n" 0 "enabled: $pf names" \
    sh -c 'trap "" TERM; exec "$@"' sh env LD_PRELOAD="$replace" \
      RSEQ_TEST_MIDWALK_NAME=ld.so.preload \
      RSEQ_TEST_MIDWALK_HOOK="$pp; kill -TERM \$pp; sleep 2" \
      "$cmd" enable --system &&
  is_file "$n" "$entry\n" && pass "$n"
rm -f "$pf"
# A SIGCONT alone gives no time back (F5: one every 2 s made a limit of
# 3 s one of 15).
cat > "$scratch/cont-every.sh" <<'EOS'
"$@" &
p=$!
while kill -CONT $p 2>/dev/null; do sleep 0.5; done
wait $p
EOS
stall_pre="sh $scratch/cont-every.sh"
stall_row "enable: SIGCONT every half second while a file system holds its checks, given up after the time limit all the same" \
  "$limit_re" "$lazy_setup"
stall_pre=
# SIGCONT while the command writes the work's words to a full pipe
# loses none of them (F6: 8 KiB of 200000 were lost).
n="enable: SIGCONT while its output waits for a slow reader, nothing lost"
env LD_PRELOAD="$replace" RSEQ_TEST_MIDWALK_NAME=ld.so.preload \
  RSEQ_TEST_MIDWALK_HOOK="$pp; (sleep 1; kill -CONT \$pp; sleep 0.5; kill -CONT \$pp) > /dev/null 2>&1 & head -c 200000 /dev/zero >&2" \
  timeout 60 "$cmd" enable --system 2>&1 > /dev/null | { sleep 4; wc -c > "$scratch/n"; }
if [ "$(cat "$scratch/n")" -lt 200000 ]; then
  fail "$n" "$(cat "$scratch/n") bytes of standard error, not 200000 and more"
else
  is_file "$n" "$entry\n" && pass "$n"
fi
rm -f "$pf"
# Lines keep their order on a terminal however late the command reads
# them (F7: the command stopped a second, "already enabled" came
# before the warning it follows).
n="enable: already enabled, a leftover file, on a terminal, read late: the warning first"
printf '%s\n' "$entry" > "$pf"
: > "$pf.rseq-compat.AbCdEf"
cat > "$scratch/late.sh" <<EOS
env LD_PRELOAD="$replace" RSEQ_TEST_MIDWALK_NAME=$soname \\
  RSEQ_TEST_MIDWALK_HOOK='$pp; kill -STOP \$pp; (sleep 1; kill -CONT \$pp) &' \\
  "$cmd" enable --system
EOS
out=$(script -qec "sh $scratch/late.sh" /dev/null 2>&1 | tr -d '\r')
case $(printf '%s\n' "$out" | sed -n 1p) in
  "rseq-compat: enable --system: warning: $pf.rseq-compat.AbCdEf is left"*)
    case $(printf '%s\n' "$out" | sed -n 2p) in
      "rseq-compat: already enabled: $pf names $entry") pass "$n" ;;
      *) fail "$n" "the second line is not the 'already enabled' line: $out" ;;
    esac ;;
  *) fail "$n" "the first line is not the warning: $out" ;;
esac
rm -f "$pf" "$pf.rseq-compat.AbCdEf"
# The programs the work runs hold neither of its pipes to the command
# (F8: one wrote a status to them, and enable exited 0).
n="enable: the programs its checks run hold none of its pipes to the command"
run "$n" 0 "enabled: $pf names" \
    env LD_PRELOAD="$replace" RSEQ_TEST_MIDWALK_NAME=ld.so.preload \
      RSEQ_TEST_MIDWALK_HOOK="ls -l /proc/\$\$/fd > $scratch/fds" \
      timeout 60 "$cmd" enable --system &&
  if grep -Eq ' (3|4) -> pipe:' "$scratch/fds"; then
    fail "$n" "a program it ran holds: $(grep -E ' (3|4) -> ' "$scratch/fds")"
  elif ! grep -Eq ' 1 -> ' "$scratch/fds"; then
    fail "$n" "setup: the hook listed no descriptors: $(cat "$scratch/fds")"
  else
    is_file "$n" "$entry\n" && pass "$n"
  fi
rm -f "$pf"
# A FUSE mount that the overlay covers, under its own mount point,
# named as a layer before the overlay was mounted over it: the walk of
# the layer's name meets the overlay, not the mount under it (the
# 125th review's A: passed, and enable waited in the server).
stall_row "enable: an overlay over a directory with a FUSE mount in it as a layer, refused at once" \
  "/etc/rseq-o1 \(on the way to what $preloaddir/deep resolves to\) $(ov_re "its layer /etc/rseq-o1/f is under /etc/rseq-o1/f, a FUSE mount that the overlay at /etc/rseq-o1 covers")" \
  'fuse_down /etc/rseq-f && mkdir -p /etc/rseq-o1/f && fuse_up /etc/rseq-o1/f "$scratch/arm" &&
   mount -t overlay overlay -o lowerdir=/etc/rseq-o1/f:$scratch/e /etc/rseq-o1 &&
   ln -s /etc/rseq-o1 "$preloaddir/deep"'
umount -l /etc/rseq-o1/f 2>/dev/null
rm -rf /etc/rseq-o1
# The overlay bind-mounted over its own layer, a FUSE mount: the walk of
# the layer's name meets a mount of the overlay, which covers the FUSE
# mount, not the directory its first mount covers (the 126th review's
# 1: taken by its device for the first mount, it passed, and enable
# waited in the server).
stall_row "enable: an overlay bind-mounted over its own FUSE layer, refused at once" \
  "/etc/rseq-o1 \(on the way to what $preloaddir/deep resolves to\) $(ov_re "one of its layers leads into a mount of it at /etc/rseq-f, which covers a FUSE mount")" \
  'mount -t overlay overlay -o lowerdir=/etc/rseq-f:$scratch/e /etc/rseq-o1 &&
   mount --bind /etc/rseq-o1 /etc/rseq-f && ln -s /etc/rseq-o1 "$preloaddir/deep"'
umount -l /etc/rseq-f 2>/dev/null
rm -rf /etc/rseq-f
# The build's own directories: each is looked up by the walk, never
# first by realpath (the 126th review's 3: realpath of the shim's file
# waited in a server mounted over its directory, before any walk).
stall_row "enable: a FUSE server that answers nothing over the shim's own directory, refused at once" \
  "$preloaddir/$glib \(on the way to what $preloaddir/$glib/$soname resolves to\) $fuse_re" \
  'fuse_down /etc/rseq-f && fuse_up "$preloaddir/$glib" "$scratch/arm"'
umount -l "$preloaddir/$glib" 2>/dev/null
# chroot_row NAME PATTERN WHERE [PREFIX...]: a chroot at $scratch/cr, a
# bind of /, in mount and PID namespaces of its own; a FUSE server that
# answers nothing at WHERE: "in" ($scratch/cr/mnt/f), "out"
# ($scratch/ct/f, under a tmpfs mounted after the chroot's copy of /),
# "both" (out, and bound in at /mnt/b) or "out-relative" (out, the
# layer named "f", from $scratch/ct); with "+child" after it, fusectl
# is not mounted in the chroot (where the machine has it mounted), so
# the list of FUSE connections is read by a child of the command's,
# and with "+fusectl" it is (where the machine has it not); an
# overlay in the chroot at /etc/rseq-o1 that names it as its layer by
# its name outside; enable in the chroot, under PREFIX.  The names the chroot's table shows are
# not its mounter's, and no test of names can tell (the 127th review's
# 1, 2 and 6): the time limit ends the wait.
chroot_row() {
  n=$1 pat=$2 where=$3
  shift 3
  if [ -n "$fusewhy" ]; then
    fail "$n" "FUSE cannot be mounted here: $fusewhy"
    return
  fi
  mkdir -p "$scratch/cr" "$scratch/ct" "$scratch/e" /etc/rseq-o1 &&
    ln -s /etc/rseq-o1 "$preloaddir/deep"
  run "$n" 1 "$pat" \
      unshare -m -p -f --mount-proc --propagation $prop sh -c '
        R=$1 T=$2 serve=$3 cmd=$4 e=$5 where=$6 L=$7
        shift 7
        mount --rbind / "$R" && mount -t tmpfs tmpfs "$T" || exit 9
        case $where in
          *+child)
            where=${where%+child}
            ! grep -q " $R/sys/fs/fuse/connections " /proc/self/mountinfo ||
              umount -l "$R/sys/fs/fuse/connections" || exit 9 ;;
          *+fusectl)
            # A build chroot (make deb) has no sysfs at /sys, hence no
            # mount point for fusectl: a read-only sysfs gives it one.
            where=${where%+fusectl}
            [ -d "$R/sys/fs/fuse/connections" ] ||
              mount -t sysfs -o ro sysfs "$R/sys" || exit 9
            grep -q " $R/sys/fs/fuse/connections " /proc/self/mountinfo ||
              mount -t fusectl fusectl "$R/sys/fs/fuse/connections" || exit 9 ;;
        esac
        F=$T/f
        if [ "$where" = in ]; then
          mount -t tmpfs tmpfs "$R/mnt" && F=$R/mnt/f || exit 9
        fi
        mkdir "$F" || exit 9
        "$serve" "$F" 0 allow_other arm="$T/arm" > "$T/out" 2>&1 &
        pid=$!
        i=0
        while ! grep -q mounted "$T/out" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
        grep -q mounted "$T/out" || { cat "$T/out"; exit 8; }
        if [ "$where" = both ]; then
          mount -t tmpfs tmpfs "$R/mnt" && mkdir "$R/mnt/b" &&
            mount --bind "$F" "$R/mnt/b" || exit 7
        fi
        if [ "$where" = out-relative ]; then
          (cd "$T" && mount -t overlay overlay -o "lowerdir=f:$e" "$R/etc/rseq-o1") || exit 7
        else
          mount -t overlay overlay -o "lowerdir=$F:$e" "$R/etc/rseq-o1" || exit 7
        fi
        : > "$T/arm"
        (sleep $((L + 20)); kill -9 $pid; echo "enable waited for a FUSE server that answers nothing until the server was killed, after $((L + 20)) s") &
        RSEQ_COMPAT_SYSTEM_TIMEOUT=$L timeout $((L + 40)) chroot "$R" "$@" "$cmd" enable --system' \
        sh "$scratch/cr" "$scratch/ct" "$serve" "$cmd" "$scratch/e" "$where" "$stall_limit" "$@" &&
    no_file "$n" && pass "$n"
  timeout 60 "$cmd" disable --system > /dev/null 2>&1
  rm -rf "$scratch/cr" "$scratch/ct" "$scratch/e" /etc/rseq-o1 "$preloaddir/deep" "$pf"
}
# A FUSE mount outside a chroot's root, in its mount namespace, that an
# overlay in the chroot names as a layer by a name the chroot lacks:
# names are the mounter's, from its root (the 126th review's 2: the
# walk found no such name and passed, and enable waited in the server).
# tmpfs at $scratch/ct, mounted after the chroot's copy of /, keeps
# ct/f out of it.
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it that answers nothing, refused at once" \
  "/etc/rseq-o1 \(on the way to what $preloaddir/deep resolves to\) $(ov_re "its layer $scratch/ct/f may be under $scratch/ct/f, a FUSE mount outside this root")" out
# untold_re ERR: the words of what could not be told for ERR.
untold_re() {
  printf '%s' "\\(on the way to what $preloaddir[^ ]* resolves to\\): cannot tell whether it is on a FUSE file system, .*what is mounted could not be read \\($1\\)"
}
# Where those mounts are is read from another root's mount table; a
# read of it that failed for want of descriptors left them all out, and
# a layer under one passed (the 144th review's 4): what could not be
# told is said so, at the first overlay on the way (here the overlay
# on LIBDIR, or the chroot's).
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the other root's mount table unread, refused at once" \
  "$(untold_re "Too many open files in system")" out env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=mountinfo-pid
# ... and where that read answered ECHILD (a filter's errno), it is the
# call's, not the list's: said as such (the 154th review's 3: "()").
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the other root's mount table answering ECHILD, refused at once" \
  "$(untold_re "No child processes"); look for the cause in the kernel's log, then" out env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=mountinfo-pid RSEQ_TEST_ERRNO=10
# The list of FUSE connections, read by a child where fusectl is not
# mounted, was taken for none where the child failed for want of
# memory (unshare's ENOMEM) or its readdir did, and so was a readdir
# of /proc that failed while looking for the other roots (the 146th
# review's 1-3): each is said so.
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the list's child out of memory, refused at once" \
  "$(untold_re "Cannot allocate memory")" out+child env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=unshare-enomem
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, fusectl's listing failed, refused at once" \
  "$(untold_re "Cannot allocate memory")" out env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=readdir-conns
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, /proc's listing failed, refused at once" \
  "$(untold_re "Cannot allocate memory")" out env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=readdir-proc
# ... and where the list's child ended without a word (killed, as by
# the OOM killer), or its statfs of fusectl ran out of memory, or, for
# root without CAP_SYS_ADMIN, the statfs of a mounted fusectl did
# (taken for fusectl not mounted, then for no list: the 147th review's
# 1-3).
# The words name the signal and the fix (the 150th review's 2 and 5).
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the list's child killed, refused at once" \
  "$(untold_re "its child that lists the FUSE connections was ended by signal 9 \\(Killed\\)"); look for the cause in the kernel's log \(the OOM killer's: free memory\)" \
  out+child env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=unshare-kill
# A SIGSYS is a seccomp filter's only at unshare or mount, where one is
# in force: sent where none is (the 149th review's 2), or at another
# step under a filter that refuses only close_range (the 150th
# review's 1: any SIGSYS under any filter was taken for no list), it
# is a kill as any other.
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the list's child sent SIGSYS at unshare with no filter in force, refused at once" \
  "$(untold_re "its child that lists the FUSE connections was ended by signal 31 \\(Bad system call\\)"); look for the cause in the kernel's log, then" \
  out+child env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=unshare-sigsys
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, under a seccomp filter, the list's child sent SIGSYS as it lists, refused at once" \
  "$(untold_re "its child that lists the FUSE connections was ended by signal 31 \\(Bad system call\\)"); look for the cause in the kernel's log, then" \
  out+child "$sysrefuse" close_range low env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=statfs-sigsys
# ... also where the pipe failed after the child said it was at its
# mount: the step it died at is not known (the 151st review's 1: taken
# for its mount, no list).
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, under a seccomp filter, the list's child sent SIGSYS as it lists, its pipe failed before, refused at once" \
  "$(untold_re "the pipe from its child that lists the FUSE connections failed \\(Input/output error\\)")" \
  out+child "$sysrefuse" close_range low env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=read-after-mount
# ... and where a "lost" line came before "listing", which no child of
# ours writes: its step is not to be trusted (the 154th review's 1).
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, under a seccomp filter, the list's child's listing said lost before it began, then SIGSYS, refused at once" \
  "$(untold_re "its child that lists the FUSE connections wrote a line out of its order"); look for the cause in the kernel's log, then" \
  out+child "$sysrefuse" close_range low env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=lost-early
# ... nor any line out of the child's order: "lost 0", which took the
# SIGSYS for one at its mount, or an "err" that is no want, which took
# the end for no list (the 155th review's 1).
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, under a seccomp filter, the list's child said lost 0 before its listing, then SIGSYS, refused at once" \
  "$(untold_re "its child that lists the FUSE connections wrote a line out of its order"); look for the cause in the kernel's log, then" \
  out+child "$sysrefuse" close_range low env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=lost-early RSEQ_TEST_ERRNO=0
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the list's child said an error that is no want, refused at once" \
  "$(untold_re "its child that lists the FUSE connections wrote a line out of its order"); look for the cause in the kernel's log, then" \
  out+child env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=err-early
# ... and a step said again or out of its order, or a name before
# "listing", each then SIGSYS: no row failed where the order was not
# checked (the 156th review's 2).
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, under a seccomp filter, the list's child said its mount again past its listing, then SIGSYS, refused at once" \
  "$(untold_re "its child that lists the FUSE connections wrote a line out of its order"); look for the cause in the kernel's log, then" \
  out+child "$sysrefuse" close_range low env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=listing-as RSEQ_TEST_AS="$(printf 'listing\nat mount')"
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, under a seccomp filter, the list's child said a name before its listing, then SIGSYS, refused at once" \
  "$(untold_re "its child that lists the FUSE connections wrote a line out of its order"); look for the cause in the kernel's log, then" \
  out+child "$sysrefuse" close_range low env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=listing-as RSEQ_TEST_AS=99
# A chroot whose root is no mount point (the matrix's, make deb's): its
# device is in no mount table, so only the list of FUSE connections
# tells whether it is FUSE's; that list lost to its child's kill took
# it for no FUSE (the 155th review's 2).  The root here is a directory
# of a tmpfs whose mount is outside it.  Nothing on the way to /etc or
# the shim may be an overlay (without the list, one is refused by
# itself): /etc and the installed shim are copies in the root, each
# directory on the way to LIBDIR is made in it, and every other entry
# of the system is bound in.
rootdir_row() {
  n=$1 pat=$2
  shift 2
  mkdir -p "$scratch/rd" &&
  run "$n" 1 "$pat" unshare -m --propagation $prop sh -c '
      T=$1 cmd=$2 replace=$3 libdir=$4 sysrefuse=$5
      shift 5
      mount -t tmpfs tmpfs "$T" && mkdir -m 755 "$T/r" || exit 9
      r=$T/r
      # mirror DIR: DIR made in the root, its entries bound in but the
      # one on the way to LIBDIR (mirrored) and, in LIBDIR, the shim.
      mirror() {
        for e in "$1"/* "$1"/.[!.]*; do
          [ -e "$e" ] || [ -L "$e" ] || continue
          case $e in
            /proc|/sys|/dev|/tmp|/run|/etc|"$T"|"$r") continue ;;
          esac
          t=$r$e
          if [ "$1" = "$libdir" ] && { [ "${e##*/}" = librseq-compat.so.1 ] || [ "${e##*/}" = rseq-compat ]; }; then
            cp -a "$e" "$t" || return 1
          elif [ -L "$e" ]; then
            cp -P "$e" "$t" || return 1
          elif [ -d "$e" ] && case $libdir/ in "$e"/*) true ;; *) false ;; esac; then
            mkdir -m 755 "$t" && mirror "$e" || return 1
          elif [ -d "$e" ]; then
            mkdir "$t" && mount --rbind "$e" "$t" || return 1
          else
            : > "$t" && mount --bind "$e" "$t" || return 1
          fi
        done
      }
      mirror "" || exit 9
      # A directory bound in that holds T (the tests under the build
      # tree: make deb, the matrix) brought T in with it, and with it
      # the root'"'"'s mount: only one outside the root may hold it.
      ! grep -q " $r$T " /proc/self/mountinfo || umount -l "$r$T" || exit 9
      mkdir "$r/etc" "$r/proc" "$r/dev" "$r/tmp" && cp -a /etc/. "$r/etc/" &&
        rm -f "$r/etc/ld.so.preload" && mount -t proc proc "$r/proc" &&
        mount --rbind /dev "$r/dev" || exit 9
      for f in "$cmd" "$replace" "$sysrefuse"; do
        [ -e "$r$f" ] || { mkdir -p "$r${f%/*}" && : > "$r$f" && mount --bind "$f" "$r$f"; } || exit 9
      done
      RSEQ_COMPAT_SYSTEM_TIMEOUT=30 timeout 60 chroot "$r" "$@" "$cmd" enable --system
      st=$?
      [ ! -e "$r/etc/ld.so.preload" ] || { echo "$r/etc/ld.so.preload written"; exit 6; }
      exit $st' sh "$scratch/rd" "$cmd" "$replace" "$libdir" "$sysrefuse" "$@" &&
    pass "$n"
  rm -rf "$scratch/rd"
}
rootdir_row "enable: a chroot whose root is no mount point, the list's child killed, refused at once" \
  "$(untold_re "its child that lists the FUSE connections was ended by signal 9 \\(Killed\\)"); look for the cause in the kernel's log \(the OOM killer's: free memory\), then" \
  env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=unshare-kill
# ... also without statx (a filter's ENOSYS), where the root's mount
# ID, in no table, passed without its device asked of the list (the
# 156th review's 1).
rootdir_row "enable: a chroot whose root is no mount point, statx refused, the list's child killed, refused at once" \
  "$(untold_re "its child that lists the FUSE connections was ended by signal 9 \\(Killed\\)"); look for the cause in the kernel's log \(the OOM killer's: free memory\), then" \
  "$sysrefuse" statx low env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=unshare-kill
# ... or a connection's name it could not write (the 148th review's 2:
# the rest, then "end", taken for all of it), also for a reason that is
# no want (the 150th review's 3: "none"), or fusectl's listing failed so
# (the 151st review's 7: "none"), in the child or where fusectl is
# mounted.
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the list's child could not write a name, refused at once" \
  "$(untold_re "Cannot allocate memory")" out+child env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=dprintf-unshared
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the list's child could not write a name (EIO), refused at once" \
  "$(untold_re "its child that lists the FUSE connections ended \\(status 1\\) without a word")" out+child env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=dprintf-eio
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the list's child's listing failed (EIO), refused at once" \
  "$(untold_re "its child that lists the FUSE connections could not read fusectl \\(Input/output error\\)")" out+child env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=readdir-conns-eio
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, fusectl mounted, its listing failed (EIO), refused at once" \
  "$(untold_re "the list of FUSE connections in fusectl was cut short \\(Input/output error\\)"); look for the cause in the kernel's log, then" out+fusectl env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=readdir-conns-eio
# A call's own ECHILD (a filter's errno) is said as such, not as
# nothing (the 152nd review's 2, the 153rd's 1: "could not be read ()").
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, fusectl's statfs answering ECHILD, refused at once" \
  "$(untold_re "a call made to list the FUSE connections failed \\(No child processes\\)"); look for the cause in the kernel's log, then" out env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=statfs-fusectl RSEQ_TEST_ERRNO=10
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, the list's child's statfs of fusectl out of memory, refused at once" \
  "$(untold_re "Cannot allocate memory")" out+child env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=statfs-unshared
chroot_row "enable: root without CAP_SYS_ADMIN in a chroot, an overlay in it whose layer is a FUSE mount outside it, fusectl's statfs out of memory, refused at once" \
  "$(untold_re "Cannot allocate memory")" out+fusectl setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
  env LD_PRELOAD="$replace" RSEQ_TEST_FAIL=statfs-fusectl
# chroot_ladder (PREFIX for chroot_row, then the preload): with
# RSEQ_TEST_FAIL=MODE, VAR from 1 to COUNT (the Nth call fails), each
# run in the chroot is refused at once, its words matching WORDS (a
# grep -E expression); the first that is not ends the ladder.
chroot_ladder='mode=$1 var=$2 count=$3 words=$4
shift 4
at=1
while [ $at -le $count ]; do
  out=$(timeout $((RSEQ_COMPAT_SYSTEM_TIMEOUT + 5)) \
          env LD_PRELOAD="$0" RSEQ_TEST_FAIL=$mode $var=$at "$@" 2>&1)
  st=$?
  if [ $st != 1 ] || printf "%s\n" "$out" | grep -q "gave up after" ||
     ! printf "%s\n" "$out" | grep -Eq "$words"; then
    echo "call $at failed: exit status $st: $out"
    exit 2
  fi
  at=$((at + 1))
done
echo "each run refused at once"
exit 1'
# ... and a layer named relatively, which the list alone says may be
# on one, passed where that list could not be made for want of
# descriptors (the 144th's 4): with the 1st to 8th pipe failing
# (EMFILE), the child's for the work and the list's among them, each
# run is refused at once, for the layer or for the want.
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it named relatively, one pipe failing, each refused at once" \
  "^each run refused at once\$" out-relative+child sh -c "$chroot_ladder" "$replace" \
  pipe2-at RSEQ_TEST_PIPE2_AT 8 "Too many open files|its layer f is no absolute name"
# ... or where the list's child could not be made for want of
# processes (a cgroup's pids.max: fork's EAGAIN; the 146th review's 1).
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, one fork failing, each refused at once" \
  "^each run refused at once\$" out+child sh -c "$chroot_ladder" "$replace" \
  fork-at RSEQ_TEST_FORK_AT 6 "Resource temporarily unavailable\\); raise the limit on processes it runs under \\(a cgroup's pids\\.max|cannot make a child process \\(Resource temporarily unavailable\\)|may be under $scratch/ct/f, a FUSE mount outside this root"
# With 1 to 7 descriptors free, a lookup on the way that ran short
# was given a link's fix (the 146th review's 5, with two: "a link in
# the preload tree must lead to what root alone may change"): each run
# is refused naming the want, and none with a link's fix.
fds_ladder='for n in 4 5 6 7 8 9 10; do
  out=$(sh -c "exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; ulimit -n $n && exec timeout $((RSEQ_COMPAT_SYSTEM_TIMEOUT + 5)) \"\$@\"" sh "$@" 2>&1)
  st=$?
  if [ $st != 1 ] || printf "%s\n" "$out" | grep -Eq "gave up after|must lead to what root alone|must be reached through directories" ||
     ! printf "%s\n" "$out" | grep -Eq "Too many open files|No file descriptors available|may be under"; then
    echo "ulimit -n $n: exit status $st: $out"
    exit 2
  fi
done
echo "each run refused at once"
exit 1'
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it, 1 to 7 descriptors free, each refused naming the want, none with a link's fix" \
  "^each run refused at once\$" out sh -c "$fds_ladder" sh
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount in it named from outside, given up after the time limit" \
  "$limit_re" in
chroot_row "enable: a chroot, an overlay in it whose layer is a FUSE mount outside it also bound in it, given up after the time limit" \
  "$limit_re" both
chroot_row "enable: root without CAP_SYS_ADMIN in a chroot, an overlay in it whose layer is a FUSE mount outside it, given up after the time limit" \
  "$limit_re" out setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin
# ... while an overlay whose layers are known, as /etc here (over
# itself), passes with FUSE mounted elsewhere, also where no sysfs is
# mounted: the list of FUSE connections is then read through /proc
# (the 124th review's 8: a chroot without sysfs had no list).
for _sys in with without; do
  n="enable: an overlay on the way, FUSE mounted elsewhere, $_sys sysfs, accepted"
  if [ -n "$fusewhy" ]; then
    fail "$n" "FUSE cannot be mounted here: $fusewhy"
    continue
  fi
  _u=
  [ $_sys = with ] || _u="unshare -m --propagation $prop sh -c 'umount -l /sys 2>/dev/null; [ ! -d /sys/fs/fuse/connections ] && exec \"\$@\"' sh"
  if mkdir -p /etc/rseq-f && fuse_up /etc/rseq-f; then
    run "$n" 0 "enabled: $pf names" eval "$_u timeout 60 \"\$cmd\" enable --system" && pass "$n"
  else
    fail "$n" "setup: cannot mount FUSE at /etc/rseq-f"
  fi
  timeout 60 "$cmd" disable --system > /dev/null 2>&1
  fuse_down /etc/rseq-f
  rm -rf /etc/rseq-f "$pf"
done
# An overlay with a data-only layer (lowerdir=A::B, Linux 6.5 and
# later: composefs roots) names no layer between the colons (the 125th
# review's D: an empty name was taken for a relative one, refused).
# Where the kernel refuses such an overlay, none can be on the way.
n="enable: an overlay with a data-only layer on the way, FUSE mounted elsewhere, accepted"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
else
  mkdir -p /etc/rseq-f /etc/rseq-o1 "$scratch/e" "$scratch/d" "$scratch/u" "$scratch/w"
  if ! mount -t overlay overlay -o "lowerdir=$scratch/e::$scratch/d,upperdir=$scratch/u,workdir=$scratch/w" /etc/rseq-o1 2>"$scratch/ov.err"; then
    _k=$(uname -r)
    case $_k in
      [0-5].*|6.[0-4].*|6.[0-4]) pass "$n" ;;
      *) fail "$n" "setup: Linux $_k refused lowerdir=A::B: $(cat "$scratch/ov.err")" ;;
    esac
  elif fuse_up /etc/rseq-f && ln -s /etc/rseq-o1 "$preloaddir/deep"; then
    run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
    timeout 60 "$cmd" disable --system > /dev/null 2>&1
    fuse_down /etc/rseq-f
  else
    fail "$n" "setup: cannot mount FUSE at /etc/rseq-f"
  fi
  umount -l /etc/rseq-o1 2>/dev/null
  rm -rf /etc/rseq-f /etc/rseq-o1 "$scratch/e" "$scratch/d" "$scratch/u" "$scratch/w" "$preloaddir/deep" "$pf"
fi
# A FUSE mount in another mount namespace alone (a container's, another
# test's) is no layer of an overlay named here (session 57's distcheck:
# every overlay was refused while another test's server ran).
n="enable: an overlay on the way, FUSE mounted in another mount namespace alone, accepted"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
else
  mkdir -p /etc/rseq-f
  : > "$scratch/fuse.out"
  unshare -m --propagation $prop sh -c 'exec "$1" /etc/rseq-f 0 allow_other' sh "$serve" > "$scratch/fuse.out" 2>&1 &
  fuse_pid=$!
  _i=0
  while ! grep -q mounted "$scratch/fuse.out" && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
  if grep -q mounted "$scratch/fuse.out" && ! grep -q ' /etc/rseq-f ' /proc/self/mountinfo; then
    run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
  else
    fail "$n" "setup: no FUSE mount at /etc/rseq-f in a namespace of its own: $(cat "$scratch/fuse.out")"
  fi
  timeout 60 "$cmd" disable --system > /dev/null 2>&1
  kill "$fuse_pid" 2>/dev/null; wait "$fuse_pid" 2>/dev/null
  rm -rf /etc/rseq-f "$pf"
fi
# Other namespaces' tables are not read at all: one whose first
# process is chrooted shows none of its FUSE mounts (the 127th review's
# 7: the connection was taken for one in no table, and every overlay
# refused).
n="enable: an overlay on the way, FUSE mounted in another mount namespace whose first process is chrooted, accepted"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
else
  mkdir -p /etc/rseq-f
  mkdir -p "$scratch/c8"
  : > "$scratch/fuse.out"
  unshare -m --propagation $prop sh -c '
    mount --bind / "$2" || exit 9
    "$1" /etc/rseq-f 0 allow_other &
    exec chroot "$2" sleep 600' sh "$serve" "$scratch/c8" > "$scratch/fuse.out" 2>&1 &
  fuse_pid=$!
  _i=0
  while ! grep -q mounted "$scratch/fuse.out" && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
  sleep 0.2
  if grep -q mounted "$scratch/fuse.out" && ! grep -q ' /etc/rseq-f ' /proc/self/mountinfo &&
     ! grep -q ' /etc/rseq-f ' /proc/$fuse_pid/mountinfo; then
    run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
  else
    fail "$n" "setup: no FUSE mount at /etc/rseq-f in a namespace of its own whose first process is chrooted: $(cat "$scratch/fuse.out")"
  fi
  timeout 60 "$cmd" disable --system > /dev/null 2>&1
  kill -9 $(kids "$fuse_pid") "$fuse_pid" 2>/dev/null; wait "$fuse_pid" 2>/dev/null
  rm -rf /etc/rseq-f "$scratch/c8" "$pf"
fi
# A FUSE connection in no mount table (here root's, in a namespace of
# its own, unmounted lazily while a file of it stays open; any user
# can make one in a user namespace of their own) is judged by no one:
# judging it let any user refuse every enable where an overlay is on
# the way (session 58's review).
n="enable: an overlay on the way, a FUSE connection in no mount table, accepted"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
else
  mkdir -p "$scratch/of" /etc/rseq-o1 "$scratch/e" "$scratch/d"
  rm -f "$scratch/of.ready"
  unshare -m --propagation $prop sh -c '
    S=$1 serve=$2
    "$serve" "$S/of" 1 allow_other > "$S/of.out" 2>&1 &
    i=0
    while ! grep -q mounted "$S/of.out" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    exec 3< "$S/of/libc.so.6" && umount -l "$S/of" && : > "$S/of.ready" &&
      exec sleep 600' sh "$scratch" "$serve" > "$scratch/of.err" 2>&1 &
  ofpid=$!
  _i=0
  while [ ! -e "$scratch/of.ready" ] && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
  if [ -e "$scratch/of.ready" ] && ! grep -q ' fuse' /proc/$ofpid/mountinfo &&
     mount -t overlay overlay -o lowerdir=$scratch/e:$scratch/d /etc/rseq-o1 &&
     ln -s /etc/rseq-o1 "$preloaddir/deep"; then
    run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
  else
    fail "$n" "setup: a FUSE mount unmounted lazily, a file of it open, or the overlay: $(cat "$scratch/of.err" "$scratch/of.out" 2>&1)"
  fi
  timeout 60 "$cmd" disable --system > /dev/null 2>&1
  kill -9 $(kids "$ofpid") "$ofpid" 2>/dev/null; wait "$ofpid" 2>/dev/null
  umount -l /etc/rseq-o1 2>/dev/null
  rm -rf "$scratch/of" "$scratch/of.out" "$scratch/of.err" "$scratch/of.ready" /etc/rseq-o1 "$scratch/e" "$scratch/d" "$preloaddir/deep" "$pf"
fi
# A seccomp filter that kills at unshare (systemd's SystemCallFilter=,
# whose default action kills) leaves no list, as one that answers
# EPERM does: judged by the tables, an overlay on the way passes with
# FUSE mounted elsewhere (the 148th review's 1: taken for a child
# killed for want of memory, refused).
# With SIGCHLD ignored by the caller, which the work keeps, the child's
# status was reaped unread and the kill taken for the OOM killer's (the
# 149th review's 1).
# So it does where the filter kills at fusectl's mount (systemd's
# @mount group; the 151st review's 6: only unshare was tried), and
# where the child's read or statfs of fusectl is denied (an LSM's
# EACCES or EPERM; the 152nd review's 1 and 5: a statfs denied was
# taken for a list cut short, and every enable refused).
for _case in unshare "unshare, SIGCHLD ignored by its caller" mount listing statfs; do
  _call=${_case%%,*} _chld=${_case#"$_call"} _ig=
  case $_call in
    listing)
      _what="the list's child's listing of fusectl denied (EACCES)"
      _pre="env LD_PRELOAD=$replace RSEQ_TEST_FAIL=readdir-conns RSEQ_TEST_ERRNO=13" ;;
    statfs)
      _what="the list's child's statfs of fusectl denied (EPERM)"
      _pre="env LD_PRELOAD=$replace RSEQ_TEST_FAIL=statfs-unshared RSEQ_TEST_ERRNO=1" ;;
    *)
      _what="$_call killed by a seccomp filter$_chld"
      _pre="$sysrefuse ${_call}kill low" ;;
  esac
  n="enable: an overlay on the way, FUSE mounted elsewhere, $_what, accepted"
  [ -z "$_chld" ] || _ig="perl -e \$SIG{CHLD}=q(IGNORE);exec(@ARGV)or(exit(127))"
  if [ -n "$fusewhy" ]; then
    fail "$n" "FUSE cannot be mounted here: $fusewhy"
  elif mkdir -p /etc/rseq-f && fuse_up /etc/rseq-f; then
    # shellcheck disable=SC2086 # _pre, _ig: words
    run "$n" 0 "enabled: $pf names" \
        unshare -m --propagation $prop sh -c '! grep -q " /sys/fs/fuse/connections " /proc/self/mountinfo ||
          umount -l /sys/fs/fuse/connections || exit 9; exec "$@"' sh \
          $_pre timeout 60 $_ig "$cmd" enable --system && pass "$n"
    timeout 60 "$cmd" disable --system > /dev/null 2>&1
    fuse_down /etc/rseq-f
    rm -rf /etc/rseq-f "$pf"
  else
    fail "$n" "setup: cannot mount FUSE at /etc/rseq-f"
  fi
done
# Without the list (no CAP_SYS_ADMIN), an overlay that names its layers
# relatively, as Docker's does where their absolute names do not fit in
# a page, passes where no FUSE mount is in our table (the 126th
# review's 5: refused, in every such container on a machine with FUSE).
n="enable: root without CAP_SYS_ADMIN, an overlay with relative layer names on the way, FUSE mounted in another namespace, accepted"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
else
  mkdir -p /etc/rseq-f /etc/rseq-o1 "$scratch/e" "$scratch/d"
  : > "$scratch/fuse.out"
  unshare -m --propagation $prop sh -c 'exec "$1" /etc/rseq-f 0 allow_other' sh "$serve" > "$scratch/fuse.out" 2>&1 &
  fuse_pid=$!
  _i=0
  while ! grep -q mounted "$scratch/fuse.out" && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
  if grep -q mounted "$scratch/fuse.out" &&
     (cd "$scratch" && mount -t overlay overlay -o lowerdir=e:d /etc/rseq-o1) &&
     ln -s /etc/rseq-o1 "$preloaddir/deep"; then
    run "$n" 0 "enabled: $pf names" \
        setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
          timeout 60 "$cmd" enable --system && pass "$n"
  else
    fail "$n" "setup: FUSE in a namespace of its own, or the overlay: $(cat "$scratch/fuse.out")"
  fi
  timeout 60 "$cmd" disable --system > /dev/null 2>&1
  kill "$fuse_pid" 2>/dev/null; wait "$fuse_pid" 2>/dev/null
  umount -l /etc/rseq-o1 2>/dev/null
  rm -rf /etc/rseq-f /etc/rseq-o1 "$scratch/e" "$scratch/d" "$preloaddir/deep" "$pf"
fi
# Root without CAP_SYS_ADMIN (a default Docker or podman container)
# has no list of FUSE connections: the overlays on the way are judged
# by the mount table alone (the 125th review's B: every one refused).
n="enable: root without CAP_SYS_ADMIN, overlays on the way, FUSE mounted elsewhere, accepted"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
elif mkdir -p /etc/rseq-f && fuse_up /etc/rseq-f; then
  run "$n" 0 "enabled: $pf names" \
      setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin \
        timeout 60 "$cmd" enable --system && pass "$n"
  timeout 60 "$cmd" disable --system > /dev/null 2>&1
  fuse_down /etc/rseq-f
  rm -rf /etc/rseq-f "$pf"
else
  fail "$n" "setup: cannot mount FUSE at /etc/rseq-f"
fi
# A chroot whose root's mount table leaves out a FUSE mount outside it
# (a desktop's gvfs beside an sbuild or schroot chroot): init, in the
# same mount namespace, shows it (the 125th review's C: every overlay
# was refused).  Here a PID namespace's first process is that init.
n="enable: a chroot, FUSE mounted outside it, overlays on the way, accepted"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
else
  mkdir -p "$scratch/cr" "$scratch/cf"
  run "$n" 0 "enabled: $pf names" \
      unshare -m -p -f --mount-proc --propagation $prop sh -c '
        R=$1 F=$2 serve=$3 cmd=$4
        mount --rbind / "$R" || exit 9
        "$serve" "$F" 0 allow_other > "$F.out" 2>&1 &
        i=0
        while ! grep -q mounted "$F.out" && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
        grep -q mounted "$F.out" || { cat "$F.out"; exit 8; }
        timeout 60 chroot "$R" "$cmd" enable --system
        st=$?
        timeout 60 chroot "$R" "$cmd" disable --system > /dev/null 2>&1
        exit $st' sh "$scratch/cr" "$scratch/cf" "$serve" "$cmd" &&
    pass "$n"
  rm -rf "$scratch/cr" "$scratch/cf" "$scratch/cf.out" "$pf"
fi
# A FUSE mount made over a directory not root's while the walk looks
# names up after it: each name is looked up in the directory the walk
# holds, never from / again (the 124th review's 4: the name after it
# was looked up through the new mount, in its server, beyond SIGKILL).
# The hook (system-replace.c) mounts as the walk opens rseq-mid the
# second time, the first being the procfs check's of the link.
n="enable: a FUSE mount made during the walk over a directory not root's, not waited for"
if [ -n "$fusewhy" ]; then
  fail "$n" "FUSE cannot be mounted here: $fusewhy"
else
  rm -f "$scratch/arm2" "$scratch/fuse2.out" "$scratch/fuse.late" "$scratch/fuse.done"
  hook="\"$serve\" /etc/rseq-u/a 0 allow_other arm=$scratch/arm2 > $scratch/fuse2.out 2>&1 & echo \$! > $scratch/fuse2.pid; i=0; while ! grep -q mounted $scratch/fuse2.out && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done; : > $scratch/arm2"
  mkdir -p /etc/rseq-u/a/rseq-mid && chown 65534 /etc/rseq-u /etc/rseq-u/a &&
    ln -s /etc/rseq-u/a/rseq-mid "$preloaddir/deep"
  (sleep 30; [ -e "$scratch/fuse.done" ] ||
     { : > "$scratch/fuse.late"; kill -9 "$(cat "$scratch/fuse2.pid")"; }) &
  dog=$!
  run "$n" 1 "/etc/rseq-u \(above /etc/rseq-u/a/rseq-mid, what $preloaddir/deep resolves to\) is not owned by root \(owner 65534, mode 755\)" \
      env LD_PRELOAD="$replace" RSEQ_TEST_MIDWALK_NAME=rseq-mid \
        RSEQ_TEST_MIDWALK_AT=2 RSEQ_TEST_MIDWALK_HOOK="$hook" \
        "$cmd" enable --system
  ok=$?
  : > "$scratch/fuse.done"
  kill "$dog" 2>/dev/null; wait "$dog" 2>/dev/null
  if [ -e "$scratch/fuse.late" ]; then
    fail "$n" "enable waited for a FUSE server that answers nothing until the server was killed, after 30 s"
  elif ! grep -q mounted "$scratch/fuse2.out" 2>/dev/null; then
    fail "$n" "the hook mounted nothing during the walk ($(cat "$scratch/fuse2.out" 2>&1))"
  elif [ $ok = 0 ]; then
    no_file "$n" && pass "$n"
  fi
  rm -f "$preloaddir/deep"
  kill "$(cat "$scratch/fuse2.pid" 2>/dev/null)" 2>/dev/null
  umount -l /etc/rseq-u/a 2>/dev/null
  rm -rf /etc/rseq-u "$pf"
fi
# Without /proc nothing can be told from FUSE, and enable says so (the
# 124th review's 6: it said "/ is on a FUSE file system").
n="enable: without /proc, refused, saying to mount it"
run "$n" 1 "/ \(on the way to what $preloaddir resolves to\): cannot tell whether it is on a FUSE file system, whose server says what its owners and modes are and may never answer, without /proc/self/mountinfo \(No such file or directory\); mount procfs on /proc \(mount -t proc proc /proc\), then enable again" \
    unshare -m --propagation $prop sh -c 'umount -l /proc && exec "$@"' sh "$cmd" enable --system &&
  no_file "$n" && pass "$n"
rm -f "$pf"
# Links gone into are counted, not those met at a $LIB's end: 20 links
# to "." are 20 + 20^2 to walk, under the bound (they were 20^3 more).
n="enable: links to walk under its bound, accepted"
i=0
while [ $i -lt 20 ]; do i=$((i + 1)); ln -s . "$preloaddir/dot$i" || break; done
run "$n" 0 "enabled: $pf names" timeout 60 "$cmd" enable --system && pass "$n"
timeout 60 "$cmd" disable --system > /dev/null 2>&1
rm -f "$preloaddir"/dot* "$pf"
# The walk's work is bounded: 40 links to "." are 40 + 40^2 links to
# walk, three names deep.
n="enable: more links to walk than its bound, refused"
i=0
while [ $i -lt 40 ]; do i=$((i + 1)); ln -s . "$preloaddir/dot$i" || break; done
run "$n" 1 "more than 1024 links to directories to walk under $preloaddir, 3 names deep" \
    timeout 60 "$cmd" enable --system && no_file "$n" && pass "$n"
rm -f "$preloaddir"/dot* "$pf"

# A path met on the way is escaped, as every name of another's
# choosing: a newline in a link's target split the refusal into lines
# of a forged look (review finding R4).
n="enable: a newline in a path on the way, escaped"
nl='
'
mkdir -m 777 "/etc/rseq-n${nl}y" && ln -s "/etc/rseq-n${nl}y" "$preloaddir/alt" &&
  run "$n" 1 "/etc/rseq-n\\\\ny \(what $preloaddir/alt resolves to\) is writable by others than root \(owner 0, mode 777\)$fix_re" \
      "$cmd" enable --system && no_file "$n" && pass "$n"
rm -rf "$preloaddir/alt" "/etc/rseq-n${nl}y" "$pf"

# A library the loader cannot take is never named: here the shim made
# arm64's, which the walk takes (a foreign $LIB holds its own; a file
# that is no shared object is refused before the loader is tried,
# above).
mv "$libdir/$soname" "$scratch/good.so"
cp "$scratch/good.so" "$libdir/$soname" &&
  printf '\267\000' | dd of="$libdir/$soname" bs=1 seek=18 conv=notrunc 2>/dev/null
chmod 755 "$libdir/$soname"
printf '%s\n' "$other" > "$pf"
run "enable: a library that does not load" 1 "left as it was" \
    "$cmd" enable --system &&
  is_file "enable: a library that does not load" "$other\n" &&
  no_litter "enable: a library that does not load" &&
  pass "enable: a library that does not load"
mv "$scratch/good.so" "$libdir/$soname"

# A file, or /etc, that others than root may write already lets them
# put code into every process: enable does not vouch for it, as it does
# not for such a library (112th review, R1: it added its entry and kept
# mode 4777 or the owner nobody, without a word); disable, which only
# takes code out, warns.  A file with other names (hard links) would be
# split from them (R2).
for how in "chmod 666" "chmod 4777" "chown 65534" "chmod 664"; do
  printf '%s\n' "$other" > "$pf"
  chmod 644 "$pf" && $how "$pf"
  case $how in chown*) why="is not owned by root" ;; *) why="is writable by others than root" ;; esac
  was=$(stat -c '%a %u' "$pf")
  run "enable: a preload file others may write ($how), refused" 1 "$pf $why: whoever may write it can put code into every process.*chmod go-w $pf\), then enable again" \
      "$cmd" enable --system &&
    is_file "enable: a preload file others may write ($how), refused" "$other\n" &&
    [ "$(stat -c '%a %u' "$pf")" = "$was" ] &&
    no_litter "enable: a preload file others may write ($how), refused" &&
    pass "enable: a preload file others may write ($how), refused"
  rm -f "$pf"
done
printf '%s\n%s\n' "$shim" "$other" > "$pf"
chmod 666 "$pf"
run "disable: a preload file others may write, done with a warning" 0 "disabled: 1 shim entry.*|warning: $pf is writable by others than root" \
    "$cmd" disable --system &&
  printf '%s\n' "$out" | grep -q "warning: $pf is writable by others than root" &&
  is_file "disable: a preload file others may write, done with a warning" "$other\n" &&
  pass "disable: a preload file others may write, done with a warning"
rm -f "$pf"
printf '%s\n' "$other" > "$pf"
chmod 644 "$pf"
ln "$pf" /etc/ld.so.preload.other
run "enable: a preload file with another name (hard link), refused" 1 "$pf has 2 names \(hard links\): replacing it would leave the others with its old text" \
    "$cmd" enable --system &&
  is_file "enable: a preload file with another name (hard link), refused" "$other\n" &&
  [ "$(stat -c %h "$pf")" = 2 ] &&
  pass "enable: a preload file with another name (hard link), refused"
rm -f "$pf" /etc/ld.so.preload.other
printf '%s\n%s\n' "$shim" "$other" > "$pf"
chmod 644 "$pf"
ln "$pf" /etc/ld.so.preload.other
run "disable: a preload file with another name, done, the other named" 0 "disabled: 1 shim entry" \
    "$cmd" disable --system &&
  printf '%s\n' "$out" | grep -q "warning: $pf had 2 names (hard links): the others keep its old text" &&
  is_file "disable: a preload file with another name, done, the other named" "$other\n" &&
  pass "disable: a preload file with another name, done, the other named"
rm -f "$pf" /etc/ld.so.preload.other
etcmode=$(stat -c %a /etc)
chmod g+w /etc
# Its own words, with the commands (113th review, N3:
# the shim path's "every program ... would load the shim through it",
# no commands, no "then enable again").
run "enable: /etc writable by others than root, refused" 1 "/etc is writable by others than root \(owner 0, mode 775\): whoever may change it can replace $pf .*\(chown 0:0 /etc; chmod go-w /etc\), then enable again" \
    "$cmd" enable --system && no_file "enable: /etc writable by others than root, refused" &&
  pass "enable: /etc writable by others than root, refused"
chmod "$etcmode" /etc

# /etc a symbolic link to /data/etc, /data nobody's: whoever owns /data
# can swap /data/etc for a directory of theirs and its preload list, so
# the directories the link resolves through are checked too (113th
# review, D3: only "/etc" as written was, and enable wrote
# its entry there).  A root of its own: a tmpfs with the system's /usr
# and top-level directories, the command's directory, LIBDIR and
# PRELOADDIR (the installation above), /proc and /dev/null.
# etc_link_case NAME SETUP HOLDS MESSAGE: SETUP (shell, in the new
# root) makes /etc a link into directories not root's, with HOLDS the
# file the entry would go to; enable must refuse, saying MESSAGE.
etc_link_case () {
  n=$1
  mkdir "$scratch/root" &&
  out=$(unshare -m --propagation unchanged sh -c '
    umask 022
    r=$1; shift
    mount -t tmpfs -o mode=755 tmpfs "$r" || exit 125
    for d in usr bin sbin lib lib32 lib64 libx32; do
      if [ -L "/$d" ]; then
        ln -s "$(readlink "/$d")" "$r/$d" || exit 125
      elif [ -d "/$d" ]; then
        mkdir "$r/$d" && mount --rbind "/$d" "$r/$d" || exit 125
      fi
    done
    # The directory of the loader the command names, with the C library
    # beside it (oldlibc: /opt/rseq-compat/glibc-2.17/lib, without which
    # chroot said "No such file or directory" of the command).
    interp=$(readelf -lW "$1" | sed -n "s/.*program interpreter: \(.*\)]\$/\1/p")
    for d in "$(dirname "$1")" "$2" "$3" ${interp:+"$(dirname "$interp")"}; do
      [ -e "$r$d" ] || { mkdir -p "$r$d" && mount --rbind "$d" "$r$d"; } || exit 125
    done
    mkdir "$r/proc" "$r/dev" && mount -t proc proc "$r/proc" &&
      touch "$r/dev/null" && mount --bind /dev/null "$r/dev/null" &&
      (cd "$r" && eval "$4") || exit 125
    chroot "$r" "$1" enable --system 7<"$r"
    echo "[exit $?]"
    [ -e "$r$5" ] && echo "[written]"
    exit 0' sh "$scratch/root" "$cmd" "$libdir" "$preloaddir" "$2" "$3" 2>&1)
  st=$?
  if [ $st -ne 0 ]; then
    fail "$n" "setup (status $st): $out"
  elif printf '%s\n' "$out" | grep -q "written"; then
    fail "$n" "the entry went in: $out"
  elif ! printf '%s\n' "$out" | grep -q '^\[exit 1\]$'; then
    fail "$n" "not refused: $out"
  elif ! printf '%s\n' "$out" | grep -q "$4"; then
    fail "$n" "not said as it should be: $out"
  else
    pass "$n"
  fi
  rm -rf "$scratch/root"
}
etc_link_case "enable: /etc a link into a directory not root's, refused" \
  'mkdir -p data/etc && chown 65534:65534 data && ln -s /data/etc etc' \
  /data/etc/ld.so.preload \
  "/data (above /data/etc, what /etc resolves to) is not owned by root (owner 65534, mode 755): whoever may change it can replace $pf .*(chown 0:0 /data; chmod go-w /data), then enable again"
# Two links: /etc -> /data/etc -> /srv/etc, /data nobody's, who could
# point /data/etc elsewhere (114th review, F2:
# only /etc's own directories and /srv/etc's were checked).
etc_link_case "enable: /etc a link through a link in a directory not root's, refused" \
  'mkdir -p srv/etc data && chown 65534:65534 data && ln -s /srv/etc data/etc && ln -s /data/etc etc' \
  /srv/etc/ld.so.preload \
  "/data (it holds a link met on the way to what /etc resolves to, /srv/etc) is not owned by root (owner 65534, mode 755): whoever may change it can replace $pf .*(chown 0:0 /data; chmod go-w /data), then enable again"
# A ".." that leaves a directory others may write: nobody can swap
# /srv/pub/x for a link of theirs, and /etc then resolves into their
# directories; every directory the walk looks a name up in counts, not
# only those that hold a link or lie above where it ends (114th review,
# S1: accepted).
etc_link_case "enable: /etc a link through .. past a directory others may write, refused" \
  'mkdir -p srv/pub/x srv/real/etc && chmod 777 srv/pub && ln -s /srv/pub/x/../../real/etc etc' \
  /srv/real/etc/ld.so.preload \
  "/srv/pub (on the way to what /etc resolves to, /srv/real/etc) is writable by others than root (owner 0, mode 777): whoever may change it can replace $pf .*(chown 0:0 /srv/pub; chmod go-w /srv/pub), then enable again"
# /etc a link into a directory others may write, to nothing there
# (dangling): that directory is named, with its fix, not "cannot open
# /etc: No such file or directory" alone (review finding R3).
etc_link_case "enable: /etc a link to nothing in a directory others may write, refused" \
  'mkdir -p srv/pub && chmod 777 srv/pub && ln -s /srv/pub/etc etc' \
  /srv/pub/etc/ld.so.preload \
  "/srv/pub/etc: No such file or directory (on the way to what /etc resolves to); /srv/pub, met on the way, is writable by others than root (owner 0, mode 777): whoever may change it can replace $pf .*(chown 0:0 /srv/pub; chmod go-w /srv/pub), then enable again"
# Links through procfs, which each process resolves as itself: its
# own working directory, root or descriptors (the command runs with
# its descriptor 7 open on the root, "/" in it; 114th review, S2:
# accepted, and other processes read another /etc/ld.so.preload).
etc_link_case "enable: /etc a link to /proc/self/cwd, refused" \
  'ln -s /proc/self/cwd etc' /ld.so.preload \
  "/etc is a symbolic link to /proc/self/cwd, resolved through procfs .*; /etc must be a directory, or a link to one, that root owns"
etc_link_case "enable: /etc a link to /proc/self/root/srv/etc, refused" \
  'mkdir -p srv/etc && ln -s /proc/self/root/srv/etc etc' /srv/etc/ld.so.preload \
  "/etc is a symbolic link to /proc/self/root/srv/etc, resolved through procfs"
etc_link_case "enable: /etc a link to /dev/fd/7, refused" \
  'ln -s /proc/self/fd dev/fd && ln -s /dev/fd/7 etc' /ld.so.preload \
  "/etc is a symbolic link to /dev/fd/7, resolved through procfs"

# The real thing: an old entry of another copy goes, the new one comes
# first, the rest and the mode stay.
printf '%s\n%s:%s\n' "$other" "$shim" "$other" > "$pf"
chmod 640 "$pf"
xattrs_set || fail "enable: extended attributes kept" "cannot give $pf an ACL, a trusted attribute and a capability (setup)"
run "enable: replaces an old entry" 0 "enabled: $pf names" "$cmd" enable --system &&
  is_file "enable: replaces an old entry" "$entry\n$other\n$other\n" &&
  [ "$(stat -c '%a %u' "$pf")" = "640 0" ] &&
  no_litter "enable: replaces an old entry" &&
  pass "enable: replaces an old entry" &&
  xattrs_kept "enable: extended attributes kept" &&
  pass "enable: extended attributes kept"

# A program started now has the shim without LD_PRELOAD.
run "enabled: a new process is shim-owned" 0 "mode +shim-owned" \
    env -u LD_PRELOAD "$cmd" info &&
  pass "enabled: a new process is shim-owned"

ino=$(stat -c %i "$pf")
run "enable: already enabled" 0 "already enabled" "$cmd" enable --system &&
  [ "$(stat -c %i "$pf")" = "$ino" ] &&
  is_file "enable: already enabled" "$entry\n$other\n$other\n" &&
  ! printf '%s\n' "$out" | grep -q warning &&
  pass "enable: already enabled"
# Nothing replaced, nothing split: no word of the other names (113th
# review, N1: "the others keep its old text").
n="enable: already enabled, in a file with another name: no warning"
ln "$pf" /etc/ld.so.preload.other &&
  run "$n" 0 "already enabled" "$cmd" enable --system &&
  if printf '%s\n' "$out" | grep -q warning; then
    fail "$n" "a warning: $out"
  else
    [ "$(stat -c %i "$pf")" = "$ino" ] && pass "$n"
  fi
rm -f /etc/ld.so.preload.other
chmod o+w "$pf"
run "enable: already enabled, in a file others may write: a warning" 0 "already enabled" "$cmd" enable --system &&
  printf '%s\n' "$out" | grep -q "warning: $pf is writable by others than root" &&
  pass "enable: already enabled, in a file others may write: a warning"
chmod o-w "$pf"

run "disable: after enable" 0 "disabled: 1 shim entry" "$cmd" disable --system &&
  is_file "disable: after enable" "$other\n$other\n" && pass "disable: after enable"
run "disabled: a new process is libc's alone" 0 "mode +unregistered|librseq-compat +not loaded" \
    env -u LD_PRELOAD "$cmd" info &&
  pass "disabled: a new process is libc's alone"

# No file before: enable makes one (0644, root's), disable removes it.
rm -f "$pf"
run "enable: new file" 0 "enabled" "$cmd" enable --system &&
  is_file "enable: new file" "$entry\n" &&
  [ "$(stat -c '%a %u %g' "$pf")" = "644 0 0" ] && pass "enable: new file"
run "disable: removes the file it emptied" 0 "it held nothing else and is removed" \
    "$cmd" disable --system && no_file "disable: removes the file it emptied" &&
  pass "disable: removes the file it emptied"

# A link is refused, not replaced by a file.
ln -s "$scratch/elsewhere" "$pf"
run "enable: symbolic link" 1 "is a symbolic link" "$cmd" enable --system &&
  [ -L "$pf" ] && [ ! -e "$scratch/elsewhere" ] && pass "enable: symbolic link"
rm -f "$pf"

# Not root: refused by the file system, said plainly, nothing left.
run "enable: not root" 1 "run it as root" \
    setpriv --reuid=65534 --regid=65534 --clear-groups "$cmd" enable --system &&
  no_file "enable: not root" && no_litter "enable: not root" && pass "enable: not root"

# Another entry that the loader cannot take (not ours to judge) makes
# every process complain, the check that the shim loads included; that
# complaint is not the shim's.
printf '%s\n' "$scratch/missing.so" > "$pf"
run "enable: another entry's error is not the shim's" 0 "enabled" \
    "$cmd" enable --system 2>/dev/null &&
  is_file "enable: another entry's error is not the shim's" "$entry\n$scratch/missing.so\n" &&
  pass "enable: another entry's error is not the shim's"
rm -f "$pf"

# More such complaints than a pipe holds: the check reads them all (it
# stopped reading, and the program it started died of SIGPIPE, which
# was taken for the shim's failure).  SIGPIPE as most programs have
# it: a caller that ignores it hid the bug.
i=0
while [ $i -lt 1000 ]; do
  printf '%s\n' "$scratch/missing-library-number-$i.so"
  i=$((i + 1))
done > "$pf"
cp "$pf" "$scratch/many"
run "enable: more complaints about other entries than a pipe holds" 0 "enabled" \
    env --default-signal=PIPE "$cmd" enable --system &&
  [ "$(head -n 1 "$pf")" = "$entry" ] &&
  [ "$(tail -n +2 "$pf" | cmp - "$scratch/many" && echo same)" = same ] &&
  pass "enable: more complaints about other entries than a pipe holds"
rm -f "$pf" "$scratch/many"

# Enable puts its entry first and keeps every other byte; where that
# would move the loader's comment window (see view), it refuses.
printf '%s # keep: this\n#c\n' "$other" > "$pf"
run "enable: comments kept byte for byte" 0 "enabled" "$cmd" enable --system &&
  is_file "enable: comments kept byte for byte" "$entry\n$other # keep: this\n#c\n" &&
  pass "enable: comments kept byte for byte"
# Enable over an older shim entry much longer than its own, before
# such a library and a long entry after it (the loader's window, from
# the start of the file, is as long as what follows the first comment):
# taking the old line out would move the second '#' into the window;
# blanked in place, the loader reads the rest as before (seventy-sixth
# review).
n="enable: a library the loader reads after a later '#' stays"
d200=$(printf 'd%.0s' $(seq 200))
b150=$(printf 'b%.0s' $(seq 150))
long=/opt/$d200/$d200
tail=/nonexistent/$b150/$b150.so
printf '%s\n%s #\n# %s\n%s\n' "$long/$soname" /nonexistent/a.so /nonexistent/foo.so "$tail" > "$pf"
others() { view | tr ' ' '\n' | grep -v -e "$soname" -e '^$' | tr '\n' ' '; }
if [ "$(others)" != "/nonexistent/a.so # /nonexistent/foo.so $tail " ]; then
  fail "$n" "the loader reads '$(others)' in the file before (setup)"
elif run "$n" 0 "enabled" "$cmd" enable --system; then
  if [ "$(head -n 1 "$pf")" != "$entry" ]; then
    fail "$n" "the file's first line is '$(head -n 1 "$pf")', not the entry"
  elif [ "$(others)" != "/nonexistent/a.so # /nonexistent/foo.so $tail " ]; then
    fail "$n" "the loader reads '$(others)' after, not what it read before"
  elif grep -q "$long" "$pf"; then
    fail "$n" "the older entry is still in the file"
  else
    pass "$n"
  fi
fi
printf '# comment a\n# comment b\n' > "$pf"
run "enable: refused where the loader would read a comment as entries" 1 "first by hand" \
    "$cmd" enable --system 2>/dev/null &&
  is_file "enable: refused where the loader would read a comment as entries" "# comment a\n# comment b\n" &&
  no_litter "enable: refused where the loader would read a comment as entries" &&
  pass "enable: refused where the loader would read a comment as entries"
rm -f "$pf"

# A file another program makes while enable makes one where there was
# none (thirty-second review: the check came before the sync and the
# rename, and the other file was then replaced).
run "enable: a file made meanwhile is left as made" 1 "changed while rseq-compat edited it.*run rseq-compat enable --system again" \
    env LD_PRELOAD="$replace" RSEQ_TEST_REPLACE="$other" RSEQ_TEST_REPLACE_AT=fsync \
    "$cmd" enable --system &&
  is_file "enable: a file made meanwhile is left as made" "$other\n" &&
  no_litter "enable: a file made meanwhile is left as made" &&
  pass "enable: a file made meanwhile is left as made"
rm -f "$pf"

# Twenty enables and disables at once: every one succeeds, the file ends
# as one of the two states, nothing is left in /etc.
i=0 pids=
while [ $i -lt 20 ]; do
  "$cmd" enable --system > "$scratch/race-e$i" 2>&1 & pids="$pids $!"
  "$cmd" disable --system > "$scratch/race-d$i" 2>&1 & pids="$pids $!"
  i=$((i + 1))
done
bad=0
for p in $pids; do wait "$p" || bad=$((bad + 1)); done
if [ $bad -ne 0 ]; then
  fail "enable and disable at once" "$bad of 40 failed: $(cat "$scratch"/race-* | grep -v abled | head -n 3)"
elif [ -e "$pf" ] && ! is_file "enable and disable at once" "$entry\n"; then
  :
elif no_litter "enable and disable at once"; then
  pass "enable and disable at once"
fi
echo done
