/* A command's work in a child that is given up after a time.
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

#ifndef RSEQ_COMPAT_CMD_BOUNDED_H
#define RSEQ_COMPAT_CMD_BOUNDED_H 1

/* Runs BODY (ARG) in a child process and returns its status.  The
   child's standard output and error reach ours through pipes, so a
   child left waiting holds none of the caller's descriptors.  Its work
   before bounded_gate must end within SECONDS, and again from the gate
   on; past either, the child is killed (it ends once the kernel lets
   it), WHO (the words' prefix) says what it was doing and what that
   means for the files, and FAILED is returned.  The time spent
   waiting for our output to be read is not counted.  SIGHUP, SIGINT
   and SIGTERM are passed on, and this process ends by the signal once
   the child has ended or been given up on, or at once where it waits
   for a reader.  Where no child can be made: FAILED, saying NEEDS (why
   the work cannot go on without one), or, where NEEDS is NULL, BODY
   run here, without a limit, after a warning; where the pipes to one
   cannot be made, or poll and ppoll are both refused, BODY run here
   likewise whatever NEEDS says.  */
int bounded_run (int (*body) (void *), void *arg, unsigned int seconds,
                 const char *who, const char *needs, int failed);

/* In the child: what it does now, a clause for the words of a timeout
   ("while ..."); LOCK says that it waits for a lock, not for a file
   system.  Nothing outside bounded_run.  */
void bounded_stage (int lock, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* In the child, before its first change of anything: returns only
   where the parent has not given up (the time left restarts for the
   change); else the child ends, having changed nothing.  */
void bounded_gate (void);

/* In the child: the change is made (a timeout after it says so).
   Between bounded_gate and this, its output waits in its pipes: more
   than they hold stops it until the limit.  */
void bounded_changed (void);

/* The seconds that RSEQ_COMPAT_SYSTEM_TIMEOUT asks for, FALLBACK
   where it is unset, or 0 where it is not a whole number from 1 to
   86400.  */
unsigned int bounded_seconds (unsigned int fallback);

#endif
