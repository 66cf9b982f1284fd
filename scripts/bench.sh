#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: bench.sh [-q] [-r RUNS] [-n FUNCS] [-k FLIPS] [-s SAMPLES]
#
# perf inject --jit, stock vs patched, on the same input in one run:
# medians of wall time and peak RSS over RUNS alternating runs, their
# ratios patched/stock, the mmap records and size of each output; then the
# scaling of the patched filter with the number of functions; then the
# growth of stock and patched with 10k, 100k and 1M functions
# (scripts/bench-scale.sh, BENCH_MAX caps the sizes); then the
# real recordings of make e2e; then a system-wide recording with many
# short-lived processes (scripts/bench-syswide.sh); then Node.js with
# 80,000 functions that spawns 300 children, and without the children
# (scripts/bench-fork.sh); then --jit-merged-elf against a file per
# function (scripts/bench-merged.sh, about 50 minutes).  Goals: wall and
# RSS ratios <= 1.02 and 1.05 on
# the default input, <= 1.05 and 1.05 on the system-wide one, CPU and RSS
# ratios <= 1.10 on node with and without children, output mmap records
# linear in FUNCS.  -q: the default and the perf record -d inputs only.
. "$(dirname "$0")/lib.sh"

runs=5 nfuncs=10000 flips=100000 samples=1000000 quick=
while getopts qr:n:k:s: opt; do
	case $opt in
	q) quick=1 ;;
	r) runs=$OPTARG ;;
	n) nfuncs=$OPTARG ;;
	k) flips=$OPTARG ;;
	s) samples=$OPTARG ;;
	*) echo "usage: $0 [-q] [-r RUNS] [-n FUNCS] [-k FLIPS] [-s SAMPLES]" >&2; exit 2 ;;
	esac
done

