/* rseq-compat info: another process as /proc shows it.
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
   memory, read through /proc/PID/mem at the addresses of dynamic
   symbols found in the ELF files it has mapped: glibc's __rseq_* in the
   dynamic loader, the shim's in librseq-compat.  Nothing here stops
   the process.  */

#define _GNU_SOURCE 1
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <rseq-layout.h>

#include "cmd.h"

/* Reads all of PATH (at most MAX bytes) into a malloc'ed buffer.
   Returns its length, or -1 with errno set.  */
static ssize_t
slurp (const char *path, char **out, size_t max)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  size_t cap = 4096, len = 0;
  char *buf = malloc (cap + 1);
  if (buf == NULL)
    {
      close (fd);
      errno = ENOMEM;
      return -1;
    }
  for (;;)
    {
      if (len == cap)
        {
          if (cap >= max)
            break;
          cap *= 2;
          char *n = realloc (buf, cap + 1);
          if (n == NULL)
            {
              free (buf);
              close (fd);
              errno = ENOMEM;
              return -1;
            }
          buf = n;
        }
      ssize_t n = read (fd, buf + len, cap - len);
      if (n < 0)
        {
          int err = errno;
          free (buf);
          close (fd);
          errno = err;
          return -1;
        }
      if (n == 0)
        break;
      len += n;
    }
  close (fd);
  buf[len] = '\0';
  *out = buf;
  return (ssize_t) len;
}

int
proc_status_field (const char *dir, const char *key, char *out,
                   size_t outlen)
{
  char path[PATH_MAX], *buf;
  snprintf (path, sizeof path, "%s/status", dir);
  if (slurp (path, &buf, 1 << 16) < 0)
    return -1;
  size_t klen = strlen (key);
  int found = -1;
  for (char *line = buf; line != NULL && *line != '\0';)
    {
      char *nl = strchr (line, '\n');
      if (nl != NULL)
        *nl = '\0';
      if (strncmp (line, key, klen) == 0 && line[klen] == ':')
        {
          const char *v = line + klen + 1;
          while (*v == ' ' || *v == '\t')
            v++;
          snprintf (out, outlen, "%s", v);
          found = 0;
          break;
        }
      line = nl != NULL ? nl + 1 : NULL;
    }
  free (buf);
  if (found != 0)
    errno = ENOENT;
  return found;
}

int
read_maps (const char *dir, struct proc_map **maps, size_t *nmaps)
{
  char path[128], *buf;
  snprintf (path, sizeof path, "%s/maps", dir);
  if (slurp (path, &buf, 64u << 20) < 0)
    return -1;
  size_t cap = 64, n = 0;
  struct proc_map *m = malloc (cap * sizeof *m);
  if (m == NULL)
    {
      free (buf);
      errno = ENOMEM;
      return -1;
    }
  for (char *line = buf; *line != '\0';)
    {
      char *nl = strchr (line, '\n');
      if (nl != NULL)
        *nl = '\0';
      if (n == cap)
        {
          struct proc_map *bigger = realloc (m, 2 * cap * sizeof *m);
          if (bigger == NULL)
            break;
          m = bigger;
          cap *= 2;
        }
      unsigned long long int start, end, offset;
      char perms[8];
      int pos = 0;
      if (sscanf (line, "%llx-%llx %7s %llx %*s %*s%n", &start, &end, perms,
                  &offset, &pos) >= 4)
        {
          const char *p = line + pos;
          while (*p == ' ')
            p++;
          m[n].start = start;
          m[n].end = end;
          m[n].offset = offset;
          snprintf (m[n].perms, sizeof m[n].perms, "%.4s", perms);
          snprintf (m[n].path, sizeof m[n].path, "%s", p);
          n++;
        }
      if (nl == NULL)
        break;
      line = nl + 1;
    }
  free (buf);
  *maps = m;
  *nmaps = n;
  return 0;
}

const struct proc_map *
proc_find (const struct proc *p, uint64_t addr)
{
  for (size_t i = 0; i < p->nmaps; i++)
    if (addr >= p->maps[i].start && addr < p->maps[i].end)
      return &p->maps[i];
  return NULL;
}

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');
  return slash != NULL ? slash + 1 : path;
}

