# SPDX-License-Identifier: GPL-2.0
# perf inject --jit: trim anonymous mmaps that overlap injected JIT code.
# The product is the series in patches/ (perf 7.3, for upstream) and its
# backport in patches-6.12/ (for distributions); this Makefile fetches
# Debian's linux-source-$(BASE) (BASE=7.3 by default, or BASE=6.12),
# applies the series and builds, tests and demonstrates it beside a stock
# build.  `make check` covers both bases.  `make help` lists the targets.

SHELL := /bin/bash
export DEB_VERSION BASE BENCH_MAX

# make install: where, and under which name (perf-jit: no Debian package
# ships it, so the distribution's perf stays `perf`; PERF_NAME=perf to
# shadow it from /usr/local/bin).
PREFIX ?= /usr/local
PERF_NAME ?= perf-jit
INSTALL_VARS = PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)' PERF_NAME='$(PERF_NAME)'

.PHONY: all help deps source stock patched build tree export tree-status \
	parity fuzz fuzz-long check-asan build-variants bisect checkpatch submissions check demo e2e bench bench-merged python313 \
	install uninstall deb clean-cache

all: demo ## build the perfs and run the demo (the main job)

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | \
		awk -F':.*## ' '{ printf "  %-15s %s\n", $$1, $$2 }'

deps: ## install the Debian packages the build and tests need
	@scripts/deps.sh

source: deps ## fetch linux-source-$BASE with apt (private config), extract perf's subset
	@scripts/fetch-source.sh

stock: deps ## build build/[6.12-]stock/perf (no patches)
	@scripts/build-perf.sh stock

patched: deps ## build build/[6.12-]patched/perf (the series applied)
	@scripts/build-perf.sh patched

build: stock patched ## build both perfs

tree: deps ## lay out tree/ (tree-6.12/), a git work tree with one commit per patch
	@scripts/tree.sh

export: ## write the tree's commits back to patches/ (patches-6.12/) (git format-patch)
	@scripts/export.sh

tree-status: ## does tree/ hold exactly what patches/ holds?
	@scripts/tree-status.sh

parity: build ## the whole perf test on stock and patched, compared test by test, with reruns of what differs
	@scripts/parity.sh

fuzz: deps ## libFuzzer on the trimming rule against a naive reference (FUZZ_SECONDS=60)
	@scripts/fuzz.sh $(FUZZ_SECONDS)

FUZZ_RUNS ?= 10000000
fuzz-long: deps ## libFuzzer, each target until FUZZ_RUNS=10000000 executions (not in make check)
	@scripts/fuzz.sh -r $(FUZZ_RUNS)

check-asan: deps ## patched perf with ASan+UBSan: the series' tests and e2e clients under it
	@scripts/check-asan.sh

build-variants: deps ## the patched perf with NO_LIBELF=1 and NO_LIBDW=1: warning-free, test passes (skipped without libelf)
	@scripts/build-variants.sh

bisect: deps ## build every prefix of the series (bisectable), run the test where it exists
	@scripts/bisect-check.sh

checkpatch: deps ## the base's scripts/checkpatch.pl --strict over every patch
	@scripts/checkpatch.sh

submissions: deps ## cut submissions/* out of the series, check each as mailed (build/submissions/)
	@scripts/submissions.sh

check: deps ## both bases: build, run every test; ends with "N passed, N failed"
	@scripts/check.sh

demo: build ## the main job: stock vs patched attribution, perf test -w jitdump 6 200 perfmap
	@scripts/demo.sh

# make e2e adds the node-100k client (100,000 V8 functions) and qemu-1m
# (QEMU's emulator, 1.2 million code loads) on 7.3 only: stock 6.12's perf
# script takes 45 minutes (25 of CPU) over node-100k's 100,000 jitted DSOs.
# make check runs scripts/e2e.sh without them (qemu-1m takes 6 minutes).
E2E_BIG ?= $(if $(filter 6.12,$(BASE)),0,1)

e2e: build python313 ## real JIT runtimes (jitdump workload and its main thread exits, lli, node, node that forks, CPython, CPython whose main thread exits, Java; node-100k and qemu-1m on 7.3): patched never worse than stock
	@E2E_BIG=$(E2E_BIG) scripts/e2e.sh

python313: deps ## build CPython 3.13 (-Xperf_jit) from Debian's source into the cache, once
	@scripts/python313.sh

bench: build ## perf inject --jit benchmark: stock vs patched medians and ratios, scaling, node that forks
	@scripts/bench.sh

bench-merged: build ## perf inject --jit-merged-elf vs one file per function vs a one-file write loop, and reading each (PATCHED_PERF=...)
	@scripts/bench-merged.sh

install: deps ## install the patched perf as PREFIX/bin/perf-jit, its JVMTI agent and man pages (PREFIX=/usr/local, DESTDIR, PERF_NAME)
	@$(INSTALL_VARS) scripts/install.sh install

uninstall: ## remove what make install put under DESTDIR/PREFIX (its manifest)
	@$(INSTALL_VARS) scripts/install.sh uninstall

deb: deps ## build/perf-jit_VERSION_ARCH.deb: the install tree (PREFIX=/usr) as a Debian package, lintian-checked
	@scripts/deb.sh

clean-cache: ## remove this version's cache (source and builds)
	@scripts/clean-cache.sh
