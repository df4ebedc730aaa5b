GO ?= go

.PHONY: test bench fuzz

# The project's test command: vet, every test with the race detector, then
# the allocation tests without it (the race detector makes sync.Pool drop
# items on purpose, which those tests would count), and a build of the
# benchmark module.
test:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	$(GO) test -race ./...
	$(GO) test -count=1 -run 'NoAllocs' ./ksuid ./objectid
	cd bench && $(GO) vet ./...

# Benchmarks of sortid against the peer libraries, in one run.
bench:
	cd bench && $(GO) test -run '^$$' -bench . -benchmem -count 5

FUZZTIME ?= 30s

# Each fuzz target for FUZZTIME.
fuzz:
	for pkg in ksuid objectid; do \
		for f in $$($(GO) test -list '^Fuzz' ./$$pkg | grep '^Fuzz'); do \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) ./$$pkg || exit 1; \
		done; \
	done
