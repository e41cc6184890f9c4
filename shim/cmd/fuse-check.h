/* Telling FUSE files apart without asking their servers.
   Copyright (C) 2026 The rseq-compat developers.
   This file is part of rseq-compat.
   SPDX-License-Identifier: LGPL-2.1-or-later  */

#ifndef RSEQ_COMPAT_CMD_FUSE_CHECK_H
#define RSEQ_COMPAT_CMD_FUSE_CHECK_H 1

/* A FUSE server answers each request on its files when it pleases, or
   never, and a process waiting for it cannot be killed: info -p must
   not open, stat or look up a name on FUSE for any process.  Each
   answer below comes from the kernel alone (mountinfo, the fuse control
   file system, statx asking for nothing), never from a server.  DIR is
   the process's /proc/PID, whose mount namespace is asked first.  */

/* 1 if device MAJ:MIN is a FUSE file system's (fuse, fuse.NAME,
   fuseblk), or may be; 0 if it is not.  */
int fuse_dev (const char *dir, unsigned int maj, unsigned int min);

/* The same for the file the descriptor FD names (O_PATH will do).  */
int fuse_fd (const char *dir, int fd);

/* The same, for a file this process reached by a lookup of its own,
   from its own root: every mount such a lookup can pass is in this
   mount namespace's mountinfo, and a device neither it nor the list of
   FUSE connections shows is no FUSE one (overlayfs gives the files of
   each layer an anonymous device of its own, which no mountinfo shows:
   fuse_fd takes those for FUSE where the list cannot be read, in a
   chroot or a container).  1 also where mountinfo cannot be read; 2
   for an overlay that may have a layer on FUSE (a stricter test than
   fuse_fd's: overlay_untrusted in fuse-check.c).  */
int fuse_fd_here (int fd);

/* Why the last overlay fuse_fd_here answered 2 for may be on FUSE, in
   words (a layer's name in them as its mounter gave it).  */
const char *fuse_overlay_why (void);

/* Since the last fuse_fd_here or fuse_on_path: the errno of the first
   mountinfo file that could not be read, or of the first want of
   descriptors or memory (EMFILE, ENFILE, ENOMEM) for what else that
   verdict needed (the list of FUSE connections, a layer's lookup, a
   descriptor's fdinfo); 0 where none.  Where it is not 0, an answer of
   1 or 2 may come of that alone.  */
int fuse_unread_errno (void);

/* Where fuse_unread_errno is the list of FUSE connections' ECHILD: how
   the child that lists them ended ("was ended by signal 9 (Killed)"),
   or the call that failed, for words; else "".  */
const char *fuse_list_end (void);

/* Where fuse_unread_errno is the list's ECHILD, the signal that ended
   that child, or 0 where none did or it is not the list's.  */
int fuse_list_signal (void);

/* 1 if looking PATH up (as we see it, or in DIR's root) may pass
   through a directory on FUSE: a FUSE mount point is PATH or one of its
   parents in DIR's mount namespace or in ours.  */
int fuse_on_path (const char *dir, const char *path);

#endif
