/* Names and exit statuses shared by the rseq-compat subcommands.
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

#ifndef RSEQ_COMPAT_CMD_COMMON_H
#define RSEQ_COMPAT_CMD_COMMON_H 1

#define SONAME "librseq-compat.so.1"

/* Exit statuses for our own failures, as env(1) and the shells use.  */
enum { EXIT_CANNOT_RUN = 125, EXIT_NOT_EXEC = 126, EXIT_NOT_FOUND = 127 };

#endif
