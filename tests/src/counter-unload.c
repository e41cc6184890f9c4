/* Unloading an object that used the per-CPU counter of <rseq-compat.h>.
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

/* Usage: counter-unload PLUGIN [kept]
   PLUGIN (counter-unload-plugin.c) holds the counter's sequence, its
   descriptor and its abort handler.  WORKERS threads and the main
   thread add through it, hopping from CPU to CPU; each worker's last
   add is the last thing it does before it blocks in read(), and the
   main thread's last add comes right before the unload, so no thread
   returns to user space after a context switch (which would let the
   kernel drop a stale rseq_cs while the descriptor still exists)
   between its last add and the unload.  Then the counter is checked,
   destroyed and the plugin unloaded: glibc's dlclose unmaps it; musl's
   dlclose never unloads anything, so the program unmaps the plugin's
   segments itself, as glibc would.  Either way the plugin must be gone
   from /proc/self/maps.  Then for AFTER_MS the workers yield and move
   from CPU to CPU (each move confirmed by the getcpu system call) while
   the main thread keeps signalling them and yields and moves too: every
   one of those returns to user space makes the kernel look at the
   thread's rseq_cs.  A descriptor address left there points into the
   unmapped plugin, and the kernel's read of it faults: SIGSEGV.

   Every thread's rseq_cs must be 0 right after its last add, and the
   run must end normally.  With "kept" the plugin was built with
   __RSEQ_COMPAT_COUNTER_KEEP_CS (the header without the store that
   clears rseq_cs after the commit): the harness expects that run to die
   of SIGSEGV in the registered modes, which shows that the run above
   makes the kernel read a stale descriptor; reaching the end is a
   FAIL there.

   After the unload the program calls no allocator: musl hands the
   unused ends of a loaded object's pages to malloc, and those pages are
   gone.  It ends with _exit, so that no destructor of the unloaded
   plugin runs.  */

#include "rtest.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <time.h>

#define WORKERS 4
#define ROUNDS 16
#define ADDS_PER_ROUND 20000L
#define AFTER_MS 600

static int (*plugin_init) (void);
static void (*plugin_add) (long int);
static int64_t (*plugin_read) (void);
static int64_t (*plugin_read_rseq) (void);
static void (*plugin_fini) (void);

static struct rt_abi abi;
static int allowed_cpus[CPU_SETSIZE];
static int nallowed;
static int release[2];
static int ready[WORKERS];
static int stop;
/* rseq_cs right after each thread's last add; the main thread's last.  */
static uint64_t cs_left[WORKERS + 1];
static unsigned long int yields[WORKERS], moves[WORKERS], signals[WORKERS];
static __thread unsigned long int handled;

static void
handler (int sig)
{
  (void) sig;
  handled++;
}

static uint64_t
own_rseq_cs (void)
{
  if (abi.offset == NULL || abi.size == NULL || *abi.size == 0)
    return 0;
  return __atomic_load_n (&rt_area (&abi)->rseq_cs, __ATOMIC_RELAXED);
}

/* Moves the calling thread to the K-th allowed CPU; 1 when the getcpu
   system call then names that CPU.  */
static int
move_to (unsigned long int k)
{
  if (nallowed < 2)
    return 0;
  int cpu = allowed_cpus[k % (unsigned long int) nallowed];
  return rt_pin (cpu) == 0 && rt_syscall_cpu () == cpu;
}

static void *
worker (void *arg)
{
  long int id = (long int) arg;
  for (int round = 0; round < ROUNDS; round++)
    {
      move_to ((unsigned long int) (id + round));
      plugin_add (ADDS_PER_ROUND);
    }
  plugin_add (1);
  cs_left[id] = own_rseq_cs ();
  __atomic_store_n (&ready[id], 1, __ATOMIC_RELEASE);
  char c;
  while (read (release[0], &c, 1) != 1)
    ;

  /* The plugin is gone.  */
  unsigned long int k = (unsigned long int) id;
  while (!__atomic_load_n (&stop, __ATOMIC_ACQUIRE))
    {
      sched_yield ();
      yields[id]++;
      if (yields[id] % 16 == 0 && move_to (++k))
        __atomic_add_fetch (&moves[id], 1, __ATOMIC_RELAXED);
    }
  signals[id] = handled;
  return NULL;
}

/* Whether PATH appears in /proc/self/maps; read with system calls into
   a static buffer (no allocator: see above).  */
