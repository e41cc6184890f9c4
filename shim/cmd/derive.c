/* rseq-compat info: what the collected facts mean.
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

/* The mode names are the shim's (rseq_compat_mode), applied to any
   process, with or without the shim:
     libc-owned   the C library registered (glibc 2.35+)
     shim-owned   librseq-compat registered
     disabled     GLIBC_TUNABLES glibc.pthread.rseq=0
     unavailable  registration failed (seccomp, rr, valgrind, old kernel)
     refused      librseq-compat was loaded by dlopen
     none         no C library registration and no librseq-compat
   The calling process with the shim loaded takes the shim's word.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rseq-layout.h>
#include <sys/rseq.h>

#include "area-size.h"
#include "derive.h"
#include "errname.h"

static const char *
why_refused (int err)
{
  switch (err)
    {
    case ENOSYS:
      return "a seccomp filter, rr, valgrind, qemu-user or gVisor, or a "
             "kernel before 4.18 or built without CONFIG_RSEQ";
    case EPERM:
      return "a seccomp filter or a security module";
    default:
      return "an unexpected answer";
    }
}

/* Whether the sched_getcpu that T's calls reach answers with one load
   of cpu_id from T's area.  */
static int
thread_fast (const struct info_report *r, const struct info_thread *t)
{
  int reads_rseq = strcmp (r->getcpu_impl, "librseq-compat") == 0
                   || (strcmp (r->getcpu_impl, "glibc") == 0 && r->libc_abi);
  if (!reads_rseq || t->state != TS_REGISTERED)
    return 0;
  /* It reads the published area: glibc's, or the shim's.  */
  return t->owner != NULL && strcmp (t->owner, "other") != 0;
}

static const char *
derive_mode (const struct info_report *r)
{
  int shim = r->shim[0] != '\0';
  if (r->self && r->shim_mode != NULL)
    return r->shim_mode;
  if (r->abi_unread && !r->libc_abi && !r->shim_abi)
    return "unknown";
  if (r->libc_abi && r->libc_size != 0)
    return "libc-owned";
  if (shim && r->shim_abi && r->shim_size != 0)
    return "shim-owned";
  if (r->libc_abi || (shim && r->shim_abi))
    {
      /* Disabled or refused: only GLIBC_TUNABLES tells, and not in
         secure mode, which ignores it (forty-seventh review: a
         set-user-ID process whose environment lies on FUSE was
         "unknown").  */
      if (r->tunables_unread && !r->secure)
        return "unknown";
      if (r->tunable_off)
        return "disabled";
      /* glibc before 2.39 takes spellings of the tunable as 0 that 2.41
         does not (=0junk, =08, =0=1): registering nothing was its choice
         then (2.35 to 2.38, RHEL 9's 2.34, the patched 2.31).  */
      int minor = info_glibc_minor (r);
      if (r->libc_abi && r->tunable_off_loose && minor >= 0 && minor <= 38)
        return "disabled";
      /* A shim that stepped aside for good marks cpu_id -2, as glibc
         does; a dlopened one leaves the -1 of its TLS image.  */
      if (!r->self && shim && !r->libc_abi && r->nthreads > 0
          && r->threads[0].tid == r->pid && r->threads[0].have_fields
          && r->threads[0].cpu_id == RSEQ_CPU_ID_UNINITIALIZED)
        return "refused";
      return "unavailable";
    }
  return "none";
}

/* The registered thread that stands for the process's registration
   when whose it is cannot be told: a process with no __rseq_* symbols,
   no shim and a C library info does not know (a static program).  A static
   glibc 2.35 or later registers every thread, which then shows with
   owner "other", as an area of the program's own would; the first of
   known length gives the process's rows, so that they agree with the
   thread table.  NULL in every other case.  */
static const struct info_thread *
unattributed (const struct info_report *r)
{
  if (strcmp (r->mode, "none") != 0 || strcmp (r->libc, "unknown") != 0)
    return NULL;
  for (size_t i = 0; i < r->nthreads; i++)
    if (r->threads[i].state == TS_REGISTERED && r->threads[i].length != 0)
      return &r->threads[i];
  return NULL;
}

static void
describe_libc (const struct info_report *r, char *out, size_t len)
{
  if (strcmp (r->libc, "unknown") == 0)
    snprintf (out, len, "the C library");
  else if (r->libc_version[0] != '\0')
    snprintf (out, len, "%s %s", r->libc, r->libc_version);
  else
    snprintf (out, len, "%s", r->libc);
}

