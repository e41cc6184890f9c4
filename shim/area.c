/* The per-thread rseq area and its registration.
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

#include <errno.h>

#include "shim.h"

/* Initialised data, not .tbss: the loader copies this image into every
   new thread's TLS, so a thread reads cpu_id -1 (never a CPU number)
   until it is registered, including threads the shim never sees
   (thrd_create, raw clone with a fresh TLS block).  */
__thread struct rseq_compat_area __rseq_compat_area
  __attribute__ ((tls_model ("initial-exec")))
  = { .abi = { .cpu_id = (uint32_t) RSEQ_CPU_ID_UNINITIALIZED } };

/* Nonzero while this thread's area is registered by the shim.  Kept
   outside the area: in the kernel's optimized mode user space must not
   write the registered bytes.  */
__thread unsigned char __rseq_compat_registered
  __attribute__ ((tls_model ("initial-exec")));

/* Puts AREA, LEN bytes registered or about to be, into the state a new
   registration starts from: the rseq ABI has user space set cpu_id to
   RSEQ_CPU_ID_UNINITIALIZED and rseq_cs and flags to 0 before it
   registers, and glibc 2.42 and later clear the whole length.  The
   kernel rewrites the ID fields when it registers, but not flags nor
   the bytes past the fields it knows, and it takes a nonzero rseq_cs
   for the address of a critical-section descriptor.  Only while nobody
   has AREA registered: in the kernel's optimized mode a write to a
   registered area's IDs kills.  */
void
__rseq_compat_clear_area (void *area, unsigned int len)
{
  for (unsigned int i = 0; i < len; i++)
    ((volatile unsigned char *) area)[i] = 0;
  ((volatile struct rseq *) area)->cpu_id
    = (uint32_t) RSEQ_CPU_ID_UNINITIALIZED;
}

/* Registers the calling thread's area.  Returns 0 or an errno value;
   on failure cpu_id reads RSEQ_CPU_ID_REGISTRATION_FAILED, as it does
   under glibc.  */
int
__rseq_compat_register_self (void)
{
  const struct rseq_layout *l = &__rseq_compat_state.layout;
  struct rseq_compat_area *area = &__rseq_compat_area;

  if (__rseq_compat_registered)
    return 0;
  /* The stack cache of glibc before 2.35 and musl's thread memory can
     hand back bytes of an earlier thread, and a vfork child writes the
     parent's area while its registration is paused.  */
  __rseq_compat_clear_area (area, RSEQ_COMPAT_AREA_SIZE);

  long int ret = __rseq_compat_sys_rseq (area, l->reg_len, 0);
  if (ret != 0)
    {
      area->abi.cpu_id = (uint32_t) RSEQ_CPU_ID_REGISTRATION_FAILED;
      return (int) -ret;
    }
  __rseq_compat_registered = 1;
  return 0;
}

/* Returns 0 or an errno value.  A registration the kernel keeps (a
   seccomp filter installed since may refuse the call) stays recorded:
   the area must then not be touched.  */
int
__rseq_compat_unregister_self (void)
{
  if (!__rseq_compat_registered)
    return 0;
  long int ret
    = __rseq_compat_sys_unregister (&__rseq_compat_area,
                                    __rseq_compat_state.layout.reg_len);
  if (ret != 0)
    return (int) -ret;
  __rseq_compat_registered = 0;
  return 0;
}

/* Disabled and unavailable modes: nothing is registered, and cpu_id
   says so the way glibc says it.  */
void
__rseq_compat_mark_failed (void)
{
  if (!__rseq_compat_registered)
    __rseq_compat_area.abi.cpu_id
      = (uint32_t) RSEQ_CPU_ID_REGISTRATION_FAILED;
}
