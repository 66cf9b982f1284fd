#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: python313.sh
#
# CPython 3.13, the first interpreter with -Xperf_jit (jitdump trampolines),
# built once from Debian's python3.13 source package (trixie, through the
# private apt configuration) into $CACHE/python3.13-VERSION, and reused from
# there afterwards.  Prints the interpreter's path.  Upstream's own source
# (the .orig tarball) is built: Debian's patches assume Debian's packaging.
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }

papt_update
pyver=$(papt apt-cache showsrc --only-source python3.13 2>/dev/null |
	awk '/^Version:/ { print $2 }' | sort -V | tail -1)
[ -n "$pyver" ] || die "apt knows no source package python3.13 ($APTDIR/sources.list)"
prefix=$CACHE/python3.13-$pyver
python=$prefix/bin/python3.13
if [ -f "$prefix/.complete" ] && [ -x "$python" ]; then
	echo "$python"
	exit 0
fi

"$TOP/scripts/deps.sh"
srcdir=$CACHE/debs/python3.13-$pyver
if ! ls "$srcdir"/python3.13_*.orig.tar.xz >/dev/null 2>&1; then
	msg "apt-get source --download-only python3.13=$pyver"
	# apt's sandbox user cannot write into root's home: download elsewhere.
	tmpd=$(mktemp -d)
	chmod 755 "$tmpd"
	(cd "$tmpd" && papt apt-get source -q --download-only "python3.13=$pyver") \
		>"$tmpd.log" 2>&1 || true
	if ! ls "$tmpd"/python3.13_*.orig.tar.xz >/dev/null 2>&1; then
		cat "$tmpd.log" >&2
		die "apt-get source python3.13=$pyver failed"
	fi
	rm -f "$tmpd.log"
	mkdir -p "$srcdir"
	mv "$tmpd"/* "$srcdir"/
	rmdir "$tmpd"
fi

work=$(mktemp -d "$CACHE/python3.13-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xf "$srcdir"/python3.13_*.orig.tar.xz -C "$work" --strip-components=1
log=$prefix.log
rm -rf "$prefix"
msg "building CPython $pyver into $prefix (a few minutes; log: $log)"
start=$SECONDS
if ! (cd "$work" && ./configure --prefix="$prefix" --without-ensurepip &&
      make -j"$(nproc)" && make install) >"$log" 2>&1; then
	tail -30 "$log" >&2
	die "CPython build failed; full log: $log"
fi
"$python" -Xperf_jit -c 'import sys; sys.exit(not sys.is_stack_trampoline_active())' ||
	die "$python -Xperf_jit: the perf trampoline is not active"
touch "$prefix/.complete"
msg "CPython $pyver built in $((SECONDS - start)) s"
echo "$python"
