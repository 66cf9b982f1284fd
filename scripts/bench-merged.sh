#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: bench-merged.sh [-r RUNS] [SIZES...]   (default 10000 100000 1000000,
#                                               capped by BENCH_MAX)
#
# perf inject --jit-merged-elf (a jitdump's code in few jitted-PID-mK.so,
# one MMAP2 record per code load with pgoff into its file) against one
# ELF file per code load, on bench-scale.sh's input (gen-jit-perfdata -n N
# -k N -s 100000): stock (perf inject --jit; left out above 100,000
# functions, where it needs hours), per-function (PATCHED_PERF, default
# build/patched/perf, inject --jit), merged (PATCHED_PERF inject
# --jit-merged-elf) and the floor (bench/plain-jit-write-merged.c: the same
# code bytes into one file, the same MMAP2 records, in a plain loop; it
# reads neither the jitdump nor perf.data, which inject must parse and
# rewrite: 137 MB and 196 MB at 1,000,000 functions), and perf's own floor
# ("repipe": PATCHED_PERF inject without --jit over the merged output, which
# reads and writes the same records and does no JIT work).
# Medians of RUNS alternating runs (3; 1 above 100,000 functions) of wall
# time, CPU (user+sys), peak RSS, the jitted-*.so files left, and CPU
# seconds of PATCHED_PERF report --stdio --sort sym and script -F ip,sym
# over the per-function and merged outputs, and what the merged report
# spends on its jitted files (see files() below); growth exponents are
# log(t2 / t1) / log(N2 / N1).  On a tmpfs (BENCH_MERGED_DIR, default
# /dev/shm/perf-jit-bench-merged), then on the cache's disk, there up to
# 100,000 functions unless BENCH_MAX says more.  Runs start without
# jitted-*.so files, after sync(1).  The goals (stated at 1,000,000 on a
# tmpfs) are checked at the largest tmpfs size: PASS/FAIL lines only.
. "$(dirname "$0")/lib.sh"

runs=3
while getopts r: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	*) echo "usage: $0 [-r RUNS] [SIZES...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 100000 1000000)

