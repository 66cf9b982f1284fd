# SPDX-License-Identifier: GPL-2.0
# usage: python3.13 -Xperf_jit py-main-exit.py before|middle [NR_FUNCS [SECONDS]]
#
# A JIT whose main thread exits while another thread keeps JITting: under
# -Xperf_jit CPython gives each code object a trampoline of its own
# (py::NAME:FILE in the jitdump) when it first runs, in whichever thread,
# in arenas that grow, so their anonymous mappings merge.  The main thread
# starts a worker and ends with pthread_exit(3) (through ctypes, which
# drops the GIL for the call): the process lives on in the worker, and
# perf records the EXIT of the thread group leader.
#
# before: the main thread exits before the worker makes any function of
#         its own (the interpreter's startup code already has trampolines);
#         the worker then makes NR_FUNCS functions and runs them for SECONDS.
# middle: the worker makes half of them and runs them for SECONDS / 2,
#         the main thread exits, the worker makes the other half (new
#         trampolines in new arenas, next to the first half's) and runs
#         all of them for SECONDS / 2.
# The worker waits until the main thread is gone (a zombie in /proc) before
# it goes on, so the order is the same in every run.
import ctypes
import os
import sys
import threading
import time

when = sys.argv[1] if len(sys.argv) > 1 else ''
if when not in ('before', 'middle'):
    sys.exit('usage: py-main-exit.py before|middle [NR_FUNCS [SECONDS]]')
nr_funcs = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0

print('pid %d' % os.getpid(), flush=True)
libc = ctypes.CDLL(None)
libc.pthread_exit.argtypes = [ctypes.c_void_p]
main_may_exit = threading.Event()


def make(first, last):
    """Functions f{first}..f{last - 1}, each a code object of its own,
    each called once, so that each gets its trampoline now."""
    src = []
    for i in range(first, last):
        src.append('def f%d(n):\n'
                   '    s = 0\n'
                   '    for k in range(n):\n'
                   '        s += k * %d\n'
                   '    return s\n' % (i, i))
    scope = {}
    exec(compile('\n'.join(src), '<main-exit-%d>' % first, 'exec'), scope)
    funcs = [scope['f%d' % i] for i in range(first, last)]
    for f in funcs:
        f(1)
    return funcs


def run(funcs, secs):
    end = time.monotonic() + secs
    rounds = 0
    while time.monotonic() < end:
        for f in funcs:
            f(40)
        rounds += 1
    return rounds


def main_gone():
    """Wait until the main thread has exited: a zombie, or gone."""
    stat = '/proc/%d/task/%d/stat' % (os.getpid(), os.getpid())
    for _ in range(10000):
        try:
            with open(stat) as f:
                if f.read().rsplit(')', 1)[1].split()[0] in 'ZX':
                    return
        except OSError:
            return
        time.sleep(0.001)
    print('the main thread did not exit in 10 s', file=sys.stderr, flush=True)
    os._exit(1)


def worker():
    funcs = []
    if when == 'middle':
        funcs = make(0, nr_funcs // 2)
        run(funcs, seconds / 2)
    main_may_exit.set()
    main_gone()
    funcs += make(len(funcs), nr_funcs)
    rounds = run(funcs, seconds / 2 if when == 'middle' else seconds)
    print('%s: %d functions, main thread exited after %d, %d rounds after' %
          (when, nr_funcs, nr_funcs // 2 if when == 'middle' else 0, rounds), flush=True)


threading.Thread(target=worker).start()
main_may_exit.wait()
libc.pthread_exit(None)
