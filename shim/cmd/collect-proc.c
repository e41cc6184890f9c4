/* rseq-compat info -p: another process as /proc shows it.
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

/* Everything process-wide that info -p reports comes from files under
   /proc/PID (maps, auxv, environ, status) and from the process's
   memory, read at the addresses of dynamic symbols found in the ELF
   files it has mapped: glibc's __rseq_* in the dynamic loader, the
   shim's in librseq-compat.  Nothing here stops the process.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <rseq-layout.h>
#include <sys/rseq.h>
/* The command reads only 64-bit programs of its own architecture.  */
#define RSEQ_COMPAT_DESC_ADDR(type) uint64_t
#include <static-desc.h>

#include "collect-proc.h"
#include "procfs.h"
#include "report.h"

/* The architectures glibc (2.35 on) defines RSEQ_SIG for, where its
   loader sets __rseq_offset at start-up whatever the kernel answers;
   elsewhere it stays 0.  A process of the other word size (i386 under
   x86-64, arm under AArch64) is of the same family.  */
#if defined __x86_64__ || defined __i386__ || defined __aarch64__ \
    || defined __arm__ || defined __powerpc__ || defined __s390__ \
    || defined __mips__
# define GLIBC_SETS_RSEQ_OFFSET 1
#else
# define GLIBC_SETS_RSEQ_OFFSET 0
#endif

/* Owner of the area of a registered thread whose thread pointer is TP.
   glibc's area is at TP + its __rseq_offset, the shim's at TP + the
   shim's (the same address in libc-owned mode, where glibc owns it).
   Anything else was registered by someone else: tcmalloc and librseq
   register a thread-local __rseq_abi of their own.  */
void
owner_of (struct proc *p, const struct info_report *r,
          struct info_thread *t, uint64_t tp)
{
  t->owner_detail[0] = '\0';
  if (r->libc_abi && tp != 0 && t->area == tp + (uint64_t) r->libc_offset)
    {
      t->owner = "libc";
      snprintf (t->owner_detail, sizeof t->owner_detail,
                "%s's area at thread pointer %+" PRId64, r->libc,
                r->libc_offset);
      return;
    }
  if (r->shim_abi && tp != 0 && t->area == tp + (uint64_t) r->shim_offset)
    {
      t->owner = "librseq-compat";
      snprintf (t->owner_detail, sizeof t->owner_detail,
                "the shim's thread-local area at thread pointer %+" PRId64,
                r->shim_offset);
      return;
    }

  t->owner = "other";
  /* Thread-local storage of the initial modules lies next to the
     thread pointer: below it on x86-64, above it on AArch64.  */
#if defined __aarch64__
  int in_tls = tp != 0 && t->area >= tp && t->area - tp < (1u << 20);
#else
  int in_tls = tp != 0 && t->area < tp && tp - t->area < (1u << 20);
#endif
  /* The object that defines a thread-local __rseq_abi, looked for once
     per process.  */
  if (in_tls && p->rseq_abi_definer < 0)
    {
      p->rseq_abi_definer = p->nmaps;
      /* Each file once, and a bounded number: a process may map files
         tens of thousands of times (eighteenth review).  */
      enum { RSEQ_ABI_CANDIDATES = 512 };
      const struct proc_map *tried[RSEQ_ABI_CANDIDATES];
      size_t ntried = 0;
      for (size_t i = 0; i < p->nmaps && ntried < RSEQ_ABI_CANDIDATES; i++)
        {
          if (p->maps[i].offset != 0 || p->maps[i].path[0] != '/'
              || proc_map_seen (&p->maps[i], tried, ntried))
            continue;
          tried[ntried++] = &p->maps[i];
          int is_tls = 0;
          proc_symbol (p, p->maps[i].path, "__rseq_abi", &is_tls, NULL);
          if (is_tls)
            {
              p->rseq_abi_definer = i;
              break;
            }
        }
    }
  const char *definer = in_tls && (size_t) p->rseq_abi_definer < p->nmaps
                        ? p->maps[p->rseq_abi_definer].path : NULL;
  if (definer != NULL)
    snprintf (t->owner_detail, sizeof t->owner_detail,
              "thread-local __rseq_abi, defined by %.150s (tcmalloc and "
              "librseq register one)", definer);
  else if (in_tls)
    snprintf (t->owner_detail, sizeof t->owner_detail,
              "thread-local storage of the program or a library");
  else
    {
      const struct proc_map *m = proc_find (p, t->area);
      /* The kernel writes to a registered area at every return to user
         space after a preemption, so that memory is mapped, as a rule:
         the maps, read before the threads, are older than the area (a
         program starting, its C library mapping the threads' areas;
         52nd review).  info_pid reads the process again.  */
      if (m == NULL)
        {
          p->areas_unmapped++;
          snprintf (t->owner_detail, sizeof t->owner_detail,
                    "unmapped memory");
        }
      else if (m->path[0] == '/')
        snprintf (t->owner_detail, sizeof t->owner_detail,
                  "static data of %.200s", m->path);
      /* The kernel maps the .bss beyond the file's last page anonymously,
         right after the object's writable data.  */
      else if (m->path[0] == '\0' && m > p->maps && m[-1].end == m->start
               && m[-1].path[0] == '/' && m[-1].perms[1] == 'w')
        snprintf (t->owner_detail, sizeof t->owner_detail,
                  "static data of %.200s", m[-1].path);
      else if (m->path[0] == '[')
        snprintf (t->owner_detail, sizeof t->owner_detail, "%.200s",
                  m->path);
      else
        snprintf (t->owner_detail, sizeof t->owner_detail,
                  "anonymous memory");
    }
}

