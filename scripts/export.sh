#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Write tree/'s commits (base..HEAD) back to patches/ with git format-patch
# and rewrite patches/series; the cover letter stays.  Idempotent:
# exporting an unchanged tree changes no byte (zero commit ids, no version
# signature).
. "$(dirname "$0")/lib.sh"

tree=$TREE
[ -d "$tree/.git" ] || die "no tree/: run 'make tree' first"
if [ -n "$(git -C "$tree" status --porcelain --untracked-files=no)" ]; then
	git -C "$tree" status --short --untracked-files=no >&2
	die "tree/ has uncommitted edits: commit them (git -C tree commit) first"
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
git -C "$tree" format-patch -q --zero-commit --no-signature --numbered \
	-o "$out" base..HEAD >/dev/null
# The cover letter (0000-cover-letter.patch) is written by hand: keep it.
find "$PATCHES" -maxdepth 1 -name '[0-9][0-9][0-9][0-9]-*.patch' \
	! -name 0000-cover-letter.patch -delete
: >"$PATCHES/series"
for p in "$out"/*.patch; do
	[ -e "$p" ] || break
	cp "$p" "$PATCHES/"
	basename "$p" >>"$PATCHES/series"
done
msg "exported $(wc -l <"$PATCHES/series") patches to ${PATCHES#$TOP/}/"
