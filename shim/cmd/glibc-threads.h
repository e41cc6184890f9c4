/* rseq-compat info -p --no-stop: glibc's list of threads, read from memory.
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

#ifndef RSEQ_COMPAT_CMD_GLIBC_THREADS_H
#define RSEQ_COMPAT_CMD_GLIBC_THREADS_H 1

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "procfs.h"

struct thread_pointer
{
  pid_t tid;
  uint64_t tp;
};

/* The thread pointer of every thread in glibc's lists of process P
   (each pthread, the main thread included), in a malloc'ed array of
   *COUNT entries; STATIC_EXE names the program file of a static glibc
   program (whose symbols describe its lists), else NULL.  Returns 0,
   or -1 with WHY saying why there is no list to read (not glibc, no
   symbols, unreadable memory).  */
int glibc_thread_pointers (struct proc *p, const char *static_exe,
                           struct thread_pointer **out, size_t *count,
                           char *why, size_t whylen);

#endif