/* Opens PATH as the process sees it (its root may differ from ours),
   else as we see it.  */
static int
open_target_file (const char *dir, const char *path)
{
  char rooted[PATH_MAX + 32];
  if (path[0] != '/')
    return -1;
  snprintf (rooted, sizeof rooted, "%s/root%s", dir, path);
  /* O_NONBLOCK: a FIFO of that name must not block us.  */
  int fd = open (rooted, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd >= 0 && (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)))
    {
      close (fd);
      fd = -1;
    }
  return fd;
}

static int
pread_full (int fd, void *buf, size_t len, uint64_t off)
{
  return pread (fd, buf, len, (off_t) off) == (ssize_t) len ? 0 : -1;
}

/* The defined dynamic symbol NAME of the ELF file FD: its value and
   type, and the virtual address of the file's first PT_LOAD.  */
static int
elf_symbol (int fd, const char *name, uint64_t *value, unsigned char *type,
            uint64_t *first_vaddr)
{
  Elf64_Ehdr eh;
  if (pread_full (fd, &eh, sizeof eh, 0) != 0
      || memcmp (eh.e_ident, ELFMAG, SELFMAG) != 0
      || eh.e_ident[EI_CLASS] != ELFCLASS64
      || eh.e_shentsize != sizeof (Elf64_Shdr)
      || eh.e_phentsize != sizeof (Elf64_Phdr)
      || eh.e_shnum == 0 || eh.e_shnum > 4096)
    return -1;

  *first_vaddr = 0;
  for (int i = 0; i < eh.e_phnum; i++)
    {
      Elf64_Phdr ph;
      if (pread_full (fd, &ph, sizeof ph, eh.e_phoff + i * sizeof ph) != 0)
        return -1;
      if (ph.p_type == PT_LOAD)
        {
          *first_vaddr = ph.p_vaddr - ph.p_offset;
          break;
        }
    }

  Elf64_Shdr *sh = malloc (eh.e_shnum * sizeof *sh);
  if (sh == NULL
      || pread_full (fd, sh, eh.e_shnum * sizeof *sh, eh.e_shoff) != 0)
    {
      free (sh);
      return -1;
    }
  int found = -1;
  for (int i = 0; i < eh.e_shnum && found != 0; i++)
    {
      if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh.e_shnum
          || sh[i].sh_entsize != sizeof (Elf64_Sym)
          || sh[i].sh_size > (64u << 20))
        continue;
      const Elf64_Shdr *strsh = &sh[sh[i].sh_link];
      if (strsh->sh_size > (64u << 20))
        continue;
      Elf64_Sym *syms = malloc (sh[i].sh_size);
      char *strs = malloc (strsh->sh_size + 1);
      if (syms != NULL && strs != NULL
          && pread_full (fd, syms, sh[i].sh_size, sh[i].sh_offset) == 0
          && pread_full (fd, strs, strsh->sh_size, strsh->sh_offset) == 0)
        {
          strs[strsh->sh_size] = '\0';
          size_t count = sh[i].sh_size / sizeof (Elf64_Sym);
          for (size_t s = 0; s < count; s++)
            if (syms[s].st_shndx != SHN_UNDEF
                && syms[s].st_name < strsh->sh_size
                && strcmp (strs + syms[s].st_name, name) == 0)
              {
                *value = syms[s].st_value;
                *type = ELF64_ST_TYPE (syms[s].st_info);
                found = 0;
                break;
              }
        }
      free (syms);
      free (strs);
    }
  free (sh);
  return found;
}

