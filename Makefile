# Makefile for rseq-compat.  Hand-written; configure's findings come from
# config.mk (glibc's arrangement with config.make).
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

srcdir := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
# Built in the source tree: build/ and config.mk there.  A build
# directory elsewhere (../configure from it) has a Makefile of its own
# (build-aux/Makefile.oot.in) that runs this one in the sources with
# B and CONFIG_MK pointing back at it, so the source tree is only read.
B := build
CONFIG_MK := config.mk

# A fresh clone has no config.mk: install what is missing (as root), then
# configure, before anything else is read.
ifeq ($(filter deps tier-env clean distclean check-matrix check-oldlibc portable check-portable readme-matrix doc-results glibc glibc-patch check-glibc check-glibc-project check-glibc-shim glibc-deb deb check-vm,$(MAKECMDGOALS)),)
include $(CONFIG_MK)
endif
# Whether the configuration is the sources' own, by its real place: make
# check's tests name it by its absolute path.
CONFIG_IN_TREE := $(filter $(srcdir)/config.mk,$(abspath $(CONFIG_MK)))
ifneq ($(CONFIG_IN_TREE),)
$(CONFIG_MK): config.mk.in configure
	@$(srcdir)/build-aux/ensure-deps --check
	$(srcdir)/configure
else
# Configured elsewhere: configure again there, with its own arguments.
$(CONFIG_MK): config.mk.in configure
	cd $(dir $(CONFIG_MK)) && ./config.status --recheck && ./config.status
endif

SONAME := librseq-compat.so.1
SHIM_SRCS := early.c boot.c area.c tunables.c elf-sym.c getcpu.c dlsym.c start.c thread.c init.c \
	query.c jump.c
SHIM_HDRS := $(wildcard shim/*.h shim/arch/*/*.h sysdeps/unix/sysv/linux/*.h \
		sysdeps/unix/sysv/linux/*/*.h sysdeps/unix/sysv/linux/*/bits/*.h)
SHIM_ASM_HDRS := shim/property-note.h $(wildcard shim/arch/*/asm.h)
WARN := -Wall -Wextra
# CFLAGS are meant for this machine's architecture: a copy for another
# one (the aarch64 cross build) drops the other architecture's
# branch-protection options, which its compiler rejects (dpkg-buildflags
# puts -fcf-protection in CFLAGS on amd64 since Debian 13).
foreign_cflags_x86_64 := -mbranch-protection%
foreign_cflags_aarch64 := -fcf-protection% -mshstk
cflags_for = $(filter-out $(foreign_cflags_$(1)),$(CFLAGS))
# $(1): architecture directory.
shim_cflags = -std=gnu11 -fPIC -fvisibility=hidden $(WARN) $(call cflags_for,$(1))
# -nostartfiles: the library needs nothing of crti.o, crtn.o, crtbeginS.o
# and crtendS.o (its constructor is in .init_array, it registers no
# atexit handler), and they would leave it without branch-protection
# marks wherever one of them lacks the note (Debian's crti.o and crtn.o,
# every start file of the aarch64 cross toolchain).  shim/frame-end.S
# replaces the .eh_frame terminator crtendS.o supplied.
SHIM_LDFLAGS = -shared -nostartfiles -Wl,-soname,$(SONAME) \
	-Wl,--version-script=shim/librseq-compat.map \
	-Wl,-z,initfirst -Wl,-z,relro -Wl,-z,now -Wl,-z,noexecstack \
	-Wl,--no-undefined $(LDFLAGS)
# $(1): architecture directory, $(2): bits/ directory.
shim_cppflags = -Ishim -Ishim/arch/$(1) -Isysdeps/unix/sysv/linux/$(2) \
	-Isysdeps/unix/sysv/linux $(CPPFLAGS)

# Branch protection (README "Branch protection"): every copy is built
# with its architecture's option when its compiler accepts it, so that
# the library carries the IBT and SHSTK, or BTI and PAC, marks.  CFLAGS
# come later on the command line: -fcf-protection=none or
# -mbranch-protection=none there wins.  The assembly files see only
# those options of CFLAGS (asm.h reads what they predefine).
branch_protection_x86_64 := -fcf-protection
branch_protection_aarch64 := -mbranch-protection=standard
cc_accepts = $(shell $(1) -Werror $(2) -x c -c -o /dev/null /dev/null \
		2>/dev/null && echo $(2))
asm_branch_flags = $(filter -fcf-protection% -mbranch-protection%,$(call cflags_for,$(1)))

