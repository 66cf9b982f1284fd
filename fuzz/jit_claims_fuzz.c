// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the trimming rule of perf inject --jit
 * (tools/perf/util/jit-claims.c), checked against a naive reference that
 * applies the rule unit by unit over a small address space, for a few
 * processes that add claims (at any time, also for a pid before its fork),
 * mmap (in time order), fork (also onto a pid whose old entry is still
 * there) and exec: after every operation the same verdict, exactly the
 * same pieces (start, len, pgoff), the same error when emit fails, and the
 * same four counters.
 *
 * The reference keeps, per pid, the explicit list of the claims it sees:
 * those added for it of a time after its last fork or exec (own), and a
 * copy of its parent's claims of a time up to the fork, taken at the fork
 * (inherited); and per unit of the address space the attributes of the
 * anonymous mapping let through there (a run), if any.  A claim is in
 * effect for an mmap at time t when its time is <= t.  So, where
 * jit-claims.h leaves it open: a claim added to the parent after the fork
 * is never the child's, whatever its time; after a fork the pid has a
 * table when its parent has one (even if none of its claims is of a time
 * up to the fork) or when it kept claims of its own.  FUZZ_TRACE=1 prints
 * the operations of an input as it runs them.
 *
 * Input: one byte of settings, then 8 bytes per operation.  Addresses are
 * BASE + unit * UNIT for units 0..63; BASE is 0 or 2^64 - 64 * UNIT, so
 * that ranges can end at the last byte of the address space or wrap around
 * it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/kernel.h>
#include <perf/event.h>

#include "jit-claims.h"

#define UNITS	64
#define UNIT	16ULL
#define NPIDS	4
#define PID0	1000
#define MAXOPS	512	/* operations per input, so claims per list */

static const struct {
	const char *name;
	bool anon;	/* "//anon", "[anon:" or "/memfd:" at its start */
} names[] = {
	{ "//anon", true }, { "//anon", true }, { "[anon:jit]", true },
	{ "/memfd:code (deleted)", true }, { "//anon (x)", true }, { "[anon:", true },
	{ "/memfd:", true }, { "[anon:jit]", true }, { "//anon", true },
	{ "[heap]", false }, { "/usr/lib/libx.so", false }, { "/dev/zero (deleted)", false },
	{ "[stack]", false }, { "[anon_shmem:s]", false }, { "/SYSV00000000 (deleted)", false },
	{ "/anon_hugepage (deleted)", false }, { "/memfd", false }, { "jitted-1000-1.so", false },
	{ "[vdso]", false }, { "", false }, { "//ano", false }, { "/memfd:code (deleted)", true },
};

static const u32 prots[] = { PROT_READ | PROT_EXEC, PROT_READ, 0, PROT_READ | PROT_WRITE };
static const u32 mflags[] = { MAP_PRIVATE, MAP_SHARED, MAP_PRIVATE | MAP_HUGETLB,
			      MAP_PRIVATE | MAP_ANONYMOUS };
static const int errs[] = { -EIO, -ENOMEM, -ENOSPC, -1 };

struct ref_claim {
	u64 units;		/* bit u: unit u */
	u64 time;
	int id;			/* which add made it */
};

struct ref_pid {
	bool table;		/* jit-claims.c has an entry for the pid */
	int nown;		/* added for the pid since its last fork or exec */
	struct ref_claim own[MAXOPS];
	int ninh;		/* the parent's, of a time up to the fork */
	struct ref_claim inh[MAXOPS];
	int view[UNITS];	/* the attributes of the run there, or NONE */
};

enum { NONE = -1 };

static struct ref_pid ref[NPIDS];
static struct jit_claims jc;
static u64 ref_kept, ref_split, ref_pieces, ref_dropped;
static u64 base;
static int nadds, nstarts;
static int inherited[MAXOPS];	/* by claim id: the start that last inherited it */
static bool trace;

/* What makes two anonymous mappings the same one to perf report. */
struct attr {
	const char *name;
	u64 pgoff_delta, ino, ino_generation;
	u32 prot, flags, maj, min;
};

static struct attr attrs[MAXOPS];
static int nattrs;

static int attr_index(const struct attr *a)
{
	int i;

	for (i = 0; i < nattrs; i++)
		if (!strcmp(attrs[i].name, a->name) && attrs[i].prot == a->prot &&
		    attrs[i].flags == a->flags && attrs[i].pgoff_delta == a->pgoff_delta &&
		    attrs[i].ino == a->ino && attrs[i].ino_generation == a->ino_generation &&
		    attrs[i].maj == a->maj && attrs[i].min == a->min)
			return i;
	attrs[nattrs] = *a;
	return nattrs++;
}

