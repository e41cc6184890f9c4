/* Internal interfaces of librseq-compat.
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

#ifndef RSEQ_COMPAT_SHIM_H
#define RSEQ_COMPAT_SHIM_H 1

#include <stddef.h>
#include <stdint.h>

#include <arch.h>
#include <rseq-layout.h>
#include <sys/rseq.h>

#define attribute_hidden __attribute__ ((visibility ("hidden")))
#define attribute_public __attribute__ ((visibility ("default")))
/* For a function with an atomic read-modify-write: inline on AArch64.
   GCC's default out-of-line helpers (libgcc's __aarch64_cas4_acq)
   carry no BTI/PAC property note, and linking one in would drop the
   shim's (branch-protection.exp).  */
#if defined __aarch64__ && defined __GNUC__ && !defined __clang__
# define attribute_inline_atomics \
  __attribute__ ((target ("no-outline-atomics")))
#else
# define attribute_inline_atomics
#endif

/* A glibc build can find the C library's own registration (glibc 2.35
   and later, RHEL 9's 2.34) and runs its first code in an IFUNC
   resolver; musl has neither, and runs preloads' constructors first.  */
#ifdef __GLIBC__
# define RSEQ_COMPAT_GLIBC 1
#else
# define RSEQ_COMPAT_GLIBC 0
#endif

/* 1 when compiled for librseq-compat.a, the archive that static
   programs link (Makefile: make static).  It is built from the same
   sources; what a static link changes is kept in shim/static-*.c: the
   C library's functions are named at link time instead of found with
   dlsym (static-real.c), the C library's own __rseq_* are link-time
   symbols (static-libc.c), and the main thread is registered from
   .preinit_array or an early .init_array slot (static-start.c).  */
#ifndef RSEQ_COMPAT_STATIC
# define RSEQ_COMPAT_STATIC 0
#endif

enum rseq_compat_mode
{
  RSEQ_COMPAT_MODE_UNDECIDED = 0,
  RSEQ_COMPAT_MODE_LIBC_OWNED,
  RSEQ_COMPAT_MODE_SHIM_OWNED,
  RSEQ_COMPAT_MODE_DISABLED,
  RSEQ_COMPAT_MODE_UNAVAILABLE,
  RSEQ_COMPAT_MODE_REFUSED,
};

/* What the process looked like when the shim was loaded.  */
struct rseq_compat_boot
{
  /* GLIBC_TUNABLES sets glibc.pthread.rseq to 0 (and the program is
     not AT_SECURE, for which glibc ignores the variable).  */
  int tunable_off;
  /* The same as glibc before 2.39 reads GLIBC_TUNABLES.  */
  int tunable_off_loose;
  unsigned long int at_feature_size;
  unsigned long int at_align;
  /* The dynamic loader's ELF header: AT_BASE, 0 when the kernel gave
     none (the loader was run as a command).  */
  uintptr_t loader_base;
  uintptr_t vdso_base;		/* AT_SYSINFO_EHDR.  */
  uintptr_t at_phdr;		/* AT_PHDR and AT_PHNUM, as the loader */
  unsigned long int at_phnum;	/* left them.  */
  int startup;			/* Loaded with the program, not by dlopen.  */
  /* glibc: the loader's struct r_debug (elf-sym.c).  */
  const struct r_debug *loader_debug;
};

struct rseq_compat_state
{
  enum rseq_compat_mode mode;
  /* glibc registered nothing, and GLIBC_TUNABLES turns registration off
     as glibc before 2.39 reads it (init.c tells the mode from that).  */
  int libc_loose_off;
  /* The registration the shim performs in shim-owned mode.  */
  struct rseq_layout layout;
  /* Set when the shim's own symbols must answer dlsym (RTLD_NEXT):
     the C library has no __rseq_* of its own.  */
  int answer_rtld_next;
  /* Set when __rseq_offset designates the shim's own area, which the
     shim then initialises in every thread it starts.  */
  int own_area;
  /* Refused because the C library comes before the shim in the search
     order (early.c, libc_ahead): its pthread_create, not the shim's, is
     the one every caller reaches.  */
  int late_link;
  /* Set in a copy that dlmopen loaded into a namespace other than the
     main one (glibc): its lookups must never fail (dlsym.c).  */
  int other_namespace;
  /* errno of the probe registration when the mode is unavailable.  */
  int probe_errno;
  int (*vdso_getcpu) (unsigned int *, unsigned int *, void *);
  /* libc-owned mode: the length glibc registered with (max of its
     __rseq_size and 32), for pausing its registration around vfork.  */
  unsigned int libc_reg_len;
  /* Set in a second copy of the shim (loaded from another path): the
     rseq_compat_query and rseq_compat_mode of the copy that comes first
     in the search order, which owns everything; see early.c.  */
  long int (*primary_query) (const char *);
  const char *(*primary_mode) (void);
};

