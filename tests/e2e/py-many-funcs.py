# SPDX-License-Identifier: GPL-2.0
# usage: python3.13 -Xperf_jit py-many-funcs.py [NR_FUNCS [DEPTH [SECONDS]]]
#
# Thousands of small Python functions for perf's jitdump: under -Xperf_jit
# CPython gives each code object a trampoline of its own (py::NAME:FILE in
# the jitdump), in arenas that grow, so their anonymous mappings merge.
# The functions form chains DEPTH long (f0 calls f1 ... calls f{DEPTH-1},
# then f{DEPTH} starts the next chain), each doing a little work, and the
# chains are run round robin for SECONDS so that samples and callchains
# land in all of them.
import os
import sys
import time

nr_funcs = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
depth = int(sys.argv[2]) if len(sys.argv) > 2 else 8
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0

print('pid %d' % os.getpid(), flush=True)
src = []
for i in range(nr_funcs):
    nxt = 'f%d(n)' % (i + 1) if (i + 1) % depth and i + 1 < nr_funcs else '0'
    src.append('def f%d(n):\n'
               '    s = 0\n'
               '    for k in range(n):\n'
               '        s += k * %d\n'
               '    return s + %s\n' % (i, i, nxt))
scope = {}
exec(compile('\n'.join(src), '<many-funcs>', 'exec'), scope)
heads = [scope['f%d' % i] for i in range(0, nr_funcs, depth)]

end = time.monotonic() + seconds
rounds = 0
while time.monotonic() < end:
    for f in heads:
        f(40)
    rounds += 1
print('%d functions, chains of %d, %d rounds' % (nr_funcs, depth, rounds))
