/* Restartable sequences: the C library's view of the kernel ABI.
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

/* Source-compatible with glibc 2.35's <sys/rseq.h>: the same three
   variables, RSEQ_SIG, and struct rseq as the kernel defines it.  It is
   installed only on C libraries that lack a <sys/rseq.h> of their own.

   Unlike glibc, struct rseq always carries node_id and mm_cid (Linux
   6.3), whatever kernel headers are installed: the kernel headers of
   Debian 11 and Ubuntu 20.04 predate them.  If <linux/rseq.h> was
   included first, its definitions are used unchanged.  */

#ifndef _SYS_RSEQ_H
#define _SYS_RSEQ_H 1

#include <stddef.h>
#include <stdint.h>

/* RSEQ_SIG, where this architecture has one (not defined elsewhere).  */
#include <bits/rseq.h>

#ifndef _LINUX_RSEQ_H
/* Claim the kernel header's guard: a later #include <linux/rseq.h> must
   not define struct rseq a second time.  */
# define _LINUX_RSEQ_H 1

enum rseq_cpu_id_state
  {
    RSEQ_CPU_ID_UNINITIALIZED = -1,
    RSEQ_CPU_ID_REGISTRATION_FAILED = -2,
  };

enum rseq_flags
  {
    RSEQ_FLAG_UNREGISTER = (1 << 0),
  };

enum rseq_cs_flags_bit
  {
    RSEQ_CS_FLAG_NO_RESTART_ON_PREEMPT_BIT = 0,
    RSEQ_CS_FLAG_NO_RESTART_ON_SIGNAL_BIT = 1,
    RSEQ_CS_FLAG_NO_RESTART_ON_MIGRATE_BIT = 2,
  };

enum rseq_cs_flags
  {
    RSEQ_CS_FLAG_NO_RESTART_ON_PREEMPT
      = (1U << RSEQ_CS_FLAG_NO_RESTART_ON_PREEMPT_BIT),
    RSEQ_CS_FLAG_NO_RESTART_ON_SIGNAL
      = (1U << RSEQ_CS_FLAG_NO_RESTART_ON_SIGNAL_BIT),
    RSEQ_CS_FLAG_NO_RESTART_ON_MIGRATE
      = (1U << RSEQ_CS_FLAG_NO_RESTART_ON_MIGRATE_BIT),
  };

/* A critical section descriptor.  The kernel reads it through
   struct rseq's rseq_cs field; it must be 32-byte aligned.  */
struct rseq_cs
  {
    uint32_t version;
    uint32_t flags;
    uint64_t start_ip;
    uint64_t post_commit_offset;
    uint64_t abort_ip;
  } __attribute__ ((__aligned__ (32)));

/* The per-thread area.  Only the fields that the published __rseq_size
   covers may be read; see rseq-compat(7) for the size table.  */
struct rseq
  {
    uint32_t cpu_id_start;
    uint32_t cpu_id;
    uint64_t rseq_cs;
    uint32_t flags;
    uint32_t node_id;
    uint32_t mm_cid;
    char end[];
  } __attribute__ ((__aligned__ (32)));
#endif /* !_LINUX_RSEQ_H */

#ifdef __cplusplus
extern "C" {
#endif

/* Offset from the thread pointer to the calling thread's struct rseq;
   the same for every thread.  */
extern const ptrdiff_t __rseq_offset;

/* Bytes of struct rseq the kernel maintains for registered threads
   (20, 28, 33, ...; 32 from glibc 2.35 to 2.39 means 20); 0 when the C
   library did not register.  */
extern const unsigned int __rseq_size;

/* Flags passed at registration; currently always 0.  */
extern const unsigned int __rseq_flags;

#ifdef __cplusplus
}
#endif

#endif /* sys/rseq.h */
