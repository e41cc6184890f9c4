/* _dl_find_object for a static program of a glibc older than 2.35 linked
   by a newer GCC.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* static-old.exp links static programs against older C libraries
   (glibc 2.17, 2.28, 2.31) with this machine's GCC, whose libgcc_eh.a
   was built for glibc 2.35 or later: its unwinder finds a PC's
   .eh_frame_hdr with _dl_find_object, which those glibcs lack, and
   libc.a pulls the unwinder in (thread cancellation and exit).  This
   answers from the program's own headers, as the C library does for
   its main program: the only object of a static program.  Test
   support, not part of the archive.  */

#define _GNU_SOURCE 1
#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>

/* glibc 2.35's public layout (x86-64: no dlfo_eh_dbase).  */
struct dl_find_object
{
  unsigned long long int dlfo_flags;
  void *dlfo_map_start;
  void *dlfo_map_end;
  struct link_map *dlfo_link_map;
  void *dlfo_eh_frame;
  unsigned long long int reserved[7];
};

struct query
{
  uintptr_t pc;
  struct dl_find_object *result;
  int found;
};

static int
search (struct dl_phdr_info *info, size_t size, void *data)
{
  struct query *q = data;
  (void) size;
  const ElfW(Phdr) *load = NULL, *eh = NULL;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *p = &info->dlpi_phdr[i];
      uintptr_t start = info->dlpi_addr + p->p_vaddr;
      if (p->p_type == PT_LOAD && q->pc >= start
          && q->pc < start + p->p_memsz)
        load = p;
      else if (p->p_type == PT_GNU_EH_FRAME)
        eh = p;
    }
  if (load == NULL)
    return 0;
  q->result->dlfo_flags = 0;
  q->result->dlfo_map_start = (void *) (info->dlpi_addr + load->p_vaddr);
  q->result->dlfo_map_end = (void *) (info->dlpi_addr + load->p_vaddr
                                      + load->p_memsz);
  q->result->dlfo_link_map = NULL;
  q->result->dlfo_eh_frame = eh == NULL ? NULL
                             : (void *) (info->dlpi_addr + eh->p_vaddr);
  q->found = 1;
  return 1;
}

int
_dl_find_object (void *pc, struct dl_find_object *result)
{
  struct query q = { (uintptr_t) pc, result, 0 };
  dl_iterate_phdr (search, &q);
  return q.found ? 0 : -1;
}
