/* rseq-compat info: the report, what is known of a process.
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

/* What rseq-compat info reports: a collector (collect-self.c, or
   collect-ptrace.c with collect-proc.c for -p) fills in the facts,
   derive.c what they mean, and print-text.c and print-json.c print the
   whole.  The layering of the command's files is in shim/cmd/layers.  */

#ifndef RSEQ_COMPAT_CMD_REPORT_H
#define RSEQ_COMPAT_CMD_REPORT_H 1

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum thread_state
{
  TS_UNKNOWN,
  TS_REGISTERED,
  TS_UNREGISTERED,
  TS_EXITED,
};

struct info_thread
{
  pid_t tid;
  char name[32];
  enum thread_state state;
  /* Why the state is unknown, or how it was found.  */
  char note[256];
  /* The registration (TS_REGISTERED).  */
  uint64_t area;
  uint32_t length;		/* 0: not known (read from memory).  */
  uint32_t signature;
  int have_signature;
  uint32_t flags;
  /* "libc", "librseq-compat" or "other", and the detail.  */
  const char *owner;
  char owner_detail[256];
  /* The area's fields as the kernel last wrote them.  */
  int have_fields;
  int32_t cpu_id;
  int have_node;		/* node_id and mm_cid are maintained.  */
  int32_t node_id;
  int32_t mm_cid;
  /* sched_getcpu answers from this thread's area.  */
  int fast;
  /* How the kernel runs the registration: "legacy", "optimized", or
     NULL when the length is not known.  For a legacy registration on a
     kernel that has the optimized mode, why, and what would give it
     that mode; empty otherwise.  */
  const char *kernel_mode;
  char legacy_cause[256];
  char legacy_fix[256];
};

enum { ABI_UNREAD_FUSE = 1, ABI_UNREAD_FILE = 2 };

#define TUNABLES_UNREAD_FUSE 1
#define TUNABLES_UNREAD_REWRITTEN 2

struct info_report
{
  int self;
  pid_t pid;
  char comm[32];
  char exe[PATH_MAX];
  char libc[16];		/* "glibc", "musl", "unknown".  */
  char libc_version[32];	/* Empty when unknown.  */
  /* The program is linked statically (no dynamic loader mapped) and
     its C library was told from its static symbol table.  */
  int libc_static;
  char kernel[128];
  unsigned long int at_feature_size;
  unsigned long int at_align;
  char shim[PATH_MAX];		/* Path of librseq-compat, or empty.  */
  /* librseq-compat.a is linked into the static program (shim is then
     the program's path).  */
  int shim_static;
  char tunables[256];		/* GLIBC_TUNABLES, or empty.  */
  int have_tunables;
  int tunable_off;
  int tunable_off_loose;	/* As glibc before 2.39 reads it.  */
  /* GLIBC_TUNABLES is not known: TUNABLES_UNREAD_FUSE, the environment
     lies in a file on FUSE and was not read (procfs.h, proc_env_safe);
     TUNABLES_UNREAD_REWRITTEN, the process wrote over its environment
     area (setproctitle) and it was not found there.  */
  int tunables_unread;
  /* The process was started with AT_SECURE, which makes its glibc and
     the shim ignore GLIBC_TUNABLES.  */
  int secure;
  int seccomp;			/* /proc status "Seccomp:", -1 unknown.  */

  /* The C library's own __rseq_* (glibc 2.35+ and RHEL 9's 2.34).  */
  int libc_abi;
  int64_t libc_offset;
  uint32_t libc_size;
  uint32_t libc_flags;
  /* The shim's exported values, when it is loaded.  */
  int shim_abi;
  /* Why __rseq_* were not read: 0, they were (or are not defined);
     ABI_UNREAD_FUSE, they lie in a file on FUSE (procfs.h, proc_read);
     ABI_UNREAD_FILE, the loader's file could not be opened to find
     them (deleted, and this user may not open the mapping).  */
  int abi_unread;
  int64_t shim_offset;
  uint32_t shim_size;
  uint32_t shim_flags;
  const char *shim_mode;	/* Self only: rseq_compat_mode ().  */
  long int shim_reg_len;	/* Self only: rseq_compat_query, or -1.  */
  long int shim_probe_errno;
  long int shim_fallback;

  /* What the program sees: the shim's symbols where loaded (they mirror
     glibc's in libc-owned mode), else glibc's.  */
  const char *abi_source;	/* "glibc", "librseq-compat" or NULL.  */
  int64_t offset;
  uint32_t size;		/* As published (glibc 2.35 to 2.39: 32).  */
  uint32_t flags;

