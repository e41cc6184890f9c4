/* rseq registration for the main thread and new threads.  Linux version.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat (the glibc 2.31 backport).

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

/* Used by elf/rtld.c (main thread of dynamic programs), csu/libc-tls.c
   (main thread of static programs) and nptl/pthread_create.c (every
   other thread).  All size, length and alignment decisions come from
   rseq-layout.h, shared with the preloadable librseq-compat, so that
   the patched C library and the shim publish the same values.  */

#ifndef _RSEQ_INTERNAL_H
#define _RSEQ_INTERNAL_H 1

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sysdep.h>
#include <ldsodefs.h>
#include <tls.h>
/* Before dl-tunables.h: on s390 the generated dl-tunable-list.h pulls
   in dl-procinfo.h, whose inline _dl_procinfo prints to STDOUT_FILENO;
   nptl/pthread_create.c only includes <unistd.h> (through libioP.h)
   after this header.  */
#include <unistd.h>
#include <elf/dl-tunables.h>
#include <sys/rseq.h>
#include <rseq-area.h>
#include <rseq-layout.h>
#include <rseq-signals.h>

/* Writable views of __rseq_size and __rseq_offset (dl-rseq.c).  They
   live in ld.so (libc.a for static programs), in RELRO memory that is
   write-protected once relocation is over; only the main thread's
   registration, which runs before that, writes them.  */
extern unsigned int _dl_rseq_size attribute_hidden;
extern ptrdiff_t _dl_rseq_offset attribute_hidden;

/* The thread pointer of the thread whose descriptor is PD.  */
static inline void *
rseq_thread_pointer (struct pthread *pd)
{
#if TLS_TCB_AT_TP
  return pd;
#elif TLS_DTV_AT_TP
  return (char *) pd + TLS_PRE_TCB_SIZE;
#else
# error "Either TLS_TCB_AT_TP or TLS_DTV_AT_TP must be defined"
#endif
}

/* Ask the kernel to maintain PD's area with registration length LEN.
   PD must be the calling thread.  */
static inline bool
rseq_register_area (struct pthread *pd, unsigned int len)
{
#ifdef RSEQ_SIG
  INTERNAL_SYSCALL_DECL (err);
  long int ret = INTERNAL_SYSCALL_CALL (rseq, err, &pd->rseq_area, len, 0,
                                        RSEQ_SIG);
  /* Only 0 is a registration.  A seccomp filter's SECCOMP_RET_TRAP
     skips the call and returns what the program's SIGSYS handler left
     in the register (x86-64: the call's own number), which a new
     thread, whose SIGSYS is not blocked here, would otherwise take for
     one and run unregistered under a published __rseq_size.  */
  return !INTERNAL_SYSCALL_ERROR_P (ret, err) && ret == 0;
#else
  /* No signature for this architecture (bits/rseq.h): registration
     fails as if the kernel had refused it, so the process runs as an
     unpatched glibc 2.31 does, with __rseq_size 0.  */
  (void) pd;
  (void) len;
  return false;
#endif
}

/* Reset PD's area to the state of a thread that never registered.  A
   descriptor taken from the stack cache still holds what the kernel
   last wrote for its previous thread.  */
static inline void
rseq_clear_area (struct pthread *pd)
{
  memset (&pd->rseq_area, 0, sizeof pd->rseq_area);
  pd->rseq_area.cpu_id = RSEQ_CPU_ID_UNINITIALIZED;
}

/* Register the main thread, whose descriptor is PD, and publish
   __rseq_offset and __rseq_size.  Runs right after the thread pointer
   is installed: before relocation finishes (so the values are final
   before copy relocations read them and RELRO seals them) and before
   any constructor.  */
