/* Why rseq-compat may not read another process, and what to do.
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

#ifndef RSEQ_COMPAT_CMD_PERMISSION_H
#define RSEQ_COMPAT_CMD_PERMISSION_H 1

#include <stddef.h>
#include <sys/types.h>

/* Why ptrace or /proc/PID/mem answered EPERM or EACCES for PID, and
   the remedy, as a sentence in OUT: STOP nonzero where rseq-compat
   attaches (--stop: the kernel compares the real user and group too),
   zero where it only reads /proc/PID's files (--no-stop: the effective
   ones).  Returns 0, or ESRCH where the process has exited meanwhile
   (OUT is then not written).  */
int permission_hint (pid_t pid, int stop, char *out, size_t outlen);

/* Where /proc shows nothing of PID although the kernel has it (/proc
   mounted with hidepid): why and the remedy, as a sentence in OUT.
   Returns 0, or ESRCH where there is no process PID (OUT is then not
   written).  */
int hidden_hint (pid_t pid, char *out, size_t outlen);

/* Where /proc is not mounted, or is another PID namespace's (its
   numbers then name other processes than the kernel's calls do): 1,
   with why and the remedy as a sentence in OUT; else 0.  */
int proc_mismatch_hint (char *out, size_t outlen);

#endif