/* Units [s, e) as a mask. */
static u64 units(int s, int e)
{
	u64 hi = e >= UNITS ? ~0ULL : (1ULL << e) - 1;

	return hi & ~((1ULL << s) - 1);
}

static void ref_reset(struct ref_pid *p)
{
	int u;

	p->table = false;
	p->nown = p->ninh = 0;
	for (u = 0; u < UNITS; u++)
		p->view[u] = NONE;
}

/* The units that the claims @p sees cover at time @t. */
static u64 claimed(const struct ref_pid *p, u64 t)
{
	u64 mask = 0;
	int i;

	for (i = 0; i < p->nown; i++)
		if (p->own[i].time <= t)
			mask |= p->own[i].units;
	for (i = 0; i < p->ninh; i++)
		if (p->inh[i].time <= t)
			mask |= p->inh[i].units;
	return mask;
}

static void check_ret(const char *what, int ret)
{
	if (ret) {
		fprintf(stderr, "%s returned %d\n", what, ret);
		abort();
	}
}

static void check_stats(void)
{
	if (jc.kept != ref_kept || jc.split != ref_split || jc.pieces != ref_pieces ||
	    jc.dropped != ref_dropped) {
		fprintf(stderr, "kept %llu split %llu pieces %llu dropped %llu, reference %llu %llu %llu %llu\n",
			(unsigned long long)jc.kept, (unsigned long long)jc.split,
			(unsigned long long)jc.pieces, (unsigned long long)jc.dropped,
			(unsigned long long)ref_kept, (unsigned long long)ref_split,
			(unsigned long long)ref_pieces, (unsigned long long)ref_dropped);
		abort();
	}
}

struct got {
	int n, fail_at, err;
	u64 start[UNITS + 1], len[UNITS + 1], pgoff[UNITS + 1];
};

static int emit(void *arg, u64 start, u64 len, u64 pgoff)
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

static void mismatch(int pid, int s, int e, u64 t, int ret, int want_ret,
		     const struct got *g, int want[][2], int nwant)
{
	int i;

	fprintf(stderr, "pid %d [%d, %d) at %llu: ret %d, reference %d; pieces",
		PID0 + pid, s, e, (unsigned long long)t, ret, want_ret);
	for (i = 0; i < g->n; i++)
		fprintf(stderr, " [%lld +%llu @%#llx)",
			(long long)((g->start[i] - base) / UNIT),
			(unsigned long long)(g->len[i] / UNIT),
			(unsigned long long)g->pgoff[i]);
	fprintf(stderr, ", reference");
	for (i = 0; i < nwant; i++)
		fprintf(stderr, " [%d, %d)", want[i][0], want[i][1]);
	fprintf(stderr, "\n");
	abort();
}

/* An mmap record of process @pid at @t over units [s, s + len). */
static void mmap_op(int pid, u64 t, int s, int len, const struct attr *at, bool anon,
		    int fail_at, int err)
{
	struct ref_pid *p = &ref[pid];
	u64 start = base + s * UNIT;
	int e = s + len, want[UNITS + 1][2], nwant = 0, want_ret, u, a, i, ret;
	struct got g = { .fail_at = fail_at, .err = err, };
	static union perf_event ev;
	u64 claims;

	memset(&ev, 0, sizeof(ev.mmap2));
	ev.mmap2.header.type = PERF_RECORD_MMAP2;
	ev.mmap2.pid = ev.mmap2.tid = PID0 + pid;
	ev.mmap2.start = start;
	ev.mmap2.len = len * UNIT;
	ev.mmap2.pgoff = start + at->pgoff_delta;
	ev.mmap2.ino = at->ino;
	ev.mmap2.ino_generation = at->ino_generation;
	ev.mmap2.prot = at->prot;
	ev.mmap2.flags = at->flags;
	ev.mmap2.maj = at->maj;
	ev.mmap2.min = at->min;
	strcpy(ev.mmap2.filename, at->name);
	ret = jit_claims__mmap(&jc, &ev, t, emit, &g);

	if (!p->table || !len || e > UNITS || !anon) {
		/*
		 * No claims for the pid, an empty range or one that wraps
		 * around (base != 0), or a file mapping: written as it is.
		 */
		if (ret || g.n)
			mismatch(pid, s, e, t, ret, 0, &g, want, 0);
		/* a file mapping replaces the anonymous ones */
		if (p->table && len && e <= UNITS)
			for (u = s; u < e; u++)
				p->view[u] = NONE;
		check_stats();
		return;
	}
	a = attr_index(at);
	claims = claimed(p, t) & units(s, e);
	/*
	 * Without a claim in effect, all of it; else what neither a claim
	 * nor a run of the same attributes covers.
	 */
	for (u = s; u < e; u++) {
		if (claims && ((claims >> u & 1) || p->view[u] == a))
			continue;
		if (nwant && want[nwant - 1][1] == u) {
			want[nwant - 1][1] = u + 1;
		} else {
			want[nwant][0] = u;
			want[nwant][1] = u + 1;
			nwant++;
		}
	}
	want_ret = fail_at < nwant ? err : 1;
	if (ret != want_ret || g.n != min(fail_at, nwant))
		mismatch(pid, s, e, t, ret, want_ret, &g, want, nwant);
	for (i = 0; i < g.n; i++)
		if (g.start[i] != base + want[i][0] * UNIT ||
		    g.len[i] != (u64)(want[i][1] - want[i][0]) * UNIT ||
		    g.pgoff[i] != g.start[i] + at->pgoff_delta)
			mismatch(pid, s, e, t, ret, want_ret, &g, want, nwant);
	if (ret < 0) {
		/* perf inject fails: nothing changed */
		check_stats();
		return;
	}
	if (!claims) {
		ref_kept++;
	} else if (nwant) {
		ref_split++;
		ref_pieces += nwant;
	} else {
		ref_dropped++;
	}
	check_stats();
	for (u = s; u < e; u++)
		p->view[u] = a;
}

