#!/bin/sh
# kernel.sh SUITE: Debian SUITE's current cloud kernel (the package
# linux-image-cloud-amd64 depends on; its image is in linux-binary-* on
# newer suites), downloaded with the suite chroot's apt-get and unpacked
# under the cache, keyed by package and version.  Prints the vmlinuz
# path.  Needs the chroot made by chroot.sh.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
suite=$1
root=$RSEQ_COMPAT_CACHE/chroot/$suite
log=$RSEQ_COMPAT_CACHE/log/kernel-$suite.log
[ -e "$root/.rc-complete" ] || mx_die "$suite: no chroot (run chroot.sh $suite)"
mkdir -p "$RSEQ_COMPAT_CACHE/log"

# The first dependency of $1 whose name matches $2.
dep() {
  mx_in_chroot "$root" apt-cache depends "$1" 2>>"$log" |
    sed -n 's/^ *Depends: //p' | grep -E "$2" | head -n 1
}
meta=linux-image-cloud-amd64
pkg=$(dep "$meta" '^linux-image-[0-9].*-cloud-amd64$') ||
  mx_die "$suite: $meta depends on no linux-image-*-cloud-amd64; see $log"
[ -n "$pkg" ] || mx_die "$suite: $meta depends on no linux-image-*-cloud-amd64"
bin=$(dep "$pkg" '^linux-binary-[0-9].*-cloud-amd64$' || :)
[ -z "$bin" ] || pkg=$bin
ver=$(mx_in_chroot "$root" apt-cache show --no-all-versions "$pkg" 2>>"$log" |
      sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || mx_die "$suite: no version for $pkg; see $log"

dir=$RSEQ_COMPAT_CACHE/kernel/${pkg}_$ver
if [ ! -e "$dir/.complete" ]; then
  mx_log "$suite: downloading $pkg $ver"
  rm -rf "$root/tmp/rc-kernel" "$dir" && mkdir -p "$root/tmp/rc-kernel" "$dir"
  if ! mx_in_chroot "$root" sh -c "cd /tmp/rc-kernel && apt-get download '$pkg=$ver'" \
       >>"$log" 2>&1; then
    # The index may be older than the mirror: refresh it once.
    mx_in_chroot "$root" apt-get update -q >>"$log" 2>&1 || :
    mx_in_chroot "$root" sh -c "cd /tmp/rc-kernel && apt-get download '$pkg'" \
      >>"$log" 2>&1 || mx_die "$suite: apt-get download $pkg failed; see $log"
  fi
  deb=$(ls "$root"/tmp/rc-kernel/*.deb | head -n 1)
  # /boot/vmlinuz-RELEASE, or /usr/lib/modules/RELEASE/vmlinuz (sid).
  mkdir -p "$dir/x"
  dpkg-deb -x "$deb" "$dir/x" 2>>"$log" || mx_die "$suite: cannot unpack $deb"
  img=$(find "$dir/x/boot" "$dir/x/usr/lib/modules" -name 'vmlinuz*' 2>/dev/null | head -n 1)
  [ -n "$img" ] || mx_die "$suite: no vmlinuz in $(basename "$deb")"
  case $img in
    */boot/vmlinuz-*) release=${img##*/vmlinuz-} ;;
    *) release=$(basename "$(dirname "$img")") ;;
  esac
  mv "$img" "$dir/vmlinuz"
  echo "$release" > "$dir/release"
  rm -rf "$dir/x"
  rm -rf "$root/tmp/rc-kernel"
  touch "$dir/.complete"
fi
echo "$dir/vmlinuz"