#include "area-size.h"

struct rseq_compat_area
{
  union
  {
    struct rseq abi;
    unsigned char bytes[RSEQ_COMPAT_AREA_SIZE];
  };
} __attribute__ ((aligned (RSEQ_COMPAT_AREA_ALIGN)));

extern struct rseq_compat_state __rseq_compat_state attribute_hidden;

/* The storage behind the exported __rseq_offset, __rseq_size and
   __rseq_flags.  */
extern ptrdiff_t __rseq_compat_offset attribute_hidden;
extern unsigned int __rseq_compat_size attribute_hidden;
extern unsigned int __rseq_compat_flags attribute_hidden;

extern __thread struct rseq_compat_area __rseq_compat_area
  attribute_hidden __attribute__ ((tls_model ("initial-exec")));

/* early.c */
void __rseq_compat_decide (const struct rseq_compat_boot *) attribute_hidden;
void __rseq_compat_boot_from_vectors (struct rseq_compat_boot *, char **envp,
                                      const uintptr_t *auxv) attribute_hidden;
/* The same from the kernel's initial stack, ARGV being just above argc.  */
void __rseq_compat_boot_from_stack (struct rseq_compat_boot *,
                                    char *const *argv) attribute_hidden;

/* tunables.c: glibc.pthread.rseq (1 or 0) after the GLIBC_TUNABLES
   value S is applied to CURRENT; 1 if S alone turns registration off;
   1 if the environment ENVP, every definition in order, does.  */
int __rseq_compat_tunable_rseq (const char *s, int current) attribute_hidden;
int __rseq_compat_tunable_off (const char *s) attribute_hidden;
int __rseq_compat_env_tunable_off (char *const *envp) attribute_hidden;
/* The same as glibc before 2.39 reads it, more loosely.  */
int __rseq_compat_tunable_rseq_loose (const char *s, int current)
  attribute_hidden;
int __rseq_compat_env_tunable_off_loose (char *const *envp)
  attribute_hidden;

/* elf-sym.c: the address of NAME defined by the ELF image whose header
   is mapped at BASE, or NULL; the same for the image with load bias
   BIAS and its dynamic section mapped at DYNAMIC.  */
void *__rseq_compat_elf_sym (uintptr_t base, const char *name)
  attribute_hidden;
void *__rseq_compat_elf_sym_dyn (uintptr_t bias, const void *dynamic,
                                 const char *name) attribute_hidden;
/* The SysV ELF hash of NAME (DT_HASH's, and glibc's of a version
   name).  */
uint32_t __rseq_compat_elf_hash (const char *name) attribute_hidden;
/* 1 if that image's DT_SONAME is NAME.  */
int __rseq_compat_elf_soname_is (uintptr_t bias, const void *dynamic,
                                 const char *name) attribute_hidden;
/* __rseq_compat_elf_sym for the vDSO, whose header is at BASE.  */
void *__rseq_compat_elf_vdso_sym (uintptr_t base, const char *name)
  attribute_hidden;
/* 1 if ADDR lies in the PT_LOAD segments of the image whose header is
   mapped at BASE.  */
int __rseq_compat_elf_contains (uintptr_t base, const void *addr)
  attribute_hidden;
/* The dynamic loader's struct r_debug, found through the DT_DEBUG entry
   of the program whose program headers are PHDR and PHNUM (AT_PHDR and
   AT_PHNUM), else FALLBACK.  */
struct r_debug;
const struct r_debug *__rseq_compat_loader_debug (uintptr_t phdr,
                                                  unsigned long int phnum,
                                                  const struct r_debug *
                                                  fallback) attribute_hidden;

/* init.c: the start-up decision's blocking of every signal but those
   the thread's own code raises (and the C libraries' internal ones),
   with raw system calls; 1 where *OLD holds the mask before.  Undone by
   two calls, either of which suffices (a filter may refuse one).  The
   vfork pause uses them too.  */
int __rseq_compat_mask_async (uint64_t *old, int read) attribute_hidden;
/* The thread's mask into *MASK by a call that changes nothing: HOW
   (SIG_UNBLOCK or SIG_BLOCK) of the empty set, never of no set; whether
   the kernel wrote it (RSEQ_COMPAT_MASK_UNWRITTEN).  */
int __rseq_compat_mask_read (int how, uint64_t *mask) attribute_hidden;
int __rseq_compat_mask_pause (uint64_t *old) attribute_hidden;
void __rseq_compat_mask_restore (const uint64_t *old) attribute_hidden;

/* The kernel never reports SIGKILL blocked, so a SIGKILL bit still set
   in an old mask says the call did not write it: a filter refused the
   call, or answered 0 without doing it (SECCOMP_RET_ERRNO with 0, a
   supervisor), or trapped it for a handler that does the work and
   leaves the old mask alone.  */
