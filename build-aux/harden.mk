# make fuzz and make check-sanitize: clang's libFuzzer and sanitizers on
# the shim.  Included by the Makefile; README "Sanitizers and fuzzing"
# says what is instrumented and why.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: fuzz check-sanitize check-sanitize-asan check-sanitize-tsan

SAN_CLANG := $(or $(CLANG),clang)

# ----------------------------------------------------------------------
# Fuzzing: each target of tests/fuzz for FUZZ_SECONDS, from the corpus
# in tests/fuzz/corpus/TARGET; what libFuzzer adds is kept in
# build/fuzz/corpus/TARGET, a failing input in build/fuzz/crash-TARGET-*.
FUZZ_TARGETS := tunables boot
FUZZ_SECONDS ?= 30
FUZZ_FLAGS := -std=gnu11 -O1 -g $(WARN) -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SRCS := tests/fuzz/libfuzzer.c shim/tunables.c shim/boot.c

$(B)/fuzz/fuzz-%: tests/fuzz/target-%.c $(FUZZ_SRCS) tests/fuzz/fuzz.h \
		  tests/fuzz/model.h $(SHIM_HDRS)
	@mkdir -p $(@D)
	$(SAN_CLANG) -Itests/fuzz $(call shim_cppflags,$(ARCH),$(ARCH_BITS)) \
	  $(FUZZ_FLAGS) $< $(FUZZ_SRCS) -o $@

fuzz: $(FUZZ_TARGETS:%=$(B)/fuzz/fuzz-%)
	@$(srcdir)/build-aux/ensure-deps --check
	@$(srcdir)/build-aux/fuzz-run $(B)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)
