#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: prepare-src.sh stock|patched|nofix|upto-K
# Lay out $CACHE/VERSION/src-FLAVOR: the pristine subset, plus the series
# from patches/ for "patched", the series without the inject fix for
# "nofix" (to show the tests fail without it).  Only files whose content
# changed are
# rewritten, so make rebuilds incrementally.  Prints the directory.
. "$(dirname "$0")/lib.sh"

flavor=${1:-}
case "$flavor" in
stock|patched|nofix|upto-[0-9]*) ;;
*) echo "usage: $0 stock|patched|nofix|upto-K" >&2; exit 2 ;;
esac

"$TOP/scripts/fetch-source.sh" >/dev/null
src=$VDIR/src-${flavor%%-[0-9]*}
stage=$(mktemp -d "$VDIR/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp -a "$PRISTINE/." "$stage/"
if [ "$flavor" != stock ]; then
	while read -r p; do
		git -C "$stage" apply --whitespace=error-all -p1 "$p" ||
			die "$(basename "$p") does not apply; rerun: make tree"
	done < <(FLAVOR=$flavor series_files)
fi
mkdir -p "$src"
# -c: compare by content, keep the mtimes of unchanged files.
rsync -rlc --delete --exclude=/.complete "$stage/" "$src/"
echo "$src"
