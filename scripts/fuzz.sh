#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: fuzz.sh [SECONDS]   (default 60; make check runs a short smoke run)
#
# libFuzzer, with ASan and UBSan, on the series' code, each target for
# SECONDS: jit_claims_fuzz checks the trimming rule against a naive
# reference; jitdump_fuzz feeds arbitrary bytes to jitdump parsing as
# perf inject does it.  Prints the number of executions; fails on any
# crash, leak, excessive allocation or mismatch (the input is kept in the
# cache's fuzz/ directory).
. "$(dirname "$0")/lib.sh"

secs=${1:-60}
src=$("$TOP/scripts/prepare-src.sh" patched)
out=$VDIR/fuzz
mkdir -p "$out"
arch=$(uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
inc=(-I"$src/tools/include" -I"$src/tools/arch/$arch/include" -I"$src/tools/perf/util" -I"$src/tools/perf"
     -I"$src/tools/lib" -I"$src/tools/lib/perf/include" -I"$src/tools/include/uapi")
cflags=(-g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
util=$src/tools/perf/util
clang "${cflags[@]}" "${inc[@]}" -o "$out/jit_claims_fuzz" "$TOP/fuzz/jit_claims_fuzz.c" \
	"$util/jit-claims.c" "$src/tools/lib/rbtree.c" "$src/tools/lib/zalloc.c"
clang "${cflags[@]}" -DHAVE_JITDUMP -DHAVE_LIBELF_SUPPORT "${inc[@]}" \
	-o "$out/jitdump_fuzz" "$TOP/fuzz/jitdump_fuzz.c" "$util/jitdump.c" "$util/genelf.c" \
	"$util/jit-claims.c" "$util/hashmap.c" "$src/tools/lib/rbtree.c" \
	"$src/tools/lib/zalloc.c" -lelf

cd "$out"
fail=0
for target in jit_claims_fuzz jitdump_fuzz; do
	mkdir -p "corpus-$target"
	if ! ./$target -max_total_time="$secs" -rss_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix="$out/$target-" "corpus-$target" >"$out/$target.log" 2>&1; then
		tail -30 "$out/$target.log"
		echo "$target found a problem; the input is saved as $out/$target-crash-*"
		fail=1
		continue
	fi
	runs=$(awk '/stat::number_of_executed_units/ { print $2 }' "$out/$target.log")
	echo "$target: $runs executions in ${secs}s, nothing found"
done
exit $fail
