#!/bin/sh
# deps.sh: make sure the host has what make check-matrix needs: the
# packages of build-aux/debian-packages (make check's) and of
# build-aux/matrix/debian-packages, and root.  As root, installs what is
# missing with apt-get; otherwise says exactly what to run and fails.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(dirname "$0")
missing=
while read -r cmd pkg; do
  case $cmd in ''|'#'*) continue ;; esac
  command -v "$cmd" >/dev/null 2>&1 || missing="$missing $pkg"
done < "$here/debian-packages"

if [ "$(id -u)" -ne 0 ]; then
  # make check's packages: ensure-deps names the missing ones.
  "$here/../ensure-deps" || :
  echo "make check-matrix must run as root: it creates chroots with debootstrap," >&2
  echo "enters them with chroot and mount namespaces, and mounts /proc inside." >&2
  [ -z "$missing" ] || echo "It also needs these Debian packages:$missing" >&2
  echo "Run:" >&2
  [ -z "$missing" ] || echo "  sudo apt-get install -y$missing" >&2
  echo "  sudo make check-matrix" >&2
  exit 1
fi
"$here/../ensure-deps" || exit 1
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "check-matrix: missing$missing, and no apt-get to install them with" >&2
  exit 1
fi
echo "check-matrix: installing$missing"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends $missing </dev/null; then
  apt-get update -q </dev/null && apt-get install -y -q --no-install-recommends $missing </dev/null || {
    echo "check-matrix: apt-get could not install$missing" >&2
    exit 1
  }
fi
