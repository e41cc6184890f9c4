#!/bin/sh
# overlay.sh STAGE ROOT [DEST]: lay a patched glibc over a Debian root
# file system, so that every dynamically linked program in ROOT runs on
# the patched ld.so and libc.  STAGE is the build's `make install
# DESTDIR=STAGE` (configured with --prefix=/usr, as make glibc does);
# ROOT is a Debian root of the same glibc release (bullseye: 2.31) and
# architecture.  The files are written into DEST (default: ROOT itself,
# so give it a copy), at the paths ROOT resolves them through, so DEST
# may also be the upper directory of an overlay mount on ROOT
# (project-tests.sh does that).  POSIX sh; copied into make check-glibc
# GLIBC_ARCH=aarch64's guest/, where it runs on the host or in a guest.
#
# Why the libraries go into Debian's multiarch directory: the patched
# build's own directories (/lib64, /usr/lib64, and /lib for the aarch64
# loader) are not where Debian's programs look.  Their PT_INTERP names
# Debian's loader link (/lib64/ld-linux-x86-64.so.2,
# /lib/ld-linux-aarch64.so.1), which points to the multiarch ld-2.31.so,
# and the loader finds every library through /etc/ld.so.cache, which
# names the multiarch directory.  Replacing the files there under the
# same names changes both at once, and the cache stays valid (same
# names, same cache format).  The patched loader's built-in search path
# is /lib64:/usr/lib64, not Debian's, so a library installed into ROOT
# later is found only once ldconfig has added it to the cache.
#
# libcrypt stays Debian's: bullseye's libcrypt.so.1 is libxcrypt, with
# symbol versions glibc's own libcrypt lacks.  The patched libc looks
# for iconv modules in /usr/lib64/gconv and locales in /usr/lib64/locale,
# which a Debian root does not have: there, iconv has only its built-in
# conversions and setlocale only C and POSIX.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
die() { printf 'overlay.sh: %s\n' "$*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: overlay.sh STAGE ROOT [DEST]"
stage=$1 root=$2 dest=${3:-$2}
[ -e "$stage/lib64/libc.so.6" ] || die "$stage/lib64/libc.so.6: not a staged glibc install"

# The loader's name tells the architecture, and so Debian's directory.
rtld=
for f in "$stage"/lib/ld-linux-*.so.* "$stage"/lib64/ld-linux-*.so.*; do
  [ -e "$f" ] && { rtld=$f; break; }
done
case ${rtld##*/} in
  ld-linux-x86-64.so.2) triplet=x86_64-linux-gnu ;;
  ld-linux-aarch64.so.1) triplet=aarch64-linux-gnu ;;
  '') die "$stage: no ld-linux-*.so.* in lib/ or lib64/" ;;
  *) die "$stage: loader ${rtld##*/}: no Debian multiarch directory known for it" ;;
esac
rtlddir=${rtld%/*}
rtlddir=${rtlddir##*/}

# real REL: REL as ROOT resolves it, for DEST: on a merged-/usr root,
# lib, lib64, bin and sbin are links into usr/, which an overlay's upper
# directory must not shadow with directories of its own.
real() {
  case $1 in
    lib/*|lib64/*|bin/*|sbin/*) [ -L "$root/${1%%/*}" ] && { echo "usr/$1"; return; } ;;
  esac
  echo "$1"
}

multi=$(real "lib/$triplet")
[ -e "$root/$multi/libc.so.6" ] || die "$root: no $multi/libc.so.6: not a Debian $triplet root"
mkdir -p "$dest/$multi" || exit 1
n=0
for f in "$stage"/lib64/*; do
  case ${f##*/} in libcrypt[.-]*) continue ;; esac
  rm -f "$dest/$multi/${f##*/}"
  cp -a "$f" "$dest/$multi/" || die "cannot copy $f to $dest/$multi"
  n=$((n + 1))
done

# Debian's loader link normally names the multiarch ld-2.31.so, which
# was just replaced.  A root whose link names a file the stage does not
# have (or whose loader is a plain file) gets the patched loader there.
link=$(real "$rtlddir/${rtld##*/}")
if [ -L "$root/$link" ]; then
  t=$(readlink "$root/$link")
  if [ ! -e "$stage/lib64/${t##*/}" ]; then
    case $t in /*) t=${t#/} ;; *) t=${link%/*}/$t ;; esac
    t=$(real "$t")
    mkdir -p "$dest/${t%/*}" && rm -f "$dest/$t" && cp -L "$rtld" "$dest/$t" ||
      die "cannot install the loader as $dest/$t"
  fi
elif [ -e "$root/$link" ]; then
  mkdir -p "$dest/${link%/*}" && rm -f "$dest/$link" && cp -L "$rtld" "$dest/$link" ||
    die "cannot install the loader as $dest/$link"
else
  die "$root: no loader $rtlddir/${rtld##*/} (not a $triplet root)"
fi
echo "overlay.sh: $n files of $stage/lib64 laid over $root/$multi (loader /$rtlddir/${rtld##*/})"
