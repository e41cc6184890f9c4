#!/bin/sh
# inner-build.sh CC MUSL_CC INTERP STAGE PREFIX LIBDIR [HOST]: runs
# inside the bullseye chroot, in a copy of the tree.  Configures it for
# PREFIX and LIBDIR (and, for a cross build, HOST) with CC, the
# compiler driver of the oldest glibc the build is for, and MUSL_CC,
# musl's, builds, and installs into STAGE.  x86-64: check-oldlibc's
# glibc 2.17 (its bin/rc-cc) and musl 1.1.24; AArch64: the chroot's
# cross compiler with Debian's glibc 2.31 for arm64 and musl 1.1.24
# cross-built by inner-musl.sh.  The command is a glibc program like
# the shim, with INTERP, the path every glibc of the architecture has
# its loader at, as its interpreter (rc-cc names the prefix's own):
# enable --system and the check `rseq-compat run rseq-compat info`
# need a glibc program (a static or musl one can neither ask glibc
# whether it registers rseq nor have the shim preloaded: twentieth
# review).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
cc=$1 musl_cc=$2 interp=$3 stage=$4 prefix=$5 libdir=$6 host=${7:-}
rm -rf "$stage"
# The clang and aarch64 copies test compilers; the portable files are
# these two builds and the command.
env CC="$cc" MUSL_CC="$musl_cc" ac_cv_prog_CLANG= ac_cv_prog_CROSS_CC_AARCH64= \
  ./configure ${host:+--host="$host"} --prefix="$prefix" --libdir="$libdir"
cmd="CMD_LDFLAGS=-Wl,--dynamic-linker=$interp"
# The archive's objcopy and ar must know the target's objects.
tools=
[ -z "$host" ] || tools="OBJCOPY=$host-objcopy AR=$host-ar"
make -j"$(nproc)" all "$cmd" $tools
make install DESTDIR="$stage" "$cmd" $tools
sed -n 's/^PACKAGE_VERSION = //p' config.mk > "$stage/.version"
