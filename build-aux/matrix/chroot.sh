#!/bin/sh
# chroot.sh SUITE: make (or reuse) a debootstrap --variant=minbase chroot
# of Debian SUITE under the cache, with the packages `make check` needs
# (installed by the project's own build-aux/ensure-deps), and print its
# path.  The chroot is reused while its stamp exists; its package indexes
# are refreshed once they are older than MATRIX_MAX_AGE.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
suite=$1
top=$(cd "$here/../.." && pwd)
root=$MATRIX_CACHE/chroot/$suite
log=$MATRIX_CACHE/log/chroot-$suite.log
mkdir -p "$MATRIX_CACHE/chroot" "$MATRIX_CACHE/log"

if [ ! -e "$root/.rc-complete" ]; then
  mx_log "$suite: debootstrap --variant=minbase (log: $log)"
  rm -rf "$root.partial"
  if ! debootstrap --variant=minbase "$suite" "$root.partial" "$MATRIX_MIRROR" \
       >"$log" 2>&1; then
    tail -n 5 "$log" >&2
    mx_die "$suite: debootstrap failed; see $log"
  fi
  rm -rf "$root"
  mv "$root.partial" "$root"
  touch "$root/.rc-complete"
  rm -f "$root/.rc-apt-updated"
fi

mx_apt_setup "$root" "$suite"
# Once a day (MATRIX_MAX_AGE), the suite's current packages.
if [ "$(mx_age "$root/.rc-apt-updated")" -gt "$MATRIX_MAX_AGE" ]; then
  mx_log "$suite: apt-get update and dist-upgrade"
  mx_in_chroot "$root" apt-get update -q >>"$log" 2>&1 ||
    mx_die "$suite: apt-get update failed in the chroot; see $log"
  mx_in_chroot "$root" apt-get dist-upgrade -y -q >>"$log" 2>&1 ||
    mx_die "$suite: apt-get dist-upgrade failed in the chroot; see $log"
  touch "$root/.rc-apt-updated"
fi

# The packages make check needs, from the project's list.
mkdir -p "$root/tmp/rc-deps"
cp "$top/build-aux/ensure-deps" "$top/build-aux/debian-packages" "$root/tmp/rc-deps/"
if ! mx_in_chroot "$root" /bin/sh /tmp/rc-deps/ensure-deps >>"$log" 2>&1; then
  tail -n 5 "$log" >&2
  mx_die "$suite: installing build-aux/debian-packages in the chroot failed; see $log"
fi
echo "$root"