# One copy of the library per C library or compiler.
# $(1): name, $(2): compiler, $(3): arch, $(4): bits dir, $(5): libraries,
# $(6): output directory.  frame-end.o comes last (see SHIM_LDFLAGS).
define shim_variant
$(1)_BRANCH := $$(call cc_accepts,$(2),$$(branch_protection_$(3)))
$(1)_OBJS := $$(SHIM_SRCS:%.c=$(B)/obj/$(1)/%.o) $(B)/obj/$(1)/stubs.o \
	$(B)/obj/$(1)/frame-end.o
$(B)/obj/$(1)/%.o: shim/%.c $$(SHIM_HDRS) | $(B)/obj/$(1)/
	$(2) $$(call shim_cppflags,$(3),$(4)) $$($(1)_BRANCH) $$(call shim_cflags,$(3)) \
	  -c $$< -o $$@
$(B)/obj/$(1)/%.o: shim/arch/$(3)/%.S $$(SHIM_ASM_HDRS) | $(B)/obj/$(1)/
	$(2) $$(call shim_cppflags,$(3),$(4)) $$($(1)_BRANCH) \
	  $$(call asm_branch_flags,$(3)) -fPIC -c $$< -o $$@
$(B)/obj/$(1)/%.o: shim/%.S $$(SHIM_ASM_HDRS) | $(B)/obj/$(1)/
	$(2) $$(call shim_cppflags,$(3),$(4)) $$($(1)_BRANCH) \
	  $$(call asm_branch_flags,$(3)) -fPIC -c $$< -o $$@
$(6)/$(SONAME): $$($(1)_OBJS) shim/librseq-compat.map | $(6)/
	$(2) $$($(1)_BRANCH) $$(call shim_cflags,$(3)) $$(SHIM_LDFLAGS) -o $$@ \
	  $$($(1)_OBJS) $(5)
	ln -sf $(SONAME) $(6)/librseq-compat.so
endef

VARIANT_LIBS := $(B)/$(SONAME)
$(eval $(call shim_variant,host,$(CC),$(ARCH),$(ARCH_BITS),$(SHIM_LIBS),$(B)))

# The musl copy: the demo and the shim-owned tests run on it.
ifneq ($(MUSL_CC),)
ifeq ($(LIBC),glibc)
$(eval $(call shim_variant,musl,$(MUSL_CC),$(ARCH),$(ARCH_BITS),,$(B)/musl))
VARIANT_LIBS += $(B)/musl/$(SONAME)
endif
endif
ifneq ($(CLANG),)
$(eval $(call shim_variant,clang,$(CLANG),$(ARCH),$(ARCH_BITS),$(SHIM_LIBS),$(B)/clang))
CHECK_LIBS += $(B)/clang/$(SONAME)
endif
ifneq ($(CROSS_CC_AARCH64),)
# dlvsym is in libdl before glibc 2.34; on newer cross libraries libdl is
# an empty stub, so asking for it is harmless.
$(eval $(call shim_variant,aarch64,$(CROSS_CC_AARCH64),aarch64,aarch64,-ldl,$(B)/aarch64))
CHECK_LIBS += $(B)/aarch64/$(SONAME)
endif

# librseq-compat.a, for static programs (make static; doc/static.md).
# The shim's sources less those that serve a dynamic loader (dlsym.c;
# boot.c reads the initial stack for early.c's IFUNC resolver), plus
# shim/static-*.c, which hold what a static link changes, all compiled
# with RSEQ_COMPAT_STATIC.  -fPIC (from shim_cflags) keeps the archive
# usable in static-pie programs.  The objects become ONE relocatable
# member: a static link takes an archive's members one by one, only
# for symbols still undefined, so a reference to any of its symbols
# must bring all of them (the start-up entry of static-start.c above
# all, which nothing references).  Hidden symbols are made local
# there, so that the archive's internals cannot meet a program's.
# static-dlsym.c is a second member, taken only by a link whose
# program calls dlsym under -Wl,--wrap=dlsym (the file says why).
STATIC_SRCS := $(filter-out dlsym.c boot.c jump.c,$(SHIM_SRCS)) static-real.c \
	static-libc.c static-start.c