/* A claim time: around the stream's, before it, or far. */
static u64 op_time(const u8 *op, u64 t)
{
	switch (op[4] & 3) {
	case 0:
		return t + (op[3] & 7);
	case 1:
		return op[3];
	case 2:
		return t - min(t, (u64)(op[3] & 7));
	default:
		return op[3] & 0x80 ? ~0ULL : (u64)op[3] << 8;
	}
}

/* jitdump.c claims the code of a jitted map for process @pid. */
static void add_op(int pid, int s, int len, bool to_end, u64 ct)
{
	struct ref_pid *p = &ref[pid];
	u64 start = base + s * UNIT, bytes = to_end ? -start : len * UNIT;

	check_ret("jit_claims__add", jit_claims__add(&jc, PID0 + pid, start, bytes, ct));
	if (to_end)
		len = UNITS - s;	/* up to the last byte: all of the model */
	/* empty or wrapping around: claims nothing, makes no table */
	if (!bytes || (base && s + len > UNITS))
		return;
	if (!p->table) {
		ref_reset(p);
		p->table = true;
	}
	p->own[p->nown++] = (struct ref_claim){ units(s, min(s + len, UNITS)), ct, nadds++ };
}

/* Add @c to what @p inherits, once. */
static void inherit(struct ref_pid *p, const struct ref_claim *c)
{
	if (inherited[c->id] == nstarts)
		return;
	inherited[c->id] = nstarts;
	p->inh[p->ninh++] = *c;
}

/*
 * Process @pid starts at @t: forked from @parent (an index, or -1 for an
 * exec).  It sees its parent's claims of a time up to @t, and keeps those
 * added for it of a later time (a jitdump read before the FORK);
 * what a previous process of that pid had goes, and so do the runs.
 */
