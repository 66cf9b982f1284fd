#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: build-perf.sh stock|patched|nofix|asan [EXTRA make flags...]
# asan is the patched source built with -fsanitize=address,undefined.
# Build perf (and libperf-jvmti.so) from the FLAVOR source into
# $CACHE/VERSION/build/FLAVOR, and link build/FLAVOR in the checkout to it.
. "$(dirname "$0")/lib.sh"

flavor=${1:-}
case "$flavor" in
stock|patched|nofix|asan) ;;
*) echo "usage: $0 stock|patched|nofix|asan [make flags]" >&2; exit 2 ;;
esac
shift
src_flavor=$flavor
if [ "$flavor" = asan ]; then
	src_flavor=patched
	# gcc's -Wformat-truncation misfires on upstream's build-id.c under
	# the sanitizers: do not let warnings in code we do not touch stop it.
	set -- "$@" EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -g" \
		LDFLAGS="-fsanitize=address,undefined" WERROR=0
fi

"$TOP/scripts/deps.sh"
src=$("$TOP/scripts/prepare-src.sh" "$src_flavor")
out=$BUILDS/$flavor
mkdir -p "$out"
log=$out.log
msg "building $flavor perf ($VERSION) in $out"
if ! make -C "$src/tools/perf" O="$out" "${PERF_MAKE_FLAGS[@]}" \
	-j"$(nproc)" "$@" >"$log" 2>&1; then
	tail -40 "$log" >&2
	die "$flavor build failed; full log: $log"
fi
# perf's build turns every warning into an error (-Werror); say so if
# anything still printed one.
if [ "$flavor" != asan ] && grep -q 'warning:' "$log"; then
	grep 'warning:' "$log" >&2
	die "$flavor build printed warnings; full log: $log"
fi
mkdir -p "$TOP/build"
ln -sfn "$out" "$TOP/build/$BPREFIX$flavor"
"$out/perf" version
