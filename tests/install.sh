#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: tests/install.sh [PREFIX]
# make install PREFIX DESTDIR=D then make uninstall leave D as it was (PREFIX
# /usr by default: make check has built perf for it with make deb; each
# PREFIX is a perf build of its own, and /usr/local, make install's
# default, differs from it only in that string):
# into an empty D, the files of PREFIX and the default PERF_NAME (mode,
# link targets), the installed perf-jit runs, a second install replaces
# the first, and uninstall leaves D empty; into a D that has a file of
# someone else's in PREFIX/bin, uninstall keeps it and its directories,
# and an install that would overwrite a file it did not install (as
# PERF_NAME=perf PREFIX=/usr would overwrite linux-perf's /usr/bin/perf)
# is refused and changes nothing.
. "$(dirname "$0")/../scripts/lib.sh"

prefix=${1:-/usr}
[[ $prefix == /?* && $# -le 1 ]] || { echo "usage: $0 [PREFIX]" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# make's own variables for these, as a user passes them
minstall() { env -u MAKEFLAGS -u MAKELEVEL make -s -C "$TOP" BASE="$BASE" PREFIX="$prefix" "$@"; }

d=$tmp/empty
mkdir "$d"
minstall install DESTDIR="$d"
p=$d$prefix
[ -x "$p/bin/perf-jit" ] && [ ! -L "$p/bin/perf-jit" ] || die "no $p/bin/perf-jit"
[ "$(stat -c %a "$p/lib/perf-jit/libperf-jvmti.so")" = 644 ] ||
	die "lib/perf-jit/libperf-jvmti.so missing or not 0644"
for m in perf-jit perf-jit-inject; do
	[ -L "$p/share/man/man1/$m.1.gz" ] && [ -f "$p/share/man/man1/$m.1.gz" ] ||
		die "share/man/man1/$m.1.gz is not a link to a page"
done
grep -q 'jit\\-merged\\-elf' <<<"$(zcat "$p/share/man/man1/perf-jit-inject.1.gz")" ||
	die "perf-jit-inject(1) has no --jit-merged-elf"
[ -f "$p/share/perf-jit/tips.txt" ] || die "no share/perf-jit/tips.txt"
"$p/bin/perf-jit" --version
[ "$("$p/bin/perf-jit" --exec-path)" = "$prefix/lib/perf-jit" ] ||
	die "perf-jit --exec-path is not $prefix/lib/perf-jit"
help=$("$p/bin/perf-jit" inject -h 2>&1 || true)
grep -q -- '--jit-merged-elf' <<<"$help" ||
	die "the installed perf-jit inject -h lists no --jit-merged-elf"
find "$d" -printf '%M %P %l\n' | LC_ALL=C sort >"$tmp/first"
echo "installed: $(grep -c '^-' "$tmp/first") files, $(grep -c '^l' "$tmp/first") links, $(grep -c '^d' "$tmp/first") directories"
minstall install DESTDIR="$d"
find "$d" -printf '%M %P %l\n' | LC_ALL=C sort | diff -u "$tmp/first" - ||
	die "a second make install changed the tree"
minstall uninstall DESTDIR="$d"
left=$(find "$d" -mindepth 1)
[ -z "$left" ] || die "make uninstall left: $left"
echo "make uninstall: $d is empty"

# Someone else's file and directory stay; an overwrite is refused.
d=$tmp/used
mkdir -p "$d$prefix/bin" "$d/usr/bin"
echo theirs >"$d$prefix/bin/other"
echo distribution >"$d/usr/bin/perf"
(cd "$d" && find . -mindepth 1 | LC_ALL=C sort) >"$tmp/before"
minstall install DESTDIR="$d"
minstall uninstall DESTDIR="$d"
(cd "$d" && find . -mindepth 1 | LC_ALL=C sort) >"$tmp/after"
diff -u "$tmp/before" "$tmp/after" || die "make uninstall over a used tree: the tree changed"
left=$(tr '\n' ' ' <"$tmp/after")
echo "make uninstall kept what it did not install: $left"
if minstall install DESTDIR="$d" PREFIX=/usr PERF_NAME=perf 2>"$tmp/err"; then
	die "make install PREFIX=/usr PERF_NAME=perf overwrote $d/usr/bin/perf"
fi
cat "$tmp/err"
[ "$(cat "$d/usr/bin/perf")" = distribution ] && [ ! -e "$d/usr/share/perf-jit" ] ||
	die "the refused install changed the tree"
echo "make install refuses to overwrite a file it did not install"
echo ok
