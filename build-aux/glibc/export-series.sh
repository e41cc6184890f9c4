#!/bin/sh
# export-series.sh PRISTINE OUT: write the backport as a quilt series
# (OUT/series and OUT/*.patch) against the unpacked glibc-source tree
# PRISTINE.  The series is what make glibc applies, so a distribution
# carrying it builds the same tree.
#
#   00-rseq-new-files.patch  our own files (sysdeps/unix/sysv/linux/...),
#                            created at their glibc paths
#   01..07                   nptl/patches/series: hunks in glibc's files
#   08-rseq-abilist.patch    abi-list/glibc-2.31-ld.abilist merged into
#                            the x86_64 and aarch64 ld.abilist files
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
. "$(dirname "$0")/common.sh"
pristine=$1
out=$2
[ -f "$pristine/elf/rtld.c" ] || gl_die "export-series: $pristine is not a glibc tree"
rm -rf "$out"
mkdir -p "$out"

{
  echo "rseq registration backport for glibc 2.31 (rseq-compat): new files."
  echo "Sizes, lengths and alignment all come from rseq-layout.h."
  echo
  for f in $(gl_own_files); do
    [ ! -e "$pristine/$f" ] || gl_die "export-series: $f already exists in $pristine"
    diff -u --label /dev/null --label "b/$f" /dev/null "$GL_TOP/$f" || [ $? -eq 1 ]
  done
} > "$out/00-rseq-new-files.patch"
echo 00-rseq-new-files.patch > "$out/series"

while read -r p; do
  case $p in ''|'#'*) continue ;; esac
  cp "$GL_TOP/nptl/patches/$p" "$out/$p"
  echo "$p" >> "$out/series"
done < "$GL_TOP/nptl/patches/series"

{
  echo "ld.abilist: __rseq_flags, __rseq_offset, __rseq_size at GLIBC_2.35"
  echo "(from rseq-compat's abi-list/glibc-2.31-ld.abilist)."
  echo
  for a in x86_64/64 aarch64; do
    f=sysdeps/unix/sysv/linux/$a/ld.abilist
    cat "$pristine/$f" "$GL_TOP/abi-list/glibc-2.31-ld.abilist" | LC_ALL=C sort > "$out/.abilist"
    diff -u --label "a/$f" --label "b/$f" "$pristine/$f" "$out/.abilist" || [ $? -eq 1 ]
  done
  rm -f "$out/.abilist"
} > "$out/08-rseq-abilist.patch"
echo 08-rseq-abilist.patch >> "$out/series"
