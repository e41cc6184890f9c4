/* Reading another process: /proc/PID, its memory, the ELF files it maps.
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

#ifndef RSEQ_COMPAT_CMD_PROCFS_H
#define RSEQ_COMPAT_CMD_PROCFS_H 1

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct proc_map
{
  uint64_t start, end, offset;
  /* The mapped file's device and inode, as the kernel names them.  */
  unsigned int dev_major, dev_minor;
  uint64_t inode;
  char perms[5];
  /* The name as the maps file gives it, in read_maps's allocation.  */
  const char *path;
};

/* What proc_map_is_image read of one mapped file's headers: once per
   file, however often it is mapped (64th review: 70 data mappings of a
   file named like the shim, each asked in turn, used up a bound on
   the files asked, and the loader was never read).  */
struct proc_image_file
{
  unsigned int dev_major, dev_minor;
  uint64_t inode;
  /* The name, for a file without an inode number.  */
  const char *path;
  /* 1: a 64-bit ELF file whose first PT_LOAD starts in page FIRST_PAGE
     and whose data segment starts in page DATA_PAGE, from file offset
     DATA_OFF (page-aligned); 0: no object of ours (no such ELF file);
     -1: not read (it cannot be opened, or too many files were).  */
  int kind;
  uint64_t first_page, data_page, data_off;
};
/* How many files proc_map_is_image reads at most: only files named
   like a candidate (the loader, the C library, libpthread, the shim)
   are asked, so a process needs that many such files before the rest
   are judged as unreadable ones are.  */
#define PROC_IMAGE_FILES 64

struct proc
{
  pid_t pid;
  /* /proc/PID, or /proc/PID/task/TID of a live thread when the main
     thread has exited (its mm-related files are gone).  */
  char dir[64];
  int mem_fd;
  /* Index in MAPS of the object defining a thread-local __rseq_abi,
     NMAPS when none does, -1 before it was looked for (collect-proc.c).  */
  long int rseq_abi_definer;
  struct proc_map *maps;
  size_t nmaps;
  /* DIR/pagemap, opened at the first read of a file's page on FUSE;
     -1 before.  */
  int pagemap_fd;
  /* Reads refused: their memory lies in a file on FUSE, not in memory
     yet (proc_read).  */
  unsigned long int fuse_skipped;
  /* Registered areas of threads found in none of MAPS (owner_of): the
     maps were read before the area was mapped.  */
  unsigned long int areas_unmapped;
  /* The 16 random bytes the kernel gave the program at exec
     (AT_RANDOM), as read through MEM_FD at the start; HAVE_RANDOM 0
     where they could not be.  */
  unsigned char random[16];
  int have_random;
  struct proc_image_file image_files[PROC_IMAGE_FILES];
  size_t nimage_files;
};

int proc_open (struct proc *, pid_t pid, const char *dir, char *err,
               size_t errlen);
void proc_close (struct proc *);
/* LEN bytes at ADDR of the process's memory: 0, or -1 where they
   cannot be read, or lie in a file on FUSE whose page is not in memory
   (counted in FUSE_SKIPPED: reading it would wait for the server).  */
int proc_read (struct proc *, uint64_t addr, void *buf, size_t len);
/* Whether [ADDR, ADDR + LEN) can be read without asking a FUSE server:
   it lies in no file on FUSE as the maps were read, or in pages of one
   the process has in memory.  */
int proc_mem_safe (struct proc *, uint64_t addr, size_t len);
/* proc_mem_safe for the process's environment (what DIR/environ
   reads), counted in FUSE_SKIPPED where it is not.  */
int proc_env_safe (struct proc *);
/* 1 if the process's memory is still the one proc_open found, 0 if an
   exec replaced it (or the process is gone): two execs during a read
   (A, B, A) leave every address and the program's file as they were
   (twenty-fourth review's check, run again), and a process that shares
   the old memory (clone with CLONE_VM) keeps it readable (twenty-fifth
   review); the random bytes each exec draws tell them apart.  */
