#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: install.sh install|uninstall
# Install the patched perf of $BASE, built for PREFIX (default /usr/local),
# under DESTDIR (default none), as PREFIX/bin/PERF_NAME (default perf-jit,
# which no Debian package ships: the distribution's perf stays `perf`):
#
#   bin/PERF_NAME                          the patched perf
#   lib/perf-jit/libperf-jvmti.so          java -agentpath:PREFIX/lib/perf-jit/libperf-jvmti.so
#   share/perf-jit/tips.txt                perf report's tips
#   share/perf-jit/man/man1/perf*.1.gz     this perf's pages: `PERF_NAME help inject`
#   share/man/man1/PERF_NAME.1.gz          -> perf.1.gz above
#   share/man/man1/PERF_NAME-inject.1.gz   -> perf-inject.1.gz above (--jit, --jit-merged-elf)
#   share/perf-jit/install-manifest        what was installed, for uninstall
#
# perf finds its helpers, tips and pages through paths compiled in from its
# prefix, so each PREFIX has a build of its own ($BUILDS/install-PREFIX),
# with the private directories above instead of perf's defaults, which
# Debian's linux-perf uses.  Nothing that exists and is not in the manifest
# of an earlier install is overwritten; installing again replaces that
# install.  uninstall removes the manifest's files, links and the
# directories the install created.
. "$(dirname "$0")/lib.sh"

action=${1:-}
case "$action" in
install|uninstall) ;;
*) echo "usage: $0 install|uninstall  (env: PREFIX=/usr/local DESTDIR= PERF_NAME=perf-jit BASE=7.3)" >&2
   exit 2 ;;
