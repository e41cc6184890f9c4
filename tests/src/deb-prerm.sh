#!/bin/sh
# deb-prerm.sh PRERM MA SCRATCH CMD SHIM LAYOUT LIBDIR PRELOADDIR NAMES:
# debian/librseq-compat1.prerm run as "prerm remove" against a private
# /etc, with the package's own copy of the command (the prerm's
# /usr/lib/MA/rseq-compat/rseq-compat) made CMD, the command this build
# made: the prerm reads /etc/ld.so.preload with the command's parser
# (disable --system --this-installation), so the cases here are about
# which entries are this installation's.  The shim SHIM is installed
# into a private view of LIBDIR (and of PRELOADDIR, where the entry's
# directory lies elsewhere) with the preload-layout script LAYOUT under
# each $LIB name in NAMES, as make install does; CMD's "this
# installation" is that copy.  deb.exp starts this in a mount namespace
# of its own.  Prints "PASS: NAME" or "FAIL: NAME: WHY" per case, then
# "done".
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
. "$(dirname "$0")/ns-libdir.sh"
prerm=$1 ma=$2 scratch=$3 cmd=$4 shim=$5 layout=$6 libdir=$7 preloaddir=$8 names=$9
soname=librseq-compat.so.1
pf=/etc/ld.so.preload
mount -t tmpfs -o mode=755 tmpfs "$scratch" && mkdir "$scratch/upper" "$scratch/work" &&
  mount -t overlay overlay -o "lowerdir=/etc,upperdir=$scratch/upper,workdir=$scratch/work" /etc ||
  { echo "FAIL: setup: cannot mount an overlay on /etc"; exit 1; }
ns_private_libdirs "$scratch" "$libdir" "$preloaddir"
ns_install_shim "$shim" "$layout" "$libdir" "$preloaddir" "$names"
helper="/usr/lib/@DEB_HOST_MULTIARCH@/rseq-compat/rseq-compat"
grep -qx "cmd=$helper" "$prerm" && grep -qF '"$cmd" disable --system --this-installation' "$prerm" ||
  { echo "FAIL: setup: $prerm does not run $helper disable --system --this-installation"; exit 1; }
sed -e "s|$helper|$cmd|g" -e "s|@DEB_HOST_MULTIARCH@|$ma|g" "$prerm" > "$scratch/prerm" &&
  chmod 755 "$scratch/prerm" || exit 1
# The same prerm with a command that is not there (127, as one that
# cannot be executed gives 126).
sed -e "s|$helper|$scratch/missing/rseq-compat|g" -e "s|@DEB_HOST_MULTIARCH@|$ma|g" "$prerm" \
  > "$scratch/prerm-nocmd" && chmod 755 "$scratch/prerm-nocmd" || exit 1
# The loader reads the file in every process started here: most
# entries name nothing it could open, so stderr is not looked at.
mkdir -p "$scratch/other" && cp "$shim" "$scratch/other/$soname" &&
  ln -s "$libdir" "$scratch/alias" || exit 1
