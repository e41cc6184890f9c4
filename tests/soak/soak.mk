# make soak: tests/soak/soak.c on musl + the shim and on Debian bullseye
# (glibc 2.31) + the shim in the check-matrix chroot, a million threads
# each under signals and forks; under five minutes.  Writes
# build/soak.log.  See tests/soak/run.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: soak
soak: all
	@$(srcdir)/build-aux/ensure-deps --check
	@MUSL_CC="$(MUSL_CC)" $(srcdir)/tests/soak/run $(abspath $(B))