static int
mapped (const char *path)
{
  static char buf[1 << 20];
  int fd = open ("/proc/self/maps", O_RDONLY);
  CHECK (fd >= 0, "/proc/self/maps: %s", strerror (errno));
  if (fd < 0)
    return -1;
  size_t len = 0;
  ssize_t n;
  while (len < sizeof buf - 1
         && (n = read (fd, buf + len, sizeof buf - 1 - len)) > 0)
    len += (size_t) n;
  close (fd);
  buf[len] = '\0';
  return strstr (buf, path) != NULL;
}

/* The plugin's PT_LOAD segments, page-rounded.  */
struct segments
{
  const char *path;
  int n;
  uintptr_t start[8];
  size_t len[8];
};

static int
find_segments (struct dl_phdr_info *info, size_t size, void *data)
{
  struct segments *s = data;
  (void) size;
  if (info->dlpi_name == NULL || strcmp (info->dlpi_name, s->path) != 0)
    return 0;
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);
  for (int i = 0; i < info->dlpi_phnum && s->n < 8; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD)
      {
        uintptr_t a = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
        uintptr_t e = a + info->dlpi_phdr[i].p_memsz;
        a &= ~(page - 1);
        e = (e + page - 1) & ~(page - 1);
        s->start[s->n] = a;
        s->len[s->n] = e - a;
        s->n++;
      }
  return 1;
}