uint64_t
proc_symbol (struct proc *p, const char *path, const char *name,
             int *is_tls, uint64_t *tls_value)
{
  uint64_t start = UINT64_MAX;
  for (size_t i = 0; i < p->nmaps; i++)
    if (p->maps[i].offset == 0 && strcmp (p->maps[i].path, path) == 0
        && p->maps[i].start < start)
      start = p->maps[i].start;
  if (start == UINT64_MAX)
    return 0;
  int fd = open_target_file (p->dir, path);
  if (fd < 0)
    return 0;
  uint64_t value = 0, first_vaddr = 0;
  unsigned char type = 0;
  int ret = elf_symbol (fd, name, &value, &type, &first_vaddr);
  close (fd);
  if (ret != 0)
    return 0;
  if (is_tls != NULL)
    *is_tls = type == STT_TLS;
  if (type == STT_TLS)
    {
      if (tls_value != NULL)
        *tls_value = value;
      return 0;
    }
  return start - (first_vaddr & ~(uint64_t) 0xfff) + value;
}

int
proc_read (struct proc *p, uint64_t addr, void *buf, size_t len)
{
  if (p->mem_fd < 0 || addr == 0)
    return -1;
  return pread_full (p->mem_fd, buf, len, addr);
}

int
proc_open (struct proc *p, pid_t pid, const char *dir, char *err,
           size_t errlen)
{
  p->pid = pid;
  snprintf (p->dir, sizeof p->dir, "%s", dir);
  p->rseq_abi_definer = -1;
  p->maps = NULL;
  p->nmaps = 0;
  char path[128];
  snprintf (path, sizeof path, "%s/mem", dir);
  p->mem_fd = open (path, O_RDONLY | O_CLOEXEC);
  if (p->mem_fd < 0)
    {
      int e = errno;
      snprintf (err, errlen, "cannot open %s: %s", path, strerror (e));
      return e;
    }
  if (read_maps (dir, &p->maps, &p->nmaps) != 0)
    {
      int e = errno;
      snprintf (err, errlen, "cannot read %s/maps: %s", dir, strerror (e));
      close (p->mem_fd);
      p->mem_fd = -1;
      return e;
    }
  return 0;
}

void
proc_close (struct proc *p)
{
  if (p->mem_fd >= 0)
    close (p->mem_fd);
  p->mem_fd = -1;
  free (p->maps);
  p->maps = NULL;
  p->nmaps = 0;
}

/* A version string of musl: "1.2.3", maybe with a suffix.  */
static int
musl_version_like (const char *s, size_t len)
{
  if (len < 5 || len > 24)
    return 0;
  int dots = 0;
  size_t i = 0;
  for (; i < len && (isdigit ((unsigned char) s[i]) || s[i] == '.'); i++)
    {
      if (s[i] == '.')
        {
          if (i == 0 || s[i - 1] == '.')
            return 0;
          dots++;
        }
    }
  if (dots != 2 || s[i - 1] == '.')
    return 0;
  for (; i < len; i++)
    if (!(isalnum ((unsigned char) s[i]) || s[i] == '_' || s[i] == '-'
          || s[i] == '+'))
      return 0;
  return 1;
}

/* glibc names itself in "... release version 2.36." in libc.so.6; musl
   has "musl libc (ARCH)" and its version as a string of its own.  */
static int
libc_from_file (const char *dir, const char *path, char *name, size_t namelen,
                char *version, size_t versionlen)
{
  int fd = open_target_file (dir, path);
  if (fd < 0)
    return -1;
  struct stat st;
  char *buf = NULL;
  int ret = -1;
  if (fstat (fd, &st) == 0 && st.st_size > 0 && st.st_size < (64 << 20)
      && (buf = malloc (st.st_size + 1)) != NULL
      && pread_full (fd, buf, st.st_size, 0) == 0)
    {
      size_t len = st.st_size;
      buf[len] = '\0';
      static const char gnu[] = "release version ";
      static const char musl[] = "musl libc (";
      char *hit = memmem (buf, len, gnu, sizeof gnu - 1);
      if (hit != NULL && memmem (buf, len, "GNU C Library", 13) != NULL)
        {
          const char *v = hit + sizeof gnu - 1;
          size_t n = 0;
          while (v + n < buf + len && n + 1 < versionlen
                 && (isdigit ((unsigned char) v[n]) || v[n] == '.'))
            n++;
          while (n > 0 && v[n - 1] == '.')
            n--;
          snprintf (name, namelen, "glibc");
          snprintf (version, versionlen, "%.*s", (int) n, v);
          ret = 0;
        }
      else if (memmem (buf, len, musl, sizeof musl - 1) != NULL)
        {
          snprintf (name, namelen, "musl");
          version[0] = '\0';
          for (size_t i = 0; i < len;)
            {
              size_t n = strnlen (buf + i, len - i);
              if (musl_version_like (buf + i, n)
                  && (i == 0 || buf[i - 1] == '\0'))
                {
                  snprintf (version, versionlen, "%.*s", (int) n, buf + i);
                  break;
                }
              i += n + 1;
            }
          ret = 0;
        }
    }
  free (buf);
  close (fd);
  return ret;
}

