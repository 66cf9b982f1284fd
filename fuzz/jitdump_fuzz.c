// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for jitdump parsing as perf inject --jit does it:
 * tools/perf/util/jitdump.c (jit_process() on a marker mmap, hence
 * jit_open(), jit_get_next_entry() and the record handlers, the ELF and
 * DWARF writers of genelf.c and genelf_debug.c, and the claims of
 * jit-claims.c), fed arbitrary bytes as the jitdump; then, for each
 * process that got claims, an anonymous mmap record over the whole address
 * space, again, after an exec at time 0 (which keeps those of a later
 * time), in a child forked then, and in that child after its exec.
 *
 * The rest of perf is stubbed below, each stub checking what the real
 * function would rely on; nothing may crash, leak (a reference to a
 * thread, dso or nsinfo included), read out of bounds, or write an event
 * other than a well-formed MMAP2.  Each claim must be of the jitted map
 * just injected (its pid and start).  The pieces of the anonymous record
 * must lie inside it, in order, and be exactly what the claims of that
 * process leave free; whoever sees the same claims with no anonymous
 * mapping let through yet gets the same pieces.
 *
 * The size of the input picks the setting: bit 0, whether the jitdump's
 * pid is that of perf's view (jit_detect() says in_pidns: the records'
 * pids are replaced by the thread's) or another namespace's (the records'
 * pids are used, so any pid gets claims); bit 1, whether perf.data has a
 * TIME_CONV record (JITDUMP_FLAGS_ARCH_TIMESTAMP is accepted).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/list.h>

#include "util/debug.h"
#include "util/dso.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/session.h"
#include "util/machine.h"
#include "util/thread.h"
#include "util/namespaces.h"
#include "util/data.h"
#include "util/sample.h"
#include "util/tool.h"
#include "util/tsc.h"
#include "util/build-id.h"
#include "util/jit.h"
#include "util/jit-claims.h"
#include "util/genelf.h"
#include <gelf.h>

#define PID		4242
#define MAXTHREADS	16
#define MAXMAPS		4096

int verbose;
int eprintf(int level, int var, const char *fmt, ...)
{
	(void)level; (void)var; (void)fmt;
	return 0;
}

static int in_pidns;		/* of this input */
static long refs;		/* thread, dso, nsinfo gets not put, samples not exited */

/* perf's machine: the threads that were asked for. */
static struct machine machine;
static RC_STRUCT(thread) *threads[MAXTHREADS];
static int nthreads;

static struct thread *thread_get(RC_STRUCT(thread) *t)
{
	struct thread *thread;

	if (!ADD_RC_CHK(thread, t))
		abort();
	refs++;
	return thread;
}

static RC_STRUCT(thread) *thread_lookup(pid_t pid, pid_t tid)
{
	int i;

	for (i = 0; i < nthreads; i++)
		if (threads[i]->pid_ == pid && threads[i]->tid == tid)
			return threads[i];
	return NULL;
}

/* A fake, never dereferenced: the nsinfo functions are stubbed too. */
static RC_STRUCT(nsinfo) the_nsinfo;
static struct nsinfo *nsinfo_ptr(void)
{
	return (struct nsinfo *)&the_nsinfo;
}

struct thread *machine__findnew_thread(struct machine *m, pid_t pid, pid_t tid)
{
	RC_STRUCT(thread) *t;

	if (m != &machine)
		abort();
	t = thread_lookup(pid, tid);
	if (!t) {
		if (nthreads == MAXTHREADS)
			return NULL;	/* as when out of memory */
		t = calloc(1, sizeof(*t));
		if (!t)
			abort();
		t->pid_ = pid;
		t->tid = tid;
		t->nsinfo = nsinfo_ptr();
		threads[nthreads++] = t;
	}
	return thread_get(t);
}

struct thread *machine__find_thread(struct machine *m, pid_t pid, pid_t tid)
{
	RC_STRUCT(thread) *t;

	if (m != &machine)
		abort();
	t = thread_lookup(pid, tid);
	return t ? thread_get(t) : NULL;
}

void thread__put(struct thread *thread)
{
	if (!thread)
		return;
	refs--;
	RC_CHK_PUT(thread);
}

/* The machine goes away. */
static void threads_remove(void)
{
	while (nthreads) {
		RC_STRUCT(thread) *t = threads[--nthreads];

		if (t->priv)
			abort();	/* perf inject --jit keeps nothing there */
		free(t);
	}
}

static RC_STRUCT(dso) the_dso;

