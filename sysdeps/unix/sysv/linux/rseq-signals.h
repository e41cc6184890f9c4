/* The signals a thread creation leaves open while it blocks the others.
   Linux version.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat (the shim and the glibc 2.31 series).

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

#ifndef _RSEQ_SIGNALS_H
#define _RSEQ_SIGNALS_H 1

#include <signal.h>

/* A creator that registers its new thread blocks every signal across
   the creation, so that the thread starts with them blocked and no
   handler runs on it before its registration.  These stay as the
   creator had them, because the creator's own code raises them there:
   a fault (the C library writing the new thread's ID into a page that
   a write-barrier handler protects), or a seccomp filter's SIGSYS for
   clone, sched_setaffinity or sched_setscheduler.  Blocked, the kernel
   would kill the process instead of running the program's handler, as
   glibc before 2.32 runs it.  */
#define RSEQ_OWN_CODE_SIGNALS SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS

#endif /* rseq-signals.h */
