#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: e2e.sh [CLIENT...]   (jitdump jitdump+perfmap jd-exit-before
#                              jd-exit-before+pm jd-exit-middle
#                              jd-exit-middle+pm jd-badheader lli node node-fork
#                              python py-exit-before py-exit-middle java
#                              node-100k qemu-1m; default all but node-100k
#                              and qemu-1m, which E2E_BIG=1 adds; BASE=6.12
#                              for the 6.12 builds)
#
# Real JIT runtimes, stock vs patched: record each client once, inject its
# jitdump with the stock and the patched perf from the same perf.data, and
# count where the samples and callchain frames of JIT code went, against
# the ground truth of the jitdump itself (scripts/jit-attribution.py).
# The python client is CPython 3.13 -Xperf_jit (scripts/python313.sh),
# recorded with DWARF callchains through its trampolines.  The node-fork
# client is V8 that forks: 3,000 functions, then 60 children spawned with
# execFileSync('/bin/true') (each a FORK of the process holding that code,
# an exec COMM and an EXIT), then 300 of the functions compiled again and
# run; it fails when the jitdump holds fewer code loads than functions or
# perf.data fewer children.  The py-exit-before and py-exit-middle clients
# are CPython 3.13 -Xperf_jit whose main thread exits (pthread_exit(3))
# while a worker thread goes on JITting: before the worker makes any
# function of its own, or halfway through, the first half's functions
# still running after it (tests/e2e/py-main-exit.py); they fail when
# perf.data holds no EXIT of the main thread followed by samples of the
# worker.  The jd-exit-* clients are perf's own jitdump workload whose
# main thread does the same (thread:0 before the first of its 6 functions,
# thread:3 halfway), with (+pm) and without a function that only
# /tmp/perf-PID.map describes in the same mapping; they fail the same way.
# jd-badheader records the workload twice and gives the first jitdump a
# header with unknown flags, as a runtime killed while writing it or a
# file from elsewhere may have: stock's inject fails on the whole
# perf.data (its row says so; not counted as a failure), and the client
# fails unless patched attributes every JIT sample of the good jitdump.
# The java client
# is OpenJDK 17 with perf's JVMTI agent (libperf-jvmti.so of the patched
# build) writing the jitdump, recorded with frame pointer callchains.
#
# The node-100k client is Node.js with 100,000 functions, each called once,
# so that V8 writes a code load for each (the client fails below 100,000),
# recorded with plain samples; it prints the number of code loads and the
# seconds each step took.  It is not in the default list (make check runs
# that): stock 6.12's perf script sorts its list of DSOs again for each new
# one and takes 45 minutes (25 of CPU) over the 100,000 jitted ones.  make
# e2e runs it on 7.3 (E2E_BIG=1; `make e2e BASE=6.12 E2E_BIG=1` on 6.12).
# Its perf.data files, jitdump and jitted-PID-N.so (about 600 MB) are
# removed once it is checked.
#
# The qemu-1m client is QEMU's user-mode emulator (Debian's static
# qemu-x86_64, scripts/qemu-user.sh) running Debian's python3 with
# -jitdump: each guest instruction is a block of its own
# (-one-insn-per-tb) in a code buffer of 6 MiB (-tb-size 6), which it fills,
# flushes and fills again, writing a code load for each block it translates:
# about 1.2 million, most at addresses an earlier block had (the client
# fails below 1,000,000).  Stock is not run on it: stock's inject grows as
# the square of the code loads (hours at a million; make bench's scaling);
# --jit and --jit-merged-elf are, with the attribution, the gate between
# them and the oracle.  It works in a directory on /dev/shm, where its 1.2
# million jitted-PID-N.so take 5.5 GB of memory for a few minutes (on disk
# they take several times as long); what it keeps goes to $OUT/qemu-1m.
#
# --jit-merged-elf: where the patched perf has it, each client is injected
# a third time with it (row "merged"), which must not be worse than stock
# or than --jit on any of the figures below, and must give the same perf
# script output as --jit for every sample (ip, symbol, offset, source
# line, and the callchains where recorded; the DSOs but for the jitted
# file names) and the same perf report --sort sym (the oracle).
#
# The gate: patched is never worse than stock.  Prints a stock and a
# patched row per client and fails, naming the figure and the command to
# rerun, when patched is worse on any of: JIT samples right, callchain JIT
# frames right or lost, the deepest chain of JIT frames, perf-map samples
# right, samples in //anon or [unknown], samples dropped by inject.  The
# lines inject printed on stderr are shown, not compared.
. "$(dirname "$0")/lib.sh"

