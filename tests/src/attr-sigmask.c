/* pthread_attr_setsigmask_np under the shim.
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

/* glibc 2.32 and later start a thread with the signal mask that
   pthread_attr_setsigmask_np stored in its attribute; the shim starts
   the thread with every signal blocked and applies a mask itself once
   the thread is registered, and that mask must be the attribute's.  A
   thread created without one takes its creator's mask.  Prints
   "honoured", or "absent" where the C library has no such function
   (glibc before 2.32, musl: checked, not assumed).  */

#include "rtest.h"

#include <pthread.h>
#include <signal.h>

typedef int setmask_fn (pthread_attr_t *, const sigset_t *);

struct seen
{
  struct rt_abi abi;
  unsigned int len;
  sigset_t mask;
  int cpu_id;
  int registered;
};

/* A handler of a signal the attribute's mask leaves open, pending
   when the thread starts: it may run before the start routine, but
   only on a registered thread where a registration is expected, as
   glibc 2.35 registers before it sets the mask (the ninth review: on
   glibc 2.32 to 2.34 the shim's thread took the mask before its
   registration).  */
static __thread volatile int routine_started;
static struct rt_abi early_abi;
static volatile sig_atomic_t early_runs, early_unregistered;

static void
on_usr1 (int sig)
{
  (void) sig;
  if (routine_started)
    return;
  early_runs++;
  if (early_abi.offset != NULL && rt_cpu_id (&early_abi) < 0)
    early_unregistered++;
}

static void *
thread_main (void *p)
{
  routine_started = 1;
  struct seen *s = p;
  pthread_sigmask (SIG_SETMASK, NULL, &s->mask);
  s->cpu_id = -100;
  s->registered = -1;
  if (s->abi.offset != NULL)
    {
      s->cpu_id = rt_cpu_id (&s->abi);
      s->registered = rt_registered (rt_area (&s->abi), s->len);
    }
  return NULL;
}

static void
run (const char *what, pthread_attr_t *attr, struct seen *s)
{
  memset (s, 0, sizeof *s);
  s->abi = rt_abi ();
  s->len = rt_expected_len ();
  pthread_t t;
  int ret = pthread_create (&t, attr, thread_main, s);
  CHECK (ret == 0, "%s: pthread_create: %s", what, strerror (ret));
  if (ret == 0)
    CHECK (pthread_join (t, NULL) == 0, "%s: pthread_join", what);
  long int ncpu = sysconf (_SC_NPROCESSORS_CONF);
  if (rt_expect_registered ())
    {
      CHECK (s->registered == 1, "%s: area not registered (%d)", what,
             s->registered);
      CHECK (s->cpu_id >= 0 && s->cpu_id < ncpu, "%s: cpu_id %d", what,
             s->cpu_id);
    }
  else
    /* -1: no __rseq_offset to find an area by (a C library alone).  */
    CHECK (s->registered != 1, "%s: area registered in mode %s", what,
           rt_expect ());
}

