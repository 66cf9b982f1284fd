/* SPDX-License-Identifier: GPL-2.0 */
/* What jit-claims.c links against that both fuzz targets stub the same way. */
#ifndef FUZZ_STUBS_H
#define FUZZ_STUBS_H

#include <stdlib.h>
#include <linux/compiler.h>

struct machine;
struct perf_sample;
struct perf_tool;
union perf_event;

int perf_event__process_fork(const struct perf_tool *tool, union perf_event *event,
			     struct perf_sample *sample, struct machine *machine);

/* For jit_claims__process_fork(), which the fuzzers do not call. */
int perf_event__process_fork(const struct perf_tool *tool __maybe_unused,
			     union perf_event *event __maybe_unused,
			     struct perf_sample *sample __maybe_unused,
			     struct machine *machine __maybe_unused)
{
	abort();
}

#endif