struct dso *machine__findnew_dso_id(struct machine *m, const char *filename,
				    const struct dso_id *id)
{
	struct dso *dso;

	if (m != &machine || !filename || !id || strnlen(filename, PATH_MAX) == PATH_MAX)
		abort();
	if (!ADD_RC_CHK(dso, &the_dso))
		abort();
	refs++;
	return dso;
}

void dso__put(struct dso *dso)
{
	if (!dso)
		return;
	refs--;
	RC_CHK_PUT(dso);
}

int build_id__mark_dso_hit(const struct perf_tool *tool __maybe_unused,
			   union perf_event *event __maybe_unused,
			   struct perf_sample *sample,
			   struct machine *m)
{
	/*
	 * The real one resolves the sample's callchain, and
	 * thread__resolve_callchain_unwind() dereferences sample->evsel.
	 */
	if (m != &machine || !sample->evsel)
		abort();
	return 0;
}

void perf_sample__init(struct perf_sample *sample, bool all)
{
	if (all)
		memset(sample, 0, sizeof(*sample));
	else
		sample->evsel = NULL;
	refs++;
}

void perf_sample__exit(struct perf_sample *sample __maybe_unused)
{
	refs--;
}

struct nsinfo *nsinfo__get(struct nsinfo *nsi)
{
	if (nsi)
		refs++;
	return nsi;
}

void nsinfo__put(struct nsinfo *nsi)
{
	if (nsi)
		refs--;
}

/* The real ones dereference it. */
static void nsi_check(const struct nsinfo *nsi)
{
	if (nsi != nsinfo_ptr())
		abort();
}

pid_t nsinfo__nstgid(const struct nsinfo *nsi)
{
	nsi_check(nsi);
	return in_pidns ? PID : PID + 1;
}

pid_t nsinfo__pid(const struct nsinfo *nsi)
{
	nsi_check(nsi);
	return PID;
}

pid_t nsinfo__tgid(const struct nsinfo *nsi)
{
	nsi_check(nsi);
	return PID;
}

static bool nsi_in_pidns;

bool nsinfo__in_pidns(const struct nsinfo *nsi)
{
	nsi_check(nsi);
	return nsi_in_pidns;
}

void nsinfo__set_in_pidns(struct nsinfo *nsi)
{
	nsi_check(nsi);
	nsi_in_pidns = true;
}

void nsinfo__mountns_enter(struct nsinfo *nsi __maybe_unused, struct nscookie *nc)
{
	nc->oldns = -1;
	nc->newns = -1;
	nc->oldcwd = NULL;
}

void nsinfo__mountns_exit(struct nscookie *nc __maybe_unused)
{
}

int nsinfo__stat(const char *filename, struct stat *st,
		 struct nsinfo *nsi __maybe_unused)
{
	return stat(filename, st);
}

/* The MMAP2 records of the jitted maps inject wrote, pid and range. */
static struct {
	pid_t pid;
	u64 start, len;
	u64 pgoff;
	int mpid, merged;	/* PID and N of a jitted-PID-mN.so, or -1 */
} maps[MAXMAPS];
static int nmaps;
static u64 written;

/* The claims jitdump.c added (linked with -Wl,--wrap=jit_claims__add). */
static struct jit_claims claims;
static struct {
	pid_t pid;
	u64 start, len, time;
} added[MAXMAPS];
static int nadded;

int __real_jit_claims__add(struct jit_claims *jc, pid_t pid, u64 start, u64 len, u64 time);
int __wrap_jit_claims__add(struct jit_claims *jc, pid_t pid, u64 start, u64 len, u64 time);
int __wrap_jit_claims__add(struct jit_claims *jc, pid_t pid, u64 start, u64 len, u64 time)
{
	/* the code of the jitted map just injected */
	if (jc != &claims || !nmaps || (nmaps < MAXMAPS &&
	    (maps[nmaps - 1].pid != (u32)pid || maps[nmaps - 1].start != start)))
		abort();
	if (nadded < MAXMAPS) {
		added[nadded].pid = pid;
		added[nadded].start = start;
		added[nadded].len = len;
		added[nadded].time = time;
	}
	nadded++;
	return __real_jit_claims__add(jc, pid, start, len, time);
}

