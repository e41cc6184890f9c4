/* Unit test of rseq-compat info's kernel modes and their advice.
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

/* Linked with shim/cmd's derive.c, print-text.c and print-json.c: the
   kernels the host cannot boot (Linux 7.0 and later, which have the
   optimized mode; one that asks for more than the shim's area) and
   registrations no process here makes, as reports a collector would
   fill in, then the text and the JSON compared with what they must say,
   exactly.  Only the collected fields are set: what the kernel runs each
   registration in, and why, is the code's to derive.  */

#include "rtest.h"
#include "info-json.h"

#include "cmd/derive.h"
#include "cmd/print.h"
#include "cmd/report.h"

#define GLIBC_CAUSE(v) \
  "glibc " v " registers 32 bytes (glibc 2.35 to 2.40 always do)"
#define GLIBC_236_FIX \
  "glibc 2.41 or later, or rseq-compat's glibc 2.36 patch series " \
  "(make glibc GLIBC_SUITE=bookworm)"
#define ONLY_MODE \
  "legacy mode (the only one before Linux 7.0: IDs rewritten after " \
  "every preemption)"
#define LEGACY_ON_7 \
  "legacy mode (IDs rewritten after every preemption; this kernel runs " \
  "lengths above 32 in its optimized mode)"
#define OPTIMIZED \
  "optimized mode (IDs written only when they change; user writes to " \
  "them kill the process)"
#define FALLBACK_CAUSE \
  "the kernel's feature size 70 needs 128 bytes at 128-byte alignment, " \
  "more than librseq-compat's 64-byte area at 64-byte alignment holds, " \
  "so it registers the legacy 32 bytes"
#define FALLBACK_FIX \
  "a newer rseq-compat, whose area holds 128 bytes at 128-byte alignment"
#define OLD_SHIM_CAUSE \
  "this librseq-compat registers 32 bytes, though the kernel's feature " \
  "size 33 fits the 64-byte area of this release (another release or " \
  "build of rseq-compat?)"
#define OLD_SHIM_FIX \
  "rseq-compat of this release, which registers 33 bytes here"
#define TCMALLOC \
  "thread-local __rseq_abi, defined by /usr/lib/libtcmalloc.so.4 " \
  "(tcmalloc and librseq register one)"
#define TCMALLOC_CAUSE \
  "an area of the program's own (" TCMALLOC "), not the C library's or " \
  "librseq-compat's, registered with 32 bytes"
#define TCMALLOC_FIX \
  "the code that registers it must register the kernel's feature size " \
  "(33 bytes at 64-byte alignment); tcmalloc keeps 32 bytes on purpose, " \
  "it relies on the legacy mode"
/* A static program: no __rseq_* symbols, so its threads' areas, owner
   "other" to the thread table, may as well be a static glibc's.  */
#define UNKNOWN_OWNER \
  "not known: the C library or the program itself (2 of 2 threads with " \
  "this length)"
#define UNKNOWN_CAUSE \
  "an area registered with 32 bytes by the C library (a static glibc " \
  "2.35 to 2.40 always registers 32) or by the program itself: with no " \
  "__rseq_* symbols the two cannot be told apart"
#define UNKNOWN_FIX \
  "for a static glibc, relinking with glibc 2.41 or later; for an area " \
  "of the program's own, the code that registers it must register the " \
  "kernel's feature size (33 bytes at 64-byte alignment)"

struct tcase
{
  const char *what;
  /* Collected.  */
  unsigned long int feature, align;
  const char *libc, *version;
  uint32_t libc_size;		/* glibc's __rseq_size; 0: no glibc ABI.  */
  int libc_off;			/* glibc.pthread.rseq=0.  */
  uint32_t shim_size;		/* The shim's __rseq_size; 0: no shim.  */
  struct
  {
    uint32_t len;		/* 0: not known (--no-stop).  */
    const char *owner, *detail;
  } t[2];
  /* Expected, of the process, then of each thread.  */
  const char *mode, *cause, *fix;
  const char *t_mode[2], *t_cause[2], *t_fix[2];
  /* Whole lines of the text, and strings it must not have.  */
  const char *lines[4];
  const char *absent;
};

