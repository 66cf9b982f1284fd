#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Lay out tree/: an editable git work tree of the perf source subset, one
# base commit for the pristine source and one commit per patch of
# patches/series (git am).  Refuses to overwrite a tree holding work that
# patches/ does not have.
. "$(dirname "$0")/lib.sh"

tree=$TREE
"$TOP/scripts/fetch-source.sh" >/dev/null

if [ -d "$tree/.git" ]; then
	if ! "$TOP/scripts/tree-status.sh" >/dev/null 2>&1; then
		"$TOP/scripts/tree-status.sh" >&2 || true
		die "tree/ holds work that patches/ does not: run 'make export' (or remove tree/)"
	fi
	rm -rf "$tree"
fi

base_repo "$tree" series
cd "$tree"
n=0
while read -r p; do
	git am -q --committer-date-is-author-date "$p" ||
		die "git am $(basename "$p") failed; see tree/ (git am --abort)"
	n=$((n + 1))
done < <(series_files)
msg "tree/: base + $n patches on branch 'series'; edit, commit, then 'make export'"
