#!/bin/sh
# boot.sh SUITE KERNEL INITRD LIMIT LOG [ARCH]: boot KERNEL with INITRD
# under the QEMU of SUITE's chroot (qemu.sh), TCG, serial console to LOG
# (escape sequences dropped), for at most LIMIT seconds.  ARCH is x86_64
# (the default: a PC) or aarch64 (the "virt" board with every CPU feature
# QEMU emulates, no network: nothing in the guest uses one).  A guest that has not
# reached its init's "@@ begin" after MATRIX_BOOT_WAIT seconds (by
# default 120 and one for each 4 MB of INITRD; a boot that hangs under
# TCG, seen once in a few dozen boots) is killed and
# booted again, up to MATRIX_BOOT_TRIES times; earlier attempts are kept
# as LOG.1, LOG.2...  Prints the number of boots made.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(dirname "$0")
. "$here/common.sh"
suite=$1 kernel=$2 initrd=$3 limit=$4 log=$5 arch=${6:-x86_64}
case $arch in
  x86_64) machine="qemu-system-x86_64 -m 1024" console=ttyS0 ;;
  # The guest's root file system is its initramfs, unpacked into a tmpfs
  # that may take half the memory, while the image is still in memory
  # too: three times its size and a gigabyte for the tests, at least
  # 4 GiB.  A fixed 4 GiB left trixie's 1.4 GB userland unpacked only in
  # part ("Initramfs unpacking failed: write error", then no root: the
  # aarch64 tier's first full run, session 30); 8 GiB booted it.
  aarch64)
    mb=$(( $(wc -c < "$initrd") / 1048576 * 3 + 1024 ))
    [ "$mb" -ge 4096 ] || mb=4096
    machine="qemu-system-aarch64 -M virt -nic none -m $mb" console=ttyAMA0 ;;
  *) echo "boot.sh: no machine for $arch" >&2; exit 1 ;;
esac
# The kernel unpacks the initramfs before init prints anything, and
# loglevel=4 keeps it quiet meanwhile: a 1.4 GB image (trixie's arm64
# userland) took 53 s under TCG on an idle 2-core machine and more than
# 120 s with four tiers running (the aarch64 tier's second full run,
# session 31: every trixie guest killed before its init began).  So
# 120 s and a second for each 4 MB of image.
wait_max=${MATRIX_BOOT_WAIT:-$(( 120 + $(wc -c < "$initrd") / 4194304 ))}
tries=${MATRIX_BOOT_TRIES:-2}
qroot=$RSEQ_COMPAT_CACHE/chroot/$suite
boot=$qroot/tmp/rc-boot-$$
rm -rf "$boot" && mkdir -p "$boot"
cp "$kernel" "$boot/vmlinuz" && cp "$initrd" "$boot/initrd" || exit 1

clean() {
  sed 's/\x1b\[[0-9;?]*[A-Za-z]//g; s/\x1b[A-Za-z]//g; s/\r$//; s/^.*@@ begin/@@ begin/' \
    "$boot/serial" > "$1"
}
n=0
while [ $n -lt "$tries" ]; do
  n=$((n + 1))
  [ $n -eq 1 ] || mv "$log" "$log.$((n - 1))"
  : > "$boot/serial"
  # shellcheck disable=SC2086
  mx_in_chroot "$qroot" timeout "$limit" $machine -accel tcg -cpu max \
    -smp 2 -nographic -no-reboot \
    -kernel "/tmp/${boot##*/}/vmlinuz" -initrd "/tmp/${boot##*/}/initrd" \
    -append "console=$console panic=-1 loglevel=4" </dev/null >"$boot/serial" 2>&1 &
  pid=$!
  waited=0 started=0
  while kill -0 $pid 2>/dev/null; do
    if [ $started -eq 0 ] && grep -q '@@ begin' "$boot/serial"; then started=1; fi
    if [ $started -eq 0 ] && [ $waited -ge "$wait_max" ]; then
      # Not the marker itself, which the check below would take for a
      # guest that began (no second boot was ever made).
      echo "boot.sh: no begin marker after $wait_max s: killed" >> "$boot/serial"
      kill $pid
      break
    fi
    sleep 1
    waited=$((waited + 1))
  done
  wait $pid
  clean "$log"
  grep -q '@@ begin' "$log" && break
done
rm -rf "$boot"
echo $n
