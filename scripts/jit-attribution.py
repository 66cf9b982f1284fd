#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where did perf put the samples of JIT code?  Ground truth from the jitdump.

usage: jit-attribution.py [--perf-map FILE] [--per-function] JITDUMP SCRIPT

SCRIPT is the output of `perf script -F time,ip,sym,dso --ns`.  A sample is
in JIT code when a JIT_CODE_LOAD (or JIT_CODE_MOVE) of the jitdump made
before the sample's time covers its IP; the newest such load is the right
function, and perf is right when it resolved the sample to that load's
jitted-PID-INDEX.so.  Samples in ranges of the perf map (and in no load) are
right when perf resolved them to the map's symbol.

Prints one JSON object of counts; with --per-function, also the counts per
function and the places perf put its samples.
"""
import collections
import json
import re
import struct
import sys

JIT_CODE_LOAD, JIT_CODE_MOVE = 0, 1
PAGE = 4096

LINE = re.compile(r'^\s*(?:\S+\s+)*?(\d+)\.(\d+):\s+([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$')


def read_jitdump(path):
    """[(time, start, end, index, name)] of the code loads and moves."""
    with open(path, 'rb') as f:
        data = f.read()
    magic, = struct.unpack_from('<I', data, 0)
    end = '<' if magic == 0x4A695444 else '>'
    hdr_size, = struct.unpack_from(end + 'I', data, 8)
    pid, = struct.unpack_from(end + 'I', data, 20)
    loads, pos = [], hdr_size
    while pos + 16 <= len(data):
        rid, size, ts = struct.unpack_from(end + 'IIQ', data, pos)
        if size < 16 or pos + size > len(data):
            break
        if rid == JIT_CODE_LOAD:
            _, _, _, addr, csize, index = struct.unpack_from(end + 'IIQQQQ', data, pos + 16)
            name_at = pos + 16 + 40
            name = data[name_at:data.index(b'\0', name_at)].decode(errors='replace')
            loads.append((ts, addr, addr + csize, index, name))
        elif rid == JIT_CODE_MOVE:
            _, _, _, _, new, csize, index = struct.unpack_from(end + 'IIQQQQQ', data, pos + 16)
            loads.append((ts, new, new + csize, index, 'moved#%d' % index))
        pos += size
    return pid, sorted(loads)


def read_perf_map(path):
    ranges = []
    if path:
        try:
            with open(path) as f:
                for line in f:
                    parts = line.split(None, 2)
                    if len(parts) == 3:
                        start, size = int(parts[0], 16), int(parts[1], 16)
                        ranges.append((start, start + size, parts[2].strip()))
        except OSError:
            pass
    return ranges


def main(argv):
    perf_map, per_function = None, False
    args = []
    it = iter(argv)
    for a in it:
        if a == '--perf-map':
            perf_map = next(it)
        elif a == '--per-function':
            per_function = True
        else:
            args.append(a)
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    pid, loads = read_jitdump(args[0])
    by_page = collections.defaultdict(list)
    for load in loads:
        for page in range(load[1] // PAGE, (load[2] - 1) // PAGE + 1):
            by_page[page].append(load)
    pmap = read_perf_map(perf_map)

    c = collections.Counter()
    funcs = collections.defaultdict(collections.Counter)
    with open(args[1], errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            t = int(m.group(1)) * 1000000000 + int(m.group(2).ljust(9, '0')[:9])
            ip, sym, dso = int(m.group(3), 16), m.group(4), m.group(5)
            c['samples'] += 1
            best = None
            for load in by_page.get(ip // PAGE, ()):
                if load[0] <= t and load[1] <= ip < load[2]:
                    if best is None or load[0] >= best[0]:
                        best = load
            where = 'unknown' if dso == '[unknown]' else ('anon' if 'anon' in dso else None)
            if best:
                c['jit'] += 1
                right = dso.endswith('/jitted-%d-%d.so' % (pid, best[3]))
                c['right'] += right
                if where:
                    c[where] += 1
                funcs[best[4]]['samples'] += 1
                funcs[best[4]]['right'] += right
                funcs[best[4]]['%s %s' % (sym, dso.rsplit('/', 1)[-1])] += 1
                continue
            for start, stop, name in pmap:
                if start <= ip < stop:
                    c['perfmap'] += 1
                    c['perfmap_right'] += sym == name
                    if where == 'unknown':
                        c['perfmap_unknown'] += 1
                    funcs[name]['samples'] += 1
                    funcs[name]['right'] += sym == name
                    funcs[name]['%s %s' % (sym, dso.rsplit('/', 1)[-1])] += 1
                    break
    out = {k: c[k] for k in ('samples', 'jit', 'right', 'anon', 'unknown',
                             'perfmap', 'perfmap_right', 'perfmap_unknown')}
    if per_function:
        out['functions'] = {name: dict(cnt) for name, cnt in funcs.items()}
    json.dump(out, sys.stdout)
    print()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