# case NAME ARG STATUS PATTERN BEFORE AFTER [MODE]: BEFORE (printf %b;
# "-": no file) becomes AFTER ("-": no file), keeping MODE; the prerm
# exits with STATUS (0 or "fail") saying PATTERN (grep -E; "" for
# nothing at all).
case_() {
  _n=$1 _arg=$2 _st=$3 _pat=$4 _b=$5 _a=$6 _m=${7:-644}
  rm -f "$pf"
  if [ "$_b" != - ]; then printf '%b' "$_b" > "$pf" && chmod "$_m" "$pf"; fi
  _out=$("$scratch/prerm" "$_arg" 2>&1)
  _rc=$?
  _out=$(printf '%s\n' "$_out" | grep -v "^ERROR: ld\.so: object '.*' from $pf cannot be preloaded")
  if [ "$_st" = 0 ] && [ $_rc -ne 0 ]; then
    echo "FAIL: $_n: prerm $_arg failed ($_rc): $_out"; return
  elif [ "$_st" = fail ] && [ $_rc -eq 0 ]; then
    echo "FAIL: $_n: prerm $_arg succeeded: $_out"; return
  fi
  if [ -z "$_pat" ]; then
    [ -z "$_out" ] || { echo "FAIL: $_n: prerm $_arg said '$_out', not nothing"; return; }
  elif ! printf '%s\n' "$_out" | grep -Eq -- "$_pat"; then
    echo "FAIL: $_n: prerm $_arg said '$_out', not '$_pat'"; return
  fi
  if [ "$_a" = - ]; then
    if [ -e "$pf" ]; then echo "FAIL: $_n: $pf is left: $(cat "$pf")"; return; fi
  elif [ ! -f "$pf" ]; then
    echo "FAIL: $_n: $pf is gone"; return
  elif [ "$(od -An -c "$pf")" != "$(printf '%b' "$_a" | od -An -c)" ]; then
    echo "FAIL: $_n: $pf holds '$(cat "$pf")', not '$(printf '%b' "$_a")'"; return
  elif [ ! -L "$pf" ] && [ "$(stat -c %a "$pf")" != "$_m" ]; then
    echo "FAIL: $_n: mode $(stat -c %a "$pf"), not $_m"; return
  fi
  _l=$(ls -d /etc/ld.so.preload.* 2>/dev/null)
  [ -z "$_l" ] || { echo "FAIL: $_n: left in /etc: $_l"; return; }
  echo "PASS: $_n"
}
ours="$preloaddir/\$LIB/$soname"
gone="disabled: 1 shim entry"
case_ "only the shim: the file goes" remove 0 "$gone" "$ours\n" -
case_ "the layout under LIBDIR goes too" remove 0 "$gone" "$libdir/rseq-compat/\$LIB/$soname\n" -
case_ "other entries stay, separators and mode kept" remove 0 "$gone" \
  "/lib/a.so\n$ours\t/lib/b.so # keep: note\n/lib/c.so:/lib/d.so" \
  "/lib/a.so\n/lib/b.so # keep: note\n/lib/c.so:/lib/d.so" 600
case_ "the plain path goes too" remove 0 "$gone" "$libdir/$soname\n/lib/a.so\n" "/lib/a.so\n"
case_ "another spelling of the same file goes" remove 0 "disabled: 2 shim entries" \
  "$libdir/./rseq-compat/../$soname /lib/a.so\n$scratch/alias/$soname\n" "/lib/a.so\n"
case_ "another architecture's entry stays" remove 0 "" \
  "/usr/lib/other-linux-gnu/rseq-compat/\$LIB/$soname\n" \
  "/usr/lib/other-linux-gnu/rseq-compat/\$LIB/$soname\n"
case_ "another copy of the shim stays" remove 0 "" "$scratch/other/$soname\n" "$scratch/other/$soname\n"
case_ "a name that only ends alike stays" remove 0 "" "$libdir/not$soname\n" "$libdir/not$soname\n"
case_ "a comment naming the shim stays" remove 0 "" "#$ours\n/lib/a.so\n" "#$ours\n/lib/a.so\n"
case_ "an entry followed directly by a comment goes" remove 0 "$gone" \
  "$libdir/$soname#added by hand\n/lib/a.so\n" "#added by hand\n/lib/a.so\n"
case_ "no final newline and no shim: untouched, silent" remove 0 "" "/lib/a.so" "/lib/a.so"
# stops NAME PATTERN FILE...: prerm remove (with the environment
# given before it) fails saying PATTERN (grep), and leaves each FILE
# as it was.
stops() {
  _n=$1 _pat=$2; shift 2
  _sum=$(cat "$@" 2>&1 | od -An -c)
  if _out=$("$scratch/prerm" remove 2>&1); then
    echo "FAIL: $_n: prerm succeeded: $_out"
  elif ! printf '%s\n' "$_out" | grep -q -- "$_pat"; then
    echo "FAIL: $_n: it said '$_out'"
  elif [ "$(cat "$@" 2>&1 | od -An -c)" != "$_sum" ]; then
    echo "FAIL: $_n: a file changed"
  else
    echo "PASS: $_n"
  fi
}
# A link: the file it names is somebody else's to edit, so the package
# stays rather than leave an entry naming a file about to go.
printf '%s\n' "$ours" > "$scratch/target"
rm -f "$pf" && ln -s "$scratch/target" "$pf"
stops "a symbolic link naming the shim: the removal stops" \
  "symbolic link to $scratch/target, which names the shim" "$scratch/target"