OBJCOPY ?= objcopy
# $(1): name, $(2): compiler, $(3): arch, $(4): bits dir, $(5): output
# directory, $(6) and $(7): the objcopy and ar for that arch (the host's
# know no other machine's objects).
define static_variant
$(1)_BRANCH := $$(call cc_accepts,$(2),$$(branch_protection_$(3)))
$(1)_OBJS := $$(STATIC_SRCS:%.c=$(B)/obj/$(1)/%.o) $(B)/obj/$(1)/stubs.o
$(B)/obj/$(1)/%.o: shim/%.c $$(SHIM_HDRS) | $(B)/obj/$(1)/
	$(2) -DRSEQ_COMPAT_STATIC=1 $$(call shim_cppflags,$(3),$(4)) \
	  $$($(1)_BRANCH) $$(call shim_cflags,$(3)) -c $$< -o $$@
$(B)/obj/$(1)/%.o: shim/arch/$(3)/%.S $$(SHIM_ASM_HDRS) | $(B)/obj/$(1)/
	$(2) -DRSEQ_COMPAT_STATIC=1 $$(call shim_cppflags,$(3),$(4)) \
	  $$($(1)_BRANCH) $$(call asm_branch_flags,$(3)) -fPIC -c $$< -o $$@
$(5)/librseq-compat.a: $$($(1)_OBJS) $(B)/obj/$(1)/static-dlsym.o | $(5)/
	$(2) -r -nostdlib -o $(B)/obj/$(1)/librseq-compat.o $$($(1)_OBJS)
	$(6) --localize-hidden $(B)/obj/$(1)/librseq-compat.o
	rm -f $$@
	$(7) rcs $$@ $(B)/obj/$(1)/librseq-compat.o $(B)/obj/$(1)/static-dlsym.o
endef

# For the host (x86-64 or AArch64: the architectures whose start-up
# entries static-start.c knows), for musl beside a host glibc, and for
# AArch64 with the cross compiler (built and linked only: make check
# runs no AArch64 program but under qemu-user, static.exp), whose
# binutils carry its prefix (aarch64-linux-gnu-gcc: aarch64-linux-gnu-).
STATIC_LIBS :=
ifneq ($(filter x86_64 aarch64,$(ARCH)),)
$(eval $(call static_variant,static-host,$(CC),$(ARCH),$(ARCH_BITS),$(B),$(OBJCOPY),$(AR)))
STATIC_LIBS += $(B)/librseq-compat.a
ifneq ($(MUSL_CC),)
ifeq ($(LIBC),glibc)
$(eval $(call static_variant,static-musl,$(MUSL_CC),$(ARCH),$(ARCH_BITS),$(B)/musl,$(OBJCOPY),$(AR)))
STATIC_LIBS += $(B)/musl/librseq-compat.a
endif
endif
endif
ifneq ($(CROSS_CC_AARCH64),)
ifeq ($(ARCH),x86_64)
CROSS_PREFIX_AARCH64 := $(patsubst %gcc,%,$(filter %gcc,$(firstword $(CROSS_CC_AARCH64))))
$(eval $(call static_variant,static-aarch64,$(CROSS_CC_AARCH64),aarch64,aarch64,$(B)/aarch64,$(CROSS_PREFIX_AARCH64)objcopy,$(CROSS_PREFIX_AARCH64)ar))
STATIC_LIBS += $(B)/aarch64/librseq-compat.a
endif
endif
.PHONY: static
static: $(STATIC_LIBS)

# The archive for another C library of this architecture, whose headers
# are in LIBC_INCLUDE (directories, searched in that order: an installed
# prefix's include/, or a Debian root's usr/include/$(ARCH)-linux-gnu
# and usr/include).  The archive is that C library's: built from its
# headers alone (-nostdinc; the compiler's own headers stay), glibc's
# when they define __GLIBC__, musl's otherwise.  Nothing is linked, so
# the C library's objects are not needed until a program is:
#
#   make static-for STATIC_FOR_NAME=glibc-2.17 \
#     LIBC_INCLUDE=/opt/rseq-compat/glibc-2.17/include
#
# writes $(B)/static-for/glibc-2.17/librseq-compat.a (objects in
# $(B)/obj/static-for-glibc-2.17/).  tests/rseq.shim/static-old.exp
# builds it so for glibc 2.17, 2.28 and musl 1.1.24 (make
# check-oldlibc's builds) and Debian bullseye's glibc 2.31.
STATIC_FOR_NAME ?= other
STATIC_FOR_DIR := $(B)/static-for/$(STATIC_FOR_NAME)
.PHONY: static-for
ifneq ($(strip $(LIBC_INCLUDE)),)
ifneq ($(filter x86_64 aarch64,$(ARCH)),)
CC_INCLUDE := $(shell $(CC) -print-file-name=include)
STATIC_FOR_CC := $(CC) -nostdinc -isystem $(CC_INCLUDE) \
	-isystem $(CC_INCLUDE)-fixed $(addprefix -isystem ,$(LIBC_INCLUDE))
