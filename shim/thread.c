/* Registering every thread: pthread_create, thread exit, vfork and clone.
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
#include <dlfcn.h>
#ifdef __GLIBC__
# include <gnu/libc-version.h>
#endif
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <rseq-signals.h>

#include "shim.h"
#include "start.h"

typedef int create_fn (pthread_t *, const pthread_attr_t *,
                       void *(*) (void *), void *);
typedef int clone_fn (int (*) (void *), void *, int, void *, ...);
/* 0 with the mask, PTHREAD_ATTR_NO_SIGMASK_NP (1) without one.  */
typedef int getmask_fn (const pthread_attr_t *, sigset_t *);

#if !RSEQ_COMPAT_GLIBC
/* musl's detached threads unmap their own stack, TLS included, before
   the exit system call; the kernel would then write the area of a live
   registration into freed memory and kill the process.  The key's
   destructor runs during pthread_exit, before that.  glibc reuses a
   thread's memory only after the kernel has cleared its TID, when the
   registration is gone, so it needs no hook (and keeps the registration
   valid in later destructors, as glibc itself does).  */
static pthread_key_t exit_key;
static int exit_key_ok;

/* Whether the calling thread is detached (musl reports its state in
   pthread_getattr_np's attributes).  */
static int
self_detached (void)
{
  pthread_attr_t a;
  int state = PTHREAD_CREATE_JOINABLE;
  if (pthread_getattr_np (pthread_self (), &a) != 0)
    return 0;
  pthread_attr_getdetachstate (&a, &state);
  pthread_attr_destroy (&a);
  return state == PTHREAD_CREATE_DETACHED;
}

/* Destructor rounds this thread has run in so far (see below).  */
static __thread int exit_rounds;

static void
on_thread_exit (void *value)
{
  (void) value;
  /* musl runs the destructors in key order, and this key is made by the
     constructor, before the program's own: unregistering here, in the
     first round, would leave every destructor of the program running
     unregistered (cpu_id -1, cpu_id_start 0) while __rseq_size still
     says registered, where glibc keeps the registration to the end.  So
     the key asks for every one of musl's rounds, which costs a pass over
     the keys each, and the thread unregisters only in the last: what
     still runs after it then is a destructor of a later key whose value
     a destructor of the third round set again.  A filter that refuses
     rseq, installed by a destructor of a detached thread, now parks
     that thread (below) where an unregistration in the first round
     came before it.  */
  if (++exit_rounds < PTHREAD_DESTRUCTOR_ITERATIONS)
    {
      pthread_setspecific (exit_key, (void *) 1);
      return;
    }
  int err = __rseq_compat_unregister_self ();
  /* EINVAL: the kernel has not this area registered (the program
     unregistered it itself, and the kernel then wrote cpu_id -1) --
     unless cpu_id still says a CPU, when a filter answers EINVAL.  */
  if (err == 0
      || (err == EINVAL
          && (int32_t) __atomic_load_n (&__rseq_compat_area.abi.cpu_id,
                                        __ATOMIC_RELAXED) < 0))
    return;
  /* The kernel refused the unregistration: a seccomp filter installed
     after the thread registered answers EPERM or ENOSYS (or whatever
     errno it was written to give), or 0 without doing the call, which
     __rseq_compat_sys_unregister tells as EPERM.  A joinable thread's
     memory is freed by its joiner once the kernel has cleared its TID,
     when the registration has gone with the thread; a detached one
     would unmap the live area itself.  */
  if (!self_detached ())
    return;
  /* Kept instead, parked for the rest of the process's life: a thread
     and its stack per refusal, and its thread-specific data destructors
     after this one do not run; a process whose last other thread calls
     pthread_exit then never ends.  If the filter refuses pause and
     nanosleep too, it spins, which still beats a crash.  */
  for (;;)
    {
      pause ();
      struct timespec ts = { 3600, 0 };
      nanosleep (&ts, NULL);
    }
}
#endif

static const int raised_by_own_code[] = { RSEQ_OWN_CODE_SIGNALS };


#if RSEQ_COMPAT_GLIBC
/* What block_async blocks: every signal but those the caller's own
   code may raise.  */
static void
async_sigset (sigset_t *set)
{
  sigfillset (set);
  for (size_t i = 0; i < sizeof raised_by_own_code / sizeof (int); i++)
    sigdelset (set, raised_by_own_code[i]);
}
#endif

/* The window of a creation: create blocks every asynchronous signal
   around the C library's pthread_create, and the signals its own code
   raises stay open there (a seccomp SIGSYS for clone or
   sched_setaffinity, a fault), so a handler can run inside it.  A
   thread that such a handler creates takes the mask the program has
   there (program_mask) instead of the window's, which would keep every
   asynchronous signal, SIGSETXID with them, blocked in it for good
   (91st review, F1).

   The open windows are kept here, in TLS, each with the address of a
   local of its creation's frame and the program's mask there, four
   deep (a fifth is not kept; a creation inside it takes the fourth's):
   nothing on the stack is read or linked anywhere (95th review: a
   record on the stack, linked into glibc's cleanup-buffer list, stayed
   there after a handler left by setcontext, and the next cancellation
   or longjmp crashed; 96th review: reading a record a setcontext left
   behind faulted where the stack had since been made PROT_NONE).  A
   nested creation saves nothing: the outer window's entry stays below
   it (93rd review, F2: it cleared the outer one's).  The shim's
   longjmp, _longjmp and siglongjmp (jump.c) end the windows a jump
   leaves (93rd review, F4: a later creation took a window left by a
   jump for a handler's); a window whose frame lies at or below a later
   creation's, on the same stack, was left by other means and ends
   then.  */
#define WINDOWS_MAX 4
__thread unsigned char __rseq_compat_windows
  __attribute__ ((tls_model ("initial-exec"))) attribute_hidden;
static __thread struct
{
  uintptr_t frame;
  uint64_t mask;
} windows[WINDOWS_MAX] __attribute__ ((tls_model ("initial-exec")));

/* The kernel's 64 signals of SET as one word (bit SIG - 1), and back:
   both architectures' masks are one 64-bit word.  */
static uint64_t
mask_word (const sigset_t *set)
{
  uint64_t word = 0;
  for (int sig = 1; sig <= 64; sig++)
    if (sigismember (set, sig) == 1)
      word |= (uint64_t) 1 << (sig - 1);
  return word;
}

static void
mask_from_word (sigset_t *set, uint64_t word)
{
  sigemptyset (set);
  for (int sig = 1; sig <= 64; sig++)
    if (word & ((uint64_t) 1 << (sig - 1)))
      sigaddset (set, sig);
}

/* Whether FRAME and ADDR are on one stack, as far as this thread can
   tell: both on the signal stack it runs on, or both off it.  */
static int
same_stack (const stack_t *ss, int on_alt, uintptr_t frame, uintptr_t addr)
{
  if (!on_alt)
    return 1;
  return (frame - (uintptr_t) ss->ss_sp < ss->ss_size)
         == (addr - (uintptr_t) ss->ss_sp < ss->ss_size);
}

/* Whether this thread runs on a signal stack, as the kernel says, which
   is then in SS.  With the system call, which leaves errno as the
   program left it (98th review, F3: a jump out of a handler under a
   filter that refuses sigaltstack gave the program the refusal's
   errno); SS starts as none, since a filter may answer 0 without
   writing it (99th review, F7).  Inside a handler on a stack armed
   with SS_AUTODISARM the kernel says none (doc/using.md).  */
static int
signal_stack (stack_t *ss)
{
  ss->ss_sp = NULL;
  ss->ss_flags = SS_DISABLE;
  ss->ss_size = 0;
  if (rseq_compat_syscall4 (SYS_sigaltstack, 0, (long int) ss, 0, 0) != 0)
    {
      ss->ss_flags = SS_DISABLE;
      ss->ss_size = 0;
    }
  return (ss->ss_flags & SS_ONSTACK) != 0;
}

/* Ends the windows that a jump to the stack pointer SP leaves (jump.c):
   those whose frames lie below it on its stack, and, for a jump off the
   signal stack this thread runs on, every one on that stack (97th
   review: the windows below were kept too).  A jump that stays on the
   signal stack, inside a handler, leaves none of the windows elsewhere
   (96th review, F2).  */
void
__rseq_compat_windows_left (uintptr_t sp)
{
  unsigned int n = __rseq_compat_windows;
  if (n == 0)
    return;
  stack_t ss;
  int on_alt = signal_stack (&ss);
  int sp_alt = on_alt && sp - (uintptr_t) ss.ss_sp < ss.ss_size;
  while (n > 0)
    {
      uintptr_t frame = windows[n - 1].frame;
      int frame_alt = on_alt && frame - (uintptr_t) ss.ss_sp < ss.ss_size;
      if (frame_alt == sp_alt ? frame >= sp : !frame_alt)
        break;
      n--;
    }
  __rseq_compat_windows = (unsigned char) n;
}

/* Whether the creation whose frame holds HERE runs inside a window of
   this thread, in a handler that interrupted an outer creation, after
   ending the windows left by other means than the shim's jumps
   (setcontext, a fortified program's __longjmp_chk): those at or below
   HERE on this stack.  A creation in a handler on a signal stack is
   inside every window that is not on it (95th review, F3).  */
static int
inside_window (uintptr_t here)
{
  unsigned int n = __rseq_compat_windows;
  if (n == 0)
    return 0;
  /* Below the innermost window nothing ends, and the kernel is not
     asked (a filter may kill the call, which the C library's
     pthread_create never makes).  */
  if (windows[n - 1].frame > here)
    return 1;
  stack_t ss;
  int on_alt = signal_stack (&ss);
  while (n > 0 && windows[n - 1].frame <= here
         && same_stack (&ss, on_alt, windows[n - 1].frame, here))
    n--;
  __rseq_compat_windows = (unsigned char) n;
  return n > 0;
}

/* The mask the program has where a handler running inside this
   thread's innermost window reads NOW: the signals its own code raises
   as NOW has them (the window leaves them alone), and any other
   blocked where both the window's saved mask and NOW block it.  What
   the handler opened stays open; what it or its sa_mask added to the
   asynchronous signals is not known under the window's blocking, and is
   left out (doc/using.md).  */
static void
program_mask (const sigset_t *now, sigset_t *mask)
{
  uint64_t own = 0;
  for (size_t i = 0; i < sizeof raised_by_own_code / sizeof (int); i++)
    own |= (uint64_t) 1 << (raised_by_own_code[i] - 1);
  uint64_t outer = windows[__rseq_compat_windows - 1].mask;
  mask_from_word (mask, mask_word (now) & (own | outer));
}

/* Opens the window of a creation whose frame holds HERE, with the
   program's mask MASK; whether it is kept.  */
static int
window_open (uintptr_t here, const sigset_t *mask)
{
  unsigned int n = __rseq_compat_windows;
  if (n >= WINDOWS_MAX)
    return 0;
  windows[n].frame = here;
  windows[n].mask = mask_word (mask);
  /* Counted last: a handler reads the entry once it is.  */
  __atomic_signal_fence (__ATOMIC_SEQ_CST);
  __rseq_compat_windows = (unsigned char) (n + 1);
  return 1;
}

static void
window_close (uintptr_t here)
{
  unsigned int n = __rseq_compat_windows;
  if (n > 0 && windows[n - 1].frame == here)
    __rseq_compat_windows = (unsigned char) (n - 1);
}

#if RSEQ_COMPAT_GLIBC
/* The thread's mask into *SET, and whether it could be read (a filter
   may answer 0 without writing it).  Only where a SIG_SETMASK was not
   done (mask_back), which leaves no other way; SIG_UNBLOCK of the empty
   set, as every read of the shim's on glibc: glibc 2.31 alone never
   calls SIG_BLOCK, and an emulating handler may take a SIG_BLOCK's set
   for given (109th review, S4).  */
static int
mask_now (sigset_t *set)
{
  uint64_t word;
  if (!__rseq_compat_mask_read (SIG_UNBLOCK, &word))
    return 0;
  sigemptyset (set);
  memcpy (set, &word, sizeof word);
  return 1;
}

/* Whether A and B block the same of the kernel's 64 signals (both
   architectures' masks are one 64-bit word; the C library's sigset_t
   may be longer, and only that word is ever written), as the kernel
   would set them: never SIGKILL or SIGSTOP.  */
static int
same_mask (const sigset_t *a, const sigset_t *b)
{
  for (int sig = 1; sig <= 64; sig++)
    if (sig != SIGKILL && sig != SIGSTOP
        && sigismember (a, sig) != sigismember (b, sig))
      return 0;
  return 1;
}
#endif

/* Makes TARGET the thread's mask after block_async (the creator's, or
   in a new thread the one it must start with), as the C library alone
   would have left it.  SIG_SETMASK, checked: a filter may refuse it or
   answer 0 while it lets SIG_BLOCK through.  Then, where the mask is
   still TARGET plus what block_async blocked and nothing else (glibc
   before 2.32 blocks nothing around its clone), unblocking what
   block_async blocked: without it the thread kept almost every signal
   blocked where the C library alone leaves none.  musl blocks every
   application signal around its clone and restores with SIG_SETMASK:
   under such a filter it leaves them all blocked by itself, which the
   shim's unblocking must not undo; and where TARGET holds the six
   signals block_async leaves alone, musl's blocking and the shim's
   look the same, so on musl the mask stays as SIG_SETMASK left it, as
   without the shim (seccomp.exp).  errno is the caller's.  */
static void
mask_back (const sigset_t *target, int keep_internal)
{
  int saved = errno;
#if RSEQ_COMPAT_GLIBC
  /* glibc's internal signals, SIGCANCEL (32) and SIGSETXID (33), stay
     as glibc left them: the shim never blocks them, but glibc's own
     pthread_create may change them (the first call unblocks both in
     the creator; 2.32 and later start a thread without SIGCANCEL).
     And the mask is set with the system call, as glibc's own
     pthread_create restores it: glibc's sigprocmask takes those two
     out of any mask it sets, so a program that had blocked them with a
     system call found them unblocked (review, glibc 2.34).  Where
     TARGET is an attribute's mask (KEEP_INTERNAL 0), it is taken as it
     is: pthread_attr_setsigmask_np keeps neither.  */
  sigset_t eff = *target;
  const sigset_t *orig = target;
  target = &eff;
  if (keep_internal)
    {
      uint64_t word, now;
      const uint64_t internal = ((uint64_t) 1 << 31) | ((uint64_t) 1 << 32);
      memcpy (&word, &eff, sizeof word);
      if (__rseq_compat_mask_read (SIG_UNBLOCK, &now))
        word = (word & ~internal) | (now & internal);
      memcpy (&eff, &word, sizeof word);
    }
  /* Its old mask written, the kernel did it (106th review, killblock:
     every restore read the mask with SIG_BLOCK, which glibc 2.31
     alone never calls, and a filter that killed SIG_BLOCK killed the
     program at pthread_create).  */
  uint64_t was = ~(uint64_t) 0;
  rseq_compat_syscall4 (SYS_rt_sigprocmask, SIG_SETMASK, (long int) &eff,
                        (long int) &was, sizeof (uint64_t));
#else
  (void) keep_internal;
  sigprocmask (SIG_SETMASK, target, NULL);
#endif
#if RSEQ_COMPAT_GLIBC
  /* One read: a SIG_SETMASK that was refused or answered 0 changed
     nothing, so what is there then is what was there before it.  */
  sigset_t now;
  if ((was & RSEQ_COMPAT_MASK_UNWRITTEN) != 0
      && mask_now (&now) && !same_mask (&now, target))
    {
      sigset_t extra, ours;
      async_sigset (&extra);
      for (int sig = 1; sig <= 64; sig++)
        if (sigismember (target, sig) == 1)
          sigdelset (&extra, sig);
      /* From the mask asked for, with its own 32 and 33: glibc 2.32
         and later block those too around their clone, and where a
         filter kept glibc from restoring, the mask then differs from
         this one there, and stays as glibc left it, as without the
         shim (seccomp.exp, --sync-blocked).  */
      ours = *orig;
      for (int sig = 1; sig <= 64; sig++)
        if (sigismember (&extra, sig) == 1)
          sigaddset (&ours, sig);
      if (same_mask (&now, &ours))
        sigprocmask (SIG_UNBLOCK, &extra, NULL);
    }
#endif
  errno = saved;
}

/* Blocks every signal but those the caller's own code may raise, which
   stay as they were; the mask before in *OLD.  0, or -1 where nothing
   was blocked (a filter refused the call, or answered 0 without doing
   it).  */
static int
block_async (sigset_t *old)
{
  /* The caller keeps the signals that its own code raises (a fault
     inside pthread_create, such as the C library storing the new
     thread's ID in a page that a write-barrier handler protects, or a
     seccomp SIGSYS): blocked, they would kill the process instead of
     reaching its handler.  The start-up's mask_block (init.c) does it:
     the same set as sigfillset's less those six (both C libraries'
     sigfillset leaves their internal signals out), with raw system
     calls that leave errno as it was, and with SIG_SETMASK, so that a
     filter that stops the restore stops the block too.  */
  uint64_t word;
  if (!__rseq_compat_mask_async (&word, RSEQ_COMPAT_GLIBC ? SIG_UNBLOCK
                                                          : SIG_BLOCK))
    return -1;
  sigemptyset (old);
  memcpy (old, &word, sizeof word);
  return 0;
}

/* pthread_attr_getsigmask_np (glibc 2.32 and later), or NULL, once
   looked up.  Looked up at start-up, where a failed lookup's dlerror
   message can be discarded without hiding one of the program's; or by
   the first pthread_create with attributes that comes before it: a
   constructor glibc runs before the shim's (doc/using.md, the
   constructor window), whose thread would take its creator's mask
   instead of the attribute's, which is worse than the dlerror message
   of the program's that this lookup may discard there.  On glibc 2.32
   and 2.33 it is in libpthread, so a program that only dlopens
   libpthread later is not covered (README: Differences from glibc).  */
static getmask_fn *attr_getmask;
/* pthread_getattr_default_np, looked up with it (only where it is):
   a pthread_create without attributes takes the default's mask, which
   pthread_setattr_default_np may have set.  */
typedef int getdefault_fn (pthread_attr_t *);
static getdefault_fn *attr_getdefault;
static int attr_looked_up;

void
__rseq_compat_thread_lookup (void)
{
  getmask_fn *fn
    = (getmask_fn *) __rseq_compat_next ("pthread_attr_getsigmask_np");
#if !RSEQ_COMPAT_STATIC
  /* In the archive the lookup is no dlsym, and dlerror would pull a
     static glibc's dynamic loading into every program.  */
  if (fn == NULL)
    dlerror ();
#endif
  getdefault_fn *def = NULL;
  if (fn != NULL)
    {
      def = (getdefault_fn *) __rseq_compat_next ("pthread_getattr_default_np");
#if !RSEQ_COMPAT_STATIC
      if (def == NULL)
        dlerror ();
#endif
    }
  __atomic_store_n (&attr_getdefault, def, __ATOMIC_RELAXED);
  __atomic_store_n (&attr_getmask, fn, __ATOMIC_RELAXED);
  __atomic_store_n (&attr_looked_up, 1, __ATOMIC_RELEASE);
}

static getmask_fn *
attr_getmask_fn (void)
{
  if (!__atomic_load_n (&attr_looked_up, __ATOMIC_ACQUIRE))
    __rseq_compat_thread_lookup ();
  return __atomic_load_n (&attr_getmask, __ATOMIC_RELAXED);
}

#if RSEQ_COMPAT_GLIBC && __SIZEOF_POINTER__ == 8
/* What pthread_attr_t holds in glibc 2.32 to 2.34 (struct pthread_attr
   and struct pthread_attr_extension, nptl/internaltypes.h; the same on
   x86-64 and AArch64).  glibc sets the attribute's signal mask in the
   new thread before it calls the start routine, so a thread created
   with one could run a handler before the shim's trampoline registers
   it (ninth review).  The shim therefore hands glibc a copy of the
   attribute without the mask, as glibc's own internal copy is made (the
   structure, and the extension beside it), and the trampoline sets the
   mask once the thread is registered.  Only reached where the shim owns
   the registration and pthread_attr_getsigmask_np exists: glibc 2.32
   to 2.34, whose layout this is (2.35 and later register themselves,
   and the shim adopts them).  */
struct glibc_attr_ext
{
  cpu_set_t *cpuset;
  size_t cpusetsize;
  sigset_t sigmask;
  _Bool sigmask_set;
};

struct glibc_attr
{
  struct sched_param schedparam;
  int schedpolicy;
  int flags;
  size_t guardsize;
  void *stackaddr;
  size_t stacksize;
  struct glibc_attr_ext *extension;
  void *unused;
};

/* 56 bytes on x86-64, 64 on AArch64 (the rest unused).  */
_Static_assert (sizeof (struct glibc_attr) <= sizeof (pthread_attr_t),
                "glibc's pthread_attr_t holds struct pthread_attr");

/* ATTR without its signal mask (MASK, what GETMASK read from it) in
   *COPY and *EXT, and COPY; or ATTR itself where what the public calls
   read from it does not match the layout above, or where the copy still
   has a mask.  ATTR itself is never written: other threads may create
   with it at the same time.  */
static const pthread_attr_t *
attr_without_mask (const pthread_attr_t *attr, const sigset_t *mask,
                   getmask_fn *getmask, pthread_attr_t *copy,
                   struct glibc_attr_ext *ext)
{
  struct glibc_attr in;
  memcpy (&in, attr, sizeof in);
  /* The fields before the extension pointer, as the C library's own
     calls (in libc.so.6 on every version) read them, before the
     pointer is followed.  */
  int policy, detached;
  struct sched_param param;
  if (pthread_attr_getschedpolicy (attr, &policy) != 0
      || policy != in.schedpolicy
      || pthread_attr_getschedparam (attr, &param) != 0
      || param.sched_priority != in.schedparam.sched_priority
      || pthread_attr_getdetachstate (attr, &detached) != 0
      || (detached == PTHREAD_CREATE_DETACHED) != (in.flags & 1)
      || in.extension == NULL
      || (uintptr_t) in.extension % _Alignof (struct glibc_attr_ext) != 0)
    return attr;
  memcpy (ext, in.extension, sizeof *ext);
  if (ext->sigmask_set != 1
      || memcmp (&ext->sigmask, mask, sizeof *mask) != 0)
    return attr;
  ext->sigmask_set = 0;
  in.extension = ext;
  memcpy (copy, attr, sizeof *copy);
  memcpy (copy, &in, sizeof in);
  sigset_t left;
  if (getmask (copy, &left) == 0)
    return attr;
  return copy;
}
#endif

void
__rseq_compat_thread_init (void)
{
#if !RSEQ_COMPAT_GLIBC
  exit_key_ok = pthread_key_create (&exit_key, on_thread_exit) == 0;
#endif
}

/* The new thread starts with every signal blocked but those its own
   code raises (see pthread_create), so that no handler of a signal from
   elsewhere runs on it before its area is registered, as under glibc;
   then it takes the creator's mask.  */
static void
take_start (void *p, struct start *s)
{
  *s = *(struct start *) p;
  __rseq_compat_start_release (p);
  if (__rseq_compat_state.mode != RSEQ_COMPAT_MODE_SHIM_OWNED)
    __rseq_compat_mark_failed ();
  else if (__rseq_compat_register_self () == 0)
    {
#if !RSEQ_COMPAT_GLIBC
      if (exit_key_ok)
        pthread_setspecific (exit_key, (void *) 1);
#endif
    }
  if (s->set_mask)
    mask_back (&s->mask, !s->attr_mask);
}

static void *
trampoline (void *p)
{
  struct start s;
  take_start (p, &s);
  return s.fn (s.arg);
}

/* C11's start routine returns an int; the C library's thrd_create,
   which starts c11_trampoline, keeps its own conversion of it and of
   thrd_exit's value (see thrd_create).  */
typedef int thrd_fn (void *);

#if !RSEQ_COMPAT_STATIC
static int
c11_trampoline (void *p)
{
  struct start s;
  take_start (p, &s);
  return ((thrd_fn *) (void (*) (void)) s.fn) (s.arg);
}
#endif

/* SONAME: where NAME may be when the global scope lacks it (see
   __rseq_compat_next_or_in), or NULL.  */
static void *
next_fn (void **cache, const char *name, const char *soname)
{
  void *fn = __atomic_load_n (cache, __ATOMIC_ACQUIRE);
  if (fn == NULL)
    {
      fn = __rseq_compat_next_or_in (name, soname);
      __atomic_store_n (cache, fn, __ATOMIC_RELEASE);
    }
  return fn;
}

static void *real_create_cache;
#if !RSEQ_COMPAT_STATIC
static void *real_thrd_create_cache;
# if RSEQ_COMPAT_GLIBC
/* Set once the shim's constructor has looked the creators up; read by
   the dlsym and dlvsym hooks before they call anything here.  */
int __rseq_compat_creators_ready;
# endif

/* Whether the C library has thrd_create: glibc 2.28 and later, musl.  */
static int
libc_has_c11 (void)
{
# if RSEQ_COMPAT_GLIBC
  return strverscmp (gnu_get_libc_version (), "2.28") >= 0;
# else
  return 1;
# endif
}
#endif

/* Where the start-up lookup found them not (glibc 2.28 to 2.33, a
   program without libpthread: a library dlopened later brings it),
   pthread_create and thrd_create are looked up together, and each kept
   once found (libpthread is never unloaded).  The lookup takes the
   loader's lock: the first creation in a library's constructor, which
   holds it, finds both there, so that a thread the constructor waits
   for needs no lookup of its own for either (eighty-second review: a
   thread's first thrd_create waited for the lock for good).  */
static void
real_both (void)
{
  next_fn (&real_create_cache, "pthread_create", "libpthread.so.0");
#if !RSEQ_COMPAT_STATIC
  if (libc_has_c11 ())
    next_fn (&real_thrd_create_cache, "thrd_create", "libpthread.so.0");
#endif
}

#if !RSEQ_COMPAT_STATIC
/* For the dlsym and dlvsym hooks: a lookup of either, in whatever
   handle, finds both, so that a constructor that starts a thread with
   the C library's own pthread_create (dlsym (RTLD_NEXT, ...)) leaves
   that thread no lookup to make under the loader's lock, which the
   constructor holds (eighty-third review).  */
void
__rseq_compat_creators_resolve (void)
{
#if RSEQ_COMPAT_GLIBC
  if (__atomic_load_n (&real_create_cache, __ATOMIC_ACQUIRE) != NULL
      && (!libc_has_c11 ()
          || __atomic_load_n (&real_thrd_create_cache, __ATOMIC_ACQUIRE)
             != NULL))
    return;
  if (__rseq_compat_may_be_loaded ("libpthread.so.0"))
    real_both ();
#endif
}
#endif

/* *CACHE, once found; looked up with the other creator (real_both)
   while it is not.  */
static void *
creator (void **cache)
{
  void *fn = __atomic_load_n (cache, __ATOMIC_ACQUIRE);
  if (fn == NULL)
    {
      real_both ();
      fn = __atomic_load_n (cache, __ATOMIC_ACQUIRE);
    }
  return fn;
}

static create_fn *
real_create (void)
{
  return (create_fn *) creator (&real_create_cache);
}

typedef int thrd_create_fn (pthread_t *, thrd_fn *, void *);

/* The C library's pthread_create (REAL) or, for C11's thrd_create, its
   thrd_create (REAL_C11, with ATTR NULL and FN an int function) starts
   the thread in the trampoline.  */
static int
create (create_fn *real, thrd_create_fn *real_c11, pthread_t *thread,
        const pthread_attr_t *attr, void *(*fn) (void *), void *arg)
{
#if !RSEQ_COMPAT_GLIBC || RSEQ_COMPAT_STATIC
  /* A constructor that runs before the shim's (init.c), in a static
     program an entry of .preinit_array before the archive's, or a
     decision under way on another thread: the mode is set before the
     exit hook exists, so the whole start-up must be complete (one load
     once it is).  The shared library for glibc decides while the
     loader relocates it, before any code of the program runs.  */
  __rseq_compat_init_once ();
#endif
  if (!__rseq_compat_state.own_area)
    return real_c11 != NULL
           ? real_c11 (thread, (thrd_fn *) (void (*) (void)) fn, arg)
           : real (thread, attr, fn, arg);

  /* Where no block is free and no page can be mapped (memory
     exhausted; or every block held by a creation in flight, nested
     in this thread's own signal handlers), a block in this frame,
     which the call does not leave before the new thread has copied
     it: the C library alone would still create the thread, on a stack
     of the program's own (differential.exp, claim-errno).  */
  struct start own;
  struct start *s = __rseq_compat_start_claim ();
  int waits = s == NULL;
  if (waits)
    {
      s = &own;
      __rseq_compat_start_hold (s);
    }
  s->fn = fn;
  s->arg = arg;
  /* The new thread inherits this mask: it starts with the signals its
     own code raises as the creator had them; any other signal waits
     until it is registered.  */
  sigset_t old;
  int blocked = 0;
#if !RSEQ_COMPAT_GLIBC
  /* musl starts a C11 thread with the application's signals blocked
     and leaves them so (its start_c11, unlike start, restores no mask):
     no handler can run there before the registration, and the thread
     keeps the mask musl gave it, as without the shim (c11-threads.exp,
     musl alone).  */
  if (real_c11 == NULL)
#endif
    blocked = block_async (&old) == 0;
  if (!blocked)
    sigemptyset (&old);
  s->mask = old;
  /* This creation's place on the stack, for its window.  */
  char here_mark;
  uintptr_t here = (uintptr_t) &here_mark;
  int opened = 0;
  if (blocked)
    {
      if (inside_window (here))
        program_mask (&old, &s->mask);
      opened = window_open (here, &s->mask);
    }
  s->set_mask = blocked;
  s->attr_mask = 0;
  /* glibc 2.32 and later start the thread with the mask that
     pthread_attr_setsigmask_np put in ATTR; the trampoline applies
     the mask last, so it must be that one, and glibc gets a copy of
     ATTR without it (attr_without_mask).  */
  sigset_t attr_mask;
#if RSEQ_COMPAT_GLIBC && __SIZEOF_POINTER__ == 8
  getmask_fn *getmask = attr_getmask_fn ();
  pthread_attr_t copy, def;
  struct glibc_attr_ext ext;
  /* Without attributes glibc 2.32 and later take the default's, whose
     mask (pthread_setattr_default_np) the thread must end with; where
     there is one, the default in hand stands for ATTR (eleventh review).
     Only then: NULL keeps its meaning otherwise.  */
  getdefault_fn *getdefault
    = __atomic_load_n (&attr_getdefault, __ATOMIC_RELAXED);
  int def_made = attr == NULL && getmask != NULL && getdefault != NULL
                 && getdefault (&def) == 0;
  if (def_made)
    {
      if (getmask (&def, &attr_mask) == 0)
        attr = &def;
      else
        {
          pthread_attr_destroy (&def);
          def_made = 0;
        }
    }
  if (attr == NULL)
    getmask = NULL;
#else
  getmask_fn *getmask = attr != NULL ? attr_getmask_fn () : NULL;
#endif
  if (getmask != NULL && getmask (attr, &attr_mask) == 0)
    {
      s->mask = attr_mask;
      s->attr_mask = 1;
#if RSEQ_COMPAT_GLIBC && __SIZEOF_POINTER__ == 8
      /* Where the mask could not be taken out of a copy, the thread
         starts with it, as before the ninth review (doc/using.md); a
         C11 thread takes no attribute (see below).  */
      if (blocked && real_c11 == NULL)
        attr = attr_without_mask (attr, &attr_mask, getmask, &copy, &ext);
#endif
    }
  int ret;
#if !RSEQ_COMPAT_STATIC
  /* No attribute to strip a default mask from: where
     pthread_setattr_default_np set one (glibc 2.32 to 2.34), a C11
     thread starts with it before its registration (doc/using.md).  */
  if (real_c11 != NULL)
    ret = real_c11 (thread, c11_trampoline, s);
  else
#endif
    ret = real (thread, attr, trampoline, s);
#if RSEQ_COMPAT_GLIBC && __SIZEOF_POINTER__ == 8
  if (def_made)
    pthread_attr_destroy (&def);
#endif
  if (waits && ret == 0)
    __rseq_compat_start_wait (s);
  /* From the local copy: the new thread may have released S already (ASan
     saw it in make check-sanitize-bullseye; the creator then took
     whatever the reused memory held as its signal mask).  */
  if (blocked)
    {
      if (opened)
        window_close (here);
      mask_back (&old, 1);
    }
  if (ret != 0 && !waits)
    __rseq_compat_start_release (s);
  return ret;
}

attribute_public int
pthread_create (pthread_t *thread, const pthread_attr_t *attr,
                void *(*fn) (void *), void *arg)
{
  create_fn *real = real_create ();
  /* Before glibc 2.34 a program without libpthread has no other
     pthread_create (a weak reference binds to this one).  Nothing is
     printed: file descriptor 2 may be a daemon's data file by now, or
     a closed pipe.  */
  if (real == NULL)
    return EAGAIN;
  return create (real, NULL, thread, attr, fn, arg);
}

/* The shim's definition under a name that binds to it alone: a
   reference to pthread_create from inside the shim could resolve to an
   earlier definition (the program's own).  */
extern __typeof (pthread_create) __rseq_compat_pthread_create
  __attribute__ ((alias ("pthread_create"), visibility ("hidden"), nothrow));

#if !RSEQ_COMPAT_STATIC

/* Found at start-up where the global scope has it
   (__rseq_compat_thread_resolve: a first lookup here discarded the
   program's pending dlerror message, eightieth review); else looked up
   here, in libpthread too (glibc 2.28 to 2.33: a program that reaches
   it only through a dlopened libpthread), as pthread_create is.  */
static thrd_create_fn *
real_thrd_create (void)
{
  void *fn = __atomic_load_n (&real_thrd_create_cache, __ATOMIC_ACQUIRE);
  /* Found: one load, the version not asked.  glibc before 2.28 has
     none (an emulation that the program links was found at start-up,
     if the shim's constructor ran; one dlopened later is not looked
     for): no lookup, which would take the loader's lock (a library's
     constructor may hold it while it waits for this thread:
     eighty-first review) and leave a dlerror message.  */
  if (fn != NULL || !libc_has_c11 ())
    return (thrd_create_fn *) fn;
  return (thrd_create_fn *) creator (&real_thrd_create_cache);
}

/* C11's threads: glibc (2.28 and later) and musl start them through
   their own internal pthread_create, which no interposition reaches,
   so they ran unregistered while __rseq_size said every thread was
   (seventy-ninth review: librseq's per-CPU operations, comparing
   cpu_id_start 0 with cpu_id -1, retry for ever there).  The C
   library's thrd_create still makes the thread and keeps C11's
   semantics (the int result, thrd_exit, its error codes); the shim
   only puts its trampoline first.  Not in the archive: a static
   program's thrd_create is libc.a's, which cannot be reached under
   another name (doc/static.md).  */
attribute_public int
thrd_create (pthread_t *thread, thrd_fn *fn, void *arg)
{
  thrd_create_fn *real = real_thrd_create ();
  /* None: glibc before 2.28 without an emulation in the global scope,
     through a weak reference or an RTLD_NEXT lookup from before the
     shim, or from a library dlopened with RTLD_LOCAL that carries a
     thrd_create of its own, which its calls then no longer reach
     (doc/using.md: searching the caller's own scope takes the loader's
     lock, which a library's constructor may hold while it waits for
     this thread; eighty-first review).  thrd_error is 2 in glibc and
     musl.  */
  if (real == NULL)
    return 2;
  return create (NULL, real, thread, NULL,
                 (void *(*) (void *)) (void (*) (void)) fn, arg);
}

extern __typeof (thrd_create) __rseq_compat_thrd_create
  __attribute__ ((alias ("thrd_create"), visibility ("hidden"), nothrow));
