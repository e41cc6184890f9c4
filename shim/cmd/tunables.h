/* The shim's GLIBC_TUNABLES reader (shim/tunables.c), used by the command.
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

/* The command links the library's own tunables.c, so that both read
   glibc.pthread.rseq alike; shim.h, which declares these for the
   library, is the library's internal header.  */

#ifndef RSEQ_COMPAT_CMD_TUNABLES_H
#define RSEQ_COMPAT_CMD_TUNABLES_H 1

int __rseq_compat_tunable_rseq (const char *, int);
int __rseq_compat_env_tunable_off (char *const *);
/* As glibc before 2.39 reads it.  */
int __rseq_compat_tunable_rseq_loose (const char *, int);
int __rseq_compat_env_tunable_off_loose (char *const *);

#endif
