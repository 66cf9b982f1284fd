#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: bench-syswide.sh [-r RUNS] [-p PROCS] [-f]
#
# perf inject --jit, stock vs patched, on a system-wide recording with many
# short-lived processes: in --jit mode the patched inject processes FORK,
# COMM and EXIT records (it clones maps and claims on fork, drops them on
# exit), where stock only repipes them; this measures what that costs.
#
# Records once into the cache ($VDIR/bench/syswide.data; -f records again)
# with the stock perf: perf record -a -k mono -e cpu-clock while, at the
# same time, the patched perf's "perf test -w jitdump 6 2000" runs (its
# jitdump and, after inject, the jitted-PID-N.so files are in
# $VDIR/bench/syswide/) and a loop spawns PROCS short processes (half
# /bin/true, half sh -c ':', each a FORK, an exec COMM and an EXIT).  Then
# perf inject --jit with both perfs, RUNS alternating runs each: medians of
# wall time and peak RSS, the ratios patched/stock, and that both outputs
# hold the jitted maps.  Goal: both ratios <= 1.05.  CPU time (user + sys)
# is shown too: on shared cores it is steadier than wall time.  Called by
# bench.sh; PATCHED_PERF=path measures another patched perf.
. "$(dirname "$0")/lib.sh"

runs=5 procs=16000 force=
while getopts r:p:f opt; do
	case $opt in
	r) runs=$OPTARG ;;
	p) procs=$OPTARG ;;
	f) force=1 ;;
	*) echo "usage: $0 [-r RUNS] [-p PROCS] [-f]" >&2; exit 2 ;;
	esac
done

require_builds stock patched
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
STOCK=$TOP/build/${BPREFIX}stock/perf
PATCHED=${PATCHED_PERF:-$TOP/build/${BPREFIX}patched/perf}
work=$VDIR/bench
data=$work/syswide.data
jitdir=$work/syswide	# the workload's cwd: its jitdump, the jitted .so files
out=$work/syswide.out	# inject outputs and timings
goal_wall=1.05 goal_rss=1.05
# Leave the build-id cache alone, as the shell tests do.
export PERF_BUILDID_DIR=$work/syswide.debug

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }

# stat_count FILE TYPE: how many TYPE records perf report --stats counts
stat_count() {
	"$PATCHED" report --stats -i "$1" 2>/dev/null |
		awk -v t="$2" '$1 == t && $2 == "events:" { print $3; f = 1; exit } END { if (!f) print 0 }'
}

if [ -n "$force" ] || [ ! -s "$data" ] || ! ls "$jitdir"/jit-*.dump >/dev/null 2>&1; then
	msg "recording $data: perf record -a, jitdump workload and $procs short processes"
	rm -rf "$jitdir" "$data" "$PERF_BUILDID_DIR"
	mkdir -p "$jitdir"
	# The jitdump workload runs its 6 functions for 2 s each, twice
	# (about 24 s); the processes start with it and are spread over
	# however long the loop takes.
	# shellcheck disable=SC2016 # the inner script's own expansions
	(cd "$jitdir" && "$STOCK" record -N -a -k mono -e cpu-clock -m 1024 -o "$data.tmp" -- \
		bash -c '
			"$1" test -w jitdump 6 2000 &
			for ((i = 0; i < $2 / 2; i++)); do
				/bin/true
				sh -c ":"
			done
			wait' spawn "$PATCHED" "$procs") >"$jitdir/record.out" 2>&1 ||
		{ cat "$jitdir/record.out" >&2; die "perf record -a failed"; }
	ls "$jitdir"/jit-*.dump >/dev/null 2>&1 || die "the jitdump workload wrote no jitdump"
	mv "$data.tmp" "$data"
fi

mkdir -p "$out"
rm -f "$out"/*.wall "$out"/*.cpu "$out"/*.rss
for ((i = 0; i < runs; i++)); do
	for b in stock patched; do
		perf=$STOCK
		[ $b = stock ] || perf=$PATCHED
		t0=$(date +%s%N)
		/usr/bin/time -f '%U %S %M' -o "$out/time" "$perf" inject --jit \
			-i "$data" -o "$out/out.$b" 2>"$out/inject.$b.err" >/dev/null ||
			{ cat "$out/inject.$b.err" >&2; die "$b perf inject --jit failed on $data"; }
		t1=$(date +%s%N)
		echo "$(( (t1 - t0) / 1000000 ))" | awk '{ printf "%.3f\n", $1 / 1000 }' >>"$out/$b.wall"
		read -r user sys rss <"$out/time"
		echo "$user $sys" | awk '{ printf "%.2f\n", $1 + $2 }' >>"$out/$b.cpu"
		echo "$rss" >>"$out/$b.rss"
	done
done

echo "== perf inject --jit on a system-wide recording (perf record -a) with many short-lived"
echo "   processes, stock vs patched, medians of $runs alternating runs each"
printf '%-8s' input
for t in FORK COMM EXIT MMAP MMAP2 SAMPLE LOST; do printf ' %8s' "$t"; done
echo
printf '%-8s' records
for t in FORK COMM EXIT MMAP MMAP2 SAMPLE LOST; do printf ' %8s' "$(stat_count "$data" "$t")"; done
printf '   (%s B)\n' "$(stat -c %s "$data")"
printf '%-8s %10s %10s %15s %13s %15s %12s\n' build "wall (s)" "cpu (s)" "peak RSS (KiB)" "jitted MMAP2" \
	"jitted samples" "output (B)"
for b in stock patched; do
	# jitted maps in the output, and samples that resolve into them
	"$PATCHED" script -i "$out/out.$b" --show-mmap-events -F comm,pid,ip,dso 2>/dev/null >"$out/script.$b"
	printf '%-8s %10s %10s %15s %13s %15s %12s\n' "$b" "$(median <"$out/$b.wall")" \
		"$(median <"$out/$b.cpu")" "$(median <"$out/$b.rss")" \
		"$(grep -c 'PERF_RECORD_MMAP2.*/jitted-' "$out/script.$b")" \
		"$(grep -v PERF_RECORD "$out/script.$b" | grep -c '(.*/jitted-[0-9]*-[0-9]*\.so)')" \
		"$(stat -c %s "$out/out.$b")"
done
wall_ratio=$(ratio "$(median <"$out/patched.wall")" "$(median <"$out/stock.wall")")
rss_ratio=$(ratio "$(median <"$out/patched.rss")" "$(median <"$out/stock.rss")")
cpu_ratio=$(ratio "$(median <"$out/patched.cpu")" "$(median <"$out/stock.cpu")")
verdict=$(awk -v w="$wall_ratio" -v r="$rss_ratio" -v gw="$goal_wall" -v gr="$goal_rss" \
	'BEGIN { print (w <= gw && r <= gr) ? "PASS" : "over goal" }')
echo "ratio patched/stock: wall $wall_ratio (goal <= $goal_wall), peak RSS $rss_ratio (goal <= $goal_rss): $verdict"
echo "  (cpu user + sys $cpu_ratio)"
for b in stock patched; do
	[ "$(grep -c 'PERF_RECORD_MMAP2.*/jitted-' "$out/script.$b")" -gt 0 ] ||
		die "the $b output holds no jitted maps: the jitdump was not injected"
done
rm -f "$out"/script.* "$out"/out.*
