#!/usr/bin/env bash
# The project's test command, run by `make test` (and so by CI): gofmt and
# vet; the unit tests with the race detector, including the page of
# cmd/sortid in headless Chromium; the allocation tests without the race
# detector (it makes sync.Pool drop items on purpose, which those tests
# would count); a build of the benchmark module; then the integration
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
scripts/install-packages.sh

envfile=$(mktemp)
setuplog=$(mktemp)
trap 'rm -f "$envfile" "$setuplog"' EXIT
scripts/testenv.sh >"$envfile" 2>"$setuplog" &
setup=$!

status=0
step unit tests
$GO test -race $($GO list ./... | grep -v /containers_test) || status=1
step allocation tests
$GO test -count=1 -run NoAllocs ./ksuid ./objectid || status=1
step benchmark module builds
(cd bench && $GO vet ./...) || status=1

step integration set-up
wait "$setup"
cat "$setuplog" >&2
step integration tests
(cd containers_test && env $(cat "$envfile") $GO test -race -count=1 -timeout 20m) || status=1
exit $status
