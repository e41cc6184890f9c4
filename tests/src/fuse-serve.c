/* A FUSE file system of one directory, for info.exp.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

/* Usage: fuse-serve DIR OPENS [allow_other] [arm=FILE] [prog=FILE]
                   [stall=OFFSET] [noflush] [usr1]

   Mounts a FUSE file system at DIR (as root, in the caller's mount
   namespace) whose every name beginning "libc" is a regular file of
   8192 bytes that says it is glibc 9.99; answers the first OPENS opens
   and never the later ones (a server that stalls).  With arm=FILE, once
   FILE exists no request is answered at all (lookups, attributes,
   opens: twenty-third review).  It answers STATFS, which an overlayfs
   mount over it asks (twenty-fifth review).  With prog=FILE, names
   beginning "prog" are FILE's bytes, executable; with stall=OFFSET too,
   a read of them that reaches OFFSET is never answered, and reads ahead
   are of one page (a program whose exec waits in the kernel).  With
   noflush, FLUSH is answered ENOSYS, after which the kernel sends none:
   a close, and a process's exit, then never wait for a server armed
   later (bounded.sh).  With usr1, SIGUSR1 stops the server reading
   requests at all (a server that hangs): a request not yet read is
   abandoned by the kernel on a signal that kills its sender, where
   one read and left unanswered (arm=) holds its sender beyond
   SIGKILL.  Prints
   "mounted",
   then serves until it is killed.  Mounted by root without allow_other
   (and without default_permissions) it serves only processes whose
   real, effective and saved IDs are root's, whatever their file-system
   IDs: root's info -p opened a name for a process through such a
   child, and read what the process could not (twenty-second review);
   and a stalled open held info -p beyond SIGKILL.  The FUSE protocol
   is the kernel's (<linux/fuse.h>), spoken directly.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <linux/fuse.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

static int dev;
static volatile sig_atomic_t stopped;

static void
on_usr1 (int sig)
{
  (void) sig;
  stopped = 1;
}

static void
reply (uint64_t unique, int error, const void *body, size_t len)
{
  static char buf[sizeof (struct fuse_out_header) + (1 << 20)];
  struct fuse_out_header h = { .len = sizeof h + (error ? 0 : len),
                               .error = error, .unique = unique };
  memcpy (buf, &h, sizeof h);
  if (!error && len > 0)
    memcpy (buf + sizeof h, body, len);
  if (write (dev, buf, h.len) < 0)
    perror ("fuse-serve: write");
}

/* Node 2: the "libc" file; node 3: the "prog" file, PROG's bytes.  */
static char *prog;
static size_t prog_len;

static void
attr (struct fuse_attr *a, uint64_t node)
{
  memset (a, 0, sizeof *a);
  a->ino = node;
  a->nlink = 1;
  a->blksize = 4096;
  if (node == FUSE_ROOT_ID)
    a->mode = S_IFDIR | 0755;
  else if (node == 3)
    {
      a->mode = S_IFREG | 0755;
      a->size = prog_len;
      a->blocks = (prog_len + 511) / 512;
    }
  else
    {
      a->mode = S_IFREG | 0644;
      a->size = 8192;
      a->blocks = 16;
    }
}