static void start_op(int parent, int pid, u64 t, bool synth)
{
	struct ref_pid *p = &ref[pid], *pp = parent < 0 ? NULL : &ref[parent];
	int i, n = 0;

	static union perf_event ev;

	/* a FORK, else an exec: a COMM, or a FORK perf record synthesized */
	memset(&ev, 0, sizeof(ev));
	if (pp) {
		ev.fork.header.type = PERF_RECORD_FORK;
		ev.fork.pid = ev.fork.tid = PID0 + pid;
		ev.fork.ppid = ev.fork.ptid = PID0 + parent;
	} else if (synth) {
		ev.fork.header.type = PERF_RECORD_FORK;
		ev.fork.header.misc = PERF_RECORD_MISC_FORK_EXEC;
		ev.fork.pid = ev.fork.tid = PID0 + pid;
		ev.fork.ppid = ev.fork.ptid = 1;
	} else {
		ev.comm.header.type = PERF_RECORD_COMM;
		ev.comm.header.misc = PERF_RECORD_MISC_COMM_EXEC;
		ev.comm.pid = ev.comm.tid = PID0 + pid;
	}
	check_ret("jit_claims__task", jit_claims__task(&jc, &ev, t));

	for (i = 0; i < p->nown; i++)
		if (p->own[i].time > t)
			p->own[n++] = p->own[i];
	p->nown = n;
	p->ninh = 0;
	nstarts++;
	if (pp && pp->table) {
		for (i = 0; i < pp->nown; i++)
			if (pp->own[i].time <= t)
				inherit(p, &pp->own[i]);
		for (i = 0; i < pp->ninh; i++)
			if (pp->inh[i].time <= t)
				inherit(p, &pp->inh[i]);
	}
	p->table = (pp && pp->table) || p->nown;
	for (i = 0; i < UNITS; i++)
		p->view[i] = NONE;
	if (!p->table)
		ref_reset(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	u64 t = 0, now;
	bool timeless;
	size_t off;
	int i;

	if (size < 1 || size > 1 + 8 * MAXOPS)
		return 0;
	base = data[0] & 1 ? -(UNITS * UNIT) : 0;
	/* records without PERF_SAMPLE_TIME: their time is -1ULL */
	timeless = (data[0] & 6) == 6;
	for (i = 0; i < NPIDS; i++)
		ref_reset(&ref[i]);
	ref_kept = ref_split = ref_pieces = ref_dropped = 0;
	nattrs = nadds = 0;
	nstarts = 1;
	memset(inherited, 0, sizeof(inherited));
	jit_claims__init(&jc);

	for (off = 1; off + 8 <= size; off += 8) {
		const u8 *op = data + off;
		int kind = op[0] & 7, pid = (op[0] >> 3) % NPIDS;
		int s = op[1] % UNITS, len = op[2] % (UNITS + 1);

		switch (kind) {
		case 0:
		case 1: {	/* a code load or move: any time */
			bool to_end = op[2] >= 0xf8 && !base;
			u64 ct = op_time(op, t);

			if (trace)
				fprintf(stderr, "add pid %d [%d, %d%s) time %llu\n", PID0 + pid,
					s, s + len, to_end ? " to the end" : "",
					(unsigned long long)ct);
			add_op(pid, s, len, to_end, ct);
			break;
		}
		case 2:
		case 3:
		case 4: {	/* an mmap record, in time order */
			const char *name = names[op[4] % ARRAY_SIZE(names)].name;
			struct attr at = {
				.name = name,
				.prot = prots[op[5] & 3],
				.flags = mflags[(op[5] >> 2) & 3],
				.ino = (op[5] >> 4) & 1,
				.ino_generation = (op[5] >> 5) & 1,
				.maj = (op[5] >> 6) & 1,
				.min = op[5] >> 7,
			};
			u64 start = base + s * UNIT;
			int fail_at = INT32_MAX, err = 0;

			switch (op[6] & 3) {
			case 0:		/* pgoff == start, as perf record reports //anon */
				break;
			case 1:
				at.pgoff_delta = UNIT * (op[6] >> 2);
				break;
			case 2:		/* a fixed pgoff: the delta varies with start */
				at.pgoff_delta = -start;
				break;
			default:
				at.pgoff_delta = UNIT * (op[6] >> 2) - start;
				break;
			}
			if ((op[7] & 0xf0) == 0xf0) {
				fail_at = op[7] & 3;
				err = errs[(op[7] >> 2) & 3];
			}
			if (!base && s + len > UNITS)
				len = UNITS - s;	/* stay inside the model */
			t += op[3] & 15;
			now = timeless ? ~0ULL : t;
			if (trace)
				fprintf(stderr, "mmap pid %d [%d, %d) time %llu \"%s\" prot %u flags %#x ino %llu/%llu dev %u:%u pgoff-start %#llx fail_at %d err %d\n",
					PID0 + pid, s, s + len, (unsigned long long)now, name,
					at.prot, at.flags, (unsigned long long)at.ino,
					(unsigned long long)at.ino_generation, at.maj, at.min,
					(unsigned long long)at.pgoff_delta, fail_at, err);
			mmap_op(pid, now, s, len, &at, names[op[4] % ARRAY_SIZE(names)].anon,
				fail_at, err);
			break;
		}
		case 5:		/* exec: COMM with PERF_RECORD_MISC_COMM_EXEC, or synthesized FORK */
			t += op[3] & 15;
			now = timeless ? ~0ULL : t;
			if (trace)
				fprintf(stderr, "exec pid %d time %llu\n", PID0 + pid,
					(unsigned long long)now);
			start_op(-1, pid, now, op[2] & 1);
			check_stats();
			break;
		default: {	/* FORK, pid != ppid: onto any pid, also a used one */
			int child = op[1] % NPIDS;

			t += op[3] & 3;
			now = timeless ? ~0ULL : t;
			if (child == pid) {
				/* a new thread of the process: nothing changes */
				static union perf_event ev;

				ev.fork = (struct perf_record_fork){
					.header.type = PERF_RECORD_FORK, .pid = PID0 + pid,
					.ppid = PID0 + pid, .tid = PID0 + 100 + pid,
				};
				check_ret("jit_claims__task", jit_claims__task(&jc, &ev, now));
				check_stats();
				break;
			}
			if (trace)
				fprintf(stderr, "fork pid %d -> %d time %llu\n", PID0 + pid,
					PID0 + child, (unsigned long long)now);
			start_op(pid, child, now, false);
			check_stats();
			break;
		}
		}
	}

	jit_claims__exit(&jc);
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc; (void)argv;
	trace = !!getenv("FUZZ_TRACE");
	return 0;
}
