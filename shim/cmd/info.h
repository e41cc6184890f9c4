/* rseq-compat info.
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

#ifndef RSEQ_COMPAT_CMD_INFO_H
#define RSEQ_COMPAT_CMD_INFO_H 1

/* rseq-compat info: 0 when the report was printed, this when the
   process could not be read (the cause is on stderr, nothing on
   stdout).  Usage errors are EXIT_CANNOT_RUN.  */
enum { EXIT_INFO_FAILED = 1 };

/* ARGV[0] is "info".  Returns the exit status.  */
int cmd_info (int argc, char **argv);

#endif
