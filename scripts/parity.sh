#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run the whole `perf test` on the stock and the patched build, one after
# the other (tests that record are sensitive to load), and compare the
# verdicts test by test: apart from the tests the series adds, every test
# that passes on stock must pass on patched.  Takes a few minutes.
. "$(dirname "$0")/lib.sh"

out=$VDIR/parity
mkdir -p "$out"
for b in stock patched; do
	[ -x "$BUILDS/$b/perf" ] || die "no $b build: run 'make build'"
	msg "perf test on $b (log: $out/$b.log)"
	(cd "$BUILDS/$b" && PATH=$BUILDS/$b:$PATH timeout 1800 ./perf test 2>&1) |
		sed 's/\x1b\[[0-9;]*m//g' >"$out/$b.log" || true
	# "NN: description : Ok" (or "NN.M: ..."), one line per finished test
	grep -E '^ *[0-9]+(\.[0-9]+)?: .*: (Ok|FAILED!|Skip.*)$' "$out/$b.log" |
		sed -E 's/^ *[0-9.]+: (.*[^ ]) +: (Ok|FAILED!|Skip).*$/\2\t\1/' |
		sort -t$'\t' -k2 >"$out/$b.verdicts"
done

# Tests the series adds (by description).
new='jit-mmap-overlap|Trimming rule|LLVM.s growing mapping|merged anonymous mmaps'
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
if [ -n "$worse" ]; then
	echo "passing on stock, not on patched:"
	echo "$worse" | sed 's/^/  /'
	exit 1
fi
echo "parity: every test passing on stock passes on patched"