void
libc_identify (const char *dir, const struct proc_map *maps, size_t nmaps,
               char *name, size_t namelen, char *version, size_t versionlen)
{
  snprintf (name, namelen, "unknown");
  version[0] = '\0';
  for (size_t i = 0; i < nmaps; i++)
    {
      const char *b = base_name (maps[i].path);
      if (maps[i].offset != 0 || maps[i].path[0] != '/')
        continue;
      if (strncmp (b, "libc.so", 7) != 0 && strncmp (b, "libc-", 5) != 0
          && strncmp (b, "ld-musl", 7) != 0 && strncmp (b, "libc.musl", 9) != 0)
        continue;
      if (libc_from_file (dir, maps[i].path, name, namelen, version,
                          versionlen) == 0)
        return;
    }
}

int
tunables_from_environ (const char *dir, char *out, size_t outlen, int *off)
{
  char path[128], *buf;
  snprintf (path, sizeof path, "%s/environ", dir);
  ssize_t len = slurp (path, &buf, 16u << 20);
  if (len < 0)
    return -1;
  static const char key[] = "GLIBC_TUNABLES=";
  int found = 0, rseq = 1;
  /* As glibc and the shim: every definition, in order, read in full
     (OUT may be too short for it); OUT shows the last one.  slurp ends
     the buffer with a NUL, so a cut-off last entry is a string too.  */
  for (ssize_t i = 0; i < len;)
    {
      size_t n = strnlen (buf + i, len - i);
      if (strncmp (buf + i, key, sizeof key - 1) == 0)
        {
          const char *value = buf + i + sizeof key - 1;
          snprintf (out, outlen, "%s", value);
          rseq = __rseq_compat_tunable_rseq (value, rseq);
          found = 1;
        }
      i += n + 1;
    }
  free (buf);
  *off = rseq == 0;
  return found;
}

static int
read_auxv (const char *dir, unsigned long int *feature,
           unsigned long int *align)
{
  char path[128], *buf;
  snprintf (path, sizeof path, "%s/auxv", dir);
  ssize_t len = slurp (path, &buf, 1 << 16);
  if (len < 0)
    return -1;
  *feature = *align = 0;
  const uint64_t *v = (const uint64_t *) buf;
  for (ssize_t i = 0; (i + 2) * 8 <= len && v[i] != AT_NULL; i += 2)
    if (v[i] == RSEQ_LAYOUT_AT_FEATURE_SIZE)
      *feature = v[i + 1];
    else if (v[i] == RSEQ_LAYOUT_AT_ALIGN)
      *align = v[i + 1];
  free (buf);
  return 0;
}

static int
has_cap_sys_ptrace (void)
{
  char v[64];
  if (proc_status_field ("/proc/self", "CapEff", v, sizeof v) != 0)
    return geteuid () == 0;
  unsigned long long int caps = strtoull (v, NULL, 16);
  return (caps >> 19) & 1;	/* CAP_SYS_PTRACE */
}

static const char *
user_name (uid_t uid, char *buf, size_t len)
{
  struct passwd *pw = getpwuid (uid);
  if (pw != NULL)
    snprintf (buf, len, "%s", pw->pw_name);
  else
    snprintf (buf, len, "uid %u", (unsigned int) uid);
  return buf;
}

