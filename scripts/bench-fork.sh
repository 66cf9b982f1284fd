#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: bench-fork.sh [-r RUNS] [-n FUNCS] [-c CHILDREN]
#
# perf inject --jit, stock vs patched, on a real JIT that forks: Node.js
# (tests/e2e/node-fork.js, node --perf-prof) creating FUNCS functions
# (default 80,000: V8 writes a code load for each, and some more for the
# hot ones), then spawning CHILDREN children (default 300) with
# execFileSync('/bin/true'), each a FORK, an exec COMM and an EXIT of a
# process that inherits all that code; and the same program without the
# children.  In --jit mode the patched inject follows the claims of a
# process through FORK, COMM and EXIT, where stock only repipes them: this
# measures what that costs on a runtime nobody here wrote.
#
# Records both programs (perf record -k mono -e cpu-clock, as make e2e
# records node) and asserts what they hold, so that the bench cannot
# silently measure less: at least a code load per function in each jitdump
# (80,000 by default), at least CHILDREN children (processes forked by node that exec'd /bin/true,
# from perf script --show-task-events) in the first and none in the
# second.  Then perf inject --jit with both perfs, RUNS alternating runs
# each (at least 5), the order rotating: medians of CPU time (user + sys:
# steadier than wall time on shared cores), wall time and peak RSS, the
# ratios patched/stock beside their goals (<= 1.10), the jitted DSOs each
# build wrote (one per code load, the same for both), and what the
# children add to each build's CPU time (with less without).
#
# The files go to a tmpfs (BENCH_FORK_DIR, default /dev/shm/perf-jit-bench-fork,
# when it has room; removed at the end): a run writes 80,000
# jitted-PID-N.so, and on ext4 rewriting that many files right after
# deleting them costs seconds of system time of its own (see
# bench-scale.sh).  Called by bench.sh; PATCHED_PERF=path measures another
# patched perf.
. "$(dirname "$0")/lib.sh"

runs=5 nfuncs=80000 children=300
usage() { echo "usage: $0 [-r RUNS] [-n FUNCS] [-c CHILDREN]" >&2; exit 2; }
while getopts r:n:c: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	n) nfuncs=$OPTARG ;;
	c) children=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 0 ] || usage
[[ $runs =~ ^[0-9]+$ && $nfuncs =~ ^[0-9]+$ && $children =~ ^[0-9]+$ ]] || usage
[ "$runs" -ge 5 ] || die "-r $runs: at least 5 runs of each build"

require_builds stock patched
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
command -v node >/dev/null || die "no node (apt-get install nodejs)"
STOCK=$TOP/build/${BPREFIX}stock/perf
PATCHED=${PATCHED_PERF:-$TOP/build/${BPREFIX}patched/perf}
goal=1.10
rerun="scripts/bench-fork.sh -r $runs -n $nfuncs -c $children"
[ "$BASE" = 7.3 ] || rerun="BASE=$BASE $rerun"

work=${BENCH_FORK_DIR:-}
if [ -z "$work" ]; then
	work=$VDIR/bench/fork
	# the jitdumps (~100 MB each) and 80,000 files of a page or two.
	if [ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)" -gt $((2 << 20)) ] 2>/dev/null; then
		work=/dev/shm/perf-jit-bench-fork
		trap 'rm -rf "$work"' EXIT
	fi
fi
rm -rf "$work"
mkdir -p "$work"
# Leave the build-id cache alone, as the shell tests do (stock 6.12's
# inject copies every jitted DSO into it).
export PERF_BUILDID_DIR=$work/debug

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b ? a / b : 0 }'; }
fail() { printf 'FAIL %s: %s\n  rerun: %s\n' "$1" "$2" "$rerun" >&2; exit 1; }

# record NAME CHILDREN: node-fork.js under perf record in $work/NAME;
# asserts the code loads and the children; prints the jitdump's path.
record() {
	local name=$1 nchild=$2 d=$work/$1 dump loads forks execs
	mkdir -p "$d"
	msg "recording $name: node-fork.js, $nfuncs functions, $nchild children"
	(cd "$d" && "$STOCK" record -q -k mono -e cpu-clock -o "$d/perf.data" -- \
		node --perf-prof --interpreted-frames-native-stack \
		"$TOP/tests/e2e/node-fork.js" "$nfuncs" "$nchild" 2 1000 >"$d/out") \
		2>"$d/record.err" || { cat "$d/record.err" >&2; fail "$name" "perf record failed"; }
	dump=$(find "$d" -maxdepth 1 -name 'jit-*.dump' | head -1)
	[ -s "$dump" ] || fail "$name" "no jitdump in $d"
	loads=$(python3 "$TOP/scripts/jit-attribution.py" --perf-data "$d/perf.data" \
		"$dump" /dev/null | python3 -c 'import json, sys; print(json.load(sys.stdin)["code_loads"])')
	# Children: processes node forked (FORK(pid:tid):(ppid:ptid) with
	# pid != ppid; node's threads have pid == ppid) and those that
	# exec'd /bin/true.
	read -r forks execs < <("$STOCK" script --show-task-events -i "$d/perf.data" 2>/dev/null |
		awk 'match($0, /PERF_RECORD_FORK\([0-9]+:[0-9]+\):\([0-9]+:[0-9]+\)/) {
			split(substr($0, RSTART + 17, RLENGTH - 18), p, /[:()]+/)
			if (p[1] != p[3]) forks++
		}
		/PERF_RECORD_COMM exec: true:/ { execs++ }
		END { print forks + 0, execs + 0 }')
	printf '%-11s %d code loads, %d children forked, %d exec /bin/true (%s)\n' \
		"$name" "$loads" "$forks" "$execs" "$(cat "$d/out")"
	[ "$loads" -ge "$nfuncs" ] ||
		fail "$name" "$loads code loads in $dump, fewer than the $nfuncs functions"
	if [ "$nchild" -gt 0 ]; then
		[ "$((forks < execs ? forks : execs))" -ge "$nchild" ] ||
			fail "$name" "$forks children forked, $execs exec'd, fewer than $nchild"
	else
		[ "$((forks + execs))" -eq 0 ] ||
			fail "$name" "$forks children forked, $execs exec'd: expected none"
	fi
	echo "$dump" >"$d/dump"
}

