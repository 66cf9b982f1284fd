#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's linux-source-$BASE with apt (private configuration) and extract what perf's build
# (tools/perf/MANIFEST) and checkpatch need into $CACHE/VERSION/pristine.
# Prints the pristine directory.  Does nothing when it is already there.
. "$(dirname "$0")/lib.sh"

if [ -f "$PRISTINE/.complete" ]; then
	echo "$PRISTINE"
	exit 0
fi

msg "$PKG $VERSION"
debdir=$CACHE/debs
deb=$debdir/${PKG}_${VERSION//:/%3a}_all.deb
mkdir -p "$debdir"
if [ ! -f "$deb" ]; then
	msg "apt-get download $PKG=$VERSION"
	# apt's sandbox user cannot write into root's home: download elsewhere.
	tmpd=$(mktemp -d)
	chmod 755 "$tmpd"
	(cd "$tmpd" && papt apt-get download -q "$PKG=$VERSION" 2>&1 |
		grep -v '^W: Download is performed unsandboxed' >&2 || true)
	mv "$tmpd"/*.deb "$deb" 2>/dev/null || die "apt-get download $PKG=$VERSION failed"
	rmdir "$tmpd"
fi

work=$(mktemp -d "$VDIR.extract.XXXXXX")
trap 'rm -rf "$work"' EXIT
msg "extracting the perf subset"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work" --strip-components=3 \
	"./usr/src/$PKG.tar.xz"
top=$PKG
# tools/perf/MANIFEST names what perf's build needs outside tools/; then
# checkpatch.pl with its data files, and the few real files that make the
# extract a kernel tree in checkpatch's eyes (top_of_kernel_tree()):
# references for the code we write, too.
tar -I 'xz -T0' -xf "$work/$PKG.tar.xz" -C "$work" "$top/tools/perf/MANIFEST"
mapfile -t manifest < <( (grep -v '^tools/' "$work/$top/tools/perf/MANIFEST"; echo COPYING) |
	sort -u | sed "s|^|$top/|")
tar -I 'xz -T0' -xf "$work/$PKG.tar.xz" -C "$work" --wildcards \
	--exclude="$top/tools/testing" \
	"$top/tools" "${manifest[@]}" \
	"$top/scripts/checkpatch.pl" \
	"$top/scripts/spelling.txt" \
	"$top/scripts/const_structs.checkpatch" \
	"$top/scripts/get_maintainer.pl" \
	"$top/CREDITS" "$top/Kbuild" "$top/MAINTAINERS" \
	"$top/Makefile" "$top/README" \
	"$top/Documentation/dev-tools/checkpatch.rst" \
	"$top/Documentation/process/coding-style.rst" \
	"$top/Documentation/process/submitting-patches.rst" \
	"$top/include/uapi/linux/perf_event.h" \
	"$top/include/linux/interval_tree.h" \
	"$top/include/linux/interval_tree_generic.h" \
	"$top/lib/interval_tree.c" \
	"$top/mm/interval_tree.c" \
	"$top/drivers/vhost/iotlb.c" \
	"$top/fs/Makefile" "$top/init/Makefile" "$top/ipc/Makefile"
rm "$work/$PKG.tar.xz"

kv=$(make -s -C "$work/$top" kernelversion 2>/dev/null ||
     awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3} END{print v"."p"."s}' "$work/$top/Makefile")
# perf's own tarball carries this; without it `perf version` is empty.
echo "#define PERF_VERSION \"$kv\"" >"$work/$top/PERF-VERSION-FILE"
echo "$PKG $VERSION" >"$work/$top/.debian-package"
touch "$work/$top/.complete"
rm -rf "$PRISTINE"
mkdir -p "$VDIR"
mv "$work/$top" "$PRISTINE"
msg "pristine source: $PRISTINE (perf $kv)"
echo "$PRISTINE"