#define RSEQ_COMPAT_MASK_UNWRITTEN ((uint64_t) 1 << (SIGKILL - 1))

/* area.c */
void __rseq_compat_clear_area (void *area, unsigned int len)
  attribute_hidden;
int __rseq_compat_register_self (void) attribute_hidden;
int __rseq_compat_unregister_self (void) attribute_hidden;
void __rseq_compat_mark_failed (void) attribute_hidden;
long int __rseq_compat_sys_unregister (void *area, unsigned int len)
  attribute_hidden;
long int __rseq_compat_sys_rseq (void *area, unsigned int len, int flags)
  attribute_hidden;
extern __thread unsigned char __rseq_compat_registered
  attribute_hidden __attribute__ ((tls_model ("initial-exec")));

/* dlsym.c, or static-real.c in the archive */
void *__rseq_compat_next (const char *name) attribute_hidden;
/* The same, or where that finds none, the definition in the loaded
   object SONAME (which must never be unloaded; NULL: none), or NULL.  */
void *__rseq_compat_next_or_in (const char *name, const char *soname)
  attribute_hidden;
extern void *(*__rseq_compat_real_dlsym) (void *, const char *)
  attribute_hidden;
#if RSEQ_COMPAT_GLIBC
extern void *(*__rseq_compat_real_dlvsym) (void *, const char *,
                                          const char *) attribute_hidden;
void __rseq_compat_init_dlvsym (const struct r_debug *dbg) attribute_hidden;
#endif

/* thread.c */
void __rseq_compat_thread_init (void) attribute_hidden;
/* What the shim's pthread_create needs of the C library, looked up
   wherever it starts threads through its trampoline.  */
void __rseq_compat_thread_lookup (void) attribute_hidden;
#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC && defined __x86_64__
/* The C library's vfork where it must be the one to call (glibc before
   2.25: thread.c), looked up at start-up.  */
void __rseq_compat_vfork_lookup (void) attribute_hidden;
/* libc.so.6's vfork, from its symbol table at start-up (dlsym.c).  */
extern void *__rseq_compat_libc_vfork_sym attribute_hidden;
#endif
/* glibc's dynamic builds: the lookups of the C library's functions the
   shim wraps, made from its constructor (thread.c).  */
void __rseq_compat_thread_resolve (void) attribute_hidden;
/* Dynamic builds: the C library's longjmp, _longjmp and siglongjmp,
   behind the shim's, which end the windows of pthread_create that a
   jump leaves (thread.c); looked up from the constructor.  */
void __rseq_compat_jumps_resolve (void) attribute_hidden;
/* How many windows of pthread_create this thread has open, and the end
   of those a jump to a stack pointer leaves (thread.c).  */
extern __thread unsigned char __rseq_compat_windows attribute_hidden;
void __rseq_compat_windows_left (uintptr_t sp) attribute_hidden;
void __rseq_compat_creators_resolve (void) attribute_hidden;
extern int __rseq_compat_creators_ready attribute_hidden;
int __rseq_compat_may_be_loaded (const char *soname) attribute_hidden;
/* The shim's decision and what follows from it, at most once, on
   whichever thread calls first; no registration (the constructor
   registers the main thread).  Also called by pthread_create on musl,
   where a library linked before -lrseq-compat may start a thread from
   a constructor that runs before the shim's (init.c).  */
void __rseq_compat_init_once (void) attribute_hidden;
/* The shim's pthread_create when FN is the C library's (the one the
   shim's calls), else NULL.  */
void *__rseq_compat_own_create (void *fn) attribute_hidden;

/* static-libc.c (the archive only): the C library's own __rseq_offset
   and __rseq_size in *OFFSET and *SIZE, and 1, where the program's C
   library defines them (a static glibc 2.35 or later); else 0.  */
int __rseq_compat_static_libc_abi (const ptrdiff_t **offset,
                                   const unsigned int **size)
  attribute_hidden;
/* init.c (the archive only): what the shared library's constructor
   does, run by static-start.c before every constructor.  */
void __rseq_compat_static_init (void) attribute_hidden;

/* getcpu.c */
int __rseq_compat_getcpu_slow (unsigned int *cpu, unsigned int *node)
  attribute_hidden;

/* The area sched_getcpu reads.  On glibc it may be the C library's, at
   an offset known since the shim's relocation.  musl never registers, so
   the shim's own area is the only candidate, and reading it directly
   stays correct in constructors that run before the shim's.  */
static inline struct rseq *
rseq_compat_current_area (void)
{
#if RSEQ_COMPAT_GLIBC
  return (struct rseq *) (rseq_compat_thread_pointer ()
                          + __rseq_compat_offset);
#else
  return &__rseq_compat_area.abi;
#endif
}

#endif
