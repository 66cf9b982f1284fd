# SPDX-License-Identifier: GPL-2.0
# Common settings for the harness scripts; sourced, never run.
#
# Everything that is downloaded or built lives in the cache, keyed by the
# Debian package version, so the checkout stays small and reruns are fast.
# Nothing here assumes the cache exists: every script (re)creates what it
# needs.

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${PERF_JIT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perf-jit-overlap}

# The kernel base: 7.3 (the newest perf Debian serves, trixie-backports;
# the series mailed upstream) or 6.12 (Debian 12 backports and Debian 13;
# the backport series for distributions).
BASE=${BASE:-7.3}
case "$BASE" in
7.3)	PATCHES=$TOP/patches TREE=$TOP/tree BPREFIX= ;;
6.12)	PATCHES=$TOP/patches-6.12 TREE=$TOP/tree-6.12 BPREFIX=6.12- ;;
*)	echo "error: BASE=$BASE: 7.3 or 6.12" >&2; exit 2 ;;
esac
PKG=linux-source-$BASE

# apt through a configuration of our own: its own sources list, lists and
# cache directories under $CACHE/apt, so nothing of the system's apt
# setup is read or changed.  Debian's archive keyring signs every suite.
APTDIR=$CACHE/apt
APT_OPTS=(
	-o Dir::Etc::sourcelist="$APTDIR/sources.list"
	-o Dir::Etc::sourceparts="$APTDIR/sources.list.d"
	-o Dir::State::Lists="$APTDIR/lists"
	-o Dir::Cache="$APTDIR/cache"
	-o Dir::State::status=/dev/null
	-o Debug::NoLocking=1
	-o APT::Sandbox::User=root
)

# papt_update: write the private sources list and refresh its lists when
# they are missing or older than a day.
papt_update() {
	local key=/usr/share/keyrings/debian-archive-keyring.gpg
	local mirror=http://deb.debian.org/debian
	mkdir -p "$APTDIR/sources.list.d" "$APTDIR/lists/partial" \
		"$APTDIR/cache/archives/partial"
	cat >"$APTDIR/sources.list.new" <<-EOS
	deb [signed-by=$key] $mirror trixie-backports main
	deb [signed-by=$key] $mirror-security bookworm-security main
	deb-src [signed-by=$key] $mirror trixie main
	EOS
	if ! cmp -s "$APTDIR/sources.list.new" "$APTDIR/sources.list" ||
	   [ -z "$(find "$APTDIR/lists" -maxdepth 1 -name '*Release' -mtime -1)" ]; then
		mv "$APTDIR/sources.list.new" "$APTDIR/sources.list"
		msg "apt-get update (private configuration in $APTDIR)"
		# apt's sandbox user cannot write into root's home: say nothing
		# of it (the lists are verified with the keyring all the same).
		apt-get "${APT_OPTS[@]}" -o APT::Sandbox::User=root update -qq 2>&1 |
			grep -v 'unsandboxed' >&2 || true
		[ -n "$(find "$APTDIR/lists" -maxdepth 1 -name '*Release')" ] ||
			die "apt-get update with $APTDIR/sources.list failed"
	fi
	rm -f "$APTDIR/sources.list.new"
}

# papt APT-COMMAND ARGS...: apt-get/apt-cache with the private configuration.
papt() {
	local cmd=$1
	shift
	"$cmd" "${APT_OPTS[@]}" "$@"
}

