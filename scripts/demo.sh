#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The main job: record perf's jitdump workload with arguments (six JITed
# functions in growing anonymous memory, plus a loop that only
# /tmp/perf-PID.map describes),
# inject its jitdump with the stock and the patched perf, and show side by
# side where each function's samples went.  PATCHED_PERF=path puts another
# patched perf in the patched column (an installed perf-jit).
. "$(dirname "$0")/lib.sh"

if [ -n "${PATCHED_PERF:-}" ]; then
	require_builds stock
	[ -x "$PATCHED_PERF" ] || die "PATCHED_PERF=$PATCHED_PERF: not an executable"
	PATCHED=$PATCHED_PERF
else
	require_builds stock patched
	PATCHED=$TOP/build/${BPREFIX}patched/perf
fi
dir=${DEMO_OUT:-$VDIR/demo}
rm -rf "$dir"
mkdir -p "$dir"

# The workload writes its jitdump (jit-PID.dump) in the current directory.
if ! (cd "$dir" && "$PATCHED" record -q -k mono -e cpu-clock -o "$dir/perf.data" -- \
	"$PATCHED" test -w jitdump 6 200 perfmap >"$dir/layout" 2>"$dir/record.err"); then
	cat "$dir/record.err" >&2
	die "perf record failed (is perf_event_paranoid too strict? try as root)"
fi
dump=$(find "$dir" -name 'jit-*.dump' | head -1)
wpid=${dump##*/jit-}
wpid=${wpid%.dump}
map=/tmp/perf-$wpid.map
trap 'rm -f "$map"' EXIT

for build in stock patched; do
	perf=$TOP/build/$BPREFIX$build/perf
	[ "$build" = stock ] || perf=$PATCHED
	"$perf" inject --jit -i "$dir/perf.data" -o "$dir/perf.$build.data" 2>"$dir/inject.$build.err" ||
		die "$build perf inject failed: $dir/inject.$build.err"
	"$perf" script -i "$dir/perf.$build.data" -F time,ip,sym,dso --ns \
		>"$dir/script.$build" 2>/dev/null
	python3 "$TOP/scripts/jit-attribution.py" --per-function --perf-map "$map" \
		"$dump" "$dir/script.$build" >"$dir/counts.$build.json"
done

python3 - "$dir/counts.stock.json" "$dir/counts.patched.json" "$wpid" <<'PY'
import json, sys
stock, patched = (json.load(open(p))['functions'] for p in sys.argv[1:3])
pid = sys.argv[3]

def where(counts):
    places = {k: v for k, v in counts.items() if k not in ('samples', 'right')}
    if not places:
        return '-'
    place, n = max(places.items(), key=lambda kv: kv[1])
    sym, dso = place.split(' ', 1)
    if sym == '[unknown]':
        place = '[unknown]'
    else:
        place = '%s in %s' % (sym, dso.replace(pid, 'PID'))
    return '%-34s %3d%%' % (place, round(100 * n / counts['samples']))

print('perf inject --jit on perf test -w jitdump 6 200 perfmap: 6 JITed functions whose')
print('anonymous pages merge into one growing mapping, and one loop described')
print('only by /tmp/perf-PID.map.  Where each function\'s samples went:')
print()
print('%-16s %7s  %-39s  %-39s' % ('function', 'samples', 'stock perf', 'patched perf'))
for name in sorted(patched, key=lambda n: (n.startswith('jitdump_perfmap'), n)):
    print('%-16s %7d  %-39s  %-39s' % (name, patched[name]['samples'],
                                      where(stock.get(name, {'samples': 1})),
                                      where(patched[name])))
PY
cat <<TXT

Stock perf drops every anonymous mmap of a JIT process, so code that no
jitdump describes loses its symbols; the patched perf trims only what
overlaps jitted code.  Details: $dir

To do the same on your own program:
  $PATCHED record -k mono -e cpu-clock -o perf.data -- ./your-jit-program
  $PATCHED inject --jit -i perf.data -o perf.jit.data
  $PATCHED report -i perf.jit.data --sort dso,sym
TXT