/* A record jitdump.c made: check it as perf would read it. */
static void check_event(const union perf_event *event, size_t size)
{
	const struct perf_record_mmap2 *mmap2 = &event->mmap2;
	size_t name_max;
	char copy[sizeof(*event) + 64];

	if (size != event->header.size || size > sizeof(copy) ||
	    event->header.type != PERF_RECORD_MMAP2 ||
	    size < offsetof(struct perf_record_mmap2, filename) + machine.id_hdr_size + 1)
		abort();
	memcpy(copy, event, size);	/* all of it is there */
	name_max = size - offsetof(struct perf_record_mmap2, filename) - machine.id_hdr_size;
	if (strnlen(mmap2->filename, name_max) == name_max)
		abort();	/* the name runs into the sample id */
}

ssize_t perf_data__write(struct perf_data *data __maybe_unused, void *buf, size_t size)
{
	const union perf_event *event = buf;

	check_event(event, size);
	if (nmaps < MAXMAPS) {
		const char *base = strrchr(event->mmap2.filename, '/');

		maps[nmaps].pid = event->mmap2.pid;
		maps[nmaps].start = event->mmap2.start;
		maps[nmaps].len = event->mmap2.len;
		maps[nmaps].pgoff = event->mmap2.pgoff;
		if (!base || sscanf(base, "/jitted-%d-m%d.so", &maps[nmaps].mpid,
				    &maps[nmaps].merged) != 2)
			maps[nmaps].merged = -1;
	}
	nmaps++;
	written += size;
	return size;
}

int perf_event__process_mmap2(const struct perf_tool *tool __maybe_unused,
			      union perf_event *event,
			      struct perf_sample *sample,
			      struct machine *m)
{
	if (m != &machine)
		abort();
	check_event(event, event->header.size);
	if (sample->pid != (pid_t)event->mmap2.pid)
		abort();
	return 0;
}

u64 tsc_to_perf_time(u64 cyc, struct perf_tsc_conversion *tc)
{
	return tc->time_zero + cyc * tc->time_mult;
}

static char dir[PATH_MAX];
static char path[PATH_MAX];
static struct perf_session session;
static struct perf_tool tool;
static RC_STRUCT(evlist) the_evlist;
static struct evsel evsel;

static void remove_dir(void)
{
	unlink(path);
	rmdir(dir);
}

