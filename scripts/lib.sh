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
PKG=linux-source-6.12

# The package version: DEB_VERSION from make/environment, else the
# candidate apt would install.
deb_version() {
	if [ -n "${DEB_VERSION:-}" ]; then
		echo "$DEB_VERSION"
		return
	fi
	local v
	v=$(apt-cache policy "$PKG" 2>/dev/null | awk '/Candidate:/ { print $2 }')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		apt-get update -qq >&2
		v=$(apt-cache policy "$PKG" | awk '/Candidate:/ { print $2 }')
	fi
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		echo "error: apt knows no candidate for $PKG" >&2
		exit 1
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
)

msg() { printf '==> %s\n' "$*" >&2; }

# require_builds FLAVOR...: the perfs a script compares must be built.
require_builds() {
	local b
	for b in "$@"; do
		[ -x "$TOP/build/$b/perf" ] || die "build/$b/perf missing: run 'make build'"
	done
}
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The "nofix" flavour is the series without the patch that makes perf
# inject use the claims: the tests must fail on it.
NOFIX_DROP='*-perf-inject-Trim-anonymous-mmaps-*'

# The patch files named by patches/series, in order (for FLAVOR=nofix,
# without the fix; for FLAVOR=upto-K, the first K).
series_files() {
	local f n=0
	[ -f "$TOP/patches/series" ] || return 0
	while read -r f; do
		case "$f" in ''|'#'*) continue ;; esac
		n=$((n + 1))
		[[ ${FLAVOR:-} == upto-* && $n -gt ${FLAVOR#upto-} ]] && break
		# shellcheck disable=SC2053
		[[ ${FLAVOR:-} == nofix && $f == $NOFIX_DROP ]] && continue
		[ -f "$TOP/patches/$f" ] || die "patches/series names missing $f"
		echo "$TOP/patches/$f"
	done <"$TOP/patches/series"
}
