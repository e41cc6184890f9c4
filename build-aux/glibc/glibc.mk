# make glibc, make glibc-patch, make check-glibc, make
# check-glibc-project: the patched glibc of GLIBC_SUITE (bullseye: the
# rseq backport for glibc 2.31, the default; bookworm: the extensible
# registration for glibc 2.36; nptl/README) for GLIBC_ARCH (x86_64, the
# default; aarch64; s390x).
# Included by the Makefile; none of these needs config.mk.  Run as root
# (chroot, mount namespaces).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: glibc glibc-patch check-glibc check-glibc-project check-glibc-shim glibc-deb

GLIBC_SUITE ?= bullseye
export GLIBC_SUITE
# GLIBC_ARCH=aarch64 cross-builds the bullseye series for arm64
# (build/glibc-aarch64/; check-glibc then checks what runs without an
# arm64 machine and writes guest/ for make check-aarch64's guests);
# GLIBC_ARCH=s390x for IBM Z, where the series has no rseq signature
# (check-glibc also runs the tests under qemu-user).
GLIBC_ARCH ?= x86_64
export GLIBC_ARCH
glibc_patch_dir = $(abspath $(B))/glibc-patch$(if $(filter bullseye,$(GLIBC_SUITE)),,-$(GLIBC_SUITE))

glibc:
	@$(srcdir)/build-aux/glibc/build.sh

glibc-patch:
	@$(srcdir)/build-aux/glibc/patch.sh $(glibc_patch_dir)

check-glibc:
	@$(srcdir)/build-aux/glibc/check.sh

# The project's make check on the patched glibc (built if need be).
check-glibc-project:
	@$(srcdir)/build-aux/glibc/check-project.sh

# glibc 2.31's own tests (the unpatched build) without and with the
# shim preloaded: a test the shim makes fail fails this (build/glibc-shim/).
check-glibc-shim:
	@$(srcdir)/build-aux/glibc/shim-oracle.sh

# Debian's bullseye glibc package rebuilt with the series (build/glibc-deb/).
glibc-deb:
	@$(srcdir)/build-aux/glibc/deb.sh
