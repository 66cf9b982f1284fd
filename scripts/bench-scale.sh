#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: bench-scale.sh [-r RUNS] [SIZES...]   (default 10000 100000 1000000,
#                                               capped by BENCH_MAX)
#
# How perf inject --jit grows with the number of jitted functions, stock
# and patched, on the generator's input (gen-jit-perfdata -n N -k N
# -s 100000: N functions, N W^X flips of the growing mapping, 100,000
# samples).  For each size: medians of RUNS alternating runs (3 above
# 100,000 functions) of wall time and peak RSS, microseconds per function,
# the marginal cost of a function between two sizes, and the growth
# exponent log(wall2 / wall1) / log(N2 / N1).  Above 100,000 functions
# stock runs under a timeout of twice patched's first run (stock 7.3.4
# needs hours for 1,000,000): when stock is killed, patched took less
# than half of stock's time there, and the table says "> LIMIT".
#
# The floor: bench/plain-jit-write.c writes what inject must write for
# each function (a file of the bytes of one jitted-PID-N.so, one MMAP2
# record) in a plain loop; "x plain" is each build's wall time over the
# loop's at the same size.
#
# The runs write their files to a tmpfs (BENCH_SCALE_DIR, default
# /dev/shm/perf-jit-bench-scale, when it has room for 1,000,000 files):
# what grows there is perf's own work.  On ext4 a directory of a million
# files adds a superlinear cost of its own, the same for every build and
# for the plain loop, and inode reuse after a large deletion adds noise
# of tens of seconds (see clean()); set BENCH_SCALE_DIR to a directory on
# a disk to measure that too.  Each run starts from a directory without
# jitted-*.so files, after sync(1), so that no run pays for the writeback
# or the deletion of the files of the one before; the order of the builds
# rotates from run to run.
. "$(dirname "$0")/lib.sh"

runs=5
while getopts r: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [SIZES...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)
max=${BENCH_MAX:-1000000}

require_builds stock patched
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
mkdir -p "$VDIR/bench"
gen=$VDIR/bench/gen-jit-perfdata
plain=$VDIR/bench/plain-jit-write
work=${BENCH_SCALE_DIR:-}
if [ -z "$work" ]; then
	work=$VDIR/bench
	# 1,000,000 files of one page each, and the inputs and outputs.
	if [ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)" -gt $((8 << 20)) ] 2>/dev/null; then
		work=/dev/shm/perf-jit-bench-scale
		trap 'rm -rf "$work"' EXIT
	fi
fi
mkdir -p "$work"
echo "   (files in $work, $(stat -f -c %T "$work"))"
cc -O2 -Wall -Wextra -Werror -o "$gen" "$TOP/bench/gen-jit-perfdata.c"
cc -O2 -Wall -Wextra -Werror -o "$plain" "$TOP/bench/plain-jit-write.c"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# clean DIR: remove the last run's output.  ext4 does not reuse an inode
# deleted less than 30 s ago (recently_deleted()) and scans past each one,
# so a run right after deleting 100,000 files pays several times the
# system time: wait that out.
clean() {
	local n
	n=$(find "$1" -maxdepth 1 -name 'jitted-*.so' -print -delete 2>/dev/null | wc -l)
	rm -f "$1"/out.*
	sync
	[ "$n" -lt 50000 ] || [ "$(stat -f -c %T "$1")" = tmpfs ] || sleep 35
}

# timed DIR NAME LIMIT CMD...: run CMD, append wall seconds and peak RSS
# KiB to DIR/NAME.{wall,rss}; returns 124 when LIMIT (s, 0: none) ran out.
timed() {
	local dir=$1 name=$2 limit=$3 t0 t1 rc=0 rss
	shift 3
	clean "$dir"
	t0=$(date +%s%N)
	if [ "$limit" = 0 ]; then
		/usr/bin/time -f '%M' -o "$dir/time" "$@" >/dev/null 2>&1 || rc=$?
	else
		timeout "$limit" /usr/bin/time -f '%M' -o "$dir/time" "$@" >/dev/null 2>&1 || rc=$?
	fi
	t1=$(date +%s%N)
	[ $rc -eq 0 ] || return $rc
	rss=$(tail -1 "$dir/time")
	awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f\n", ns / 1e9 }' >>"$dir/$name.wall"
	echo "$rss" >>"$dir/$name.rss"
}