esac
PREFIX=${PREFIX:-/usr/local}
PREFIX=${PREFIX%/}
DESTDIR=${DESTDIR:-}
DESTDIR=${DESTDIR%/}
PERF_NAME=${PERF_NAME:-perf-jit}
[[ $PREFIX == /?* ]] || die "PREFIX=$PREFIX: an absolute path, not /"
[[ -z $DESTDIR || $DESTDIR == /* ]] || die "DESTDIR=$DESTDIR: an absolute path"
[[ $PERF_NAME =~ ^[A-Za-z0-9][A-Za-z0-9._+-]*$ ]] || die "PERF_NAME=$PERF_NAME: not a command name"
PRIV=perf-jit
MANIFEST=$PREFIX/share/$PRIV/install-manifest
umask 022

# uninstall_manifest: remove what the manifest under DESTDIR names: files
# and links, the manifest, then the directories it created, deepest first
# (a directory something else put a file into stays, with a warning).
uninstall_manifest() {
	local kind path dirs=()
	while read -r kind path; do
		case "$kind" in
		f|l) rm -f "$DESTDIR$path" ;;
		d) dirs=("$path" "${dirs[@]}") ;;
		esac
	done <"$DESTDIR$MANIFEST"
	rm -f "$DESTDIR$MANIFEST"
	for path in "${dirs[@]}"; do
		rmdir "$DESTDIR$path" 2>/dev/null ||
			echo "warning: $DESTDIR$path not empty, left in place" >&2
	done
}

if [ "$action" = uninstall ]; then
	[ -f "$DESTDIR$MANIFEST" ] ||
		die "nothing installed under $DESTDIR$PREFIX (no $DESTDIR$MANIFEST)"
	uninstall_manifest
	msg "removed the perf-jit install from $DESTDIR$PREFIX"
	exit 0
fi

"$TOP/scripts/deps.sh"
src=$("$TOP/scripts/prepare-src.sh" patched)
out=$BUILDS/install$(tr / - <<<"$PREFIX")
# What goes where: "kind path [source]" (f: file with mode, l: symlink).
plan=(
	"f 0755 $PREFIX/bin/$PERF_NAME $out/perf"
	"f 0644 $PREFIX/lib/$PRIV/libperf-jvmti.so $out/libperf-jvmti.so"
	"f 0644 $PREFIX/share/$PRIV/tips.txt $src/tools/perf/Documentation/tips.txt"
)
# perf's Documentation makes a page of perf.txt and of each perf-*.txt
for page in "$src"/tools/perf/Documentation/perf{,-*}.txt; do
	p=${page##*/}
	p=${p%.txt}.1
	plan+=("z 0644 $PREFIX/share/$PRIV/man/man1/$p.gz $out/Documentation/$p")
done
plan+=(
	"l - $PREFIX/share/man/man1/$PERF_NAME.1.gz ../../$PRIV/man/man1/perf.1.gz"
	"l - $PREFIX/share/man/man1/$PERF_NAME-inject.1.gz ../../$PRIV/man/man1/perf-inject.1.gz"
)

# Refuse to overwrite what an earlier install did not put there (the
# distribution's /usr/bin/perf with PERF_NAME=perf PREFIX=/usr, say).
old=
[ -f "$DESTDIR$MANIFEST" ] && old=$(awk '{ print $2 }' "$DESTDIR$MANIFEST")
for e in "${plan[@]}"; do
	read -r _ _ path _ <<<"$e"
	if [[ -e $DESTDIR$path || -L $DESTDIR$path ]] && ! grep -qxF "$path" <<<"$old"; then
		die "$DESTDIR$path exists and no make install put it there; remove it, or choose PREFIX or PERF_NAME"
	fi
done

msg "building patched perf ($VERSION) for $PREFIX in $out"
# The make that runs this script passes PREFIX, DESTDIR, ... to perf's
# make through MAKEFLAGS: build as build-perf.sh does, with only our flags.
# Makefile.perf itself, as Debian's packaging does: tools/perf/Makefile
# unexports MAKEFLAGS, and Makefile.config's directories win over the
# environment.
(
	unset MAKEFLAGS MFLAGS MAKELEVEL DESTDIR
	perf_make "$src" "$out" "$out.log" -f Makefile.perf prefix="$PREFIX" \
		perfexecdir=lib/$PRIV tipdir=share/$PRIV mandir=share/$PRIV/man
) || { grep 'warning:' "$out.log" >&2 || tail -40 "$out.log" >&2
       die "build failed; full log: $out.log"; }
[ -f "$out/libperf-jvmti.so" ] || die "no libperf-jvmti.so in $out (JDK missing?)"

# The man pages as Debian builds them (asciidoctor), dated by the series.
pv=$("$out/perf" version | awk '{ print $3 }')
date=$(git -C "$TOP" log -1 --format=%cI -- "$PATCHES" 2>/dev/null || true)
[ -n "$date" ] || date=$(date -u -r "$PATCHES/series" +%FT%TZ)
mkdir -p "$out/Documentation"
if ! ( unset MAKEFLAGS MFLAGS MAKELEVEL DESTDIR
       make -C "$src/tools/perf/Documentation" O="$out/Documentation" USE_ASCIIDOCTOR=1 \
		PERF_VERSION="$pv" KBUILD_BUILD_TIMESTAMP="$date" -j"$(nproc)" man1 \
		>"$out/Documentation.log" 2>&1 ); then
	tail -20 "$out/Documentation.log" >&2
	die "man pages failed; full log: $out/Documentation.log"
fi
for e in "${plan[@]}"; do
	read -r kind _ _ from <<<"$e"
	[ "$kind" = l ] || [ -f "$from" ] || die "$from was not built"
done

if [ -n "$old" ]; then
	msg "replacing the earlier install in $DESTDIR$PREFIX"
	uninstall_manifest
fi

# mkdirs DIR: create DIR under DESTDIR and its missing parents, noting each
# one created in the manifest (DESTDIR itself is made if missing, not noted).
entries=()
mkdirs() {
	local d=$1 missing=()
	[ -z "$DESTDIR" ] || mkdir -p "$DESTDIR"
	while [[ $d != / && ! -d $DESTDIR$d ]]; do
		missing=("$d" "${missing[@]}")
		d=$(dirname "$d")
	done
	for d in "${missing[@]}"; do
		mkdir -m 0755 "$DESTDIR$d"
		entries+=("d $d")
	done
}
for e in "${plan[@]}"; do
	read -r kind mode path from <<<"$e"
	mkdirs "$(dirname "$path")"
	case "$kind" in
	f) install -m "$mode" "$from" "$DESTDIR$path" ;;
	z) gzip -9n <"$from" >"$DESTDIR$path"; chmod "$mode" "$DESTDIR$path" ;;
	l) ln -s "$from" "$DESTDIR$path" ;;
	esac
	[ "$kind" = l ] && entries+=("l $path") || entries+=("f $path")
done
printf '%s\n' "${entries[@]}" >"$DESTDIR$MANIFEST"
chmod 0644 "$DESTDIR$MANIFEST"
msg "installed $DESTDIR$PREFIX/bin/$PERF_NAME ($("$out/perf" version), $BASE series; the JVM agent: -agentpath:$PREFIX/lib/$PRIV/libperf-jvmti.so)"
