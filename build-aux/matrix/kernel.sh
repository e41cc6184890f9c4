#!/bin/sh
# kernel.sh SUITE [ARCH]: Debian SUITE's current cloud kernel for ARCH
# (amd64, or arm64: the package linux-image-cloud-ARCH depends on; its
# image is in linux-binary-* on newer suites), downloaded with the suite
# chroot's apt-get (which learns ARCH's index with dpkg
# --add-architecture) and unpacked under the cache, keyed by package and
# version.  Prints the vmlinuz path.  Needs the chroot made by chroot.sh.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
suite=$1
arch=${2:-amd64}
root=$RSEQ_COMPAT_CACHE/chroot/$suite
log=$RSEQ_COMPAT_CACHE/log/kernel-$suite.log
[ -e "$root/.rc-complete" ] || mx_die "$suite: no chroot (run chroot.sh $suite)"
mkdir -p "$RSEQ_COMPAT_CACHE/log"

# Another architecture's packages: its index, once.
q=
if [ "$arch" != "$(dpkg --print-architecture)" ]; then
  q=:$arch
  if ! mx_in_chroot "$root" dpkg --print-foreign-architectures | grep -qx "$arch"; then
    mx_log "$suite: adding $arch to the chroot's package index"
    mx_in_chroot "$root" dpkg --add-architecture "$arch" &&
      mx_apt "$root" apt-get update -q >>"$log" 2>&1 ||
      mx_die "$suite: dpkg --add-architecture $arch and apt-get update failed; see $log"
  fi
fi
# The first dependency of $1 whose name matches $2 (without :ARCH).
dep() {
  mx_in_chroot "$root" apt-cache depends "$1$q" 2>>"$log" |
    sed -n 's/^ *Depends: //p' | sed 's/:[a-z0-9]*$//' | grep -E "$2" | head -n 1
}
meta=linux-image-cloud-$arch
pkg=$(dep "$meta" "^linux-image-[0-9].*-cloud-$arch\$") ||
  mx_die "$suite: $meta depends on no linux-image-*-cloud-$arch; see $log"
[ -n "$pkg" ] || mx_die "$suite: $meta depends on no linux-image-*-cloud-$arch"
bin=$(dep "$pkg" "^linux-binary-[0-9].*-cloud-$arch\$" || :)
# Where the image is in linux-binary-*, the modules are in
# linux-modules-*.
mods=
if [ -n "$bin" ]; then
  mods=$(dep "$pkg" "^linux-modules-[0-9].*-cloud-$arch\$" || :)
  pkg=$bin
fi
ver=$(mx_in_chroot "$root" apt-cache show --no-all-versions "$pkg$q" 2>>"$log" |
      sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || mx_die "$suite: no version for $pkg; see $log"

dir=$RSEQ_COMPAT_CACHE/kernel/${pkg}_$ver
# One download of a kernel at a time (the matrix and the arm64 tier
# fetch from one suite's chroot side by side), each in a directory of
# its architecture's.
mkdir -p "$RSEQ_COMPAT_CACHE/kernel"
exec 7>> "$dir.lock" && flock 7 || mx_die "$suite: cannot lock $dir.lock"
tmp=/tmp/rc-kernel-$arch
# modules/: what make check-aarch64's guests load themselves (their
# root is an initramfs without the kernel's modules); older caches lack
# it.  The x86-64 matrix's guests need none.
want_mods=
[ -z "$q" ] || want_mods=1
[ -n "$want_mods" ] || mods=
if [ ! -e "$dir/.complete" ] || { [ -n "$want_mods" ] && [ ! -d "$dir/modules" ]; }; then
  mx_log "$suite: downloading $pkg $ver"
  rm -rf "$root$tmp" "$dir" && mkdir -p "$root$tmp" "$dir"
  if ! mx_in_chroot "$root" sh -c "cd $tmp && apt-get download '$pkg$q=$ver' ${mods:+'$mods$q'}" \
       >>"$log" 2>&1; then
    # The index may be older than the mirror: refresh it once.
    mx_apt "$root" apt-get update -q >>"$log" 2>&1 || :
    mx_in_chroot "$root" sh -c "cd $tmp && apt-get download '$pkg$q' ${mods:+'$mods$q'}" \
      >>"$log" 2>&1 || mx_die "$suite: apt-get download $pkg failed; see $log"
  fi
  # /boot/vmlinuz-RELEASE, or /usr/lib/modules/RELEASE/vmlinuz (sid).
  mkdir -p "$dir/x"
  for deb in "$root$tmp"/*.deb; do
    dpkg-deb -x "$deb" "$dir/x" 2>>"$log" || mx_die "$suite: cannot unpack $deb"
  done
  img=$(find "$dir/x/boot" "$dir/x/usr/lib/modules" -name 'vmlinuz*' 2>/dev/null | head -n 1)
  [ -n "$img" ] || mx_die "$suite: no vmlinuz in $pkg"
  case $img in
    */boot/vmlinuz-*) release=${img##*/vmlinuz-} ;;
    *) release=$(basename "$(dirname "$img")") ;;
  esac
  mv "$img" "$dir/vmlinuz"
  echo "$release" > "$dir/release"
  # overlay: hostile.exp mounts one on /etc to test /etc/ld.so.preload.
  # Debian builds it as a module, compressed on newer kernels, which
  # the guests' insmod may not read.  None found: built in, or absent
  # (then the test says so).
  [ -z "$want_mods" ] || mkdir -p "$dir/modules"
  [ -z "$want_mods" ] || for m in $(find "$dir/x" -path '*/fs/overlayfs/overlay.ko*'); do
    case $m in
      *.xz) xz -dc "$m" ;;
      *) cat "$m" ;;
    esac > "$dir/modules/overlay.ko" || mx_die "$suite: cannot decompress $m"
  done
  rm -rf "$dir/x"
  rm -rf "$root$tmp"
  touch "$dir/.complete"
fi
echo "$dir/vmlinuz"
