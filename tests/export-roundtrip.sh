#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# `make tree` then `make export` with no edit must reproduce patches/
# byte for byte.  Runs on a copy of the checkout so tree/ is not touched.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rsync -a --exclude=/tree --exclude=/build "$top/" "$work/repo/"
cd "$work/repo"
scripts/tree.sh
scripts/export.sh
diff -r "$top/patches" "$work/repo/patches"
scripts/tree-status.sh
echo "round trip reproduces patches/ ($(wc -l <patches/series) patches)"
