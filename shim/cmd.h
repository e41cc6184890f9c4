/* Internal interfaces of the rseq-compat command.
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

/* The command is split by job:
     rseq-compat.c   main, subcommand dispatch, usage
     cmd-run.c       rseq-compat run
     cmd-info.c      rseq-compat info: options, deriving mode and reason
     cmd-self.c      what the calling process knows about itself
     cmd-proc.c      another process from /proc: maps, auxv, environ,
                     status, its memory and the ELF symbols of its files
     cmd-ptrace.c    each thread's registration, by ptrace
     cmd-print.c     text and JSON output
   The report below is what info collects; both outputs print it.  */

#ifndef RSEQ_COMPAT_CMD_H
#define RSEQ_COMPAT_CMD_H 1

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#ifndef RSEQ_COMPAT_LIBDIR
# define RSEQ_COMPAT_LIBDIR "/usr/local/lib"
#endif
#ifndef RSEQ_COMPAT_VERSION
# define RSEQ_COMPAT_VERSION "(unreleased)"
#endif
#define SONAME "librseq-compat.so.1"

/* Exit statuses for our own failures, as env(1) and the shells use.  */
enum { EXIT_CANNOT_RUN = 125, EXIT_NOT_EXEC = 126, EXIT_NOT_FOUND = 127 };

/* rseq-compat info: 0 when the report was printed, this when the
   process could not be read (the cause is on stderr, nothing on
   stdout).  Usage errors are EXIT_CANNOT_RUN.  */
enum { EXIT_INFO_FAILED = 1 };

void usage (FILE *out);
int cmd_run (char **argv);
int cmd_info (int argc, char **argv);

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
  char note[128];
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
  /* Still attached: it did not stop in time (cmd-ptrace.c).  */
  int held;
};

struct info_report
{
  int self;
  pid_t pid;
  char comm[32];
  char exe[PATH_MAX];
  char libc[16];		/* "glibc", "musl", "unknown".  */
  char libc_version[32];	/* Empty when unknown.  */
  char kernel[128];
  unsigned long int at_feature_size;
  unsigned long int at_align;
  char shim[PATH_MAX];		/* Path of librseq-compat, or empty.  */
  char tunables[256];		/* GLIBC_TUNABLES, or empty.  */
  int have_tunables;
  int tunable_off;
  int seccomp;			/* /proc status "Seccomp:", -1 unknown.  */

  /* The C library's own __rseq_* (glibc 2.35+ and RHEL 9's 2.34).  */
  int libc_abi;
  int64_t libc_offset;
  uint32_t libc_size;
  uint32_t libc_flags;
  /* The shim's exported values, when it is loaded.  */
  int shim_abi;
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

  /* Derived by info_derive.  */
  const char *mode;
  char reason[512];
  int probe_errno;		/* Self: errno of an rseq probe, or 0.  */
  uint32_t reg_len;		/* 0: none.  */
  const char *getcpu_impl;	/* Whose sched_getcpu the program calls.  */
  char sched_getcpu[256];	/* How it answers.  */
  int sched_getcpu_fast;

  /* Self only: the calling thread's current CPU.  */
  int have_cpu;
  int cpu, node, mm_cid;
  int have_node, have_mm_cid;

  /* "self", "ptrace" or "memory" (kernel before 5.13).  */
  const char *threads_source;
  char warning[512];
  struct info_thread *threads;
  size_t nthreads;
};

/* cmd-info.c: mode, reason, registration length and the sched_getcpu
   path from the collected facts.  */
void info_pick_abi (struct info_report *);
void info_derive (struct info_report *);
const char *errno_name (int);

/* cmd-self.c */
int info_self (struct info_report *);

/* cmd-proc.c */
struct proc_map
{
  uint64_t start, end, offset;
  char perms[5];
  char path[PATH_MAX];
};

struct proc
{
  pid_t pid;
  /* /proc/PID, or /proc/PID/task/TID of a live thread when the main
     thread has exited (its mm-related files are gone).  */
  char dir[64];
  int mem_fd;
  /* Index in MAPS of the object defining a thread-local __rseq_abi,
     NMAPS when none does, -1 before it was looked for.  */
  long int rseq_abi_definer;
  struct proc_map *maps;
  size_t nmaps;
};

int proc_open (struct proc *, pid_t pid, const char *dir, char *err,
               size_t errlen);
void proc_close (struct proc *);
int proc_read (struct proc *, uint64_t addr, void *buf, size_t len);
/* The run-time address of the dynamic symbol NAME defined by the file
   mapped at PATH, or 0.  */
uint64_t proc_symbol (struct proc *, const char *path, const char *name,
                      int *is_tls, uint64_t *tls_value);
const struct proc_map *proc_find (const struct proc *, uint64_t addr);
/* Fills the report's process-wide fields from /proc and the target's
   memory.  Returns 0, or an errno value with ERR describing it.  */
int proc_describe (struct proc *, struct info_report *, char *err,
                   size_t errlen);
/* Libc name and version from the files mapped in a process.  */
void libc_identify (const char *dir, const struct proc_map *maps, size_t nmaps,
                    char *name, size_t namelen, char *version,
                    size_t versionlen);
int read_maps (const char *dir, struct proc_map **maps, size_t *nmaps);
/* The status line KEY of /proc/PID/status (or /proc/PID/task/TID).  */
int proc_status_field (const char *dir, const char *key, char *out,
                       size_t outlen);
void owner_of (struct proc *, const struct info_report *,
               struct info_thread *, uint64_t tp);
int tunables_from_environ (const char *dir, char *out, size_t outlen,
                           int *off);
int permission_hint (pid_t pid, char *out, size_t outlen);

/* cmd-ptrace.c */
int info_pid (pid_t pid, struct info_report *, char *err, size_t errlen);

/* cmd-print.c */
void print_text (FILE *, const struct info_report *);
void print_json (FILE *, const struct info_report *);

/* tunables.c, shared with the library.  */
int __rseq_compat_tunable_rseq (const char *, int);
int __rseq_compat_env_tunable_off (char *const *);

#endif
