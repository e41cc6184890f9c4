# make fuzz and make check-sanitize: clang's libFuzzer and sanitizers on
# the shim.  Included by the Makefile; README "Sanitizers and fuzzing"
# says what is instrumented and why.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: fuzz check-sanitize check-sanitize-asan check-sanitize-tsan \
	check-sanitize-bullseye

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

# ----------------------------------------------------------------------
# Sanitized builds.  The inner make of check-sanitize sets SANITIZE to
# asan (AddressSanitizer + UndefinedBehaviorSanitizer) or tsan
# (ThreadSanitizer) and B to build/SANITIZE.
#
# Code that runs before the sanitizer runtime is initialised stays
# uninstrumented: early.c (the IFUNC resolver the loader calls while it
# relocates the shim) and what it calls (boot.c, tunables.c, elf-sym.c,
# rseq-layout.h), and dlsym.c: the runtimes look their interceptors'
# targets up with dlsym (RTLD_NEXT) during their own initialisation,
# before ASan maps its shadow memory, and the shim's dlsym hook is on
# that path.  Instrumented code there would touch shadow memory that is
# not mapped yet (measured: a crash in the hook under ASan).  The fuzz
# targets cover boot.c and tunables.c under ASan and UBSan instead.
# Everything else is instrumented: area.c, thread.c, getcpu.c, init.c,
# query.c and the rseq-compat command.
SAN_PREINIT := early boot tunables elf-sym dlsym
SAN_FLAGS_asan := -fsanitize=address,undefined -fno-sanitize-recover=all
SAN_FLAGS_tsan := -fsanitize=thread
ifneq ($(SANITIZE),)
SAN_FLAGS := $(SAN_FLAGS_$(SANITIZE)) -fno-omit-frame-pointer
CFLAGS += $(SAN_FLAGS)
LDFLAGS += $(SAN_LDFLAGS)
# Executables only (.preinit_array is refused in a shared object): the
# object that starts TSan's shared runtime (build-aux/tsan-preinit.c).
$(B)/rseq-compat: LDFLAGS += $(SAN_EXE_LDFLAGS)
$(SAN_PREINIT:%=$(B)/obj/host/%.o): CFLAGS += -fno-sanitize=all
endif
ifneq ($(SANITIZE),)
# The flags above decide what each object is.
$(host_OBJS) $(CMD_OBJS): $(srcdir)/build-aux/harden.mk
endif

# make check-sanitize: the suite's glibc configurations against the shim
# and test programs built with ASan+UBSan, then again with TSan (clang,
# one shared runtime per process); any failure or report fails it, after
# both ran.  build-aux/sanitize says what runs and what does not, and
# why; check-sanitize-asan and check-sanitize-tsan run one of them.
SAN_RUN = CLANG="$(SAN_CLANG)" $(srcdir)/build-aux/sanitize
check-sanitize:
	@$(srcdir)/build-aux/ensure-deps --check
	@status=0; for kind in asan tsan; do \
	  $(SAN_RUN) $$kind $(abspath $(B))/$$kind "$(MAKE)" || status=1; \
	done; exit $$status
check-sanitize-asan check-sanitize-tsan: check-sanitize-%:
	@$(srcdir)/build-aux/ensure-deps --check
	@$(SAN_RUN) $* $(abspath $(B))/$* "$(MAKE)"

# The ASan+UBSan run in the check-matrix's bullseye chroot (glibc 2.31:
# the shim owns registration), on an overlay; as root, after
# check-matrix made the chroot.  Not part of check-sanitize.
check-sanitize-bullseye:
	@$(srcdir)/build-aux/sanitize-chroot $(abspath $(B))
