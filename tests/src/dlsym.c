/* dlsym finds the published values; other lookups are unchanged.
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

/* The program is not linked with the shim.  It checks that
   - its weak references to __rseq_* find definitions at run time, with
     the expected values, in every configuration (the shim's where the C
     library has none: musl, glibc before 2.35);
   - dlsym (RTLD_DEFAULT) finds the same;
   - dlsym (RTLD_NEXT, "__rseq_*") from libnext.so, a DT_NEEDED library
     loaded after the preloaded shim, finds a definition with the
     expected values (the way librseq and the kernel's selftests look
     for a C library registration);
   - the shim's dlsym leaves every other lookup alone: RTLD_NEXT from
     the program and from libnext.so for a name defined by the program,
     libnext.so and libnext2.so, for a libc function, for a missing name
     (NULL and a dlerror message), and lookups in dlopen handles.

   argv[1] is the directory of libnext2.so, argv[2] the shim.  */

#include "rtest.h"

extern const ptrdiff_t __rseq_offset __attribute__ ((weak));
extern const unsigned int __rseq_size __attribute__ ((weak));
extern const unsigned int __rseq_flags __attribute__ ((weak));

void *next_lookup (const char *name);
void *next_lookup_error (const char *name, const char **error);
const void *next_weak (int which);

#define KEEP(p) __asm__ ("" : "+r" (p))

typedef const char *dup_fn (void);

/* Also defined in libnext.so and libnext2.so; exported (-rdynamic).  */
const char *
dlsym_dup (void)
{
  return "main";
}

static const char *
call_dup (void *fn)
{
  return fn != NULL ? ((dup_fn *) fn) () : "(null)";
}

static void
check_missing (const char *who, const char *name, void *p,
               const char *error)
{
  CHECK (p == NULL, "%s: dlsym (RTLD_NEXT, \"%s\") = %p", who, name, p);
  /* The C library's own behaviour, which the shim must keep: before
     glibc 2.24 a failed RTLD_NEXT lookup left dlerror empty (glibc bug
     19509).  */
  if (rt_glibc_before ("2.24"))
    CHECK (error == NULL,
           "%s: dlerror after dlsym (RTLD_NEXT, \"%s\"): %s, where this "
           "glibc itself reports nothing", who, name, error);
  else
    CHECK (error != NULL && strstr (error, name) != NULL,
           "%s: dlerror after dlsym (RTLD_NEXT, \"%s\"): %s", who, name,
           error != NULL ? error : "(null)");
}