static void setup(void)
{
	struct evlist *evlist;

	/* on tmpfs if there is one: several times faster than a disk */
	strcpy(dir, "/dev/shm/jitdump-fuzz-XXXXXX");
	if (!mkdtemp(dir)) {
		strcpy(dir, "/tmp/jitdump-fuzz-XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, PID);
	atexit(remove_dir);
	if (!ADD_RC_CHK(evlist, &the_evlist))
		abort();
	INIT_LIST_HEAD(&the_evlist.core.entries);
	evsel.core.attr.use_clockid = 1;
	evsel.core.attr.clockid = CLOCK_MONOTONIC;
	evsel.core.attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	list_add_tail(&evsel.core.node, &the_evlist.core.entries);
	session.evlist = evlist;
	session.tool = &tool;
	machine.id_hdr_size = 16;
}

/*
 * --jit-merged-elf: each map inject wrote is a slot of its finished file,
 * at the map's pgoff, and the code a load claims fits in it.
 */
static bool has_slot(const char *name, u64 offset)
{
	int fd = open(name, O_RDONLY);
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	bool found = false;
	GElf_Shdr shdr;
	size_t ndx, i;

	while (elf && !elf_getshdrstrndx(elf, &ndx) && (scn = elf_nextscn(elf, scn))) {
		Elf_Data *d = gelf_getshdr(scn, &shdr) &&
			      !strcmp(elf_strptr(elf, ndx, shdr.sh_name) ?: "", JIT_ELF_SLOTS) &&
			      shdr.sh_entsize >= sizeof(struct jit_elf_slot) ?
			      elf_getdata(scn, NULL) : NULL;

		for (i = 0; d && i < d->d_size / shdr.sh_entsize; i++) {
			const struct jit_elf_slot *slot = d->d_buf + i * shdr.sh_entsize;

			found |= slot->offset == offset;
		}
	}
	elf_end(elf);
	if (fd >= 0)
		close(fd);
	return found;
}

static void check_merged(void)
{
	char name[PATH_MAX];
	int i;

	for (i = 0; i < nmaps && i < MAXMAPS; i++) {
		if (maps[i].merged < 0)
			continue;
		snprintf(name, sizeof(name), "%s/jitted-%d-m%d.so", dir, maps[i].mpid,
			 maps[i].merged);
		if (!has_slot(name, maps[i].pgoff))
			abort();
	}
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

/* The anonymous mmap record over all of the address space, of a pid */
static union perf_event anon = {
	.mmap2 = {
		.header.type = PERF_RECORD_MMAP2, .start = 0, .len = ~0ULL, .pgoff = 0,
		.prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE, .filename = "//anon",
	},
};

struct pieces {
	u64 pos;		/* what was emitted or checked up to */
	const struct perf_record_mmap2 *m;
	u64 n, hash;		/* the pieces emitted */
	bool fresh;		/* no anonymous mapping let through before */
};
/* The claims of one process of a time from @from on, by start. */
static struct {
	u64 start, last;	/* inclusive */
} cover[MAXMAPS];
static int ncover;

static int cover_cmp(const void *a, const void *b)
{
	const u64 *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static void cover_init(pid_t pid, u64 from)
{
	int i;

	for (i = ncover = 0; i < nadded && i < MAXMAPS; i++) {
		u64 s = added[i].start, len = added[i].len;

		/* an empty range or one that wraps around claims nothing */
		if (added[i].pid != pid || !len || s + len - 1 < s || added[i].time < from)
			continue;
		cover[ncover].start = s;
		cover[ncover].last = s + len - 1;
		ncover++;
	}
	qsort(cover, ncover, sizeof(cover[0]), cover_cmp);
}

/* Whether those claims cover [start, end). */
static bool covered(u64 start, u64 end)
{
	int i;

	if (start >= end)
		return true;
	for (i = 0; i < ncover; i++) {
		if (cover[i].start > start)
			break;
		if (cover[i].last >= end - 1)
			return true;
		if (cover[i].last >= start)
			start = cover[i].last + 1;
	}
	return false;
}

/* Whether one of them overlaps [start, last]. */
static bool overlaps(u64 start, u64 last)
{
	int i;

	for (i = 0; i < ncover && cover[i].start <= last; i++)
		if (cover[i].last >= start)
			return true;
	return false;
}

static int piece(void *arg, u64 start, u64 len, u64 pgoff)
{
	struct pieces *p = arg;
	const struct perf_record_mmap2 *m = p->m;

	if (!len || start < p->pos || start - m->start > m->len ||
	    len > m->len - (start - m->start) || pgoff != m->pgoff + (start - m->start))
		abort();	/* outside the record, or out of order */
	if (p->fresh && nadded <= MAXMAPS &&
	    (!covered(p->pos, start) || overlaps(start, start + len - 1)))
		abort();	/* left out what no claim covers, or kept a claimed byte */
	p->pos = start + len;
	p->n++;
	p->hash = (p->hash ^ start) * 0x100000001b3ULL;
	p->hash = (p->hash ^ len) * 0x100000001b3ULL;
	return 0;
}

/*
 * An anonymous mmap record over all of the address space, without
 * PERF_SAMPLE_TIME (every claim applies), for @pid: 1 (trimmed: what it
 * adds written, all of it where no claim overlaps it) or 0 (no claims: as
 * it is), with the counters and the pieces checked; the pieces in @p,
 * and whether it was kept whole.  With no anonymous mapping let through
 * before (@fresh), exactly what the claims leave free is written.
 */
static int anon_all(pid_t pid, bool fresh, struct pieces *p, bool *whole)
{
	const struct perf_record_mmap2 *m = &anon.mmap2;
	u64 kept = claims.kept, split = claims.split, pieces = claims.pieces;
	u64 dropped = claims.dropped;
	int ret;

	memset(p, 0, sizeof(*p));
	p->m = m;
	p->fresh = fresh;
	anon.mmap2.pid = anon.mmap2.tid = pid;
	ret = jit_claims__mmap(&claims, &anon, ~0ULL, piece, p);
	*whole = claims.kept != kept;
	if (ret < 0 || ret > 1 || claims.kept - kept > 1)
		abort();
	if (fresh && ret == 1 && nadded <= MAXMAPS && !covered(p->pos, m->len))
		abort();	/* left out the end, and no claim is there */
	if (fresh && ret == 1 && nadded <= MAXMAPS && *whole == overlaps(m->start, m->len - 1))
		abort();	/* kept although claimed, or trimmed although not */
	if (*whole && (p->n != 1 || claims.pieces != pieces || claims.split != split ||
		       claims.dropped != dropped))
		abort();	/* kept: the record itself, nothing else counted */
	if (ret == 1 && !*whole && (claims.pieces - pieces != p->n ||
				    (claims.split - split) + (claims.dropped - dropped) != 1 ||
				    (claims.split - split) != !!p->n))
		abort();
	if (ret == 0 && (p->n || claims.split != split || claims.dropped != dropped))
		abort();
	return ret;
}

static bool same_pieces(const struct pieces *a, const struct pieces *b)
{
	return a->n == b->n && a->hash == b->hash && a->pos == b->pos;
}

/* An exec of pid, or a FORK of pid from ppid, at time (pids may be negative) */
static int task(pid_t pid, bool exec, pid_t ppid, u64 time)
{
	static union perf_event ev;

	memset(&ev, 0, sizeof(ev));
	if (exec) {
		ev.comm.header.type = PERF_RECORD_COMM;
		ev.comm.header.misc = PERF_RECORD_MISC_COMM_EXEC;
		ev.comm.pid = ev.comm.tid = pid;
	} else {
		ev.fork.header.type = PERF_RECORD_FORK;
		ev.fork.pid = ev.fork.tid = pid;
		ev.fork.ppid = ev.fork.ptid = ppid;
	}
	return jit_claims__task(&claims, &ev, time);
}

/* What perf inject does with the records that follow, for each process. */
static void after_jitdump(void)
{
	pid_t pids[MAXMAPS];
	struct hashmap_entry *cur;
	size_t bkt;
	int i, n = 0;

	hashmap__for_each_entry(&claims.procs, cur, bkt)
		if (n < MAXMAPS)
			pids[n++] = cur->key;
	/* a table for each pid that got a claim of some range */
	for (i = 0; i < nadded && i < MAXMAPS; i++)
		if (added[i].len && added[i].start + added[i].len - 1 >= added[i].start &&
		    !hashmap__find(&claims.procs, added[i].pid, NULL))
			abort();
	for (i = 0; i < n; i++) {
		pid_t pid = pids[i], copy = 1;
		struct pieces first, p;
		bool whole, again;
		int ret;

		/* a pid that no jitdump record named */
		while (hashmap__find(&claims.procs, copy, NULL))
			copy++;
		cover_init(pid, 0);
		if (!ncover && nadded <= MAXMAPS)
			abort();	/* a table without claims */
		/* kept whole where it overlaps none (a claim of the last byte only) */
		if (anon_all(pid, true, &first, &whole) != 1)
			abort();
		/* the same record again adds nothing, or is kept whole again */
		if (anon_all(pid, false, &p, &again) != 1 || again != whole || p.n != whole)
			abort();
		/* an exec at time 0 keeps the claims of a later time, no run */
		if (task(pid, true, 0, 0))
			abort();
		cover_init(pid, 1);
		if (nadded > MAXMAPS)
			continue;
		if (!ncover) {
			/* no table left */
			if (hashmap__find(&claims.procs, pid, NULL))
				abort();
			continue;
		}
		ret = anon_all(pid, true, &first, &whole);
		/* a child forked without a time sees them all, none of the runs */
		if (task(copy, false, pid, ~0ULL))
			abort();
		if (anon_all(copy, true, &p, &again) != ret || again != whole ||
		    !same_pieces(&p, &first))
			abort();
		/* after its exec the child has no claims: no table */
		if (task(copy, true, 0, ~0ULL))
			abort();
		if (anon_all(copy, false, &p, &again) || again)
			abort();
		if (hashmap__find(&claims.procs, copy, NULL))
			abort();
	}
	if (refs)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_data out = { .path = "/dev/null", };
	u64 nbytes = 0;
	FILE *f;
	int ret;

	if (!session.evlist)
		setup();
	in_pidns = !(size & 1);
	nsi_in_pidns = false;
	memset(&session.time_conv, 0, sizeof(session.time_conv));
	if (size & 2) {
		session.time_conv.header.size = sizeof(session.time_conv);
		session.time_conv.time_mult = 3;
		session.time_conv.time_zero = 1000;
		session.time_conv.cap_user_time_zero = 1;
	}
	nmaps = nadded = 0;
	written = 0;
	jit_claims__init(&claims);

	f = fopen(path, "w");
	if (!f)
		abort();
	if (size && fwrite(data, size, 1, f) != 1)
		abort();
	fclose(f);

	/* the marker mmap: the whole jitdump is read and injected */
	ret = jit_process(&session, &out, &machine, &claims, path, PID, PID,
			  (size & 4) ? 256 : 0, &nbytes);
	if (refs)
		abort();
	if (ret == 1 && nbytes != written)
		abort();	/* inject would count the wrong size */

	check_merged();
	after_jitdump();
	jit_claims__exit(&claims);
	threads_remove();
	cleanup_elves();
	return 0;
}
