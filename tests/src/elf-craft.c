/* A hostile program file for rseq-compat info -p.
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

/* Usage: elf-craft IN OUT N

   Writes OUT: the 64-bit ELF program IN, grown (sparse) to 64 MiB, with
   a new section header table of N entries after it, each an SHT_SYMTAB
   of almost 64 MiB over the start of the file and its own string
   table.  The kernel never reads section headers, so OUT runs as IN
   does; a reader that walks every symbol table for each name it looks
   up reads N times 64 MiB per name.  */

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
main (int argc, char **argv)
{
  if (argc != 4)
    {
      fprintf (stderr, "usage: elf-craft IN OUT N\n");
      return 2;
    }
  int n = atoi (argv[3]);
  FILE *in = fopen (argv[1], "rb");
  if (in == NULL || n <= 0 || n > 4096)
    {
      perror (argv[1]);
      return 2;
    }
  const off_t shoff = 64 << 20;
  static char buf[1 << 16];
  int out = open (argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0755);
  if (out < 0)
    {
      perror (argv[2]);
      return 2;
    }
  size_t got;
  off_t size = 0;
  while ((got = fread (buf, 1, sizeof buf, in)) > 0)
    {
      if (write (out, buf, got) != (ssize_t) got)
        return 2;
      size += (off_t) got;
    }
  fclose (in);
  Elf64_Ehdr eh;
  int rd = open (argv[2], O_RDONLY);
  if (rd < 0 || pread (rd, &eh, sizeof eh, 0) != (ssize_t) sizeof eh
      || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0
      || eh.e_ident[EI_CLASS] != ELFCLASS64 || size >= shoff)
    {
      fprintf (stderr, "elf-craft: %s: not a 64-bit ELF file under 64 MiB\n",
               argv[1]);
      return 2;
    }
  close (rd);
  eh.e_shoff = (Elf64_Off) shoff;
  eh.e_shentsize = sizeof (Elf64_Shdr);
  eh.e_shnum = (Elf64_Half) n;
  eh.e_shstrndx = 0;
  if (pwrite (out, &eh, sizeof eh, 0) != (ssize_t) sizeof eh)
    return 2;
  for (int i = 0; i < n; i++)
    {
      Elf64_Shdr sh = {
        .sh_type = SHT_SYMTAB,
        .sh_offset = 0,
        .sh_size = (Elf64_Xword) (shoff / sizeof (Elf64_Sym)
                                  * sizeof (Elf64_Sym)),
        .sh_link = (Elf64_Word) i,
        .sh_addralign = 8,
        .sh_entsize = sizeof (Elf64_Sym),
      };
      if (pwrite (out, &sh, sizeof sh, shoff + (off_t) i * sizeof sh)
          != (ssize_t) sizeof sh)
        return 2;
    }
  return close (out) == 0 ? 0 : 2;
}
