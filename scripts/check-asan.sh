#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the patched perf with -fsanitize=address,undefined (build/asan) and
# run the series' tests and the e2e clients under it.  Every sanitizer
# report is collected; one whose stack names a file the series touches
# fails the run, others are listed as pre-existing perf issues.
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/build-perf.sh" asan >/dev/null
ASAN=$BUILDS/asan
logs=$VDIR/asan-logs
rm -rf "$logs"
mkdir -p "$logs"
export ASAN_OPTIONS="detect_leaks=1:log_path=$logs/asan:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:log_path=$logs/ubsan"
ours='jit-claims\.c|jitdump\.c|jit-mmap-overlap\.c|workloads/jitdump\.c|builtin-inject\.c|map\.h'

fail=0
run() {
	local name=$1
	shift
	if "$@" >"$logs/$name.out" 2>&1; then
		echo "ran   $name"
	else
		echo "FAIL  $name (output: $logs/$name.out)"
		fail=1
	fi
}

cd "$ASAN"
run "perf test jit-mmap-overlap" bash -c \
	"out=\$(./perf test jit-mmap-overlap 2>&1); echo \"\$out\"; ! grep -q FAILED <<<\"\$out\""
run "shell test over merged anonymous mmaps" bash -c \
	"out=\$(PATH=$ASAN:\$PATH ./perf test 'merged anonymous mmaps' 2>&1); grep -q ': Ok' <<<\"\$out\""
run "e2e clients" env PATCHED_PERF="$ASAN/perf" E2E_OUT="$logs/e2e" "$TOP/scripts/e2e.sh"

reports=$(find "$logs" -name 'asan.*' -o -name 'ubsan.*' | sort)
n_ours=0 n_other=0
for r in $reports; do
	if grep -qE "$ours" "$r"; then
		n_ours=$((n_ours + 1))
		echo "sanitizer report from the series' code: $r"
		grep -m3 -E 'ERROR|runtime error|SUMMARY' "$r" | sed 's/^/    /'
	else
		n_other=$((n_other + 1))
		echo "pre-existing perf report: $r: $(grep -m1 -E 'SUMMARY|runtime error' "$r")"
	fi
done
echo "sanitizers: $n_ours reports from the series, $n_other from elsewhere in perf"
[ "$n_ours" -eq 0 ] || fail=1
exit $fail