static const struct tcase cases[] =
  {
    { "Linux 7.2, glibc 2.36 (Debian 12)", 33, 64, "glibc", "2.36", 20, 0,
      0, { { 32, "libc", "" }, { 32, "libc", "" } },
      "legacy", GLIBC_CAUSE ("2.36"), GLIBC_236_FIX,
      { "legacy", "legacy" }, { GLIBC_CAUSE ("2.36"), GLIBC_CAUSE ("2.36") },
      { GLIBC_236_FIX, GLIBC_236_FIX },
      { "  registration     length 32: " LEGACY_ON_7,
        "  why legacy       " GLIBC_CAUSE ("2.36"),
        "  fix              " GLIBC_236_FIX,
        "      4243 registered   0x7f0000011000       32 legacy    "
        "0x53053053      0 libc                3    0      1 t1" },
      /* The process's rows cover its threads.  */
      " why legacy: " },
    { "Linux 7.2, glibc 2.39 (as released)", 33, 64, "glibc", "2.39", 32, 0,
      0, { { 32, "libc", "" }, { 32, "libc", "" } },
      "legacy", GLIBC_CAUSE ("2.39"), "glibc 2.41 or later",
      { "legacy", "legacy" }, { GLIBC_CAUSE ("2.39"), GLIBC_CAUSE ("2.39") },
      { "glibc 2.41 or later", "glibc 2.41 or later" },
      { "  registration     length 32: " LEGACY_ON_7,
        "  why legacy       " GLIBC_CAUSE ("2.39"),
        "  fix              glibc 2.41 or later" },
      "patch series" },
    { "Linux 7.2, glibc 2.41", 33, 64, "glibc", "2.41", 33, 0, 0,
      { { 33, "libc", "" }, { 33, "libc", "" } },
      "optimized", NULL, NULL,
      { "optimized", "optimized" }, { NULL, NULL }, { NULL, NULL },
      { "  registration     length 33: " OPTIMIZED,
        "      4242 registered   0x7f0000010000       33 optimized "
        "0x53053053      0 libc                3    0      1 main" },
      "why legacy" },
    { "Linux 6.18, glibc 2.36", 28, 32, "glibc", "2.36", 20, 0, 0,
      { { 32, "libc", "" }, { 32, "libc", "" } },
      "legacy", NULL, NULL,
      { "legacy", "legacy" }, { NULL, NULL }, { NULL, NULL },
      { "  registration     length 32: " ONLY_MODE },
      "why legacy" },
    { "Linux 5.10 (no auxv), glibc 2.36", 0, 0, "glibc", "2.36", 20, 0, 0,
      { { 32, "libc", "" }, { 32, "libc", "" } },
      "legacy", NULL, NULL,
      { "legacy", "legacy" }, { NULL, NULL }, { NULL, NULL },
      { "  registration     length 32: " ONLY_MODE },
      "why legacy" },
    { "Linux 6.18, musl with the shim", 28, 32, "musl", "1.2.3", 0, 0, 28,
      { { 32, "librseq-compat", "" }, { 32, "librseq-compat", "" } },
      "legacy", NULL, NULL,
      { "legacy", "legacy" }, { NULL, NULL }, { NULL, NULL },
      { "  registration     length 32: " ONLY_MODE },
      "why legacy" },
    /* Linux 6.3 to 6.19 accept lengths above 32 and run them as any.  */
    { "Linux 6.18, an area of the program's own, 64 bytes", 28, 32, "musl",
      "1.2.3", 0, 0, 0, { { 64, "other", "static data of /usr/bin/prog" },
                          { 0, NULL, NULL } },
      NULL, NULL, NULL,
      { "legacy", NULL }, { NULL, NULL }, { NULL, NULL },
      { "  registration     none",
        "      4242 registered   0x7f0000010000       64 legacy    "
        "0x53053053      0 other               3    0      1 main" },
      "optimized" },
    /* 70 bytes need 128 at 128-byte alignment: more than the shim's 64.  */
    { "a kernel asking for more than the shim's area, musl with the shim",
      70, 128, "musl", "1.2.3", 0, 0, 28,
      { { 32, "librseq-compat", "" }, { 32, "librseq-compat", "" } },
      "legacy", FALLBACK_CAUSE, FALLBACK_FIX,
      { "legacy", "legacy" }, { FALLBACK_CAUSE, FALLBACK_CAUSE },
      { FALLBACK_FIX, FALLBACK_FIX },
      { "  registration     length 32: " LEGACY_ON_7,
        "  why legacy       " FALLBACK_CAUSE,
        "  fix              " FALLBACK_FIX },
      " why legacy: " },
    { "Linux 7.2, a shim that registered 32 bytes", 33, 64, "musl", "1.2.3",
      0, 0, 28, { { 32, "librseq-compat", "" }, { 0, NULL, NULL } },
      "legacy", OLD_SHIM_CAUSE, OLD_SHIM_FIX,
      { "legacy", NULL }, { OLD_SHIM_CAUSE, NULL }, { OLD_SHIM_FIX, NULL },
      { "  registration     length 32: " LEGACY_ON_7 },
      NULL },
    /* glibc's registration off so that tcmalloc can register its own.  */
    { "Linux 7.2, glibc 2.36 off, tcmalloc's area", 33, 64, "glibc", "2.36",
      0, 1, 0, { { 32, "other", TCMALLOC }, { 0, NULL, NULL } },
      NULL, NULL, NULL,
      { "legacy", NULL }, { TCMALLOC_CAUSE, NULL }, { TCMALLOC_FIX, NULL },
      { "  registration     none",
        "      4242 why legacy: " TCMALLOC_CAUSE "; fix: " TCMALLOC_FIX },
      "  fix " },
    /* A static program: the process's rows give what the threads show,
       not "none", and no owner is claimed.  */
    { "Linux 6.18, a static program", 28, 32, "unknown", "", 0, 0, 0,
      { { 32, "other", "[heap]" }, { 32, "other", "[heap]" } },
      "legacy", NULL, NULL,
      { "legacy", "legacy" }, { NULL, NULL }, { NULL, NULL },
      { "  registration     length 32: " ONLY_MODE,
        "  registered by    " UNKNOWN_OWNER },
      "registration     none" },
    { "Linux 7.2, a static program", 33, 64, "unknown", "", 0, 0, 0,
      { { 32, "other", "[heap]" }, { 32, "other", "[heap]" } },
      "legacy", UNKNOWN_CAUSE, UNKNOWN_FIX,
      { "legacy", "legacy" }, { UNKNOWN_CAUSE, UNKNOWN_CAUSE },
      { UNKNOWN_FIX, UNKNOWN_FIX },
      { "  registration     length 32: " LEGACY_ON_7,
        "  registered by    " UNKNOWN_OWNER,
        "  why legacy       " UNKNOWN_CAUSE,
        "  fix              " UNKNOWN_FIX },
      /* The process's rows cover its threads.  */
      " why legacy: " },
    /* --no-stop: the lengths are not known, the process's is predicted
       from glibc's __rseq_size.  */
    { "Linux 7.2, glibc 2.36, --no-stop", 33, 64, "glibc", "2.36", 20, 0, 0,
      { { 0, "libc", "" }, { 0, "libc", "" } },
      "legacy", GLIBC_CAUSE ("2.36"), GLIBC_236_FIX,
      { NULL, NULL }, { NULL, NULL }, { NULL, NULL },
      { "  registration     length 32: " LEGACY_ON_7,
        "  why legacy       " GLIBC_CAUSE ("2.36"),
        "      4243 registered   0x7f0000011000        - -         "
        "-               - libc                3    0      1 t1" },
      NULL },
  };

