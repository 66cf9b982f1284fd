#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where did perf put the samples and callchain frames of JIT code?

usage: jit-attribution.py [--perf-map FILE] [--perf-data FILE] [--samples-in N]
                          [--per-function] JITDUMP SCRIPT
       jit-attribution.py --gate STOCK.json PATCHED.json

SCRIPT is the output of `perf script -F time,ip,sym,dso --ns`, with or
without callchains.  Ground truth is the jitdump itself: an address is in
JIT code when a JIT_CODE_LOAD (or JIT_CODE_MOVE) made before the sample's
time covers it, the newest such load is the right function, and perf is
right when it resolved the address to that load's jitted-PID-INDEX.so, or
to a jitted-PID-mN.so of --jit-merged-elf and the load's symbol (for
a callchain frame, also to the load's symbol, e.g. CPython's py::f:file, or
the name perf demangles it to: the JVMTI agent's LJitMany;f0(I)J is
JitMany.f0(int) in perf's output).
Samples in ranges of the perf map (and in no load) are right when perf
resolved them to the map's symbol.  A sample that perf printed without any
frame (a DWARF callchain that unwound to nothing from a leaf in //anon)
counts as in //anon or [unknown] ("noframe"), not as dropped.

Prints one JSON object of counts (keys: see FIGURES and COUNTS, and
"code_loads", the JIT_CODE_LOAD records of the jitdump; with --samples-in,
the number of samples perf inject read, also "dropped"); with
--per-function, also the counts per function and the places perf put its
samples.  With --gate, compares two such objects and prints one line per
figure on which PATCHED is worse than STOCK; exits 1 when there is one.
"""
import bisect
import collections
import json
import re
import struct
import sys

JIT_CODE_LOAD, JIT_CODE_MOVE = 0, 1
JITDUMP_FLAGS_ARCH_TIMESTAMP = 1
PERF_RECORD_TIME_CONV = 79
PAGE = 4096

# The figures the gate compares: key, what it is, is more better?
FIGURES = (
    ('right', 'JIT samples right', True),
    ('cc_right', 'callchain JIT frames right', True),
    ('cc_lost', 'callchain JIT frames lost', False),
    ('depth', 'deepest JIT chain', True),
    ('perfmap_right', 'perf-map samples right', True),
    ('anon_unknown', 'samples in //anon or [unknown]', False),
    ('dropped', 'samples dropped by inject', False),
)
COUNTS = ('samples', 'noframe', 'jit', 'right', 'anon', 'unknown', 'anon_unknown',
          'perfmap', 'perfmap_right', 'perfmap_unknown',
          'callchains', 'cc_jit', 'cc_right', 'cc_lost', 'depth')

# perf names the anonymous memory of a process /tmp/perf-PID.map whether
# or not that file exists: a sample there without a symbol is in //anon.
PERF_MAP_DSO = re.compile(r'/tmp/perf-\d+\.map$')
HEAD = re.compile(r'^\s*(?:\S+\s+)*?(\d+)\.(\d+):\s*(.*)$')
FRAME = re.compile(r'^\s*([0-9a-f]+)\s+(.*?)\s+\((.*)\)\s*$')


# perf's Java demangler (util/demangle-java.c, without the return type): its
# modes, the base types, and what it makes of a name, quirks and all.
PREFIX, CLASS, FUNC, TYPE, CTYPE = range(5)
BASE_TYPES = {'B': 'byte', 'C': 'char', 'D': 'double', 'F': 'float',
              'I': 'int', 'J': 'long', 'S': 'short', 'Z': 'boolean'}


def java_demangle(name):
    """perf's name for a JVM signature, or None when it keeps the name."""
    end = name.rfind(')')
    if end < 0:
        return None
    out, mode, array, narg = [], PREFIX, 0, 0
    for i, ch in enumerate(name[:end + 1]):
        if ch == 'L' and mode in (PREFIX, TYPE):
            if mode == TYPE:
                out.append(', ' if narg else '')
                narg += 1
            mode = CLASS if mode == PREFIX else CTYPE
        elif ch in BASE_TYPES and mode == TYPE:
            out.append((', ' if narg else '') + BASE_TYPES[ch] + '[]' * array)
            array = 0
            narg += 1
        elif ch == 'V' and mode == TYPE:
            out.append('void' + '[]' * array)
            array = 0
        elif ch == '[':
            if mode != TYPE:
                return None
            array += 1
        elif ch == '(':
            if mode != FUNC:
                return None
            out.append(ch)
            mode = TYPE
        elif ch == ')':
            if mode != TYPE:
                return None
            out.append(ch)
            narg = 0
        elif ch == ';':
            if mode not in (CLASS, CTYPE):
                return None
            if mode == CLASS and name[i + 1:i + 2].isalpha():
                out.append('.')
            mode = FUNC if mode == CLASS else TYPE
        elif ch == '/':
            if mode not in (CLASS, CTYPE):
                return None
            out.append('.')
        else:
            out.append(ch)
    return ''.join(out)


def in_jitted(dso, pid, load, sym):
    """Is DSO the jitted-PID-INDEX.so of LOAD?  perf inject names it after
    the jitdump's pid or, for a record a forked child wrote to the jitdump
    it inherited, after the pid the record carries (as the series does).
    With --jit-merged-elf, a jitted-PID-mN.so of the jitdump's pid holds
    many loads: SYM must then be LOAD's."""
    if re.search(r'/jitted-%d-m[0-9]+\.so$' % pid, dso):
        return sym in load[4:6]
    return any(dso.endswith('/jitted-%d-%d.so' % (p, load[3])) for p in (pid, load[6]))


def read_jitdump(path):
    """pid, flags, [(time, start, end, index, name, demangled, rpid)] of the
    loads and moves (rpid: the pid the record carries), and the number of
    loads."""
    with open(path, 'rb') as f:
        data = f.read()
    magic, = struct.unpack_from('<I', data, 0)
    end = '<' if magic == 0x4A695444 else '>'
    hdr_size, = struct.unpack_from(end + 'I', data, 8)
    pid, = struct.unpack_from(end + 'I', data, 20)
    flags, = struct.unpack_from(end + 'Q', data, 32)
    loads, pos, nr_loads = [], hdr_size, 0
    while pos + 16 <= len(data):
        rid, size, ts = struct.unpack_from(end + 'IIQ', data, pos)
        if size < 16 or pos + size > len(data):
            break
        if rid == JIT_CODE_LOAD:
            rpid, _, _, addr, csize, index = struct.unpack_from(end + 'IIQQQQ', data, pos + 16)
            name_at = pos + 16 + 40
            name = data[name_at:data.index(b'\0', name_at)].decode(errors='replace')
            loads.append((ts, addr, addr + csize, index, name, java_demangle(name), rpid))
            nr_loads += 1
        elif rid == JIT_CODE_MOVE:
            rpid, _, _, _, new, csize, index = struct.unpack_from(end + 'IIQQQQQ', data, pos + 16)
            loads.append((ts, new, new + csize, index, 'moved#%d' % index, None, rpid))
        pos += size
    return pid, flags, sorted(loads), nr_loads


def read_time_conv(path):
    """A function from TSC to perf time, from a perf.data's TIME_CONV."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:8] != b'PERFILE2':
        sys.exit('%s: not a perf.data file' % path)
    offset, size = struct.unpack_from('<QQ', data, 40)
    pos = offset
    while pos + 8 <= offset + size:
        rtype, _, rsize = struct.unpack_from('<IHH', data, pos)
        if rsize < 8:
            break
        if rtype == PERF_RECORD_TIME_CONV:
            shift, mult, zero = struct.unpack_from('<QQQ', data, pos + 8)
            cycles = mask = short = 0
            if rsize >= 8 + 5 * 8 + 2:
                cycles, mask = struct.unpack_from('<QQ', data, pos + 32)
                short = data[pos + 49]

            def to_perf_time(cyc):
                if short:
                    cyc = cycles + ((cyc - cycles) & mask)
                quot, rem = cyc >> shift, cyc & ((1 << shift) - 1)
                return zero + quot * mult + ((rem * mult) >> shift)
            return to_perf_time
        pos += rsize
    sys.exit('%s: no PERF_RECORD_TIME_CONV for the arch timestamps' % path)


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


def by_page(ranges, at=1):
    """{page: [range, ...]}: the ranges (whose start and end are at
    range[at] and range[at + 1]) on each page they cover, in their order."""
    pages = collections.defaultdict(list)
    for r in ranges:
        for page in range(r[at] // PAGE, (r[at + 1] - 1) // PAGE + 1):
            pages[page].append(r)
    return pages


def is_anon(sym, dso):
    return 'anon' in dso or (sym == '[unknown]' and PERF_MAP_DSO.search(dso) is not None)


def read_samples(path):
    """Yield (time in ns, [(ip, sym, dso)], leaf first) per sample."""
    t, frames = None, []
    with open(path, errors='replace') as f:
        for line in f:
            h = HEAD.match(line)
            if h and not FRAME.match(line):
                if t is not None:
                    yield t, frames
                t = int(h.group(1)) * 1000000000 + int(h.group(2).ljust(9, '0')[:9])
                frames = []
                line = h.group(3)
                if not line.strip():
                    continue
            m = FRAME.match(line)
            if m and t is not None:
                frames.append((int(m.group(1), 16), m.group(2), m.group(3)))
    if t is not None:
        yield t, frames


def attribute(argv):
    perf_map, perf_data, per_function, samples_in = None, None, False, None
    args = []
    it = iter(argv)
    for a in it:
        if a == '--perf-map':
            perf_map = next(it)
        elif a == '--perf-data':
            perf_data = next(it)
        elif a == '--samples-in':
            samples_in = int(next(it))
        elif a == '--per-function':
            per_function = True
        else:
            args.append(a)
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    pid, flags, loads, nr_loads = read_jitdump(args[0])
    if flags & JITDUMP_FLAGS_ARCH_TIMESTAMP:
        if not perf_data:
            sys.exit('%s has arch timestamps: give --perf-data' % args[0])
        conv = read_time_conv(perf_data)
        loads = [(conv(ld[0]),) + ld[1:] for ld in loads]
    # Both lookups go through the pages an address is on, so that they
    # cost what is on one page, not what the jitdump or the map holds
    # (100,000 loads and as many samples stay linear).
    load_pages = by_page(loads)
    load_times = {page: [ld[0] for ld in lds] for page, lds in load_pages.items()}
    pmap_pages = by_page(read_perf_map(perf_map), 0)

    def load_at(ip, t):
        """The newest load made by time t that covers ip."""
        page = ip // PAGE
        lds = load_pages.get(page, ())
        i = bisect.bisect_right(load_times.get(page, ()), t)
        while i > 0:
            i -= 1
            if lds[i][1] <= ip < lds[i][2]:
                return lds[i]
        return None

    def pmap_at(ip):
        """The symbol of the first range of the perf map that covers ip."""
        for start, stop, name in pmap_pages.get(ip // PAGE, ()):
            if start <= ip < stop:
                return name
        return None

    c = collections.Counter()
    funcs = collections.defaultdict(collections.Counter)
    for t, frames in read_samples(args[1]):
        c['samples'] += 1
        if not frames:
            # perf printed no frame at all: with DWARF callchains, a
            # leaf in a map without unwinding information (//anon) can
            # unwind to nothing.  The sample is there, nowhere known.
            c['noframe'] += 1
            c['anon_unknown'] += 1
            continue
        ip, sym, dso = frames[0]
        where = 'unknown' if dso == '[unknown]' else ('anon' if is_anon(sym, dso) else None)
        c['anon_unknown'] += where is not None
        if len(frames) > 1:
            c['callchains'] += 1
            depth = 0
            for fip, fsym, fdso in frames:
                fload = load_at(fip, t)
                if not fload:
                    continue
                c['cc_jit'] += 1
                if fsym in fload[4:6] and in_jitted(fdso, pid, fload, fsym):
                    c['cc_right'] += 1
                    depth += 1
                else:
                    c['cc_lost'] += 1
            c['depth'] = max(c['depth'], depth)
        best = load_at(ip, t)
        if best:
            c['jit'] += 1
            right = in_jitted(dso, pid, best, sym)
            c['right'] += right
            if where:
                c[where] += 1
            funcs[best[4]]['samples'] += 1
            funcs[best[4]]['right'] += right
            funcs[best[4]]['%s %s' % (sym, dso.rsplit('/', 1)[-1])] += 1
            continue
        name = pmap_at(ip)
        if name is not None:
            c['perfmap'] += 1
            c['perfmap_right'] += sym == name
            if where == 'unknown':
                c['perfmap_unknown'] += 1
            funcs[name]['samples'] += 1
            funcs[name]['right'] += sym == name
            funcs[name]['%s %s' % (sym, dso.rsplit('/', 1)[-1])] += 1
    out = {k: c[k] for k in COUNTS}
    out['code_loads'] = nr_loads
    if samples_in is not None:
        out['dropped'] = samples_in - c['samples']
    if per_function:
        out['functions'] = {name: dict(cnt) for name, cnt in funcs.items()}
    json.dump(out, sys.stdout)
    print()
    return 0


def gate(stock_path, patched_path):
    with open(stock_path) as f:
        stock = json.load(f)
    with open(patched_path) as f:
        patched = json.load(f)
    worse = 0
    for key, what, more_is_better in FIGURES:
        s, p = stock.get(key, 0), patched.get(key, 0)
        if (p < s) if more_is_better else (p > s):
            print('%s: stock %d, patched %d' % (what, s, p))
            worse += 1
    return 1 if worse else 0


def main(argv):
    if argv[:1] == ['--gate']:
        if len(argv) != 3:
            print(__doc__, file=sys.stderr)
            return 2
        return gate(argv[1], argv[2])
    return attribute(argv)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
