#!/bin/sh
# deps.sh: make sure the host has what make check-matrix needs: root, and
# the packages of build-aux/debian-packages (make check's) and of
# build-aux/matrix/debian-packages, installed by build-aux/ensure-deps.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(dirname "$0")
if [ "$(id -u)" -ne 0 ]; then
  # Names the missing packages, if any.
  "$here/../ensure-deps" "$here/../debian-packages" "$here/debian-packages" || :
  echo "make check-matrix must run as root: it creates chroots with mmdebstrap," >&2
  echo "enters them with chroot and mount namespaces, and mounts /proc inside." >&2
  echo "Run:  sudo make check-matrix" >&2
  exit 1
fi
exec "$here/../ensure-deps" "$here/../debian-packages" "$here/debian-packages"
