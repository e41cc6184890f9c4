/* Start-up of librseq-compat: the main thread, and refusing dlopen.
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

#define _GNU_SOURCE 1
#include <errno.h>
#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif
#include <limits.h>
#include <link.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "shim.h"

/* References through the GOT: if a non-PIE program copied the
   variables, these are the program's copies.  */
extern const ptrdiff_t __rseq_offset;
extern const unsigned int __rseq_size;
extern const unsigned int __rseq_flags;

/* musl runs no code of the shim's before its constructor, and a static
   program none before its start-up code: both decide there.  */
#if !RSEQ_COMPAT_GLIBC || RSEQ_COMPAT_STATIC
/* A static program has no copies (decide_from_process).  */
# if !RSEQ_COMPAT_STATIC
/* Whether ADDR, where the GOT leads for one of __rseq_*, is a copy the
   loader made for the program (a COPY relocation: the program refers to
   the shim's variable, reads its own copy, and musl keeps such copies
   writable).  Anything else outside the shim is the program's own
   definition (it may be const, in read-only memory): it interposes on
   the shim's as on glibc's, and glibc 2.35 and later leave it as the
   program made it, writing only their own.  The program is the first
   object dl_iterate_phdr reports: AT_PHDR describes the loader instead
   when the loader runs as a command (elf-sym.c).  musl leaves the
   program's dynamic section unrelocated, so its addresses are the
   file's plus the load bias.  */
struct copy_query
{
  uintptr_t addr;
  int found;
};