static void
derive_reason (struct info_report *r)
{
  char libc[64];
  describe_libc (r, libc, sizeof libc);
  int shim = r->shim[0] != '\0';
  const char *m = r->mode;
  size_t others = 0;
  for (size_t i = 0; i < r->nthreads; i++)
    others += r->threads[i].state == TS_REGISTERED
              && r->threads[i].owner != NULL
              && strcmp (r->threads[i].owner, "other") == 0;

  if (strcmp (m, "libc-owned") == 0)
    snprintf (r->reason, sizeof r->reason, "%s registers rseq for every "
              "thread itself%s", libc, !shim ? "" : r->shim_static
              ? "; librseq-compat.a is linked in and steps aside"
              : "; librseq-compat is loaded and steps aside");
  else if (strcmp (m, "shim-owned") == 0)
    snprintf (r->reason, sizeof r->reason, "%s does not register rseq; "
              "librseq-compat registers the main thread and every thread "
              "created with pthread_create%s", libc, r->shim_fallback > 0
              ? " (with the legacy 32-byte length: the kernel asks for more "
              "than the shim's 64-byte area)" : "");
  else if (strcmp (m, "disabled") == 0)
    snprintf (r->reason, sizeof r->reason, "GLIBC_TUNABLES sets "
              "glibc.pthread.rseq=0: registration is off, so the program "
              "may register an area of its own");
  else if (strcmp (m, "unavailable") == 0)
    {
      if (r->self && r->probe_errno != 0)
        snprintf (r->reason, sizeof r->reason, "the kernel refuses the rseq "
                  "system call with %s: %s", errno_name (r->probe_errno),
                  why_refused (r->probe_errno));
      else if (r->seccomp == 2)
        snprintf (r->reason, sizeof r->reason, "registration failed at "
                  "start-up; the process runs under a seccomp filter "
                  "(Seccomp: 2 in /proc/%d/status), which likely refuses "
                  "rseq", (int) r->pid);
      else
        snprintf (r->reason, sizeof r->reason, "registration failed at "
                  "start-up (rr, valgrind, qemu-user, or a kernel without "
                  "rseq)");
    }
  else if (strcmp (m, "unknown") == 0 && r->abi_unread == ABI_UNREAD_FILE)
    snprintf (r->reason, sizeof r->reason, "the file that would define "
              "__rseq_* (the dynamic loader's, or librseq-compat's) could "
              "not be opened (deleted, as an upgrade does, and this user "
              "may not open the mapping; root may): whether the process "
              "registers, and who, cannot be told");
  else if (strcmp (m, "unknown") == 0 && !r->abi_unread
           && r->tunables_unread == TUNABLES_UNREAD_REWRITTEN)
    snprintf (r->reason, sizeof r->reason, "the process wrote over its "
              "environment area (as setproctitle does: /proc/%d/environ "
              "no longer shows its variables), so whether GLIBC_TUNABLES "
              "turned registration off or it failed at start-up (a "
              "seccomp filter, rr, valgrind, qemu-user, a kernel without "
              "rseq) cannot be told", (int) r->pid);
  else if (strcmp (m, "unknown") == 0)
    snprintf (r->reason, sizeof r->reason, "%s lie%s in a file on FUSE "
              "and %s not read (see the warning): %s cannot be told",
              r->abi_unread ? "__rseq_*" : "the environment",
              r->abi_unread ? "" : "s", r->abi_unread ? "were" : "was",
              r->abi_unread ? "whether the process registers, and who,"
              : "whether GLIBC_TUNABLES turned registration off or the "
              "kernel refused it");
  else if (strcmp (m, "refused") == 0)
    snprintf (r->reason, sizeof r->reason, "librseq-compat was loaded by "
              "dlopen, too late to register the threads that already run, "
              "or linked behind the C library (-lpthread or -lc before "
              "-lrseq-compat, or only through a library), where the "
              "program's threads would not reach it; preload it "
              "(rseq-compat run, LD_PRELOAD) or link the program with "
              "-lrseq-compat before the C library");
  else if (unattributed (r) != NULL)
    snprintf (r->reason, sizeof r->reason, "no __rseq_* symbols and no "
              "librseq-compat (a static program?): the threads' "
              "registrations are the C library's (a static glibc 2.35 or "
              "later registers every thread) or the program's own, and "
              "without the symbols the two cannot be told apart");
  else if (r->libc_static)
    snprintf (r->reason, sizeof r->reason, "%s, linked statically, does "
              "not register rseq%s, and no preload reaches a static "
              "program: link it dynamically and start it with 'rseq-compat "
              "run'%s%s", libc, strcmp (r->libc, "glibc") == 0
              ? " (glibc before 2.35)" : "", strcmp (r->libc, "glibc") == 0
              ? ", or statically with glibc 2.35 or later" : "",
              others ? "; some threads registered an area of their own" : "");
  else if (strcmp (r->libc, "unknown") == 0)
    snprintf (r->reason, sizeof r->reason, "no C library that registers "
              "rseq and no librseq-compat (a static program?)%s",
              others ? "; some threads registered an area of their own" : "");
  else
    snprintf (r->reason, sizeof r->reason, "%s does not register rseq and "
              "librseq-compat is not loaded; start the program with "
              "'rseq-compat run'%s", libc,
              others ? "; some threads registered an area of their own" : "");

  /* Whatever the mode, say when the kernel refuses rseq here.  */
  if (r->self && r->probe_errno != 0 && strcmp (m, "unavailable") != 0)
    {
      size_t len = strlen (r->reason);
      snprintf (r->reason + len, sizeof r->reason - len, "; the kernel "
                "answers %s to rseq here (%s)", errno_name (r->probe_errno),
                why_refused (r->probe_errno));
    }
}

