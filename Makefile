# poddoc: the two commands a newcomer needs are `make tour` and `make test`.
# Both install missing system libraries first (scripts/bootstrap.sh), then build.

SWIFT ?= swift
# The toolchain's DocC compiler (`make docs`).
DOCC ?= docc

.PHONY: tour store-tour doc-snippets lint test build-tests test-unit test-tsan test-fuzz test-crash test-two-hosts test-syncthing fuzz bench samples sample-documents cli-docs docs format bench-harness bench-e2e bench-check bench-thresholds bootstrap clean

## The main job: a tour of the `poddoc` command on the built-in sample (scripts/tour.sh).
tour: bootstrap
	$(SWIFT) build --product poddoc
	scripts/tour.sh

## The object store's own tour (contexts, live results, conflicts).
store-tour: bootstrap
	$(SWIFT) build --product store-tour
	.build/debug/store-tour SampleDocuments/specs-2014-sample.json

## The whole test suite: the lint, every test, the store tests under ThreadSanitizer, every
## fuzz target for a bounded time, the crash test at full length, the two-host and Syncthing
## tests, the benchmarks' malloc thresholds and the DocC build with warnings as errors (see
## docs/RELIABILITY.md). A fresh clone takes about 30 minutes on the project machine (2 cores),
## the builds included.
test: lint test-unit test-tsan test-fuzz test-crash test-two-hosts test-syncthing bench-check docs

# One build of every target (tests, poddoc-fuzz, poddoc-crash-child) for all the test steps.
build-tests: bootstrap
	$(SWIFT) build --build-tests

test-unit: build-tests
	$(SWIFT) test --skip-build

# The store and its tests as a package of their own (Tests/ThreadSanitizer), so the sanitizer
# build does not rebuild every other module and dependency. The results-controller property
# test runs 100 of its 1,000 sequences there (the unit run does all of them).
test-tsan: bootstrap
	cd Tests/ThreadSanitizer && $(SWIFT) build --build-tests --sanitize=thread
	cd Tests/ThreadSanitizer && PODDOC_PROPERTY_SEQUENCES=100 $(SWIFT) test --skip-build --sanitize=thread

## Every fuzz target for FUZZ_SECONDS seconds each; e.g. `make fuzz FUZZ_SECONDS=600` for a
## long run, or `.build/debug/poddoc-fuzz opml --seconds 3600` for one target.
FUZZ_SECONDS ?= 5
test-fuzz fuzz: build-tests
	.build/debug/poddoc-fuzz --seconds $(FUZZ_SECONDS) --fixtures Tests/Fixtures

