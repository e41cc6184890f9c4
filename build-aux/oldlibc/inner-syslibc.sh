#!/bin/sh
# inner-syslibc.sh PREFIX VERSION: runs inside the bullseye chroot, in the
# private mount namespace that check.sh's command ends with.  Makes the
# glibc installed at PREFIX the system C library of the whole chroot:
# each file of Debian's libc6 package that PREFIX also has (the loader,
# libc.so.6, libpthread.so.0, libdl.so.2, ...) gets PREFIX's file bound
# over it, and PREFIX's loader gets a cache that also lists Debian's
# library directories.  Then the chroot's own programs (/bin/sh, expect,
# setpriv, valgrind, gcc) run on that glibc too, as on a system that
# ships it.  Only for a glibc at least as new as Debian's (2.31): the
# chroot's programs need its symbol versions.  Checks that getconf, a
# Debian program, now reports VERSION.  The binds end with the namespace.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
prefix=$1 version=$2
die() { echo "inner-syslibc.sh: $*" >&2; exit 1; }

interp=$(readelf -l /bin/sh | sed -n 's/.*interpreter: \(\/[^]]*\)].*/\1/p')
[ -n "$interp" ] || die "cannot read /bin/sh's program interpreter"
ldso=$prefix/lib/$(basename "$interp")
[ -x "$ldso" ] || die "$ldso is missing: is $prefix a glibc installation?"
ma=$(gcc -print-multiarch)
dirs=$prefix/lib:/lib/$ma:/usr/lib/$ma

# Once one of Debian's files is replaced, a program started by Debian's
# loader would mix the two glibcs: every mount runs on PREFIX's loader
# and libraries, named explicitly.
mnt() { "$ldso" --library-path "$dirs" /bin/mount "$@"; }

# The cache sits in PREFIX/etc (its sysconfdir); the loader reads it
# there, so a copy listing Debian's directories too goes on a tmpfs and
# is bound over it for this namespace only.
scratch=/run/rco-syslibc
mkdir -p "$scratch"
mnt -t tmpfs tmpfs "$scratch"
"$prefix/sbin/ldconfig" -X -f /dev/null -C "$scratch/ld.so.cache" \
  "$prefix/lib" "/lib/$ma" "/usr/lib/$ma" ||
  die "ldconfig could not write a cache for $prefix and /lib/$ma"
mnt --bind "$scratch/ld.so.cache" "$prefix/etc/ld.so.cache"

# Which file goes over which, worked out before the first bind: from
# then on, only the shell's builtins and mnt may run.
pairs=
for f in $(dpkg -L libc6); do
  case $f in
    "$interp") src=$ldso ;;
    /lib/"$ma"/*.so*)
      [ -L "$f" ] || continue
      src=$prefix/lib/${f##*/} ;;
    *) continue ;;
  esac
  [ -e "$src" ] || continue
  pairs="$pairs $(readlink -f "$src")=$(readlink -f "$f")"
done
[ -n "$pairs" ] || die "no file of Debian's libc6 has a counterpart in $prefix/lib"
# A library of PREFIX that Debian's libc6 does not ship is Debian's in
# the other direction: Debian's libcrypt.so.1 is libxcrypt's, whose
# XCRYPT_2.0 versions Debian's programs (stress-ng among them) need and
# glibc's own libcrypt lacks, yet the cache finds PREFIX's first.
# Only a file dpkg says another package owns: one it cannot place
# (a merged /usr, where it knows /usr/lib paths) stays PREFIX's.
for f in "$prefix"/lib/lib*.so.[0-9]*; do
  deb=/lib/$ma/${f##*/}
  [ -e "$deb" ] && [ -e "$f" ] || continue
  owner=$(dpkg -S "$deb" 2>/dev/null | sed -n '1s/[:,].*//p')
  [ -n "$owner" ] && [ "$owner" != libc6 ] || continue
  pairs="$pairs $(readlink -f "$deb")=$(readlink -f "$f")"
done
bound=
for p in $pairs; do
  mnt --bind "${p%%=*}" "${p#*=}"
  bound="$bound ${p##*/}"
done

got=$(getconf GNU_LIBC_VERSION) || die "getconf does not run on $prefix's glibc"
[ "$got" = "glibc $version" ] ||
  die "the chroot's programs report '$got', not glibc $version, after binding:$bound"
echo "inner-syslibc.sh: glibc $version is the chroot's system C library (bound:$bound)"