require_builds stock
STOCK=$TOP/build/${BPREFIX}stock/perf
if [ -n "${PATCHED_PERF:-}" ]; then	# make check-asan passes its own
	PATCHED=$PATCHED_PERF
else
	require_builds patched
	PATCHED=$TOP/build/${BPREFIX}patched/perf
fi
# The JVMTI agent of the patched build (the series leaves it as it is);
# check-asan's is not loaded into java, whose runtime would have to come first.
JVMTI=$TOP/build/${BPREFIX}patched/libperf-jvmti.so
OUT=${E2E_OUT:-$VDIR/e2e}
# CPython's jitdump and inject's jitted-PID-N.so of it are in /tmp; they
# stay there for later looks at $OUT/python* (and make bench) until the next run.
for f in "$OUT"/*/out; do
	[ -f "$f" ] || continue
	old=$(awk '/^pid [0-9]+$/ { print $2; exit }' "$f")
	[ -z "$old" ] || rm -f "/tmp/jit-$old.dump" /tmp/jitted-"$old"-*.so
done
rm -rf "$OUT" /dev/shm/perf-e2e-qemu-1m.*	# and what a qemu-1m run cut short left
mkdir -p "$OUT"
clients=("$@")
if [ ${#clients[@]} -eq 0 ]; then
	clients=(jitdump jitdump+perfmap jd-exit-before jd-exit-before+pm jd-exit-middle
		jd-exit-middle+pm jd-badheader lli node node-fork python py-exit-before
		py-exit-middle java)
	[ "${E2E_BIG:-0}" = 0 ] || clients+=(node-100k qemu-1m)
fi
rerun="scripts/e2e.sh"
[ "$BASE" = 7.3 ] || rerun="BASE=$BASE $rerun"
[ -z "${PATCHED_PERF:-}" ] || rerun="PATCHED_PERF=$PATCHED_PERF $rerun"
# --jit-merged-elf where the patched perf has it: a third row, its gates
# against stock and --jit, and the oracle.
merged=
help=$("$PATCHED" inject -h 2>&1 || true)
[[ $help != *--jit-merged-elf* ]] || merged=1
python=
for c in "${clients[@]}"; do
	[[ $c != python && $c != py-exit-* ]] || python=$("$TOP/scripts/python313.sh")
done

# record CLIENT DIR: run the client under perf record in DIR; print the
# jitdump's path.
record() {
	local client=$1 dir=$2 e2e=$TOP/tests/e2e
	local rec=("$PATCHED" record -q -k mono -e cpu-clock -o "$dir/perf.data")
	# perf's JIT workload (the 6.12 series backports it).
	local wl=(test -w jitdump 6 150)

	case "$client" in
	jitdump|jitdump+perfmap|jd-exit-*)
		[[ $client != *+p* ]] || wl+=(perfmap)
		# jd-exit-*: the main thread leaves the JIT to a thread and
		# calls pthread_exit(), before its first function or after 3 of 6.
		case $client in
		jd-exit-before*) wl+=(thread:0) ;;
		jd-exit-middle*) wl+=(thread:3) ;;
		esac
		(cd "$dir" && JITDUMPDIR=$dir "${rec[@]}" -- "$PATCHED" "${wl[@]}" >"$dir/out")
		;;
	jd-badheader)
		# Two processes; the first one's jitdump gets a header with
		# unknown flags, which stock's inject fails on (for all).
		(cd "$dir" && JITDUMPDIR=$dir "${rec[@]}" -- sh -c \
			'"$0" test -w jitdump 3 150 && "$0" test -w jitdump 6 150' \
			"$PATCHED" >"$dir/out") || return 1
		set -- $(ls -tr "$dir"/jit-*.dump)
		python3 -c 'import sys; f = open(sys.argv[1], "r+b"); f.seek(32); f.write(bytes(7) + b"\xde")' "$1"
		echo "$2"
		return 0
		;;
	lli)
		command -v lli-14 >/dev/null || { echo "skip: no lli-14 (llvm-14)"; return 2; }
		JITDUMPDIR=$dir "${rec[@]}" -- lli-14 -jit-kind=mcjit \
			-extra-module="$e2e/lli-f0.ll" -extra-module="$e2e/lli-f1.ll" \
			-extra-module="$e2e/lli-f2.ll" -extra-module="$e2e/lli-f3.ll" \
			"$e2e/lli-main.ll" >"$dir/out" || true	# exit code is main's
		;;
	node)
		command -v node >/dev/null || { echo "skip: no node"; return 2; }
		(cd "$dir" && "${rec[@]}" -- node --perf-prof --interpreted-frames-native-stack \
			"$e2e/node-bench.js" >"$dir/out")
		;;
	node-fork)
		command -v node >/dev/null || { echo "skip: no node"; return 2; }
		# 3,000 functions, 60 children, then 300 of the functions for
		# 2 s: enough forks of a process full of claims to see each
		# one's cost, small enough for make check.
		(cd "$dir" && "${rec[@]}" -- node --perf-prof --interpreted-frames-native-stack \
			"$e2e/node-fork.js" 3000 60 2 300 >"$dir/out")
		;;
	node-100k)
		command -v node >/dev/null || { echo "skip: no node"; return 2; }
		# 100,000 functions, then 2,000 of them for 3 s; 1 kHz without
		# callchains keeps perf.data under 1 MB.
		(cd "$dir" && "${rec[@]}" -F 1000 -- node --perf-prof \
			--interpreted-frames-native-stack "$e2e/node-many-funcs.js" \
			100000 3 2000 >"$dir/out")
		;;
	qemu-1m)
		qemu=$("$TOP/scripts/qemu-user.sh") || return 1
		# Then 150,000 rounds of a loop, a few seconds in the blocks
		# translated last, so that samples fall in JIT code.
		(cd "$dir" && "${rec[@]}" -F 1000 -- "$qemu" -jitdump -one-insn-per-tb \
			-tb-size 6 /usr/bin/python3 -c \
			'import sys; print(sum(i * i % 7 for i in range(int(sys.argv[1]))))' \
			150000 >"$dir/out")
		;;
	python)
		# 3,000 functions in chains 8 deep for 3 s; 1 kHz and 8 KiB
		# of stack per sample keep perf.data near 25 MB.
		"${rec[@]}" -F 1000 --call-graph dwarf,8192 -- "$python" -Xperf_jit \
			"$e2e/py-many-funcs.py" 3000 8 3 >"$dir/out"
		;;
	py-exit-before|py-exit-middle)
		# 2,000 functions (1,000 before and 1,000 after the main
		# thread's exit in the middle) run for 3 s in all; 1 kHz and
		# DWARF callchains through the trampolines, as for python.
		"${rec[@]}" -F 1000 --call-graph dwarf,8192 -- "$python" -Xperf_jit "$e2e/py-main-exit.py" \
			"${client#py-exit-}" 2000 3 >"$dir/out"
		;;
	java)
		command -v java >/dev/null && command -v javac >/dev/null ||
			{ echo "skip: no java or javac (openjdk-17-jdk-headless)"; return 2; }
		[ -f "$JVMTI" ] || { echo "skip: no $JVMTI"; return 2; }
		# 400 methods in chains 8 deep for 3 s; not inlined, so that
		# each has code (C1, then C2) and frames of its own.  The code
		# cache starts at 64 KiB instead of 2.4 MiB and grows by 64 KiB
		# commits, each of which the kernel merges into the mapping
		# before, as it does once a big program outgrows the default.
		python3 "$e2e/java-jit-many.py" 400 8 >"$dir/JitMany.java"
		javac -d "$dir" "$dir/JitMany.java"
		(cd "$dir" && JITDUMPDIR=$dir "${rec[@]}" -g -- java -XX:+PreserveFramePointer \
			-XX:InitialCodeCacheSize=64k -XX:CompileCommand=quiet \
			-XX:CompileCommand=dontinline,JitMany::f* \
			-agentpath:"$JVMTI" -cp "$dir" JitMany 3 >"$dir/out")
		;;
	*)
		die "unknown client $client"
		;;
	esac 2>"$dir/record.err" || { cat "$dir/record.err" >&2; return 1; }
	if [[ $client == python || $client == py-exit-* ]]; then
		# CPython writes /tmp/jit-PID.dump; the workload says its pid.
		echo "/tmp/jit-$(awk '/^pid / { print $2 }' "$dir/out").dump"
	else
		find "$dir" -name 'jit-*.dump' | head -1
	fi
}

# since T: the seconds from T (a `date +%s.%N`) to now, to a tenth.
since() {
	awk -v t="$1" -v now="$(date +%s.%N)" 'BEGIN { printf "%.1f", now - t }'
}

# field JSON KEY...: the values of the keys of a counts file.
field() {
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
print(*(c.get(k, 0) for k in sys.argv[2:]))' "$@"
}

# task_events DATA PID: in DATA, the children that process PID forked
# (FORK records with a new pid) and those that exec'd, whether its main
# thread exited, and how many samples its other threads took after that:
# "FORKS EXECS EXITED AFTER".
task_events() {
	"$PATCHED" script --show-task-events -F pid,tid,time -i "$1" 2>/dev/null |
		awk -v p="$2" '
		match($0, /PERF_RECORD_FORK\([0-9]+:[0-9]+\):\([0-9]+:[0-9]+\)/) {
			split(substr($0, RSTART + 17, RLENGTH - 18), f, /[:()]+/)
			if (f[1] != f[3] && f[3] == p) forks++
			next
		}
		/PERF_RECORD_COMM exec:/ { if ($1 != p "/" p) execs++; next }
		index($0, "PERF_RECORD_EXIT(" p ":" p ")") { exited = 1; next }
		/PERF_RECORD_/ { next }
		exited { split($1, t, "/"); if (t[1] == p && t[2] != p) after++ }
		END { print forks + 0, execs + 0, exited + 0, after + 0 }'
}

# oracle DIR: perf.patched.data (--jit) and perf.merged.data
# (--jit-merged-elf) must give:
# - the same perf script, sample for sample: ip, symbol, offset, source
#   line, DSO but for the jitted file names, and the callchains where
#   recorded (perf's stand-in for a missing source line, DSO[offset], is
#   compared without the offset).  They may differ only in as many lines
#   as --jit-merged-elf has more samples and callchain frames right than
#   --jit by the jitdump; then perf report, which counts them, is not
#   compared.  (A JVM run had 100 frames in Runtime1 stubs that --jit put
#   in java.lang.Object::<init> and an adapter; stock lost as many.)
# - the same lines of perf report --sort sym, sorted: entries of equal
#   share come in the order of their addresses, which differ.
# - the same perf annotate --stdio of the jitted function with the most
#   samples among those loaded once: percentages and instructions.  The
#   addresses differ, and so do the targets of direct jumps and calls and
#   objdump's comments, which it computes from them and names after the
#   file's nearest symbol.  On node and java, 6.12's perf annotate of that
#   symbol may die of a SIGSEGV in map__rip_2objdump() before it prints
#   anything, with either output, from one run to the next (stock 6.12
#   over stock's output too; 7.3's does not): there it is compared only
#   when neither run crashed.
# Both outputs are read at once, side by side: perf script's source lines
# take most of e2e's time (230 s an output for node-fork on 7.3, where
# GNU addr2line takes 0.1 s for each address of /usr/bin/node; 55 s for
# python on 6.12).  Prints what was compared, or where they differ.
# V8's clients on 6.12 are compared without source lines: there 6.12's
# reader of addr2line's answers loses one line of node-fork's 24,000 when
# it reads them all (it gives it alone, and the line table has it), not
# yet understood.
oracle() {
	local d=$1 b n sym ann='' skip='' fields=ip,sym,symoff,srcline,dso note=

	if [ "$BASE" = 6.12 ] && [[ ${d##*/} == node* ]]; then
		fields=ip,sym,symoff,dso note=" (no source lines on 6.12)"
	fi
	for b in patched merged; do
		{
			"$PATCHED" script --no-inline -i "$d/perf.$b.data" -F "$fields" \
				2>/dev/null | sed -E -e 's/jitted-[0-9]+-m?[0-9]+\.so/jitted.so/' \
				-e 's/^( +jitted\.so)\[[0-9a-f]+\]$/\1[OFFSET]/' >"$d/oracle.$b"
			# sorted: perf orders entries of equal share by symbol address
			"$PATCHED" report --no-inline -i "$d/perf.$b.data" --stdio -q \
				--sort sym 2>/dev/null | sort >"$d/report.$b"
		} &
	done
	wait
	n=$(grep -c 'jitted\.so' "$d/oracle.patched")
	if ! diff "$d/oracle.patched" "$d/oracle.merged" >"$d/oracle.diff"; then
		# Allowed only where --jit is wrong and merged right: as many
		# more samples and frames right (by the jitdump) as lines differ.
		local old new better
		old=$(grep -c '^<' "$d/oracle.diff")
		new=$(grep -c '^>' "$d/oracle.diff")
		better=$(python3 -c 'import json, sys
p, m = (json.load(open(f)) for f in sys.argv[1:])
d = [m.get(k, 0) - p.get(k, 0) for k in ("right", "cc_right")]
print(sum(d) if min(d) >= 0 else -1)' "$d/counts.patched.json" "$d/counts.merged.json")
		if [ "$old" != "$better" ] || [ "$new" != "$old" ]; then
			echo "perf script: $((old + new)) lines differ; $d/oracle.diff"
			return 1
		fi
		note+=" but $old frames or samples that --jit resolves wrong and"
		note+=" --jit-merged-elf right (so perf report, which counts them, not compared)"
		skip=1
	fi
	if [ -z "$skip" ] && ! cmp -s "$d/report.patched" "$d/report.merged"; then
		echo "perf report --sort sym differs; diff $d/report.{patched,merged}"
		return 1
	fi
	# the hottest jitted symbol that names one code load (one file)
	sym=$("$PATCHED" script -G -i "$d/perf.patched.data" -F ip,sym,dso 2>/dev/null |
		sed -nE 's/^ *[0-9a-f]+ (.+) \((.*\/jitted-[0-9]+-[0-9]+\.so)\)$/\2 \1/p' | sort | uniq -c |
		awk '{ c = $1; f = $2; $1 = $2 = ""; s = substr($0, 3)
			n[s] += c; if (!((s, f) in seen)) { seen[s, f]; k[s]++ } }
			END { for (s in n) if (k[s] == 1 && n[s] > best) { best = n[s]; b = s }
			      if (best) print b }')
	if [ -z "$sym" ]; then
		echo "no jitted function with samples was loaded once: nothing to annotate"
		return 1
	fi
	for b in patched merged; do
		{
			# braces: the shell's "Segmentation fault" goes too
			{ "$PATCHED" annotate --stdio -i "$d/perf.$b.data" "$sym" \
				>"$d/annotate.$b.raw"; } 2>/dev/null
			echo $? >"$d/annotate.$b.rc"
			sed -nE 's/^ *([0-9.]+) : +[0-9a-f]+: +/\1 /p' "$d/annotate.$b.raw" |
				sed -E -e 's/^([0-9.]+ +([A-Za-z.]+ +)*(j[a-z]*|call[a-z]*|loop[a-z]*) +)[0-9a-f]+( .*)?$/\1TARGET/' \
					-e 's/ +# .*/ # ADDR/' >"$d/annotate.$b"
		} &
	done
	wait
	ann=", perf annotate of '$sym' $(wc -l <"$d/annotate.patched") lines"
	if [ "$BASE" = 6.12 ] && grep -qx 139 "$d"/annotate.{patched,merged}.rc; then
		ann=", perf annotate of '$sym' not compared: 6.12's crashed (exit codes"
		ann+=" $(cat "$d"/annotate.{patched,merged}.rc | tr '\n' ' ' | sed 's/ $//'))"
	elif [ ! -s "$d/annotate.patched" ] || ! cmp -s "$d/annotate.patched" "$d/annotate.merged"; then
		echo "perf annotate '$sym' differs or is empty; diff $d/annotate.{patched,merged}"
		return 1
	fi
	echo "perf script $(wc -l <"$d/oracle.patched") lines ($n in jitted code)$note, perf report" \
		"$(wc -l <"$d/report.patched") lines$ann, the same"
}