static uint32_t
derive_reg_len (const struct info_report *r)
{
  const char *owner;
  if (strcmp (r->mode, "libc-owned") == 0)
    owner = "libc";
  else if (strcmp (r->mode, "shim-owned") == 0)
    owner = "librseq-compat";
  else
    {
      const struct info_thread *t = unattributed (r);
      return t != NULL ? t->length : 0;
    }
  /* What the kernel says, where it says it.  */
  for (size_t i = 0; i < r->nthreads; i++)
    if (r->threads[i].state == TS_REGISTERED && r->threads[i].length != 0
        && r->threads[i].owner != NULL
        && strcmp (r->threads[i].owner, owner) == 0)
      return r->threads[i].length;
  if (r->shim_reg_len > 0)
    return (uint32_t) r->shim_reg_len;
  if (r->libc_abi && r->libc_size != 0)
    return rseq_layout_libc_reg_len (r->libc_size);
  /* The shim's rules (sysdeps/unix/sysv/linux/rseq-layout.h).  */
  struct rseq_layout l;
  rseq_layout_compute (&l, r->at_feature_size, r->at_align);
  rseq_layout_fit (&l, RSEQ_COMPAT_AREA_SIZE, RSEQ_COMPAT_AREA_ALIGN);
  return l.reg_len;
}

/* The one place that names the mode the kernel runs a registration of
   LEN bytes in (the kernel's rule: rseq_layout_optimized), for the
   process and every thread alike; NULL when LEN is not known.  */
static const char *
kernel_mode (const struct info_report *r, uint32_t len)
{
  if (len == 0)
    return NULL;
  return rseq_layout_optimized (r->at_feature_size, len) ? "optimized"
                                                         : "legacy";
}

/* Why a registration of OWNER (DETAIL: struct info_thread's
   owner_detail, or empty) is not in the optimized mode on a kernel that
   has it (lengths of 32 or less keep the legacy mode there), and what
   would give it that mode.  */
