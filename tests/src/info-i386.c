/* info-hostile.sh's 32-bit process (compat-32): an i386 program of no
   C library that waits in pause () for ever.  Built with -m32
   -nostdlib -static, so that an x86-64 machine needs no 32-bit libc.

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

void _start (void);

void
_start (void)
{
  /* i386's pause is system call 29, made by int $0x80.  */
  for (;;)
    __asm__ volatile ("int $0x80" : : "a" (29) : "memory");
}