fmt='%-16s %-7s %7s %6s %6s %13s %5s %8s %8s %7s %6s\n'
# shellcheck disable=SC2059
printf "$fmt" client build samples "in JIT" right "chain ok/lost" depth \
	"anon/unk" perf-map dropped stderr
fail=0
for client in "${clients[@]}"; do
	dir=$OUT/$client
	builds=(stock patched ${merged:+merged})
	if [ "$client" = qemu-1m ]; then
		builds=(patched ${merged:+merged})
		printf '%-16s %-7s %s\n' "$client" stock "not run: its inject grows as the square of the code loads"
		[ ! -d /dev/shm ] || dir=$(mktemp -d /dev/shm/perf-e2e-qemu-1m.XXXXXX)
	fi
	mkdir -p "$dir"
	rc=0
	t0=$(date +%s.%N)
	dump=$(record "$client" "$dir") || rc=$?
	times="record $(since "$t0")"
	if [ $rc -eq 2 ]; then
		printf '%-16s %s\n' "$client" "$dump"
		continue
	fi
	if [ $rc -ne 0 ] || [ ! -s "$dump" ]; then
		printf '%-16s %s\n' "$client" "recording failed or no jitdump: $dir/record.err"
		fail=1
		continue
	fi
	wpid=${dump##*/jit-}
	wpid=${wpid%.dump}
	map=/tmp/perf-$wpid.map
	in=$("$PATCHED" script -i "$dir/perf.data" -F time 2>/dev/null | wc -l)
	for build in "${builds[@]}"; do
		perf=$STOCK jit=--jit
		[ "$build" = stock ] || perf=$PATCHED
		[ "$build" != merged ] || jit=--jit-merged-elf
		counts=$dir/counts.$build.json
		rm -f "$counts"
		t=$(date +%s.%N)
		if ! "$perf" inject $jit -i "$dir/perf.data" -o "$dir/perf.$build.data" \
			2>"$dir/inject.$build.err"; then
			if [ "$client.$build" = jd-badheader.stock ]; then
				printf '%-16s %-7s %s\n' "$client" "$build" \
					"inject failed on the bad jitdump, for all (expected of stock)"
				continue
			fi
			printf '%-16s %-7s %s\n' "$client" "$build" "inject failed: $dir/inject.$build.err"
			fail=1
			continue
		fi
		times+=", inject $build $(since "$t")"
		t=$(date +%s.%N)
		"$perf" script -i "$dir/perf.$build.data" -F time,ip,sym,dso --ns \
			>"$dir/script.$build" 2>/dev/null
		times+=", script $build $(since "$t")"
		t=$(date +%s.%N)
		python3 "$TOP/scripts/jit-attribution.py" --perf-map "$map" \
			--perf-data "$dir/perf.data" --samples-in "$in" \
			"$dump" "$dir/script.$build" >"$counts"
		times+=", attribution $build $(since "$t")"
		# node-100k's patched inject writes its 100,000 files anew
		# beside stock's, moved aside: overwriting them takes several
		# times as long, and so does writing them right after deleting
		# them (ext4 scans past each inode deleted in the last 30 s).
		if [ "$client" = node-100k ] && [ "$build" = stock ]; then
			mkdir "$dir/jitted.$build"
			find "$dir" -maxdepth 1 -name 'jitted-*.so' -exec mv -t "$dir/jitted.$build" {} +
			sync
		fi
		read -r samples jit right au pm pmr cc ccj ccr ccl depth dropped < <(field "$counts" \
			samples jit right anon_unknown perfmap perfmap_right \
			callchains cc_jit cc_right cc_lost depth dropped)
		pct=-
		[ "$jit" -eq 0 ] || pct=$(awk -v r="$right" -v j="$jit" 'BEGIN { printf "%.1f%%", 100 * r / j }')
		chain=- d=-
		[ "$cc" -eq 0 ] || chain="$ccr/$ccl" d=$depth
		pmcol=-
		[ "$pm" -eq 0 ] || pmcol="$pmr/$pm"
		# shellcheck disable=SC2059
		printf "$fmt" "$client" "$build" "$samples" "$jit" "$pct" "$chain" "$d" \
			"$au" "$pmcol" "$dropped" "$(wc -l <"$dir/inject.$build.err")"
		[ "$build" = "${builds[0]}" ] || continue
		if [ $((jit + ccj)) -eq 0 ]; then
			printf '%-16s FAIL: no sample or callchain frame in JIT code (%s)\n' "$client" "$build"
			fail=1
		fi
	done
	for pair in stock:patched ${merged:+stock:merged patched:merged}; do
		a=${pair%:*} b=${pair#*:}
		[ -s "$dir/counts.$a.json" ] && [ -s "$dir/counts.$b.json" ] || continue
		if ! worse=$(python3 "$TOP/scripts/jit-attribution.py" --gate \
			"$dir/counts.$a.json" "$dir/counts.$b.json"); then
			while read -r line; do
				printf '%-16s FAIL: %s worse than %s: %s\n' "$client" "$b" "$a" "$line"
			done <<<"$worse"
			printf '%-16s rerun: %s %s\n' "$client" "$rerun" "$client"
			fail=1
		fi
	done
	if [ -n "$merged" ] && [ -s "$dir/perf.merged.data" ]; then
		if ! same=$(oracle "$dir"); then
			printf '%-16s FAIL: --jit-merged-elf differs from --jit: %s\n' "$client" "$same"
			printf '%-16s rerun: %s %s\n' "$client" "$rerun" "$client"
			fail=1
		else
			printf '%-16s --jit-merged-elf = --jit: %s\n' "$client" "$same"
		fi
	fi
	rm -f "$map"
	# What the fork and main-thread-exit clients must have recorded, so
	# that they cannot silently check less.
	case $client in
	node-fork)
		loads=$(field "$dir/counts.stock.json" code_loads 2>/dev/null || echo 0)
		read -r forks execs _ _ < <(task_events "$dir/perf.data" "$wpid")
		printf '%-16s %d code loads, %d children forked, %d exec'"'"'d\n' "$client" \
			"$loads" "$forks" "$execs"
		if [ "$loads" -lt 3000 ] || [ "$forks" -lt 60 ] || [ "$execs" -lt 60 ]; then
			printf '%-16s FAIL: fewer than 3000 code loads or 60 children; rerun: %s %s\n' \
				"$client" "$rerun" "$client"
			fail=1
		fi
		;;
	jd-badheader)
		read -r jit right < <(field "$dir/counts.patched.json" jit right)
		if [ "$jit" -eq 0 ] || [ "$right" -ne "$jit" ]; then
			printf '%-16s FAIL: %d of %d JIT samples of the good jitdump right; rerun: %s %s\n' \
				"$client" "$right" "$jit" "$rerun" "$client"
			fail=1
		fi
		;;
	py-exit-* | jd-exit-*)
		read -r _ _ exited after < <(task_events "$dir/perf.data" "$wpid")
		printf '%-16s main thread exit recorded: %s, samples of the worker after it: %d\n' \
			"$client" "$([ "$exited" = 1 ] && echo yes || echo no)" "$after"
		if [ "$exited" != 1 ] || [ "$after" -eq 0 ]; then
			printf '%-16s FAIL: no EXIT of the main thread followed by samples; rerun: %s %s\n' \
				"$client" "$rerun" "$client"
			fail=1
		fi
		;;
	esac
	case $client in
	node-100k) min=100000 ;;
	qemu-1m) min=1000000 ;;
	*) continue ;;
	esac
	loads=$(field "$dir/counts.patched.json" code_loads 2>/dev/null || echo 0)
	printf '%-16s %d code loads in the jitdump; seconds: %s, all %s\n' "$client" "$loads" \
		"$times" "$(since "$t0")"
	if [ "$loads" -lt "$min" ]; then
		printf '%-16s FAIL: %d code loads, fewer than %d\n' "$client" "$loads" "$min"
		fail=1
	fi
	# The jitted-PID-N.so, the jitdump and the recordings (about 600 MB
	# for node-100k, 6 GB for qemu-1m) go; the counts, perf script's
	# output and the logs stay.
	rm -rf "$dir"/jitted.*
	find "$dir" -name 'jitted-*.so' -delete
	rm -f "$dump" "$dir"/perf*.data
	if [ "$dir" != "$OUT/$client" ]; then
		mkdir -p "$OUT/$client"
		mv "$dir"/* "$OUT/$client"/
		rmdir "$dir"
	fi
done
echo "details: $OUT/<client>/ (perf.data, perf.{stock,patched}.data, counts.*.json;" \
	"node-100k and qemu-1m keep only their counts, perf script's output and logs)"
echo "chain ok/lost: callchain frames in JIT code resolved right / lost (//anon, [unknown]," \
	"wrong symbol); depth: most such frames in one chain; anon/unk: samples there"
exit $fail
