#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# usage: [BASE=7.3|6.12] bench-read.sh [-t SECONDS] [SIZES...]
#                                     (default 10000 30000 100000)
#
# What reading perf inject --jit's output costs: CPU seconds (user+sys)
# of perf report --stdio (default sort and --sort "sym,dso") and perf script
# (default fields and -F "ip,sym,dso"), stock and patched, on one file per
# size injected by the patched perf.  The input is the generator's
# (gen-jit-perfdata -n N -k N -s 100000) with an empty HEADER_BUILD_ID
# section added, as perf record writes one: 6.12's perf inject without
# the backport of upstream 9f8f5edc79b6 then lists every jitted-PID-N.so
# in the build-id table, and reading that is quadratic.  The table's
# entries are printed ("bids").  -t: give up on a command after SECONDS
# ("> SECONDS").  Growth exponents are log(t2 / t1) / log(N2 / N1).
# perf runs with --buildid-dir under the work directory: ~/.debug is not
# touched.
. "$(dirname "$0")/lib.sh"

limit=
while getopts t: opt; do
	case $opt in
	t) limit=$OPTARG ;;
	*) echo "usage: $0 [-t SECONDS] [SIZES...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 30000 100000)

require_builds stock patched
[ -x /usr/bin/time ] || die "/usr/bin/time missing (apt-get install time)"
work=$VDIR/bench-read
mkdir -p "$work"
gen=$work/gen-jit-perfdata
cc -O2 -Wall -Wextra -Werror -o "$gen" "$TOP/bench/gen-jit-perfdata.c"

# add_build_id_section FILE: the generator writes HEADER_ARCH only; put an
# empty HEADER_BUILD_ID (feature bit 2) section in front of it.
add_build_id_section() {
	python3 - "$1" <<-'EOF'
	import struct, sys
	p = sys.argv[1]
	b = bytearray(open(p, 'rb').read())
	data_off, data_size = struct.unpack_from('<QQ', b, 40)
	feat = struct.unpack_from('<Q', b, 72)[0]
	assert feat == 1 << 6, 'expected HEADER_ARCH only'
	end = data_off + data_size
	arch_off, arch_size = struct.unpack_from('<QQ', b, end)
	arch = bytes(b[arch_off:arch_off + arch_size])
	b = b[:end] + struct.pack('<QQQQ', end + 32, 0, end + 32, arch_size) + arch
	struct.pack_into('<Q', b, 72, feat | 1 << 2)
	open(p, 'wb').write(b)
	EOF
}

# cpu CMD...: CPU seconds of CMD, or "> LIMIT".
cpu() {
	local t=$work/time.$$ rc=0
	if [ -n "$limit" ]; then
		/usr/bin/time -o "$t" -f '%U %S' timeout "$limit" "$@" >/dev/null 2>&1 || rc=$?
	else
		/usr/bin/time -o "$t" -f '%U %S' "$@" >/dev/null 2>&1 || rc=$?
	fi
	if [ "$rc" = 124 ]; then
		echo "> $limit"
	elif [ "$rc" != 0 ]; then
		die "failed ($rc): $*"
	else
		tail -1 "$t" | awk '{ printf "%.1f\n", $1 + $2 }'
	fi
	rm -f "$t"
}

cmds=(report report-sd script script-F)
declare -A res
printf '%-8s %8s %6s' "perf" "N" "bids"
printf ' %9s' "${cmds[@]}"
echo
for n in "${sizes[@]}"; do
	dir=$work/$n
	rm -rf "$dir" "$work/buildid"
	mkdir -p "$dir"
	"$gen" -o "$dir" -n "$n" -k "$n" -s 100000 >/dev/null
	add_build_id_section "$dir/perf.data"
	bdir=(--buildid-dir "$work/buildid")
	"$TOP/build/${BPREFIX}patched/perf" "${bdir[@]}" inject --jit \
		-i "$dir/perf.data" -o "$dir/out.data" 2>/dev/null
	bids=$("$TOP/build/${BPREFIX}patched/perf" buildid-list -i "$dir/out.data" 2>/dev/null | wc -l)
	for b in stock patched; do
		perf=$TOP/build/$BPREFIX$b/perf
		printf '%-8s %8s %6s' "$b" "$n" "$bids"
		for c in "${cmds[@]}"; do
			case $c in
			report) args=(report --stdio) ;;
			report-sd) args=(report --stdio --sort "sym,dso") ;;
			script) args=(script) ;;
			script-F) args=(script -F "ip,sym,dso") ;;
			esac
			res[$b,$n,$c]=$(cpu "$perf" "${bdir[@]}" "${args[@]}" -i "$dir/out.data")
			printf ' %9s' "${res[$b,$n,$c]}"
		done
		echo
	done
	rm -rf "$dir" "$work/buildid"
done
# growth exponents between consecutive sizes
for ((i = 1; i < ${#sizes[@]}; i++)); do
	n1=${sizes[i - 1]} n2=${sizes[i]}
	for b in stock patched; do
		printf '%-8s %8s' "$b" "exp $n1->$n2"
		for c in "${cmds[@]}"; do
			awk -v a="${res[$b,$n1,$c]}" -v b="${res[$b,$n2,$c]}" -v n1="$n1" -v n2="$n2" \
				'BEGIN { if (a ~ />/ || b ~ />/ || a <= 0) printf " %9s", "-";
					 else printf " %9.2f", log(b / a) / log(n2 / n1) }'
		done
		echo
	done
done