# measure NAME: RUNS alternating runs of both injects on $work/NAME; leaves
# NAME/BUILD.{cpu,wall,rss,files}
measure() {
	local name=$1 d=$work/$1 i b user sys rss wall order
	for ((i = 0; i < runs; i++)); do
		order=(stock patched)
		((i % 2 == 0)) || order=(patched stock)
		for b in "${order[@]}"; do
			perf=$STOCK
			[ "$b" = stock ] || perf=$PATCHED
			find "$d" -maxdepth 1 -name 'jitted-*.so' -delete
			rm -f "$d/out.data"
			sync
			/usr/bin/time -f '%U %S %M %e' -o "$d/time" "$perf" inject --jit \
				-i "$d/perf.data" -o "$d/out.data" >/dev/null 2>"$d/inject.$b.err" ||
				fail "$name" "$b perf inject failed: $d/inject.$b.err"
			read -r user sys rss wall <"$d/time"
			awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f\n", u + s }' >>"$d/$b.cpu"
			echo "$wall" >>"$d/$b.wall"
			echo "$rss" >>"$d/$b.rss"
			find "$d" -maxdepth 1 -name 'jitted-*.so' | wc -l >>"$d/$b.files"
		done
	done
	find "$d" -maxdepth 1 -name 'jitted-*.so' -delete
}

fmt='%-11s %-8s %9s %9s %10s %10s %10s %9s %9s\n'
report() {
	local name=$1 d=$work/$1 b s p
	for b in stock patched; do
		# shellcheck disable=SC2059
		printf "$fmt" "$name" "$b" "$(median <"$d/$b.cpu")" "$(median <"$d/$b.wall")" \
			"$(median <"$d/$b.rss")" "$(sort -n "$d/$b.files" | head -1)" \
			"$(sort -g "$d/$b.cpu" | head -1)-$(sort -g "$d/$b.cpu" | tail -1)" - -
	done
	s=$(median <"$d/stock.cpu") p=$(median <"$d/patched.cpu")
	cpu_ratio=$(ratio "$p" "$s")
	rss_ratio=$(ratio "$(median <"$d/patched.rss")" "$(median <"$d/stock.rss")")
	# shellcheck disable=SC2059
	printf "$fmt" "$name" ratio "$cpu_ratio" \
		"$(ratio "$(median <"$d/patched.wall")" "$(median <"$d/stock.wall")")" "$rss_ratio" \
		- - "<= $goal" "<= $goal"
	if [ "$(sort -n "$d/stock.files" | head -1)" != "$(sort -n "$d/patched.files" | head -1)" ]; then
		echo "  $name: stock and patched wrote different numbers of jitted DSOs"
		bad=1
	fi
	awk -v r="$cpu_ratio" -v g="$goal" 'BEGIN { exit !(r > g) }' &&
		missed+=("$name: CPU patched/stock $cpu_ratio")
	awk -v r="$rss_ratio" -v g="$goal" 'BEGIN { exit !(r > g) }' &&
		missed+=("$name: peak RSS patched/stock $rss_ratio")
	return 0
}

echo "== perf inject --jit on node --perf-prof that forks: $nfuncs functions, then $children"
echo "   children (execFileSync('/bin/true')), and the same without; $runs alternating runs each"
echo "   (load average before: $(cut -d' ' -f1-3 /proc/loadavg); files in $work, $(stat -f -c %T "$work"))"
record children "$children"
record nochildren 0
measure children
measure nochildren
# shellcheck disable=SC2059
printf "$fmt" input build "CPU (s)" "wall (s)" "RSS (KiB)" "jitted" "CPU range" "CPU goal" "RSS goal"
bad=0 missed=()
report children
report nochildren
# What the children themselves cost each build, apart from what else the
# base's builds do differently (stock 6.12 writes a build-id table).
printf '%-11s %-8s %9s   (CPU with children less without: what %d FORK/COMM/EXIT cost)\n' \
	+children stock "$(awk -v a="$(median <"$work/children/stock.cpu")" \
		-v b="$(median <"$work/nochildren/stock.cpu")" 'BEGIN { printf "%+.2f", a - b }')" "$children"
printf '%-11s %-8s %9s\n' +children patched "$(awk -v a="$(median <"$work/children/patched.cpu")" \
	-v b="$(median <"$work/nochildren/patched.cpu")" 'BEGIN { printf "%+.2f", a - b }')"
echo "   (medians; CPU = user + sys; load average after: $(cut -d' ' -f1-3 /proc/loadavg))"
for m in "${missed[@]}"; do
	echo "   over goal (<= $goal): $m; rerun: $rerun"
done
exit $bad
