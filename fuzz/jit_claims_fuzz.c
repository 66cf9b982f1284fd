// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the trimming rule of perf inject --jit
 * (tools/perf/util/jit-claims.c), checked against a naive reference that
 * applies the rule unit by unit over a small address space, for a few
 * processes that add and retire claims, mmap, exec, fork and exit: for
 * each mmap record, the same verdict (kept or trimmed), exactly the same
 * pieces (start, len, pgoff) and the same stats.
 *
 * The tables live where perf inject keeps them, in the priv of the main
 * thread of each process (jit_claims__find/findnew()); the machine and thread
 * functions jit-claims.c calls are stubbed below, over an array of
 * threads, with perf's reference count checking under ASan so that a
 * missing thread__put() shows as a leak.
 *
 * Input: one byte of settings, then 8 bytes per operation.  Addresses are
 * BASE + unit * UNIT for units 0..63; BASE is 0 or 2^64 - 64 * UNIT, so
 * that ranges can wrap around the end of the address space.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "stubs.h"
#include "jit-claims.h"
#include "machine.h"
#include "thread.h"

/* perf's debug.h, in case jit-claims.c says something */
int verbose;
int eprintf(int level, int var, const char *fmt, ...);
int eprintf(int level, int var, const char *fmt, ...)
{
	(void)level; (void)var; (void)fmt;
	return 0;
}

#define UNITS	64
#define UNIT	16ULL
#define NPIDS	3
#define PID0	1000
#define MAXOPS	512	/* operations per input, so claims per process */

/* perf's machine, stubbed: one main thread per process, or none. */
static struct machine the_machine;
static RC_STRUCT(thread) threads[NPIDS];
static bool thread_live[NPIDS];
static long thread_refs;	/* gets not put yet */

static int thread_index(pid_t pid, pid_t tid)
{
	if (pid < PID0 || pid >= PID0 + NPIDS || tid != pid)
		abort();	/* jit-claims.c only asks for main threads */
	return pid - PID0;
}

static struct thread *thread_get(int i)
{
	struct thread *thread;

	if (!ADD_RC_CHK(thread, &threads[i]))
		abort();
	thread_refs++;
	return thread;
}

struct thread *machine__findnew_thread(struct machine *machine, pid_t pid, pid_t tid)
{
	int i = thread_index(pid, tid);

	if (machine != &the_machine)
		abort();
	thread_live[i] = true;
	return thread_get(i);
}

struct thread *machine__find_thread(struct machine *machine, pid_t pid, pid_t tid)
{
	int i = thread_index(pid, tid);

	if (machine != &the_machine)
		abort();
	return thread_live[i] ? thread_get(i) : NULL;
}

void thread__put(struct thread *thread)
{
	if (!thread)
		return;
	thread_refs--;
	RC_CHK_PUT(thread);
}

/* The process leaves the machine: perf calls the priv destructor. */
static void thread_remove(int i)
{
	jit_claims__delete(threads[i].priv);
	threads[i].priv = NULL;
	thread_live[i] = false;
}

/* The table of process i, as perf inject finds it for an mmap record. */
static struct jit_claims *table(int i)
{
	return jit_claims__find(&the_machine, PID0 + i);
}

static const struct {
	const char *name;
	bool anon;	/* what perf report maps as anonymous memory */
} names[] = {
	{ "//anon", true }, { "[anon:jit]", true }, { "/memfd:code (deleted)", true },
	{ "[heap]", true }, { "/usr/lib/libx.so", false }, { "//anon", true },
	{ "/dev/zero (deleted)", true }, { "[stack]", true }, { "//anon (x)", false },
	{ "[anon_shmem:s]", true }, { "/SYSV00000000 (deleted)", true },
	{ "/anon_hugepage (deleted)", true }, { "/memfd", false },
	{ "jitted-1000-1.so", false }, { "[vdso]", false }, { "//anon", true },
};

static const u32 prots[] = { 0, PROT_READ, PROT_READ | PROT_EXEC,
				  PROT_READ | PROT_WRITE };
static const u32 mflags[] = { MAP_PRIVATE, MAP_PRIVATE, MAP_SHARED,
				   MAP_PRIVATE | MAP_HUGETLB };

/* A claim (or a retire) as the reference keeps it. */
struct ref_claim {
	u64 addr;		/* start address */
	int start, end;		/* units, end exclusive; may pass UNITS */
	u64 time;
	bool retire;
};

/* What the reference says perf report sees at each unit of each process. */
enum { NONE = -1 };
struct ref_pid {
	bool table;		/* the process has a claims table */
	int npending;		/* in insertion order */
	struct ref_claim pending[MAXOPS];
	int nactive;
	struct ref_claim active[MAXOPS];
	int view[UNITS];	/* attribute index, or NONE */
};