[ -L "$pf" ] || echo "FAIL: a symbolic link naming the shim: the removal stops: the link is gone"
printf '/lib/a.so\n' > "$scratch/target"
rm -f "$pf" && ln -s "$scratch/target" "$pf"
if ! out=$("$scratch/prerm" remove 2>&1) ||
   [ -n "$(printf '%s\n' "$out" | grep -v "^ERROR: ld\.so: object '/lib/a\.so'")" ]; then
  echo "FAIL: a symbolic link naming no shim: nothing happens: prerm said '$out'"
elif [ ! -L "$pf" ] || [ "$(cat "$scratch/target")" != /lib/a.so ]; then
  echo "FAIL: a symbolic link naming no shim: nothing happens: the link or its target changed"
else
  echo "PASS: a symbolic link naming no shim: nothing happens"
fi
rm -f "$pf"
# silent NAME: prerm remove exits 0, says nothing but the loader's own
# complaints, and leaves whatever /etc/ld.so.preload is as it was.
silent() {
  _before=$(ls -ld "$pf" 2>&1)
  if ! _out=$("$scratch/prerm" remove 2>&1); then
    echo "FAIL: $1: prerm failed: $_out"
  elif [ -n "$(printf '%s\n' "$_out" | grep -v "^ERROR: ld\.so: object ")" ]; then
    echo "FAIL: $1: prerm said '$_out'"
  elif [ "$(ls -ld "$pf" 2>&1)" != "$_before" ]; then
    echo "FAIL: $1: $pf changed: $(ls -ld "$pf" 2>&1)"
  else
    echo "PASS: $1"
  fi
  rm -rf "$pf"
}
ln -s /dev/null "$pf"
silent "a symbolic link to /dev/null: nothing happens"
mkdir "$pf"
silent "a directory: nothing happens"
ln -s /etc/ld.so.preload "$pf"
silent "a link to itself: nothing happens"
head -c 2000000 /dev/zero | tr '\0' 'x' > "$pf" && printf '\n' >> "$pf"
silent "over 1 MiB, naming no shim: nothing happens"
printf '/lib/a.so\0/lib/b.so\n' > "$pf"
silent "a NUL byte, no shim: nothing happens"
{ head -c 2000000 /dev/zero | tr '\0' 'x'; printf '\n%s\n' "$ours"; } > "$pf"
stops "over 1 MiB, naming the shim: the removal stops" "too large" "$pf"
rm -f "$pf"
# dpkg --root with --force-script-chrootless (DPKG_ROOT): this
# machine's own file, which names the shim here, is never touched; the
# root's is only looked at, and anything in it that could name the
# shim stops the removal: an entry of any name (a link to the shim may
# have any), a link, a FIFO (never opened: reading one would hang).
r=$scratch/root && mkdir -p "$r/etc"
printf '%s\n' "$ours" > "$pf"
export DPKG_ROOT="$r"
rm -f "$r$pf"
silent_root() {
  if ! _out=$("$scratch/prerm" remove 2>&1); then echo "FAIL: $1: prerm failed: $_out"
  elif [ -n "$(printf '%s\n' "$_out" | grep -v "^ERROR: ld\.so: object ")" ]; then echo "FAIL: $1: prerm said '$_out'"
  elif [ "$(cat "$pf")" != "$ours" ]; then echo "FAIL: $1: this machine's $pf changed: $(cat "$pf")"
  else echo "PASS: $1"; fi
}
silent_root "DPKG_ROOT without the file: this machine's file stays, nothing said"
printf '# none\n\n \t: \n' > "$r$pf"
silent_root "DPKG_ROOT, its file without entries: both stay, nothing said"
# The loader's comment loop searches a window that shrinks by each
# comment's offset from the start of the file: a later '#' and what
# follows it are read as names (glibc 2.31 and 2.36 print "cannot be
# preloaded" for 'here' and for the shim's path here).
printf '# none\n\n  # here\n' > "$r$pf"
stops "DPKG_ROOT, a comment the loader reads as names: the removal stops" "cannot resolve or edit them from outside" "$pf" "$r$pf"
{ printf '# first comment, long enough to use up the window..............\n'
  printf '#xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n'
  printf '#\t%s\n' "$ours"; } > "$r$pf"
