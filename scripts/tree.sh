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

mkdir -p "$tree"
rsync -a --exclude=/.complete "$PRISTINE/" "$tree/"
cd "$tree"
git init -q -b series
cat >.gitignore <<'IGN'
# build outputs when building in place (prefer O=)
*.o
*.cmd
.checkpatch-camelcase.*
IGN
git add -A
# A fixed identity and date: the base commit is the same for everyone.
GIT_AUTHOR_NAME="Debian $PKG" GIT_AUTHOR_EMAIL=nobody@debian.org \
GIT_COMMITTER_NAME="Debian $PKG" GIT_COMMITTER_EMAIL=nobody@debian.org \
GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
	git commit -q -m "perf source subset of Debian $PKG $VERSION"
git tag -f base >/dev/null
n=0
while read -r p; do
	git am -q --committer-date-is-author-date "$p" ||
		die "git am $(basename "$p") failed; see tree/ (git am --abort)"
	n=$((n + 1))
done < <(series_files)
msg "tree/: base + $n patches on branch 'series'; edit, commit, then 'make export'"
