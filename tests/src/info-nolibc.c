/* A dynamic program that needs no C library (info.exp).
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

/* Linked -nostdlib -pie: glibc's loader runs it, and maps nothing
   else, for its whole life (as tools built on nolibc do).  It waits
   for ever in ppoll with no descriptors; nothing to print.  */

void _start (void);

void
_start (void)
{
  for (;;)
    {
#if defined __x86_64__
      long int ret;
      /* ppoll (NULL, 0, NULL, NULL).  */
      __asm__ volatile ("syscall" : "=a" (ret)
                        : "0" (271L), "D" (0L), "S" (0L), "d" (0L)
                        : "rcx", "r11", "r10", "r8", "memory");
#elif defined __aarch64__
      register long int x8 __asm__ ("x8") = 73;
      register long int x0 __asm__ ("x0") = 0;
      register long int x1 __asm__ ("x1") = 0;
      register long int x2 __asm__ ("x2") = 0;
      register long int x3 __asm__ ("x3") = 0;
      __asm__ volatile ("svc 0" : "+r" (x0)
                        : "r" (x8), "r" (x1), "r" (x2), "r" (x3)
                        : "memory");
#else
# error "x86-64 and AArch64 only"
#endif
    }
}