$(eval $(call static_variant,static-for-$(STATIC_FOR_NAME),$(STATIC_FOR_CC),$(ARCH),$(ARCH_BITS),$(STATIC_FOR_DIR),$(OBJCOPY),$(AR)))
static-for: $(STATIC_FOR_DIR)/librseq-compat.a
else
static-for:
	@echo "make static-for: the archive knows x86-64 and AArch64 only" >&2; exit 1
endif
else
static-for:
	@echo "make static-for: LIBC_INCLUDE must name the C library's include directories" >&2; exit 1
endif

# Directories are made by this pattern rule; without .PRECIOUS make
# takes those of the clang and aarch64 copies for intermediate files and
# tries to delete them at the end.
.PRECIOUS: %/
%/:
	mkdir -p $@

# The preload layout (build-aux/preload-layout says how it works): one
# LD_PRELOAD entry, DIR/$LIB/librseq-compat.so.1, that glibc's loader
# resolves to the glibc build and musl's to the musl build, so that a
# process tree mixing C libraries gets the right shim in every process.
# GLIBC_DST_LIB is what this machine's glibc expands $LIB to; the names
# usual on this architecture's distributions are linked too.  DIR is
# $(B)/preload in the build tree, $(pkglibdir) once installed; the link
# targets below are relative to it ("-": no such build).
PRELOAD_LAYOUT := $(srcdir)/build-aux/preload-layout
ifeq ($(LIBC),glibc)
GLIBC_DST_LIB := $(shell $(PRELOAD_LAYOUT) probe)
ifeq ($(GLIBC_DST_LIB)$(filter clean distclean,$(MAKECMDGOALS)),)
$(error cannot tell what this machine's glibc loader expands $$LIB to \
  (build-aux/preload-layout probe printed nothing))
endif
PRELOAD_GLIBC_NAMES := $(sort $(GLIBC_DST_LIB) lib/$(ARCH)-linux-gnu lib64 lib)
PRELOAD_GLIBC := ../$(SONAME)
HAVE_MUSL_BUILD := $(filter $(B)/musl/$(SONAME),$(VARIANT_LIBS))
PRELOAD_MUSL_BUILD := $(if $(HAVE_MUSL_BUILD),../musl/$(SONAME),-)
PRELOAD_MUSL_INSTALLED := $(if $(HAVE_MUSL_BUILD),musl/$(SONAME),-)
else
# A musl machine: the host build is the musl one; no glibc build.
GLIBC_DST_LIB :=
PRELOAD_GLIBC_NAMES :=
PRELOAD_GLIBC := -
PRELOAD_MUSL_BUILD := ../$(SONAME)
PRELOAD_MUSL_INSTALLED := ../$(SONAME)
endif
$(B)/preload/.stamp: $(VARIANT_LIBS) $(PRELOAD_LAYOUT) $(CONFIG_MK) | $(B)/
	rm -rf $(B)/preload
	$(PRELOAD_LAYOUT) make $(B)/preload $(PRELOAD_GLIBC) \
	  $(PRELOAD_MUSL_BUILD) $(PRELOAD_GLIBC_NAMES)
	touch $@

# make fuzz, make check-sanitize.
include $(srcdir)/build-aux/harden.mk

# The command, in shim/cmd/: one file per job, layered as shim/cmd/layers
# says (tests/rseq.build/cmd-layers.exp checks it), and the library's
# parser of GLIBC_TUNABLES so that both read the knob alike.  info -p
# traces from a thread of its own (-pthread: libpthread before glibc
# 2.34).
PROGRAM := $(B)/rseq-compat
CMD_SRCS := rseq-compat.c run.c info.c collect-self.c collect-proc.c \
	collect-pid.c collect-ptrace.c collect-nostop.c glibc-threads.c \
	procfs.c fuse-check.c permission.c derive.c print-text.c print-json.c \
	report.c errname.c bounded.c system.c
CMD_HDRS := $(wildcard shim/cmd/*.h)
CMD_OBJS := $(CMD_SRCS:%.c=$(B)/obj/cmd/%.o) $(B)/obj/cmd/tunables.o
# CMD_LDFLAGS: the command's own link flags (make portable: the
# system's loader as its interpreter, instead of the one the build's
# glibc names).
CMD_LDFLAGS =
# The preload layout as seen from the installed command, where bindir is
# PREFIX/bin and pkglibdir under PREFIX: a copy of the installed tree
# unpacked elsewhere (the portable tarball) then finds its own.
CMD_BIN_TO_PRELOAD = $(if $(filter $(prefix)/bin,$(bindir)),$(if \
  $(filter $(prefix)/%,$(pkglibdir)),../$(patsubst $(prefix)/%,%,$(pkglibdir))))
cmd_compile = $(CC) -std=gnu11 $(WARN) \
	$(call shim_cppflags,$(ARCH),$(ARCH_BITS)) $(CFLAGS) \
	-DRSEQ_COMPAT_LIBDIR='"$(libdir)"' \
	-DRSEQ_COMPAT_PRELOADDIR='"$(preloaddir)"' \
	-DRSEQ_COMPAT_BIN_TO_PRELOAD='"$(CMD_BIN_TO_PRELOAD)"' \
	-DRSEQ_COMPAT_GLIBC_LIB='"$(GLIBC_DST_LIB)"' \
	-DRSEQ_COMPAT_VERSION='"$(PACKAGE_VERSION)"' -c $< -o $@
# config.mk too: the command has libdir and the preload directory
# compiled in, and a new configure must not leave the old ones.
$(B)/obj/cmd/%.o: shim/cmd/%.c $(CMD_HDRS) $(SHIM_HDRS) $(CONFIG_MK) | $(B)/obj/cmd/
	$(cmd_compile)
$(B)/obj/cmd/tunables.o: shim/tunables.c $(SHIM_HDRS) $(CONFIG_MK) | $(B)/obj/cmd/
	$(cmd_compile)
$(PROGRAM): $(CMD_OBJS) | $(B)/ $(B)/obj/cmd/
	$(CC) $(CFLAGS) -pthread -o $@ $(CMD_OBJS) $(LDFLAGS) $(CMD_LDFLAGS) $(SHIM_LIBS)

# Written again by install, so that a prefix given to make install lands
# in the installed copy.
# pkg-config --static's words for librseq-compat.a, where one is built
# for the host: -u takes the archive into a program that refers to
# nothing in it, and names a symbol that only the archive defines, so
# the same words in a dynamic link change nothing (static-start.c);
# -lpthread after the archive, whose pthread_create calls
# __pthread_create_2_1, in libpthread.a before glibc 2.34 (an empty
# library since, and on musl).  Empty where no archive is built.
comma := ,
PC_LIBS_PRIVATE := $(if $(filter $(B)/librseq-compat.a,$(STATIC_LIBS)),-Wl$(comma)-u$(comma)__rseq_compat_static -lpthread)
make_pc = sed -e 's|@prefix@|$(prefix)|' -e 's|@libdir@|$(libdir)|' \
	    -e 's|@includedir@|$(includedir)|' \
	    -e 's|@LIBS_PRIVATE@|$(PC_LIBS_PRIVATE)|' \
	    -e 's|@VERSION@|$(PACKAGE_VERSION)|' shim/rseq-compat.pc.in
$(B)/rseq-compat.pc: shim/rseq-compat.pc.in $(CONFIG_MK) | $(B)/
	$(make_pc) > $@

.DEFAULT_GOAL := all
.PHONY: all check check-build check-run demo deps install uninstall clean distclean dist distcheck
.PHONY: check-matrix
all: $(VARIANT_LIBS) $(STATIC_LIBS) $(PROGRAM) $(B)/rseq-compat.pc $(B)/preload/.stamp

deps:
	@$(srcdir)/build-aux/ensure-deps

# Every copy of the library (gcc, clang, musl, the aarch64 cross build)
# must build warning-free; the test suite checks each one's symbols.
check-build: all $(CHECK_LIBS)

# check-run runs the DejaGnu suite against what is built; RUNTESTFLAGS
# can name .exp files, TESTDIR another results directory.
TESTDIR ?= $(B)/tests
check: check-build
	@$(MAKE) --no-print-directory check-run

check-run:
	@$(srcdir)/build-aux/ensure-deps --check
	@rm -rf $(TESTDIR) && mkdir -p $(TESTDIR)
	-cd $(TESTDIR) && $(RUNTEST) --tool rseq --srcdir $(srcdir)/tests \
	  BUILDDIR=$(abspath $(B)) CONFIG_MK=$(abspath $(CONFIG_MK)) \
	  SRCDIR=$(srcdir) CC="$(CC)" \
	  MUSL_CC="$(MUSL_CC)" CLANG="$(CLANG)" \
	  CROSS_CC_AARCH64="$(CROSS_CC_AARCH64)" ARCH=$(ARCH) \
	  ARCH_BITS=$(ARCH_BITS) LIBC=$(LIBC) \
	  LIBDIR="$(libdir)" PRELOADDIR="$(preloaddir)" $(RUNTESTFLAGS) > runtest.log 2>&1; \
	  echo $$? > runtest.status
	@$(srcdir)/build-aux/summarize $(TESTDIR)

# The shim on real Debian userlands (chroots) and kernels (qemu), as
# root; writes build/matrix.md.  See build-aux/matrix/run.
check-matrix:
	@$(srcdir)/build-aux/matrix/run

# The test suite on arm64 Debian userlands under arm64 kernels (qemu,
# TCG), as root; writes build/aarch64.md.  See build-aux/matrix/aarch64.
.PHONY: check-aarch64
check-aarch64:
	@$(srcdir)/build-aux/matrix/aarch64

# The Debian packages (debian/), built, linted, installed, used, removed
# and purged in a chroot of each suite, as root; writes build/deb.md and
# build/deb/SUITE/*.deb.  See build-aux/deb/run.
.PHONY: deb
deb:
	@$(srcdir)/build-aux/deb/run

# A booted bullseye system (systemd, QEMU TCG) four times: stock, the
# shim in /etc/ld.so.preload, the patched libc6 of make glibc-deb, and
# stock again, as root; writes build/vm.md and build/vm/.  See
# build-aux/vm/run.
.PHONY: check-vm
check-vm:
	@$(srcdir)/build-aux/vm/run

# The shim on glibc 2.17, 2.26, 2.28, 2.34 and musl 1.1.24, built from
# ../shared/sources, as root; writes build/oldlibc.md and stages their
# rows for check-matrix.  See build-aux/oldlibc/run.
.PHONY: check-oldlibc
check-oldlibc:
	@$(srcdir)/build-aux/oldlibc/run

# The portable tarball (build/portable/rseq-compat-VERSION-ARCH-linux.tar.xz:
# the glibc shim and the command built against glibc 2.17, the musl
# shim against musl 1.1.24), audited for symbol versions and
# libraries; check-portable tests it on every C library the project
# tests and writes build/portable.md.  As root; see build-aux/portable/.
.PHONY: portable check-portable
portable:
	@$(srcdir)/build-aux/portable/build >/dev/null
check-portable:
	@$(srcdir)/build-aux/portable/check

# The result tables under build/ (matrix.md, oldlibc.md, aarch64.md,
# vm.md, soak.md, deb.md, check-full.md, bench.md) into the README and the
# manual, each between its marker lines; RESULTS=NAME... copies only
# those.  readme-matrix is the README's "Tested on" table alone.
.PHONY: doc-results readme-matrix
doc-results:
	@$(srcdir)/build-aux/doc-results --build $(abspath $(B)) $(RESULTS)
readme-matrix:
	@$(srcdir)/build-aux/doc-results --build $(abspath $(B)) matrix

include $(srcdir)/build-aux/glibc/glibc.mk
include $(srcdir)/build-aux/tiers/tiers.mk

# make bench: tests/bench, on the host C library, musl and (when the
# matrix chroot exists, as root) bullseye, with and without the shim;
# writes build/bench.md and build/bench-*.png.  Not part of check or CI.
.PHONY: bench
bench: all
	@CC="$(CC)" MUSL_CC="$(MUSL_CC)" ARCH=$(ARCH) ARCH_BITS=$(ARCH_BITS) \
	  $(srcdir)/tests/bench/run $(abspath $(B))

include $(srcdir)/tests/soak/soak.mk

demo: all
	@$(srcdir)/build-aux/ensure-deps --check
	@CC="$(CC)" MUSL_CC="$(MUSL_CC)" ARCH=$(ARCH) ARCH_BITS=$(ARCH_BITS) \
	  $(srcdir)/build-aux/demo $(abspath $(B))

# ----------------------------------------------------------------------
# Installation.  <sys/rseq.h> and <bits/rseq.h> only where the C library
# lacks them: glibc 2.35+ ships its own, and two would conflict.
pkglibdir = $(libdir)/rseq-compat
# /etc/ld.so.preload's entry (rseq-compat enable --system) is
# $(preloaddir)/$LIB/librseq-compat.so.1, a directory shared by every
# architecture installed (Debian's multiarch): glibc's loader of each
# one expands $LIB to its own name and finds there the link its own
# installation added, so an i386 or qemu-user arm64 process on an amd64
# machine loads its own copy instead of failing on the native one.
# Only glibc's loader reads that file, so only glibc names go there.
# Where it is $(pkglibdir) (a libdir of $(prefix)/lib), the layout
# there has them already.
preloaddir = $(prefix)/lib/rseq-compat
PRELOAD_SYSTEM_NAMES := $(GLIBC_DST_LIB)
INSTALL ?= install

# What make install writes and make uninstall removes, checked first by
# build-aux/install-guard: never over an installed package's files
# (prefix=/usr on top of the Debian package).
INSTALLED_PATHS = $(libdir)/$(SONAME) $(libdir)/librseq-compat.so \
  $(libdir)/librseq-compat.a \
  $(bindir)/rseq-compat $(includedir)/rseq-compat.h \
  $(libdir)/pkgconfig/rseq-compat.pc $(pkglibdir) $(preloaddir) \
  $(mandir)/man1/rseq-compat.1 $(mandir)/man3/rseq-compat.h.3 \
  $(mandir)/man7/rseq-compat.7
ifeq ($(HAVE_SYS_RSEQ_H),no)
INSTALLED_PATHS += $(includedir)/sys/rseq.h $(includedir)/bits/rseq.h
endif

# Checked before anything is split at its blanks: single quotes keep
# each value as make has it (one holding a quote stops the shell).
INSTALL_DIRS_CHECK = $(srcdir)/build-aux/install-guard dirs 'DESTDIR=$(DESTDIR)' \
  'prefix=$(prefix)' 'bindir=$(bindir)' 'libdir=$(libdir)' \
  'includedir=$(includedir)' 'mandir=$(mandir)' 'pkglibdir=$(pkglibdir)' \
  'preloaddir=$(preloaddir)'

install: all
	$(INSTALL_DIRS_CHECK)
	$(srcdir)/build-aux/install-guard install "$(DESTDIR)" $(INSTALLED_PATHS)
	$(INSTALL) -d $(DESTDIR)$(libdir) $(DESTDIR)$(bindir) \
	  $(DESTDIR)$(includedir) $(DESTDIR)$(libdir)/pkgconfig
	$(INSTALL) -m 755 $(B)/$(SONAME) $(DESTDIR)$(libdir)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(libdir)/librseq-compat.so
ifneq ($(filter $(B)/librseq-compat.a,$(STATIC_LIBS)),)
	$(INSTALL) -m 644 $(B)/librseq-compat.a $(DESTDIR)$(libdir)/librseq-compat.a
endif
	$(INSTALL) -m 755 $(PROGRAM) $(DESTDIR)$(bindir)/rseq-compat
	$(INSTALL) -m 644 shim/include/rseq-compat.h $(DESTDIR)$(includedir)/
	$(make_pc) > $(DESTDIR)$(libdir)/pkgconfig/rseq-compat.pc
ifeq ($(HAVE_SYS_RSEQ_H),no)
	$(INSTALL) -d $(DESTDIR)$(includedir)/sys $(DESTDIR)$(includedir)/bits
	$(INSTALL) -m 644 sysdeps/unix/sysv/linux/sys/rseq.h $(DESTDIR)$(includedir)/sys/
	$(INSTALL) -m 644 sysdeps/unix/sysv/linux/$(ARCH_BITS)/bits/rseq.h $(DESTDIR)$(includedir)/bits/
endif
	$(INSTALL) -d $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man3 \
	  $(DESTDIR)$(mandir)/man7
	$(INSTALL) -m 644 shim/man/rseq-compat.1 $(DESTDIR)$(mandir)/man1/
	$(INSTALL) -m 644 shim/man/rseq-compat.h.3 $(DESTDIR)$(mandir)/man3/
	$(INSTALL) -m 644 shim/man/rseq-compat.7 $(DESTDIR)$(mandir)/man7/
ifneq ($(filter $(B)/musl/$(SONAME),$(VARIANT_LIBS)),)
	$(INSTALL) -d $(DESTDIR)$(pkglibdir)/musl
	$(INSTALL) -m 755 $(B)/musl/$(SONAME) $(DESTDIR)$(pkglibdir)/musl/$(SONAME)
endif
# musl's archive beside musl's shim: -L$(pkglibdir)/musl finds both, and
# $(libdir) holds the glibc ones (doc/static.md).
ifneq ($(filter $(B)/musl/librseq-compat.a,$(STATIC_LIBS)),)
	$(INSTALL) -d $(DESTDIR)$(pkglibdir)/musl
	$(INSTALL) -m 644 $(B)/musl/librseq-compat.a $(DESTDIR)$(pkglibdir)/musl/librseq-compat.a
endif
	$(PRELOAD_LAYOUT) make $(DESTDIR)$(pkglibdir) $(PRELOAD_GLIBC) \
	  $(PRELOAD_MUSL_INSTALLED) $(PRELOAD_GLIBC_NAMES)
ifneq ($(PRELOAD_SYSTEM_NAMES),)
ifneq ($(abspath $(preloaddir)),$(abspath $(pkglibdir)))
	$(PRELOAD_LAYOUT) make $(DESTDIR)$(preloaddir) \
	  $$(realpath -m -s --relative-to=$(preloaddir) $(libdir)/$(SONAME)) - \
	  $(PRELOAD_SYSTEM_NAMES)
endif
endif

uninstall:
	$(INSTALL_DIRS_CHECK)
	$(srcdir)/build-aux/install-guard uninstall "$(DESTDIR)" $(INSTALLED_PATHS)
	rm -f $(DESTDIR)$(libdir)/$(SONAME) $(DESTDIR)$(libdir)/librseq-compat.so \
	  $(DESTDIR)$(libdir)/librseq-compat.a \
	  $(DESTDIR)$(bindir)/rseq-compat $(DESTDIR)$(includedir)/rseq-compat.h \
	  $(DESTDIR)$(libdir)/pkgconfig/rseq-compat.pc \
	  $(DESTDIR)$(pkglibdir)/musl/$(SONAME) \
	  $(DESTDIR)$(pkglibdir)/musl/librseq-compat.a \
	  $(DESTDIR)$(mandir)/man1/rseq-compat.1 \
	  $(DESTDIR)$(mandir)/man3/rseq-compat.h.3 \
	  $(DESTDIR)$(mandir)/man7/rseq-compat.7
	$(PRELOAD_LAYOUT) remove $(DESTDIR)$(pkglibdir) $(PRELOAD_GLIBC_NAMES)
ifneq ($(PRELOAD_SYSTEM_NAMES),)
ifneq ($(abspath $(preloaddir)),$(abspath $(pkglibdir)))
	$(PRELOAD_LAYOUT) remove $(DESTDIR)$(preloaddir) $(PRELOAD_SYSTEM_NAMES)
	-rmdir $(DESTDIR)$(preloaddir) 2>/dev/null
endif
endif
	-rmdir $(DESTDIR)$(pkglibdir)/musl $(DESTDIR)$(pkglibdir) 2>/dev/null
ifeq ($(HAVE_SYS_RSEQ_H),no)
	rm -f $(DESTDIR)$(includedir)/sys/rseq.h $(DESTDIR)$(includedir)/bits/rseq.h
endif

clean:
	rm -rf $(B)

# The configuration where configure wrote it (a build directory's own
# Makefile too, outside the sources).
distclean: clean
	rm -rf $(CONFIG_MK) $(dir $(CONFIG_MK))config.log \
	  $(dir $(CONFIG_MK))config.status $(dir $(CONFIG_MK))autom4te.cache
ifeq ($(CONFIG_IN_TREE),)
	rm -f $(dir $(CONFIG_MK))Makefile
endif

# make dist: the tarball, next to build/ (in the build directory);
# make distcheck: build-aux/distcheck says what it proves.
DISTNAME = rseq-compat-$(PACKAGE_VERSION)
DIST_TARBALL = $(abspath $(B)/..)/$(DISTNAME).tar.gz
dist:
	@$(srcdir)/build-aux/dist $(srcdir) $(DISTNAME) $(DIST_TARBALL)
distcheck: dist
	@$(srcdir)/build-aux/distcheck $(DIST_TARBALL) $(DISTNAME) $(abspath $(B))/distcheck

# RPM packages (rseq-compat.spec) from make dist's tarball and make
# portable's files for /usr: build/rpm/RPMS/, rpmlint-clean with the
# explained hints of build-aux/rpm/rpmlintrc, the payload checked;
# check-rpm installs them with rpm --root into a bullseye root holding
# the older C libraries and tests them there (build/rpm.md).  As root.
.PHONY: rpm check-rpm
rpm: dist
	@$(srcdir)/build-aux/rpm/build $(DIST_TARBALL) >/dev/null
check-rpm: dist
	@$(srcdir)/build-aux/rpm/check $(DIST_TARBALL)
