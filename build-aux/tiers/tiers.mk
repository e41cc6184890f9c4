# make check-full, make tier: the heavy test tiers of build-aux/tiers/tiers.
# Included by the Makefile; none of these needs config.mk.  Run as root
# (chroots, mount namespaces, QEMU).
#
#   make check-full           every tier's full scope, in order; writes
#                             build/check-full.md and a record of each
#                             passing tier (.ci/records/NAME.full)
#   make check-full-table     build/check-full.md from the rows and
#                             records of the current inputs, no tier run
#   make tier T=NAME [SCOPE=ci|full]
#                             one tier (default: its ci scope) and its record
#   make tier-status          each tier: proven at which commit, or stale
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later

.PHONY: check-full check-full-table tier tier-status tier-env
TIER_TOOL = $(srcdir)/build-aux/tiers/tier

# build-aux/glibc/glibc.mk exports its defaults (GLIBC_SUITE,
# GLIBC_ARCH) to every recipe, and a tier that sees one set takes its
# run for a narrowed one and writes no record: the tiers get only what
# the user set (on the command line or in the environment).
tier_env = env $(foreach v,GLIBC_SUITE GLIBC_ARCH,$(if $(filter file,$(origin $(v))),-u $(v)))

check-full:
	@$(tier_env) $(srcdir)/build-aux/tiers/full

check-full-table:
	@$(srcdir)/build-aux/tiers/full --table

# What the tiers see of make's variables (tiers.exp checks it).
tier-env:
	@$(tier_env) env | grep -E '^GLIBC_(SUITE|ARCH)=' | LC_ALL=C sort || :

SCOPE ?= ci
tier:
	@test -n "$(T)" || { echo "make tier: name one with T=NAME ($$($(TIER_TOOL) list | tr '\n' ' '))" >&2; exit 2; }
	@$(tier_env) $(TIER_TOOL) run $(T) $(SCOPE)

tier-status:
	@fo=" $$($(TIER_TOOL) full-only | awk '{ print $$1 }' | tr '\n' ' ') "; \
	for t in $$($(TIER_TOOL) list); do \
	  case $$fo in *" $$t "*) ci="full only (make check-full)" ;; *) ci=$$($(TIER_TOOL) status $$t ci) ;; esac; \
	  printf '%-18s ci: %s\n%-18s full: %s\n' $$t "$$ci" '' "$$($(TIER_TOOL) status $$t full)"; \
	done