static int
find_copy (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size;
  struct copy_query *q = data;
  const ElfW(Dyn) *dyn = NULL;
  for (size_t i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dyn = (const ElfW(Dyn) *) (info->dlpi_addr
                                 + info->dlpi_phdr[i].p_vaddr);
  uintptr_t rela = 0;
  size_t relasz = 0, ent = sizeof (ElfW(Rela));
  for (; dyn != NULL && dyn->d_tag != DT_NULL; dyn++)
    if (dyn->d_tag == DT_RELA)
      rela = info->dlpi_addr + dyn->d_un.d_ptr;
    else if (dyn->d_tag == DT_RELASZ)
      relasz = dyn->d_un.d_val;
    else if (dyn->d_tag == DT_RELAENT && dyn->d_un.d_val != 0)
      ent = dyn->d_un.d_val;
  for (size_t off = 0; rela != 0 && off + sizeof (ElfW(Rela)) <= relasz;
       off += ent)
    {
      const ElfW(Rela) *r = (const ElfW(Rela) *) (rela + off);
      if (ELF64_R_TYPE (r->r_info) == RSEQ_COMPAT_R_COPY
          && info->dlpi_addr + r->r_offset == q->addr)
        q->found = 1;
    }
  /* The program alone.  */
  return 1;
}

static int
program_copy_at (const void *addr)
{
  struct copy_query q = { (uintptr_t) addr, 0 };
  dl_iterate_phdr (find_copy, &q);
  return q.found;
}

/* Where the program reads __rseq_* through its GOT: the shim's own
   storage, or the program's copy of it, which the shim writes; NULL
   for the program's own definition.  */
static void *
published (const volatile void *got, const void *own)
{
  if (got == own || program_copy_at ((const void *) got))
    return (void *) got;
  return NULL;
}
# endif

static void
decide_from_process (void)
{
  struct rseq_compat_boot boot =
    {
      .tunable_off = getauxval (AT_SECURE) == 0
                     && __rseq_compat_env_tunable_off (environ),
      .at_feature_size = getauxval (RSEQ_LAYOUT_AT_FEATURE_SIZE),
      .at_align = getauxval (RSEQ_LAYOUT_AT_ALIGN),
      .vdso_base = getauxval (AT_SYSINFO_EHDR),
      /* musl's loader refuses to dlopen a library with initial-exec
         TLS, so a running constructor means start-up; a static
         program's start-up code runs before its main.  */
      .startup = 1,
    };
  /* A fork child that takes over (__rseq_compat_init_once) keeps what
     the parent decided before the fork: its probe would run on a thread
     that may be registered by then.  */
  if (__rseq_compat_state.mode == RSEQ_COMPAT_MODE_UNDECIDED)
    __rseq_compat_decide (&boot);
  /* A static program has no copies: its references lead to the
     archive's own storage, or to the C library's definitions, which
     the archive must never write.  */
#if !RSEQ_COMPAT_STATIC
  /* In a second copy the GOT leads to the first copy's definitions (or
     the program's copies of them), which are final: the first copy's
     constructor ran before this one.  */
  if (__rseq_compat_state.primary_query != NULL)
    {
      __rseq_compat_offset = *(volatile const ptrdiff_t *) &__rseq_offset;
      __rseq_compat_size = *(volatile const unsigned int *) &__rseq_size;
      __rseq_compat_flags = *(volatile const unsigned int *) &__rseq_flags;
      return;
    }

  /* The program's COPY relocations were made before this constructor
     ran; the GOT leads to them.  */
  volatile ptrdiff_t *o = published (&__rseq_offset, &__rseq_compat_offset);
  volatile unsigned int *f = published (&__rseq_flags, &__rseq_compat_flags);
  unsigned int *s = published (&__rseq_size, &__rseq_compat_size);
  if (o != NULL)
    *o = __rseq_compat_offset;
  if (f != NULL)
    *f = __rseq_compat_flags;
  /* Last, and a release: the header's accessors test the size before
     they load the offset.  */
  if (s != NULL)
    __atomic_store_n (s, __rseq_compat_size, __ATOMIC_RELEASE);
#endif
}
#endif

#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC
/* glibc before 2.39 takes spellings of glibc.pthread.rseq as 0 that
   tunables.c's reader, glibc 2.41's, does not (=0junk, =08, =0=1): where
   such a glibc with the rseq ABI (2.35 to 2.38, RHEL 9's 2.34, the
   patched 2.31) registered nothing and reads the value as 0, it chose
   not to register, and the mode says "disabled" as glibc 2.41's own
   spelling would, not "unavailable" (a kernel, emulator or filter
   refusing).  The decision (early.c) runs where no library call can be
   made, and read the environment then; both modes behave the same, only
   the answer changes.  The static archive asks the kernel instead
   (early.c, libc_declined).  */
static void
refine_unavailable (void)
{
  if (__rseq_compat_state.mode != RSEQ_COMPAT_MODE_UNAVAILABLE
      || !__rseq_compat_state.libc_loose_off)
    return;
  const char *v = gnu_get_libc_version ();
  if (v[0] != '2' || v[1] != '.')
    return;
  int minor = 0;
  for (v += 2; *v >= '0' && *v <= '9' && minor < 1000; v++)
    minor = minor * 10 + (*v - '0');
  if (minor <= 38)
    __rseq_compat_state.mode = RSEQ_COMPAT_MODE_DISABLED;
}
#endif

/* INITFIRST (see Makefile) and priority 101 put this before every other
   constructor glibc allows; glibc runs first only the last object loaded
   with the flag, which before 2.34 is libpthread in every threaded
   program (README: the constructor window).  The main thread cannot be
   registered earlier, in early.c's resolver: glibc copies the TLS images
   into the main thread's block after relocating every object, and would
   overwrite the registered area, which user space must not write.  */
#if RSEQ_COMPAT_STATIC
/* Not a constructor: static-start.c runs it before them, on musl from
   two places (.init and a fallback in .init_array), of which the first
   to run acts.  Start-up is single-threaded until then but for threads
   the program made earlier, which never call this.  */
void
__rseq_compat_static_init (void)
#else
__attribute__ ((constructor (101))) static void
rseq_compat_init (void)
#endif
{
#if RSEQ_COMPAT_STATIC
  static int done;
  if (done)
    return;
  done = 1;
#endif
  /* C11: errno is 0 when main starts; a failed registration or write
     here must not say otherwise.  */
  int saved_errno = errno;
  __rseq_compat_init_once ();
#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC
  refine_unavailable ();
  /* Not when dlopened (refused): RTLD_NEXT from a library loaded after
     the C library finds nothing, and what that failure leaves is the
     program's to see (LeakSanitizer reported glibc 2.31's message
     buffer); no one calls this copy's pthread_create then.  */
  if (__rseq_compat_state.mode != RSEQ_COMPAT_MODE_REFUSED)
    __rseq_compat_thread_resolve ();
#endif
#if !RSEQ_COMPAT_STATIC
  /* Here, not at the first jump: that may come from a signal handler
     that interrupted a dlopen, whose lock dlsym would wait for.  */
  __rseq_compat_jumps_resolve ();
#endif
  /* The main thread, which runs the constructors, whichever thread the
     decision was made on.  */
  switch (__rseq_compat_state.mode)
    {
    case RSEQ_COMPAT_MODE_SHIM_OWNED:
      __rseq_compat_register_self ();
      break;
    case RSEQ_COMPAT_MODE_DISABLED:
    case RSEQ_COMPAT_MODE_UNAVAILABLE:
      /* Where the C library has an area of its own, it marked it.  */
      if (__rseq_compat_state.own_area)
        __rseq_compat_mark_failed ();
      break;
    default:
      break;
    }
  errno = saved_errno;
}

/* The signals the decision blocks: all but those the thread's own code
   raises and the C library's internal ones (below): glibc's are 32 and
   33 (34 is a program's SIGRTMIN there, whose handler must not run on
   an unregistered thread either: sixteenth review), musl's 32 to 34.  */
static uint64_t
async_set (void)
{
  static const int open[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP,
                              SIGSYS, 32, 33,
#if !RSEQ_COMPAT_GLIBC
                              34
#endif
  };
  uint64_t set = ~(uint64_t) 0;
  for (size_t i = 0; i < sizeof open / sizeof open[0]; i++)
    set &= ~((uint64_t) 1 << (open[i] - 1));
  return set;
}

/* The vfork pause's: async_set's, and the signals the thread's own
   code raises but SIGSYS.  While the parent is paused it runs no code
   of the program's, and the shim's touches only its own TLS, so the
   only one of those its system calls raise is SIGSYS (a filter's
   SECCOMP_RET_TRAP on rseq or vfork, which, blocked, kills the process
   where the program's handler would answer it: fourteenth review).
   Any other arrives from kill (the child's, typically), and its
   handler must run once the registration is back: left open, one ran
   on the unregistered parent, and one that jumped out left it
   unregistered with every signal blocked for good (nineteenth review).
   A SIGSYS sent by kill meanwhile still can (doc/using.md).  */
static uint64_t
pause_set (void)
{
  static const int faults[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP };
  uint64_t set = async_set ();
  for (size_t i = 0; i < sizeof faults / sizeof faults[0]; i++)
    set |= (uint64_t) 1 << (faults[i] - 1);
  return set;
}

/* Every read passes the empty set, SIG_BLOCK's too: a handler that
   emulates a trapped SIG_BLOCK may take the set for given, as for the
   callers that only ever block something, and crash on none (109th
   review, S4: musl's pthread_create read with SIG_BLOCK and no set;
   sigmask-emulated.c, mode 6).  Of the empty set, neither `how' changes
   anything.  */
int
__rseq_compat_mask_read (int how, uint64_t *mask)
{
  uint64_t none = 0;
  *mask = ~(uint64_t) 0;
  return rseq_compat_syscall4 (SYS_rt_sigprocmask, how, (long int) &none,
                               (long int) mask, sizeof *mask) == 0
         && (*mask & RSEQ_COMPAT_MASK_UNWRITTEN) == 0;
}

/* SIG_SETMASK to WANT, and whether it took effect, with the mask it
   replaced in *WAS.  Where the old mask came back unwritten, the mask is
   read again: a trapping filter's handler may have done the work on its
   context's mask (105th review, Q4: taken for a call not done, the block
   was never undone, and the creator and its thread kept every
   asynchronous signal blocked); a changed mask replaced READ, the one
   read just before.  The second read is made as the first (HOW), the
   only `how' the caller has shown a filter lets through: on musl's
   pthread_create path it was SIG_UNBLOCK, and a filter installed after
   the first thread that answered SIG_SETMASK with 0 and killed
   SIG_UNBLOCK killed pthread_create where musl alone ran (110th review,
   M1; seccomp.exp, the program's own filter).  */
static int
mask_set (uint64_t want, uint64_t read, int how, uint64_t *was)
{
  uint64_t now;
  *was = ~(uint64_t) 0;
  if (rseq_compat_syscall4 (SYS_rt_sigprocmask, SIG_SETMASK, (long int) &want,
                            (long int) was, sizeof want) != 0)
    return 0;
  if ((*was & RSEQ_COMPAT_MASK_UNWRITTEN) == 0)
    return 1;
  if (!__rseq_compat_mask_read (how, &now) || now == read)
    return 0;
  *was = read;
  return 1;
}

/* SET blocked, with raw system calls, and whether it was: it runs in
   the first constructor, before a sanitizer's runtime has set up its
   interceptors of sigfillset or sigprocmask (TSan's jumped to address
   0), and the kernel's mask is one 64-bit word on both architectures.

   The block is a SIG_SETMASK, as the restore's first call is: a filter
   that stops SIG_SETMASK then stops the block too, and nothing is
   blocked that could not be undone (101st review, R2: the block was a
   SIG_BLOCK, and a filter that refused or answered 0 to both
   SIG_SETMASK and SIG_UNBLOCK left the creator and its thread with
   every asynchronous signal blocked for good, where glibc 2.31 alone
   blocks nothing in pthread_create).  The mask it extends is read
   first, by READ: SIG_UNBLOCK of no signal, a call glibc 2.31 makes
   itself (libpthread's start-up), but in musl's pthread_create
   SIG_BLOCK of the empty set (musl blocks with SIG_BLOCK there), so
   that a filter that stops SIG_BLOCK still finds nothing blocked (musl
   alone then restores a mask it never read, and the shim must leave
   that as it is: seccomp.exp).  A filter that kills SIG_BLOCK kills
   musl's pthread_create, but not glibc 2.31's, nor a program that
   creates no thread (106th review, killblock: every read was
   SIG_BLOCK); and no read passes no set (__rseq_compat_mask_read),
   which a trapping handler may take for given and crash on, or take
   for an empty set (108th review, S1 and S2; 109th, S4).  Where a
   handler changed the mask between the two
   calls (by editing its context's uc_sigmask), the block's own answer
   says so, and a third call extends that one instead (102nd review,
   Q2, in the series: the change was lost).  */
static int
mask_block (uint64_t set, int read, uint64_t *old)
{
  uint64_t now = ~(uint64_t) 0, before;
  *old = ~(uint64_t) 0;
  if (!__rseq_compat_mask_read (read, &now)
      || !mask_set (now | set, now, read, &before))
    return 0;
  if (before != now)
    {
      uint64_t was;
      if (!mask_set (before | set, before, read, &was))
        {
          /* A filter installed meanwhile by another thread
             (SECCOMP_FILTER_FLAG_TSYNC): back as the restore goes,
             and nothing blocked.  */
          *old = before;
          __rseq_compat_mask_restore (old);
          *old = ~(uint64_t) 0;
          return 0;
        }
    }
  *old = before;
  return 1;
}

/* The decision's own mask, and pthread_create's (READ as mask_block
   says).  The signals the thread's own code raises stay as they were
   (blocked, they kill), and so do the C library's internal ones
   (glibc's 32 and 33, musl's 32 to 34: cancellation, set*id
   broadcasts), which no handler of the program's runs for.  */
int
__rseq_compat_mask_async (uint64_t *old, int read)
{
  return mask_block (async_set (), read, old);
}

/* The vfork pause's mask (pause_set).  */
int
__rseq_compat_mask_pause (uint64_t *old)
{
  return mask_block (pause_set (), SIG_UNBLOCK, old);
}

/* Back to OLD: SIG_SETMASK, and where that is seen not to have been
   done (its old mask unwritten), unblocking what mask_async or
   mask_pause blocked that OLD did not.  mask_block has shown that
   SIG_SETMASK gets through; the second call is for a filter installed
   since by another thread (SECCOMP_FILTER_FLAG_TSYNC) that stops it and
   lets SIG_UNBLOCK through, and is made only then, as a `how' the
   program alone may never use.  One that stops both leaves the mask
   blocked (doc/using.md).  */
void
__rseq_compat_mask_restore (const uint64_t *old)
{
  uint64_t was = ~(uint64_t) 0;
  rseq_compat_syscall4 (SYS_rt_sigprocmask, SIG_SETMASK, (long int) old,
                        (long int) &was, sizeof *old);
  uint64_t added = pause_set () & ~*old;
  if ((was & RSEQ_COMPAT_MASK_UNWRITTEN) != 0 && added != 0)
    rseq_compat_syscall4 (SYS_rt_sigprocmask, SIG_UNBLOCK, (long int) &added,
                          0, sizeof added);
}

/* The process, for the decision's claim.  Where a filter refuses
   getpid, its error (negative) stands for the process: fork children
   are then not told apart.  Never 0 or the claim's DONE.  */
static long int
current_pid (void)
{
  long int pid = rseq_compat_syscall4 (SYS_getpid, 0, 0, 0, 0);
  return pid == 0 || pid == LONG_MIN ? -1 : pid;
}

/* Whether the decision keeps asynchronous signals off this thread.
   Not where the shared library for glibc has no area of its own (glibc
   2.35 and later registers, or the shim came by dlopen or behind the C
   library): its decision was made while the loader relocated it, no
   registration follows here, and its pthread_create goes straight to
   the C library's, so no handler can wait for this thread.  There the
   block was the shim's only call of rt_sigprocmask, and a launcher's
   filter that killed SIG_SETMASK or SIG_UNBLOCK killed every program
   the shim was preloaded into at start-up, where glibc alone made no
   such call (108th review, S3; seccomp.exp, a launcher's filter).  The
   static archive decides here, and musl's library and glibc's before
   2.35 register the main thread here: they block (doc/using.md).  */
static int
decision_blocks (void)
{
#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC
  return __rseq_compat_state.own_area;
#else
  return 1;
#endif
}

/* Set on the thread that is deciding: a handler of a signal its own
   code raised (those stay open) that creates a thread there must not
   wait for itself.  */
static __thread unsigned char deciding
  __attribute__ ((tls_model ("initial-exec")));

/* The decision and what follows from it, but no registration.  musl
   runs constructors in dependency order, so with the shim linked after
   another library (cc main.c -la -lrseq-compat) liba's runs first:
   until the shim's has run, __rseq_size and __rseq_offset are 0 (the
   header's accessors then take their slow path), and a thread liba
   starts would not be registered, which pthread_create prevents by
   calling this first.  Such a thread (thrd_create, which the shim does
   not see) may call it while the main thread does: the first caller
   decides, a second one waits for it.  No handler of an asynchronous
   signal runs on the deciding thread meanwhile: one that created a
   thread there would wait for itself.  A handler of a signal the
   thread's own code raises (those stay open: blocked, they kill) that
   does so finds its own thread deciding and goes on undecided: its
   thread starts unregistered.  A fork while another thread decides
   leaves the child a decision no thread of its will finish: the first
   caller there finds the decision begun in another process and finishes
   it.  */
attribute_inline_atomics attribute_hidden void
__rseq_compat_init_once (void)
{
  /* 0: not begun; DONE; else the ID of the process whose thread is
     deciding, set by the one compare-and-swap that claims the decision
     (a fork between a claim and a later store of it left a child that
     waited for good).  A fork child that finds its parent's ID there
     takes the decision over.  A process whose ID another had before
     (PID namespaces, reuse), forked while its parent decided, waits
     instead: doc/internals.md.  */
  static long int state;
  const long int done = LONG_MIN;
  if (__atomic_load_n (&state, __ATOMIC_ACQUIRE) == done)
    return;
  if (deciding)
    return;
  /* musl's getauxval sets ENOENT for an entry the kernel does not give
     (AT_RSEQ_* before 6.3): neither main nor pthread_create's caller may
     find errno changed.  */
  int saved_errno = errno;
  long int self = current_pid ();
  uint64_t old;
  int masked = decision_blocks () && __rseq_compat_mask_async (&old,
                                                               SIG_UNBLOCK);
  /* Before the claim, and cleared only once the decision is done: a
     handler that creates a thread on this thread between the claim and
     the flag (where a filter refused the mask, any handler can run)
     waited for itself.  */
  deciding = 1;
  /* A handler on this thread reads the flag: no compiler may move it
     past the claim (nor its clearing before DONE, below).  */
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  long int seen = 0;
  while (!__atomic_compare_exchange_n (&state, &seen, self, 0,
                                       __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
    {
      if (seen == done)
        {
          deciding = 0;
          if (masked)
            __rseq_compat_mask_restore (&old);
          errno = saved_errno;
          return;
        }
      /* Claimed in this process: wait.  In another (this is a fork
         child): take it over, with the compare-and-swap above.  */
      if (seen != self)
        continue;
      deciding = 0;
      if (masked)
        __rseq_compat_mask_restore (&old);
      /* The process ID again at each turn: a handler that forks on this
         thread while it waits (its mask is the program's again) leaves a
         child here whose decider stayed in the parent.  */
      while ((seen = __atomic_load_n (&state, __ATOMIC_ACQUIRE)) == self)
        {
          long int now = current_pid ();
          if (now != self)
            {
              self = now;
              break;
            }
          sched_yield ();
        }
      if (seen == done)
        {
          errno = saved_errno;
          return;
        }
      masked = decision_blocks () && __rseq_compat_mask_async (&old,
                                                               SIG_UNBLOCK);
      deciding = 1;
      __atomic_signal_fence (__ATOMIC_SEQ_CST);
    }
#if !RSEQ_COMPAT_GLIBC || RSEQ_COMPAT_STATIC
  decide_from_process ();
#endif
  if (__rseq_compat_state.own_area)
    __rseq_compat_thread_lookup ();
#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC && defined __x86_64__
  __rseq_compat_vfork_lookup ();
#endif
  switch (__rseq_compat_state.mode)
    {
    case RSEQ_COMPAT_MODE_SHIM_OWNED:
      __rseq_compat_thread_init ();
      break;
    case RSEQ_COMPAT_MODE_REFUSED:
      /* Nothing is said, by dlopen as by a link behind the C library:
         descriptor 2 may be anything by then.  A line written there
         raised SIGPIPE at a pipe whose reader had gone, or at a socket
         shut down for writing (which poll does not report), SIGXFSZ at
         a file at its size limit, hung dlopen, under the loader's lock,
         on a full pipe, and could land in a file of the program's that
         took the descriptor (111th review, 2, and the review of its
         first fix; dlopen-stderr.c).  rseq_compat_mode () says
         "refused", and rseq-compat info -p why.  */
      break;
    default:
      break;
    }
  __atomic_store_n (&state, done, __ATOMIC_RELEASE);
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  deciding = 0;
  if (masked)
    __rseq_compat_mask_restore (&old);
  errno = saved_errno;
}

attribute_public const char *
rseq_compat_mode (void)
{
  if (__rseq_compat_state.primary_mode != NULL)
    return __rseq_compat_state.primary_mode ();
  switch (__rseq_compat_state.mode)
    {
    case RSEQ_COMPAT_MODE_LIBC_OWNED:
      return "libc-owned";
    case RSEQ_COMPAT_MODE_SHIM_OWNED:
      return "shim-owned";
    case RSEQ_COMPAT_MODE_DISABLED:
      return "disabled";
    case RSEQ_COMPAT_MODE_UNAVAILABLE:
      return "unavailable";
    case RSEQ_COMPAT_MODE_REFUSED:
      return "refused";
    default:
      return "undecided";
    }
}
