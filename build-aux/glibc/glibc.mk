# make glibc, make glibc-patch, make check-glibc: the patched glibc of
# GLIBC_SUITE (bullseye: the rseq backport for glibc 2.31, the default;
# bookworm: the extensible registration for glibc 2.36; nptl/README).
# Included by the Makefile; none of these needs config.mk.  Run as root
# (chroot, mount namespaces).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: glibc glibc-patch check-glibc

GLIBC_SUITE ?= bullseye
export GLIBC_SUITE
glibc_patch_dir = $(abspath $(B))/glibc-patch$(if $(filter bullseye,$(GLIBC_SUITE)),,-$(GLIBC_SUITE))

glibc:
	@$(srcdir)/build-aux/glibc/build.sh

glibc-patch:
	@$(srcdir)/build-aux/glibc/patch.sh $(glibc_patch_dir)

check-glibc:
	@$(srcdir)/build-aux/glibc/check.sh
