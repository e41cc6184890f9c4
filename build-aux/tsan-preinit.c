/* Linked into every executable of make check-sanitize's TSan run
   (build-aux/sanitize): starts ThreadSanitizer's shared runtime from the
   executable's .preinit_array, before any library's constructor.

   With -shared-libsan, libclang_rt.tsan depends on libstdc++, so the
   loader runs libstdc++'s constructor first; that constructor calls
   __cxa_atexit, which binds to TSan's interceptor, whose pointer to the
   real function is still null: the program jumps to 0 (measured with
   clang 14 on Debian 12, without the shim too).  The static runtime
   starts itself the same way; the shared one cannot, .preinit_array
   being allowed only in executables.  Under the shim the problem does
   not show (the shim, -z initfirst, is instrumented and its module
   constructor calls __tsan_init first), but programs also run without
   it: the rseq-compat command, the suite's baselines.

   Copyright (C) 2026 The rseq-compat developers.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

void __tsan_init (void);

__attribute__ ((section (".preinit_array"), used))
static void (*const tsan_preinit) (void) = __tsan_init;
