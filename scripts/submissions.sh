#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Cut the mailable submissions out of the 7.3 series and check each one as
# a maintainer would receive it.
#
# submissions/NAME/patches names, in mailing order, patches of
# patches/series by file name without the NNNN- prefix; `requires: OTHER`
# lines name the submissions that go in first; `requires: distribution-only`
# says that it is mailed against upstream's fixes that the stack carries as
# distribution-only stand-ins (perf-tools-next has them, v7.3.4 has not), so
# they go in first too, where the stack has them.  submissions/NAME/
# cover-letter is the cover letter's subject (line 1), a blank line and its
# body.  submissions/NAME/tests (optional) names perf tests that must pass
# on the submission; `nofix: TEST` ones must fail with tests/nofix/7.3.patch
# on top.  submissions/distribution-only names the stack's patches that are
# not mailed because upstream has their fix: each one's message must say
# which commit in an "Upstream: " line.
#
# 1. Every patch of patches/series is in exactly one list.
# 2. For each submission, in dependency order, in a scratch repository in
#    the cache (the pristine source as the base commit, as in tree.sh): the
#    required submissions' generated patches (git am; where upstream's
#    fixes go in too, they and the required submissions as the stack's
#    commits, in its order), then the submission's own commits
#    cherry-picked from the whole stack applied once; git format-patch --cover-letter into $VDIR/submissions/NAME/
#    (build/submissions/NAME/), the cover letter filled in from the file,
#    its shortlog and diffstat generated.
# 3. The generated files as a maintainer gets them: git am (no -3) on the
#    base and the required submissions; checkpatch.sh on them; every commit
#    built with -Werror, the tip also with NO_LIBELF=1 and NO_LIBDW=1 (with
#    SUBMISSIONS_QUICK=1, as make check runs it: the tip only, -Werror); the
#    tests on the tip, the nofix ones with the nofix patch.
# 4. One line per submission; exits non-zero on any failure, naming the
#    submission, the check and its log ($VDIR/submissions-logs/).
#
# One build work tree and one O= directory per configuration serve every
# submission and every run: switching commits rewrites only the files that
# differ (git read-tree -u with an index of its own), so builds are
# incremental.  The work tree has no .git: perf's PERF-VERSION-GEN would
# then name the version after the commit (and rebuild for each).
#
# SUBMISSIONS_DIR overrides submissions/ (to try a reshaped split).
. "$(dirname "$0")/lib.sh"

[ "$BASE" = 7.3 ] || die "the submissions are cut from the 7.3 series (BASE=7.3)"
SUBS=$(realpath "${SUBMISSIONS_DIR:-$TOP/submissions}")
[ -d "$SUBS" ] || die "no submissions directory $SUBS"
OUT=$VDIR/submissions
LOGS=$VDIR/submissions-logs
REPO=$VDIR/submissions-git	# am, cherry-pick, format-patch happen here
SRC=$VDIR/submissions-src	# the build work tree, REPO's commits without .git
OBJ=$BUILDS/submission		# O= of the default, no-libelf, no-libdw builds

"$TOP/scripts/fetch-source.sh" >/dev/null
# One run at a time: they share the repository, work tree and builds.
exec 9>"$VDIR/submissions.lock"
if ! flock -n 9; then
	msg "another run of submissions.sh holds $VDIR/submissions.lock: waiting"
	flock 9
fi
kv=$(sed -n 's/^#define PERF_VERSION "\(.*\)"$/\1/p' "$PRISTINE/PERF-VERSION-FILE")
[ -n "$kv" ] || die "no PERF_VERSION in $PRISTINE/PERF-VERSION-FILE"
rm -rf "$LOGS"
mkdir -p "$LOGS"

# The commits made here: a fixed committer, so that unchanged input gives
# unchanged commit ids; the authors are the patches'.
export GIT_COMMITTER_NAME="perf-jit-overlap harness" GIT_COMMITTER_EMAIL=nobody@localhost
export GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
git_() { git -C "$REPO" "$@"; }
# src_git: git on the build work tree (its own index, REPO's objects).
src_git() {
	GIT_DIR=$REPO/.git GIT_WORK_TREE=$SRC GIT_INDEX_FILE=$SRC.index git "$@"
}
# checkout_src COMMIT: make the build work tree hold COMMIT, rewriting only
# the files that differ (and undoing any edit, such as the nofix patch).
checkout_src() {
	src_git read-tree --reset -u "$1"
	src_git diff --quiet "$1" -- || die "$SRC does not hold $1 after git read-tree"
}

