// SPDX-License-Identifier: GPL-2.0
/*
 * Write a synthetic perf.data and jitdump shaped like a JIT under
 * perf record -k mono (tools/perf/Documentation/perf.data-file-format.txt,
 * jitdump-specification.txt), for benchmarking perf inject --jit.
 *
 * usage: gen-jit-perfdata -o DIR [-n FUNCS] [-k FLIPS] [-s SAMPLES] [-p PIDS] [-d]
 *
 * One JIT pid maps one page per function below the previous one, as LLVM's
 * memory manager does: each mprotect() reports the whole merged range as
 * one growing //anon record, then the JIT writes the function's code load.
 * Then FLIPS W^X flips (one page made writable and executable again: the
 * merged range is reported again) interleave with SAMPLES samples spread
 * over the functions.  With -d, as under perf record -d, the writable page
 * is reported too, before the range.  PIDS other processes add anonymous
 * and file-backed mmaps and samples of their own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/utsname.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/mman.h>

#define JIT_PID		4000007
#define PAGE		4096ULL
#define CODE_SIZE	0x45
#define TOP		0x7f0000000000ULL

struct file_section {
	uint64_t offset, size;
};

struct file_header {
	uint64_t magic, size, attr_size;
	struct file_section attrs, data, event_types;
	uint64_t features[4];
};

struct id_trailer {
	uint32_t pid, tid;
	uint64_t time;
};

static FILE *out;
static uint64_t data_bytes;
static char buf[8192];

static void emit(const void *p, size_t n)
{
	if (fwrite(p, n, 1, out) != 1) {
		perror("write");
		exit(1);
	}
	data_bytes += n;
}

/* An event of @size bytes in buf, then its sample_id_all trailer. */
static void emit_event(size_t size, uint32_t pid, uint64_t time)
{
	struct perf_event_header *h = (void *)buf;
	struct id_trailer id = { pid, pid, time };

	memcpy(buf + size, &id, sizeof(id));
	h->size = size + sizeof(id);
	emit(buf, h->size);
}

static void emit_mmap2(uint32_t pid, uint64_t time, uint64_t start, uint64_t len,
		       uint32_t prot, const char *name)
{
	struct {
		struct perf_event_header header;
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
		uint32_t maj, min;
		uint64_t ino, ino_generation;
		uint32_t prot, flags;
	} *ev = (void *)buf;
	size_t namelen = (strlen(name) + 1 + 7) & ~7UL;
	int anon = name[0] == '/' && name[1] == '/';

	memset(buf, 0, sizeof(*ev) + namelen);
	ev->header.type = PERF_RECORD_MMAP2;
	ev->header.misc = PERF_RECORD_MISC_USER;
	ev->pid = ev->tid = pid;
	ev->start = start;
	ev->len = len;
	ev->pgoff = anon ? start : 0;
	ev->maj = anon ? 0 : 254;
	ev->ino = anon ? 0 : 1000 + start % 977;
	ev->prot = prot;
	ev->flags = MAP_PRIVATE;
	strcpy(buf + sizeof(*ev), name);
	emit_event(sizeof(*ev) + namelen, pid, time);
}

static void emit_comm(uint32_t pid, uint64_t time, const char *comm)
{
	struct {
		struct perf_event_header header;
		uint32_t pid, tid;
		char comm[16];
	} *ev = (void *)buf;

	memset(ev, 0, sizeof(*ev));
	ev->header.type = PERF_RECORD_COMM;
	ev->pid = ev->tid = pid;
	snprintf(ev->comm, sizeof(ev->comm), "%s", comm);
	emit_event(sizeof(*ev), pid, time);
}

static void emit_sample(uint32_t pid, uint64_t time, uint64_t ip)
{
	struct {
		struct perf_event_header header;
		uint64_t ip;
		uint32_t pid, tid;
		uint64_t time, period;
	} s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) },
		ip, pid, pid, time, 250000 };

	emit(&s, sizeof(s));
}

static void write_code_load(FILE *dump, uint64_t time, uint64_t addr, uint64_t index)
{
	static const unsigned char code[CODE_SIZE] = { 0x90 };
	char name[32];
	size_t namelen = snprintf(name, sizeof(name), "jitfn%llu",
				  (unsigned long long)index) + 1;
	struct {
		uint32_t id, total_size;
		uint64_t timestamp;
		uint32_t pid, tid;
		uint64_t vma, code_addr, code_size, code_index;
	} rec = { 0, sizeof(rec) + namelen + CODE_SIZE, time, JIT_PID, JIT_PID,
		  addr, addr, CODE_SIZE, index };

	if (fwrite(&rec, sizeof(rec), 1, dump) != 1 ||
	    fwrite(name, namelen, 1, dump) != 1 ||
	    fwrite(code, CODE_SIZE, 1, dump) != 1) {
		perror("jitdump");
		exit(1);
	}
}

