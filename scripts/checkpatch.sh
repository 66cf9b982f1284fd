#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: checkpatch.sh [PATCH...]
# Run scripts/checkpatch.pl --strict, from the same kernel source, over
# every patch of the series (or over the PATCH files given: submissions.sh
# checks its generated submissions with the same rules).  Fails on any
# error, warning or check.
#
# One message is answered here rather than silenced blindly: checkpatch
# asks "added, moved or deleted file(s), does MAINTAINERS need updating?"
# for every new file.  We check that MAINTAINERS already covers each new
# file (tools/perf/ belongs to PERFORMANCE EVENTS SUBSYSTEM) and only then
# pass --ignore FILE_PATH_CHANGES.
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/fetch-source.sh" >/dev/null
patches=()
if [ $# -gt 0 ]; then
	for p in "$@"; do	# absolute: checkpatch runs in a scratch cwd
		[ -f "$p" ] || die "no such patch: $p"
		patches+=("$(realpath "$p")")
	done
else
	mapfile -t patches < <(series_files)
fi
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
# A second known conflict: perf test reads a shell test's description from
# line 2 (tests/tests-scripts.c), where checkpatch wants the SPDX tag of a
# script.  Every perf shell test has its SPDX tag on line 3.  Accept
# SPDX_LICENSE_TAG for tools/perf/tests/shell/*.sh only, and only when the
# patch is otherwise clean.
# A fourth: without the kernel's git history (the harness has Debian's
# source package only) checkpatch cannot look up the id of a Fixes: tag or
# of a commit named in the message (commit <12 hex> ("subject"), which is
# how a message refers to another commit, perf-tools-next's among them)
# and calls every one UNKNOWN_COMMIT_ID; accept that on those lines only.
#
# A third: perf's JIT workload (tests/workloads/jitdump.c) is machine code
# for each architecture under #if defined(__x86_64__) etc., which
# checkpatch flags as ARCH_DEFINES; accept those in that file only.
#
# A fourth: checkpatch calls the types of libelf and libdw (Elf_Scn,
# GElf_Sym, Dwfl_Module, Dwarf_Addr) and inttypes.h's PRIu64 CamelCase
# when it cannot see their headers; perf uses them everywhere.  Accept CAMELCASE for those names only.
#
# answered OUT PATCH: the patch is clean but for these answered types.
answered() {
	local out=$1 t
	grep -q 'SPDX_LICENSE_TAG\|ARCH_DEFINES\|UNKNOWN_COMMIT_ID\|CAMELCASE' "$out" || return 1
	perl "$PRISTINE/scripts/checkpatch.pl" --strict --quiet --no-summary \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,ARCH_DEFINES,UNKNOWN_COMMIT_ID,CAMELCASE \
		"$2" >/dev/null 2>&1 || return 1
	grep ':CAMELCASE:' "$out" | grep -Ev '<(G?Elf((32|64)?_[A-Za-z]+)?|Dw(fl|arf)(_[A-Za-z]+)?|PRI[diux](8|16|32|64))>$' |
		grep -q . && return 1
	for t in SPDX_LICENSE_TAG ARCH_DEFINES; do
		grep -A2 ":$t:" "$out" | grep 'FILE:' | case $t in
		SPDX*) grep -qv 'FILE: tools/perf/tests/shell/[^/]*\.sh:[23]:' ;;
		ARCH*) grep -qv 'FILE: tools/perf/tests/workloads/jitdump\.c:' ;;
		esac && return 1
	done
	! grep -A2 ':UNKNOWN_COMMIT_ID:' "$out" | grep -E '^(Fixes|[^#W-].*commit)' |
		grep -Ev '^Fixes: [0-9a-f]{12} \("|\<commit [0-9a-f]{12}( \("|$)' | grep -q .
}

for p in "${patches[@]}"; do
	if perl "$PRISTINE/scripts/checkpatch.pl" --strict --quiet --no-summary \
		--ignore FILE_PATH_CHANGES --show-types "$p" >"$work/out" 2>&1; then
		echo "checkpatch: $(basename "$p"): clean"
	elif answered "$work/out" "$p"; then
		echo "checkpatch: $(basename "$p"): clean but for $(grep -o 'SPDX_LICENSE_TAG\|ARCH_DEFINES\|UNKNOWN_COMMIT_ID\|CAMELCASE' "$work/out" |
			sort -u | sed 's/SPDX_LICENSE_TAG/the SPDX line of a perf shell test (line 3, as perf test wants)/; s/ARCH_DEFINES/the #if defined(__arch__) of the JIT workload/' |
			sed 's/UNKNOWN_COMMIT_ID/commit ids it cannot look up without the kernel'"'"'s git history/' |
			sed 's/CAMELCASE/the names of libelf, libdw and inttypes.h/' |
			paste -sd, -)"
	else
		echo "checkpatch: $(basename "$p"):"
		cat "$work/out"
		fail=1
	fi
done
exit $fail
