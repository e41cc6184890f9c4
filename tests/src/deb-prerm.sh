#!/bin/sh
# deb-prerm.sh PRERM MA SCRATCH: debian/librseq-compat1.prerm (its
# @DEB_HOST_MULTIARCH@ made MA) run as "prerm remove" against a private
# /etc (an overlay in this mount namespace; deb.exp starts it).  Prints
# "PASS: NAME" or "FAIL: NAME: WHY" per case, then "done".
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
prerm=$1 ma=$2 scratch=$3
pf=/etc/ld.so.preload
mount -t tmpfs -o mode=755 tmpfs "$scratch" && mkdir "$scratch/upper" "$scratch/work" &&
  mount -t overlay overlay -o "lowerdir=/etc,upperdir=$scratch/upper,workdir=$scratch/work" /etc ||
  { echo "FAIL: setup: cannot mount an overlay on /etc"; exit 1; }
sed "s|@DEB_HOST_MULTIARCH@|$ma|g" "$prerm" > "$scratch/prerm" && chmod 755 "$scratch/prerm" || exit 1
# The loader reads the file in every process started here: the entries
# name nothing it could open, so stderr is not looked at.
ours="/usr/lib/$ma/rseq-compat/\$LIB/librseq-compat.so.1"
# case NAME ARG BEFORE AFTER [MODE]: BEFORE (printf %b; "-": no file)
# becomes AFTER ("-": no file), keeping MODE.
case_() {
  _n=$1 _arg=$2 _b=$3 _a=$4 _m=${5:-644}
  rm -f "$pf"
  if [ "$_b" != - ]; then printf '%b' "$_b" > "$pf" && chmod "$_m" "$pf"; fi
  _out=$("$scratch/prerm" "$_arg" 2>&1) || { echo "FAIL: $_n: prerm $_arg failed: $_out"; return; }
  if [ "$_a" = - ]; then
    if [ -e "$pf" ]; then echo "FAIL: $_n: $pf is left: $(cat "$pf")"; return; fi
  elif [ ! -f "$pf" ]; then
    echo "FAIL: $_n: $pf is gone"; return
  elif [ "$(od -An -c "$pf")" != "$(printf '%b' "$_a" | od -An -c)" ]; then
    echo "FAIL: $_n: $pf holds '$(cat "$pf")', not '$(printf '%b' "$_a")'"; return
  elif [ "$(stat -c %a "$pf")" != "$_m" ]; then
    echo "FAIL: $_n: mode $(stat -c %a "$pf"), not $_m"; return
  fi
  _l=$(ls -d /etc/ld.so.preload.* 2>/dev/null)
  [ -z "$_l" ] || { echo "FAIL: $_n: left in /etc: $_l"; return; }
  echo "PASS: $_n"
}
case_ "only the shim: the file goes" remove "$ours\n" -
case_ "other entries stay, mode kept" remove "/lib/a.so\n$ours /lib/b.so\n/lib/c.so:/lib/d.so\n" \
  "/lib/a.so\n/lib/b.so\n/lib/c.so:/lib/d.so\n" 600
case_ "the plain path goes too" remove "/usr/lib/$ma/librseq-compat.so.1\n/lib/a.so\n" "/lib/a.so\n"
case_ "another architecture's entry stays" remove \
  "/usr/lib/other-linux-gnu/rseq-compat/\$LIB/librseq-compat.so.1\n" \
  "/usr/lib/other-linux-gnu/rseq-compat/\$LIB/librseq-compat.so.1\n"
case_ "make install's copy stays" remove "/usr/local/lib/rseq-compat/\$LIB/librseq-compat.so.1\n" \
  "/usr/local/lib/rseq-compat/\$LIB/librseq-compat.so.1\n"
case_ "a name that only ends alike stays" remove "/usr/lib/$ma/notlibrseq-compat.so.1\n" \
  "/usr/lib/$ma/notlibrseq-compat.so.1\n"
case_ "upgrade leaves the entry" upgrade "$ours\n" "$ours\n"
case_ "no file: nothing happens" remove - -
echo done
