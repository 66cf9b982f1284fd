#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: e2e.sh [CLIENT...]   (jitloop jitloop+perfmap lli node; default all)
#
# Real JIT runtimes, stock vs patched: record each client once with
# perf record -k mono, inject its jitdump with the stock and the patched
# perf, and count where the samples of JIT code went, against the ground
# truth of the jitdump itself (scripts/jit-attribution.py).  Prints one
# table; fails unless, for the patched perf, >= 99% of the JIT samples of
# every client are attributed right, no perf-map sample is [unknown] and
# inject keeps every sample.  Stock's numbers are the comparison.
. "$(dirname "$0")/lib.sh"

require_builds stock patched
STOCK=$TOP/build/stock/perf
PATCHED=${PATCHED_PERF:-$TOP/build/patched/perf}	# make check-asan passes its own
OUT=${E2E_OUT:-$VDIR/e2e}
rm -rf "$OUT"
mkdir -p "$OUT"
clients=("$@")
[ ${#clients[@]} -gt 0 ] || clients=(jitloop jitloop+perfmap lli node)

# record CLIENT DIR: run the client under perf record in DIR; print the
# jitdump's path.
record() {
	local client=$1 dir=$2 e2e=$TOP/tests/e2e
	local rec=("$PATCHED" record -q -k mono -e cpu-clock -o "$dir/perf.data" --)

	case "$client" in
	jitloop)
		JITDUMPDIR=$dir "${rec[@]}" "$PATCHED" test -w jitloop 6 150 >"$dir/out"
		;;
	jitloop+perfmap)
		JITDUMPDIR=$dir "${rec[@]}" "$PATCHED" test -w jitloop 6 150 perfmap >"$dir/out"
		;;
	lli)
		command -v lli-14 >/dev/null || { echo "skip: no lli-14 (llvm-14)"; return 2; }
		JITDUMPDIR=$dir "${rec[@]}" lli-14 -jit-kind=mcjit \
			-extra-module="$e2e/lli-f0.ll" -extra-module="$e2e/lli-f1.ll" \
			-extra-module="$e2e/lli-f2.ll" -extra-module="$e2e/lli-f3.ll" \
			"$e2e/lli-main.ll" >"$dir/out" || true	# exit code is main's
		;;
	node)
		command -v node >/dev/null || { echo "skip: no node"; return 2; }
		(cd "$dir" && "${rec[@]}" node --perf-prof --interpreted-frames-native-stack \
			"$e2e/node-bench.js" >"$dir/out")
		;;
	*)
		die "unknown client $client"
		;;
	esac 2>"$dir/record.err" || { cat "$dir/record.err" >&2; return 1; }
	find "$dir" -name 'jit-*.dump' | head -1
}

count_samples() {
	"$PATCHED" script -i "$1" -F ip 2>/dev/null | wc -l
}

printf '%-16s %-8s %8s %8s %9s %7s %8s %9s\n' client build samples "in JIT" "right" "//anon" \
	"[unknown]" "perf-map"
fail=0
for client in "${clients[@]}"; do
	dir=$OUT/$client
	mkdir -p "$dir"
	rc=0
	dump=$(record "$client" "$dir") || rc=$?
	if [ $rc -eq 2 ]; then
		printf '%-16s %s\n' "$client" "$dump"
		continue
	fi
	if [ $rc -ne 0 ] || [ -z "$dump" ]; then
		printf '%-16s %s\n' "$client" "recording failed or no jitdump: $dir/record.err"
		fail=1
		continue
	fi
	wpid=${dump##*/jit-}
	wpid=${wpid%.dump}
	map=/tmp/perf-$wpid.map
	in=$(count_samples "$dir/perf.data")
	for build in stock patched; do
		perf=$STOCK
		[ "$build" = patched ] && perf=$PATCHED
		if ! "$perf" inject --jit -i "$dir/perf.data" -o "$dir/perf.$build.data" \
			2>"$dir/inject.$build.err"; then
			printf '%-16s %-8s %s\n' "$client" "$build" "inject failed: $dir/inject.$build.err"
			fail=1
			continue
		fi
		"$perf" script -i "$dir/perf.$build.data" -F time,ip,sym,dso --ns \
			>"$dir/script.$build" 2>/dev/null
		python3 "$TOP/scripts/jit-attribution.py" --perf-map "$map" \
			"$dump" "$dir/script.$build" >"$dir/counts.$build.json"
		read -r samples jit right anon unknown pm pm_right pm_unknown < <(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))
print(*(c[k] for k in ("samples", "jit", "right", "anon", "unknown",
		       "perfmap", "perfmap_right", "perfmap_unknown")))' "$dir/counts.$build.json")
		pct=$(awk -v r="$right" -v j="$jit" 'BEGIN { printf "%.1f%%", j ? 100 * r / j : 0 }')
		pmcol=-
		[ "$pm" -gt 0 ] && pmcol="$pm_right/$pm"
		printf '%-16s %-8s %8d %8d %9s %7d %9d %9s\n' "$client" "$build" "$samples" "$jit" \
			"$pct" "$anon" "$unknown" "$pmcol"
		[ "$build" = patched ] || continue
		problems=()
		[ "$jit" -gt 0 ] || problems+=("no JIT samples")
		[ $((right * 100)) -ge $((jit * 99)) ] || problems+=("only $pct right")
		[ "$pm_unknown" -eq 0 ] || problems+=("$pm_unknown perf-map samples in [unknown]")
		[ "$samples" -eq "$in" ] || problems+=("$in samples in, $samples out")
		if [ ${#problems[@]} -gt 0 ]; then
			printf '%-16s FAIL: %s\n' "$client" "${problems[*]}"
			fail=1
		fi
	done
	rm -f "$map"
done
echo "details: $OUT/<client>/ (perf.data, perf.{stock,patched}.data, counts.*.json)"
exit $fail
