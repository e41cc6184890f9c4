#!/bin/sh
# stage-root.sh SRC ROOT DST: mx_stage_root (build-aux/matrix/common.sh)
# for project-tests.sh, whose overlay root exists only inside its own
# mount namespace.
#
# Copyright (C) 2026 The rseq-compat developers.
# SPDX-License-Identifier: LGPL-2.1-or-later
set -eu
. "$(dirname "$0")/../matrix/common.sh"
mx_stage_root "$@"