int proc_same_mm (struct proc *);
/* The run-time address of the dynamic symbol NAME defined by the file
   mapped at PATH, or 0.  */
uint64_t proc_symbol (struct proc *, const char *path, const char *name,
                      int *is_tls, uint64_t *tls_value);
/* The same, also from the static symbol table (.symtab) where the file
   has kept one: glibc before 2.34 keeps the symbols debuggers need to
   find the threads there, in libpthread.  */
uint64_t proc_symbol_any (struct proc *, const char *path, const char *name);
/* proc_symbol of the object mapped at M (a mapping from the start of
   its file).  */
uint64_t proc_symbol_at (struct proc *p, const struct proc_map *m,
                         const char *name);
/* Whether P's maps[I] is a loaded object's first mapping, not the file
   mapped as data.  */
int proc_map_is_image (struct proc *p, size_t i);
/* Whether the program's file has a DT_SONAME (a dynamic loader run as
   a command); 0 where it cannot be read.  */
int proc_exe_has_soname (struct proc *p);
/* Whether M's file can be opened for reading.  */
int proc_map_readable (struct proc *p, const struct proc_map *m);
/* proc_symbol_any in the program itself, mapped as PATH (its
   /proc/PID/exe name), read through /proc/PID/exe.  */
uint64_t proc_symbol_exe (struct proc *p, const char *path,
                          const char *name);
/* What tells one process image from another: when process PID started
   (a PID the process left and another took has another start), and
   where its program, stack, heap, arguments and environment lie (an
   exec draws them anew).  */
struct proc_identity
{
  unsigned long long int v[8];
};
/* PID's identity from /proc/PID/stat and the device and inode of
   /proc/PID/exe: 0, or -1 when it cannot be read.  */
int proc_identity (pid_t pid, struct proc_identity *id);
/* Whether A and B are one process image: the same start, and the same
   value of each other part both have (0: not known, as for a main
   thread that has exited, or another user's process).  */
int proc_identity_same (const struct proc_identity *a,
                        const struct proc_identity *b);
/* 1 if DIR (/proc/PID) is a kernel thread's, 0 if not, -1 if its stat
   file cannot be read.  */
int proc_kernel_thread (const char *dir);
/* The run-time address of the allocated section NAME of the program
   mapped as PATH (read through /proc/PID/exe), with its size in *SIZE;
   0 where it has none (or no section headers at all).  */
uint64_t proc_section_exe (struct proc *p, const char *path,
                           const char *name, uint64_t *size);
/* 1 if the program (/proc/PID/exe) has a PT_INTERP, 0 if it has none
   (linked statically, or a dynamic loader run as a command), -1 if it
   cannot be read.  */
int proc_exe_has_interp (struct proc *p);
const struct proc_map *proc_find (const struct proc *, uint64_t addr);
int read_maps (const char *dir, struct proc_map **maps, size_t *nmaps);
/* The status line KEY of /proc/PID/status (or /proc/PID/task/TID).  */
int proc_status_field (const char *dir, const char *key, char *out,
                       size_t outlen);
/* AT_RSEQ_FEATURE_SIZE, AT_RSEQ_ALIGN, AT_SECURE, AT_BASE (where the
   program's interpreter is mapped) and AT_PHDR (the program's headers,
   as the kernel mapped it) from DIR/auxv (0 when absent).  Returns 0,
   or -1 with errno set.  */
int read_auxv (const char *dir, unsigned long int *feature,
               unsigned long int *align, int *secure, uint64_t *base,
               uint64_t *phdr);
