#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Exit 0 when tree/ (tree-6.12/) holds exactly the code of the series (by
# git patch-id: messages, dates and offsets aside) and no uncommitted edit.
. "$(dirname "$0")/lib.sh"

tree=$TREE
[ -d "$tree/.git" ] || { echo "no ${TREE#"$TOP"/}/"; exit 0; }
dirty=$(git -C "$tree" status --porcelain --untracked-files=no)
if [ -n "$dirty" ]; then
	echo "uncommitted edits in ${TREE#"$TOP"/}/:"
	echo "$dirty"
	exit 1
fi
ids_tree=$(git -C "$tree" rev-list --reverse base..HEAD | while read -r c; do
	git -C "$tree" show "$c" | git patch-id --stable | cut -d' ' -f1
done)
ids_series=$(series_files | while read -r p; do
	git patch-id --stable <"$p" | cut -d' ' -f1
done)
if [ "$ids_tree" != "$ids_series" ]; then
	echo "${TREE#"$TOP"/}/ commits differ from ${PATCHES#"$TOP"/}/"
	exit 1
fi
echo "${TREE#"$TOP"/}/ matches ${PATCHES#"$TOP"/}/"
