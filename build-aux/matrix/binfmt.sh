#!/bin/sh
# binfmt.sh SUITE: make the kernel run aarch64 ELF programs with the
# qemu-user of SUITE's chroot (qemu.sh installs it), so that an arm64
# chroot can be entered with chroot(8) on this x86-64 host.  The entry
# is registered with binfmt_misc's F flag: the kernel opens the
# interpreter once, now, so it need not exist inside the arm64 chroot.
# The entry is named qemu-aarch64, as Debian's qemu-user-binfmt names
# it: mmdebstrap looks for that name, and only with its F flag does it
# make an arm64 root without a qemu-aarch64-static on the host.  An
# enabled qemu-aarch64 entry with the F flag that someone else
# registered is used as it is.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
suite=$1
fs=/proc/sys/fs/binfmt_misc
qemu=$RSEQ_COMPAT_CACHE/chroot/$suite/usr/bin/qemu-aarch64
[ -x "$qemu" ] || mx_die "binfmt: no $qemu (build-aux/matrix/qemu.sh $suite aarch64 installs it)"
if [ ! -e "$fs/register" ]; then
  mount -t binfmt_misc binfmt_misc "$fs" 2>/dev/null ||
    mx_die "binfmt: cannot mount binfmt_misc on $fs (modprobe binfmt_misc, as root)"
fi
# One registration at a time (two tiers may start arm64 work at once);
# the checks below are made again under the lock.
lockf=/run/lock/rseq-compat-binfmt.lock
[ -d /run/lock ] && [ -w /run/lock ] || lockf=$RSEQ_COMPAT_CACHE/.binfmt.lock
exec 9> "$lockf"
flock 9 || mx_die "binfmt: cannot lock $lockf"
# The name earlier versions registered, which mmdebstrap does not know.
[ ! -e "$fs/rseq-compat-aarch64" ] || echo -1 > "$fs/rseq-compat-aarch64"
e=$fs/qemu-aarch64
# With the F flag the kernel keeps the file it opened at registration:
# an update of the chroot that replaced qemu-aarch64 leaves the old one
# running every arm64 program until the entry is registered again.  The
# stamp says which file (inode and time) this cache registered.
stamp=$RSEQ_COMPAT_CACHE/.binfmt-qemu-aarch64
now=$(stat -L -c '%i %Y' "$qemu")
if [ -e "$e" ] && grep -q "^interpreter $qemu\$" "$e" && [ "$(cat "$stamp" 2>/dev/null)" != "$now" ]; then
  mx_log "binfmt: $qemu was replaced since it was registered: registering it again"
  echo -1 > "$e"
fi
if [ -e "$e" ]; then
  if grep -q '^enabled' "$e" && grep -q '^flags: .*F' "$e"; then exit 0; fi
  # Ours (this cache's) disabled is registered again; another's
  # without the F flag would make every arm64 program look for the
  # interpreter inside its own root.
  grep -q "^interpreter $RSEQ_COMPAT_CACHE/" "$e" ||
    mx_die "binfmt: $e is registered disabled or without the F flag (interpreter: $(sed -n 's/^interpreter //p' "$e")); remove it (echo -1 > $e) or register it with F (qemu-user-binfmt does)"
fi
# The ELF header of an aarch64 executable or shared object (e_machine
# 183), any OS/ABI byte.
magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
# Ours, disabled (checked above).
[ ! -e "$e" ] || echo -1 > "$e"
printf ':qemu-aarch64:M::%s:%s:%s:F\n' "$magic" "$mask" "$qemu" > "$fs/register" ||
  mx_die "binfmt: registering $qemu for aarch64 failed"
echo "$now" > "$stamp"
mx_log "binfmt: aarch64 programs run with $qemu"
