// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the trimming rule of perf inject --jit
 * (tools/perf/util/jit-claims.c), checked against a naive reference that
 * applies the rule unit by unit over a small address space: for each
 * mmap record, the same verdict (kept or trimmed) and exactly the same
 * pieces, none of them over a claim in effect.
 *
 * Input: 8 bytes per operation.  Addresses are BASE + unit * UNIT for
 * units 0..63; BASE is 0 or 2^64 - 64 * UNIT, so that ranges can run past
 * the end of the address space.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "jit-claims.h"

/* perf's debug.h, for jit-claims.c */
int verbose;
int eprintf(int level, int var, const char *fmt, ...);
int eprintf(int level, int var, const char *fmt, ...)
{
	(void)level; (void)var; (void)fmt;
	return 0;
}

#define UNITS	64
#define UNIT	16ULL
#define NPIDS	2
#define MAXCL	256

static const char *const names[] = {
	"//anon", "[anon:jit]", "/memfd:code (deleted)", "[heap]", "/usr/lib/libx.so",
	"//anon", "/dev/zero", "[stack]",
};
static const uint32_t prots[] = { 0, PROT_READ, PROT_READ | PROT_EXEC,
				  PROT_READ | PROT_WRITE };

struct ref_claim {
	int start, end;		/* units, end exclusive */
	uint64_t time;
	bool live;
};

/* What the reference says perf report sees at each unit of each pid. */
enum { NONE = -1 };
struct ref_pid {
	bool known;		/* has had claims since its last exit */
	int nclaims;
	struct ref_claim claims[MAXCL];
	int view[UNITS];	/* attribute index, or NONE */
};

static struct ref_pid ref[NPIDS];
static uint64_t base;

struct attr {
	const char *name;
	uint32_t prot;
	uint64_t pgoff_delta;
};
static struct attr attrs[64];
static int nattrs;

static int attr_index(const char *name, uint32_t prot, uint64_t delta)
{
	int i;

	for (i = 0; i < nattrs; i++)
		if (!strcmp(attrs[i].name, name) && attrs[i].prot == prot &&
		    attrs[i].pgoff_delta == delta)
			return i;
	if (nattrs == 64)
		abort();
	attrs[nattrs] = (struct attr){ name, prot, delta };
	return nattrs++;
}

static bool is_anon(const char *name)
{
	return strcmp(name, "/usr/lib/libx.so") != 0;
}

static bool claimed(struct ref_pid *p, int u, uint64_t t)
{
	int i;

	for (i = 0; i < p->nclaims; i++)
		if (p->claims[i].live && p->claims[i].time <= t &&
		    p->claims[i].start <= u && u < p->claims[i].end)
			return true;
	return false;
}

struct got {
	int n;
	uint64_t start[UNITS + 1], len[UNITS + 1], pgoff[UNITS + 1];
};

static int record(void *arg, uint64_t start, uint64_t len, uint64_t pgoff)
{
	struct got *g = arg;

	if (g->n > UNITS)
		abort();	/* more pieces than units: impossible */
	g->start[g->n] = start;
	g->len[g->n] = len;
	g->pgoff[g->n] = pgoff;
	g->n++;
	return 0;
}

