/* What the process looked like when the shim was loaded.
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

/* Reading the kernel's initial stack: the environment (GLIBC_TUNABLES)
   and the auxiliary vector.  Kept apart from early.c, and free of any
   reference to the rest of the shim, so that tests/fuzz can drive it in
   a sanitized program; in the shim it runs inside an IFUNC resolver, so
   it makes no library calls.  */

#include <elf.h>

#include "shim.h"

void
__rseq_compat_boot_from_vectors (struct rseq_compat_boot *boot, char **envp,
                                 const uintptr_t *auxv)
{
  int secure = 0;

  boot->at_feature_size = 0;
  boot->at_align = 0;
  boot->loader_base = 0;
  boot->vdso_base = 0;
  boot->at_phdr = 0;
  boot->at_phnum = 0;
  /* A tag given twice counts with its last value, as for the loader.  */
  for (; auxv != NULL && auxv[0] != AT_NULL; auxv += 2)
    switch (auxv[0])
      {
      case RSEQ_LAYOUT_AT_FEATURE_SIZE:
        boot->at_feature_size = auxv[1];
        break;
      case RSEQ_LAYOUT_AT_ALIGN:
        boot->at_align = auxv[1];
        break;
      case AT_BASE:
        boot->loader_base = auxv[1];
        break;
      case AT_SYSINFO_EHDR:
        boot->vdso_base = auxv[1];
        break;
      case AT_PHDR:
        boot->at_phdr = auxv[1];
        break;
      case AT_PHNUM:
        boot->at_phnum = auxv[1];
        break;
      case AT_SECURE:
        secure = auxv[1] != 0;
        break;
      }
  /* glibc ignores GLIBC_TUNABLES in set-user-ID and similar programs, so
     that their invoker cannot reconfigure them.  */
  boot->tunable_off = !secure && __rseq_compat_env_tunable_off (envp);
  boot->tunable_off_loose = !secure
                            && __rseq_compat_env_tunable_off_loose (envp);
}

void
__rseq_compat_boot_from_stack (struct rseq_compat_boot *boot,
                               char *const *argv)
{
  char *const *p = argv;
  while (*p != NULL)
    p++;
  char *const *envp = ++p;
  while (*p != NULL)
    p++;
  __rseq_compat_boot_from_vectors (boot, (char **) envp,
                                   (const uintptr_t *) (p + 1));
}
