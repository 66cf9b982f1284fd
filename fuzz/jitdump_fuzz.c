// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for jitdump parsing as perf inject --jit does it:
 * tools/perf/util/jitdump.c (jit_process() on a marker mmap, hence
 * jit_open(), jit_get_next_entry() and the record handlers, the ELF
 * writer of genelf.c and the claims), fed arbitrary bytes as the jitdump,
 * then an anonymous mmap over the claimed code.  The rest of perf is
 * stubbed below: nothing here may crash, leak or read out of bounds.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <limits.h>
#include <linux/list.h>

#include "util/evlist.h"
#include "util/evsel.h"
#include "util/session.h"
#include "util/machine.h"
#include "util/thread.h"
#include "util/namespaces.h"
#include "util/data.h"
#include "util/tool.h"
#include "util/jit.h"
#include "util/jit-claims.h"

#define PID 4242

int verbose;
int eprintf(int level, int var, const char *fmt, ...)
{
	(void)level; (void)var; (void)fmt;
	return 0;
}

/* perf, stubbed */
int build_id__mark_dso_hit(const struct perf_tool *tool __maybe_unused,
			   union perf_event *event __maybe_unused,
			   struct perf_sample *sample __maybe_unused,
			   struct evsel *evsel __maybe_unused,
			   struct machine *machine __maybe_unused)
{
	return 0;
}

static struct thread *the_thread;
struct thread *machine__findnew_thread(struct machine *machine __maybe_unused,
				       pid_t pid __maybe_unused, pid_t tid __maybe_unused)
{
	return the_thread;
}

void thread__put(struct thread *thread __maybe_unused) {}
struct nsinfo *nsinfo__get(struct nsinfo *nsi) { return nsi; }
void nsinfo__put(struct nsinfo *nsi __maybe_unused) {}
pid_t nsinfo__nstgid(const struct nsinfo *nsi __maybe_unused) { return PID; }
pid_t nsinfo__pid(const struct nsinfo *nsi __maybe_unused) { return PID; }
pid_t nsinfo__tgid(const struct nsinfo *nsi __maybe_unused) { return PID; }
bool nsinfo__in_pidns(const struct nsinfo *nsi __maybe_unused) { return false; }
void nsinfo__mountns_enter(struct nsinfo *nsi __maybe_unused,
			   struct nscookie *nc __maybe_unused) {}
void nsinfo__mountns_exit(struct nscookie *nc __maybe_unused) {}
int nsinfo__stat(const char *filename, struct stat *st,
		 struct nsinfo *nsi __maybe_unused)
{
	return stat(filename, st);
}

ssize_t perf_data__write(struct perf_data *data __maybe_unused,
			 void *buf __maybe_unused, size_t size)
{
	return size;
}

int perf_event__process_mmap(const struct perf_tool *tool __maybe_unused,
			     union perf_event *event __maybe_unused,
			     struct perf_sample *sample __maybe_unused,
			     struct machine *machine __maybe_unused)
{
	return 0;
}

int perf_event__process_mmap2(const struct perf_tool *tool __maybe_unused,
			      union perf_event *event __maybe_unused,
			      struct perf_sample *sample __maybe_unused,
			      struct machine *machine __maybe_unused)
{
	return 0;
}

u64 tsc_to_perf_time(u64 cyc, struct perf_tsc_conversion *tc __maybe_unused)
{
	return cyc;
}

static char dir[] = "/tmp/jitdump-fuzz-XXXXXX";
static char path[PATH_MAX];
static struct perf_session session;
static struct machine machine;
static struct perf_tool tool;
static struct evlist evlist;
static struct evsel evsel;

static void setup(void)
{
	if (!mkdtemp(dir))
		abort();
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, PID);
	INIT_LIST_HEAD(&evlist.core.entries);
	evsel.core.attr.use_clockid = 1;
	evsel.core.attr.clockid = CLOCK_MONOTONIC;
	evsel.core.attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	list_add_tail(&evsel.core.node, &evlist.core.entries);
	session.evlist = &evlist;
	session.tool = &tool;
	machine.id_hdr_size = 16;
	/* zeroed, no nsinfo; under ASan perf's reference count checking wraps
	 * the struct in one holding a pointer to it */
	the_thread = calloc(1, 4096);
	*(void **)the_thread = calloc(1, 4096);
}

/* The jitted-PID-N.so files inject wrote: fuzzed indexes, remove them. */
static void cleanup_elves(void)
{
	char name[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "jitted-", 7))
			continue;
		snprintf(name, sizeof(name), "%s/%s", dir, de->d_name);
		unlink(name);
	}
	if (d)
		closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jit_claims *claims = jit_claims__new();
	union perf_event *ev = calloc(1, sizeof(*ev) + 16);
	struct perf_sample sample = { .time = ~0ULL, };
	struct perf_data out = { .path = "/dev/null", };
	u64 nbytes = 0;
	FILE *f;

	if (!the_thread)
		setup();
	f = fopen(path, "w");
	if (!f || !claims || !ev)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);

	/* the marker mmap: the whole jitdump is read and injected */
	jit_process(claims, &session, &out, &machine, ev, &sample, path, PID, PID, &nbytes);

	/* then an anonymous mmap over whatever the jitdump claimed */
	ev->mmap2.header.type = PERF_RECORD_MMAP2;
	ev->mmap2.header.size = sizeof(ev->mmap2) - sizeof(ev->mmap2.filename) + 8 + 16;
	ev->mmap2.pid = PID;
	ev->mmap2.start = 0;
	ev->mmap2.len = ~0ULL;
	strcpy(ev->mmap2.filename, "//anon");
	jit_process(claims, &session, &out, &machine, ev, &sample, "//anon", PID, PID, &nbytes);

	jit_claims__delete(claims);
	free(ev);
	cleanup_elves();
	return 0;
}
