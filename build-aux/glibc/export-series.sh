#!/bin/sh
# export-series.sh PRISTINE OUT: write the series of $GLIBC_SUITE as a
# quilt series (OUT/series and OUT/*.patch) against the unpacked
# glibc-source tree PRISTINE.  The series is what make glibc applies, so
# a distribution carrying it builds the same tree.
#
#   00-rseq-new-files.patch  our own files (sysdeps/unix/sysv/linux/...),
#                            created at their glibc paths (for 2.36 the
#                            tests replace glibc's of the same names)
#   01..NN                   $GL_SERIES/series: hunks in glibc's files
#   then, for 2.31 only,
#   NN+1-rseq-abilist.patch  abi-list/glibc-2.31-ld.abilist merged into
#                            every Linux ld.abilist (27 ABIs: i386 and
#                            x32 too), __rseq_offset at each one's
#                            pointer size
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
  echo "rseq registration for $GL_UPSTREAM (rseq-compat): our files."
  echo "Sizes, lengths and alignment all come from rseq-layout.h."
  echo
  for f in $(gl_own_files); do
    if [ -e "$pristine/$f" ]; then
      case " $(echo $GL_REPLACED) " in
        *" $f "*) ;;
        *) gl_die "export-series: $f already exists in $pristine" ;;
      esac
      diff -u --label "a/$f" --label "b/$f" "$pristine/$f" "$GL_TOP/$f" || [ $? -eq 1 ]
    else
      diff -u --label /dev/null --label "b/$f" /dev/null "$GL_TOP/$f" || [ $? -eq 1 ]
    fi
  done
} > "$out/00-rseq-new-files.patch"
echo 00-rseq-new-files.patch > "$out/series"

last=00
while read -r p; do
  case $p in ''|'#'*) continue ;; esac
  cp "$GL_TOP/$GL_SERIES/$p" "$out/$p"
  echo "$p" >> "$out/series"
  last=${p%%-*}
done < "$GL_TOP/$GL_SERIES/series"

[ -n "$GL_ABILIST" ] || exit 0
n=$(printf '%02d' $(( ${last#0} + 1 )))
{
  echo "ld.abilist: __rseq_flags, __rseq_offset, __rseq_size at GLIBC_2.35"
  echo "(from rseq-compat's $GL_ABILIST)."
  echo
  # Every Linux ABI's ld.so exports the three variables, registering or
  # not (an architecture without RSEQ_SIG publishes __rseq_size 0, as
  # glibc 2.35 does), so every ld.abilist lists them.  $GL_ABILIST is
  # written for LP64; __rseq_offset is a ptrdiff_t, as wide as the
  # pointer __libc_stack_end that every ld.abilist lists.
  for f in $(cd "$pristine" && find sysdeps/unix/sysv/linux -name ld.abilist | LC_ALL=C sort); do
    ptr=$(sed -n 's/^GLIBC_[0-9.]* __libc_stack_end D \(0x[0-9a-f]*\)$/\1/p' "$pristine/$f" | head -n 1)
    [ -n "$ptr" ] || gl_die "export-series: $f lists no __libc_stack_end to tell its pointer size"
    sed "s/^\(GLIBC_[0-9.]* __rseq_offset D \)0x[0-9a-f]*$/\1$ptr/" "$GL_TOP/$GL_ABILIST" |
      cat "$pristine/$f" - | LC_ALL=C sort > "$out/.abilist"
    diff -u --label "a/$f" --label "b/$f" "$pristine/$f" "$out/.abilist" || [ $? -eq 1 ]
  done
  rm -f "$out/.abilist"
} > "$out/$n-rseq-abilist.patch"
echo "$n-rseq-abilist.patch" >> "$out/series"