/* Why ptrace or /proc/PID/mem said EPERM or EACCES, and what to do.  */
int
permission_hint (pid_t pid, char *out, size_t outlen)
{
  char dir[64], v[128];
  snprintf (dir, sizeof dir, "/proc/%d", (int) pid);
  int cap = has_cap_sys_ptrace ();

  if (proc_status_field (dir, "TracerPid", v, sizeof v) == 0)
    {
      long int tracer = strtol (v, NULL, 10);
      if (tracer != 0 && tracer != getpid ())
        {
          char tdir[64], comm[64] = "?";
          snprintf (tdir, sizeof tdir, "/proc/%ld", tracer);
          proc_status_field (tdir, "Name", comm, sizeof comm);
          snprintf (out, outlen, "it is already traced by process %ld (%s), "
                    "a debugger or strace, and a process can have only one "
                    "tracer; detach that one first", tracer, comm);
          return 0;
        }
    }

  uid_t me = geteuid ();
  unsigned int ruid = 0, euid = 0;
  int have_uid = proc_status_field (dir, "Uid", v, sizeof v) == 0
                 && sscanf (v, "%u %u", &ruid, &euid) == 2;
  if (have_uid && !cap && (ruid != me || euid != me))
    {
      char who[64], self[64];
      snprintf (out, outlen, "it belongs to user %s and rseq-compat runs as "
                "%s without CAP_SYS_PTRACE; run rseq-compat as that user or "
                "as root", user_name (ruid != me ? ruid : euid, who, sizeof who),
                user_name (me, self, sizeof self));
      return 0;
    }

  char scope[16];
  int fd = open ("/proc/sys/kernel/yama/ptrace_scope", O_RDONLY | O_CLOEXEC);
  ssize_t n = fd >= 0 ? read (fd, scope, sizeof scope - 1) : -1;
  if (fd >= 0)
    close (fd);
  int yama = n > 0 ? (scope[n] = '\0', atoi (scope)) : 0;
  if (yama == 3)
    {
      snprintf (out, outlen, "kernel.yama.ptrace_scope is 3: ptrace attach "
                "is disabled for everyone until the next reboot; run "
                "'rseq-compat run rseq-compat info' in the same environment "
                "instead to see what the process sees");
      return 0;
    }
  if (yama == 2 && !cap)
    {
      snprintf (out, outlen, "kernel.yama.ptrace_scope is 2: only a process "
                "with CAP_SYS_PTRACE may attach; run rseq-compat as root");
      return 0;
    }
  if (yama == 1 && !cap)
    {
      snprintf (out, outlen, "kernel.yama.ptrace_scope is 1: only an "
                "ancestor of the process may attach; run rseq-compat as "
                "root, or set 'sysctl kernel.yama.ptrace_scope=0'");
      return 0;
    }

  struct stat st;
  if (!cap && have_uid && stat (dir, &st) == 0 && st.st_uid != ruid)
    {
      snprintf (out, outlen, "it is not dumpable (a setuid or setgid "
                "program, or one that called prctl (PR_SET_DUMPABLE, 0)), "
                "so only root may attach; run rseq-compat as root");
      return 0;
    }

  snprintf (out, outlen, "a security module (SELinux, AppArmor) or a "
            "container without CAP_SYS_PTRACE forbids attaching; run "
            "rseq-compat as root outside the container");
  return 0;
}

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
      for (size_t i = 0; i < p->nmaps; i++)
        {
          if (p->maps[i].offset != 0 || p->maps[i].path[0] != '/'
              || (i > 0 && strcmp (p->maps[i - 1].path, p->maps[i].path) == 0))
            continue;
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
      if (m == NULL)
        snprintf (t->owner_detail, sizeof t->owner_detail,
                  "unmapped memory");
      else if (m->path[0] == '/')
        snprintf (t->owner_detail, sizeof t->owner_detail,
                  "static data of %.200s", m->path);
      else if (m->path[0] == '[')
        snprintf (t->owner_detail, sizeof t->owner_detail, "%.200s",
                  m->path);
      else
        snprintf (t->owner_detail, sizeof t->owner_detail,
                  "anonymous memory");
    }
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
      r->comm[strcspn (r->comm, "\n")] = '\0';
      close (fd);
    }
  snprintf (path, sizeof path, "%s/exe", p->dir);
  ssize_t n = readlink (path, r->exe, sizeof r->exe - 1);
  r->exe[n > 0 ? n : 0] = '\0';

  /* Symbols and thread pointers are read the way of this command's own
     architecture and word size.  */
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  Elf64_Ehdr eh;
  if (fd >= 0 && pread_full (fd, &eh, sizeof eh, 0) == 0
      && memcmp (eh.e_ident, ELFMAG, SELFMAG) == 0
      && (eh.e_ident[EI_CLASS] != ELFCLASS64
#if defined __x86_64__
          || eh.e_machine != EM_X86_64
#elif defined __aarch64__
          || eh.e_machine != EM_AARCH64
#endif
          ))
    snprintf (r->warning, sizeof r->warning, "process %d is not a 64-bit "
              "program of this architecture: the published values and the "
              "owners of its areas cannot be read, only the registrations",
              (int) r->pid);
  if (fd >= 0)
    close (fd);

  struct utsname u;
  if (uname (&u) == 0)
    snprintf (r->kernel, sizeof r->kernel, "%s", u.release);

  if (read_auxv (p->dir, &r->at_feature_size, &r->at_align) != 0)
    {
      int e = errno;
      snprintf (err, errlen, "cannot read %s/auxv: %s", p->dir, strerror (e));
      return e;
    }

  int off;
  int t = tunables_from_environ (p->dir, r->tunables, sizeof r->tunables,
                                 &off);
  r->have_tunables = t > 0;
  r->tunable_off = t > 0 && off;

  char v[64];
  r->seccomp = proc_status_field (dir, "Seccomp", v, sizeof v) == 0
               ? atoi (v) : -1;

  libc_identify (p->dir, p->maps, p->nmaps, r->libc, sizeof r->libc,
                 r->libc_version, sizeof r->libc_version);

  for (size_t i = 0; i < p->nmaps; i++)
    {
      const char *b = base_name (p->maps[i].path);
      if (p->maps[i].offset != 0 || p->maps[i].path[0] != '/'
          || (i > 0 && strcmp (p->maps[i - 1].path, p->maps[i].path) == 0))
        continue;
      if (strncmp (b, "librseq-compat.so", 17) == 0 && !r->shim_abi)
        {
          uint64_t o = proc_symbol (p, p->maps[i].path, "__rseq_offset",
                                    NULL, NULL);
          uint64_t s = proc_symbol (p, p->maps[i].path, "__rseq_size",
                                    NULL, NULL);
          uint64_t f = proc_symbol (p, p->maps[i].path, "__rseq_flags",
                                    NULL, NULL);
          snprintf (r->shim, sizeof r->shim, "%s", p->maps[i].path);
          if (o != 0 && s != 0 && f != 0
              && proc_read (p, o, &r->shim_offset, sizeof r->shim_offset) == 0
              && proc_read (p, s, &r->shim_size, sizeof r->shim_size) == 0
              && proc_read (p, f, &r->shim_flags, sizeof r->shim_flags) == 0)
            r->shim_abi = 1;
        }
      /* glibc 2.35 and later export __rseq_* from the dynamic loader
         (ld-linux-*.so.*; ld-2.NN.so for RHEL 9's 2.34).  */
      else if (strncmp (b, "ld-", 3) == 0 && strncmp (b, "ld-musl", 7) != 0
               && !r->libc_abi)
        {
          uint64_t o = proc_symbol (p, p->maps[i].path, "__rseq_offset",
                                    NULL, NULL);
          uint64_t s = proc_symbol (p, p->maps[i].path, "__rseq_size",
                                    NULL, NULL);
          uint64_t f = proc_symbol (p, p->maps[i].path, "__rseq_flags",
                                    NULL, NULL);
          if (o != 0 && s != 0 && f != 0
              && proc_read (p, o, &r->libc_offset, sizeof r->libc_offset) == 0
              && proc_read (p, s, &r->libc_size, sizeof r->libc_size) == 0
              && proc_read (p, f, &r->libc_flags, sizeof r->libc_flags) == 0)
            r->libc_abi = 1;
        }
    }

  info_pick_abi (r);
  return 0;
}
