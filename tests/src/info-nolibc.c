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
   for ever in ppoll with no descriptors; nothing to print.  Built with
   NOLIBC_MAP defined to a file's name, it maps that file (a data file,
   no ELF one) first.  */

#if defined __x86_64__
# define NR_OPENAT 257
# define NR_MMAP 9
# define NR_PPOLL 271
#elif defined __aarch64__
# define NR_OPENAT 56
# define NR_MMAP 222
# define NR_PPOLL 73
#else
# error "x86-64 and AArch64 only"
#endif

static long int
sys6 (long int n, long int a, long int b, long int c, long int d,
      long int e, long int f)
{
#if defined __x86_64__
  register long int r10 __asm__ ("r10") = d;
  register long int r8 __asm__ ("r8") = e;
  register long int r9 __asm__ ("r9") = f;
  long int ret;
  __asm__ volatile ("syscall" : "=a" (ret)
                    : "0" (n), "D" (a), "S" (b), "d" (c), "r" (r10),
                      "r" (r8), "r" (r9)
                    : "rcx", "r11", "memory");
  return ret;
#else
  register long int x8 __asm__ ("x8") = n;
  register long int x0 __asm__ ("x0") = a;
  register long int x1 __asm__ ("x1") = b;
  register long int x2 __asm__ ("x2") = c;
  register long int x3 __asm__ ("x3") = d;
  register long int x4 __asm__ ("x4") = e;
  register long int x5 __asm__ ("x5") = f;
  __asm__ volatile ("svc 0" : "+r" (x0)
                    : "r" (x8), "r" (x1), "r" (x2), "r" (x3), "r" (x4),
                      "r" (x5)
                    : "memory");
  return x0;
#endif
}

void _start (void);

void
_start (void)
{
#ifdef NOLIBC_MAP
  /* openat (AT_FDCWD, NOLIBC_MAP, O_RDONLY), then mmap (NULL, 4096,
     PROT_READ, MAP_PRIVATE, fd, 0).  */
  long int fd = sys6 (NR_OPENAT, -100, (long int) NOLIBC_MAP, 0, 0, 0, 0);
  if (fd >= 0)
    sys6 (NR_MMAP, 0, 4096, 1, 2, fd, 0);
#endif
  for (;;)
    sys6 (NR_PPOLL, 0, 0, 0, 0, 0, 0);
}
