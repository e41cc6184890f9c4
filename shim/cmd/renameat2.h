/* SYS_renameat2 where the C library's headers lack it.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.

   rseq-compat is free software; you can redistribute it and/or
   modify it under the terms of the GNU Lesser General Public
   License as published by the Free Software Foundation; either
   version 2.1 of the License, or (at your option) any later version.

   rseq-compat is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
   Lesser General Public License for more details.

   You should have received a copy of the GNU Lesser General Public
   License along with rseq-compat; if not, see
   <https://www.gnu.org/licenses/>.  */

#ifndef RSEQ_COMPAT_CMD_RENAMEAT2_H
#define RSEQ_COMPAT_CMD_RENAMEAT2_H 1

#include <sys/syscall.h>

/* glibc 2.17's list of system calls predates renameat2 (Linux 3.15):
   the kernel's number then, where the kernel's headers lack it too.
   Left undefined elsewhere, for the caller to answer ENOSYS.  */
#if !defined SYS_renameat2 && defined __NR_renameat2
# define SYS_renameat2 __NR_renameat2
#endif
#if !defined SYS_renameat2 && defined __x86_64__ && !defined __ILP32__
# define SYS_renameat2 316
#elif !defined SYS_renameat2 && defined __aarch64__
# define SYS_renameat2 276
#endif

#endif