static void
fill (struct info_report *r, const struct tcase *c)
{
  memset (r, 0, sizeof *r);
  r->pid = 4242;
  snprintf (r->comm, sizeof r->comm, "prog");
  snprintf (r->exe, sizeof r->exe, "/usr/bin/prog");
  snprintf (r->libc, sizeof r->libc, "%s", c->libc);
  snprintf (r->libc_version, sizeof r->libc_version, "%s", c->version);
  snprintf (r->kernel, sizeof r->kernel, "test");
  r->at_feature_size = c->feature;
  r->at_align = c->align;
  r->seccomp = 0;
  if (strcmp (c->libc, "glibc") == 0)
    {
      r->libc_abi = 1;
      r->libc_offset = 2336;
      r->libc_size = c->libc_size;
    }
  if (c->libc_off)
    {
      snprintf (r->tunables, sizeof r->tunables, "glibc.pthread.rseq=0");
      r->have_tunables = r->tunable_off = 1;
    }
  if (c->shim_size != 0)
    {
      snprintf (r->shim, sizeof r->shim, "/usr/lib/librseq-compat.so.1");
      r->shim_abi = 1;
      r->shim_offset = -128;
      r->shim_size = c->shim_size;
    }
  r->shim_reg_len = -1;
  info_pick_abi (r);
  r->threads_source = "ptrace";
  r->method = "stop";
  static struct info_thread threads[2];
  memset (threads, 0, sizeof threads);
  r->threads = threads;
  for (size_t i = 0; i < 2 && c->t[i].owner != NULL; i++)
    {
      struct info_thread *t = &threads[r->nthreads++];
      t->tid = 4242 + (pid_t) i;
      snprintf (t->name, sizeof t->name, i == 0 ? "main" : "t%zu", i);
      t->state = TS_REGISTERED;
      t->area = 0x7f0000010000ull + 0x1000 * i;
      t->length = c->t[i].len;
      t->signature = RSEQ_SIG;
      t->have_signature = t->length != 0;
      t->owner = c->t[i].owner;
      snprintf (t->owner_detail, sizeof t->owner_detail, "%s",
                c->t[i].detail);
      t->have_fields = t->have_node = 1;
      t->cpu_id = 3;
      t->mm_cid = 1;
    }
}

