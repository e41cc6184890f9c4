/* Shared objects that glibc's loader refuses, for system.exp.
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

/* Usage: system-elf MODE FILE

   Changes the program headers of FILE, a 64-bit ELF file of this
   machine's byte order, in place.  MODE "noload": every PT_LOAD becomes
   PT_NULL (glibc: "object file has no loadable segments").  MODE
   "dynoff": PT_DYNAMIC's file offset becomes 0, its address kept: the
   loader finds the dynamic section at its address, so a reader of the
   offset reads the ELF header instead (the 124th review's 5: a
   position-independent executable passed so).  */

#include <elf.h>
#include <stdio.h>
#include <string.h>

int
main (int argc, char **argv)
{
  if (argc != 3
      || (strcmp (argv[1], "noload") != 0 && strcmp (argv[1], "dynoff") != 0))
    {
      fprintf (stderr, "usage: system-elf noload|dynoff FILE\n");
      return 2;
    }
  FILE *f = fopen (argv[2], "r+b");
  Elf64_Ehdr eh;
  if (f == NULL || fread (&eh, sizeof eh, 1, f) != 1
      || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0
      || eh.e_ident[EI_CLASS] != ELFCLASS64)
    {
      fprintf (stderr, "system-elf: %s: no 64-bit ELF file\n", argv[2]);
      return 1;
    }
  int changed = 0;
  for (unsigned int i = 0; i < eh.e_phnum; i++)
    {
      Elf64_Phdr ph;
      long at = (long) (eh.e_phoff + i * sizeof ph);
      if (fseek (f, at, SEEK_SET) != 0 || fread (&ph, sizeof ph, 1, f) != 1)
        {
          fprintf (stderr, "system-elf: %s: cannot read its headers\n",
                   argv[2]);
          return 1;
        }
      if (argv[1][0] == 'n' && ph.p_type == PT_LOAD)
        ph.p_type = PT_NULL;
      else if (argv[1][0] == 'd' && ph.p_type == PT_DYNAMIC)
        ph.p_offset = 0;
      else
        continue;
      changed++;
      if (fseek (f, at, SEEK_SET) != 0 || fwrite (&ph, sizeof ph, 1, f) != 1)
        {
          fprintf (stderr, "system-elf: %s: cannot write\n", argv[2]);
          return 1;
        }
    }
  if (fclose (f) != 0 || changed == 0)
    {
      fprintf (stderr, "system-elf: %s: nothing changed\n", argv[2]);
      return 1;
    }
  return 0;
}