require_builds stock
stock=$TOP/build/${BPREFIX}stock/perf
patched=${PATCHED_PERF:-$TOP/build/${BPREFIX}patched/perf}
[ -x "$patched" ] || die "$patched missing: run 'make build BASE=$BASE' or set PATCHED_PERF"
[[ $("$patched" inject -h 2>&1) == *--jit-merged-elf* ]] ||
	die "$patched has no perf inject --jit-merged-elf (set PATCHED_PERF)"
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
mkdir -p "$VDIR/bench"
gen=$VDIR/bench/gen-jit-perfdata
floor=$VDIR/bench/plain-jit-write-merged
cc -O2 -Wall -Wextra -Werror -o "$gen" "$TOP/bench/gen-jit-perfdata.c"
cc -O2 -Wall -Wextra -Werror -o "$floor" "$TOP/bench/plain-jit-write-merged.c"
# the bytes of each of the generator's code loads
code=$(($(awk '/^#define CODE_SIZE/ { print $3 }' "$TOP/bench/gen-jit-perfdata.c")))

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "-" }'; }
expo() { awk -v a="$1" -v b="$2" -v n1="$3" -v n2="$4" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", log(b / a) / log(n2 / n1); else printf "-" }'; }

# clean DIR: remove the last run's output, as bench-scale.sh does (and
# wait out ext4's 30 s before it reuses the inodes of a large deletion).
clean() {
	local n
	n=$(find "$1" -maxdepth 1 -name 'jitted-*.so' -print -delete | wc -l)
	rm -rf "$1"/out.* "$1/buildid"
	sync
	[ "$n" -lt 50000 ] || [ "$(stat -f -c %T "$1")" = tmpfs ] || sleep 35
}

# run DIR NAME CMD...: one run from a clean DIR; appends wall and CPU
# seconds, peak RSS KiB and the jitted-*.so files to DIR/NAME.{wall,cpu,rss,files}.
run() {
	local dir=$1 name=$2 t0 t1
	shift 2
	clean "$dir"
	t0=$(date +%s%N)
	/usr/bin/time -f '%U %S %M' -o "$dir/time" "$@" >/dev/null 2>&1 || die "$name failed: $*"
	t1=$(date +%s%N)
	awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.3f\n", ns / 1e9 }' >>"$dir/$name.wall"
	tail -1 "$dir/time" | awk -v f="$dir/$name" '{ print $1 + $2 >>(f ".cpu"); print $3 >>(f ".rss") }'
	find "$dir" -maxdepth 1 -name 'jitted-*.so' | wc -l >>"$dir/$name.files"
}

# inject DIR NAME PERF OPTION: a run of PERF inject OPTION on DIR/perf.data.
inject() {
	run "$1" "$2" "$3" --buildid-dir "$1/buildid" inject "$4" -i "$1/perf.data" -o "$1/out.$2"
}

# cpu DIR ARGS...: the CPU seconds of PATCHED_PERF ARGS, with DIR's build-id
# cache.
cpu() {
	local dir=$1
	shift
	/usr/bin/time -f '%U %S' -o "$dir/time" "$patched" --buildid-dir "$dir/buildid" "$@" \
		>/dev/null 2>&1 || die "perf failed: $*"
	tail -1 "$dir/time" | awk '{ print $1 + $2 }'
}

# reads DIR NAME: CPU seconds of perf report and perf script over DIR/out.NAME
# and the files it names, appended to DIR/NAME.{report,script}.
reads() {
	cpu "$1" report --stdio --sort sym -i "$1/out.$2" >>"$1/$2.report"
	cpu "$1" script -F ip,sym -i "$1/out.$2" >>"$1/$2.script"
}

# files DIR: what perf report over DIR/out.merged spends on the jitted files
# (loading their symbols, looking samples up in them), appended to
# DIR/files.report: the CPU seconds of report --sort pid with the files
# less those without them (moved aside).  --sort pid keeps the samples'
# entries the same in both; with --sort sym the samples without a symbol
# would count an entry per address.  The merged report less that is what
# its records and samples cost alone, which any layout with an MMAP2 record
# per code load pays: per-function's report over it is the most any
# layout could gain.
files() {
	local with without
	with=$(cpu "$1" report --stdio --sort pid -i "$1/out.merged")
	mkdir "$1/aside"
	mv "$1"/jitted-*.so "$1/aside/"
	without=$(cpu "$1" report --stdio --sort pid -i "$1/out.merged")
	mv "$1/aside"/jitted-*.so "$1/"
	rmdir "$1/aside"
	awk -v a="$with" -v b="$without" 'BEGIN { print a - b }' >>"$1/files.report"
}

# bench DIR MAX: the table for the sizes up to MAX, with DIR/N as work
# directories; leaves the medians in med[DIR,N,BUILD,WHAT].
declare -A med
bench() {
	local fs=$1 max=$2 n d r i b c m p order fmt prev=
	mkdir -p "$fs"
	echo "== perf inject, per function vs merged, on $(df --output=fstype "$fs" | tail -1) ($fs)"
	echo "   medians of $runs runs (1 above 100000 functions); report, script: CPU s of the patched perf"
	fmt='%9s %-12s %9s %9s %10s %8s %10s %10s\n'
	# shellcheck disable=SC2059
	printf "$fmt" functions build "wall (s)" "CPU (s)" "RSS (KiB)" files "report (s)" "script (s)"
	for n in "${sizes[@]}"; do
		[ "$n" -le "$max" ] || continue
		d=$fs/$n
		rm -rf "$d" && mkdir -p "$d"
		"$gen" -o "$d" -n "$n" -k "$n" -s 100000 >/dev/null
		r=$runs
		[ "$n" -le 100000 ] || r=1
		for ((i = 0; i < r; i++)); do
			order=(merged per-function floor stock)
			order=("${order[@]:i%4}" "${order[@]:0:i%4}")
			for b in "${order[@]}"; do
				case $b in
				stock) [ "$n" -gt 100000 ] || inject "$d" stock "$stock" --jit ;;
				per-function) inject "$d" "$b" "$patched" --jit && reads "$d" "$b" ;;
				merged) inject "$d" "$b" "$patched" --jit-merged-elf && reads "$d" "$b" && files "$d"
					mv "$d/out.merged" "$d/in.repipe"
					run "$d" repipe "$patched" inject -i "$d/in.repipe" -o "$d/out.repipe"
					rm -f "$d/in.repipe" ;;
				floor) run "$d" floor "$floor" "$d" "$n" "$code" ;;
				esac
			done
		done
		clean "$d"
		for b in stock per-function merged floor repipe; do
			[ -s "$d/$b.wall" ] ||
				{ printf '%9s %-12s %s\n' "$n" "$b" "skipped: it needs hours above 100000 functions"; continue; }
			for c in wall cpu rss files report script; do
				med[$fs,$n,$b,$c]=-
				[ ! -s "$d/$b.$c" ] || med[$fs,$n,$b,$c]=$(median <"$d/$b.$c")
			done
			# shellcheck disable=SC2059
			printf "$fmt" "$n" "$b" "${med[$fs,$n,$b,wall]}" "${med[$fs,$n,$b,cpu]}" \
				"${med[$fs,$n,$b,rss]}" "${med[$fs,$n,$b,files]}" \
				"${med[$fs,$n,$b,report]}" "${med[$fs,$n,$b,script]}"
		done
		m=$fs,$n,merged p=$fs,$n,per-function
		echo "          merged/per-function: wall $(ratio "${med[$m,wall]}" "${med[$p,wall]}")," \
			"CPU $(ratio "${med[$m,cpu]}" "${med[$p,cpu]}"), RSS $(ratio "${med[$m,rss]}" "${med[$p,rss]}");" \
			"merged/floor: wall $(ratio "${med[$m,wall]}" "${med[$fs,$n,floor,wall]}")," \
			"CPU $(ratio "${med[$m,cpu]}" "${med[$fs,$n,floor,cpu]}");" \
			"merged/repipe: wall $(ratio "${med[$m,wall]}" "${med[$fs,$n,repipe,wall]}")"
		med[$fs,$n,files,report]=$(median <"$d/files.report")
		med[$fs,$n,bound,report]=$(awk -v a="${med[$m,report]}" -v b="${med[$fs,$n,files,report]}" \
			'BEGIN { print a - b }')
		echo "          reading, per-function/merged: report $(ratio "${med[$p,report]}" "${med[$m,report]}")," \
			"script $(ratio "${med[$p,script]}" "${med[$m,script]}");" \
			"merged report's jitted files ${med[$fs,$n,files,report]} s," \
			"per-function/(merged without them) $(ratio "${med[$p,report]}" "${med[$fs,$n,bound,report]}")"
		for b in per-function merged; do
			[ -n "$prev" ] || break
			printf '          growth %s->%s, %s:' "$prev" "$n" "$b"
			for c in wall report script; do
				printf ' %s N^%s' "$c" "$(expo "${med[$fs,$prev,$b,$c]}" "${med[$fs,$n,$b,$c]}" "$prev" "$n")"
			done
			echo
		done
		rm -rf "$d"
		prev=$n last=$n
	done
}