static struct ref_pid ref[NPIDS];
static struct jit_claims_stats ref_stats, stats;
static u64 base;
static bool trace;

/* What makes two anonymous mappings the same to perf report. */
struct attr {
	const char *name;
	u32 prot, flags;
	u64 pgoff_delta, ino;
};

static struct attr attrs[MAXOPS];
static int nattrs;

static int attr_index(const struct attr *a)
{
	int i;

	for (i = 0; i < nattrs; i++)
		if (!strcmp(attrs[i].name, a->name) && attrs[i].prot == a->prot &&
		    attrs[i].flags == a->flags && attrs[i].pgoff_delta == a->pgoff_delta &&
		    attrs[i].ino == a->ino)
			return i;
	attrs[nattrs] = *a;
	return nattrs++;
}

static void ref_clear_view(struct ref_pid *p)
{
	int u;

	for (u = 0; u < UNITS; u++)
		p->view[u] = NONE;
}

/*
 * The stream reached @t: the pending claims and retires until then take
 * effect, by time, those of the same time in the order they were made.
 */
static void ref_activate(struct ref_pid *p, u64 t)
{
	for (;;) {
		struct ref_claim c;
		int i, j, best = -1;

		for (i = 0; i < p->npending; i++)
			if (p->pending[i].time <= t &&
			    (best < 0 || p->pending[i].time < p->pending[best].time))
				best = i;
		if (best < 0)
			return;
		c = p->pending[best];
		memmove(&p->pending[best], &p->pending[best + 1],
			(p->npending - best - 1) * sizeof(c));
		p->npending--;
		if (!c.retire) {
			p->active[p->nactive++] = c;
			continue;
		}
		for (i = j = 0; i < p->nactive; i++) {
			const struct ref_claim *old = &p->active[i];
			int u;

			if (old->addr != c.addr) {
				p->active[j++] = *old;
				continue;
			}
			/* perf report keeps the moved code's jitted map there */
			for (u = old->start < 0 ? 0 : old->start; u < old->end && u < UNITS; u++)
				p->view[u] = NONE;
		}
		p->nactive = j;
	}
}

static bool claimed(const struct ref_pid *p, int u)
{
	int i;

	for (i = 0; i < p->nactive; i++)
		if (p->active[i].start <= u && u < p->active[i].end)
			return true;
	return false;
}

struct got {
	int n, fail_at, err;
	u64 start[UNITS + 1], len[UNITS + 1], pgoff[UNITS + 1];
};

static int record(void *arg, u64 start, u64 len, u64 pgoff)
{
	struct got *g = arg;

	if (g->n > UNITS)
		abort();	/* more pieces than units: impossible */
	if (g->n == g->fail_at)
		return g->err;
	g->start[g->n] = start;
	g->len[g->n] = len;
	g->pgoff[g->n] = pgoff;
	g->n++;
	return 0;
}

static void check_stats(void)
{
	if (memcmp(&stats, &ref_stats, sizeof(stats))) {
		fprintf(stderr, "stats kept %llu split %llu pieces %llu dropped %llu, reference %llu %llu %llu %llu\n",
			(unsigned long long)stats.kept, (unsigned long long)stats.split,
			(unsigned long long)stats.pieces, (unsigned long long)stats.dropped,
			(unsigned long long)ref_stats.kept,
			(unsigned long long)ref_stats.split,
			(unsigned long long)ref_stats.pieces,
			(unsigned long long)ref_stats.dropped);
		abort();
	}
}

static void mismatch(int pid, int s, int e, u64 t, int ret, int want_ret,
		     const struct got *g, int want[][2], int nwant)
{
	int i;

	fprintf(stderr, "pid %d [%d, %d) at %llu: ret %d, reference %d; pieces",
		pid, s, e, (unsigned long long)t, ret, want_ret);
	for (i = 0; i < g->n; i++)
		fprintf(stderr, " [%llu +%llu @%#llx)",
			(unsigned long long)((g->start[i] - base) / UNIT),
			(unsigned long long)(g->len[i] / UNIT),
			(unsigned long long)g->pgoff[i]);
	fprintf(stderr, ", reference");
	for (i = 0; i < nwant; i++)
		fprintf(stderr, " [%d, %d)", want[i][0], want[i][1]);
	fprintf(stderr, "\n");
	abort();
}

