/* rseq-compat info -p --no-stop: glibc's list of threads, read from memory.
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

/* A thread's registers are out of reach without stopping it, so its
   thread pointer has to come from the process's memory.  glibc keeps
   every thread descriptor (struct pthread, the main thread's included)
   on two lists, and describes, for debuggers' libthread_db, where they
   are and where the list links and the thread id sit in a descriptor:
   each _thread_db_* symbol is three 32-bit words, the field's width in
   bits, its element count and its offset.  glibc 2.34 and later export
   them from libc.so.6 and keep the lists in the dynamic loader's
   _rtld_global; earlier versions keep both in libpthread's static
   symbol table (distributions leave it unstripped for gdb).  Relying on
   these descriptions, not on a guessed layout, keeps this right for
   every glibc version; musl has no such description, and its layout
   differs between releases, so its threads are not looked for.

   The lists change while the process runs: a descriptor is taken only
   where its thread id matches a live thread's and, on x86-64, where the
   word at the thread pointer points to itself (the TLS ABI requires
   it), and the walk is bounded.  */

#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glibc-threads.h"
#include "procfs.h"

/* More threads than any process has; a walk that goes on longer is
   following a list being changed under it.  */
#define MAX_NODES (1u << 20)

struct db
{
  struct proc *p;
  const char *path;	/* The object with the _thread_db_* symbols.  */
  int exe;		/* It is the (static) program itself.  */
};

static uint64_t
db_symbol (const struct db *db, const char *name)
{
  return db->exe ? proc_symbol_exe (db->p, db->path, name)
                 : proc_symbol_any (db->p, db->path, name);
}

/* The offset field of the descriptor NAME, and its width in bits.  */
static int
db_field (const struct db *db, const char *name, uint32_t *offset,
          uint32_t *bits)
{
  uint64_t addr = db_symbol (db, name);
  uint32_t desc[3];
  if (addr == 0 || proc_read (db->p, addr, desc, sizeof desc) != 0)
    return -1;
  if (bits != NULL)
    *bits = desc[0];
  *offset = desc[2];
  return 0;
}

/* The name of the first file mapped from its start whose base name
   starts with PREFIX1 or PREFIX2 (or, both NULL, is glibc's loader's)
   and that is mapped as a loaded object, else of the first so named, or
   NULL: a copy of another glibc's libc.so.6 mapped as data lies lower
   (64th review: its thread descriptions read, every thread
   "unknown").  */
static const char *
mapped (struct proc *p, const char *prefix1, const char *prefix2)
{
  const char *first = NULL;
  for (size_t i = 0; i < p->nmaps; i++)
    {
      const char *b = base_name (p->maps[i].path);
      if (p->maps[i].offset != 0 || p->maps[i].path[0] != '/'
          || !(prefix1 == NULL
               ? glibc_loader_name (b)
               : strncmp (b, prefix1, strlen (prefix1)) == 0
                 || strncmp (b, prefix2, strlen (prefix2)) == 0))
        continue;
      if (proc_map_is_image (p, i))
        return p->maps[i].path;
      if (first == NULL)
        first = p->maps[i].path;
    }
  return first;
}

static int
add (struct thread_pointer **out, size_t *n, size_t *cap, pid_t tid,
     uint64_t tp)
{
  if (*n == *cap)
    {
      size_t ncap = *cap ? 2 * *cap : 16;
      struct thread_pointer *m = realloc (*out, ncap * sizeof *m);
      if (m == NULL)
        return -1;
      *out = m;
      *cap = ncap;
    }
  (*out)[*n].tid = tid;
  (*out)[(*n)++].tp = tp;
  return 0;
}

