#!/bin/sh
# build.sh NAME: the C library NAME (a line of libcs) built from its
# upstream source in the bullseye chroot and installed in its own
# prefix, /opt/rseq-compat/NAME; prints the cached installed tree (a
# .tar.gz of that prefix).  The cache key is the source's checksum, the
# build fixes (patches/NAME), inner-build.sh and the chroot's toolchain,
# so any of them changing means a new build.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
. "$(dirname "$0")/common.sh"
name=$1
file=$(ol_field "$name" 2)
[ -n "$file" ] || ol_die "unknown C library '$name' (build-aux/oldlibc/libcs lists them)"
src=$OL_SOURCES/$file
[ -r "$src" ] || ol_die "$src is missing: the upstream sources live in ../shared/sources beside the tree (RSEQ_COMPAT_SOURCES names another directory)"
want=$(awk -v f="$file" '$2 == f { print $1 }' "$OL_SOURCES/SHA256SUMS" 2>/dev/null)
[ -n "$want" ] || ol_die "$OL_SOURCES/SHA256SUMS has no checksum for $file"
have=$(sha256sum "$src" | cut -d' ' -f1)
[ "$have" = "$want" ] ||
  ol_die "$src: sha256 $have, but SHA256SUMS says $want: the file is damaged or is not the upstream release; fetch it again"

mkdir -p "$OL_CACHE" "$RSEQ_COMPAT_CACHE/log"
log=$RSEQ_COMPAT_CACHE/log/oldlibc-$name.log
"$OL_TOP/build-aux/matrix/chroot.sh" "$OL_SUITE" >/dev/null
mx_ensure_deps "$OL_ROOT" "$OL_SUITE" "$log.deps" "$OL_HERE/debian-packages" ||
  ol_die "installing build-aux/oldlibc/debian-packages in the $OL_SUITE chroot failed; see $log.deps"

toolchain=$(mx_in_chroot "$OL_ROOT" dpkg-query -W -f '${Package} ${Version}\n' \
              gcc-10 binutils make linux-libc-dev libgcc-s1 gawk bison perl python3)
patches=$(cd "$OL_HERE" && for p in patches/"$name"/*.patch inner-build.sh; do
            [ -e "$p" ] && { echo "$p"; cat "$p"; }; done)
key=$(printf '%s\n%s\n%s\n' "$want" "$patches" "$toolchain" | sha256sum | cut -c1-16)
out=$OL_CACHE/$name-$key.tar.gz
if [ ! -e "$out" ]; then
  ol_log "$name: building (log: $log)"
  in=$OL_ROOT/rco/in/$name
  rm -rf "$in" && mkdir -p "$in/patches"
  cp "$src" "$OL_HERE/inner-build.sh" "$in/"
  cp "$OL_HERE"/patches/"$name"/*.patch "$in/patches/" 2>/dev/null || :
  t0=$(date +%s)
  mx_in_chroot "$OL_ROOT" sh "/rco/in/$name/inner-build.sh" "$name" \
    "/rco/in/$name/$file" "/rco/in/$name/patches" "$(ol_prefix "$name")" \
    "/rco/in/$name/installed.tar.gz" >"$log" 2>&1 || {
      grep -E 'Error|error:' "$log" | head -n 10 >&2
      ol_die "$name: the build failed; see $log"; }
  # Older builds of the same library are dropped.
  rm -f "$OL_CACHE/$name"-*.tar.gz "$OL_CACHE/$name"-*.seconds
  mv "$in/installed.tar.gz" "$out"
  echo $(( $(date +%s) - t0 )) > "$OL_CACHE/$name-$key.seconds"
  rm -rf "$in"
  ol_log "$name: built in $(cat "$OL_CACHE/$name-$key.seconds") s"
fi
echo "$out"