static void mmap_op(int pid, u64 t, int s, int len, const struct attr *at,
		    bool anon, int fail_at)
{
	struct ref_pid *p = &ref[pid];
	u64 start = base + s * UNIT, bytes = len * UNIT;
	struct jit_mmap m = {
		.start = start, .len = bytes, .pgoff = start + at->pgoff_delta,
		.ino = at->ino, .prot = at->prot, .flags = at->flags,
		.filename = at->name,
	};
	struct jit_claims *jc = table(pid);
	int e = s + len, want[UNITS + 1][2], nwant = 0, want_ret, u, a, i, ret;
	struct got g = { .fail_at = fail_at, .err = -EIO, };
	bool any_claim = false;

	if (jit_mmap__is_anon(&m) != anon) {
		fprintf(stderr, "%s flags %#x: anonymous %d, reference %d\n",
			m.filename, m.flags, !anon, anon);
		abort();
	}
	if (!!jc != p->table)
		abort();
	if (!jc)
		return;		/* perf inject writes the record */
	ret = jit_claims__mmap(jc, t, &m, &stats, record, &g);

	/* The reference. */
	if (!len || e > UNITS) {
		/* empty, or wraps around (base != 0): left alone */
		if (ret != JIT_CLAIMS__KEEP || g.n)
			mismatch(pid, s, e, t, ret, JIT_CLAIMS__KEEP, &g, want, 0);
		check_stats();
		return;
	}
	ref_activate(p, t);
	if (!anon) {
		/* ends the claims it covers entirely, and the runs */
		if (ret != JIT_CLAIMS__KEEP || g.n)
			mismatch(pid, s, e, t, ret, JIT_CLAIMS__KEEP, &g, want, 0);
		for (i = a = 0; i < p->nactive; i++)
			if (p->active[i].start < s || p->active[i].end > e)
				p->active[a++] = p->active[i];
		p->nactive = a;
		for (u = s; u < e; u++)
			p->view[u] = NONE;
		check_stats();
		return;
	}
	a = attr_index(at);
	for (u = s; u < e; u++)
		any_claim |= claimed(p, u);
	if (!any_claim) {
		if (ret != JIT_CLAIMS__KEEP || g.n)
			mismatch(pid, s, e, t, ret, JIT_CLAIMS__KEEP, &g, want, 0);
		ref_stats.kept++;
	} else {
		/* what neither a claim nor a run of the same attributes covers */
		for (u = s; u < e; u++) {
			if (claimed(p, u) || p->view[u] == a)
				continue;
			if (nwant && want[nwant - 1][1] == u) {
				want[nwant - 1][1] = u + 1;
			} else {
				want[nwant][0] = u;
				want[nwant][1] = u + 1;
				nwant++;
			}
		}
		want_ret = fail_at < nwant ? -EIO : JIT_CLAIMS__TRIMMED;
		if (ret != want_ret || g.n != (fail_at < nwant ? fail_at : nwant))
			mismatch(pid, s, e, t, ret, want_ret, &g, want, nwant);
		for (i = 0; i < g.n; i++)
			if (g.start[i] != base + want[i][0] * UNIT ||
			    g.len[i] != (u64)(want[i][1] - want[i][0]) * UNIT ||
			    g.pgoff[i] != g.start[i] + at->pgoff_delta)
				mismatch(pid, s, e, t, ret, want_ret, &g, want, nwant);
		if (ret < 0) {
			/* perf inject fails: nothing changed but the time */
			check_stats();
			return;
		}
		if (nwant) {
			ref_stats.split++;
			ref_stats.pieces += nwant;
		} else {
			ref_stats.dropped++;
		}
	}
	check_stats();
	for (u = s; u < e; u++)
		p->view[u] = a;
}

/* A claim or retire time: around the stream's, before it, or far. */
static u64 op_time(const u8 *op, u64 t)
{
	switch (op[4] & 3) {
	case 0:
		return t + (op[3] & 7);
	case 1:
		return op[3];
	case 2:
		return t - (t < (op[3] & 7u) ? t : op[3] & 7u);
	default:
		return op[3] & 0x80 ? ~0ULL : (u64)op[3] << 8;
	}
}

static void add_op(int pid, int s, int len, u64 ct)
{
	struct ref_pid *p = &ref[pid];
	struct jit_claims *jc = jit_claims__findnew(&the_machine, PID0 + pid);

	if (!jc || jit_claims__add(jc, base + s * UNIT, len * UNIT, ct))
		abort();
	p->table = true;
	/* empty or wrapping around: claims nothing */
	if (!len || (base && s + len > UNITS))
		return;
	p->pending[p->npending++] = (struct ref_claim){
		base + s * UNIT, s, s + len, ct, false };
}

static void retire_op(int pid, u64 addr, int s, u64 ct)
{
	struct ref_pid *p = &ref[pid];
	struct jit_claims *jc = jit_claims__findnew(&the_machine, PID0 + pid);

	if (!jc || jit_claims__retire(jc, addr, ct))
		abort();
	p->table = true;
	p->pending[p->npending++] = (struct ref_claim){ addr, s, s, ct, true };
}

