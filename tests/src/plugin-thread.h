/* plugin-thread: what the plugin's thread saw.
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

#ifndef PLUGIN_THREAD_H
#define PLUGIN_THREAD_H 1

struct plugin_thread_result
{
  /* pthread_create's and pthread_join's return values.  */
  int create_ret;
  int join_ret;
  /* dlerror () right after pthread_create: NULL unless something
     failed.  */
  char dlerror_after[256];
  /* Set by the new thread.  */
  int ran;
  int cpu_id;
  int registered;
  /* The plugin's own.  */
  struct plugin_lookups *lookups;
};

typedef void plugin_thread_run_fn (struct plugin_thread_result *);

#endif
