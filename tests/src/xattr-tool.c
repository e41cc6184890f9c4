/* system.exp's hands on extended attributes (no attr or acl package in
   the chroots):
     xattr-tool set FILE NAME HEX   sets NAME to the bytes HEX spells
     xattr-tool get FILE NAME       prints NAME's bytes in hex, or fails
     xattr-tool rm FILE NAME        removes NAME
     xattr-tool acl FILE UID [default]
                                    gives FILE a POSIX ACL that lets UID
                                    read it (owner rw, group r, mask r);
                                    with "default", a directory's
                                    default ACL
     xattr-tool race FILE NAME      on whatever FILE names, over and over
                                    until killed: NAME set empty, then to
                                    4000 'x', then removed
     xattr-tool raced FILE NAME     fails unless NAME is absent, empty or
                                    4000 'x' (what race sets)

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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>

static int
fail (const char *what, const char *file)
{
  fprintf (stderr, "xattr-tool: %s %s: %s\n", what, file, strerror (errno));
  return 1;
}

int
main (int argc, char **argv)
{
  if (argc == 5 && strcmp (argv[1], "set") == 0)
    {
      size_t n = strlen (argv[4]) / 2;
      unsigned char *v = malloc (n + 1);
      for (size_t i = 0; v != NULL && i < n; i++)
        {
          unsigned int b;
          if (sscanf (argv[4] + 2 * i, "%2x", &b) != 1)
            return fprintf (stderr, "xattr-tool: bad hex\n"), 2;
          v[i] = (unsigned char) b;
        }
      if (v == NULL || setxattr (argv[2], argv[3], v, n, 0) != 0)
        return fail ("set", argv[3]);
      return 0;
    }
  if (argc == 4 && strcmp (argv[1], "get") == 0)
    {
      unsigned char v[4096];
      ssize_t n = getxattr (argv[2], argv[3], v, sizeof v);
      if (n < 0)
        return fail ("get", argv[3]);
      for (ssize_t i = 0; i < n; i++)
        printf ("%02x", v[i]);
      putchar ('\n');
      return 0;
    }
  if (argc == 4 && strcmp (argv[1], "rm") == 0)
    return removexattr (argv[2], argv[3]) == 0 ? 0 : fail ("rm", argv[3]);
  if (argc == 4 && strcmp (argv[1], "race") == 0)
    {
      char v[4000];
      memset (v, 'x', sizeof v);
      for (;;)
        {
          setxattr (argv[2], argv[3], v, 0, 0);
          setxattr (argv[2], argv[3], v, sizeof v, 0);
          removexattr (argv[2], argv[3]);
        }
    }
  if (argc == 4 && strcmp (argv[1], "raced") == 0)
    {
      char v[8192];
      ssize_t n = getxattr (argv[2], argv[3], v, sizeof v);
      if (n < 0 && errno == ENODATA)
        return 0;
      if (n < 0)
        return fail ("raced", argv[3]);
      int all_x = n == 4000;
      for (ssize_t i = 0; all_x && i < n; i++)
        all_x = v[i] == 'x';
      if (n == 0 || all_x)
        return 0;
      fprintf (stderr, "xattr-tool: %s holds %zd bytes that race never "
               "set\n", argv[3], n);
      return 1;
    }
  if ((argc == 4 || (argc == 5 && strcmp (argv[4], "default") == 0))
      && strcmp (argv[1], "acl") == 0)
    {
      /* The kernel's xattr form of an access ACL: version 2, then
         (tag, permissions, ID) entries in tag order, little-endian (as
         x86-64 and AArch64 are).  */
      struct { uint16_t tag, perm; uint32_t id; } e[5] = {
        { 0x01, 6, UINT32_MAX },          /* ACL_USER_OBJ */
        { 0x02, 4, (uint32_t) strtoul (argv[3], NULL, 10) }, /* ACL_USER */
        { 0x04, 4, UINT32_MAX },          /* ACL_GROUP_OBJ */
        { 0x10, 4, UINT32_MAX },          /* ACL_MASK */
        { 0x20, 0, UINT32_MAX },          /* ACL_OTHER */
      };
      unsigned char buf[4 + sizeof e];
      uint32_t version = 2;
      memcpy (buf, &version, 4);
      memcpy (buf + 4, e, sizeof e);
      if (setxattr (argv[2], argc == 5 ? "system.posix_acl_default"
                                       : "system.posix_acl_access",
                    buf, sizeof buf, 0) != 0)
        return fail ("acl", argv[2]);
      return 0;
    }
  fprintf (stderr, "usage: xattr-tool set FILE NAME HEX | get FILE NAME | "
           "rm FILE NAME | acl FILE UID [default] | race FILE NAME | "
           "raced FILE NAME\n");
  return 2;
}
