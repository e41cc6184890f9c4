#!/bin/sh
# root-check.sh TOP BASE OUT RPMS TARBALLS: build-aux/rpm/check's steps,
# in a private mount namespace: OUT/root is an overlay of the chroot
# BASE; TARBALLS (NAME=FILE ...) are check-oldlibc's C libraries,
# unpacked into it; RPMS are installed with rpm --root.  Prints one
# "STEP: pass ..." or "STEP: FAIL ..." line per step.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
top=$1 base=$2 out=$3 rpms=$4 tarballs=$5
. "$top/build-aux/matrix/common.sh"
. "$top/build-aux/matrix/expect.sh"
r=$out/root
mount -t overlay overlay -o "lowerdir=$base,upperdir=$out/upper,workdir=$out/work" "$r" ||
  { echo "overlay: FAIL cannot mount an overlay of $base"; exit 1; }
status=0
step() {  # NAME STATUS TEXT
  _t=$(printf '%s' "$3" | tr '\n' ' ')
  if [ "$2" -eq 0 ]; then echo "$1: pass: $_t"; else echo "$1: FAIL: $_t"; status=1; fi
}
# A command's output on one line, without the notice Debian's rpm
# prints at every install and erase (that it is not Debian's package
# manager).
said() { grep -v 'use Alien instead\|assuming you know what you are doing' | tr '\n' ' '; }
inroot() { MX_SYSFS=1 mx_in_chroot "$r" "$@"; }

for nt in $tarballs; do
  tar -C "$r" -xzf "${nt#*=}" || step "${nt%%=*}" 1 "cannot unpack ${nt#*=}"
done
rpm --root "$r" --initdb &&
  out_i=$(rpm --root "$r" -i --nodeps $rpms 2>&1 | said)
step install $? "rpm --root -i --nodeps of $(for p in $rpms; do basename "$p" .x86_64.rpm; done | tr '\n' ' ')${out_i:+($out_i)}"

# The shim on each C library, by path and through /usr/bin/rseq-compat.
mkdir -p "$r/rco/rpm-check/src"
mx_copy_tree "$top" "$r/rco/rpm-check/src"
release=$(uname -r)
row() {  # NAME KIND MINOR CC
  set -- "$1" "$2" "$3" "$4" $(mx_libc_expect "$3" 0 "$release")
  line=$(inroot sh -c "cd /rco/rpm-check/src && sh build-aux/portable/inner-check.sh $1 $4 $2 /usr $5 $6 $7 /rco/rpm-check/work/$1 /usr/lib64" 2>&1 | tail -n 1)
  case $line in "$1: pass: "*) step "$1" 0 "${line#"$1: pass: "}" ;; *) step "$1" 1 "${line#"$1: "}" ;; esac
}
for nt in $tarballs; do
  n=${nt%%=*}
  case $n in
    glibc-*) row "$n" glibc "$(echo "$n" | sed 's/^glibc-2\.\([0-9]*\).*/\1/')" "/opt/rseq-compat/$n/bin/rc-cc" ;;
    musl-*) row "$n" musl "" "/opt/rseq-compat/$n/bin/musl-gcc" ;;
  esac
done
v=$(inroot dpkg-query -W -f '${Version}' libc6)
row bullseye-glibc glibc "$(echo "$v" | sed 's/^2\.\([0-9]*\).*/\1/')" gcc

# enable --system, then the erase: the %preun takes the entry out.
pf=$r/etc/ld.so.preload
rm -f "$pf"
printf '# kept\n\n' > "$pf"
en=$(inroot /usr/bin/rseq-compat enable --system 2>&1 | said)
grep -q '^/usr/lib/rseq-compat/\$LIB/librseq-compat\.so\.1$' "$pf"
step enable $? "rseq-compat enable --system in the root: $(tr '\n' ' ' < "$pf")${en:+($en)}"
er=$(rpm --root "$r" -e rseq-compat rseq-compat-devel librseq-compat1 2>&1)
e=$?
er=$(printf '%s\n' "$er" | said)
left=$(rpm --root "$r" -qa 2>/dev/null | grep -c 'rseq-compat')
[ $e -eq 0 ] && [ "$left" -eq 0 ] && [ "$(cat "$pf")" = "# kept" ]
step erase $? "rpm -e after enable: status $e, $left packages left, /etc/ld.so.preload: $(tr '\n' ' ' < "$pf")${er:+($er)}"

# An entry the command cannot edit (the file a link to one naming the
# shim): the %preun refuses, and the packages stay.
rpm --root "$r" -i --nodeps $rpms >/dev/null 2>&1
printf '/usr/lib/rseq-compat/$LIB/librseq-compat.so.1\n' > "$r/etc/ld.so.preload.real"
rm -f "$pf" && ln -s ld.so.preload.real "$pf"
er=$(rpm --root "$r" -e librseq-compat1 rseq-compat rseq-compat-devel 2>&1)
e=$?
er=$(printf '%s\n' "$er" | said)
left=$(rpm --root "$r" -q librseq-compat1 >/dev/null 2>&1 && echo kept || echo removed)
[ $e -ne 0 ] && [ "$left" = kept ] && [ -L "$pf" ] &&
  printf '%s\n' "$er" | grep -q 'is not removed'
step erase-refused $? "rpm -e with /etc/ld.so.preload a link naming the shim: status $e, librseq-compat1 $left ($(printf '%s' "$er" | cut -c1-240))"
umount "$r"
exit $status
