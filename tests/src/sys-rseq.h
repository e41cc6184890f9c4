/* The rseq system call's number where the C library's headers have
   none (glibc before 2.35's, musl before 1.2.4's), for the test
   programs.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#ifndef RSEQ_COMPAT_TESTS_SYS_RSEQ_H
#define RSEQ_COMPAT_TESTS_SYS_RSEQ_H 1

#include <sys/syscall.h>

#ifndef SYS_rseq
# if defined __x86_64__
#  define SYS_rseq 334
# elif defined __aarch64__
#  define SYS_rseq 293
# endif
#endif

#endif
