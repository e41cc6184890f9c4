#!/bin/sh
# deps.sh: root, and the host packages make glibc and make check-glibc
# need (build-aux/glibc/host-packages), installed by build-aux/ensure-deps.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(dirname "$0")
if [ "$(id -u)" -ne 0 ]; then
  "$here/../ensure-deps" "$here/host-packages" || :
  echo "make glibc / make check-glibc must run as root: they build in a" >&2
  echo "Debian chroot (mmdebstrap, chroot, mount namespaces)." >&2
  exit 1
fi
exec "$here/../ensure-deps" "$here/host-packages"