int
glibc_thread_pointers (struct proc *p, const char *static_exe,
                       struct thread_pointer **out, size_t *count,
                       char *why, size_t whylen)
{
  *out = NULL;
  *count = 0;
  const char *pthread = mapped (p, "libpthread.so", "libpthread-");
  const char *libc = mapped (p, "libc.so.6", "libc-2.");
  const char *ldso = mapped (p, NULL, NULL);

  /* glibc before 2.34 describes its threads in libpthread, later ones
     in libc.so.6; a static program in its own static symbol table, and
     only there: the libc.so.6 its dlopen may have mapped is another,
     never started copy.  */
  struct db db = { p, NULL, 0 };
  /* Zero first: gcc 14 cannot see that a path reaching the walk below
     has set them all (-Wmaybe-uninitialized, trixie's build).  */
  uint32_t list_off = 0, tid_off = 0, tid_bits = 0, next_off = 0,
           size_off = 0;
  const char *candidates[] = { static_exe, pthread, libc };
  size_t ncandidates = static_exe != NULL ? 1 : 3;
  for (size_t i = 0; i < ncandidates && db.path == NULL; i++)
    {
      db.path = candidates[i];
      db.exe = i == 0;
      if (db.path != NULL
          && (db_field (&db, "_thread_db_pthread_list", &list_off, NULL) != 0
              || db_field (&db, "_thread_db_pthread_tid", &tid_off,
                           &tid_bits) != 0
              || db_field (&db, "_thread_db_list_t_next", &next_off,
                           NULL) != 0))
        db.path = NULL;
    }
  if (db.path == NULL)
    {
      snprintf (why, whylen, "%s", libc == NULL && pthread == NULL
                && static_exe == NULL ? "no glibc in the process"
                : "glibc's thread descriptions (_thread_db_* symbols) "
                  "are not in the process's libc or libpthread");
      return -1;
    }
  if (tid_bits != 32)
    {
      snprintf (why, whylen, "unexpected thread id width %u in %s",
                tid_bits, db.path);
      return -1;
    }
  /* The descriptor lies sizeof (struct pthread) below the thread
     pointer on AArch64; the size is a plain 32-bit variable.  */
  uint64_t size_sym = db_symbol (&db,
                                       "_thread_db_sizeof_pthread");
  if (size_sym == 0 || proc_read (p, size_sym, &size_off, 4) != 0)
    size_off = 0;

  /* The two lists: threads on stacks glibc allocated, and the others
     (the main thread, user-supplied stacks).  */
  uint64_t heads[2] = { 0, 0 };
  uint32_t used_off, user_off;
  uint64_t rtld = ldso != NULL ? proc_symbol (p, ldso, "_rtld_global", NULL,
                                              NULL) : 0;
  if (rtld != 0
      && db_field (&db, "_thread_db_rtld_global__dl_stack_used", &used_off,
                   NULL) == 0
      && db_field (&db, "_thread_db_rtld_global__dl_stack_user", &user_off,
                   NULL) == 0)
    {
      heads[0] = rtld + used_off;
      heads[1] = rtld + user_off;
    }
  else
    {
      heads[0] = db_symbol (&db, "stack_used");
      heads[1] = db_symbol (&db, "__stack_user");
      /* A static glibc 2.34 or later has no _rtld_global: the lists
         are variables of their own.  */
      if (heads[0] == 0 && heads[1] == 0)
        {
          heads[0] = db_symbol (&db, "_dl_stack_used");
          heads[1] = db_symbol (&db, "_dl_stack_user");
        }
    }
  if (heads[0] == 0 || heads[1] == 0)
    {
      snprintf (why, whylen, "glibc's lists of threads are not found in %s",
                db.path);
      return -1;
    }

  size_t n = 0, cap = 0;
  int read_any = 0;
  for (int h = 0; h < 2; h++)
    {
      uint64_t node;
      if (proc_read (p, heads[h] + next_off, &node, sizeof node) != 0)
        continue;
      read_any = 1;
      for (unsigned int k = 0; node != heads[h] && node != 0 && k < MAX_NODES;
           k++)
        {
          uint64_t pd = node - list_off;
          int32_t tid;
          if (proc_read (p, pd + tid_off, &tid, sizeof tid) != 0)
            break;
#if defined __x86_64__
          uint64_t tp = pd, self = 0;
          int ok = proc_read (p, tp, &self, sizeof self) == 0 && self == tp;
#elif defined __aarch64__
          uint64_t tp = pd + size_off;
          int ok = size_off != 0;
#else
          uint64_t tp = 0;
          int ok = 0;
#endif
          if (ok && tid > 0 && add (out, &n, &cap, (pid_t) tid, tp) != 0)
            break;
          if (proc_read (p, node + next_off, &node, sizeof node) != 0)
            break;
        }
    }
  if (!read_any)
    {
      free (*out);
      *out = NULL;
      snprintf (why, whylen, "cannot read glibc's lists of threads");
      return -1;
    }
  *count = n;
  return 0;
}
