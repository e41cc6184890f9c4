// A C++20 coroutine resumed on another thread (header-build.exp).
// Copyright (C) 2026 The rseq-compat developers.
// This file is part of rseq-compat.
//
// rseq-compat is free software; you can redistribute it and/or
// modify it under the terms of the GNU Lesser General Public
// License as published by the Free Software Foundation; either
// version 2.1 of the License, or (at your option) any later version.
//
// rseq-compat is distributed in the hope that it will be useful,
// but WITHOUT ANY WARRANTY; without even the implied warranty of
// MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU
// Lesser General Public License for more details.
//
// You should have received a copy of the GNU Lesser General Public
// License along with rseq-compat; if not, see
// <https://www.gnu.org/licenses/>.

// The coroutine reads the CPU, is suspended, and is resumed on a new
// thread pinned to one CPU, where it reads the CPU, node and
// concurrency ID again.  The compiler may keep what the header computed
// before the suspension (57th review: clang did, and where nothing was
// registered that held the first thread's pointer: the read crashed).
// Prints "cpu A B PINNED node N" and exits 0 where B is the pinned CPU.

#include <coroutine>
#include <cstdio>
#include <sched.h>
#include <thread>
#include <rseq-compat.h>

struct task
{
  struct promise_type
  {
    task get_return_object () { return {}; }
    std::suspend_never initial_suspend () { return {}; }
    std::suspend_never final_suspend () noexcept { return {}; }
    void return_void () {}
    void unhandled_exception () {}
  };
};

static std::coroutine_handle<> suspended;

struct park
{
  bool await_ready () { return false; }
  void await_suspend (std::coroutine_handle<> c) { suspended = c; }
  void await_resume () {}
};

__attribute__ ((noinline)) static task
reader (int *out)
{
  out[0] = rseq_compat_cpu ();
  co_await park {};
  out[1] = rseq_compat_cpu ();
  out[2] = rseq_compat_node ();
}

int
main ()
{
  int got[3] = { -9, -9, -9 };
  int pinned = -1;
  reader (got);
  std::thread t ([&pinned] {
    cpu_set_t set;
    if (sched_getaffinity (0, sizeof set, &set) == 0)
      for (int c = CPU_SETSIZE - 1; c >= 0; c--)
        if (CPU_ISSET (c, &set))
          {
            CPU_ZERO (&set);
            CPU_SET (c, &set);
            if (sched_setaffinity (0, sizeof set, &set) == 0)
              pinned = c;
            break;
          }
    suspended.resume ();
  });
  t.join ();
  std::printf ("cpu %d %d %d node %d\n", got[0], got[1], pinned, got[2]);
  return got[1] == pinned && pinned >= 0 && got[2] >= 0 ? 0 : 1;
}