int
main (void)
{
  /* Without the shim ("alone") there is no mode to ask.  */
  if (strcmp (rt_shim_mode (), "none") != 0)
    CHECK (strcmp (rt_shim_mode (), rt_expect ()) == 0,
           "mode %s, expected %s", rt_shim_mode (), rt_expect ());
  setmask_fn *setmask = (setmask_fn *) dlsym (RTLD_DEFAULT,
                                              "pthread_attr_setsigmask_np");
  if (setmask == NULL)
    {
#ifdef __GLIBC__
      CHECK (rt_glibc_before ("2.32"),
             "pthread_attr_setsigmask_np missing from glibc %s",
             gnu_get_libc_version ());
#endif
      puts ("absent");
      return rt_exit_status ();
    }

  sigset_t creator;
  sigemptyset (&creator);
  sigaddset (&creator, SIGUSR2);
  CHECK (pthread_sigmask (SIG_SETMASK, &creator, NULL) == 0,
         "pthread_sigmask");

  struct seen s;
  run ("no attribute mask", NULL, &s);
  CHECK (sigismember (&s.mask, SIGUSR2) && !sigismember (&s.mask, SIGUSR1),
         "without an attribute mask: the thread's mask is not its "
         "creator's (SIGUSR2 %d, SIGUSR1 %d)", sigismember (&s.mask, SIGUSR2),
         sigismember (&s.mask, SIGUSR1));

  sigset_t want;
  sigemptyset (&want);
  sigaddset (&want, SIGUSR1);
  sigaddset (&want, SIGTERM);
  pthread_attr_t attr;
  pthread_attr_init (&attr);
  CHECK (setmask (&attr, &want) == 0, "pthread_attr_setsigmask_np");
  run ("attribute mask", &attr, &s);
  pthread_attr_destroy (&attr);
  CHECK (sigismember (&s.mask, SIGUSR1) && sigismember (&s.mask, SIGTERM)
         && !sigismember (&s.mask, SIGUSR2),
         "the attribute's mask was not applied: SIGUSR1 %d, SIGTERM %d, "
         "SIGUSR2 %d (want 1, 1, 0)", sigismember (&s.mask, SIGUSR1),
         sigismember (&s.mask, SIGTERM), sigismember (&s.mask, SIGUSR2));

  /* SIGUSR1 pending for the process and blocked here: the new thread,
     whose attribute's mask is empty, takes it as soon as its mask is
     set.  */
  early_abi = rt_abi ();
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction (SIGUSR1, &sa, NULL);
  sigset_t usr1;
  sigemptyset (&usr1);
  sigaddset (&usr1, SIGUSR1);
  pthread_sigmask (SIG_BLOCK, &usr1, NULL);
  sigset_t none;
  sigemptyset (&none);
  pthread_attr_init (&attr);
  CHECK (setmask (&attr, &none) == 0, "pthread_attr_setsigmask_np");
  for (int i = 0; i < 50; i++)
    {
      kill (getpid (), SIGUSR1);
      run ("pending signal, empty attribute mask", &attr, &s);
    }
  pthread_attr_destroy (&attr);
  if (rt_expect_registered ())
    CHECK (early_unregistered == 0, "a handler ran on %d of 50 new threads "
           "before their registration (%d before the start routine)",
           (int) early_unregistered, (int) early_runs);

  /* The default attribute's mask (pthread_setattr_default_np, glibc
     2.32 and later, where the attribute mask is), which a thread
     created without attributes takes: the shim took the creator's
     there before the eleventh review; and the same early handler.  */
  typedef int setdefault_fn (const pthread_attr_t *);
  setdefault_fn *setdefault
    = (setdefault_fn *) dlsym (RTLD_DEFAULT, "pthread_setattr_default_np");
  CHECK (setdefault != NULL, "pthread_setattr_default_np missing where "
         "pthread_attr_setsigmask_np is");
  if (setdefault != NULL)
    {
      pthread_attr_init (&attr);
      CHECK (setmask (&attr, &want) == 0
             && setdefault (&attr) == 0, "pthread_setattr_default_np");
      run ("default attribute mask", NULL, &s);
      CHECK (sigismember (&s.mask, SIGUSR1)
             && sigismember (&s.mask, SIGTERM)
             && !sigismember (&s.mask, SIGUSR2),
             "the default attribute's mask was not applied: SIGUSR1 %d, "
             "SIGTERM %d, SIGUSR2 %d (want 1, 1, 0)",
             sigismember (&s.mask, SIGUSR1), sigismember (&s.mask, SIGTERM),
             sigismember (&s.mask, SIGUSR2));
      early_runs = early_unregistered = 0;
      CHECK (setmask (&attr, &none) == 0 && setdefault (&attr) == 0,
             "pthread_setattr_default_np");
      for (int i = 0; i < 50; i++)
        {
          kill (getpid (), SIGUSR1);
          run ("pending signal, empty default mask", NULL, &s);
        }
      if (rt_expect_registered ())
        CHECK (early_unregistered == 0, "default mask: a handler ran on %d "
               "of 50 new threads before their registration",
               (int) early_unregistered);
      pthread_attr_destroy (&attr);
      /* Back to a default without a mask.  */
      pthread_attr_init (&attr);
      setdefault (&attr);
      pthread_attr_destroy (&attr);
    }
  pthread_sigmask (SIG_UNBLOCK, &usr1, NULL);

  /* The creator's own mask is untouched.  */
  sigset_t now;
  pthread_sigmask (SIG_SETMASK, NULL, &now);
  CHECK (sigismember (&now, SIGUSR2) && !sigismember (&now, SIGUSR1),
         "the creator's mask changed");
  puts ("honoured");
  return rt_exit_status ();
}
