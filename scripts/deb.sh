#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: deb.sh [-n|--path]
# Build build/perf-jit_VERSION_ARCH.deb: the tree `make install PREFIX=/usr`
# installs (scripts/install.sh, PERF_NAME=perf-jit always, so that no file
# is one of linux-perf's), its binaries stripped as dh_strip does, with
# Debian's own tools: dpkg-shlibdeps for the Depends, dpkg-gencontrol,
# dpkg-deb.  VERSION is the base's Debian version, +jitN.H: N patches in
# the series, H the first 8 hex digits of the sha256 of their text in the
# series' order.  Then lintian: an error or a warning fails (-n: no
# lintian; README, "Install", explains the info tags).  Prints the
# package's path (--path: only that, nothing built).
. "$(dirname "$0")/lib.sh"

lint=1 pathonly=0
case "${1:-}" in
'') ;;
-n) lint=0 ;;
--path) pathonly=1 ;;
*) echo "usage: $0 [-n|--path]  (-n: skip lintian; --path: print the package's path; env: BASE=7.3|6.12)" >&2
   exit 2 ;;
esac

PKGNAME=perf-jit
mapfile -t pf < <(FLAVOR='' series_files)
[ ${#pf[@]} -gt 0 ] || die "no patches in $PATCHES/series"
hash=$(cat "${pf[@]}" | sha256sum | cut -c1-8)
debver=$VERSION+jit${#pf[@]}.$hash
arch=$(dpkg --print-architecture)
deb=$TOP/build/${PKGNAME}_${debver}_$arch.deb
if [ $pathonly = 1 ]; then
	echo "$deb"
	exit 0
fi
# The maintainer: DEBFULLNAME/DEBEMAIL as for dch, else the author of the
# checkout's last commit.
maint="${DEBFULLNAME:-} <${DEBEMAIL:-}>"
[[ -n ${DEBFULLNAME:-} && -n ${DEBEMAIL:-} ]] ||
	maint=$(git -C "$TOP" log -1 --format='%an <%ae>' 2>/dev/null) ||
	die "set DEBFULLNAME and DEBEMAIL (the package's maintainer)"
date=$(git -C "$TOP" log -1 --format=%ct -- "$PATCHES" 2>/dev/null || true)
[ -n "$date" ] || date=$(stat -c %Y "$PATCHES/series")
export SOURCE_DATE_EPOCH=$date

work=$VDIR/deb
root=$work/debian/$PKGNAME
rm -rf "$work"
mkdir -p "$work/debian"
umask 022
DESTDIR=$root PREFIX=/usr PERF_NAME=$PKGNAME "$TOP/scripts/install.sh" install
# dpkg keeps the list of files; the manifest is for make uninstall.
rm "$root/usr/share/$PKGNAME/install-manifest"
strip --remove-section=.comment --remove-section=.note "$root/usr/bin/$PKGNAME"
strip --remove-section=.comment --remove-section=.note --strip-unneeded \
	"$root/usr/lib/$PKGNAME/libperf-jvmti.so"

doc=$root/usr/share/doc/$PKGNAME
mkdir -p "$doc"
nseries=${#pf[@]}
cat >"$work/debian/changelog" <<-EOF
	$PKGNAME ($debver) UNRELEASED; urgency=medium

	  * perf $(cut -d- -f1 <<<"$VERSION") of Debian's $PKG $VERSION,
	    with the $nseries patches of ${PATCHES##*/}/series
	    (sha256 of their text: $hash...), built by make deb.

	 -- $maint  $(date -u -R -d "@$date")
	EOF
gzip -9n <"$work/debian/changelog" >"$doc/changelog.Debian.gz"
cat >"$doc/copyright" <<-EOF
	Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
	Upstream-Name: Linux kernel (tools/perf)
	Source: https://www.kernel.org/pub/linux/kernel/
	Comment:
	 Built from Debian's $PKG $VERSION with the perf inject --jit patch
	 series of ${PATCHES##*/}/ applied.

	Files: *
	Copyright: 1991-2026 Linus Torvalds and many others
	License: GPL-2

	License: GPL-2
	 This program is free software; you can redistribute it and/or modify
	 it under the terms of the GNU General Public License version 2 as
	 published by the Free Software Foundation.
	 .
	 On Debian systems, the complete text of the GNU General Public License
	 version 2 can be found in \`/usr/share/common-licenses/GPL-2'.
	EOF
chmod 0644 "$doc/copyright"

cat >"$work/debian/control" <<-EOF
	Source: $PKGNAME
	Section: devel
	Priority: optional
	Maintainer: $maint
	Rules-Requires-Root: no
	Standards-Version: 4.6.2

	Package: $PKGNAME
	Architecture: any
	Depends: \${shlibs:Depends}
	Description: perf with the perf inject --jit patch series, beside the distribution's perf
	 The Linux perf tool $(cut -d- -f1 <<<"$VERSION") of Debian's $PKG with the
	 perf inject --jit series applied: perf inject --jit trims the anonymous
	 mmaps that overlap injected JIT code instead of dropping every anonymous
	 mmap of a JIT process, and --jit-merged-elf writes the code of a jitdump
	 into few ELF files instead of one per function.
	 .
	 The command is perf-jit (the distribution's perf stays perf); the JVMTI
	 agent is /usr/lib/perf-jit/libperf-jvmti.so.
	EOF

cd "$work" || die "no $work"
mkdir -p "$root/DEBIAN"
dpkg-shlibdeps -Tdebian/$PKGNAME.substvars debian/$PKGNAME/usr/bin/$PKGNAME \
	debian/$PKGNAME/usr/lib/$PKGNAME/libperf-jvmti.so
dpkg-gencontrol -p$PKGNAME -P"$root" -Tdebian/$PKGNAME.substvars
(cd "$root" && find usr -type f -printf '%P\n' | LC_ALL=C sort |
	sed 's|^|usr/|' | xargs md5sum >DEBIAN/md5sums)
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
mkdir -p "$TOP/build"
# the packages of earlier series of this base go
find "$TOP/build" -maxdepth 1 -name "${PKGNAME}_$VERSION+jit*_$arch.deb" -delete
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
if [ $lint = 1 ]; then
	msg "lintian $deb"
	lintian --info --display-info --fail-on error,warning "$deb" >&2 ||
		die "lintian reports an error or a warning on $deb"
fi
echo "$deb"