  /* Derived by info_derive (derive.h).  */
  const char *mode;
  char reason[512];
  int probe_errno;		/* Self: errno of an rseq probe, or 0.  */
  uint32_t reg_len;		/* 0: none.  */
  /* Whose registration reg_len is: "libc", "librseq-compat", or
     "unknown" (a process with no __rseq_* symbols and a C library not
     known, such as a static program: reg_len is then its threads'); NULL
     with reg_len 0.  */
  const char *reg_owner;
  int kernel_optimized;		/* The kernel has the optimized mode.  */
  /* How the kernel runs a registration of reg_len, and why not in the
     optimized mode (as struct info_thread's).  */
  const char *kernel_mode;
  char legacy_cause[256];
  char legacy_fix[256];
  const char *getcpu_impl;	/* Whose sched_getcpu the program calls.  */
  char sched_getcpu[256];	/* How it answers.  */
  int sched_getcpu_fast;

  /* Self only: the calling thread's current CPU.  */
  int have_cpu;
  int cpu, node, mm_cid;
  int have_node, have_mm_cid;

  /* "self", "ptrace" or "memory" (kernel before 5.13, or --no-stop).  */
  const char *threads_source;
  /* How the threads were read: "self", "stop" (ptrace, one thread
     stopped at a time) or "no-stop" (memory only).  */
  const char *method;
  char warning[1024];
  struct info_thread *threads;
  size_t nthreads;
};

/* The values the program sees (abi_source, offset, size, flags), from
   the C library's and the shim's: collectors call it once both are
   known, before they read the threads' areas.  */
void info_pick_abi (struct info_report *);
/* Appends a thread TID to R->threads (*CAP entries allocated) unless
   it is listed already.  Returns 1 when added, 0 when listed, -1 when
   out of memory.  */
int info_add_thread (struct info_report *, size_t *cap, pid_t tid);
/* The minor version of R's C library where it is a glibc 2.x, else -1
   (a static glibc's version is not known).  */
int info_glibc_minor (const struct info_report *r);
/* "registered", "unregistered", "exited" or "unknown".  */
const char *info_state_name (enum thread_state);

/* Length of the valid UTF-8 sequence at P (NUL-terminated), or 0.  */
int info_utf8_length (const unsigned char *p);
/* The character of the valid sequence at P, N bytes long, where the
   report must not print it as it is, or 0: a C1 control (U+0080 to
   U+009F), which a terminal may obey as it obeys ESC, and every
   character that is invisible or changes how the text around it is
   shown -- Unicode's format characters (category Cf: the bidirectional
   controls, zero-width characters, tags), its other default-ignorable
   code points (variation selectors, Hangul fillers, the soft hyphen's
   kin), the line and paragraph separators, and every space but the
   ASCII one (category Zs: the no-break and the typographic spaces, the
   ideographic space) with the braille blank that looks like one, and
   the noncharacters: a target's name could otherwise hide or reverse
   what follows it in its row, or pass for another process's, or for a
   name with a word more or less (70th to 74th reviews).  Combining
   marks stay: they change one character's look, not the row's.  */
static inline unsigned int
info_utf8_hidden (const unsigned char *p, int n)
{
  static const unsigned int ranges[][2] = {
    { 0x80, 0xa0 }, { 0xad, 0xad }, { 0x34f, 0x34f }, { 0x600, 0x605 },
    { 0x61c, 0x61c }, { 0x6dd, 0x6dd }, { 0x70f, 0x70f },
    { 0x890, 0x891 }, { 0x8e2, 0x8e2 }, { 0x115f, 0x1160 },
    { 0x1680, 0x1680 }, { 0x17b4, 0x17b5 }, { 0x180b, 0x180f },
    { 0x2000, 0x200f }, { 0x2028, 0x202f }, { 0x205f, 0x206f },
    { 0x2800, 0x2800 }, { 0x3000, 0x3000 }, { 0x3164, 0x3164 },
    { 0xfe00, 0xfe0f }, { 0xfeff, 0xfeff }, { 0xffa0, 0xffa0 },
    { 0xfff0, 0xfffb }, { 0x110bd, 0x110bd }, { 0x110cd, 0x110cd },
    { 0x13430, 0x1343f }, { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a },
    { 0xe0000, 0xe0fff },
  };
  unsigned int c;
  if (n == 2)
    c = (p[0] & 0x1fu) << 6 | (p[1] & 0x3fu);
  else if (n == 3)
    c = (p[0] & 0x0fu) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu);
  else if (n == 4)
    c = (p[0] & 0x07u) << 18 | (p[1] & 0x3fu) << 12 | (p[2] & 0x3fu) << 6
        | (p[3] & 0x3fu);
  else
    return 0;
  /* Noncharacters: no text holds them, and terminals show them as
     nothing or as whatever their font has.  */
  if ((c >= 0xfdd0 && c <= 0xfdef) || (c & 0xfffeu) == 0xfffeu)
    return c;
  for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
    if (c >= ranges[i][0] && c <= ranges[i][1])
      return c;
  return 0;
}
/* S made safe for a terminal into OUT (OUTLEN bytes; 4 per byte of S
   plus one always suffice): control bytes, DEL, backslash, bytes that
   are not UTF-8 and those of info_utf8_hidden's characters become \n,
   \t, \\ or \xNN.  Returns OUT.  For every string another process
   chose.  */
const char *info_escape (const char *s, char *out, size_t outlen);

#endif