static char *
print (void (*fn) (FILE *, const struct info_report *),
       const struct info_report *r)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  if (f == NULL)
    return NULL;
  fputc ('\n', f);
  fn (f, r);
  fclose (f);
  return buf;
}

static void
want (const struct tcase *c, const char *where, const struct jval *o,
      const char *key, const char *value)
{
  const struct jval *v = o != NULL ? json_get (o, key) : NULL;
  int ok = v != NULL && (value == NULL ? v->type == J_NULL
                         : v->type == J_STR && strcmp (v->s, value) == 0);
  CHECK (ok, "%s: %s \"%s\" is %s, expected %s%s%s", c->what, where, key,
         v == NULL ? "absent" : v->type == J_STR ? v->s
         : v->type == J_NULL ? "null" : "not a string",
         value != NULL ? "\"" : "", value != NULL ? value : "null",
         value != NULL ? "\"" : "");
}

int
main (void)
{
  static struct info_report r;
  for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++)
    {
      const struct tcase *c = &cases[n];
      int failures = rt_failures;
      fill (&r, c);
      info_derive (&r);

      char *json = print (print_json, &r);
      const char *err = NULL;
      struct jval *j = json != NULL ? json_parse (json, &err) : NULL;
      CHECK (j != NULL && j->type == J_OBJ, "%s: JSON: %s", c->what,
             err != NULL ? err : "no object");
      if (j == NULL || j->type != J_OBJ)
        {
          json_free (j);
          free (json);
          continue;
        }
      want (c, "process", j, "kernel_mode", c->mode);
      want (c, "process", j, "legacy_cause", c->cause);
      want (c, "process", j, "legacy_fix", c->fix);
      const struct jval *has = json_get (j, "kernel_has_optimized_mode");
      CHECK (has != NULL && has->type == J_BOOL
             && has->i == (c->feature > 32),
             "%s: kernel_has_optimized_mode", c->what);
      const struct jval *threads = json_get (j, "threads");
      CHECK (threads != NULL && threads->n == r.nthreads, "%s: threads",
             c->what);
      for (size_t i = 0; threads != NULL && i < threads->n; i++)
        {
          want (c, "thread", &threads->items[i], "kernel_mode",
                c->t_mode[i]);
          want (c, "thread", &threads->items[i], "legacy_cause",
                c->t_cause[i]);
          want (c, "thread", &threads->items[i], "legacy_fix",
                c->t_fix[i]);
        }

      char *text = print (print_text, &r);
      for (size_t i = 0; text != NULL && i < 4 && c->lines[i] != NULL; i++)
        {
          size_t len = strlen (c->lines[i]);
          char *line = malloc (len + 3);
          snprintf (line, len + 3, "\n%s\n", c->lines[i]);
          CHECK (strstr (text, line) != NULL, "%s: text lacks the line "
                 "\"%s\"", c->what, c->lines[i]);
          free (line);
        }
      if (text != NULL && c->absent != NULL)
        CHECK (strstr (text, c->absent) == NULL, "%s: text has \"%s\"",
               c->what, c->absent);
      if (rt_failures != failures)
        fprintf (stderr, "-- %s:%s--%s", c->what, text, json);
      free (text);
      free (json);
      json_free (j);
    }
  /* The warning for tcmalloc's kind of area on the kernels whose rseq
     rewrite dropped the legacy behaviour (6.19 and 7.0): from the
     tcmalloc case above, with other kernels, owners and lengths.  */
  static const struct
  {
    const char *kernel, *owner;
    uint32_t len;
    int warn;
  } kcases[] =
    {
      { "6.19.3-arch1-1", "other", 32, 1 },
      { "7.0.0", "other", 32, 1 },
      { "7.0", "other", 32, 1 },
      { "7.1.0-rc2", "other", 32, 0 },
      { "6.18.44-fc-v669", "other", 32, 0 },
      { "6.1.0-28-amd64", "other", 32, 0 },
      { "16.19.0", "other", 32, 0 },
      { "6.190.1", "other", 32, 0 },
      { "test", "other", 32, 0 },
      { "6.19.3", "other", 64, 0 },
      { "6.19.3", "libc", 32, 0 },
      { "6.19.3", "librseq-compat", 32, 0 },
    };
  const struct tcase *tc = NULL;
  for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++)
    if (strstr (cases[n].what, "tcmalloc's area") != NULL)
      tc = &cases[n];
  CHECK (tc != NULL, "the tcmalloc case is in the table");
  for (size_t n = 0; tc != NULL && n < sizeof kcases / sizeof kcases[0]; n++)
    {
      fill (&r, tc);
      snprintf (r.kernel, sizeof r.kernel, "%s", kcases[n].kernel);
      r.threads[0].owner = kcases[n].owner;
      r.threads[0].length = kcases[n].len;
      info_derive (&r);
      char want[64];
      snprintf (want, sizeof want, "on Linux %s: 6.19 and 7.0 kernels",
                kcases[n].kernel);
      int has = strstr (r.warning, want) != NULL
                && strstr (r.warning, "no glibc.pthread.rseq=0") != NULL
                && strncmp (r.warning, "1 thread registered", 19) == 0;
      CHECK (kcases[n].warn ? has : r.warning[0] == '\0',
             "Linux %s, %s's %u-byte area: %s (warning: \"%s\")",
             kcases[n].kernel, kcases[n].owner, kcases[n].len,
             kcases[n].warn ? "warns" : "no warning", r.warning);
      if (kcases[n].warn)
        {
          char *json = print (print_json, &r);
          const char *err = NULL;
          struct jval *j = json != NULL ? json_parse (json, &err) : NULL;
          const struct jval *w = j != NULL ? json_get (j, "warning") : NULL;
          CHECK (w != NULL && w->type == J_STR
                 && strcmp (w->s, r.warning) == 0,
                 "Linux %s: the JSON report has the warning",
                 kcases[n].kernel);
          json_free (j);
          free (json);
        }
    }
  /* The JSON of a static program says the same as its text: the
     threads' length, whose not known.  */
  for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++)
    if (strstr (cases[n].what, "a static program") != NULL)
      {
        fill (&r, &cases[n]);
        info_derive (&r);
        char *json = print (print_json, &r);
        const char *err = NULL;
        struct jval *j = json != NULL ? json_parse (json, &err) : NULL;
        const struct jval *len = j != NULL
                                 ? json_get (j, "registration_length") : NULL;
        CHECK (len != NULL && len->type == J_INT && len->i == 32,
               "%s: registration_length is not 32", cases[n].what);
        want (&cases[n], "process", j, "registration_owner", "unknown");
        want (&cases[n], "process", j, "mode", "none");
        json_free (j);
        free (json);
      }
  /* The registration line does not claim the IDs are rewritten on
     those kernels.  */
  const struct tcase *g = NULL;
  for (size_t n = 0; n < sizeof cases / sizeof cases[0]; n++)
    if (strcmp (cases[n].what, "Linux 6.18, glibc 2.36") == 0)
      g = &cases[n];
  CHECK (g != NULL, "the Linux 6.18, glibc 2.36 case is in the table");
  static const char *const releases[] = { "6.19.3", "7.0.1", "6.18.44" };
  for (size_t n = 0; g != NULL && n < 3; n++)
    {
      fill (&r, g);
      snprintf (r.kernel, sizeof r.kernel, "%s", releases[n]);
      info_derive (&r);
      char *text = print (print_text, &r);
      int caveat = text != NULL
                   && strstr (text, "but not on 6.19 and 7.0 kernels") != NULL;
      int plain = text != NULL
                  && strstr (text, "the only one before Linux 7.0") != NULL;
      CHECK (n < 2 ? caveat && !plain : plain && !caveat,
             "Linux %s, glibc's 32 bytes: the registration line %s",
             releases[n], n < 2 ? "has the 6.19/7.0 caveat"
             : "is the plain legacy one");
      free (text);
    }
  return rt_exit_status ();
}
