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
	local name=$1 log rc t=$SECONDS
	shift
	log=$LOGS/$(echo "$name" | tr -c 'A-Za-z0-9_.\n-' '_').log
	set +e
	( "$@" ) >"$log" 2>&1
	rc=$?
	set -e
	t="[$((SECONDS - t)) s]"
	case $rc in
	0) passed=$((passed + 1)); printf 'PASS  %s %s\n' "$name" "$t" ;;
	2) skipped=$((skipped + 1))
	   printf 'SKIP  %s %s: %s\n' "$name" "$t" "$(grep -v '^$' "$log" | tail -1)" ;;
	*) failed=$((failed + 1)); printf 'FAIL  %s %s (log: %s)\n' "$name" "$t" "$log"
	   tail -15 "$log" | sed 's/^/      /' ;;
	esac
}

# perf_test and expect_fail are in lib.sh (submissions.sh runs them too).

# python_test DIR: upstream's CPython jitdump test, on CPython 3.13
# (skips on a perf without it: 6.12 has none).
python_test() {
	local py list
	list=$(cd "$1" && ./perf test list 2>&1) || true
	if ! grep -q 'python profiling with jitdump' <<<"$list"; then
		echo "this perf has no 'python profiling with jitdump' test"
		return 2
	fi
	py=$("$TOP/scripts/python313.sh") || return 1
	( export PYTHON=$py; perf_test "$1" 'python profiling with jitdump' )
}

# merged_test DIR: the --jit-merged-elf shell test, its DWARF callchains
# through CPython 3.13's perf trampolines included.
merged_test() {
	local py
	py=$("$TOP/scripts/python313.sh") || return 1
	( export PYTHON=$py; perf_test "$1" 'perf inject --jit-merged-elf' )
}

run_test "build: CPython 3.13 from Debian's source (make python313)" \
	"$TOP/scripts/python313.sh"

# check_base BASE: everything that runs on each kernel base.
check_base() {
	local base=$1 builds f maps
	builds=$(BASE=$base bash -c ". '$TOP/scripts/lib.sh'; echo \$BUILDS")
	for f in stock patched nofix; do
		run_test "$base: build $f perf" env BASE="$base" "$TOP/scripts/build-perf.sh" $f
		[ -x "$builds/$f/perf" ] || die "no $base $f perf: see $LOGS"
	done
	run_test "$base: checkpatch --strict over the series" \
		env BASE="$base" "$TOP/scripts/checkpatch.sh"
	# The 7.3 stack is the one mailed and bisected; distributions take
	# the 6.12 backport whole (make bisect BASE=6.12 checks it: 9 minutes).
	[ "$base" = 6.12 ] ||
		run_test "$base: bisectable, every prefix builds (make bisect)" \
			env BASE="$base" "$TOP/scripts/bisect-check.sh"
	run_test "$base: make tree + make export reproduce the series" \
		env BASE="$base" "$TOP/tests/export-roundtrip.sh"
	run_test "$base: build options (libelf, libdw, zlib, libunwind on)" \
		env BASE="$base" "$TOP/tests/build-options.sh"
	for f in stock patched; do
		run_test "$base $f: perf test jit_write_elf" perf_test "$builds/$f" jit_write_elf
		run_test "$base $f: perf test 'python profiling with jitdump' (CPython 3.13)" \
			python_test "$builds/$f"
	done
	run_test "$base patched: perf test 'Test java symbol'" \
		perf_test "$builds/patched" 'Test java symbol'
	run_test "$base patched: perf test 'pipe recording and injection'" \
		perf_test "$builds/patched" 'pipe recording and injection'
	run_test "$base patched: perf test 'perf inject --jit with malformed jitdumps'" \
		perf_test "$builds/patched" 'with malformed jitdumps'
	[ "$base" = 6.12 ] ||
		run_test "$base patched: perf test 'perf inject --jit with the jitdumps of JIT runtimes'" \
			perf_test "$builds/patched" 'jitdumps of JIT runtimes'
	[ "$base" = 6.12 ] ||
		run_test "$base patched: perf test 'perf inject --aslr test' (refuses --jit)" \
			perf_test "$builds/patched" 'perf inject --aslr test'
	# B3's maps cases; 6.12 names the suite after its first case
	maps='Maps - per process mmaps abstraction'
	[ "$base" = 7.3 ] || maps=maps__merge_in
	run_test "$base patched: perf test '$maps' (B3's cases)" \
		perf_test "$builds/patched" "$maps"
	run_test "$base patched: perf test jit-mmap-overlap" \
		perf_test "$builds/patched" jit-mmap-overlap
	run_test "$base nofix: perf test jit-mmap-overlap fails without the fix" \
		expect_fail perf_test "$builds/nofix" jit-mmap-overlap
	run_test "$base patched: perf test 'perf inject --jit over merged anonymous mmaps'" \
		perf_test "$builds/patched" 'merged anonymous mmaps'
	run_test "$base nofix: the shell test fails without the fix" \
		expect_fail perf_test "$builds/nofix" 'merged anonymous mmaps'
	run_test "$base patched: perf test 'perf inject --jit-merged-elf' (CPython 3.13's callchains too)" \
		merged_test "$builds/patched"
	run_test "$base e2e: real JIT runtimes, patched never worse than stock (make e2e)" \
		env BASE="$base" "$TOP/scripts/e2e.sh"
	cat "$LOGS/${base}_e2e"*.log 2>/dev/null | grep -v '^details' || true
}

for base in 7.3 6.12; do
	check_base "$base"
done

# make deb and make install (7.3, the default): the package, what it holds,
# installed into a scratch root, beside Debian 12's and 13's linux-perf on
# their own libraries; install and uninstall in a DESTDIR.
run_test "7.3: make deb: the package builds, lintian: no error, no warning" \
	env BASE=7.3 "$TOP/scripts/deb.sh"
run_test "7.3 deb: entries and modes, Version, Depends (dpkg-shlibdeps), perf-inject(1)" \
	env BASE=7.3 "$TOP/tests/deb.sh" contents
run_test "7.3 deb: dpkg --root -i, perf-jit --version, inject -h, JVMTI agent, the demo 100%, dpkg -r leaves nothing" \
	env BASE=7.3 "$TOP/tests/deb.sh" root
run_test "7.3 deb: beside linux-perf of Debian 12 and 13: no common path, apt installs both, the demo 100% on their libraries" \
	env BASE=7.3 "$TOP/tests/deb.sh" suites
run_test "7.3: make install PREFIX=/usr DESTDIR=D, make uninstall: D as it was" \
	env BASE=7.3 "$TOP/tests/install.sh"
run_test "7.3: every configuration builds (make build-variants)" \
	"$TOP/scripts/build-variants.sh"
run_test "7.3: each submission as mailed: git am, checkpatch, builds, tests (make submissions)" \
	env BASE=7.3 SUBMISSIONS_QUICK=1 "$TOP/scripts/submissions.sh"
run_test "fuzz: trimming rule vs reference, jitdump parsing; 30 s each (make fuzz)" \
	"$TOP/scripts/fuzz.sh" 30
run_test "demo: make's main job runs" "$TOP/scripts/demo.sh"

echo "$passed passed, $failed failed, $skipped skipped in $((SECONDS / 60)) min"
[ "$failed" -eq 0 ]
