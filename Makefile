GO ?= go

.PHONY: test integration bench bench-cli bench-postgres fuzz

# The project's test command; scripts/test.sh says what it runs.
test:
	GO=$(GO) scripts/test.sh

# Only the integration tests, with every container step shown.
integration:
	cd containers_test && env $$(../scripts/testenv.sh) $(GO) test -race -count=1 -timeout 20m -v

# Benchmarks of sortid against the peer libraries, in one run.
bench:
	cd bench && $(GO) test -run '^$$' -bench '^Benchmark(KSUID|ObjectID)' -benchmem -count 5

# The sortid command against segmentio/ksuid's, a million IDs each.
bench-cli:
	cd bench && $(GO) test -run '^$$' -bench Command -benchtime 3x -count 3

# Loads of 1,000,000 rows into a real PostgreSQL, keyed by each kind of ID.
bench-postgres:
	cd bench && env $$(../scripts/testenv.sh) $(GO) test -run '^$$' -bench PostgresLoad -benchtime 1x -count 3 -timeout 60m

FUZZTIME ?= 30s

# Each fuzz target for FUZZTIME.
fuzz:
	for pkg in ksuid objectid; do \
		for f in $$($(GO) test -list '^Fuzz' ./$$pkg | grep '^Fuzz'); do \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) ./$$pkg || exit 1; \
		done; \
	done
