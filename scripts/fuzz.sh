#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: fuzz.sh [SECONDS]   (default 60; make check runs a short smoke run)
#
# libFuzzer, with ASan and UBSan, on the series' code: jit_claims_fuzz
# checks the trimming rule against a naive reference.  Prints the number
# of executions; fails on any crash or mismatch (the input is kept in the
# cache's fuzz/ directory).
. "$(dirname "$0")/lib.sh"

secs=${1:-60}
src=$("$TOP/scripts/prepare-src.sh" patched)
out=$VDIR/fuzz
mkdir -p "$out/corpus-claims"
arch=$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
inc=(-I"$src/tools/include" -I"$src/tools/arch/$arch/include" -I"$src/tools/perf/util" -I"$src/tools/perf"
     -I"$src/tools/lib" -I"$src/tools/lib/perf/include" -I"$src/tools/include/uapi")
clang -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	"${inc[@]}" -o "$out/jit_claims_fuzz" "$TOP/fuzz/jit_claims_fuzz.c" \
	"$src/tools/perf/util/jit-claims.c" "$src/tools/lib/rbtree.c" "$src/tools/lib/zalloc.c"
cd "$out"
if ! ./jit_claims_fuzz -max_total_time="$secs" -print_final_stats=1 \
	-artifact_prefix="$out/" corpus-claims >"$out/claims.log" 2>&1; then
	tail -30 "$out/claims.log"
	die "jit_claims_fuzz found a problem; input saved under $out/"
fi
runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$out/claims.log")
echo "jit_claims_fuzz: $runs executions in ${secs}s, no crash, no mismatch with the reference"
