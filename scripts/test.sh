#!/usr/bin/env bash
# The project's test command, run by `make test` (and so by CI): gofmt and
# vet; the unit tests with the race detector, including the page of
# cmd/sortid in headless Chromium; the allocation tests and the 2^24-ID
# command test without the race detector; the ID packages again as
# GOARCH=386 under qemu, and the clock linked for other platforms; a build
# of the benchmark module; then the integration
# tests against real servers. The integration set-up (Docker engine and
# images, see scripts/testenv.sh) runs in the background during the unit
# tests. The integration package runs from its folder so that its report
# of the servers it used is printed. Exits non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
step() { echo "== $* ($(date -u +%H:%M:%S))"; }

step gofmt
unformatted=$(gofmt -l $(git ls-files '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt needed: $unformatted"
	exit 1
fi
step go vet
$GO vet ./... || exit 1

step packages
scripts/install-packages.sh || exit 1

envfile=$(mktemp)
setuplog=$(mktemp)
trap 'rm -f "$envfile" "$setuplog"' EXIT
scripts/testenv.sh >"$envfile" 2>"$setuplog" &
setup=$!

status=0
step unit tests
$GO test -race ./... || status=1
step tests without the race detector
# Allocation counts (the race detector makes sync.Pool drop items on
# purpose) and the 2^24-ID command test (too slow under it).
$GO test -count=1 -run 'NoAllocs|NeverRepeat' ./ksuid ./objectid ./cmd/sortid || status=1
step "ID packages on GOARCH=386 (under qemu-i386)"
# The clock is read differently on linux/amd64 and elsewhere; both must
# behave the same, in and out of a testing/synctest bubble. This kernel
# cannot run 32-bit binaries itself; Go's asynchronous preemption signals
# crash under qemu's user mode, so they are turned off.
if command -v qemu-i386 >/dev/null; then
	GOARCH=386 GODEBUG=asyncpreemptoff=1 $GO test -count=1 -exec qemu-i386 ./internal/... ./ksuid ./objectid || status=1
elif [ -n "${CI:-}" ]; then
	echo "qemu-i386 is missing (Debian package qemu-user); scripts/install-packages.sh installs it"
	status=1
else
	echo "skipped: qemu-i386 is missing (Debian package qemu-user)"
fi
step "clock links on other platforms"
# internal/wallclock reads the runtime's clock through go:linkname off
# linux/amd64; a link of its test binary shows that the symbol is there.
for target in linux/arm64 darwin/arm64 windows/amd64 js/wasm; do
	GOOS=${target%/*} GOARCH=${target#*/} $GO test -c -o /dev/null ./internal/wallclock || { echo "does not link for $target"; status=1; }
done
step "benchmark and integration modules build"
(cd bench && $GO vet ./...) || status=1
(cd containers_test && $GO vet ./...) || status=1

step integration set-up
wait "$setup"
cat "$setuplog" >&2
step integration tests
(cd containers_test && env $(cat "$envfile") $GO test -race -count=1 -timeout 20m) || status=1
exit $status