stops "DPKG_ROOT, the shim behind a '#' the loader does not take for a comment: the removal stops" "cannot resolve or edit them from outside" "$pf" "$r$pf"
printf '#\n#\n' > "$r$pf"
silent_root "DPKG_ROOT, comments the loader blanks whole: both stay, nothing said"
printf '\r\n' > "$r$pf"
stops "DPKG_ROOT, a carriage return (a name to the loader): the removal stops" "cannot resolve or edit them from outside" "$pf" "$r$pf"
printf '#x\000%s\n' "$ours" > "$r$pf"
stops "DPKG_ROOT, a NUL byte: the removal stops" "cannot resolve or edit them from outside" "$pf" "$r$pf"
printf '/lib/a.so\n%s\n' "$ours" > "$r$pf"
stops "DPKG_ROOT, its file naming the shim: the removal stops" "cannot resolve or edit them from outside" "$pf" "$r$pf"
mkdir -p "$r/usr/local/lib" && ln -sf /usr/lib/x86_64-linux-gnu/librseq-compat.so.1 "$r/usr/local/lib/rseq.so"
printf '/usr/local/lib/rseq.so # mine\n' > "$r$pf"
stops "DPKG_ROOT, an entry of another name: the removal stops" "cannot resolve or edit them from outside" "$pf" "$r$pf"
rm -f "$r$pf" && ln -s /etc/other "$r$pf"
stops "DPKG_ROOT, its file a link: the removal stops" "cannot resolve or edit them from outside" "$pf"
rm -f "$r$pf" && mkfifo "$r$pf"
out=$(timeout 10 "$scratch/prerm" remove 2>&1); rc=$?
if [ $rc -eq 124 ]; then echo "FAIL: DPKG_ROOT, its file a FIFO: the removal stops: prerm hung"
elif [ $rc -eq 0 ] || ! printf '%s\n' "$out" | grep -q "cannot resolve or edit them from outside"; then
  echo "FAIL: DPKG_ROOT, its file a FIFO: the removal stops: status $rc: $out"
else echo "PASS: DPKG_ROOT, its file a FIFO: the removal stops"; fi
rm -f "$r$pf"
unset DPKG_ROOT
rm -f "$pf"
case_ "a bare file name the loader finds in LIBDIR goes" remove 0 "$gone" "$soname\n/lib/a.so\n" "/lib/a.so\n"
ln -s "$libdir/$soname" "$scratch/myshim.so"
case_ "a link of one's own, of another name, goes" remove 0 "$gone" \
  "$scratch/myshim.so:/lib/a.so\n" "/lib/a.so\n"
printf '%s\n' "$ours" > "$pf"
if ! out=$(DPKG_MAINTSCRIPT_ARCH=arm64 "$scratch/prerm-nocmd" remove 2>&1); then
  echo "FAIL: a foreign architecture's command that cannot run: the removal goes on: prerm failed: $out"
elif ! printf '%s\n' "$out" | grep -q "cannot run .* here (status 127)"; then
  echo "FAIL: a foreign architecture's command that cannot run: the removal goes on: it said '$out'"
elif [ "$(cat "$pf")" != "$ours" ]; then
  echo "FAIL: a foreign architecture's command that cannot run: the removal goes on: $pf changed"
else
  echo "PASS: a foreign architecture's command that cannot run: the removal goes on"
fi
if out=$(DPKG_MAINTSCRIPT_ARCH=$(dpkg --print-architecture) "$scratch/prerm-nocmd" remove 2>&1); then
  echo "FAIL: this architecture's command missing: the removal stops: prerm succeeded: $out"
elif ! printf '%s\n' "$out" | grep -q "is not removed"; then
  echo "FAIL: this architecture's command missing: the removal stops: it said '$out'"
else
  echo "PASS: this architecture's command missing: the removal stops"
fi
rm -f "$pf"
case_ "upgrade leaves the entry" upgrade 0 "" "$ours\n" "$ours\n"
case_ "no file: nothing happens" remove 0 "" - -
echo done
