/* A seccomp filter that makes the rseq system call fail, for the tests.
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

/* Include after rtest.h.  What sandboxes do to rseq (rseq-facts §1):
   answer ENOSYS or EPERM.  The filter is classic BPF written by hand;
   musl-gcc has no kernel headers: seccomp-abi.h.  */

#ifndef SECCOMP_FILTER_H
#define SECCOMP_FILTER_H 1

#include "seccomp-abi.h"

#if defined __x86_64__
# define SF_AUDIT_ARCH AUDIT_ARCH_X86_64
/* The x32 ABI's rseq goes through the same arch with this bit set.  */
# define SF_X32_NR_rseq (0x40000000 + 334)
#elif defined __aarch64__
# define SF_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
# error "no seccomp audit arch for this architecture"
#endif

/* A filter's first instructions: a call of a foreign architecture is
   allowed (the sandbox here is not a security boundary), and the
   system call's number is loaded for what follows.  */
#define SF_OWN_ARCH_NR \
  BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch)), \
  BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SF_AUDIT_ARCH, 1, 0), \
  BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW), \
  BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr))

/* "ENOSYS" or "EPERM" to the errno value, or 0.  */
static inline int
sf_errno_from_name (const char *name)
{
  if (name == NULL)
    return 0;
  if (strcmp (name, "ENOSYS") == 0)
    return ENOSYS;
  if (strcmp (name, "EPERM") == 0)
    return EPERM;
  /* What the kernel itself answers to an area it has not registered.  */
  if (strcmp (name, "EINVAL") == 0)
    return EINVAL;
  return 0;
}

/* Installs the LEN instructions at CODE for the calling thread and what
   it starts; no_new_privs first unless KEEP_PRIVS.  Returns 0 or an
   errno value.  */
static inline int
sf_load (struct sock_filter *code, size_t len, int keep_privs)
{
  struct sock_fprog prog = { .len = (unsigned short) len, .filter = code };
  if (!keep_privs && prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return errno;
  if (prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0)
    return errno;
  return 0;
}

/* Installs, for the calling thread and the threads and programs it
   starts from now on, a filter that answers rseq with ACTION (a
   SECCOMP_RET_* value) and allows every other system call (of this
   architecture: a foreign one is left alone, the sandbox here is not a
   security boundary).  KEEP_PRIVS: without no_new_privs, which only
   CAP_SYS_ADMIN may, so that a set-user-ID program started under the
   filter gets its privileges and AT_SECURE.  Returns 0 or an errno
   value.  */
static inline int
sf_install_action_privs (unsigned int action, int keep_privs)
{
  struct sock_filter code[] =
    {
      SF_OWN_ARCH_NR,
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, RSEQ_COMPAT_NR_rseq, 2, 0),
#ifdef SF_X32_NR_rseq
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SF_X32_NR_rseq, 1, 0),
#else
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, RSEQ_COMPAT_NR_rseq, 1, 0),
#endif
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_RET | BPF_K, action),
    };
  return sf_load (code, sizeof code / sizeof code[0], keep_privs);
}

/* A filter that answers rseq's unregistrations (flags
   RSEQ_FLAG_UNREGISTER) with ACTION and allows every other call,
   registrations included: an allowlist written by watching glibc 2.35
   and later, which never unregisters.  no_new_privs set.  */
static inline int
sf_install_unregister_action (unsigned int action)
{
  struct sock_filter code[] =
    {
      SF_OWN_ARCH_NR,
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, RSEQ_COMPAT_NR_rseq, 0, 3),
      BPF_STMT (BPF_LD | BPF_W | BPF_ABS,
                offsetof (struct seccomp_data, args[2])),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, RSEQ_FLAG_UNREGISTER, 0, 1),
      BPF_STMT (BPF_RET | BPF_K, action),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
  return sf_load (code, sizeof code / sizeof code[0], 0);
}

/* The same, no_new_privs set: what an unprivileged caller must.  */
static inline int
sf_install_action (unsigned int action)
{
  return sf_install_action_privs (action, 0);
}

/* The same, rseq failing with ERR.  */
static inline int
sf_install (int err)
{
  return sf_install_action (SECCOMP_RET_ERRNO
                            | ((unsigned int) err & SECCOMP_RET_DATA));
}

/* The error the rseq system call gives for a probe that an unfiltered
   kernel answers with EINVAL.  */
static inline int
sf_rseq_probe_errno (void)
{
  long int ret = syscall (RSEQ_COMPAT_NR_rseq, NULL, 0, 0, 0);
  return ret == 0 ? 0 : errno;
}

/* A filter that ends the process at any open of a file (open, openat,
   openat2), as a sandbox that forbids them after start-up may, and
   allows every other call.  no_new_privs set.  Returns 0 or an errno
   value.  */
#ifndef SECCOMP_RET_KILL_PROCESS
# define SECCOMP_RET_KILL_PROCESS 0x80000000u
#endif
static inline int
sf_install_no_open (void)
{
#ifdef SYS_open
  const unsigned int open_nr = SYS_open;
#else
  const unsigned int open_nr = SYS_openat;
#endif
  struct sock_filter code[] =
    {
      SF_OWN_ARCH_NR,
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 3, 0),
      /* openat2, the same number on every architecture.  */
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, 437, 2, 0),
      BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, open_nr, 1, 0),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
      BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    };
  return sf_load (code, sizeof code / sizeof code[0], 0);
}

#endif