/* GLIBC_TUNABLES from DIR/environ: 1 and the last value in OUT, with
   *OFF whether it turns registration off, and *OFF_LOOSE whether it
   does as glibc before 2.39 reads it; 0 when unset; -1 when the file
   cannot be read.  CUT: the process's C library is a glibc before 2.39,
   which cuts the string the file shows.  *REWRITTEN (where not NULL):
   whether the block reads as one written over by a title, as
   setproctitle does: its first string is no variable (no '=', or
   before its first '=' no valid name, [A-Za-z_][A-Za-z0-9_]*: a title
   may hold '='), and every later one is padding (empty, or
   spaces).  */
int tunables_from_environ (const char *dir, char *out, size_t outlen,
                           int cut, int *off, int *off_loose,
                           int *rewritten);
/* The DT_SONAME of the regular 64-bit ELF file PATH in OUT (OUTLEN
   bytes): 0, or -1 where it has none, or one that does not fit, or
   cannot be read.  */
int elf_file_soname (const char *path, char *out, size_t outlen);
/* Libc name and version from the files mapped in a process.  */
/* How many distinct files libc_identify reads at most.  */
#define LIBC_CANDIDATES 16
/* Whether M maps the same file (device and inode) as one of SEEN.  */
int proc_map_seen (const struct proc_map *m,
                   const struct proc_map *const *seen, size_t n);
/* 1 if a file mapped in the process names a library whose name starts
   with PREFIX in a DT_NEEDED entry, 0 if none does, -1 if one that is
   not known could (it cannot be read, or lies on FUSE, which is not
   asked); of LIBC_CANDIDATES files at most.  *FILES: how many distinct
   files are mapped.  */
int proc_maps_need (struct proc *p, const char *prefix, size_t *files);
/* Where P is not NULL, MAPS are P's and only a loaded object counts
   (proc_map_is_image): a process may map another C library's file as
   data (64th review: an ELF reader's glibc process said to be musl).  */
void libc_identify (struct proc *p, const char *dir,
                    const struct proc_map *maps, size_t nmaps, char *name,
                    size_t namelen, char *version, size_t versionlen);
/* Whether the program of DIR (/proc/PID), DIR/exe, is an ELF file of
   another class or machine than this command's.  */
int elf_foreign (const char *dir);
/* The state letter of /proc/PID/task/TID/stat ('R', 'S', 'D', 't'...),
   or 0 when the thread is gone.  */
char proc_task_state (pid_t pid, pid_t tid);
/* TID of PID as the process itself sees it, in its own PID namespace
   (the last NSpid field); TID itself where the kernel says nothing
   (before Linux 4.1) or the thread is gone.  */
pid_t proc_task_own_tid (pid_t pid, pid_t tid);
/* Whether state S is that of a thread that has exited.  */
int proc_state_dead (char s);
/* The name of thread TID (/proc/PID/task/TID/comm), empty if gone.  */
void proc_task_name (pid_t pid, pid_t tid, char *out, size_t outlen);
/* The thread ids of PID, ascending, the main thread first, in a malloc'ed
   array; NULL when the process is gone.  */
pid_t *proc_list_tasks (pid_t pid, size_t *count);
/* Whether some thread of PID has not exited.  */
int proc_alive (pid_t pid);
/* Reads all of PATH into a malloc'ed *OUT (NUL-terminated).  Returns its
   length, or -1 with errno set: EFBIG where it is longer than MAX.  */
ssize_t proc_slurp (const char *path, char **out, size_t max);
/* The last component of PATH.  */
const char *base_name (const char *path);
/* Whether BASE, a file's base name, is glibc's dynamic loader's: ld-*
   (ld-linux-x86-64.so.2, ld-2.31.so) but musl's ld-musl-*, or ld.so,
   its name in glibc's build tree (testrun.sh runs it).  */
int glibc_loader_name (const char *base);
/* Whether BASE is musl's dynamic loader's: its own name
   (ld-musl-ARCH.so.1, libc.musl-ARCH.so.1 on Alpine) or that of the
   file Debian's links lead to (libc.so), deleted or not (62nd review:
   "libc.so (deleted)" after an upgrade).  */
int musl_loader_name (const char *base);

#endif
