#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: build-variants.sh [VARIANT...]   (default: no-libelf no-libdw)
# Build the patched perf in the configurations perf's `make build-test`
# would flag for the files the series touches: without libelf (no jitdump
# support at all, so no perf inject --jit) and without libdw.  Each must
# build warning-free.  perf test jit-mmap-overlap must pass without libdw
# and be skipped without libelf, where the code it tests compiles out.
# Without libdw, DWARF callchains are libunwind's alone: perf test 'perf
# inject --jit-merged-elf' must pass there, CPython 3.13's callchains
# through merged files included.
. "$(dirname "$0")/lib.sh"

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(no-libelf no-libdw)
src=$("$TOP/scripts/prepare-src.sh" patched)
fail=0
for v in "${variants[@]}"; do
	case "$v" in
	no-libelf) flags=(NO_LIBELF=1) want=': Skip' jit=no ;;
	no-libdw) flags=(NO_LIBDW=1) want=': Ok' jit=yes ;;
	*) echo "usage: $0 [no-libelf|no-libdw]..." >&2; exit 2 ;;
	esac
	out=$BUILDS/variant-$v
	mkdir -p "$out"
	if ! make -C "$src/tools/perf" O="$out" "${PERF_MAKE_FLAGS[@]}" "${flags[@]}" \
		-j"$(nproc)" >"$out.log" 2>&1; then
		echo "FAIL $v (${flags[*]}): build failed (log: $out.log)"
		grep -m10 'error\|warning:' "$out.log"
		fail=1
		continue
	fi
	if grep -q 'warning:' "$out.log"; then
		echo "FAIL $v (${flags[*]}): warnings (log: $out.log)"
		grep 'warning:' "$out.log" | head
		fail=1
		continue
	fi
	res=$(cd "$out" && ./perf test jit-mmap-overlap 2>&1)
	if grep -q FAILED <<<"$res" || ! grep -q "$want" <<<"$res"; then
		echo "FAIL $v (${flags[*]}): perf test jit-mmap-overlap, expected$want"
		echo "$res"
		fail=1
		continue
	fi
	help=$("$out/perf" inject -h 2>&1 || true)
	has=no
	grep -q -- '--jit ' <<<"$help" && has=yes
	if [ "$has" != "$jit" ]; then
		echo "FAIL $v (${flags[*]}): perf inject --jit present: $has, expected $jit"
		fail=1
		continue
	fi
	merged=
	if [ "$v" = no-libdw ]; then
		py=$("$TOP/scripts/python313.sh") || { fail=1; continue; }
		if ! PYTHON=$py perf_test "$out" 'perf inject --jit-merged-elf' >"$out.merged.log" 2>&1; then
			echo "FAIL $v (${flags[*]}): perf test 'perf inject --jit-merged-elf' (log: $out.merged.log)"
			fail=1
			continue
		fi
		merged=", perf inject --jit-merged-elf (libunwind's callchains): Ok"
	fi
	echo "ok   $v (${flags[*]}): builds warning-free, jit-mmap-overlap${want#:}, --jit: $has$merged"
done
exit $fail
