/* The kernel's seccomp ABI for the tests' filters: the kernel's own
   headers where the compiler has them, else the few constants and
   structures the filters use, as the kernel defines them
   (include/uapi/linux/filter.h, bpf_common.h, seccomp.h, audit.h):
   musl-gcc comes without the kernel's headers.
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

#ifndef SECCOMP_ABI_H
#define SECCOMP_ABI_H 1

#include <stdint.h>
#include <sys/prctl.h>

#if defined __has_include
# if __has_include (<linux/filter.h>) && __has_include (<linux/seccomp.h>) \
     && __has_include (<linux/audit.h>)
#  include <linux/audit.h>
#  include <linux/filter.h>
#  include <linux/seccomp.h>
#  define SF_HAVE_KERNEL_HEADERS 1
# endif
#endif

#ifndef SF_HAVE_KERNEL_HEADERS
/* The kernel's ABI (include/uapi/linux/filter.h, bpf_common.h,
   seccomp.h, audit.h).  */
struct sock_filter
{
  uint16_t code;
  uint8_t jt;
  uint8_t jf;
  uint32_t k;
};
struct sock_fprog
{
  unsigned short len;
  struct sock_filter *filter;
};
struct seccomp_data
{
  int nr;
  uint32_t arch;
  uint64_t instruction_pointer;
  uint64_t args[6];
};
# define BPF_LD 0x00
# define BPF_JMP 0x05
# define BPF_RET 0x06
# define BPF_W 0x00
# define BPF_ABS 0x20
# define BPF_JEQ 0x10
# define BPF_JGT 0x20
# define BPF_JGE 0x30
# define BPF_K 0x00
# define BPF_STMT(code, k) { (unsigned short) (code), 0, 0, k }
# define BPF_JUMP(code, k, jt, jf) { (unsigned short) (code), jt, jf, k }
# define SECCOMP_MODE_FILTER 2
# define SECCOMP_RET_ALLOW 0x7fff0000u
# define SECCOMP_RET_ERRNO 0x00050000u
# define SECCOMP_RET_TRAP 0x00030000u
# define SECCOMP_RET_KILL_PROCESS 0x80000000u
# define SECCOMP_RET_DATA 0x0000ffffu
# define AUDIT_ARCH_X86_64 0xc000003eu
# define AUDIT_ARCH_AARCH64 0xc00000b7u
#endif

#ifndef PR_SET_NO_NEW_PRIVS
# define PR_SET_NO_NEW_PRIVS 38
#endif
#ifndef PR_SET_SECCOMP
# define PR_SET_SECCOMP 22
#endif

#endif
