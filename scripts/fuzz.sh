#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: fuzz.sh [SECONDS]   each target for SECONDS (default 60; make check: 30)
#        fuzz.sh -r RUNS     each target until RUNS executions (make fuzz-long)
#
# libFuzzer, with ASan and UBSan, on the series' code: jit_claims_fuzz
# checks the trimming rule (claims, mmaps, forks and execs of a few
# processes) against a naive reference; jitdump_fuzz feeds arbitrary bytes
# to jitdump parsing as perf inject does it, then trims an anonymous mmap
# over what it claimed.  Prints the number of executions of each target;
# fails on any crash, leak, excessive allocation or mismatch (the input is
# kept in the cache's fuzz/ directory).
. "$(dirname "$0")/lib.sh"

runs=
if [ "${1:-}" = -r ]; then
	runs=${2:?usage: fuzz.sh -r RUNS}
	limit=(-runs="$runs")
else
	secs=${1:-60}
	limit=(-max_total_time="$secs")
fi
src=$("$TOP/scripts/prepare-src.sh" patched)
# make fuzz-long has its own directory: it may run beside make check's make fuzz
out=$VDIR/fuzz${runs:+-long}
mkdir -p "$out"
arch=$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
inc=(-I"$src/tools/include" -I"$src/tools/arch/$arch/include" -I"$src/tools/perf/util" -I"$src/tools/perf"
     -I"$src/tools/lib" -I"$src/tools/lib/perf/include" -I"$src/tools/include/uapi")
cflags=(-g -O1 -D_GNU_SOURCE -Wall -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
util=$src/tools/perf/util
lib=("$util/jit-claims.c" "$util/hashmap.c" "$src/tools/lib/rbtree.c" "$src/tools/lib/zalloc.c"
     "$src/tools/lib/string.c" "$src/tools/lib/ctype.c")
clang "${cflags[@]}" "${inc[@]}" -o "$out/jit_claims_fuzz" "$TOP/fuzz/jit_claims_fuzz.c" "${lib[@]}"
# genelf_debug.c, upstream's DWARF writer, reads the packed debug entries
# of a jitdump unaligned, passes memcpy() a NULL of size 0, shifts an int
# by 57 for a negative line delta and lets line deltas overflow an int:
# UBSan would stop there on most jitdumps with debug info.  That file gets
# ASan only.
clang -g -O1 -D_GNU_SOURCE -Wall -fsanitize=fuzzer-no-link,address -DHAVE_LIBDW_SUPPORT "${inc[@]}" \
	-c -o "$out/genelf_debug.o" "$util/genelf_debug.c"
clang "${cflags[@]}" -DHAVE_JITDUMP -DHAVE_LIBELF_SUPPORT -DHAVE_LIBDW_SUPPORT "${inc[@]}" \
	-o "$out/jitdump_fuzz" "$TOP/fuzz/jitdump_fuzz.c" "$util/jitdump.c" "$util/genelf.c" \
	"$out/genelf_debug.o" "$util/blake2s.c" "$util/strbuf.c" "${lib[@]}" -lelf -ldw -Wl,--wrap=jit_claims__add

# Seeds for jitdump_fuzz: well-formed jitdumps of each record type, in
# both byte orders, so that the fuzzer starts past the header checks, in
# both settings of jitdump_fuzz (picked by the parity of the size).
seeds=$out/seeds-jitdump_fuzz
rm -rf "$seeds"
mkdir -p "$seeds"
python3 - "$seeds" <<'EOF'
import os
import struct
import sys

PID = 4242
ADDR = 0x7f0000001000


def header(e='<', flags=0):
    return struct.pack(e + 'IIIIIIQQ', 0x4A695444, 1, 40, 62, 0, PID, 1000, flags)


def record(e, rid, ts, body):
    return struct.pack(e + 'IIQ', rid, 16 + len(body), ts) + body


def load(e, idx, addr, ts=2000, code=b'\xc3' * 16):
    return record(e, 0, ts, struct.pack(e + 'IIQQQQ', PID, PID, addr, addr, len(code), idx) +
                  b'f%d\0' % idx + code)


def move(e, idx, old, new, ts=3000):
    return record(e, 1, ts, struct.pack(e + 'IIQQQQQ', PID, PID, new, old, new, 16, idx))


def debug(e, addr, ts=1500):
    return record(e, 2, ts, struct.pack(e + 'QQ', addr, 2) +
                  struct.pack(e + 'QII', addr, 10, 0) + b'x.c\0' +
                  struct.pack(e + 'QII', addr + 4, 11, 0) + b'\xff\0')


def unwind(e, ts=1600):
    return record(e, 4, ts, struct.pack(e + 'QQQ', 32, 8, 32) + bytes(32))


seeds = {}
for e, name in (('<', 'le'), ('>', 'be')):
    seeds[name + '-load'] = header(e) + load(e, 1, ADDR)
    seeds[name + '-adjacent'] = header(e) + load(e, 1, ADDR) + load(e, 2, ADDR + 16, 2100)
    seeds[name + '-debug-move'] = header(e) + debug(e, ADDR) + load(e, 1, ADDR) + \
        move(e, 1, ADDR, ADDR + 64)
    seeds[name + '-unwind'] = header(e) + unwind(e) + load(e, 1, ADDR)
    seeds[name + '-arch-ts-close'] = header(e, flags=1) + load(e, 1, ADDR) + \
        record(e, 3, 4000, b'')
for name, data in seeds.items():
    # and one byte more: the other parity (trailing bytes are not a record)
    for suffix, pad in (('', b''), ('-pad', b'\0')):
        with open(os.path.join(sys.argv[1], name + suffix), 'wb') as f:
            f.write(data + pad)
EOF

cd "$out"
# One core each: the targets run side by side.
run() {
	local target=$1 start=$SECONDS extra=() n
	mkdir -p "corpus-$target"
	[ -d "seeds-$target" ] && extra=("seeds-$target")
	if ! ./$target "${limit[@]}" -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/$target-" "corpus-$target" "${extra[@]}" \
		>"$out/$target.log" 2>&1; then
		tail -30 "$out/$target.log"
		echo "$target found a problem; the input is saved as $out/$target-{crash,leak,oom,timeout}-*"
		return 1
	fi
	n=$(awk '/stat::number_of_executed_units/ { n = $2 } END { print n }' "$out/$target.log")
	if [ -n "$runs" ] && [ "${n:-0}" -lt "$runs" ]; then
		echo "$target: stopped after ${n:-no} executions, fewer than $runs (log: $out/$target.log)"
		return 1
	fi
	echo "$target: $n executions in $((SECONDS - start))s, nothing found"
}
run jit_claims_fuzz >"$out/jit_claims_fuzz.result" &
a=$!
run jitdump_fuzz >"$out/jitdump_fuzz.result" &
b=$!
fail=0
wait $a || fail=1
wait $b || fail=1
cat "$out/jit_claims_fuzz.result" "$out/jitdump_fuzz.result"
exit $fail