fmt='%9s %-8s %10s %12s %10s %12s %9s %8s\n'
# shellcheck disable=SC2059
printf "$fmt" functions build "wall (s)" "RSS (KiB)" "us/func" "marginal us" exponent "x plain"
declare -A prev_wall
prev_n=
for n in "${sizes[@]}"; do
	[ "$n" -le "$max" ] || continue
	d=$work/scale-$n
	rm -rf "$d"
	mkdir -p "$d"
	"$gen" -o "$d" -n "$n" -k "$n" -s 100000 >/dev/null
	r=$runs
	[ "$n" -le 100000 ] || r=3
	limit=0 killed=
	for ((i = 0; i < r; i++)); do
		# patched first in the first run: stock's limit comes from it.
		order=(patched stock plain)
		((i % 3 == 0)) || order=("${order[@]:i%3}" "${order[@]:0:i%3}")
		for b in "${order[@]}"; do
			case $b in
			patched)
				timed "$d" patched 0 "$TOP/build/${BPREFIX}patched/perf" inject --jit \
					-i "$d/perf.data" -o "$d/out.patched" ||
					die "patched perf inject failed at $n"
				# plain writes the bytes of one of its jitted-PID-N.so.
				[ -e "$d/template.so" ] || cp "$d/jitted-4000007-1.so" "$d/template.so" ||
					die "no jitted-4000007-1.so at $n"
				[ "$n" -le 100000 ] || [ "$limit" != 0 ] ||
					limit=$(awk '{ printf "%d", 2 * $1 + 1 }' "$d/patched.wall")
				;;
			stock)
				[ -z "$killed" ] || continue
				rc=0
				timed "$d" stock "$limit" "$TOP/build/${BPREFIX}stock/perf" inject --jit \
					-i "$d/perf.data" -o "$d/out.stock" || rc=$?
				[ $rc -eq 0 ] || [ $rc -eq 124 ] || die "stock perf inject failed at $n"
				[ $rc -ne 124 ] || killed=$limit
				;;
			plain)
				[ -e "$d/template.so" ] || continue
				timed "$d" plain 0 "$plain" "$d" "$n" "$d/template.so" ||
					die "plain loop failed at $n"
				;;
			esac
		done
	done
	clean "$d"
	w_plain=$(median <"$d/plain.wall")
	for b in plain stock patched; do
		w=
		[ ! -s "$d/$b.wall" ] || w=$(median <"$d/$b.wall")
		[ "$b" != stock ] || [ -z "$killed" ] || w=$killed
		[ -n "$w" ] || continue
		rss=-
		[ ! -s "$d/$b.rss" ] || rss=$(median <"$d/$b.rss")
		label=$w marg=- expo=-
		if [ -n "$prev_n" ] && [ -n "${prev_wall[$b]:-}" ]; then
			read -r marg expo < <(awk -v w1="${prev_wall[$b]}" -v w2="$w" \
				-v n1="$prev_n" -v n2="$n" 'BEGIN {
				printf "%.1f %.2f\n", (w2 - w1) * 1e6 / (n2 - n1), log(w2 / w1) / log(n2 / n1) }')
		fi
		if [ "$b" = stock ] && [ -n "$killed" ]; then
			label="> $w" marg=-
			[ "$expo" = - ] || expo="> $expo"
		fi
		# shellcheck disable=SC2059
		printf "$fmt" "$n" "$b" "$label" "$rss" \
			"$(awk -v w="$w" -v n="$n" 'BEGIN { printf "%.1f", w * 1e6 / n }')" "$marg" "$expo" \
			"$(awk -v w="$w" -v p="$w_plain" 'BEGIN { printf "%.2f", w / p }')"
		prev_wall[$b]=$w
	done
	# A killed stock has no time to grow from.
	[ -z "$killed" ] || prev_wall[stock]=
	prev_n=$n
done
