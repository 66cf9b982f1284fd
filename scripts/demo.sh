#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The main job: show what the patched perf does.
. "$(dirname "$0")/lib.sh"
perf=$TOP/build/patched/perf
"$perf" version
cat <<TXT

The patched perf is $perf.  On your own JIT program:

  $perf record -k mono -e cpu-clock -o perf.data -- ./your-jit-program
  $perf inject --jit -i perf.data -o perf.jit.data
  $perf report -i perf.jit.data --sort dso,sym

TXT