static void
legacy_advice (const struct info_report *r, const char *owner,
               const char *detail, char *cause, size_t cause_len,
               char *fix, size_t fix_len)
{
  if (owner != NULL && strcmp (owner, "libc") == 0)
    {
      char libc[64];
      describe_libc (r, libc, sizeof libc);
      int minor = info_glibc_minor (r);
      if (minor >= 35 && minor <= 40)
        {
          snprintf (cause, cause_len, "%s registers 32 bytes (glibc 2.35 "
                    "to 2.40 always do)", libc);
          snprintf (fix, fix_len, "glibc 2.41 or later%s", minor == 36
                    ? ", or rseq-compat's glibc 2.36 patch series (make "
                    "glibc GLIBC_SUITE=bookworm)" : "");
        }
      else
        {
          /* RHEL 9's backport into 2.34, or a distribution's change.  */
          snprintf (cause, cause_len, "%s registers 32 bytes", libc);
          snprintf (fix, fix_len, "a C library that registers the "
                    "kernel's feature size, as glibc 2.41 and later do");
        }
    }
  else if (owner != NULL && strcmp (owner, "librseq-compat") == 0)
    {
      /* The shim's own rule, which its legacy_fallback query reports
         for the calling process only.  */
      struct rseq_layout l;
      rseq_layout_compute (&l, r->at_feature_size, r->at_align);
      unsigned int need = l.alloc_size, align = l.align;
      if (rseq_layout_fit (&l, RSEQ_COMPAT_AREA_SIZE, RSEQ_COMPAT_AREA_ALIGN))
        {
          snprintf (cause, cause_len, "the kernel's feature size %lu needs "
                    "%u bytes at %u-byte alignment, more than "
                    "librseq-compat's %u-byte area at %u-byte alignment "
                    "holds, so it registers the legacy 32 bytes",
                    r->at_feature_size, need, align, RSEQ_COMPAT_AREA_SIZE,
                    RSEQ_COMPAT_AREA_ALIGN);
          snprintf (fix, fix_len, "a newer rseq-compat, whose area holds "
                    "%u bytes at %u-byte alignment", need, align);
        }
      else
        {
          snprintf (cause, cause_len, "this librseq-compat registers 32 "
                    "bytes, though the kernel's feature size %lu fits the "
                    "%u-byte area of this release (another release or build "
                    "of rseq-compat?)", r->at_feature_size,
                    RSEQ_COMPAT_AREA_SIZE);
          snprintf (fix, fix_len, "rseq-compat of this release, which "
                    "registers %u bytes here", l.reg_len);
        }
    }
  else if (owner != NULL && strcmp (owner, "unknown") == 0)
    {
      snprintf (cause, cause_len, "an area registered with 32 bytes by "
                "the C library (a static glibc 2.35 to 2.40 always "
                "registers 32) or by the program itself: with no __rseq_* "
                "symbols the two cannot be told apart");
      snprintf (fix, fix_len, "for a static glibc, relinking with glibc "
                "2.41 or later; for an area of the program's own, the code "
                "that registers it must register the kernel's feature size "
                "(%lu bytes at %lu-byte alignment)", r->at_feature_size,
                r->at_align);
    }
  else
    {
      snprintf (cause, cause_len, "an area of the program's own (%s), "
                "not the C library's or librseq-compat's, registered with "
                "32 bytes", detail[0] != '\0' ? detail : "owner unknown");
      snprintf (fix, fix_len, "the code that registers it must register "
                "the kernel's feature size (%lu bytes at %lu-byte "
                "alignment); tcmalloc keeps 32 bytes on purpose, it relies "
                "on the legacy mode", r->at_feature_size, r->at_align);
    }
}

/* Mode and advice for a registration of LEN bytes by OWNER.  */
static const char *
derive_kernel_mode (const struct info_report *r, uint32_t len,
                    const char *owner, const char *detail, char *cause,
                    size_t cause_len, char *fix, size_t fix_len)
{
  const char *mode = kernel_mode (r, len);
  cause[0] = fix[0] = '\0';
  if (mode != NULL && r->kernel_optimized && strcmp (mode, "legacy") == 0)
    legacy_advice (r, owner, detail, cause, cause_len, fix, fix_len);
  return mode;
}

/* Whether RELEASE (uname -r) is Linux 6.19 or 7.0.  Their rseq rewrite
   stopped rewriting cpu_id_start after every preemption, for every
   registration; tcmalloc keeps a pointer in that field and relies on
   the rewrite.  The fix series ("rseq: Reenable performance
   optimizations conditionally", Linux 7.1, marked for stable) gives
   32-byte registrations the old behaviour back.  A stable release with
   the fix cannot be told from one without it by its number.  */
int
info_kernel_drops_legacy_rewrite (const char *release)
{
  int major, minor;
  if (sscanf (release, "%d.%d", &major, &minor) != 2)
    return 0;
  return (major == 6 && minor == 19) || (major == 7 && minor == 0);
}

/* An area of the program's own registered with 32 bytes (tcmalloc's
   kind) on such a kernel: the one case where the usual advice, to turn
   the C library's registration off for tcmalloc, is wrong.  */
static void
derive_legacy_warning (struct info_report *r)
{
  size_t n = 0;
  for (size_t i = 0; i < r->nthreads; i++)
    n += r->threads[i].state == TS_REGISTERED
         && r->threads[i].length == RSEQ_LAYOUT_LEGACY_LEN
         && r->threads[i].owner != NULL
         && strcmp (r->threads[i].owner, "other") == 0;
  if (n == 0 || !info_kernel_drops_legacy_rewrite (r->kernel))
    return;
  size_t len = strlen (r->warning);
  snprintf (r->warning + len, sizeof r->warning - len, "%s%zu thread%s "
            "registered an area of the program's own with 32 bytes "
            "(tcmalloc's kind) on Linux %s: 6.19 and 7.0 kernels without "
            "the fix series \"rseq: Reenable performance optimizations "
            "conditionally\" (Linux 7.1; look for it in a stable kernel's "
            "changelog) no longer rewrite cpu_id_start after each "
            "preemption, which tcmalloc relies on.  Keep the C library's "
            "or librseq-compat's registration (no glibc.pthread.rseq=0), "
            "so that tcmalloc's own fails and it falls back, or run a "
            "kernel with the fix", len > 0 ? "; " : "", n,
            n == 1 ? "" : "s", r->kernel);
}