int
main (int argc, char **argv)
{
  if (argc < 3)
    {
      fprintf (stderr, "usage: fuse-serve DIR OPENS [allow_other] "
               "[arm=FILE] [prog=FILE] [stall=OFFSET] [noflush] [usr1]\n");
      return 2;
    }
  long int answer = atol (argv[2]), opens = 0, stall = -1;
  const char *arm = NULL;
  int allow_other = 0, noflush = 0, usr1 = 0;
  for (int i = 3; i < argc; i++)
    if (strcmp (argv[i], "allow_other") == 0)
      allow_other = 1;
    else if (strcmp (argv[i], "noflush") == 0)
      noflush = 1;
    else if (strcmp (argv[i], "usr1") == 0)
      usr1 = 1;
    else if (strncmp (argv[i], "arm=", 4) == 0)
      arm = argv[i] + 4;
    else if (strncmp (argv[i], "stall=", 6) == 0)
      stall = atol (argv[i] + 6);
    else if (strncmp (argv[i], "prog=", 5) == 0)
      {
        int fd = open (argv[i] + 5, O_RDONLY | O_CLOEXEC);
        struct stat st;
        if (fd < 0 || fstat (fd, &st) != 0
            || (prog = malloc (st.st_size)) == NULL
            || read (fd, prog, st.st_size) != st.st_size)
          {
            perror ("fuse-serve: prog=");
            return 1;
          }
        prog_len = st.st_size;
        close (fd);
      }
  dev = open ("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (dev < 0)
    {
      perror ("fuse-serve: /dev/fuse");
      return 1;
    }
  char opts[256];
  snprintf (opts, sizeof opts, "fd=%d,rootmode=40755,user_id=0,group_id=0%s",
            dev, allow_other ? ",allow_other" : "");
  if (mount ("rseq-compat-test", argv[1], "fuse", MS_NOSUID | MS_NODEV, opts)
      != 0)
    {
      perror ("fuse-serve: mount");
      return 1;
    }
  if (usr1)
    {
      /* No SA_RESTART: the read under way ends.  */
      struct sigaction a = { .sa_handler = on_usr1 };
      sigemptyset (&a.sa_mask);
      sigaction (SIGUSR1, &a, NULL);
    }
  printf ("mounted\n");
  fflush (stdout);
  static char content[8192] =
    "GNU C Library (rseq-compat test) stable release version 9.99.\n";
  static char buf[1 << 20 | 1 << 17];
  for (;;)
    {
      while (stopped)
        pause ();
      ssize_t n = read (dev, buf, sizeof buf);
      if (n < 0)
        {
          if (errno == EINTR || errno == ENOENT)
            continue;
          return errno == ENODEV ? 0 : 1;
        }
      struct fuse_in_header *in = (struct fuse_in_header *) buf;
      char *arg = buf + sizeof *in;
      if (arm != NULL && in->opcode != FUSE_INIT && access (arm, F_OK) == 0)
        {
          /* Armed: the request is never answered.  */
          if (in->opcode != FUSE_FORGET && in->opcode != FUSE_BATCH_FORGET
              && in->opcode != FUSE_INTERRUPT)
            fprintf (stderr, "fuse-serve: request %u from pid %u left "
                     "unanswered\n", in->opcode, in->pid);
          continue;
        }
      switch (in->opcode)
        {
        case FUSE_INIT:
          {
            struct fuse_init_in *i = (struct fuse_init_in *) arg;
            struct fuse_init_out o;
            memset (&o, 0, sizeof o);
            o.major = FUSE_KERNEL_VERSION;
            o.minor = i->minor < 26 ? i->minor : 26;
            o.max_readahead = stall >= 0 ? 4096 : i->max_readahead;
            o.max_write = 4096;
            /* Before 7.23 the reply was 24 bytes (FUSE_COMPAT_22).  */
            reply (in->unique, 0, &o, o.minor < 23 ? 24 : sizeof o);
            break;
          }
        case FUSE_LOOKUP:
          {
            int is_prog = prog != NULL && strncmp (arg, "prog", 4) == 0;
            if (strncmp (arg, "libc", 4) != 0 && !is_prog)
              {
                reply (in->unique, -ENOENT, NULL, 0);
                break;
              }
            struct fuse_entry_out e;
            memset (&e, 0, sizeof e);
            e.nodeid = is_prog ? 3 : 2;
            e.generation = 1;
            e.entry_valid = e.attr_valid = 3600;
            attr (&e.attr, e.nodeid);
            reply (in->unique, 0, &e, sizeof e);
            break;
          }
        case FUSE_GETATTR:
          {
            struct fuse_attr_out a;
            memset (&a, 0, sizeof a);
            a.attr_valid = 3600;
            attr (&a.attr, in->nodeid);
            reply (in->unique, 0, &a, sizeof a);
            break;
          }
        case FUSE_OPEN:
          if (opens++ < answer)
            {
              struct fuse_open_out o;
              memset (&o, 0, sizeof o);
              reply (in->unique, 0, &o, sizeof o);
            }
          break;
        case FUSE_READ:
          {
            struct fuse_read_in *r = (struct fuse_read_in *) arg;
            if (in->nodeid == 3 && stall >= 0
                && r->offset + r->size > (uint64_t) stall)
              break;
            const char *data = in->nodeid == 3 ? prog : content;
            size_t size = in->nodeid == 3 ? prog_len : sizeof content;
            size_t len = r->offset >= size ? 0 : size - r->offset;
            if (len > r->size)
              len = r->size;
            reply (in->unique, 0, data + (len > 0 ? r->offset : 0), len);
            break;
          }
        case FUSE_STATFS:
          {
            /* overlayfs asks at mount (fuse-overlay).  */
            struct fuse_statfs_out o;
            memset (&o, 0, sizeof o);
            o.st.bsize = o.st.frsize = 4096;
            o.st.namelen = 255;
            reply (in->unique, 0, &o, sizeof o);
            break;
          }
        case FUSE_FLUSH:
          reply (in->unique, noflush ? -ENOSYS : 0, NULL, 0);
          break;
        case FUSE_RELEASE:
        case FUSE_ACCESS:
          reply (in->unique, 0, NULL, 0);
          break;
        case FUSE_FORGET:
        case FUSE_BATCH_FORGET:
        case FUSE_INTERRUPT:
          break;
        default:
          reply (in->unique, -ENOSYS, NULL, 0);
        }
    }
}
