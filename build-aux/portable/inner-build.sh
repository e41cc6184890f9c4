#!/bin/sh
# inner-build.sh GLIBC MUSL STAGE PREFIX LIBDIR: runs inside the
# bullseye chroot, in a copy of the tree.  Configures it for PREFIX and
# LIBDIR with glibc GLIBC's compiler driver (check-oldlibc's build of
# the oldest glibc) and musl MUSL's, builds, and installs into STAGE.
# The command is a glibc program like the shim, with the system's
# loader as its interpreter (GLIBC's driver names GLIBC's own): enable
# --system and the check `rseq-compat run rseq-compat info` need a
# glibc program (a static or musl one can neither ask glibc whether it
# registers rseq nor have the shim preloaded: twentieth review).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
glibc=$1 musl=$2 stage=$3 prefix=$4 libdir=$5
rm -rf "$stage"
# The clang and aarch64 copies test compilers; the portable files are
# these two builds and the command.
env CC="$glibc/bin/rc-cc" MUSL_CC="$musl/bin/musl-gcc" ac_cv_prog_CLANG= \
  ac_cv_prog_CROSS_CC_AARCH64= ./configure --prefix="$prefix" --libdir="$libdir"
cmd="CMD_LDFLAGS=-Wl,--dynamic-linker=/lib64/ld-linux-x86-64.so.2"
make -j"$(nproc)" all "$cmd"
make install DESTDIR="$stage" "$cmd"
sed -n 's/^PACKAGE_VERSION = //p' config.mk > "$stage/.version"