int
thread_begin (const struct info_report *r, struct info_thread *t)
{
  proc_task_name (r->pid, t->tid, t->name, sizeof t->name);
  if (!proc_state_dead (proc_task_state (r->pid, t->tid)))
    return 0;
  t->state = TS_EXITED;
  snprintf (t->note, sizeof t->note, "%s", t->tid == r->pid
            ? "the main thread exited; the others run on" : "exited");
  return 1;
}

void
area_fields (struct proc *p, const struct info_report *r,
             struct info_thread *t, uint64_t addr)
{
  struct rseq area;
  if (proc_read (p, addr, &area, 32) != 0)
    return;
  t->have_fields = 1;
  t->cpu_id = (int32_t) area.cpu_id;
  /* The kernel writes node_id and mm_cid (Linux 6.3) only to an area it
     has registered.  */
  t->have_node = t->cpu_id >= 0
                 && r->at_feature_size >= RSEQ_LAYOUT_LEGACY_MAX_SIZE;
  t->node_id = (int32_t) area.node_id;
  t->mm_cid = (int32_t) area.mm_cid;
}

/* The kernel writes a CPU number (>= 0) into cpu_id when it registers
   an area and after every preemption, and -1 when the area is
   unregistered; the C library and the shim write -1 or -2 into one
   that is not.  So cpu_id tells whether the published area is
   registered, but not with which length and signature, nor whether
   the thread registered another area.  */
void
infer_from_area (struct proc *p, const struct info_report *r,
                 struct info_thread *t, uint64_t tp)
{
  if (r->abi_source == NULL || tp == 0)
    {
      t->state = TS_UNKNOWN;
      snprintf (t->note, sizeof t->note, "%s", r->abi_source == NULL
                ? "no published area to read" : "thread pointer unknown");
      return;
    }
  uint64_t addr = tp + (uint64_t) r->offset;
  area_fields (p, r, t, addr);
  if (!t->have_fields)
    {
      t->state = TS_UNKNOWN;
      snprintf (t->note, sizeof t->note, "cannot read the published area "
                "at %#" PRIx64, addr);
    }
  else if (t->cpu_id >= 0)
    {
      t->state = TS_REGISTERED;
      t->area = addr;
      t->length = 0;
      t->have_signature = 0;
      snprintf (t->note, sizeof t->note, "cpu_id %d in the published area; "
                "length and signature unknown", t->cpu_id);
      owner_of (p, r, t, tp);
    }
  else
    {
      t->state = TS_UNREGISTERED;
      snprintf (t->note, sizeof t->note, "cpu_id %d in the published area; "
                "an area registered elsewhere is not seen", t->cpu_id);
    }
}

/* librseq-compat.a in the static program R->exe: its anchor
   (__rseq_compat_static, which every documented link line names) in the
   symbol table, and __rseq_* its own where they are the storage behind
   them (__rseq_compat_*, local symbols).  A static glibc 2.35 or later
   defines __rseq_* itself, which then win over the archive's weak ones:
   those stay the C library's, and the archive has stepped aside.  */
