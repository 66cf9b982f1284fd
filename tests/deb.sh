#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: tests/deb.sh contents|root|suites
# Check the package make deb built for $BASE (scripts/deb.sh --path):
#   contents: every entry with its mode, owner and link target; the Depends
#     cover the package of every library the binaries need (NEEDED); the
#     version names the base and the series; binaries stripped; the
#     perf-inject page documents --jit-merged-elf;
#   root: dpkg --root installs it into an empty root; the installed
#     perf-jit: --version, its build options, the directories compiled in
#     (--exec-path, tips, perf help's man pages), inject -h lists
#     --jit-merged-elf, the JVMTI agent loads into java, and the demo
#     (scripts/demo.sh, PATCHED_PERF) puts 100% of every function's samples
#     in it; dpkg -r leaves no file, nothing to purge;
#   suites: for Debian 12 and 13 (a private apt configuration per suite with
#     SUITE, -updates, -security and -backports, and an empty dpkg status:
#     a fresh system as apt sees it): no path of the package is in
#     linux-perf (the suite's and its backport's), apt can install the
#     package beside either, and the installed perf-jit run on the suite's
#     own libraries (the ones apt would install, unpacked, through their
#     ld.so) gives the demo's 100%.
. "$(dirname "$0")/../scripts/lib.sh"

step=${1:-}
case "$step" in
contents|root|suites) ;;
*) echo "usage: $0 contents|root|suites  (env: BASE=7.3|6.12)" >&2; exit 2 ;;
esac

deb=$("$TOP/scripts/deb.sh" --path)
[ -f "$deb" ] || die "$deb missing: run make deb BASE=$BASE"
echo "package: $deb"
PKGNAME='perf-jit'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# demo_100 PERF DIR: the demo with PERF in the patched column; every
# function of the workload (jitdump_0..5, jitdump_perfmap) has samples, all
# of them right.
demo_100() {
	PATCHED_PERF=$1 DEMO_OUT=$2 "$TOP/scripts/demo.sh" ||
		die "the demo failed with $1"
	python3 - "$2/counts.patched.json" <<-'PY'
	import json, sys
	f = json.load(open(sys.argv[1]))['functions']
	want = ['jitdump_%d' % i for i in range(6)] + ['jitdump_perfmap']
	bad = [n for n in want if n not in f or not f[n]['samples'] or
	       f[n]['right'] != f[n]['samples']]
	for n in bad:
	    print('not 100%%: %s %s' % (n, f.get(n)))
	sys.exit(1 if bad else 0)
	PY
}

# pkg_of PATH: the installed package that holds PATH, under any of its
# names (/lib or /usr/lib, the link or what it points to).
pkg_of() {
	local p real
	real=$(readlink -f "$1")
	for p in "$1" "${1#/usr}" "/usr$1" "$real" "${real#/usr}" "/usr${real#/usr}"; do
		dpkg -S "$p" 2>/dev/null | sed -n 's/^\([^:, ]*\)\(:[a-z0-9]*\)\?: .*/\1/p' | head -1 |
			grep . && return 0
	done
	return 0
}