static inline void
rseq_register_main_thread (struct pthread *pd)
{
  struct rseq_layout layout;
  rseq_layout_from_auxv (&layout, (const unsigned long int *) GLRO(dl_auxv));
  /* A kernel wanting more than struct pthread holds gets 32 bytes.  */
  rseq_layout_fit (&layout, RSEQ_AREA_CAPACITY, RSEQ_AREA_ALIGN);

  /* Valid even when nothing is registered, so that readers find
     cpu_id == RSEQ_CPU_ID_REGISTRATION_FAILED.  */
  _dl_rseq_offset = (char *) &pd->rseq_area - (char *) rseq_thread_pointer (pd);

  bool enabled = true;
#if HAVE_TUNABLES
  enabled = TUNABLE_GET_FULL (glibc, pthread, rseq, int32_t, NULL) != 0;
#endif

  rseq_clear_area (pd);
  if (enabled && rseq_register_area (pd, layout.reg_len))
    {
      _dl_rseq_size = layout.public_size;
      pd->rseq_len = layout.reg_len;
    }
  else
    {
      /* Disabled, or refused (no rseq system call, a seccomp filter,
         another registrant): the process runs without rseq and no
         later thread tries.  */
      _dl_rseq_size = 0;
      pd->rseq_len = 0;
      pd->rseq_area.cpu_id = RSEQ_CPU_ID_REGISTRATION_FAILED;
    }
}

/* In the creating thread SELF, before the new thread PD exists: PD
   registers with the creator's length if the creator is registered
   now.  Without seccomp filters registration always succeeds or always
   fails, so a creator that is not registered means the process runs
   without rseq (or the application unregistered the thread on purpose).

   The area is prepared here, not in the new thread: glibc 2.31 starts
   threads with signals unblocked, so a handler can run before
   start_thread's first instruction and must find "not registered"
   (-1, or -2 for good), never an ID left in a descriptor from the
   stack cache or the 0 of a fresh stack.  No one else writes the area
   now: the kernel is done with the thread that used it before.  */
static inline void
rseq_prepare_new_thread (struct pthread *pd, struct pthread *self)
{
  int32_t cpu_id = *(volatile int32_t *) &self->rseq_area.cpu_id;
  pd->rseq_len = cpu_id >= 0 ? self->rseq_len : 0;
  rseq_clear_area (pd);
  if (pd->rseq_len == 0)
    pd->rseq_area.cpu_id = RSEQ_CPU_ID_REGISTRATION_FAILED;
}

/* In the new thread PD, before any user code.  A thread that should
   register and cannot is fatal, as in glibc 2.35 and later: the
   process already told every library that rseq is in use.  */
static inline void
rseq_register_new_thread (struct pthread *pd)
{
  if (pd->rseq_len != 0 && !rseq_register_area (pd, pd->rseq_len))
    __libc_fatal ("Fatal glibc error: rseq registration failed\n");
}

/* Put back MASK, which the calling thread had before pthread_create
   blocked its signals.  A seccomp filter installed meanwhile by another
   thread (SECCOMP_FILTER_FLAG_TSYNC) may refuse SIG_SETMASK; every
   signal would then stay blocked for good, SIGSETXID with them, and
   the next set*id call would wait forever for this thread.  So the
   signals MASK leaves open are unblocked instead.  Both calls pass an
   old mask, as the window's read and block do: a filter that stops
   only the calls without one (refuses them, or answers 0 without doing
   them) let the block through and stopped both ways back, and the
   creator and the new thread kept every asynchronous signal blocked
   (110th review, G1).  A SIG_SETMASK answered 0 whose old mask came
   back unwritten (it still holds SIGKILL, which the kernel never
   reports blocked) is taken for one not done, and the unblock follows:
   where a trapping handler did the work without writing the old mask,
   that unblock changes nothing.  Only nptl blocks signals around a
   registration, and only its headers give the sigset operations used
   here.  */
#if IS_IN (libpthread)
static inline void
rseq_restore_sigmask (const sigset_t *mask)
{
  sigset_t old;
  __sigfillset (&old);
  INTERNAL_SYSCALL_DECL (err);
  long int ret = INTERNAL_SYSCALL (rt_sigprocmask, err, 4, SIG_SETMASK,
                                   mask, &old, _NSIG / 8);
  if (INTERNAL_SYSCALL_ERROR_P (ret, err) || __sigismember (&old, SIGKILL))
    {
      sigset_t open;
      __sigemptyset (&open);
      for (int sig = 1; sig < _NSIG; sig++)
        if (!__sigismember (mask, sig))
          __sigaddset (&open, sig);
      __sigfillset (&old);
      INTERNAL_SYSCALL (rt_sigprocmask, err, 4, SIG_UNBLOCK, &open, &old,
                        _NSIG / 8);
    }
}
#endif

#endif /* rseq-internal.h */
