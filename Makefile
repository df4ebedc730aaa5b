GO ?= go

.PHONY: test check test-unit test-adapters test-integration test-extension test-citus snippets api integration bench bench-cli bench-postgres bench-extension bench-columns bench-citus bench-mongo fuzz

# The project's test command; scripts/test.sh says what it runs.
test:
	GO=$(GO) scripts/test.sh

# The one-minute loop while changing code: nothing but Go and the module
# cache (no Docker, root or test modules): formatting, vet, and the unit
# tests with the race detector of each of the library's four modules
# (scripts/gomodules.sh names them; TestAPI among them compares the
# exported API of all of them with api/sortid.txt, TestCopies and
# TestAdaptersImportNoCoreInternal keep the adapters off the core's
# internal/). make test is what CI runs.
check:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$unformatted" ]; then echo "gofmt needed: $$unformatted"; exit 1; fi
	GO=$(GO) scripts/gomodules.sh vet ./...
	GOMODULES_PARALLEL=1 GO=$(GO) scripts/gomodules.sh test -race ./...

# A build of every Go block in README.md and docs/ (in containers_test's
# module, whose dependencies it downloads).
snippets:
	GO=$(GO) scripts/snippets.sh

# Each adapter without its development replace, against the minimum core
# its go.mod requires and the core at HEAD (scripts/adapters-core.sh).
test-adapters:
	GO=$(GO) scripts/adapters-core.sh

# make check, the docs' snippets and the adapters against the core: what
# needs no Docker.
test-unit: check snippets test-adapters

# The integration tests against real servers in containers: Docker (the
# set-up starts dockerd and builds the images, as root on a fresh
# machine).
test-integration: integration

# The sortid extension: its text codec under ASan and UBSan (a C
# compiler), then the PostgreSQL 15, 17 and 18 images, whose builds
# compile it with -Werror and run its pg_regress suite under the
# sanitizers, and the extension's tests against them (Docker).
test-extension:
	$(MAKE) -s -C extension check-idtext
	cd containers_test && env $$(../scripts/testenv.sh) $(GO) test -count=1 -timeout 20m -run 'TestExtension|TestToExtension|TestPartman|TestTimescale' .

# After a deliberate change to the exported API: rewrite the listing.
api:
	$(GO) test -run '^TestAPI$$' -update-api .

# Only the integration tests, with every container step shown. Unlike
# make test, it leaves a dockerd it started running.
integration:
	cd containers_test && env $$(../scripts/testenv.sh) SORTID_TEST_CONTAINER_LOG=1 $(GO) test -race -count=1 -timeout 20m -v

# Only the Citus cluster's tests (make test runs them with the others):
# the loop while working on them, about a minute and a half warm.
test-citus:
	cd containers_test && env $$(../scripts/testenv.sh) $(GO) test -race -count=1 -timeout 20m -v -run '^TestCitus'

# Benchmarks of sortid against the peer libraries, in one run.
bench:
	cd bench && $(GO) test -run '^$$' -bench '^Benchmark(KSUID|ObjectID)' -benchmem -count 5

# The sortid command against segmentio/ksuid's, a million IDs each.
bench-cli:
	cd bench && $(GO) test -run '^$$' -bench Command -benchtime 3x -count 5

# Loads of 1,000,000 rows into a real PostgreSQL, keyed by each kind of ID:
# from the client (COPY), from one writer and from eight at once, with keys
# the server makes (DEFAULT uuidv7() / ksuid_generate()), and through GORM;
# and 3,000,000 rows into 30 daily partitions against one table; then
# 1,000,000 rows into a KSUID table partitioned by pg_partman, by
# `sortid sql partitions`, and a timestamptz table by pg_partman (5
# rounds inside one run).
bench-postgres:
	cd bench && env $$(../scripts/testenv.sh) $(GO) test -run '^$$' -bench 'Postgres(Load|Writers|Defaults|GORM|Partitions)$$' -benchtime 1x -count 5 -timeout 90m
	cd bench && env $$(../scripts/testenv.sh) $(GO) test -run '^$$' -bench 'PostgresPartman' -benchtime 1x -timeout 60m -v

# The sortid extension on the PostgreSQL 18 test server (Debian's 18.6),
# each side of a pair 5 times: ksuid_generate() and uuidv7_generate()
# against nextval(), uuidv7() and pg_uuidv7's uuid_generate_v7(); id::text
# of KSUIDs against uuids'; a ksuid-keyed INSERT ... SELECT against
# bigserial's; sorting 1,000,000 KSUIDs against uuids (CREATE INDEX, a
# spilled ORDER BY); COPY into the type against the domain and uuid;
# lookups by ID; BRIN against B-tree; and the conversion of 1,000,000
# rows from the domain (sortid sql to-extension). Then the generate and
# COPY pairs on 17 and 15.
bench-extension:
	cd bench && env $$(../scripts/testenv.sh) $(GO) test -run '^$$' -bench 'PostgresExtension' -benchtime 1x -timeout 90m -v
	cd bench && env $$(../scripts/testenv.sh) SORTID_BENCH_PG=17 $(GO) test -run '^$$' -bench 'PostgresExtension(Generate|Copy)' -benchtime 1x -timeout 90m -v
	cd bench && env $$(../scripts/testenv.sh) SORTID_BENCH_PG=15 $(GO) test -run '^$$' -bench 'PostgresExtension(Generate|Copy)' -benchtime 1x -timeout 90m -v

# A KSUID key in the extension's type, the text domain of `sortid sql`
# and the bytea domain of earlier development versions, and a UUIDv7 in
# uuid, on the PostgreSQL 18 test server, 5 rounds: COPY of 1,000,000
# client IDs, the primary key's size, 10,000 lookups by ID.
bench-columns:
	cd bench && env $$(../scripts/testenv.sh) $(GO) test -run '^$$' -bench 'PostgresColumnTypes' -benchtime 1x -timeout 60m -v

# A Citus 14 cluster (a coordinator, two workers) against one server of
# the same image, both with the extension, 5 rounds each: COPY of
# 1,000,000 client KSUIDs into a distributed ksuid key against UUIDv7s
# into uuid, single-row inserts from 8 writers, and a one-day window of
# 30 days' rows by the ID against by a timestamptz column.
bench-citus:
	cd bench && env $$(../scripts/testenv.sh) $(GO) test -run '^$$' -bench 'Citus' -benchtime 1x -timeout 60m -v

# On 100,000 events in a MongoDB-wire server: the filters that match both
# stored forms of a KSUID against the typed value's (with explain), and
# the normalization's documents/s; then 1,000,000 events in each form,
# 5 pairs (insert rate, data and index bytes).
bench-mongo:
	cd bench && env $$(../scripts/testenv.sh) $(GO) test -run '^$$' -bench 'Mongo(Filters|Normalize)' -benchtime 3x -benchmem -count 5 -timeout 60m
	cd bench && env $$(../scripts/testenv.sh) $(GO) test -run '^$$' -bench 'MongoForms' -benchtime 1x -timeout 60m -v
	cd bench && env $$(../scripts/testenv.sh) $(GO) test -run '^$$' -bench 'Mongo(IDInserts|NormalizeLease)' -benchtime 1x -timeout 120m -v

FUZZTIME ?= 30s

# Each fuzz target for FUZZTIME, with a verdict and execution count per
# target (scripts/fuzz.sh tells a fuzzing-engine hiccup from a failure).
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh
