/* longjmp, _longjmp and siglongjmp, which end the windows of pthread_create
   that a jump out of a signal handler leaves (thread.c).
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

/* No _FORTIFY_SOURCE here: under it <setjmp.h> renames longjmp and
   siglongjmp to __longjmp_chk, which the shim does not define (its
   frame would hide the check that a jump goes to a live frame: 96th
   review, F3); a fortified program's jumps go to the C library's.  */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE 1
#include <link.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/auxv.h>

#include "shim.h"

/* Each C library keeps the stack pointer to jump to in its jmp_buf:
   musl as it is, in __jb[6] on x86-64 and __jb[13] on AArch64
   (src/setjmp/ARCH/setjmp.s); glibc in the same words, mangled with
   the thread's pointer guard (PTR_MANGLE: on x86-64 xor with the
   TCB's guard at %fs:0x30, then rotate left by 17; on AArch64 xor with
   ld.so's __pointer_chk_guard, where it has one).  Read wrongly, the
   windows would end early or late, never more: nothing is read at the
   address.  */
#if defined __x86_64__
# define JMPBUF_SP 6
#elif defined __aarch64__
# define JMPBUF_SP 13
#endif

typedef void jump_fn (void *, int);
static jump_fn *real_longjmp, *real__longjmp, *real_siglongjmp;
#if RSEQ_COMPAT_GLIBC && defined __aarch64__
static const uintptr_t *pointer_guard;
#endif

static uintptr_t
jmpbuf_sp (const void *env)
{
  uintptr_t v = (uintptr_t) ((const unsigned long int *) env)[JMPBUF_SP];
#if RSEQ_COMPAT_GLIBC && defined __x86_64__
  uintptr_t guard;
  __asm__ ("mov %%fs:0x30, %0" : "=r" (guard));
  v = ((v >> 17) | (v << 47)) ^ guard;
#elif RSEQ_COMPAT_GLIBC && defined __aarch64__
  if (pointer_guard != NULL)
    v ^= *pointer_guard;
#endif
  return v;
}

static _Noreturn void
jump (jump_fn **real, const char *name, void *env, int val)
{
  if (__rseq_compat_windows != 0)
    __rseq_compat_windows_left (jmpbuf_sp (env));
  /* Looked up from the shim's constructor (__rseq_compat_jumps_resolve),
     not here, where a jump from a handler that interrupted a dlopen
     would wait for its lock in dlsym; only a jump made before the
     constructor, from an earlier one, looks up now.  */
  jump_fn *fn = __atomic_load_n (real, __ATOMIC_ACQUIRE);
  if (fn == NULL)
    {
      fn = (jump_fn *) __rseq_compat_next (name);
      __atomic_store_n (real, fn, __ATOMIC_RELEASE);
    }
  if (fn == NULL)
    abort ();
  fn (env, val);
  __builtin_unreachable ();
}

void
__rseq_compat_jumps_resolve (void)
{
#if RSEQ_COMPAT_GLIBC && defined __aarch64__
  /* ld.so's, from its symbol table (GLIBC_PRIVATE: no dlvsym).  */
  uintptr_t base = getauxval (AT_BASE);
  for (const struct link_map *m = _r_debug.r_map; m != NULL && base != 0;
       m = m->l_next)
    if (m->l_addr == base)
      {
        pointer_guard = __rseq_compat_elf_sym_dyn (m->l_addr, m->l_ld,
                                                   "__pointer_chk_guard");
        break;
      }
#endif
  __atomic_store_n (&real_longjmp, (jump_fn *) __rseq_compat_next ("longjmp"),
                    __ATOMIC_RELEASE);
  __atomic_store_n (&real__longjmp,
                    (jump_fn *) __rseq_compat_next ("_longjmp"),
                    __ATOMIC_RELEASE);
  __atomic_store_n (&real_siglongjmp,
                    (jump_fn *) __rseq_compat_next ("siglongjmp"),
                    __ATOMIC_RELEASE);
}

attribute_public _Noreturn void
longjmp (jmp_buf env, int val)
{
  jump (&real_longjmp, "longjmp", env, val);
}

attribute_public _Noreturn void
_longjmp (jmp_buf env, int val)
{
  jump (&real__longjmp, "_longjmp", env, val);
}

attribute_public _Noreturn void
siglongjmp (sigjmp_buf env, int val)
{
  jump (&real_siglongjmp, "siglongjmp", env, val);
}
