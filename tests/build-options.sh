#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Both builds are perf 6.12.x with what jitdump handling needs turned on,
# and have `perf inject --jit`.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
for f in stock patched; do
	perf=$top/build/$f/perf
	ver=$("$perf" version)
	echo "$f: $ver"
	[[ $ver == "perf version 6.12."* ]] || { echo "$f: not 6.12.x"; exit 1; }
	opts=$("$perf" version --build-options)
	for o in libelf libdw-dwarf-unwind zlib libunwind libcrypto; do
		grep -qE "^ *$o: \[ on  \]" <<<"$opts" ||
			{ echo "$f: $o is not on"; exit 1; }
	done
	help=$("$perf" inject -h 2>&1 || true)
	grep -q -- '--jit' <<<"$help" ||
		{ echo "$f: perf inject has no --jit"; exit 1; }
	[ -f "$top/build/$f/libperf-jvmti.so" ] ||
		{ echo "$f: no libperf-jvmti.so"; exit 1; }
done
echo ok