static void
static_archive (struct proc *p, struct info_report *r)
{
  if (proc_symbol_exe (p, r->exe, "__rseq_compat_static") == 0)
    return;
  snprintf (r->shim, sizeof r->shim, "%s", r->exe);
  r->shim_static = 1;
  uint64_t o = proc_symbol_exe (p, r->exe, "__rseq_offset");
  uint64_t s = proc_symbol_exe (p, r->exe, "__rseq_size");
  uint64_t f = proc_symbol_exe (p, r->exe, "__rseq_flags");
  if (o == 0 || s == 0 || f == 0
      || o != proc_symbol_exe (p, r->exe, "__rseq_compat_offset")
      || s != proc_symbol_exe (p, r->exe, "__rseq_compat_size")
      || f != proc_symbol_exe (p, r->exe, "__rseq_compat_flags"))
    return;
  if (proc_read (p, o, &r->shim_offset, sizeof r->shim_offset) == 0
      && proc_read (p, s, &r->shim_size, sizeof r->shim_size) == 0
      && proc_read (p, f, &r->shim_flags, sizeof r->shim_flags) == 0)
    {
      r->shim_abi = 1;
      /* What the glibc branch above took for the C library's.  */
      r->libc_abi = 0;
    }
}

/* librseq-compat.a in a static program whose symbol table was
   stripped: its descriptor (static-desc.h), by its section.  Names the
   C library the archive was built for, and reads __rseq_* where the
   descriptor says they are: the archive's own storage, or a static
   glibc 2.35 or later's, for which the archive steps aside.  Returns 1
   if the descriptor was found.  */
static int
static_descriptor (struct proc *p, struct info_report *r)
{
  uint64_t size = 0;
  uint64_t at = proc_section_exe (p, r->exe, RSEQ_COMPAT_DESC_SECTION, &size);
  struct rseq_compat_static_desc d;
  if (at == 0 || size < sizeof d || proc_read (p, at, &d, sizeof d) != 0
      || memcmp (d.magic, RSEQ_COMPAT_DESC_MAGIC,
                 sizeof RSEQ_COMPAT_DESC_MAGIC) != 0
      || d.version != RSEQ_COMPAT_DESC_VERSION
      || (d.libc != RSEQ_COMPAT_DESC_GLIBC && d.libc != RSEQ_COMPAT_DESC_MUSL))
    return 0;
  snprintf (r->libc, sizeof r->libc, "%s",
            d.libc == RSEQ_COMPAT_DESC_GLIBC ? "glibc" : "musl");
  r->libc_version[0] = '\0';
  r->libc_static = 1;
  r->libc_abi = 0;
  snprintf (r->shim, sizeof r->shim, "%s", r->exe);
  r->shim_static = 1;
  ptrdiff_t offset;
  unsigned int rseq_size, flags;
  if (proc_read (p, d.published[0], &offset, sizeof offset) != 0
      || proc_read (p, d.published[1], &rseq_size, sizeof rseq_size) != 0
      || proc_read (p, d.published[2], &flags, sizeof flags) != 0)
    return 1;
  if (memcmp (d.published, d.own, sizeof d.own) == 0)
    {
      r->shim_offset = offset;
      r->shim_size = rseq_size;
      r->shim_flags = flags;
      r->shim_abi = 1;
    }
  else if (d.libc == RSEQ_COMPAT_DESC_GLIBC)
    {
      r->libc_offset = offset;
      r->libc_size = rseq_size;
      r->libc_flags = flags;
      r->libc_abi = 1;
    }
  return 1;
}

