// SPDX-License-Identifier: GPL-2.0
/*
 * The floor under perf inject --jit-merged-elf: write what it must write
 * for each jitted function (its code bytes appended to one file at a
 * 16-byte boundary, one MMAP2 record whose pgoff is that offset) with a
 * plain loop, and nothing else: no jitdump to parse, no ELF to build, no
 * map to insert.  bench/plain-jit-write.c is the same with one file per
 * function.
 *
 * usage: plain-jit-write-merged DIR N CODE_SIZE
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	char path[4096], so[4096] = "", rec[160], code[4096] = { 0 };
	FILE *out, *elf;
	long i, n, size;
	uint64_t off = 0;
	int len;

	if (argc != 4 || (size = atol(argv[3])) <= 0 || size > (long)sizeof(code) - 16) {
		fprintf(stderr, "usage: %s DIR N CODE_SIZE (at most 4080)\n", argv[0]);
		return 2;
	}
	n = atol(argv[2]);
	len = snprintf(so, sizeof(so), "%s/jitted-4000007-m0.so", argv[1]);
	snprintf(path, sizeof(path), "%s/out.data", argv[1]);
	elf = fopen(so, "w");
	out = fopen(path, "w");
	if (!elf || !out) {
		perror(argv[1]);
		return 1;
	}
	memset(rec, 0, sizeof(rec));
	for (i = 0; i < n; i++) {
		long pad = -size & 15;

		if (fwrite(code, size + pad, 1, elf) != 1) {
			perror(so);
			return 1;
		}
		/* An MMAP2 record: header, fields (pgoff at 32), the name, the id sample. */
		memcpy(rec + 32, &off, sizeof(off));
		if (fwrite(rec, 64, 1, out) != 1 || fwrite(so, (len + 8) & ~7, 1, out) != 1 ||
		    fwrite(rec + 64, 16, 1, out) != 1) {
			perror(path);
			return 1;
		}
		off += size + pad;
	}
	return fclose(elf) || fclose(out) ? 1 : 0;
}
