/* The installed <sys/rseq.h> agrees with the kernel ABI and with glibc's.
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

/* Compiled (and run) against the project's <sys/rseq.h>; the offsets are
   the kernel's uapi layout, RSEQ_SIG the architecture's documented
   value.  With INCLUDE_LINUX_AFTER, <linux/rseq.h> is included after it,
   which must not redefine anything.  */

#include "rtest.h"

#include <sys/rseq.h>
#ifdef INCLUDE_LINUX_AFTER
# include <linux/rseq.h>
#endif

_Static_assert (offsetof (struct rseq, cpu_id_start) == 0, "cpu_id_start");
_Static_assert (offsetof (struct rseq, cpu_id) == 4, "cpu_id");
_Static_assert (offsetof (struct rseq, rseq_cs) == 8, "rseq_cs");
_Static_assert (offsetof (struct rseq, flags) == 16, "flags");
_Static_assert (offsetof (struct rseq, node_id) == 20, "node_id");
_Static_assert (offsetof (struct rseq, mm_cid) == 24, "mm_cid");
_Static_assert (offsetof (struct rseq, end) == 28, "end");
_Static_assert (_Alignof (struct rseq) == 32, "struct rseq alignment");
_Static_assert (sizeof (struct rseq_cs) == 32, "struct rseq_cs size");
_Static_assert (_Alignof (struct rseq_cs) == 32, "struct rseq_cs alignment");
_Static_assert (RSEQ_CPU_ID_UNINITIALIZED == -1, "uninitialized");
_Static_assert (RSEQ_CPU_ID_REGISTRATION_FAILED == -2, "failed");
_Static_assert (RSEQ_FLAG_UNREGISTER == 1, "unregister flag");
_Static_assert (RSEQ_CS_FLAG_NO_RESTART_ON_MIGRATE == 4, "cs flags");
#if defined __x86_64__ || defined __i386__
_Static_assert (RSEQ_SIG == 0x53053053, "x86 RSEQ_SIG");
#elif defined __aarch64__ && !defined __AARCH64EB__
_Static_assert (RSEQ_SIG == 0xd428bc00, "aarch64 RSEQ_SIG");
#endif

/* The declarations have glibc's types: these must compile.  */
const ptrdiff_t *p_offset = &__rseq_offset;
const unsigned int *p_size = &__rseq_size;
const unsigned int *p_flags = &__rseq_flags;

int
main (void)
{
  /* Against the running library: the declared objects are the ones
     dlsym finds.  */
  struct rt_abi abi = rt_abi ();
  CHECK (abi.offset == p_offset || *abi.offset == *p_offset,
         "__rseq_offset %td vs %td", *abi.offset, *p_offset);
  CHECK (*abi.size == *p_size, "__rseq_size %u vs %u", *abi.size, *p_size);
  CHECK (*p_flags == 0, "__rseq_flags %u", *p_flags);
  return rt_exit_status ();
}
