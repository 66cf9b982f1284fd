#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: qemu-user.sh
#
# QEMU's user-mode emulator for x86-64 (qemu-x86_64), whose -jitdump writes
# a code load for each block of guest code it translates: a real runtime
# that writes a million code loads in seconds (e2e's qemu-1m client).
# Debian's qemu-user is linked statically, so the binary of trixie-backports
# (the private apt configuration) runs here as it is: it is downloaded and
# unpacked into $CACHE/qemu-user-VERSION once, not installed.  Prints the
# emulator's path.
. "$(dirname "$0")/lib.sh"

[ $# -eq 0 ] || { echo "usage: $0" >&2; exit 2; }

papt_update
# trixie-backports': bookworm's qemu-user (7.2) has no -jitdump.
ver=$(papt apt-cache madison qemu-user 2>/dev/null |
	awk -F' *[|] *' '$3 ~ /trixie-backports/ && !n++ { print $2 }')
[ -n "$ver" ] || die "apt knows no qemu-user of trixie-backports ($APTDIR/sources.list)"
dir=$CACHE/qemu-user-${ver//:/_}
qemu=$dir/qemu-x86_64
if [ ! -x "$qemu" ]; then
	msg "apt-get download qemu-user=$ver (unpacked into $dir, not installed)"
	# apt's sandbox user cannot write into root's home: download elsewhere.
	tmpd=$(mktemp -d)
	trap 'rm -rf "$tmpd"' EXIT
	chmod 755 "$tmpd"
	(cd "$tmpd" && papt apt-get download -q "qemu-user=$ver") >"$tmpd/log" 2>&1 ||
		{ cat "$tmpd/log" >&2; die "apt-get download qemu-user=$ver failed"; }
	dpkg-deb -x "$tmpd"/qemu-user_*.deb "$tmpd/x"
	mkdir -p "$dir"
	cp "$tmpd/x/usr/bin/qemu-x86_64" "$qemu.new"
	mv "$qemu.new" "$qemu"
fi
"$qemu" -h 2>/dev/null | grep -q -- '-jitdump' ||
	die "$qemu has no -jitdump"
echo "$qemu"
