#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run the whole `perf test` on the stock and the patched build, one after
# the other (tests that record are sensitive to load), and compare the
# verdicts test by test: apart from the tests the series adds, every test
# that passes on stock must pass on patched (see the reruns below).  Takes
# about 6 minutes per base.
. "$(dirname "$0")/lib.sh"

out=$VDIR/parity
mkdir -p "$out"
for b in stock patched; do
	[ -x "$BUILDS/$b/perf" ] || die "no $b build: run 'make build'"
	msg "perf test on $b (log: $out/$b.log)"
	(cd "$BUILDS/$b" && PATH=$BUILDS/$b:$PATH timeout 1800 ./perf test 2>&1) |
		sed 's/\x1b\[[0-9;]*m//g' >"$out/$b.log" || true
	# "NN: description : Ok" (or "NN.M: ..."), one line per finished test
	# (a description as wide as its column has no space before the colon);
	# a suite of cases ("NN: description :", then "NN.M: ...") gets a
	# verdict of its own too, FAILED! if a case failed, Ok if one passed, so
	# that a test that becomes a suite of cases is compared with itself.
	awk '
		function flush() {
			if (suite != "")
				print (bad ? "FAILED!" : ok ? "Ok" : "Skip") "\t" suite
			suite = ""; ok = bad = 0
		}
		!match($0, /^ *[0-9]+(\.[0-9]+)?: /) { next }
		{ num = substr($0, 1, RLENGTH); rest = substr($0, RLENGTH + 1) }
		num !~ /\./ { flush() }
		rest ~ / *:$/ { sub(/ *:$/, "", rest); suite = rest; next }
		match(rest, / *: (Ok|FAILED!|Skip)( .*)?$/) {
			v = substr(rest, RSTART); sub(/^ *: /, "", v); sub(/ .*/, "", v)
			print v "\t" substr(rest, 1, RSTART - 1)
			ok = ok || v == "Ok"; bad = bad || v == "FAILED!"
		}
		END { flush() }' "$out/$b.log" |
		sort -t$'\t' -k2 >"$out/$b.verdicts"
done

# Tests the series adds (by description).
new='jit-mmap-overlap|Trimming rule|LLVM.s growing mapping|merged anonymous mmaps|malformed jitdumps|jitdumps of JIT runtimes|maps below the others|in the order of their names'
join -t$'\t' -1 2 -2 2 -a 1 -a 2 -e MISSING -o 0,1.1,2.1 \
	"$out/stock.verdicts" "$out/patched.verdicts" >"$out/joined"
worse=$(awk -F'\t' -v new="$new" '$2 == "Ok" && $3 != "Ok" && $1 !~ new' "$out/joined")
added=$(awk -F'\t' -v new="$new" '$1 ~ new { print $3 "\t" $1 }' "$out/joined")
changed=$(awk -F'\t' '$2 != $3' "$out/joined")
printf 'stock:   %s\n' "$(cut -f1 "$out/stock.verdicts" | sort | uniq -c | tr '\n' ' ')"
printf 'patched: %s\n' "$(cut -f1 "$out/patched.verdicts" | sort | uniq -c | tr '\n' ' ')"
echo "tests the series adds:"
echo "$added" | sed 's/^/  /'
echo "verdicts that differ (test, stock, patched):"
echo "${changed:-  none}" | sed 's/^/  /'
[ -z "$worse" ] || echo "passing on stock, not on patched, run again:"
# A test that passed on stock and not on patched runs again on each,
# PARITY_RETRIES times (5), one test at a time: some of perf's tests fail
# now and then on a loaded or slow machine (lost events, timeouts), on
# stock as on patched.  Only a test patched never passes again is worse.
retries=${PARITY_RETRIES:-5}
passes() { # BUILD DESCRIPTION: how many of $retries runs of the test pass
	local n=0 i
	for i in $(seq "$retries"); do
		(cd "$BUILDS/$1" && PATH=$BUILDS/$1:$PATH ./perf test "$2" 2>&1) |
			sed 's/\x1b\[[0-9;]*m//g' | grep -F -- "$2" |
			grep -qE ': Ok$' && n=$((n + 1))
	done
	echo "$n"
}
while IFS=$'\t' read -r t v1 v2; do
	[ -n "$t" ] || continue
	s=$(passes stock "$t") p=$(passes patched "$t")
	printf '  %s: %s/%s, rerun: stock %s/%s, patched %s/%s\n' \
		"$t" "$v1" "$v2" "$s" "$retries" "$p" "$retries"
done <<<"$worse" | tee "$out/reruns"
if grep -q 'patched 0/' "$out/reruns"; then
	echo "passing on stock, never on patched: see above"
	exit 1
fi
echo "parity: every test passing on stock passes on patched"
