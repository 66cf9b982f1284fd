#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run scripts/checkpatch.pl --strict, from the same kernel source, over
# every patch of the series.  Fails on any error, warning or check.
#
# One message is answered here rather than silenced blindly: checkpatch
# asks "added, moved or deleted file(s), does MAINTAINERS need updating?"
# for every new file.  We check that MAINTAINERS already covers each new
# file (tools/perf/ belongs to PERFORMANCE EVENTS SUBSYSTEM) and only then
# pass --ignore FILE_PATH_CHANGES.
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/fetch-source.sh" >/dev/null
mapfile -t patches < <(series_files)
if [ ${#patches[@]} -eq 0 ]; then
	echo "checkpatch: the series is empty"
	exit 0
fi

# Every added file must fall under an F: pattern of a MAINTAINERS entry.
fail=0
while read -r f; do
	covered=0
	while read -r pat; do
		case "$f" in "$pat"*) covered=1; break ;; esac
	done < <(awk '/^F:/ { print $2 }' "$PRISTINE/MAINTAINERS" | grep '/$')
	if [ $covered -eq 0 ]; then
		echo "checkpatch: new file $f is not covered by MAINTAINERS" >&2
		fail=1
	fi
done < <(cat "${patches[@]}" | awk '/^diff --git/ { f = substr($4, 3) } /^new file mode/ { print f }')

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"	# checkpatch leaves its CamelCase cache in the cwd
for p in "${patches[@]}"; do
	if perl "$PRISTINE/scripts/checkpatch.pl" --strict --quiet --no-summary \
		--ignore FILE_PATH_CHANGES --show-types "$p" >"$work/out" 2>&1; then
		echo "checkpatch: $(basename "$p"): clean"
	else
		echo "checkpatch: $(basename "$p"):"
		cat "$work/out"
		fail=1
	fi
done
exit $fail
