#!/bin/sh
# chroot.sh SUITE [ARCH]: make (or reuse) a minbase chroot of Debian
# SUITE (mx_bootstrap: mmdebstrap) under the cache, with the packages
# `make check` needs (installed by the project's own
# build-aux/ensure-deps), and print its path.  The chroot is reused
# while its stamp exists, and brought up to date (apt-get update and
# dist-upgrade) whenever the suite's package index on the mirror
# (build-aux/suite-index) is not the one it recorded in .rc-index:
# the tiers' keys hold that index, so a passing run's record names the
# packages it ran with.  Updates wait for the tiers using the chroot
# (mx_hold_chroot).
# ARCH (a Debian architecture other than the host's, e.g. arm64) makes
# SUITE-ARCH, whose maintainer scripts and everything after run under
# qemu-user, which binfmt.sh must have registered.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
here=$(dirname "$0")
. "$here/common.sh"
suite=$1
arch=${2:-}
top=$(cd "$here/../.." && pwd)
name=$suite${arch:+-$arch}
root=$RSEQ_COMPAT_CACHE/chroot/$name
log=$RSEQ_COMPAT_CACHE/log/chroot-$name.log
mkdir -p "$RSEQ_COMPAT_CACHE/chroot" "$RSEQ_COMPAT_CACHE/log"
# Several tiers share a suite's chroot: one makes or updates it while
# the others wait.
exec 9>> "$RSEQ_COMPAT_CACHE/chroot/.$name.lock"
flock 9 || mx_die "$name: cannot lock $RSEQ_COMPAT_CACHE/chroot/.$name.lock"

if ! want=$("$top/build-aux/suite-index" --hash "$suite"); then
  # Offline: a finished chroot serves as it is, as it did before the
  # index was followed.  (A tier stops earlier: its key needs the index.)
  [ -e "$root/.rc-complete" ] && [ -s "$root/.rc-index" ] || exit 1
  want=$(cat "$root/.rc-index")
  mx_log "$name: the mirror's $suite index cannot be read: the chroot is used as it is"
fi
if [ ! -e "$root/.rc-complete" ]; then
  mx_chroot_exclusive "$name" "making it"
  mx_log "$name: a new chroot (log: $log)"
  : > "$log"
  mx_bootstrap "$suite" "$root.partial" "$log" "$arch" || exit 1
  rm -rf "$root"
  mv "$root.partial" "$root"
  touch "$root/.rc-complete"
  rm -f "$root/.rc-index"
fi

mx_apt_setup "$root" "$suite"
if [ "$(cat "$root/.rc-index" 2>/dev/null)" != "$want" ]; then
  mx_chroot_exclusive "$name" "updating it"
  mx_log "$name: the mirror's $suite index is new to it: apt-get update and dist-upgrade"
  rm -f "$root/.rc-index"
  mx_apt "$root" apt-get update -q >>"$log" 2>&1 ||
    mx_die "$name: apt-get update failed in the chroot; see $log"
  mx_apt "$root" apt-get dist-upgrade -y -q >>"$log" 2>&1 ||
    mx_die "$name: apt-get dist-upgrade failed in the chroot; see $log"
  have=$("$top/build-aux/suite-index" --root "$root" "$suite")
  echo "$have" > "$root/.rc-index"
  # The mirror moved after WANT was read (it is kept five minutes): read
  # it again, so that the tier's key taken after its run differs from
  # the one before and no record claims the old index.
  if [ "$have" != "$want" ] &&
     [ "$have" != "$(SUITE_INDEX_MAX_AGE=0 "$top/build-aux/suite-index" --hash "$suite")" ]; then
    mx_die "$name: apt fetched a $suite index that is neither the one this run started with nor the mirror's now (the mirror is changing); run again"
  fi
fi
exec 6>&-

# The packages make check needs, from the project's list; a foreign
# architecture's chroot becomes a guest's root, which needs a few more.
lists=$top/build-aux/debian-packages
[ -z "$arch" ] || lists="$lists $here/guest-packages"
# shellcheck disable=SC2086
mx_ensure_deps "$root" "$suite" "$log" $lists ||
  mx_die "$name: installing $lists in the chroot failed; see $log"
echo "$root"
