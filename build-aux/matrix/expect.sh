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