/* What perf inject does for a FORK record (pid != ppid) at @t. */
static void fork_op(int parent, int child, u64 t)
{
	struct jit_claims *jc;
	struct thread *thread;

	/* perf's machine replaces any thread of the child's tid */
	if (thread_live[child])
		thread_remove(child);
	thread__put(machine__findnew_thread(&the_machine, PID0 + child, PID0 + child));
	memset(&ref[child], 0, sizeof(ref[child]));
	ref_clear_view(&ref[child]);

	jc = table(parent);
	if (!jc)
		return;
	thread = machine__find_thread(&the_machine, PID0 + child, PID0 + child);
	if (!thread)
		abort();
	thread__set_priv(thread, jit_claims__clone(jc, t));
	if (!thread__priv(thread))
		abort();
	thread__put(thread);
	/* the child gets what is in effect at the fork, not the parent's later code */
	ref_activate(&ref[parent], t);
	ref[child] = ref[parent];
	ref[child].npending = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u64 t = 0;
	bool timeless;
	size_t off;
	int i;

	if (size < 1 || size > 1 + 8 * MAXOPS)
		return 0;
	base = data[0] & 1 ? -(UNITS * UNIT) : 0;
	/* records without PERF_SAMPLE_TIME: the time is -1ULL */
	timeless = (data[0] & 6) == 6;
	memset(ref, 0, sizeof(ref));
	memset(&ref_stats, 0, sizeof(ref_stats));
	memset(&stats, 0, sizeof(stats));
	nattrs = 0;
	for (i = 0; i < NPIDS; i++)
		ref_clear_view(&ref[i]);

	for (off = 1; off + 8 <= size; off += 8) {
		const u8 *op = data + off;
		int kind = op[0] & 7, pid = (op[0] >> 3) % NPIDS;
		int s = op[1] % UNITS, len = op[2] % (UNITS + 1);
		struct ref_pid *p = &ref[pid];
		struct jit_claims *jc;

		if (trace)
			fprintf(stderr, "op %d pid %d s %d len %d b3 %d b4 %d b5 %d b6 %d b7 %d t %llu\n",
				kind, pid, s, len, op[3], op[4], op[5], op[6], op[7],
				(unsigned long long)t);
		switch (kind) {
		case 0:
		case 1:		/* a claim, from a code load or move: any time */
			add_op(pid, s, len, op_time(op, t));
			break;
		case 2:		/* a move retires the old address, maybe none */
			retire_op(pid, base + s * UNIT + ((op[2] & 7) == 7 ? UNIT / 2 : 0),
				  s, op_time(op, t));
			break;
		case 3:
		case 4: {	/* an mmap record, in time order */
			struct attr at = {
				.name = names[op[4] % ARRAY_SIZE(names)].name,
				.prot = prots[op[5] & 3],
				.flags = mflags[(op[5] >> 2) & 3],
				.pgoff_delta = op[6] & 1 ? 0 : UNIT * (op[6] >> 1),
				.ino = (op[5] >> 4) & 1,
			};
			bool anon = names[op[4] % ARRAY_SIZE(names)].anon ||
				    (at.flags & MAP_HUGETLB);

			if (!base && s + len > UNITS)
				len = UNITS - s;	/* stay inside the model */
			t += op[3] & 15;
			mmap_op(pid, timeless ? ~0ULL : t, s, len, &at, anon,
				(op[7] & 0xf0) == 0xf0 ? op[7] & 3 : INT32_MAX);
			break;
		}
		case 5:		/* exec: COMM with PERF_RECORD_MISC_COMM_EXEC */
			t += op[3] & 15;
			jc = table(pid);
			if (!jc)
				break;
			jit_claims__exec(jc, timeless ? ~0ULL : t);
			ref_activate(p, timeless ? ~0ULL : t);
			p->nactive = 0;
			ref_clear_view(p);
			break;
		case 6:		/* exit: the thread leaves perf's machine */
			if (thread_live[pid])
				thread_remove(pid);
			memset(p, 0, sizeof(*p));
			ref_clear_view(p);
			break;
		case 7:		/* fork */
			if (op[1] % NPIDS != pid)
				fork_op(pid, op[1] % NPIDS, timeless ? ~0ULL : t);
			break;
		}
		if (thread_refs)
			abort();	/* a thread__put() missing */
	}

	for (i = 0; i < NPIDS; i++)
		if (thread_live[i])
			thread_remove(i);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	trace = !!getenv("FUZZ_TRACE");
	return 0;
}
