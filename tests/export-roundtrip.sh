#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make tree` then `make export` with no edit must reproduce the series of
# $BASE byte for byte.  Runs on a copy of the checkout so that the work
# trees are not touched.
. "$(dirname "$0")/../scripts/lib.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rsync -a --exclude='/tree*' --exclude=/build --exclude='/wt-*' "$TOP/" "$work/repo/"
cd "$work/repo"
scripts/tree.sh
scripts/export.sh
diff -r "$PATCHES" "$work/repo/${PATCHES#"$TOP"/}"
scripts/tree-status.sh
echo "round trip reproduces ${PATCHES#"$TOP"/}/ ($(wc -l <"$PATCHES/series") patches)"
