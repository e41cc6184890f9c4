# make glibc, make glibc-patch, make check-glibc: the rseq backport for
# glibc 2.31 (nptl/README).  Included by the Makefile; none of these
# needs config.mk.  Run as root (chroot, mount namespaces).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: glibc glibc-patch check-glibc

glibc:
	@$(srcdir)/build-aux/glibc/build.sh

glibc-patch:
	@$(srcdir)/build-aux/glibc/patch.sh $(abspath $(B))/glibc-patch

check-glibc:
	@$(srcdir)/build-aux/glibc/check.sh
