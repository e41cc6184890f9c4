/* A static program whose data lie far into its file (info-hostile.sh).
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

/* 2 MB of read-only data come before the writable segment, whose last
   page the kernel clears past the file's data while it runs execve
   (the .bss's start): run from a FUSE server that never answers a read
   there, the exec waits in the kernel after the new memory and
   /proc/PID/exe are the program's, before its auxiliary vector is.  */

const char info_exec_stall_pad[2 << 20] = { 1 };
int info_exec_stall_data = 5;
char info_exec_stall_bss[1 << 16];

int
main (void)
{
  return info_exec_stall_pad[info_exec_stall_data]
         + info_exec_stall_bss[3];
}
