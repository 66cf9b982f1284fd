#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The stock and patched builds of $BASE are perf $BASE.x with what jitdump
# handling needs turned on, and have `perf inject --jit`.
. "$(dirname "$0")/../scripts/lib.sh"

for f in stock patched; do
	perf=$BUILDS/$f/perf
	check_perf "$perf" "$f"
	help=$("$perf" inject -h 2>&1 || true)
	grep -q -- '--jit' <<<"$help" || die "$f: perf inject has no --jit"
	[ -f "$BUILDS/$f/libperf-jvmti.so" ] || die "$f: no libperf-jvmti.so"
done
echo ok