contents() {
	local doc=$VDIR/src-patched/tools/perf/Documentation page
	local ver hash n dep names lib so pkg missing=0 x=$tmp/x f pf ldc
	# What the package must hold, "mode owner path[ -> target]".
	{
		for d in ./ ./usr/ ./usr/bin/ ./usr/lib/ ./usr/lib/$PKGNAME/ ./usr/share/ \
			./usr/share/doc/ ./usr/share/doc/$PKGNAME/ ./usr/share/man/ \
			./usr/share/man/man1/ ./usr/share/$PKGNAME/ ./usr/share/$PKGNAME/man/ \
			./usr/share/$PKGNAME/man/man1/; do
			echo "drwxr-xr-x root/root $d"
		done
		echo "-rwxr-xr-x root/root ./usr/bin/$PKGNAME"
		echo "-rw-r--r-- root/root ./usr/lib/$PKGNAME/libperf-jvmti.so"
		echo "-rw-r--r-- root/root ./usr/share/doc/$PKGNAME/changelog.Debian.gz"
		echo "-rw-r--r-- root/root ./usr/share/doc/$PKGNAME/copyright"
		echo "-rw-r--r-- root/root ./usr/share/$PKGNAME/tips.txt"
		for page in "$doc"/perf.txt "$doc"/perf-*.txt; do
			page=${page##*/}
			echo "-rw-r--r-- root/root ./usr/share/$PKGNAME/man/man1/${page%.txt}.1.gz"
		done
		echo "lrwxrwxrwx root/root ./usr/share/man/man1/$PKGNAME.1.gz -> ../../$PKGNAME/man/man1/perf.1.gz"
		echo "lrwxrwxrwx root/root ./usr/share/man/man1/$PKGNAME-inject.1.gz -> ../../$PKGNAME/man/man1/perf-inject.1.gz"
	} | LC_ALL=C sort >"$tmp/want"
	dpkg-deb -c "$deb" | awk '{ $3 = $4 = $5 = ""; print }' | tr -s ' ' |
		LC_ALL=C sort >"$tmp/got"
	if ! diff -u "$tmp/want" "$tmp/got"; then
		die "the package's entries differ from the list above (- expected, + in the package)"
	fi
	echo "$(wc -l <"$tmp/got") entries, modes and owners as expected"

	ver=$(dpkg-deb -f "$deb" Version)
	mapfile -t pf < <(FLAVOR='' series_files)
	hash=$(cat "${pf[@]}" | sha256sum | cut -c1-8)
	[ "$ver" = "$VERSION+jit${#pf[@]}.$hash" ] ||
		die "Version: $ver, not $VERSION+jit${#pf[@]}.$hash (base, patches, their hash)"
	echo "Version: $ver"

	dep=$(dpkg-deb -f "$deb" Depends)
	echo "Depends: $dep"
	# the package names, one a line (alternatives too)
	names=$(sed 's/([^)]*)//g; s/[,|]/\n/g' <<<"$dep" | tr -d ' ')
	dpkg-deb -x "$deb" "$x"
	ldc=$(ldconfig -p)
	for f in "$x/usr/bin/$PKGNAME" "$x/usr/lib/$PKGNAME/libperf-jvmti.so"; do
		! grep -qE '\.symtab|\.debug_' <<<"$(readelf -S "$f")" || die "${f#"$x"} is not stripped"
		for lib in $(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
			# awk reads all of it: an early exit would kill ldconfig
			# with SIGPIPE, a failure under pipefail.
			so=$(awk -v l="$lib" '$1 == l && /x86-64|64bit/ && !n++ { print $NF }' <<<"$ldc")
			[ -n "$so" ] || so=$(awk -v l="$lib" '$1 == l && !n++ { print $NF }' <<<"$ldc")
			pkg=$(pkg_of "$so")
			if [ -z "$pkg" ] || ! grep -qxF "$pkg" <<<"$names"; then
				echo "${f#"$x"} needs $lib ($so, package '$pkg'): not in Depends"
				missing=1
			fi
		done
	done
	[ $missing = 0 ] || die "Depends misses a library"
	for n in libc6 libdw1 libelf1 libunwind8 zlib1g libtraceevent1 liblzma5; do
		grep -qxF "$n" <<<"$names" || die "Depends has no $n"
	done
	echo "Depends: the package of every NEEDED library, libdw1, libelf1, libunwind8, zlib1g, libtraceevent1, liblzma5"

	man -P cat -l "$x/usr/share/$PKGNAME/man/man1/perf-inject.1.gz" 2>/dev/null >"$tmp/inject.txt"
	grep -q -- '--jit-merged-elf' "$tmp/inject.txt" ||
		die "the perf-inject page has no --jit-merged-elf"
	grep -q -- '--jit' "$tmp/inject.txt" || die "the perf-inject page has no --jit"
	echo "perf-inject(1) documents --jit and --jit-merged-elf"
}

root() {
	local r=$tmp/root perf out t left
	mkdir -p "$r/var/lib/dpkg/info" "$r/var/lib/dpkg/updates"
	: >"$r/var/lib/dpkg/status"
	# The libraries are this machine's, not the root's: --force-depends.
	dpkg --root="$r" --force-depends -i "$deb" 2>&1 | grep -v 'depends on\|is not installed\|dependency problems' ||
		true
	grep -qx 'Status: install ok installed' <<<"$(dpkg --root="$r" -s $PKGNAME)" ||
		die "dpkg --root -i did not install $PKGNAME"
	perf=$r/usr/bin/$PKGNAME
	check_perf "$perf" "$PKGNAME"
	# The directories compiled in: helpers, tips, pages (perf help runs man
	# with its page directory first in MANPATH: a man of ours prints both).
	out=$("$perf" --exec-path)
	[ "$out" = /usr/lib/$PKGNAME ] || die "$PKGNAME --exec-path: $out, not /usr/lib/$PKGNAME"
	strings "$perf" | grep -x "share/$PKGNAME" >/dev/null || die "$PKGNAME: no tips directory share/$PKGNAME"
	mkdir -p "$tmp/bin"
	printf '#!/bin/sh\necho "MANPATH=$MANPATH page=$*"\n' >"$tmp/bin/man"
	chmod +x "$tmp/bin/man"
	out=$(PATH=$tmp/bin:$PATH "$perf" help inject 2>&1 || true)
	echo "$PKGNAME help inject runs: man with $out"
	[[ $out == "MANPATH=/usr/share/$PKGNAME/man:"*" page=perf-inject" ]] ||
		die "$PKGNAME help inject does not look in /usr/share/$PKGNAME/man first"
	out=$("$perf" inject -h 2>&1 || true)
	grep -- '--jit' <<<"$out"
	grep -q -- '--jit-merged-elf' <<<"$out" || die "$PKGNAME inject -h lists no --jit-merged-elf"
	t=$tmp/jvm
	mkdir -p "$t"
	JITDUMPDIR=$t java -agentpath:"$r/usr/lib/$PKGNAME/libperf-jvmti.so" -version 2>&1 | tail -1
	[ -n "$(find "$t" -name 'jit-*.dump' -size +0)" ] ||
		die "java -agentpath:.../libperf-jvmti.so wrote no jitdump into JITDUMPDIR"
	echo "the JVMTI agent wrote $(find "$t" -name 'jit-*.dump' -printf '%P')"
	demo_100 "$perf" "$tmp/demo"
	dpkg --root="$r" -r $PKGNAME
	left=$(cd "$r" && find . -mindepth 1 ! -path './var' ! -path './var/lib' ! -path './var/lib/dpkg*')
	[ -z "$left" ] || die "dpkg -r left: $left"
	# No conffiles: dpkg -r leaves nothing to purge.
	! dpkg --root="$r" -s $PKGNAME >/dev/null 2>&1 || die "after dpkg -r, dpkg still knows $PKGNAME"
	echo "dpkg -r left no file and no trace in dpkg's database"
}

# The private apt configuration of Debian SUITE, under the cache.
sapt_opts() {
	local c=$CACHE/apt-$1
	SAPT=(-o Dir::Etc::sourcelist="$c/sources.list" -o Dir::Etc::sourceparts="$c/sources.list.d"
		-o Dir::Etc::preferences="$c/preferences" -o Dir::Etc::preferencesparts="$c/preferences.d"
		-o Dir::State::Lists="$c/lists" -o Dir::Cache="$c/cache" -o Dir::State::status=/dev/null
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	SAPTDIR=$c
}

sapt_update() {
	local suite=$1 c key=/usr/share/keyrings/debian-archive-keyring.gpg
	local mirror=http://deb.debian.org/debian
	sapt_opts "$suite"
	c=$SAPTDIR
	mkdir -p "$c/sources.list.d" "$c/preferences.d" "$c/lists/partial" "$c/cache/archives/partial"
	cat >"$c/sources.list.new" <<-EOS
	deb [signed-by=$key] $mirror $suite main
	deb [signed-by=$key] $mirror $suite-updates main
	deb [signed-by=$key] $mirror-security $suite-security main
	deb [signed-by=$key] $mirror $suite-backports main
	EOS
	if ! cmp -s "$c/sources.list.new" "$c/sources.list" ||
	   [ -z "$(find "$c/lists" -maxdepth 1 -name '*Release' -mtime -1)" ]; then
		mv "$c/sources.list.new" "$c/sources.list"
		msg "apt-get update ($suite, private configuration in $c)"
		apt-get "${SAPT[@]}" update -qq 2>&1 | grep -v 'unsandboxed' >&2 || true
		[ -n "$(find "$c/lists" -maxdepth 1 -name '*Release')" ] ||
			die "apt-get update with $c/sources.list failed"
	fi
	rm -f "$c/sources.list.new"
}

suites() {
	local suite rel d lp common libs rootfs ld wrap sim
	for suite in bookworm trixie; do
		sapt_update "$suite"
		d=$tmp/$suite
		mkdir -p "$d/debs" "$d/libs"
		dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { print $6 }' | LC_ALL=C sort >"$d/ours"
		for rel in "" "/$suite-backports"; do
			rm -f "$d"/debs/*.deb
			(cd "$d/debs" && apt-get "${SAPT[@]}" download -qq "linux-perf$rel" 2>&1 |
				grep -v unsandboxed) || true
			lp=$(find "$d/debs" -name 'linux-perf_*.deb' | head -1)
			[ -n "$lp" ] || die "no linux-perf$rel in $suite's archive"
			dpkg-deb -c "$lp" | awk '$1 !~ /^d/ { print $6 }' | LC_ALL=C sort >"$d/theirs"
			common=$(LC_ALL=C comm -12 "$d/ours" "$d/theirs")
			[ -z "$common" ] || die "paths in both $PKGNAME and ${lp##*/}: $common"
			sim=$(apt-get "${SAPT[@]}" -s --no-install-recommends install "$deb" "linux-perf$rel" 2>&1) ||
				{ echo "$sim"; die "$suite: apt cannot install $PKGNAME beside linux-perf$rel"; }
			grep -q "^Inst $PKGNAME " <<<"$sim" && grep -q '^Inst linux-perf ' <<<"$sim" ||
				{ echo "$sim"; die "$suite: apt would not install both"; }
			echo "$suite: ${lp##*/}: no path in common; apt installs both ($(grep -c '^Inst' <<<"$sim") packages on an empty system)"
		done
		# The libraries apt would install with the package alone, unpacked.
		sim=$(apt-get "${SAPT[@]}" -s --no-install-recommends install "$deb" 2>&1) ||
			{ echo "$sim"; die "$suite: apt cannot install $PKGNAME"; }
		libs=$(awk -v p=$PKGNAME '/^Inst/ && $2 != p { print $2 }' <<<"$sim")
		# shellcheck disable=SC2086 # one package a word
		(cd "$d/libs" && apt-get "${SAPT[@]}" download -qq $libs 2>&1 | grep -v unsandboxed) || true
		rootfs=$d/rootfs
		mkdir -p "$rootfs"
		for f in "$d"/libs/*.deb; do
			dpkg-deb -x "$f" "$rootfs"
		done
		dpkg-deb -x "$deb" "$rootfs"
		ld=$(find "$rootfs" -name 'ld-linux-x86-64.so.2' -type f | head -1)
		[ -n "$ld" ] || die "$suite: no ld.so in $(tr '\n' ' ' <<<"$libs")"
		wrap=$d/perf-jit-on-$suite
		printf '#!/bin/sh\nexec %s --library-path %s %s "$@"\n' "$ld" \
			"$rootfs/usr/lib/x86_64-linux-gnu:$rootfs/lib/x86_64-linux-gnu" \
			"$rootfs/usr/bin/$PKGNAME" >"$wrap"
		chmod +x "$wrap"
		"$ld" --library-path "$rootfs/usr/lib/x86_64-linux-gnu:$rootfs/lib/x86_64-linux-gnu" \
			--list "$rootfs/usr/bin/$PKGNAME" | grep -v "$rootfs\|linux-vdso" &&
			die "$suite: a library of $PKGNAME resolves outside the suite's"
		echo "$suite: $PKGNAME on the suite's $(wc -w <<<"$libs") library packages: $("$wrap" --version)"
		demo_100 "$wrap" "$d/demo"
	done
}

"$step"
echo ok