int
main (int argc, char **argv)
{
  CHECK (argc >= 2 && argv[1][0] == '/', "usage: counter-unload "
         "/ABSOLUTE/PLUGIN [kept]");
  if (argc < 2 || argv[1][0] != '/')
    return rt_exit_status ();
  const char *path = argv[1];
  int kept = argc > 2 && strcmp (argv[2], "kept") == 0;
  int registered = rt_expect_registered ();
  abi = rt_abi ();

  cpu_set_t set;
  sched_getaffinity (0, sizeof set, &set);
  for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
    if (CPU_ISSET (cpu, &set))
      allowed_cpus[nallowed++] = cpu;
  CHECK (nallowed >= 2, "need 2 allowed CPUs to migrate threads, have %d",
         nallowed);

  void *h = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  CHECK (h != NULL, "dlopen %s: %s", path, dlerror ());
  if (h == NULL)
    return rt_exit_status ();
  plugin_init = (int (*) (void)) dlsym (h, "plugin_init");
  plugin_add = (void (*) (long int)) dlsym (h, "plugin_add");
  plugin_read = (int64_t (*) (void)) dlsym (h, "plugin_read");
  plugin_read_rseq = (int64_t (*) (void)) dlsym (h, "plugin_read_rseq");
  plugin_fini = (void (*) (void)) dlsym (h, "plugin_fini");
  CHECK (plugin_init != NULL && plugin_add != NULL && plugin_read != NULL
         && plugin_read_rseq != NULL && plugin_fini != NULL,
         "%s lacks the plugin_* functions", path);
  if (plugin_fini == NULL || plugin_init () != 0)
    return rt_exit_status ();

  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sa.sa_flags = SA_RESTART;
  sigaction (SIGUSR1, &sa, NULL);
  CHECK (pipe (release) == 0, "pipe: %s", strerror (errno));

  pthread_t tids[WORKERS];
  for (long int i = 0; i < WORKERS; i++)
    CHECK (pthread_create (&tids[i], NULL, worker, (void *) i) == 0,
           "pthread_create");
  for (int round = 0; round < ROUNDS; round++)
    {
      move_to ((unsigned long int) round);
      plugin_add (ADDS_PER_ROUND);
    }
  struct timespec ms = { 0, 1000000 };
  for (int i = 0; i < WORKERS; i++)
    while (!__atomic_load_n (&ready[i], __ATOMIC_ACQUIRE))
      nanosleep (&ms, NULL);
  /* Let the workers reach read() and block there.  */
  struct timespec settle = { 0, 20000000 };
  nanosleep (&settle, NULL);

  plugin_add (1);
  cs_left[WORKERS] = own_rseq_cs ();
  int64_t expected = (WORKERS + 1) * (ROUNDS * ADDS_PER_ROUND + 1);
  int64_t total = plugin_read ();
  int64_t via_rseq = plugin_read_rseq ();
  plugin_fini ();

  struct segments seg = { .path = path };
  dl_iterate_phdr (find_segments, &seg);
  CHECK (seg.n > 0, "%s not found by dl_iterate_phdr", path);
  CHECK (dlclose (h) == 0, "dlclose: %s", dlerror ());
#ifndef __GLIBC__
  /* musl's dlclose keeps every object loaded; unmap it as glibc does.
     musl reserves one mapping of the file for the whole span and maps
     the segments into it, so the gaps between segments (up to 64 KiB
     on AArch64, where the linker aligns segments to the largest page
     size) are mappings of the file too: unmap the span.  */
  if (seg.n > 0)
    {
      uintptr_t lo = seg.start[0], hi = seg.start[0] + seg.len[0];
      for (int i = 1; i < seg.n; i++)
        {
          if (seg.start[i] < lo)
            lo = seg.start[i];
          if (seg.start[i] + seg.len[i] > hi)
            hi = seg.start[i] + seg.len[i];
        }
      CHECK (munmap ((void *) lo, hi - lo) == 0, "munmap %#lx-%#lx: %s",
             (unsigned long int) lo, (unsigned long int) hi,
             strerror (errno));
    }
#endif
  CHECK (mapped (path) == 0, "%s still mapped after the unload", path);

  /* The plugin is gone: release the workers, then keep them and this
     thread busy with what makes the kernel look at rseq_cs.  */
  char go[WORKERS] = { 0 };
  CHECK (write (release[1], go, sizeof go) == (ssize_t) sizeof go,
         "write: %s", strerror (errno));
  struct timespec start, now, pause = { 0, 100000 };
  clock_gettime (CLOCK_MONOTONIC, &start);
  unsigned long int main_moves = 0;
  for (unsigned long int i = 0;; i++)
    {
      clock_gettime (CLOCK_MONOTONIC, &now);
      long int ms = (now.tv_sec - start.tv_sec) * 1000
                    + (now.tv_nsec - start.tv_nsec) / 1000000;
      /* Until every worker has moved too (a loaded 2-CPU guest gave one
         6 yields in AFTER_MS and no move: the matrix, bookworm), within
         a bound; the checks below say which did not.  */
      int all_moved = main_moves > 0;
      for (int w = 0; w < WORKERS; w++)
        all_moved &= __atomic_load_n (&moves[w], __ATOMIC_RELAXED) > 0;
      if ((ms >= AFTER_MS && all_moved) || ms >= 60 * AFTER_MS)
        break;
      for (int w = 0; w < WORKERS; w++)
        pthread_kill (tids[w], SIGUSR1);
      sched_yield ();
      if (i % 8 == 0 && move_to (i / 8))
        main_moves++;
      nanosleep (&pause, NULL);
    }
  __atomic_store_n (&stop, 1, __ATOMIC_RELEASE);
  for (int i = 0; i < WORKERS; i++)
    pthread_join (tids[i], NULL);
  /* Signals still pending run now.  */
  sigset_t none;
  sigemptyset (&none);
  sigprocmask (SIG_SETMASK, &none, NULL);

  printf ("mode %s%s: %lld adds (%lld through rseq) by %d threads, then "
          "the plugin unloaded;", rt_expect (), kept ? " (kept)" : "",
          (long long int) total, (long long int) via_rseq, WORKERS + 1);
  for (int i = 0; i < WORKERS; i++)
    printf (" worker %d: %lu yields, %lu moves, %lu signals;", i, yields[i],
            moves[i], signals[i]);
  printf (" main: %lu moves\n", main_moves);
  fflush (stdout);

  CHECK (total == expected, "counter %lld, expected %lld",
         (long long int) total, (long long int) expected);
  if (registered)
    CHECK (via_rseq >= expected / 10 * 9, "registered, but only %lld of "
           "%lld adds took the restartable sequence",
           (long long int) via_rseq, (long long int) expected);
  else
    CHECK (via_rseq == 0, "%lld adds took the restartable sequence in mode "
           "%s", (long long int) via_rseq, rt_expect ());
  for (int i = 0; i <= WORKERS; i++)
    CHECK (kept || cs_left[i] == 0, "%s %d: rseq_cs %#llx after its last "
           "add: the descriptor's address was left behind",
           i < WORKERS ? "worker" : "main thread", i,
           (unsigned long long int) cs_left[i]);
  for (int i = 0; i < WORKERS; i++)
    CHECK (yields[i] > 0 && moves[i] > 0 && signals[i] > 0,
           "worker %d after the unload: %lu yields, %lu moves, %lu signals",
           i, yields[i], moves[i], signals[i]);
  CHECK (main_moves > 0, "the main thread never moved after the unload");
  CHECK (!kept || !registered, "the plugin built without the clearing store "
         "was unloaded and the process lived on: this run never made the "
         "kernel read a stale descriptor");
  _exit (rt_exit_status ());
}