failures=()
declare -A failed=()
# fail NAME CHECK LOG DETAIL...: record and print a failed check.
fail() {
	local name=$1 check=$2 log=$3
	shift 3
	failed[$name]=1
	failures+=("FAIL $name: $check: $*${log:+ (log: $log)}")
	echo "FAIL $name: $check: $*${log:+ (log: $log)}"
}

# list_lines FILE: a list's lines without comments, blank lines and the
# whitespace around them.
list_lines() {
	sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$1" | grep -v '^#\|^$' || true
}
slug() { basename "$1" | sed 's/^[0-9]\{4\}-//'; }

# --- 1. the lists -----------------------------------------------------

mapfile -t stack < <(series_files)
declare -A stack_idx=()		# slug -> index in the series
for i in "${!stack[@]}"; do
	stack_idx[$(slug "${stack[i]}")]=$i
done

names=()
for d in "$SUBS"/*/; do
	d=${d%/}
	[ -f "$d/patches" ] && names+=("$(basename "$d")")
done
[ ${#names[@]} -gt 0 ] || die "no submissions/*/patches in $SUBS"

declare -A owner=() entries=() reqs=() subject=() badlist=() listed=() upstream=()
dist_only=() upstream_ids=()
# claim LIST SLUG: LIST names SLUG; it must exist and be in no other list.
claim() {
	if [ -z "${stack_idx[$2]+x}" ]; then
		fail "$1" lists "" "names $2, which is not in patches/series"
	elif [ -n "${owner[$2]:-}" ]; then
		fail "$1" lists "" "names $2, which ${owner[$2]} names too"
	else
		owner[$2]=$1
		return 0
	fi
	badlist[$1]=1
	return 1
}
for n in "${names[@]}"; do
	entries[$n]="" reqs[$n]="" listed[$n]=0
	while read -r l; do
		case "$l" in
		requires:*)
			r=${l#requires:}
			r=${r#"${r%%[![:space:]]*}"}
			if [ "$r" = distribution-only ] && [ -f "$SUBS/$r" ]; then
				upstream[$n]=1
			elif [ -f "$SUBS/$r/patches" ]; then
				reqs[$n]+="$r "
			else
				fail "$n" lists "" "requires $r, which is no submission"
				badlist[$n]=1
			fi ;;
		*)	listed[$n]=$((listed[$n] + 1))
			claim "$n" "$l" && entries[$n]+="$l " ;;
		esac
	done < <(list_lines "$SUBS/$n/patches")
	if [ "${listed[$n]}" = 0 ]; then
		fail "$n" lists "" "names no patch"
		badlist[$n]=1
	fi
	cl=$SUBS/$n/cover-letter
	if [ ! -f "$cl" ]; then
		fail "$n" "cover letter" "" "no $cl (line 1 the subject, line 2 blank, then the body)"
	elif [ -z "$(sed -n 1p "$cl")" ] || [ -n "$(sed -n 2p "$cl")" ] ||
	     [ -z "$(sed -n '3,$p' "$cl" | tr -d '[:space:]')" ]; then
		fail "$n" "cover letter" "" "$cl: line 1 the subject, line 2 blank, then the body"
	elif grep -q '\*\*\* [A-Z]* HERE \*\*\*' "$cl"; then
		fail "$n" "cover letter" "" "$cl is still the placeholder"
	fi
	subject[$n]=$(sed -n 1p "$cl" 2>/dev/null || true)
done
if [ -f "$SUBS/distribution-only" ]; then
	noup=()
	while read -r l; do
		claim distribution-only "$l" || continue
		dist_only+=("$l")
		# The message (before the diffstat's '---') has an Upstream: line,
		# and the commit's id is on it or in a Link: to the commit.
		m=$(sed '/^---$/q' "${stack[${stack_idx[$l]}]}")
		grep -q '^Upstream: ' <<<"$m" &&
			grep -qE '^Upstream: .*\<[0-9a-f]{12,40}\>|^Link: .*/commit/\?id=[0-9a-f]{12,40}' <<<"$m" ||
			noup+=("$l")
		id=$(sed -n 's/^Upstream: commit \([0-9a-f]\{12\}\).*/\1/p' <<<"$m")
		[ -z "$id" ] || [[ " ${upstream_ids[*]} " == *" $id "* ]] || upstream_ids+=("$id")
	done < <(list_lines "$SUBS/distribution-only")
	[ ${#noup[@]} -eq 0 ] ||
		fail distribution-only "Upstream: lines" "" "${#noup[@]} patches name no upstream commit" \
			"(an 'Upstream: ' line, the commit's id on it or in a Link: .../commit/?id=): ${noup[*]}"
fi
for s in "${!stack_idx[@]}"; do
	[ -n "${owner[$s]:-}" ] && continue
	fail lists lists "" "$s (patches/series) is in no list: submissions/*/patches or submissions/distribution-only"
done

# Dependency order (depth first; a cycle is an error).
order=()
declare -A mark=()
visit() {
	local n=$1 r
	[ "${mark[$n]:-}" = visited ] && return 0
	if [ "${mark[$n]:-}" = active ]; then
		fail "$n" lists "" "its requires: lines form a cycle"
		badlist[$n]=1
		return 1
	fi
	mark[$n]=active
	for r in ${reqs[$n]}; do
		if ! visit "$r"; then
			mark[$n]=visited badlist[$n]=1	# left out of the order
			return 1
		fi
	done
	mark[$n]=visited
	order+=("$n")
}
for n in "${names[@]}"; do
	visit "$n" || true
done
# closure NAME: the submissions NAME needs, transitively, in order.
closure() {
	local n=$1 o r more
	local -A need=()
	local todo
	read -ra todo <<<"${reqs[$n]}"
	while [ ${#todo[@]} -gt 0 ]; do
		r=${todo[0]}
		todo=("${todo[@]:1}")
		[ -n "${need[$r]:-}" ] && continue
		need[$r]=1
		read -ra more <<<"${reqs[$r]}"
		todo+=("${more[@]}")
	done
	for o in "${order[@]}"; do
		[ -n "${need[$o]:-}" ] && echo "$o"
	done
	return 0
}

# --- 2. the scratch repository, the stack ----------------------------------

stamp="$(cat "$PRISTINE/.debian-package") $(stat -c %Y "$PRISTINE/.complete")"
if [ "$(cat "$REPO/.git/pristine-stamp" 2>/dev/null)" != "$stamp" ]; then
	msg "laying out $REPO (the pristine source as the base commit)"
	rm -rf "$REPO" "$SRC" "$SRC.index"
	base_repo "$REPO" stack
	echo "$stamp" >"$REPO/.git/pristine-stamp"
fi
# Whatever an interrupted run left behind.
git_ am --abort >/dev/null 2>&1 || true
git_ cherry-pick --abort >/dev/null 2>&1 || true
if [ ! -f "$SRC.index" ] || [ ! -d "$SRC" ]; then
	rm -rf "$SRC" "$SRC.index"
	mkdir -p "$SRC"
fi

git_ checkout -q -f -B stack base
if ! git_ am -q --committer-date-is-author-date "${stack[@]}" >"$LOGS/stack.am.log" 2>&1; then
	git_ am --abort >/dev/null 2>&1 || true
	die "the stack (patches/series) does not git am on the base (log: $LOGS/stack.am.log)"
fi
mapfile -t stack_commits < <(git_ rev-list --reverse base..stack)
[ ${#stack_commits[@]} -eq ${#stack[@]} ] ||
	die "git am made ${#stack_commits[@]} commits of ${#stack[@]} patches"
# A patch's commit is the one of its subject (am keeps the series order).
for i in "${!stack[@]}"; do
	want=$(git mailinfo /dev/null /dev/null <"${stack[i]}" | sed -n 's/^Subject: //p')
	got=$(git_ log -1 --format=%s "${stack_commits[i]}")
	[ "$want" = "$got" ] || die "stack commit $((i + 1)) is '$got', not '$want'"
done

# generated NAME: the generated patches of submission NAME, in order,
# without the cover letter.
generated() {
	local f
	for f in "$OUT/$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		[ "${f##*/}" = 0000-cover-letter.patch ] || echo "$f"
	done
}

# am_generated LOG NAME...: git am (no -3) the generated patches of the
# submissions NAME..., cover letters aside, onto the current branch.
am_generated() {
	local log=$1 r files=()
	shift
	for r in "$@"; do
		mapfile -t -O ${#files[@]} files < <(generated "$r")
	done
	[ ${#files[@]} -eq 0 ] && return 0
	if ! git_ am -q "${files[@]}" >>"$log" 2>&1; then
		git_ am --abort >/dev/null 2>&1 || true
		return 1
	fi
}

# requirements NAME: what goes in before submission NAME, in the order of
# the stack: the submissions it requires and, if it or one of them requires
# distribution-only, the word distribution-only (upstream's fixes).
requirements() {
	local n=$1 r s up=${upstream[$1]:-} items=()
	mapfile -t items < <(closure "$n")
	for r in "${items[@]}"; do
		[ -z "${upstream[$r]:-}" ] || up=1
	done
	[ -z "$up" ] || [ ${#dist_only[@]} -eq 0 ] || items+=(distribution-only)
	for r in "${items[@]}"; do
		if [ "$r" = distribution-only ]; then
			s=${dist_only[0]}
		else
			read -r s _ <<<"${entries[$r]}"
		fi
		echo "${stack_idx[$s]} $r"
	done | sort -n | cut -d' ' -f2
}

# apply_requirements LOG NAME: onto the current branch, what goes in before
# NAME: the required submissions' generated patches (git am, no -3); with
# upstream's fixes among them, the stack's commits of each instead, in the
# stack's order (the generated ones apply to v7.3.4, not to upstream's
# fixes).
apply_requirements() {
	local log=$1 r s list slugs
	mapfile -t list < <(requirements "$2")
	if [[ " ${list[*]} " != *" distribution-only "* ]]; then
		am_generated "$log" "${list[@]}"
		return
	fi
	for r in "${list[@]}"; do
		if [ "$r" = distribution-only ]; then
			slugs=("${dist_only[@]}")
		else
			read -ra slugs <<<"${entries[$r]}"
		fi
		for s in "${slugs[@]}"; do
			if ! git_ cherry-pick "${stack_commits[${stack_idx[$s]}]}" >>"$log" 2>&1; then
				git_ cherry-pick --abort >/dev/null 2>&1 || git_ reset -q --hard
				return 1
			fi
		done
	done
}

# applies_to NAME: the line that says what the submission applies to.
applies_to() {
	local r s
	mapfile -t r < <(requirements "$1" |
		sed "s/^distribution-only\$/the jitdump fixes of perf-tools-next (${upstream_ids[*]})/")
	if [ ${#r[@]} -eq 0 ]; then
		echo "Applies to v$kv."
		return
	fi
	s=$(printf '%s\n' "${r[@]}" | sed '$!s/$/,/' | paste -sd' ' | sed 's/,\([^,]*\)$/ and\1/')
	echo "Applies to v$kv with $s applied first."
}

# fill_cover FILE NAME: the cover letter's subject and blurb from
# submissions/NAME/cover-letter, then what the submission applies to.
fill_cover() {
	local f=$1 n=$2 tmp
	tmp=$(mktemp)
	sed -n '3,$p' "$SUBS/$n/cover-letter" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$tmp"
	awk -v subj="${subject[$n]}" -v body="$tmp" -v applies="$(applies_to "$n")" '
	!done_s && (i = index($0, "*** SUBJECT HERE ***")) {
		$0 = substr($0, 1, i - 1) subj substr($0, i + 20); done_s = 1
	}
	!done_b && $0 == "*** BLURB HERE ***" {
		while ((getline l < body) > 0) print l
		print ""; print applies; done_b = 1; next
	}
	{ print }
	END { if (!done_s || !done_b) exit 1 }' "$f" >"$f.new"
	local rc=$?
	rm -f "$tmp"
	[ $rc -eq 0 ] && mv "$f.new" "$f"
}

# --- 3. per submission --------------------------------------------------

rm -rf "$OUT"
mkdir -p "$OUT" "$TOP/build"
ln -sfn "$OUT" "$TOP/build/submissions"
summary=()

# build NAME WHAT LOG DIR [FLAGS...]: build the work tree's checkout.
build() {
	local n=$1 what=$2 log=$3 dir=$4
	shift 4
	perf_make "$SRC" "$dir" "$log" "$@" && return 0
	if grep -q 'warning:' "$log"; then
		fail "$n" "$what" "$log" "warnings: $(grep -m1 'warning:' "$log")"
	else
		fail "$n" "$what" "$log" "build failed: $(grep -m1 'error' "$log" || tail -1 "$log")"
	fi
	return 1
}

# report: the submission's line in the summary.
report() {
	local line
	line=$(printf '%-20s %2s patch%-2s  %-38s %-22s' "$n" "$npatch" \
		"$([ "$npatch" = 1 ] || echo es)" "$applies" "$shortstat")
	if [ -n "${failed[$n]:-}" ]; then
		line+="  FAILED${checks[*]:+; passed: $(printf '%s, ' "${checks[@]}" | sed 's/, $//')}"
	else
		line+="  ok: $(printf '%s, ' "${checks[@]}" | sed 's/, $//')"
	fi
	summary+=("$line")
}
tlog() { echo "$L.$1-$(tr -c 'A-Za-z0-9_.\n-' '_' <<<"$2").log"; }

for n in "${order[@]}"; do
	L=$LOGS/$n
	mapfile -t need < <(closure "$n")
	npatch=${listed[$n]} shortstat=- checks=()
	applies="applies to v$kv $(requirements "$n" | sed -e 's/^distribution-only$/upstream-fixes/' -e 's/^/+ /' | paste -sd' ')"
	applies=${applies% }
	if [ -n "${badlist[$n]:-}" ]; then
		report	# its list is wrong: nothing to cut
		continue
	fi
	bad=
	for r in "${need[@]}"; do
		[ -d "$OUT/$r" ] || bad+="$r "
	done
	if [ -n "$bad" ]; then
		fail "$n" requires "" "needs ${bad% }, which could not be generated"
		report
		continue
	fi
	msg "submission $n"

	# 2. The submission's branch: base, requirements, its cherry-picks.
	git_ checkout -q -f -B "sub/$n" base
	if ! apply_requirements "$L.requires.am.log" "$n"; then
		fail "$n" "applying the required submissions" "$L.requires.am.log" "$(requirements "$n" | paste -sd' ')"
		report
		continue
	fi
	from=$(git_ rev-parse HEAD)
	ok=1
	for s in ${entries[$n]}; do
		c=${stack_commits[${stack_idx[$s]}]}
		if ! git_ cherry-pick "$c" >>"$L.cherry-pick.log" 2>&1; then
			why=$(git_ diff --name-only --diff-filter=U | sort -u | paste -sd' ')
			why=${why:+conflicts in $why}
			git_ cherry-pick --abort >/dev/null 2>&1 || git_ reset -q --hard
			fail "$n" cherry-pick "$L.cherry-pick.log" \
				"$s: ${why:-$(tail -1 "$L.cherry-pick.log")}"
			ok=0
			break
		fi
	done
	if [ $ok = 0 ]; then
		report
		continue
	fi
	checks+=(cherry-pick)

	# The mailable files, the cover letter from the submission's first
	# author (git puts the committer in its From:).
	IFS=$'\t' read -r an ae < <(git_ log -1 --format=$'%an\t%ae' "$(git_ rev-list --reverse "$from..HEAD" | head -1)")
	GIT_COMMITTER_NAME=$an GIT_COMMITTER_EMAIL=$ae env -u GIT_COMMITTER_DATE \
		git -C "$REPO" format-patch -q --cover-letter --zero-commit --no-signature --numbered \
		-o "$OUT/$n" "$from..HEAD"
	[ ! -f "$SUBS/$n/cover-letter" ] ||	# failed above
		fill_cover "$OUT/$n/0000-cover-letter.patch" "$n" ||
		fail "$n" "cover letter" "" "no *** SUBJECT HERE *** / *** BLURB HERE *** in git's cover letter"
	mapfile -t own < <(generated "$n")
	shortstat=$(git_ diff --shortstat "$from" HEAD |
		sed -E 's/ *([0-9]+) (files?) changed/\1 \2/; s/, ([0-9]+) insertions?\(\+\)/ +\1/; s/, ([0-9]+) deletions?\(-\)/ -\1/')

	# 3. As the maintainer gets it: git am of exactly the generated files.
	git_ checkout -q -f -B "verify/$n" base
	if ! apply_requirements "$L.am.log" "$n" || ! am_generated "$L.am.log" "$n"; then
		fail "$n" "git am of the generated files" "$L.am.log" "$(grep -m1 -i 'patch failed\|error' "$L.am.log" || tail -1 "$L.am.log")"
		report
		continue
	fi
	if ! git_ diff --quiet "sub/$n" "verify/$n"; then
		fail "$n" "git am of the generated files" "" "does not give the tree of the cherry-picks"
		report
		continue
	fi
	checks+=("git am")
	if "$TOP/scripts/checkpatch.sh" "${own[@]}" >"$L.checkpatch.log" 2>&1; then
		checks+=(checkpatch)
	else
		fail "$n" "checkpatch --strict" "$L.checkpatch.log" \
			"$(grep -c '^checkpatch: .*:$' "$L.checkpatch.log") of ${#own[@]} patches"
	fi

	# Every commit builds (bisectable); the tip in each configuration.
	# SUBMISSIONS_QUICK=1 (make check, which builds every prefix of the
	# stack and the stack with NO_LIBELF=1 and NO_LIBDW=1): the tip only.
	mapfile -t commits < <(git_ rev-list --reverse "$from..verify/$n")
	first=0
	[ -z "${SUBMISSIONS_QUICK:-}" ] || first=$((${#commits[@]} - 1))
	built=0
	for k in "${!commits[@]}"; do
		[ "$k" -ge $first ] || continue
		checkout_src "${commits[k]}"
		build "$n" "build of patch $((k + 1))/${#commits[@]}" "$L.build-$((k + 1)).log" "$OBJ" ||
			break
		built=$((built + 1))
	done
	if [ $built -lt $((${#commits[@]} - first)) ]; then
		report
		continue
	fi
	if [ -n "${SUBMISSIONS_QUICK:-}" ]; then
		checks+=("tip of ${#commits[@]} builds -Werror")
	else
		checks+=("$built/$built build -Werror")
	fi
	for v in no-libelf no-libdw; do
		[ -z "${SUBMISSIONS_QUICK:-}" ] || break
		flag=$(tr 'a-z-' 'A-Z_' <<<"$v")=1
		build "$n" "$flag build of the tip" "$L.$v.log" "$OBJ-$v" "$flag" &&
			checks+=("$v")
	done

	# The tests on the tip; the nofix ones with the nofix patch on top.
	fixed=() nofix=()
	if [ -f "$SUBS/$n/tests" ]; then
		while read -r t; do
			case "$t" in
			nofix:*) t=${t#nofix:}; nofix+=("${t#"${t%%[![:space:]]*}"}") ;;
			*) fixed+=("$t") ;;
			esac
		done < <(list_lines "$SUBS/$n/tests")
	fi
	passed=0
	for t in "${fixed[@]}"; do
		log=$(tlog test "$t")
		rc=0
		perf_test "$OBJ" "$t" >"$log" 2>&1 || rc=$?
		case $rc in
		0) passed=$((passed + 1)) ;;
		2) fail "$n" "perf test '$t'" "$log" "skipped: $(grep -v '^$' "$log" | tail -1)" ;;
		*) fail "$n" "perf test '$t'" "$log" "failed" ;;
		esac
	done
	[ ${#fixed[@]} -gt 0 ] && [ $passed -eq ${#fixed[@]} ] && checks+=("$passed/$passed tests pass")
	if [ ${#nofix[@]} -gt 0 ]; then
		if ! (cd "$SRC" && src_git apply "$NOFIX_PATCH") >"$L.nofix.log" 2>&1; then
			fail "$n" "nofix" "$L.nofix.log" "${NOFIX_PATCH#"$TOP"/} does not apply to the tip"
		elif build "$n" "build with ${NOFIX_PATCH#"$TOP"/}" "$L.nofix.log" "$OBJ"; then
			caught=0
			for t in "${nofix[@]}"; do
				log=$(tlog nofix "$t")
				rc=0
				perf_test "$OBJ" "$t" >"$log" 2>&1 || rc=$?
				if [ $rc = 1 ]; then
					caught=$((caught + 1))
				else
					fail "$n" "perf test '$t' without the fix" "$log" \
						"$([ $rc = 0 ] && echo passed || echo skipped), must fail"
				fi
			done
			[ $caught -eq ${#nofix[@]} ] && checks+=("$caught/$caught fail without the fix")
		fi
	fi

	report
done

# --- 4. the summary -----------------------------------------------------

echo
echo "submissions ($OUT, logs in $LOGS):"
printf '%s\n' "${summary[@]}"
if [ ${#failures[@]} -gt 0 ]; then
	echo
	printf '%s\n' "${failures[@]}"
	exit 1
fi