msg() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The package version: DEB_VERSION from make/environment when it is a
# version of this base (7.3.4-1~bpo13+1 for 7.3; make check runs both
# bases), else the candidate of the private apt configuration.
deb_version() {
	if [[ -n ${DEB_VERSION:-} && $DEB_VERSION == "$BASE".* ]]; then
		echo "$DEB_VERSION"
		return
	fi
	local v
	papt_update
	v=$(papt apt-cache policy "$PKG" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		die "apt knows no candidate for $PKG (sources: $APTDIR/sources.list)"
	fi
	echo "$v"
}

VERSION=$(deb_version)
VDIR=$CACHE/$VERSION
PRISTINE=$VDIR/pristine
BUILDS=$VDIR/build

# perf's build options, the same for every flavour: jitdump needs libelf,
# symbolization libdw, the rest is off unless something here uses it.
PERF_MAKE_FLAGS=(
	PYTHON=/usr/bin/python3
	NO_LIBPYTHON=1 NO_LIBPERL=1 NO_SLANG=1 NO_GTK2=1 NO_LIBBABELTRACE=1
	NO_LIBLLVM=1 NO_LIBBPF=1 BUILD_BPF_SKEL=0 NO_LIBNUMA=1 NO_LIBZSTD=1
	NO_LIBCAP=1 NO_LIBPFM4=1 NO_CAPSTONE=1 NO_SDT=1 NO_LIBDEBUGINFOD=1
	NO_SHELLCHECK=1 NO_LIBAUDIT=1
	# 7.3: libunwind is opt-in; the rust workload needs a rustc (and
	# breaks the archive step with the system's LLVM).  6.12 ignores both.
	LIBUNWIND=1 NO_RUST=1
)

# check_perf PERF NAME: PERF is perf BASE.x with libelf, libdw's unwinder,
# zlib and libunwind on (dies naming NAME otherwise); prints its version.
check_perf() {
	local out o
	out=$("$1" version)
	echo "$BASE $2: $out"
	[[ $out == "perf version $BASE."* ]] || die "$2: not $BASE.x"
	out=$("$1" version --build-options)
	for o in libelf libdw-dwarf-unwind zlib libunwind; do
		grep -qE "^ *$o: \[ on  \]" <<<"$out" || die "$2: $o is not on"
	done
}

# require_builds FLAVOR...: the perfs a script compares must be built.
require_builds() {
	local b
	for b in "$@"; do
		[ -x "$TOP/build/$BPREFIX$b/perf" ] ||
			die "build/$BPREFIX$b/perf missing: run 'make build BASE=$BASE'"
	done
}

# The "nofix" flavour shows that the tests catch the bug: the whole series
# with tests/nofix/$BASE.patch on top, which makes the claims keep every
# anonymous record (perf before v5.9).  Where no such patch exists, the
# series without the patch that makes perf inject use the claims.
NOFIX_PATCH=$TOP/tests/nofix/$BASE.patch
NOFIX_DROP='*-perf-inject-Trim-anonymous-mmaps-*'

# The patch files named by patches/series, in order (for FLAVOR=nofix,
# without the fix; for FLAVOR=upto-K, the first K).
series_files() {
	local f n=0
	[ -f "$PATCHES/series" ] || return 0
	while read -r f; do
		case "$f" in ''|'#'*) continue ;; esac
		n=$((n + 1))
		[[ ${FLAVOR:-} == upto-* && $n -gt ${FLAVOR#upto-} ]] && break
		# shellcheck disable=SC2053
		[[ ${FLAVOR:-} == nofix && ! -f $NOFIX_PATCH && $f == $NOFIX_DROP ]] &&
			continue
		[ -f "$PATCHES/$f" ] || die "$PATCHES/series names missing $f"
		echo "$PATCHES/$f"
	done <"$PATCHES/series"
	if [[ ${FLAVOR:-} == nofix && -f $NOFIX_PATCH ]]; then
		echo "$NOFIX_PATCH"
	fi
}

# base_repo DIR [BRANCH]: make DIR a git repository of the pristine perf
# source subset: one commit with a fixed identity and date (the same
# commit id for everyone), tagged base, on BRANCH (default series).
base_repo() {
	local dir=$1 branch=${2:-series}
	mkdir -p "$dir"
	rsync -a --exclude=/.complete "$PRISTINE/" "$dir/"
	git -C "$dir" init -q -b "$branch"
	cat >"$dir/.gitignore" <<-'IGN'
	# build outputs when building in place (prefer O=)
	*.o
	*.cmd
	.checkpatch-camelcase.*
	IGN
	git -C "$dir" add -A
	GIT_AUTHOR_NAME="Debian $PKG" GIT_AUTHOR_EMAIL=nobody@debian.org \
	GIT_COMMITTER_NAME="Debian $PKG" GIT_COMMITTER_EMAIL=nobody@debian.org \
	GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
		git -C "$dir" commit -q -m "perf source subset of Debian $PKG $VERSION"
	git -C "$dir" tag -f base >/dev/null
}

# perf_make SRC OUT LOG [MAKE FLAGS...]: build perf from the source tree
# SRC into OUT with the harness's flags, all output into LOG.  Fails when
# the build fails or prints a warning (perf builds with -Werror; anything
# that still prints one counts as a failure here).
perf_make() {
	local src=$1 out=$2 log=$3
	shift 3
	mkdir -p "$out"
	make -C "$src/tools/perf" O="$out" "${PERF_MAKE_FLAGS[@]}" -j"$(nproc)" "$@" \
		>"$log" 2>&1 && ! grep -q 'warning:' "$log"
}

# perf_test DIR NAME: run one perf self-test or shell test by name in the
# build directory DIR and map its verdict line to our exit codes: 0
# passes, 1 fails, 2 skips (the last output line says so).
perf_test() {
	local dir=$1 name=$2 out
	# Shell tests find perf in PATH and libperf-jvmti.so in the cwd.
	out=$(cd "$dir" && PATH=$dir:$PATH timeout 900 ./perf test -v "$name" 2>&1) || true
	echo "$out"
	if grep -qE '^ *[0-9.]+: .*: FAILED' <<<"$out"; then
		return 1
	elif grep -qE '^ *[0-9.]+: .*: Ok$' <<<"$out"; then
		grep -qE '^ *[0-9.]+: .*: Skip' <<<"$out" && return 1
		return 0
	elif grep -qE '^ *[0-9.]+: .*: Skip' <<<"$out"; then
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
