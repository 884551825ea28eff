# poddoc: the two commands a newcomer needs are `make tour` and `make test`.
# Both install missing system libraries first (scripts/bootstrap.sh), then build.

SWIFT ?= swift

.PHONY: tour test build-tests test-unit test-tsan test-fuzz test-crash fuzz bench samples bootstrap clean

## The main job on the built-in sample.
tour: bootstrap
	$(SWIFT) build --product store-tour
	.build/debug/store-tour SampleDocuments/specs-2014-sample.json

## The whole test suite: every test, the store tests under ThreadSanitizer, every fuzz target
## for a bounded time, and the crash test at full length (see docs/RELIABILITY.md).
test: test-unit test-tsan test-fuzz test-crash

# One build of every target (tests, poddoc-fuzz, poddoc-crash-child) for all the test steps.
build-tests: bootstrap
	$(SWIFT) build --build-tests

test-unit: build-tests
	$(SWIFT) test --skip-build

# The store and its tests as a package of their own (Tests/ThreadSanitizer), so the sanitizer
# build does not rebuild every other module and dependency.
test-tsan: bootstrap
	cd Tests/ThreadSanitizer && $(SWIFT) build --build-tests --sanitize=thread
	cd Tests/ThreadSanitizer && $(SWIFT) test --skip-build --sanitize=thread

## Every fuzz target for FUZZ_SECONDS seconds each; e.g. `make fuzz FUZZ_SECONDS=600` for a
## long run, or `.build/debug/poddoc-fuzz opml --seconds 3600` for one target.
FUZZ_SECONDS ?= 10
test-fuzz fuzz: build-tests
	.build/debug/poddoc-fuzz --seconds $(FUZZ_SECONDS) --fixtures Tests/Fixtures

## The crash test, CRASH_CYCLES kills per kind (pods, outline) and format (package, archive),
## the four in parallel; each report goes to .build/crash-reports/ as JSON.
CRASH_CYCLES ?= 200
test-crash: build-tests
	PODDOC_CRASH_CYCLES=$(CRASH_CYCLES) PODDOC_CRASH_REPORTS=.build/crash-reports \
		$(SWIFT) test --skip-build --parallel --num-workers 4 --filter 'CrashTestTests/test(Pods|Outline)'
	@cat .build/crash-reports/*.json | grep -E '"(kind|format|cycles|killsInsideSave|corrupt|savedWorkLost)"' | paste - - - - - - 

## Benchmarks, release build; results go into docs/BENCHMARKS.md by hand.
bench: bootstrap
	$(SWIFT) build -c release --product poddoc-bench
	.build/release/poddoc-bench $(BENCHMARKS)

## Regenerates SampleDocuments/ from ../shared/data (the outputs are committed).
samples:
	python3 scripts/make-samples.py

bootstrap:
	@scripts/bootstrap.sh

clean:
	rm -rf .build .build-tsan Tests/ThreadSanitizer/.build