static void mmap_op(struct jit_claims *jc, int pid, uint64_t t, int s, int len,
		    const char *name, uint32_t prot, uint64_t pgoff_delta)
{
	struct ref_pid *p = &ref[pid];
	uint64_t start = base + s * UNIT, bytes = len * UNIT;
	struct jit_mmap m = {
		.start = start, .len = bytes, .pgoff = start + pgoff_delta,
		.prot = prot, .flags = MAP_PRIVATE, .filename = name,
	};
	bool wraps = bytes && start + bytes - 1 < start;
	int e = s + len > UNITS ? UNITS : s + len;
	struct got g = { 0 };
	int want[UNITS + 1][2], nwant = 0, u, a, i, ret;
	bool any_claim = false;

	ret = jit_claims__mmap(jc, pid, t, &m, record, &g);
	if (ret < 0)
		abort();

	/* The reference. */
	if (!p->known || !len || wraps || s + len > UNITS) {
		/* unknown pid, empty, wrapping, or past our little space */
		if (ret != JIT_TRIM__KEEP || g.n)
			abort();
		if (p->known && len && !wraps && is_anon(name)) {
			/* past the space only when base == 0: keep the model simple */
			for (u = s; u < e; u++)
				p->view[u] = NONE;
		}
		return;
	}
	if (!is_anon(name)) {
		if (ret != JIT_TRIM__KEEP || g.n)
			abort();
		for (i = 0; i < p->nclaims; i++) {
			struct ref_claim *c = &p->claims[i];

			if (c->live && c->time <= t && c->start >= s && c->end <= e)
				c->live = false;
		}
		for (u = s; u < e; u++)
			p->view[u] = NONE;
		return;
	}
	a = attr_index(name, prot, pgoff_delta);
	for (u = s; u < e; u++)
		any_claim |= claimed(p, u, t);
	if (!any_claim) {
		if (ret != JIT_TRIM__KEEP || g.n)
			abort();
	} else {
		for (u = s; u < e; u++) {
			bool out = !claimed(p, u, t) && p->view[u] != a;

			if (!out)
				continue;
			if (nwant && want[nwant - 1][1] == u)
				want[nwant - 1][1] = u + 1;
			else {
				want[nwant][0] = u;
				want[nwant][1] = u + 1;
				nwant++;
			}
		}
		if (ret != JIT_TRIM__TRIMMED || g.n != nwant) {
			fprintf(stderr, "pid %d [%d, %d) at %llu: ret %d, %d pieces, reference %d:",
				pid, s, e, (unsigned long long)t, ret, g.n, nwant);
			for (i = 0; i < g.n; i++)
				fprintf(stderr, " [%llu +%llu)",
					(unsigned long long)((g.start[i] - base) / UNIT),
					(unsigned long long)(g.len[i] / UNIT));
			fprintf(stderr, "\n");
			abort();
		}
		for (i = 0; i < nwant; i++) {
			if (g.start[i] != base + want[i][0] * UNIT ||
			    g.len[i] != (uint64_t)(want[i][1] - want[i][0]) * UNIT ||
			    g.pgoff[i] != g.start[i] + pgoff_delta) {
				fprintf(stderr, "piece %d: [%llu +%llu) pgoff %#llx, reference [%d, %d)\n",
					i, (unsigned long long)((g.start[i] - base) / UNIT),
					(unsigned long long)(g.len[i] / UNIT),
					(unsigned long long)g.pgoff[i], want[i][0], want[i][1]);
				abort();
			}
		}
	}
	for (u = s; u < e; u++)
		p->view[u] = a;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jit_claims *jc = jit_claims__new();
	uint64_t t = 0;
	size_t off;
	int i, u;

	if (!jc || size < 1)
		goto out;
	base = data[0] & 1 ? -(UNITS * UNIT) : 0;
	memset(ref, 0, sizeof(ref));
	nattrs = 0;
	for (i = 0; i < NPIDS; i++)
		for (u = 0; u < UNITS; u++)
			ref[i].view[u] = NONE;

	for (off = 1; off + 8 <= size; off += 8) {
		const uint8_t *op = data + off;
		int kind = op[0] & 3, pid = (op[0] >> 2) & 1;
		int s = op[1] % UNITS, len = op[2] % (UNITS + 1);
		struct ref_pid *p = &ref[pid];

		if (getenv("FUZZ_TRACE"))
			fprintf(stderr, "op %d pid %d s %d len %d b3 %d b4 %d b5 %d b6 %d t %llu\n",
				kind, pid, s, len, op[3], op[4], op[5], op[6],
				(unsigned long long)t);
		switch (kind) {
		case 0: {	/* a claim, from the jitdump: any time */
			uint64_t ct = op[3] | (uint64_t)op[4] << 8;
			uint64_t start = base + s * UNIT, bytes = len * UNIT;

			if (p->nclaims == MAXCL)
				break;	/* the model is full: no more claims */
			if (jit_claims__add(jc, pid, start, bytes, ct))
				abort();
			if (!len)
				break;	/* claims nothing */
			p->known = true;
			/* past the end of the address space: clamped to it */
			p->claims[p->nclaims++] = (struct ref_claim){
				s, base && s + len > UNITS ? UNITS : s + len, ct, true };
			break;
		}
		case 1:		/* an mmap record, in time order */
			if (!base && s + len > UNITS)
				len = UNITS - s;	/* stay inside the model */
			t += op[3] & 15;
			mmap_op(jc, pid, t, s, len, names[op[4] & 7], prots[op[5] & 3],
				op[6] & 1 ? 0 : UNIT * (op[6] >> 1));
			break;
		case 2:		/* exec */
			t += op[3] & 15;
			jit_claims__exec(jc, pid, t);
			for (i = 0; i < p->nclaims; i++)
				if (p->claims[i].time <= t)
					p->claims[i].live = false;
			for (u = 0; u < UNITS; u++)
				p->view[u] = NONE;
			/* with no claim left to come, the pid is forgotten */
			p->known = false;
			for (i = 0; i < p->nclaims; i++)
				p->known |= p->claims[i].live;
			break;
		case 3:		/* exit */
			jit_claims__exit(jc, pid);
			memset(p, 0, sizeof(*p));
			for (u = 0; u < UNITS; u++)
				p->view[u] = NONE;
			break;
		}
	}
out:
	jit_claims__delete(jc);
	return 0;
}
