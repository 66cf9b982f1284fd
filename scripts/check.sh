#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build both perfs and run every test of the project.  Each test's output
# goes to a log; a line per test says PASS, FAIL (with the log) or SKIP
# (with the reason).  Ends with "N passed, N failed, N skipped"; exits
# non-zero on any failure.
. "$(dirname "$0")/lib.sh"

LOGS=${CHECK_LOGS:-$VDIR/check-logs}
rm -rf "$LOGS"
mkdir -p "$LOGS"
passed=0 failed=0 skipped=0

# run_test NAME CMD...: exit 0 passes, 2 skips (last output line is the
# reason), anything else fails.
run_test() {
	local name=$1 log rc
	shift
	log=$LOGS/$(echo "$name" | tr -c 'A-Za-z0-9_.\n-' '_').log
	set +e
	( "$@" ) >"$log" 2>&1
	rc=$?
	set -e
	case $rc in
	0) passed=$((passed + 1)); printf 'PASS  %s\n' "$name" ;;
	2) skipped=$((skipped + 1))
	   printf 'SKIP  %s: %s\n' "$name" "$(grep -v '^$' "$log" | tail -1)" ;;
	*) failed=$((failed + 1)); printf 'FAIL  %s (log: %s)\n' "$name" "$log"
	   tail -15 "$log" | sed 's/^/      /' ;;
	esac
}

# perf_test FLAVOR NAME: run one perf self-test or shell test by name and
# map its verdict line to our exit codes.
perf_test() {
	local flavor=$1 name=$2 out
	# Shell tests find perf in PATH and libperf-jvmti.so in the cwd.
	out=$(cd "$BUILDS/$flavor" && PATH=$BUILDS/$flavor:$PATH \
		timeout 900 ./perf test -v "$name" 2>&1) || true
	echo "$out"
	if echo "$out" | grep -qE '^ *[0-9.]+: .*: FAILED'; then
		return 1
	elif echo "$out" | grep -qE '^ *[0-9.]+: .*: Ok$'; then
		echo "$out" | grep -qE '^ *[0-9.]+: .*: Skip' && return 1
		return 0
	elif echo "$out" | grep -qE '^ *[0-9.]+: .*: Skip'; then
		echo "perf test '$name' skipped"
		return 2
	fi
	echo "no perf test matches '$name'"
	return 1
}

# expect_fail CMD...: passes when CMD fails (a test that must catch a bug).
expect_fail() {
	if "$@"; then
		echo "expected a failure, got a pass"
		return 1
	fi
	return 0
}

run_test "build: stock perf" "$TOP/scripts/build-perf.sh" stock
run_test "build: patched perf" "$TOP/scripts/build-perf.sh" patched
run_test "build: nofix perf (the series without the inject fix)" \
	"$TOP/scripts/build-perf.sh" nofix
for f in stock patched nofix; do
	[ -x "$BUILDS/$f/perf" ] || die "no $f perf: see $LOGS"
done
run_test "checkpatch --strict over patches/" "$TOP/scripts/checkpatch.sh"
run_test "bisectable: every prefix of the series builds (make bisect)" \
	"$TOP/scripts/bisect-check.sh"
run_test "harness: make tree + make export reproduce patches/" \
	"$TOP/tests/export-roundtrip.sh"
run_test "harness: build options (libelf, libdw, zlib, libunwind on)" \
	"$TOP/tests/build-options.sh"

for f in stock patched; do
	run_test "$f: perf test jit_write_elf" perf_test "$f" jit_write_elf
done
run_test "patched: perf test 'Test java symbol'" perf_test patched 'Test java symbol'
run_test "patched: perf test 'pipe recording and injection'" \
	perf_test patched 'pipe recording and injection'
run_test "patched: perf test jit-mmap-overlap" perf_test patched jit-mmap-overlap
run_test "nofix: perf test jit-mmap-overlap fails without the fix" \
	expect_fail perf_test nofix jit-mmap-overlap
run_test "patched: perf test 'keeps JIT samples attributed (jitloop)'" \
	perf_test patched 'keeps JIT samples attributed'
run_test "nofix: the jitloop shell test fails without the fix" \
	expect_fail perf_test nofix 'keeps JIT samples attributed'

run_test "fuzz: trimming rule vs reference, jitdump parsing; 30 s each (make fuzz)" \
	"$TOP/scripts/fuzz.sh" 30
run_test "e2e: real JIT runtimes, stock vs patched (make e2e)" "$TOP/scripts/e2e.sh"
cat "$LOGS/e2e_"*.log 2>/dev/null | grep -v '^details' || true
run_test "demo: make's main job runs" "$TOP/scripts/demo.sh"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
