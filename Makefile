# poddoc: the two commands a newcomer needs are `make tour` and `make test`.
# Both install missing system libraries first (scripts/bootstrap.sh), then build.

SWIFT ?= swift

.PHONY: tour store-tour test test-unit test-tsan bench samples sample-documents cli-docs bootstrap clean

## The main job: a tour of the `poddoc` command on the built-in sample (scripts/tour.sh).
tour: bootstrap
	$(SWIFT) build --product poddoc
	scripts/tour.sh

## The object store's own tour (contexts, live results, conflicts).
store-tour: bootstrap
	$(SWIFT) build --product store-tour
	.build/debug/store-tour SampleDocuments/specs-2014-sample.json

## The whole test suite: every test, then the store tests under ThreadSanitizer.
test: test-unit test-tsan

test-unit: bootstrap
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The store and its tests as a package of their own (Tests/ThreadSanitizer), so the sanitizer
# build does not rebuild every other module and dependency. The results-controller property
# test runs 100 of its 1,000 sequences there (the unit run does all of them).
test-tsan: bootstrap
	cd Tests/ThreadSanitizer && $(SWIFT) build --build-tests --sanitize=thread
	cd Tests/ThreadSanitizer && PODDOC_PROPERTY_SEQUENCES=100 $(SWIFT) test --skip-build --sanitize=thread

## Benchmarks, release build; results go into docs/BENCHMARKS.md by hand.
bench: bootstrap
	$(SWIFT) build -c release --product poddoc-bench
	.build/release/poddoc-bench $(BENCHMARKS)

## Regenerates SampleDocuments/ from ../shared/data (the outputs are committed).
samples:
	python3 scripts/make-samples.py

## Rebuilds the sample documents in SampleDocuments/ with the real poddoc (committed).
sample-documents: bootstrap
	scripts/make-sample-documents.sh

## Regenerates the shell completions and the man page from the command definitions (committed).
cli-docs: bootstrap
	scripts/make-cli-docs.sh

bootstrap:
	@scripts/bootstrap.sh

clean:
	rm -rf .build .build-tsan Tests/ThreadSanitizer/.build