int
proc_describe (struct proc *p, struct info_report *r, char *err,
               size_t errlen)
{
  char dir[64], path[PATH_MAX];
  snprintf (dir, sizeof dir, "/proc/%d", (int) r->pid);

  snprintf (path, sizeof path, "%s/comm", dir);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd >= 0)
    {
      ssize_t n = read (fd, r->comm, sizeof r->comm - 1);
      r->comm[n > 0 ? n : 0] = '\0';
      /* The kernel ends the name with a newline; a name may hold
         others.  */
      if (n > 0 && r->comm[n - 1] == '\n')
        r->comm[n - 1] = '\0';
      close (fd);
    }
  snprintf (path, sizeof path, "%s/exe", p->dir);
  ssize_t n = readlink (path, r->exe, sizeof r->exe - 1);
  r->exe[n > 0 ? n : 0] = '\0';

  /* Symbols and thread pointers are read the way of this command's own
     architecture and word size.  */
  if (elf_foreign (p->dir))
    snprintf (r->warning, sizeof r->warning, "process %d is not a 64-bit "
              "program of this architecture: the published values and the "
              "owners of its areas cannot be read, only the registrations",
              (int) r->pid);

  struct utsname u;
  if (uname (&u) == 0)
    snprintf (r->kernel, sizeof r->kernel, "%s", u.release);

  uint64_t at_base = 0, at_phdr = 0;
  if (read_auxv (p->dir, &r->at_feature_size, &r->at_align, &r->secure,
                 &at_base, &at_phdr) != 0)
    {
      int e = errno;
      snprintf (err, errlen, "cannot read %s/auxv: %s", p->dir, strerror (e));
      return e;
    }

  libc_identify (p, p->dir, p->maps, p->nmaps, r->libc, sizeof r->libc,
                 r->libc_version, sizeof r->libc_version);
  /* musl's loader, its file not to be read (deleted, and this user may
     not open the mapping): musl all the same, by the interpreter's name
     (62nd review: "a static program?", or a file of glibc's).  */
  for (size_t i = 0; at_base != 0 && strcmp (r->libc, "unknown") == 0
                     && i < p->nmaps; i++)
    if (p->maps[i].start == at_base && p->maps[i].offset == 0
        && musl_loader_name (base_name (p->maps[i].path)))
      snprintf (r->libc, sizeof r->libc, "musl");

  int off = 0, off_loose = 0, rewritten = 0;
  int minor = info_glibc_minor (r);
  r->tunables_unread = !proc_env_safe (p) ? TUNABLES_UNREAD_FUSE : 0;
  int t = !r->tunables_unread
          ? tunables_from_environ (p->dir, r->tunables, sizeof r->tunables,
                                   minor >= 0 && minor < 39, &off,
                                   &off_loose, &rewritten)
          : -1;
  /* Not found in an area the process wrote over: it may have been
     there (R4: taken for unset, and a registration the variable turned
     off for one that failed, with a list of wrong causes).  */
  if (t == 0 && rewritten)
    r->tunables_unread = TUNABLES_UNREAD_REWRITTEN;
  r->have_tunables = t > 0;
  /* A program started with AT_SECURE (set-user-ID or -group, file
     capabilities) ignores the variable: glibc does, and so does the
     shim (forty-sixth review: a set-user-ID program whose rseq a
     seccomp filter refused was said to be disabled by it).  */
  r->tunable_off = t > 0 && off && !r->secure;
  r->tunable_off_loose = t > 0 && off_loose && !r->secure;

  char v[64];
  r->seccomp = proc_status_field (dir, "Seccomp", v, sizeof v) == 0
               ? atoi (v) : -1;

  /* Each mapped file is asked once (by device and inode), and at most
     LIBC_CANDIDATES of each kind: a process that mapped two files named like the
     shim in turn, 20000 times, kept info -p for 110 s (683 s with its
     main thread gone, where each answer is a child's: twenty-first
     review).  */
  const struct proc_map *asked[2 * LIBC_CANDIDATES];
  size_t nasked = 0, nshim = 0, nld = 0;
  int shim_unreadable = 0;
  char unreadable_shim[sizeof r->shim] = "";
  for (size_t i = 0; i < p->nmaps; i++)
    {
      const struct proc_map *m = &p->maps[i];
      const char *b = base_name (m->path);
      if (m->offset != 0 || m->path[0] != '/')
        continue;
      /* Of two copies of the shim, the one that registered: a copy
         loaded later (dlopen) may lie lower, and says nothing is
         registered (61st review: "unavailable" on glibc 2.31).  */
      int shim = strncmp (b, "librseq-compat.so", 17) == 0
                 && (!r->shim_abi || r->shim_size == 0);
      /* The C library's values are its loader's: the program's
         interpreter, at AT_BASE, whatever its name (ld64.so.2 on
         ppc64le, a copy: 60th review), or the program itself where a
         loader runs as a command (AT_BASE 0; the kernel's AT_PHDR lies
         in its first mapping).  Another copy of that file, loaded
         (dlopen), mapped by a static program's dlopen or mapped as
         data, is never set up, and its 0s meant a failed registration,
         then a program still starting (59th and 60th reviews).  */
      int ld = !shim && !r->libc_abi
               && (at_base != 0 ? m->start == at_base
                   : m->start <= at_phdr && at_phdr < m->end);
      if (!shim && !ld)
        continue;
      if (proc_map_seen (m, asked, nasked)
          || (shim ? nshim : nld) >= LIBC_CANDIDATES)
        continue;
      /* Whether it is a loaded object opens the file once (63rd
         review: every mapping was asked, each through a child where
         map_files is refused, 27 s for 3000 mappings); each mapping of
         it is then asked without opening anything, so data mappings of
         a file named like the shim, however many, cannot use up a
         bound before the loader is asked (64th review).  */
      if (!proc_map_is_image (p, i))
        continue;
      asked[nasked++] = m;
      if (shim)
        nshim++;
      else
        nld++;
      if (shim)
        {
          uint64_t o = proc_symbol_at (p, m, "__rseq_offset");
          uint64_t s = proc_symbol_at (p, m, "__rseq_size");
          uint64_t f = proc_symbol_at (p, m, "__rseq_flags");
          int64_t offset;
          uint32_t size, flags;
          if (o != 0 && s != 0 && f != 0
              && proc_read (p, o, &offset, sizeof offset) == 0
              && proc_read (p, s, &size, sizeof size) == 0
              && proc_read (p, f, &flags, sizeof flags) == 0)
            {
              if (!r->shim_abi || size != 0)
                {
                  snprintf (r->shim, sizeof r->shim, "%s", m->path);
                  r->shim_offset = offset;
                  r->shim_size = size;
                  r->shim_flags = flags;
                  r->shim_abi = 1;
                }
            }
          else if (r->shim_abi && o == 0 && !proc_map_readable (p, m))
            {
              shim_unreadable = 1;
              snprintf (unreadable_shim, sizeof unreadable_shim, "%s",
                        m->path);
            }
          else if (o != 0 && s != 0 && f != 0 && p->fuse_skipped != 0)
            {
              snprintf (r->shim, sizeof r->shim, "%s", m->path);
              r->abi_unread = ABI_UNREAD_FUSE;
            }
          /* Its file deleted, and not to be opened by this user: loaded
             all the same (61st review: "not loaded").  */
          else
            {
              snprintf (r->shim, sizeof r->shim, "%s", m->path);
              if (o == 0 && !proc_map_readable (p, m))
                {
                  r->abi_unread = ABI_UNREAD_FILE;
                  shim_unreadable = 1;
                  snprintf (unreadable_shim, sizeof unreadable_shim, "%s",
                            m->path);
                }
            }
        }
      /* glibc 2.35 and later export __rseq_* from the dynamic loader
         (ld-linux-*.so.*; ld-2.NN.so for RHEL 9's 2.34).  */
      else
        {
          uint64_t o = proc_symbol_at (p, m, "__rseq_offset");
          uint64_t s = proc_symbol_at (p, m, "__rseq_size");
          uint64_t f = proc_symbol_at (p, m, "__rseq_flags");
          if (o != 0 && s != 0 && f != 0
              && proc_read (p, o, &r->libc_offset, sizeof r->libc_offset) == 0
              && proc_read (p, s, &r->libc_size, sizeof r->libc_size) == 0
              && proc_read (p, f, &r->libc_flags, sizeof r->libc_flags) == 0)
            r->libc_abi = 1;
          else if (o != 0 && s != 0 && f != 0 && p->fuse_skipped != 0)
            r->abi_unread = ABI_UNREAD_FUSE;
          /* Its file not to be opened (deleted by an upgrade, and this
             user may not open the mapping instead): whether it defines
             __rseq_* is not known (its version does not tell: our
             patched 2.31 does).  Not "does not register" (60th review).
             musl's loader never defines them; by name, since the file
             cannot be read (61st review).  */
          else if (o == 0 && strcmp (r->libc, "musl") != 0
                   && !musl_loader_name (b) && !proc_map_readable (p, m))
            r->abi_unread = ABI_UNREAD_FILE;
        }
    }

  /* A copy of the shim whose file could not be opened may be the one
     that registered, where the one read says nothing is (62nd review:
     the preloaded shim deleted, a copy loaded by dlopen, read by the
     process's user: "unavailable").  */
  if (shim_unreadable && r->shim_abi && r->shim_size == 0)
    {
      r->shim_abi = 0;
      r->abi_unread = ABI_UNREAD_FILE;
      /* The report names the file it could not read (63rd review: the
         copy whose values were set aside was named).  */
      snprintf (r->shim, sizeof r->shim, "%s", unreadable_shim);
    }

  /* A static program maps no dynamic loader, so libc_identify knows no
     C library; its static symbol table, unless stripped, still names
     both the C library (the static start-up: glibc's __libc_setup_tls,
     musl's __init_libc) and what it publishes (a static glibc 2.35 or
     later defines __rseq_* there, not in a dynamic table).  A static
     glibc program that called dlopen maps a libc.so.6 and an ld.so as
     well, which its own C library never uses: their __rseq_* stay 0.
     So a program without PT_INTERP is asked first, and the mapped
     libraries' answers count only where it names no C library (a
     dynamic loader run as a command has no PT_INTERP either).  */
  int unknown = strcmp (r->libc, "unknown") == 0;
  /* A program without PT_INTERP that is no dynamic loader (one run as a
     command has none either, and its own name: ld-*, or ld.so in
     glibc's build tree) is linked statically.  */
  /* Where the file cannot be read (execute-only to the reader, or on
     FUSE), the kernel's AT_BASE still tells: 0, no interpreter (59th
     review: a static glibc program that had called dlopen was taken
     for a dynamic one, its loader for the C library's).  */
  int interp = proc_exe_has_interp (p);
  int static_exe = r->exe[0] == '/'
                   && (interp == 0 || (interp < 0 && at_base == 0))
                   && strncmp (base_name (r->exe), "ld-", 3) != 0
                   && !glibc_loader_name (base_name (r->exe))
                   /* A loader run as a command under another name:
                      musl's, whose file is libc.so (it has no
                      DT_SONAME), and glibc's, which has one (rtld: 61st
                      review).  */
                   && !musl_loader_name (base_name (r->exe))
                   && !proc_exe_has_soname (p);
  if (!r->shim_abi && r->exe[0] == '/'
      && ((unknown && !r->libc_abi) || static_exe))
    {
      /* Read through /proc/PID/exe: the program may be deleted, or
         another mount namespace's file of that name.  musl first: a
         musl program may have a symbol of glibc's name of its own, and
         only glibc's __rseq_* are the C library's.  */
      if (proc_symbol_exe (p, r->exe, "__init_libc") != 0)
        {
          snprintf (r->libc, sizeof r->libc, "musl");
          r->libc_version[0] = '\0';
          r->libc_static = 1;
          r->libc_abi = 0;
        }
      else if (proc_symbol_exe (p, r->exe, "__libc_setup_tls") != 0)
        {
          snprintf (r->libc, sizeof r->libc, "glibc");
          r->libc_version[0] = '\0';
          r->libc_static = 1;
          r->libc_abi = 0;
          uint64_t o = proc_symbol_exe (p, r->exe, "__rseq_offset");
          uint64_t s = proc_symbol_exe (p, r->exe, "__rseq_size");
          uint64_t f = proc_symbol_exe (p, r->exe, "__rseq_flags");
          if (o != 0 && s != 0 && f != 0
              && proc_read (p, o, &r->libc_offset, sizeof r->libc_offset) == 0
              && proc_read (p, s, &r->libc_size, sizeof r->libc_size) == 0
              && proc_read (p, f, &r->libc_flags, sizeof r->libc_flags) == 0)
            r->libc_abi = 1;
          else if (o != 0 && s != 0 && f != 0 && p->fuse_skipped != 0)
            r->abi_unread = ABI_UNREAD_FUSE;
        }
      /* Stripped: only the archive's descriptor, where it is linked
         in, names the C library; otherwise it is not known, and the
         mapped ones' answers are still not its own (doc/static.md).  */
      else if (static_exe && !static_descriptor (p, r))
        {
          snprintf (r->libc, sizeof r->libc, "unknown");
          r->libc_version[0] = '\0';
          r->libc_abi = 0;
        }
    }

  /* Two windows of a program starting, told apart by what is mapped:
     before its loader has mapped the C library (by name, here), and
     after it has, before the C library or the shim has set up rseq
     (their __rseq_offset still 0, below).  Both are live: a read can
     fall in either.

     glibc's dynamic loader mapped and nothing named like its C library,
     in a dynamic program: its loader is still at work, right after an
     exec.  Read then, the process was said to have no C library and a
     registration that failed (52nd review: 2 of 200 reads of a process
     that runs programs in turn).  The caller reads again, as for an
     exec seen.  By name alone: a C library that cannot be opened is no
     sign of that.  */
  int glibc_ld = 0, libc_named = 0;
  for (size_t i = 0; i < p->nmaps; i++)
    {
      const char *b = base_name (p->maps[i].path);
      if (p->maps[i].path[0] != '/')
        continue;
      glibc_ld |= glibc_loader_name (b);
      libc_named |= strncmp (b, "libc.so", 7) == 0
                    || strncmp (b, "libc-", 5) == 0;
    }
  /* And something mapped must need the C library: a program that needs
     none (linked -nostdlib, run by glibc's loader) is never anything
     else (53rd review: every read said "run info -p again").  Not only
     /proc/PID/exe, which is the loader where it runs the program as a
     command ("ld.so PROGRAM": 54th review).  A file that cannot be read
     (or lies on FUSE) is taken to need it.  */
  size_t files = 0;
  if (strcmp (r->libc, "unknown") == 0 && !static_exe && glibc_ld
      && !libc_named
      && (proc_maps_need (p, "libc.so", &files) != 0
          /* The loader run as a command before it mapped the program
             (56th review): nothing but itself mapped.  */
          || (glibc_loader_name (base_name (r->exe)) && files <= 1)))
    {
      snprintf (err, errlen, "process %d is starting a program: its "
                "dynamic loader has not loaded the C library yet; nothing "
                "to report: run info -p again", (int) p->pid);
      return ESRCH;
    }

  /* Mapped, but not set up yet: glibc's loader sets __rseq_offset when
     it sets up the main thread's TLS (2.35 and later, and our patched
     2.31, whether or not the kernel takes the registration; on the
     architectures glibc defines RSEQ_SIG for), after it has loaded
     every library; the shim on glibc sets its own while the loader
     relocates it, after loading.  Neither is ever 0 after that (the
     area is never at the thread pointer).  Read between the two, with
     the C library mapped and its loader still loading another library
     (one on a slow file system, or a FIFO), the process was said to
     have a registration that failed, with status 0 (58th review).  Only
     the interpreter's values count (above): a static program's dlopen
     maps a loader that is never set up (59th review).  */
  /* musl on AArch64 may place the first module's TLS at the thread
     pointer itself (a program with none of its own): the preloaded
     shim's area is there, __rseq_offset 0 for good (the aarch64 tier's
     portable musl row was told "run info -p again").  Only x86, where
     TLS lies below the thread pointer, tells the musl shim's window
     so.  */
  int shim_unset = r->shim_abi && r->shim_offset == 0