require_builds stock patched
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
work=$VDIR/bench
mkdir -p "$work"
gen=$work/gen-jit-perfdata
cc -O2 -Wall -Wextra -Werror -o "$gen" "$TOP/bench/gen-jit-perfdata.c"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# measure DIR INPUT RUNS: alternate stock and patched; leaves
# DIR/{stock,patched}.{wall,user,rss}: wall and user seconds, peak RSS KiB
measure() {
	local dir=$1 in=$2 n=$3 i b t0 t1 user rss
	rm -f "$dir"/*.wall "$dir"/*.user "$dir"/*.rss
	for ((i = 0; i < n; i++)); do
		for b in stock patched; do
			t0=$(date +%s%N)
			/usr/bin/time -f '%U %M' -o "$dir/time" "$TOP/build/$BPREFIX$b/perf" inject --jit \
				-i "$in" -o "$dir/out.$b" 2>/dev/null >/dev/null ||
				die "$b perf inject failed on $in"
			t1=$(date +%s%N)
			read -r user rss <"$dir/time"
			echo "$(( (t1 - t0) / 1000000 ))" | awk '{ printf "%.3f\n", $1 / 1000 }' >>"$dir/$b.wall"
			echo "$user" >>"$dir/$b.user"
			echo "$rss" >>"$dir/$b.rss"
		done
	done
}

mmap_records() {
	"$TOP/build/${BPREFIX}patched/perf" report --stats -i "$1" 2>/dev/null |
		awk '/ MMAP2? events:/ { n += $3 } END { print n + 0 }'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }

# compare NAME GEN-FLAGS...: one input, both builds, medians and ratios.
compare() {
	local name=$1 d=$work/$1 b
	shift
	rm -rf "$d"
	mkdir -p "$d"
	"$gen" -o "$d" "$@"
	measure "$d" "$d/perf.data" "$runs"
	printf '%-8s %10s %15s %14s %12s\n' build "wall (s)" "peak RSS (KiB)" "mmap records" "output (B)"
	for b in stock patched; do
		printf '%-8s %10s %15s %14s %12s\n' "$b" "$(median <"$d/$b.wall")" \
			"$(median <"$d/$b.rss")" "$(mmap_records "$d/out.$b")" "$(stat -c %s "$d/out.$b")"
	done
	wall_ratio=$(ratio "$(median <"$d/patched.wall")" "$(median <"$d/stock.wall")")
	rss_ratio=$(ratio "$(median <"$d/patched.rss")" "$(median <"$d/stock.rss")")
	echo "ratio patched/stock: wall $wall_ratio (goal <= 1.02), peak RSS $rss_ratio (goal <= 1.05)"
	find "$d" -name 'jitted-*.so' -delete
}

echo "== perf inject --jit, stock vs patched, as perf record -k mono records: $nfuncs functions,"
echo "   $flips W^X flips, $samples samples, medians of $runs runs each"
compare default -n "$nfuncs" -k "$flips" -s "$samples"
echo
echo "== the same with data mmaps (perf record -d): each flip also reports the writable page,"
echo "   which stock drops and patched must keep (around the claims)"
compare data-mmaps -n "$nfuncs" -k "$flips" -s "$samples" -d
[ -z "$quick" ] || exit 0

echo
echo "== scaling of the patched filter (K = $flips flips, 100000 samples): cost measured by"
echo "   perf record -F 10000 on patched perf inject itself, in jit_claims__mmap() less the"
echo "   writing of pieces, per anonymous record; jit_claims__add() per claim"
printf '%8s %14s %14s %16s %16s %16s\n' functions "anon records" "filter (s)" "ns / anon record" "ns / claim" "mmap out / func"
for n in 1000 10000 100000; do
	d=$work/scale-$n
	rm -rf "$d"
	mkdir -p "$d"
	"$gen" -o "$d" -n "$n" -k "$flips" -s 100000 >/dev/null
	"$TOP/build/${BPREFIX}patched/perf" record -q -g -e cpu-clock -F 10000 -o "$d/prof.data" -- \
		"$TOP/build/${BPREFIX}patched/perf" inject --jit -i "$d/perf.data" -o "$d/out.patched" \
		2>/dev/null >/dev/null || die "profiled perf inject failed"
	samples=$("$TOP/build/${BPREFIX}patched/perf" report -i "$d/prof.data" --stats 2>/dev/null |
		awk '/SAMPLE events:/ && !n++ { print $3 }')
	"$TOP/build/${BPREFIX}patched/perf" report -i "$d/prof.data" --stdio --children --sort sym \
		2>/dev/null >"$d/prof.txt"
	awk -v n="$n" -v k="$flips" -v tot="$samples" -v m="$(mmap_records "$d/out.patched")" '
		/\[\.\] jit_claims__mmap$/ { sub("%", "", $1); trim = $1 }
		/\[\.\] perf_inject__jit_mmap_piece$/ { sub("%", "", $1); piece = $1 }
		/\[\.\] jit_claims__add$/ { sub("%", "", $1); add = $1 }
		END {
			f = (trim - piece) / 100 * tot / 10000
			a = add / 100 * tot / 10000
			printf "%8d %14d %14.3f %16.0f %16.0f %16.2f\n", n, n + k, f,
			       f * 1e9 / (n + k), a * 1e9 / n, m / n
		}' "$d/prof.txt"
	find "$d" -name 'jitted-*.so' -delete
	rm -f "$d"/out.* "$d/prof.data"
done

echo
echo "== scaling of perf inject --jit with the number of functions, stock and patched"
echo "   (scripts/bench-scale.sh; sizes up to BENCH_MAX=${BENCH_MAX:-1000000})"
"$TOP/scripts/bench-scale.sh" -r "$runs"

echo
e2e_runs=$((runs < 10 ? 10 : runs))
echo "== real recordings (make e2e), $e2e_runs runs each"
if ! ls "$VDIR"/e2e/*/perf.data >/dev/null 2>&1; then
	"$TOP/scripts/e2e.sh" lli node >/dev/null || true
fi
printf '%-16s %10s %10s %8s %14s %14s %8s\n' client "stock (s)" "patched (s)" ratio "stock RSS" "patched RSS" ratio
for in in "$VDIR"/e2e/*/perf.data; do
	d=$(dirname "$in")
	measure "$d" "$in" "$e2e_runs"
	s=$(median <"$d/stock.wall") p=$(median <"$d/patched.wall")
	sr=$(median <"$d/stock.rss") pr=$(median <"$d/patched.rss")
	printf '%-16s %10s %10s %8s %14s %14s %8s\n' "$(basename "$d")" "$s" "$p" "$(ratio "$p" "$s")" \
		"$sr" "$pr" "$(ratio "$pr" "$sr")"
done

echo
"$TOP/scripts/bench-syswide.sh" -r "$runs"

echo
"$TOP/scripts/bench-fork.sh" -r "$((runs < 5 ? 5 : runs))"

echo
"$TOP/scripts/bench-merged.sh"