## `poddoc crash-test`: CRASH_CYCLES kills per kind (pods, outline), format (package,
## archive) and seed (CRASH_SEEDS), the four kinds and formats in parallel, each through its
## seeds in turn; then the same for a copy of the task-list example's document (an app's own
## kind, edited from its model), both formats in parallel. Each JSON report goes to
## .build/crash-reports/.
CRASH_CYCLES ?= 200
CRASH_SEEDS ?= 1 2
## Upgrades of a model-1 outline killed, per format (`crash-test --kind migration`).
MIGRATION_CRASH_CYCLES ?= 40
test-crash: build-tests
	@rm -rf .build/crash-reports; mkdir -p .build/crash-reports
	@status=0; pids=""; \
	for kind in pods outline; do for format in package archive; do \
		( for seed in $(CRASH_SEEDS); do \
			.build/debug/poddoc crash-test --kind $$kind --format $$format --cycles $(CRASH_CYCLES) --seed $$seed --json \
				> .build/crash-reports/crash-$$kind-$$format-$$seed.json || exit 1; \
		done ) & pids="$$pids $$!"; \
	done; done; \
	for pid in $$pids; do wait $$pid || status=1; done; \
	for format in package archive; do \
		.build/debug/poddoc crash-test --kind migration --format $$format --cycles $(MIGRATION_CRASH_CYCLES) --seed 1 --json \
			> .build/crash-reports/crash-migration-$$format-1.json || status=1; \
	done; \
	.build/debug/task-list .build/crash-reports/example > /dev/null || status=1; \
	pids=""; for format in package archive; do \
		( for seed in $(CRASH_SEEDS); do \
			.build/debug/poddoc crash-test --from .build/crash-reports/example/Chores.poddoc --format $$format \
				--cycles $(CRASH_CYCLES) --seed $$seed --json > .build/crash-reports/crash-tasklist-$$format-$$seed.json || exit 1; \
		done ) & pids="$$pids $$!"; \
	done; \
	for pid in $$pids; do wait $$pid || status=1; done; \
	cat .build/crash-reports/*.json; echo; exit $$status

## Two hosts in network namespaces sharing documents (root only; skipped otherwise).
test-two-hosts: build-tests
	scripts/two-hosts.sh .build/debug/poddoc

## Two real Syncthing instances (Debian's syncthing, loopback only) share an archive and a
## package document edited on both sides while the link is down; poddoc merges the conflict
## copies Syncthing keeps.
test-syncthing: build-tests
	scripts/syncthing.sh .build/debug/poddoc

## Benchmarks, release builds: the harness, then the end-to-end runs; results go into
## docs/BENCHMARKS.md by hand.
bench: bench-harness bench-e2e

# The benchmarks are a package of their own (Benchmarks/Package.swift, which depends on this
# one), so that the package apps depend on carries no benchmark dependency.
BENCH_PACKAGE = $(SWIFT) package --package-path Benchmarks --disable-sandbox
# The harness's malloc counts differ from one toolchain to the next: thresholds are kept per
# Swift major.minor, in Benchmarks/Thresholds/<version>.
SWIFT_MINOR := $(shell $(SWIFT) --version 2>/dev/null | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)
BENCH_THRESHOLDS_DIR = $(CURDIR)/Benchmarks/Thresholds/$(SWIFT_MINOR)

## The harness (ordo-one/benchmark): each benchmark beside its floor, with wall and CPU time,
## malloc counts, peak memory and the main actor's longest stall; BENCH_FILTER picks some by
## regular expression.
BENCH_FILTER ?= .*
bench-harness: bootstrap
	$(BENCH_PACKAGE) benchmark run --target PodDocHarness --filter '$(BENCH_FILTER)' --no-progress

## The end-to-end runs (HTTP import, the whole index, archives against tar, the million-item
## outline, the command line's outline import against Python and sqlite3); BENCHMARKS picks
## subcommands, all by default.
bench-e2e: bootstrap
	$(SWIFT) build --package-path Benchmarks -c release --product poddoc-bench
	$(SWIFT) build -c release --product poddoc
	PODDOC_BINARY="$(CURDIR)/.build/release/poddoc" Benchmarks/.build/release/poddoc-bench $(BENCHMARKS)

# The harness's malloc counts (p90) against the thresholds: stable on a shared machine, unlike
# times. Floors and the main-actor benchmark have no threshold.
BENCH_THRESHOLDS = $(BENCH_PACKAGE) benchmark thresholds
BENCH_SELECTION = --target PodDocHarness --skip '.*\.floor-.*' --skip '.*\.main-actor' --metric mallocCountTotal \
	--path "$(BENCH_THRESHOLDS_DIR)" --no-progress

## Fails on more mallocs than Benchmarks/Thresholds/<Swift version> allows (2%, autosave 5%);
## fewer passes with a note to record the new counts. A toolchain with no thresholds yet is
## not checked, and says so. CI runs it.
bench-check: bootstrap
	@mkdir -p .build
	@if [ ! -d "$(BENCH_THRESHOLDS_DIR)" ]; then \
		echo "bench-check: no thresholds for Swift $(SWIFT_MINOR) in Benchmarks/Thresholds; not checked. make bench-thresholds records them (review, then commit)."; \
	elif PODDOC_HARNESS_ITERATIONS=5 $(BENCH_THRESHOLDS) check $(BENCH_SELECTION) 2> .build/bench-check.log; then \
		cat .build/bench-check.log >&2; \
	elif grep -q benchmarkThresholdImprovement .build/bench-check.log; then \
		cat .build/bench-check.log >&2; \
		echo "bench-check: fewer mallocs than Benchmarks/Thresholds/$(SWIFT_MINOR): run make bench-thresholds and commit the files"; \
	else \
		cat .build/bench-check.log >&2; exit 1; \
	fi

## Records Benchmarks/Thresholds/<Swift version> from a run on this machine (review, then commit).
bench-thresholds: bootstrap
	@mkdir -p "$(BENCH_THRESHOLDS_DIR)"
	$(BENCH_THRESHOLDS) update $(BENCH_SELECTION)

## Regenerates SampleDocuments/ from ../shared/data (the outputs are committed).
samples:
	python3 scripts/make-samples.py

## Rebuilds the sample documents in SampleDocuments/ with the real poddoc (committed).
sample-documents: bootstrap
	scripts/make-sample-documents.sh

## Regenerates the shell completions and the man page from the command definitions (committed).
cli-docs: bootstrap
	scripts/make-cli-docs.sh

## Writes Tests/PodDocContentTests/DocumentationSnippets.swift again from the Swift snippets of
## README.md and the DocC articles (compiled with the tests), then builds them.
doc-snippets: bootstrap
	WRITE_SNIPPETS=1 $(SWIFT) test --filter DocumentationSnippetsTests
	$(SWIFT) build --build-tests

## The DocC reference and articles of every library module a program uses, in
## .build/docs/<module> (static HTML; `--transform-for-static-hosting`): SwiftPM dumps the
## modules' symbol graphs, and the toolchain's `docc` builds each module's catalog with its
## graphs. Broken symbol links are errors.
DOCS_MODULES = PodDocStore PodDocDocument PodDocArchive PodDocFileSystem Outliner OutlineInterchange PodSpecs PodSpecsServer PodDocTesting
docs: bootstrap
	@graphs=$$($(SWIFT) package dump-symbol-graph --emit-extension-block-symbols | sed -n 's/^Files written to //p'); \
	test -n "$$graphs" || { echo "docs: swift package dump-symbol-graph wrote no symbol graphs" >&2; exit 1; }; \
	for module in $(DOCS_MODULES); do \
		rm -rf .build/docs-graphs/$$module .build/docs/$$module; mkdir -p .build/docs-graphs/$$module .build/docs/$$module; \
		cp "$$graphs/$$module.symbols.json" .build/docs-graphs/$$module/ || exit 1; \
		cp "$$graphs/$$module@"*.symbols.json .build/docs-graphs/$$module/ 2>/dev/null || true; \
		echo "docs: $$module"; \
		$(DOCC) convert Sources/$$module/$$module.docc --additional-symbol-graph-dir .build/docs-graphs/$$module \
			--fallback-display-name $$module --fallback-bundle-identifier org.poddoc.$$module \
			--output-path .build/docs/$$module --transform-for-static-hosting --warnings-as-errors || exit 1; \
	done

## Formats every Swift file with the toolchain's swift-format and .swift-format.
format:
	git ls-files '*.swift' | grep -v '^Tests/ThreadSanitizer/' | xargs $(SWIFT) format format -i --configuration .swift-format

## Every Swift file as `make format` leaves it, and the rules of .swift-format kept (--strict:
## a warning fails). The first step of `make test`.
lint:
	git ls-files '*.swift' | grep -v '^Tests/ThreadSanitizer/' | xargs $(SWIFT) format lint --strict --configuration .swift-format

bootstrap:
	@scripts/bootstrap.sh

clean:
	rm -rf .build .build-tsan Tests/ThreadSanitizer/.build Benchmarks/.build
