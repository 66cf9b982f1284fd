#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Remove the cache of this package version: source, builds and downloads.
. "$(dirname "$0")/lib.sh"
rm -rf "$VDIR" "$CACHE/debs"
rm -f "$TOP/build/stock" "$TOP/build/patched"
msg "removed $VDIR"