#endif

attribute_hidden void *
__rseq_compat_own_create (void *fn)
{
  if (fn == NULL)
    return NULL;
  if (fn == (void *) real_create ())
    return (void *) &__rseq_compat_pthread_create;
#if !RSEQ_COMPAT_STATIC
  if (fn == (void *) real_thrd_create ())
    return (void *) &__rseq_compat_thrd_create;
#endif
  return NULL;
}

/* A vfork child runs on the parent's TLS while the parent waits; with
   the parent registered it would read the parent's cpu_id.  The parent
   therefore unregisters for the child's lifetime (the kernel resets
   cpu_id to -1, so the child's sched_getcpu asks the kernel) and
   registers again when it resumes.  In libc-owned mode the same is done
   to the C library's registration, with the C library's length: only
   the kernel writes the area throughout.

   The parent's signals stay blocked from before it unregisters until it
   has registered again, so that no handler of a signal sent to it runs
   on it unregistered (those its own code raises stay as they were: a
   SIGSYS from a filter's trap on the shim's own calls reaches the
   program's handler there); the child takes the original mask back at
   once, before any of its own code runs.  So a signal whose default
   action ends the process waits for the child to exec or exit too
   (doc/using.md): leaving those without a handler open needed to know
   which have one at each vfork, and each way of asking the kernel
   (rt_sigaction, /proc/self/status) is a system call that a filter may
   kill, or an answer that may not fit (the fifteenth to seventeenth
   reviews).  */
static __thread unsigned char vfork_paused
  __attribute__ ((tls_model ("initial-exec")));
static __thread uint64_t vfork_mask
  __attribute__ ((tls_model ("initial-exec")));
/* Whether vfork_mask holds the mask before: a filter may refuse the
   call, or answer 0 without writing it (see block_async).  */
static __thread unsigned char vfork_masked
  __attribute__ ((tls_model ("initial-exec")));
/* The pause lives in TLS that a vfork child shares, and Linux lets a
   vfork child vfork again (or clone so).  The kernel gives a CLONE_VM
   child no registration, so such a vfork has nothing to pause; and
   only the call that paused may resume.  Which call that is is not
   read from the shared TLS (a child that resumed there left its parent
   unregistered with every signal blocked: ninth review; a count of
   nested calls stayed up when a child was killed: tenth; a thread ID
   is shared across PID namespaces: eleventh to thirteenth): prepare
   answers whether it paused, and the caller (the vfork stub, in a
   register that survives the system call; the clone wrapper, in its
   frame) hands that answer to its own resume, and to its child, which
   takes the mask back only where its own parent blocked it.  */

/* The mask before vfork_prepare, where it saved one.  */
static void
vfork_restore_mask (void)
{
  if (vfork_masked)
    __rseq_compat_mask_restore (&vfork_mask);
}

enum { PAUSED_SHIM = 1, PAUSED_LIBC = 2 };

/* Whether this call paused the registration (and blocked signals):
   what the caller hands to __rseq_compat_vfork_child in the child and
   to __rseq_compat_vfork_resume (or vfork_resume_registration) in the
   parent.  A call made while a pause holds (in a vfork child, or in a
   handler of the paused task before its own system call) pauses
   nothing.  */
attribute_hidden int
__rseq_compat_vfork_prepare (void)
{
  if (vfork_paused)
    return 0;
  const struct rseq_compat_state *st = &__rseq_compat_state;
  int libc = !__rseq_compat_registered
             && st->mode == RSEQ_COMPAT_MODE_LIBC_OWNED
             && (int) rseq_compat_current_area ()->cpu_id >= 0;
  if (!__rseq_compat_registered && !libc)
    return 0;

  /* Every signal but SIGSYS (init.c, pause_set) and the C library's
     internal ones.  Raw system calls: errno stays the caller's.  */
  vfork_masked = __rseq_compat_mask_pause (&vfork_mask);
  if (libc)
    {
      if (__rseq_compat_sys_unregister (rseq_compat_current_area (),
                                        st->libc_reg_len) == 0)
        vfork_paused = PAUSED_LIBC;
    }
  else if (__rseq_compat_unregister_self () == 0)
    vfork_paused = PAUSED_SHIM;
  if (!vfork_paused)
    {
      vfork_restore_mask ();
      return 0;
    }
  return 1;
}

/* In the child, right after vfork returned there.  The shared TLS says
   whether the parent blocked signals; the child must not change it.  A
   nested vfork's parent blocked nothing: its child keeps its mask.  */
attribute_hidden void
__rseq_compat_vfork_child (int paused)
{
  if (paused)
    vfork_restore_mask ();
}

/* PAUSED: what this call's vfork_prepare answered.  */
static void
vfork_resume_registration (int paused_here)
{
  int paused = vfork_paused;
  if (!paused_here || !paused)
    return;
  vfork_paused = 0;
  if (paused == PAUSED_SHIM)
    __rseq_compat_register_self ();
  else
    {
      /* The child may have written anything there; glibc 2.42 and later
         clear the area before each registration, and so does this
         one.  */
      struct rseq *area = rseq_compat_current_area ();
      unsigned int len = __rseq_compat_state.libc_reg_len;
      __rseq_compat_clear_area (area, len);
      if (__rseq_compat_sys_rseq (area, len, 0) != 0)
        /* Unregistered, so writing is allowed; glibc's own marker.  */
        area->cpu_id = (uint32_t) RSEQ_CPU_ID_REGISTRATION_FAILED;
    }
  vfork_restore_mask ();
}

/* RET is the raw system call result, PAUSED what vfork_prepare
   answered; returns vfork's.  */
attribute_hidden long int
__rseq_compat_vfork_resume (long int ret, int paused)
{
  vfork_resume_registration (paused);
  if (ret < 0 && ret > -4096)
    {
      errno = (int) -ret;
      return -1;
    }
  return ret;
}

#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC && defined __x86_64__
/* glibc before 2.25 caches the process ID in the thread, and its own
   vfork marks the cache for the child (negated), so that the child's
   getpid asks the kernel; the stub's system call left the child
   answering its parent's PID (fifteenth review, glibc 2.17).  There the
   stub calls the C library's vfork instead (set at start-up); it keeps
   what it needs across it in %r8 and %r9, which that vfork leaves
   alone in both tasks.  Those glibc versions know no shadow stack.  */
