#!/bin/sh
# root.sh PASSWORD: make check-vm's guest root, made once and kept under
# the cache (RSEQ_COMPAT_CACHE/vm/root) while build-aux/vm/guest-packages
# and this script are unchanged; prints its path.  Debian bullseye,
# minbase (mx_bootstrap: mmdebstrap) plus the list (systemd, udev, dbus, the
# cloud kernel and its initramfs), the host name rc-vm, the virtio disk
# as /, root's PASSWORD for the serial console's login, and the stock
# packages of glibc's source that are installed, downloaded into
# /var/lib/rc-vm/debs/stock for the way back from the patched glibc
# (the guest has no network).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../matrix/common.sh"
vm_die() { printf 'vm: %s\n' "$*" >&2; exit 1; }
password=$1
root=$RSEQ_COMPAT_CACHE/vm/root
log=$RSEQ_COMPAT_CACHE/log/vm-root.log
key=$(cat "$here/guest-packages" "$0" | sha256sum | cut -c1-16)
if [ "$(cat "$root/.rc-key" 2>/dev/null)" != "$key" ]; then
  printf 'vm: the guest'"'"'s root: minbase bullseye (mmdebstrap) and build-aux/vm/guest-packages (log: %s)\n' "$log" >&2
  mkdir -p "$RSEQ_COMPAT_CACHE/vm" "$RSEQ_COMPAT_CACHE/log" || exit 1
  : > "$log"
  r=$root.partial
  rm -rf "$root" "$r"
  mx_bootstrap bullseye "$r" "$log" || exit 1
  mx_apt_setup "$r" bullseye
  mx_in_chroot "$r" apt-get update -q >>"$log" 2>&1 ||
    vm_die "apt-get update failed in the guest's root; see $log"
  mx_ensure_deps "$r" bullseye "$log" "$here/guest-packages" ||
    vm_die "installing build-aux/vm/guest-packages in the guest's root failed; see $log"
  echo rc-vm > "$r/etc/hostname"
  printf '127.0.0.1 localhost\n127.0.1.1 rc-vm\n' > "$r/etc/hosts"
  echo '/dev/vda / ext4 defaults 0 1' > "$r/etc/fstab"
  echo "root:$password" | mx_in_chroot "$r" chpasswd ||
    vm_die "cannot set root's password in the guest's root"
  mkdir -p "$r/var/lib/rc-vm/debs/stock"
  stock=$(mx_in_chroot "$r" dpkg-query -W -f '${binary:Package} ${source:Package} ${Version}\n' |
          awk '$2 == "glibc" { sub(/:.*/, "", $1); print $1 "=" $3 }')
  [ -n "$stock" ] || vm_die "no package of glibc's source is installed in the guest's root"
  # apt's sandbox user cannot write there; the download is root's.
  # shellcheck disable=SC2086
  mx_in_chroot "$r" sh -c 'cd /var/lib/rc-vm/debs/stock && apt-get download -q -o APT::Sandbox::User=root "$@"' \
    sh $stock >>"$log" 2>&1 ||
    vm_die "apt-get download $stock failed; see $log"
  mx_in_chroot "$r" apt-get clean
  ls "$r"/boot/vmlinuz-* "$r"/boot/initrd.img-* >/dev/null 2>&1 ||
    vm_die "the guest's root has no kernel and initramfs in /boot; see $log"
  mv "$r" "$root" && echo "$key" > "$root/.rc-key" || exit 1
fi
echo "$root"
