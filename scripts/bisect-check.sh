#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every prefix of the series builds without warnings (perf builds with
# -Werror) and passes `perf test jit-mmap-overlap` once the test exists:
# the series is bisectable.  One source and one build directory serve all
# prefixes, so each step rebuilds only what the next patch changed.
. "$(dirname "$0")/lib.sh"

mapfile -t patches < <(series_files)
out=$BUILDS/bisect
mkdir -p "$out"
fail=0
for ((k = 1; k <= ${#patches[@]}; k++)); do
	name=$(basename "${patches[k - 1]}")
	src=$("$TOP/scripts/prepare-src.sh" "upto-$k")
	if ! make -C "$src/tools/perf" O="$out" "${PERF_MAKE_FLAGS[@]}" -j"$(nproc)" \
		>"$out.log" 2>&1 || grep -q 'warning:' "$out.log"; then
		echo "FAIL $name: build (log: $out.log)"
		grep -m5 'error\|warning:' "$out.log"
		fail=1
		break
	fi
	result="builds"
	# Whole output first: grep -q would end perf early (SIGPIPE, pipefail).
	if grep -q jit-mmap-overlap <<<"$(cd "$out" && ./perf test list 2>&1)"; then
		if grep -q FAILED <<<"$(cd "$out" && ./perf test jit-mmap-overlap 2>&1)"; then
			result="builds, jit-mmap-overlap FAILS"
			fail=1
		else
			result="builds, jit-mmap-overlap passes"
		fi
	fi
	echo "$name: $result"
done
exit $fail
