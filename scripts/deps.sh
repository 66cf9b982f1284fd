#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the build and the tests need.  Quick and
# silent when they are all present; never upgrades anything else.
set -euo pipefail

PKGS=(
	build-essential flex bison pkg-config libelf-dev libdw-dev zlib1g-dev
	liblzma-dev libunwind-dev libtraceevent-dev libssl-dev python3-dev
	openjdk-17-jdk-headless rsync xz-utils time
	llvm-14 clang libclang-rt-14-dev nodejs
	# CPython 3.13 (scripts/python313.sh): zlib, ssl, lzma above, and
	libffi-dev libbz2-dev
	# make install / make deb: perf's man pages as Debian builds them
	# (asciidoctor), the package built and checked with Debian's tools
	asciidoctor dpkg-dev lintian
	# eu-elflint, on the files of --jit-merged-elf (jitdump-merged-elf.sh)
	elfutils
)

missing=()
for p in "${PKGS[@]}"; do
	s=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$s" in ii*) ;; *) missing+=("$p") ;; esac
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "==> installing: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get install -y -qq --no-upgrade "${missing[@]}" >/dev/null; then
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq --no-upgrade "${missing[@]}" >/dev/null
fi