int
main (int argc, char **argv)
{
  CHECK (argc == 3, "usage: dlsym LIBDIR SHIM");
  if (argc != 3)
    return rt_exit_status ();

  struct rt_abi abi = rt_abi ();
  CHECK (abi.offset != NULL && abi.size != NULL && abi.flags != NULL,
         "dlsym (RTLD_DEFAULT): __rseq_offset %p, __rseq_size %p, "
         "__rseq_flags %p", (void *) abi.offset, (void *) abi.size,
         (void *) abi.flags);
  if (abi.offset == NULL || abi.size == NULL || abi.flags == NULL)
    return rt_exit_status ();

  unsigned int expected = rt_expected_size ();
  const char *mode = rt_shim_mode ();
  CHECK (strcmp (mode, rt_expect ()) == 0, "mode %s, expected %s", mode,
         rt_expect ());
  CHECK (*abi.size == expected, "dlsym (RTLD_DEFAULT): __rseq_size %u, "
         "expected %u", *abi.size, expected);
  CHECK (*abi.flags == 0, "dlsym (RTLD_DEFAULT): __rseq_flags %u",
         *abi.flags);
  /* glibc's offset where glibc has the ABI (2.35+), else the shim's own
     area (glibc 2.31, musl).  */
  rt_check_offset ("dlsym (RTLD_DEFAULT)", *abi.offset);
  int libc_abi = rt_libc_has_abi ();

  /* Weak references of the program and of libnext.so.  */
  const ptrdiff_t *w_offset = &__rseq_offset;
  const unsigned int *w_size = &__rseq_size;
  const unsigned int *w_flags = &__rseq_flags;
  KEEP (w_offset);
  KEEP (w_size);
  KEEP (w_flags);
  const void *weak[2][3] =
    {
      { w_offset, w_size, w_flags },
      { next_weak (0), next_weak (1), next_weak (2) },
    };
  const void *dflt[3] = { abi.offset, abi.size, abi.flags };
  for (int who = 0; who < 2; who++)
    {
      const char *name = who ? "libnext.so" : "program";
      for (int i = 0; i < 3; i++)
        {
          CHECK (weak[who][i] != NULL, "%s: weak reference %d is null", name,
                 i);
          /* musl and glibc 2.31 have none of their own: they must be
             the shim's.  On glibc 2.35+ an unversioned reference may
             bind to the shim's or, from a link that saw ld.so's, to
             glibc's: the values decide.  */
          if (!libc_abi)
            CHECK (weak[who][i] == dflt[i],
                   "%s: weak reference %d at %p, dlsym (RTLD_DEFAULT) %p",
                   name, i, weak[who][i], dflt[i]);
        }
      const ptrdiff_t *o = weak[who][0];
      const unsigned int *z = weak[who][1];
      const unsigned int *f = weak[who][2];
      if (o != NULL && z != NULL && f != NULL)
        {
          CHECK (*o == *abi.offset, "%s: weak __rseq_offset %td, dlsym %td",
                 name, *o, *abi.offset);
          CHECK (*z == expected, "%s: weak __rseq_size %u, expected %u",
                 name, *z, expected);
          CHECK (*f == 0, "%s: weak __rseq_flags %u", name, *f);
        }
    }

  /* RTLD_NEXT from a library loaded after the shim.  */
  const ptrdiff_t *n_offset = next_lookup ("__rseq_offset");
  const unsigned int *n_size = next_lookup ("__rseq_size");
  const unsigned int *n_flags = next_lookup ("__rseq_flags");
  CHECK (n_offset != NULL && n_size != NULL && n_flags != NULL,
         "libnext.so: dlsym (RTLD_NEXT): __rseq_offset %p, __rseq_size %p, "
         "__rseq_flags %p", (void *) n_offset, (void *) n_size,
         (void *) n_flags);
  if (n_offset != NULL && n_size != NULL && n_flags != NULL)
    {
      CHECK (*n_size == expected, "libnext.so: dlsym (RTLD_NEXT, "
             "\"__rseq_size\") %u, expected %u", *n_size, expected);
      CHECK (*n_offset == *abi.offset, "libnext.so: dlsym (RTLD_NEXT, "
             "\"__rseq_offset\") %td, expected %td", *n_offset, *abi.offset);
      CHECK (*n_flags == 0, "libnext.so: dlsym (RTLD_NEXT, "
             "\"__rseq_flags\") %u", *n_flags);
      if (libc_abi)
        /* Nothing after libnext.so but glibc defines them.  */
        CHECK ((const void *) n_size == (const void *) rt_glibc_size (),
               "libnext.so: dlsym (RTLD_NEXT, \"__rseq_size\") %p, "
               "glibc's %p", (void *) n_size, (void *) rt_glibc_size ());
      else
        /* The shim answers for the C library, which has none (musl,
           glibc 2.31).  */
        CHECK (n_offset == abi.offset && n_size == abi.size
               && n_flags == abi.flags,
               "libnext.so: dlsym (RTLD_NEXT) %p %p %p, the shim's %p %p %p",
               (void *) n_offset, (void *) n_size, (void *) n_flags,
               (void *) abi.offset, (void *) abi.size, (void *) abi.flags);
    }

  /* The shim's prefix alone answers nothing.  */
  const char *error;
  void *p = next_lookup_error ("__rseq_no_such_field", &error);
  check_missing ("libnext.so", "__rseq_no_such_field", p, error);

  /* Ordinary RTLD_NEXT lookups.  */
  CHECK (strcmp (dlsym_dup (), "main") == 0, "dlsym_dup () is %s",
         dlsym_dup ());
  const char *s = call_dup (dlsym (RTLD_DEFAULT, "dlsym_dup"));
  CHECK (strcmp (s, "main") == 0,
         "dlsym (RTLD_DEFAULT, \"dlsym_dup\") is %s's, expected main's", s);
  void *from_main = dlsym (RTLD_NEXT, "dlsym_dup");
  KEEP (from_main);
  s = call_dup (from_main);
  CHECK (strcmp (s, "libnext") == 0,
         "program: dlsym (RTLD_NEXT, \"dlsym_dup\") is %s's, expected "
         "libnext's", s);
  s = call_dup (next_lookup ("dlsym_dup"));
  CHECK (strcmp (s, "libnext2") == 0,
         "libnext.so: dlsym (RTLD_NEXT, \"dlsym_dup\") is %s's, expected "
         "libnext2's", s);

  void *getpid_next = next_lookup ("getpid");
  void *getpid_default = dlsym (RTLD_DEFAULT, "getpid");
  CHECK (getpid_next != NULL && getpid_next == getpid_default,
         "libnext.so: dlsym (RTLD_NEXT, \"getpid\") %p, RTLD_DEFAULT %p",
         getpid_next, getpid_default);
  if (getpid_next != NULL)
    CHECK (((pid_t (*) (void)) getpid_next) () == getpid (),
           "getpid through dlsym");

  p = next_lookup_error ("no_such_symbol", &error);
  check_missing ("libnext.so", "no_such_symbol", p, error);
  dlerror ();
  p = dlsym (RTLD_NEXT, "no_such_symbol");
  KEEP (p);
  error = dlerror ();
  check_missing ("program", "no_such_symbol", p, error);

  /* dlopen handles.  */
  char path[4096];
  snprintf (path, sizeof path, "%s/libnext2.so", argv[1]);
  void *h = dlopen (path, RTLD_NOW);
  CHECK (h != NULL, "dlopen %s: %s", path, dlerror ());
  if (h != NULL)
    {
      s = call_dup (dlsym (h, "dlsym_dup"));
      CHECK (strcmp (s, "libnext2") == 0,
             "dlsym (libnext2.so, \"dlsym_dup\") is %s's", s);
      dlerror ();
      p = dlsym (h, "no_such_symbol");
      error = dlerror ();
      CHECK (p == NULL && error != NULL,
             "dlsym (libnext2.so, \"no_such_symbol\") %p, dlerror %s", p,
             error != NULL ? error : "(null)");
      dlclose (h);
    }

  h = dlopen (argv[2], RTLD_NOW | RTLD_NOLOAD);
  CHECK (h != NULL, "dlopen %s (RTLD_NOLOAD): %s", argv[2], dlerror ());
  if (h != NULL)
    {
      const unsigned int *h_size = dlsym (h, "__rseq_size");
      CHECK (h_size == abi.size, "dlsym (shim, \"__rseq_size\") %p, "
             "RTLD_DEFAULT %p", (void *) h_size, (void *) abi.size);
      if (h_size != NULL)
        CHECK (*h_size == expected, "dlsym (shim, \"__rseq_size\") %u, "
               "expected %u", *h_size, expected);
      const char *(*fn) (void) = (const char *(*) (void))
        dlsym (h, "rseq_compat_mode");
      CHECK (fn != NULL && strcmp (fn (), rt_expect ()) == 0,
             "dlsym (shim, \"rseq_compat_mode\") () = %s",
             fn != NULL ? fn () : "(no function)");
      dlclose (h);
    }
  return rt_exit_status ();
}
