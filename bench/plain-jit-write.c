// SPDX-License-Identifier: GPL-2.0
/*
 * The floor under perf inject --jit's cost per function: write what it
 * writes for each jitted function (one file of the same bytes as a
 * jitted-PID-N.so, one MMAP2 record appended to the output) with a plain
 * loop, and nothing else: no jitdump to parse, no ELF to build, no map
 * to insert.
 *
 * usage: plain-jit-write DIR N TEMPLATE.so
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

int main(int argc, char **argv)
{
	char path[4096], rec[160], *so;
	struct stat st;
	FILE *out;
	long i, n;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: %s DIR N TEMPLATE.so\n", argv[0]);
		return 2;
	}
	n = atol(argv[2]);
	fd = open(argv[3], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) || !(so = malloc(st.st_size)) ||
	    read(fd, so, st.st_size) != st.st_size) {
		perror(argv[3]);
		return 1;
	}
	close(fd);
	snprintf(path, sizeof(path), "%s/out.data", argv[1]);
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return 1;
	}
	memset(rec, 0, sizeof(rec));
	for (i = 1; i <= n; i++) {
		int len = snprintf(path, sizeof(path), "%s/jitted-4000007-%ld.so", argv[1], i);

		fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
		if (fd < 0 || write(fd, so, st.st_size) != st.st_size || close(fd)) {
			perror(path);
			return 1;
		}
		/* An MMAP2 record: header, fields, the file name, the id sample. */
		if (fwrite(rec, 64, 1, out) != 1 || fwrite(path, (len + 8) & ~7, 1, out) != 1 ||
		    fwrite(rec, 16, 1, out) != 1) {
			perror("out.data");
			return 1;
		}
	}
	return fclose(out) ? 1 : 0;
}
