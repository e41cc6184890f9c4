# expect.sh: what the kernel maintains, by release (sourced by run and,
# inside make check-aarch64's guests, by guest-check.sh; POSIX sh).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

# mx_kernel_expect RELEASE -> "SIZE LEN": __rseq_size and the
# registration length a shim-owned process (or glibc 2.41+) has there:
# AT_RSEQ_FEATURE_SIZE 33 from 7.0 (registered whole), 28 from 6.3, no
# auxv entry (20) before; below 33 bytes the length stays 32.
mx_kernel_expect() {
  set -- $(echo "$1" | sed 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/')
  if [ "$1" -ge 7 ]; then echo "33 33"
  elif [ "$1" -eq 6 ] && [ "$2" -ge 3 ]; then echo "28 32"
  else echo "20 32"; fi
}

# mx_libc_expect MINOR PATCHED RELEASE -> "MODE SIZE LEN": what a process
# of a C library has under kernel RELEASE with the shim preloaded.
# MINOR is glibc's minor version (2.MINOR), empty for musl; PATCHED is 1
# for a glibc with one of our series, which registers with glibc 2.41's
# values whatever its release.  glibc 2.35+ registers by itself (the
# shim steps aside); 2.35-2.40 with a legacy 32-byte registration and
# __rseq_size 20.
mx_libc_expect() {
  set -- "$1" "$2" $(mx_kernel_expect "$3")
  _mode=shim-owned _size=$3 _len=$4
  if [ "$2" = 1 ]; then _mode=libc-owned
  elif [ -n "$1" ] && [ "$1" -ge 35 ]; then
    _mode=libc-owned
    [ "$1" -ge 41 ] || { _size=20 _len=32; }
  fi
  echo "$_mode $_size $_len"
}