attribute_hidden void *__rseq_compat_libc_vfork;

void
__rseq_compat_vfork_lookup (void)
{
  const char *v = gnu_get_libc_version ();
  char *end;
  long int major = strtol (v, &end, 10);
  long int minor = *end == '.' ? strtol (end + 1, NULL, 10) : 0;
  /* glibc's own, whose registers the stub relies on: not whatever
     vfork comes next (a library's vfork written in C, a fork in
     disguise, may use %r8 and %r9: sixteenth review).  */
  if (major == 2 && minor < 25)
    __rseq_compat_libc_vfork = __rseq_compat_libc_vfork_sym;
}

/* The parent's side after the C library's vfork: RET is its answer (a
   PID, or -1 with errno set).  */
attribute_hidden long int
__rseq_compat_vfork_resume_libc (long int ret, int paused)
{
  int saved = errno;
  vfork_resume_registration (paused);
  errno = saved;
  return ret;
}
#endif

/* Linux 5.2; older headers (glibc 2.17's) lack it.  */
#ifndef CLONE_PIDFD
# define CLONE_PIDFD 0x00001000
#endif

struct clone_start
{
  int (*fn) (void *);
  void *arg;
  /* What vfork_prepare answered in the parent.  */
  int paused;
};

static int
clone_child (void *p)
{
  /* The parent waits (CLONE_VFORK), so its frame holding P is alive.  */
  const struct clone_start *start = p;
  __rseq_compat_vfork_child (start->paused);
  return start->fn (start->arg);
}

/* clone with CLONE_VM | CLONE_VFORK and no new TLS is a vfork with a
   separate stack (posix_spawn's pattern).

   Under a shadow stack the child also shares the parent's (the kernel
   gives a CLONE_VFORK child none), but unlike vfork's it never returns
   into the caller's frames: the C library's clone calls CLONE_CHILD,
   which returns to it, and exits.  Its calls push only below the
   parent's shadow-stack pointer, so no entry the parent will return
   through is popped or overwritten; nothing is needed here (see
   stubs.S for vfork).  */
/* The archive for musl cannot define clone: musl's own, which it must
   call for every other use, is a strong definition in libc.a, and it
   does more than the system call where CLONE_VM is clear.  The link
   then names this one with --wrap=clone (static-real.c).  */
#if RSEQ_COMPAT_STATIC && !RSEQ_COMPAT_GLIBC
# define CLONE_NAME __wrap_clone
#else
# define CLONE_NAME clone
#endif

static void *real_clone_cache;

static clone_fn *
real_clone (void)
{
  return (clone_fn *) next_fn (&real_clone_cache, "clone", NULL);
}

#if RSEQ_COMPAT_GLIBC && !RSEQ_COMPAT_STATIC
/* glibc frees the calling thread's pending dlerror message at the start
   of every dl* call, and a successful one leaves none: a lookup made
   in the program's first pthread_create or clone hid a failure the
   program had not asked dlerror about yet (differential.exp,
   dlerror-kept).  So they are made here, from the shim's constructor,
   which glibc runs before the program's code (but in the constructor
   window, doc/using.md); what a failed one leaves (before glibc 2.34,
   a program without libpthread) is nobody's.  Only in the global scope,
   where everything loaded at start-up is: the search in libpthread's
   handle (next_fn's SONAME) made glibc look for the file, opening
   ld.so.cache and libpthread.so.0 in every process without it.  A
   program that loads libpthread later has its pthread_create looked up
   then, the lazy way.  */
void
__rseq_compat_thread_resolve (void)
{
  int failed = next_fn (&real_create_cache, "pthread_create", NULL) == NULL;
  failed |= real_clone () == NULL;
  /* On every glibc: before 2.28, which has none, a library the program
     links may carry a C11 emulation of its own, which the shim's
     thrd_create, first in the global scope, must then call
     (eighty-fourth review, F2: every thrd_create failed).  */
  failed |= next_fn (&real_thrd_create_cache, "thrd_create", NULL) == NULL;
  if (!__atomic_load_n (&attr_looked_up, __ATOMIC_ACQUIRE))
    __rseq_compat_thread_lookup ();
  if (failed)
    dlerror ();
  __atomic_store_n (&__rseq_compat_creators_ready, 1, __ATOMIC_RELEASE);
}
#endif

attribute_public int
CLONE_NAME (int (*fn) (void *), void *stack, int flags, void *arg, ...)
{
  clone_fn *real = real_clone ();
  /* The C libraries read these three only when FLAGS asks for them,
     in this order (clone(2)): a caller that passes fewer has nothing
     more on its stack to read.  */
  void *parent_tid = NULL, *tls = NULL, *child_tid = NULL;
  va_list ap;
  va_start (ap, arg);
  if (flags & (CLONE_PARENT_SETTID | CLONE_SETTLS | CLONE_CHILD_SETTID
               | CLONE_CHILD_CLEARTID | CLONE_PIDFD))
    parent_tid = va_arg (ap, void *);
  if (flags & (CLONE_SETTLS | CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
    tls = va_arg (ap, void *);
  if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
    child_tid = va_arg (ap, void *);
  va_end (ap);
  if (real == NULL)
    {
      errno = ENOSYS;
      return -1;
    }

  /* Without a function or a stack the C library's own answer stands
     (glibc's is EINVAL): the child must not run the shim's instead.  */
  int pause = (flags & (CLONE_VM | CLONE_VFORK | CLONE_SETTLS))
              == (CLONE_VM | CLONE_VFORK) && fn != NULL && stack != NULL;
  if (!pause)
    return real (fn, stack, flags, arg, parent_tid, tls, child_tid);

  struct clone_start start = { fn, arg, 0 };
  start.paused = __rseq_compat_vfork_prepare ();
  int ret = real (clone_child, stack, flags, &start, parent_tid, tls,
                  child_tid);
  int saved = errno;
  vfork_resume_registration (start.paused);
  errno = saved;
  return ret;
}
