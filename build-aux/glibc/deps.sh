#!/bin/sh
# deps.sh: the host packages make glibc and make check-glibc need
# (build-aux/glibc/host-packages), installed with apt-get as root;
# otherwise says what to run and fails.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -u
here=$(dirname "$0")
missing=
while read -r cmd pkg; do
  case $cmd in ''|'#'*) continue ;; esac
  command -v "$cmd" >/dev/null 2>&1 || missing="$missing $pkg"
done < "$here/host-packages"
if [ "$(id -u)" -ne 0 ]; then
  echo "make glibc / make check-glibc must run as root: they build in a" >&2
  echo "bullseye chroot (debootstrap, chroot, mount namespaces)." >&2
  [ -z "$missing" ] || echo "They also need:  sudo apt-get install -y$missing" >&2
  exit 1
fi
[ -z "$missing" ] && exit 0
echo "glibc: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends $missing </dev/null || {
  apt-get update -q </dev/null &&
    apt-get install -y -q --no-install-recommends $missing </dev/null; } || {
  echo "glibc: apt-get could not install$missing" >&2; exit 1; }