#if !(defined __x86_64__ || defined __i386__)
                   && strcmp (r->libc, "musl") != 0
#endif
                   ;
  if (!static_exe && !r->libc_static && strcmp (r->libc, "musl") != 0
      && ((r->libc_abi && r->libc_offset == 0 && GLIBC_SETS_RSEQ_OFFSET)
          || shim_unset))
    {
      snprintf (err, errlen, "process %d is starting a program: its "
                "dynamic loader is still loading its libraries (%s has not "
                "set up rseq yet); nothing to report: run info -p again",
                (int) p->pid,
                shim_unset ? "librseq-compat" : "the C library");
      return ESRCH;
    }
  /* On musl the shim decides in its constructor, which runs after
     loading, and after those of the libraries linked before it: one of
     those still running (or a process forked in one, which runs no
     constructor again) has every library loaded and no thread
     registered by the shim yet (59th review: "still loading its
     libraries" was not always so).  */
  if (shim_unset && !static_exe)
    {
      snprintf (err, errlen, "process %d is starting a program: "
                "librseq-compat's constructor has not run yet (its dynamic "
                "loader is still loading its libraries, or a constructor "
                "that runs before the shim's has not returned, or the "
                "process was forked in one); nothing to report: run info "
                "-p again", (int) p->pid);
      return ESRCH;
    }

  if (r->libc_static && !r->shim_static)
    static_archive (p, r);
  info_pick_abi (r);
  return 0;
}