static uint64_t rnd(void)
{
	static uint64_t x = 88172645463325252ULL;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long nfuncs = 10000, flips = 100000, samples = 1000000, pids = 10;
	int data_mmaps = 0;
	const char *dir = NULL;
	char path[4096], dump_path[4096];
	struct file_header hdr = { 0 };
	struct perf_event_attr attr = { 0 };
	struct file_section ids = { 0, 0 };
	uint64_t t = 1000000000ULL, f, i, steps;
	FILE *dump;
	int c;

	while ((c = getopt(argc, argv, "o:n:k:s:p:d")) != -1) {
		switch (c) {
		case 'o': dir = optarg; break;
		case 'n': nfuncs = strtoul(optarg, NULL, 0); break;
		case 'k': flips = strtoul(optarg, NULL, 0); break;
		case 's': samples = strtoul(optarg, NULL, 0); break;
		case 'p': pids = strtoul(optarg, NULL, 0); break;
		case 'd': data_mmaps = 1; break;
		default: goto usage;
		}
	}
	if (!dir || !nfuncs) {
usage:
		fprintf(stderr, "usage: %s -o DIR [-n FUNCS] [-k FLIPS] [-s SAMPLES] [-p PIDS] [-d]\n",
			argv[0]);
		return 2;
	}

	snprintf(dump_path, sizeof(dump_path), "%s/jit-%d.dump", dir, JIT_PID);
	dump = fopen(dump_path, "w");
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	out = fopen(path, "w");
	if (!dump || !out) {
		perror(dir);
		return 1;
	}
	{
		struct {
			uint32_t magic, version, total_size, elf_mach, pad1, pid;
			uint64_t timestamp, flags;
		} jh = { 0x4A695444, 1, 40, 62, 0, JIT_PID, t, 0 };

		fwrite(&jh, sizeof(jh), 1, dump);
	}

	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 250000;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_PERIOD;
	attr.sample_id_all = 1;
	attr.mmap = attr.mmap2 = attr.comm = attr.task = 1;
	attr.mmap_data = data_mmaps;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;

	hdr.magic = 0x32454c4946524550ULL;	/* "PERFILE2" */
	hdr.size = sizeof(hdr);
	hdr.attr_size = sizeof(attr) + sizeof(ids);
	hdr.attrs.offset = sizeof(hdr);
	hdr.attrs.size = hdr.attr_size;
	hdr.data.offset = hdr.attrs.offset + hdr.attrs.size;
	fwrite(&hdr, sizeof(hdr), 1, out);
	fwrite(&attr, sizeof(attr), 1, out);
	fwrite(&ids, sizeof(ids), 1, out);
	data_bytes = 0;

	/* Other processes: a binary, libc, anonymous memory of their own. */
	for (i = 0; i < pids; i++) {
		uint32_t pid = 1000 + i;

		emit_comm(pid, t++, "other");
		emit_mmap2(pid, t++, 0x400000, 0x100000, PROT_READ | PROT_EXEC, "/usr/bin/other");
		emit_mmap2(pid, t++, TOP, 16 * PAGE, PROT_READ | PROT_WRITE, "//anon");
		emit_mmap2(pid, t++, TOP - 64 * PAGE, 4 * PAGE, PROT_READ | PROT_EXEC, "//anon");
	}

	/* The JIT: its binary, the jitdump marker, then one page per function. */
	emit_comm(JIT_PID, t++, "jit");
	emit_mmap2(JIT_PID, t++, 0x400000, 0x200000, PROT_READ | PROT_EXEC, "/usr/bin/jit");
	emit_mmap2(JIT_PID, t++, 0x7e0000000000ULL, PAGE, PROT_READ | PROT_EXEC, dump_path);
	for (f = 0; f < nfuncs; f++) {
		uint64_t start = TOP - f * PAGE;

		t += 1000;
		emit_mmap2(JIT_PID, t, start, (f + 1) * PAGE, PROT_READ | PROT_EXEC, "//anon");
		write_code_load(dump, t + 500, start, f + 1);
	}

	/* W^X flips and samples, interleaved. */
	steps = flips > samples ? flips : samples;
	for (i = 0; i < steps; i++) {
		t += 1000;
		if (flips && i % (steps / flips) == 0) {
			uint64_t page = TOP - (rnd() % nfuncs) * PAGE;
			uint64_t low = TOP - (nfuncs - 1) * PAGE;

			if (data_mmaps)
				emit_mmap2(JIT_PID, t, page, PAGE, PROT_READ | PROT_WRITE,
					   "//anon");
			emit_mmap2(JIT_PID, t + 1, low, nfuncs * PAGE,
				   PROT_READ | PROT_EXEC, "//anon");
		}
		if (samples && i % (steps / samples) == 0) {
			uint64_t r = rnd();

			if (r % 10)
				emit_sample(JIT_PID, t + 2,
					    TOP - (r / 16 % nfuncs) * PAGE + r % CODE_SIZE);
			else
				emit_sample(1000 + r / 16 % (pids ?: 1), t + 2,
					    TOP - 64 * PAGE + r % PAGE);
		}
	}

	hdr.data.size = data_bytes;
	/*
	 * perf record always writes HEADER_ARCH; with it perf knows the
	 * machine of a thread whose binaries it cannot read (here they do not
	 * exist, as for perf.data looked at on another machine).
	 */
	{
		struct {
			struct file_section sec;
			uint32_t len;
			char name[128];	/* NAME_ALIGN, room for a utsname machine */
		} arch = {
			.sec.offset = hdr.data.offset + data_bytes + sizeof(arch.sec),
			.sec.size = sizeof(arch.len) + sizeof(arch.name),
			.len = sizeof(arch.name),
		};
		struct utsname u;

		if (!uname(&u))
			snprintf(arch.name, sizeof(arch.name), "%s", u.machine);

		hdr.features[0] |= 1ULL << 6;	/* HEADER_ARCH */
		if (fwrite(&arch, sizeof(arch), 1, out) != 1) {
			perror("write");
			return 1;
		}
	}
	if (fseek(out, 0, SEEK_SET) || fwrite(&hdr, sizeof(hdr), 1, out) != 1 ||
	    fclose(out) || fclose(dump)) {
		perror("finish");
		return 1;
	}
	printf("%s: %lu functions, %lu flips%s, %lu samples, %lu other pids, %llu bytes of events\n",
	       path, nfuncs, flips, data_mmaps ? " (with data mmaps)" : "", samples, pids,
	       (unsigned long long)data_bytes);
	return 0;
}