void
info_derive (struct info_report *r)
{
  r->mode = derive_mode (r);
  if (r->getcpu_impl == NULL)
    r->getcpu_impl = r->shim[0] != '\0' && strcmp (r->mode, "refused") != 0
                     ? "librseq-compat" : r->libc;
  derive_reason (r);
  r->reg_len = derive_reg_len (r);
  int unknown_owner = unattributed (r) != NULL;
  r->reg_owner = r->reg_len == 0 ? NULL
                 : unknown_owner ? "unknown"
                 : strcmp (r->mode, "libc-owned") == 0 ? "libc"
                 : "librseq-compat";
  /* Whether it has the optimized mode at all: for the longest length.  */
  r->kernel_optimized = rseq_layout_optimized (r->at_feature_size,
                                               UINT32_MAX);
  r->kernel_mode = derive_kernel_mode (r, r->reg_len,
                                       r->reg_owner != NULL ? r->reg_owner
                                       : "librseq-compat", "",
                                       r->legacy_cause,
                                       sizeof r->legacy_cause, r->legacy_fix,
                                       sizeof r->legacy_fix);

  size_t live = 0, fast = 0, unread = 0;
  for (size_t i = 0; i < r->nthreads; i++)
    {
      struct info_thread *t = &r->threads[i];
      /* Where no area can be attributed, nothing tells an area of the
         C library's from one of the program's own: the thread's owner
         is not known either (the row says where the area lies).  */
      if (unknown_owner && t->state == TS_REGISTERED && t->owner != NULL
          && strcmp (t->owner, "other") == 0)
        t->owner = "unknown";
      t->fast = thread_fast (r, t);
      /* Where no area can be attributed, no thread's advice may claim
         the area is the program's own.  */
      t->kernel_mode = derive_kernel_mode (r, t->state == TS_REGISTERED
                                           ? t->length : 0, unknown_owner
                                           ? "unknown" : t->owner,
                                           t->owner_detail, t->legacy_cause,
                                           sizeof t->legacy_cause,
                                           t->legacy_fix,
                                           sizeof t->legacy_fix);
      if (t->state == TS_REGISTERED || t->state == TS_UNREGISTERED)
        {
          live++;
          fast += t->fast;
        }
      unread += t->state == TS_UNKNOWN;
    }
  r->sched_getcpu_fast = live > 0 && fast == live;
  derive_legacy_warning (r);
  const char *slow =
#if defined __aarch64__
    "the getcpu system call";
#else
    "the vDSO's getcpu";
#endif
  if (strcmp (r->getcpu_impl, "unknown") == 0)
    snprintf (r->sched_getcpu, sizeof r->sched_getcpu, "not known: no C "
              "library known (a static program without symbols, one that "
              "needs none, or one whose C library's files cannot be read); "
              "a static glibc 2.35 or later loads cpu_id, others ask %s",
              slow);
  else if (live == 0 && unread > 0)
    snprintf (r->sched_getcpu, sizeof r->sched_getcpu, "not known: no "
              "thread could be read (%s's sched_getcpu loads cpu_id in a "
              "thread whose published area is registered, else asks %s)",
              r->getcpu_impl, slow);
  else if (r->sched_getcpu_fast)
    snprintf (r->sched_getcpu, sizeof r->sched_getcpu, "fast path: one "
              "load of cpu_id (%s's sched_getcpu)", r->getcpu_impl);
  else if (fast > 0)
    snprintf (r->sched_getcpu, sizeof r->sched_getcpu, "fast path in %zu "
              "of %zu threads (%s's sched_getcpu); the others ask %s", fast,
              live, r->getcpu_impl, slow);
  else
    snprintf (r->sched_getcpu, sizeof r->sched_getcpu, "slow path: %s's "
              "sched_getcpu asks %s", r->getcpu_impl, slow);
  if (live > 0 && unread > 0)
    {
      size_t len = strlen (r->sched_getcpu);
      snprintf (r->sched_getcpu + len, sizeof r->sched_getcpu - len,
                "; %zu thread%s not read", unread, unread == 1 ? "" : "s");
    }
}