# goal TEXT AWK-CONDITION: one PASS/FAIL line.
goal() { if awk "BEGIN { exit !($2) }"; then echo "PASS  $1"; else echo "FAIL  $1"; fi; }

tmp=${BENCH_MERGED_DIR:-}
if [ -z "$tmp" ] && [ "$(df -k --output=avail /dev/shm 2>/dev/null | tail -1)" -gt $((8 << 20)) ] 2>/dev/null; then
	tmp=/dev/shm/perf-jit-bench-merged
	trap 'rm -rf "$tmp"' EXIT
fi
last=
if [ -n "$tmp" ]; then
	bench "$tmp" "${BENCH_MAX:-1000000}"
	echo
fi
fs=$tmp n=$last
bench "$VDIR/bench-merged" "${BENCH_MAX:-100000}"
[ -n "$tmp" ] || fs=$VDIR/bench-merged n=$last
[ -n "$n" ] || exit 0

echo
echo "== goals, in $fs at $n functions (stated at 1000000 on a tmpfs)"
m=$fs,$n,merged p=$fs,$n,per-function
goal "merged inject wall ${med[$m,wall]} s <= 1/4 of per-function's ${med[$p,wall]} s" \
	"${med[$m,wall]} * 4 <= ${med[$p,wall]}"
goal "merged inject wall ${med[$m,wall]} s <= 2 x the floor's ${med[$fs,$n,floor,wall]} s" \
	"${med[$m,wall]} <= 2 * ${med[$fs,$n,floor,wall]}"
files=$(((n * code + (64 << 20) - 1) >> 26))
goal "merged files ${med[$m,files]} <= $files, one per 64 MiB of code ($n x $code bytes)" \
	"${med[$m,files]} <= $files"
goal "perf report over merged ${med[$m,report]} CPU s at least 4x cheaper than per-function's ${med[$p,report]}" \
	"${med[$m,report]} * 4 <= ${med[$p,report]}"
echo "      (of which ${med[$fs,$n,files,report]} s reading the jitted files; with no cost there, no layout" \
	"could be more than $(ratio "${med[$p,report]}" "${med[$fs,$n,bound,report]}")x cheaper)"
n1=
for n2 in "${sizes[@]}"; do
	[ -n "${med[$fs,$n2,merged,report]:-}" ] || continue
	if [ -n "$n1" ]; then
		e=$(expo "${med[$fs,$n1,merged,report]}" "${med[$fs,$n2,merged,report]}" "$n1" "$n2")
		goal "perf report over merged linear in functions: N^$e from $n1 to $n2 (<= 1.10)" \
			"$([ "$e" = - ] && echo 0 || echo "$e <= 1.10")"
	fi
	n1=$n2
done
