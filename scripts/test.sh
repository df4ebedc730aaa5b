#!/usr/bin/env bash
# The project's test command, run by `make test` (and so by CI): gofmt and
# vet; the unit tests with the race detector, in each of the library's
# modules (scripts/gomodules.sh), with gormplugin's on SQLite
# (drivertests/gormsqlite), the migration tables and what a consumer
# downloads (drivertests/migrate, modgraph); the page of cmd/sortid in headless Chromium
# (drivertests/browser); the sortid extension's text codec under
# AddressSanitizer; the allocation tests and the 2^24-ID command test without the race
# detector; the unit tests again under Go 1.27; a build of every Go block
# of README.md and docs/; the ID packages again as
# GOARCH=386 under qemu, and the clock linked for other platforms; vet of
# the benchmark and driver-test modules; the integration tests against
# real servers (PostgreSQL 15, 17 and 18, each with the sortid extension
# and its pg_regress suite, MySQL 9.7, MariaDB 11.8, a MongoDB-wire
# server), each test's name and result shown, with PgBouncer 1.18 (on this
# host) and 1.26 (in the server's container) in transaction pooling in
# front of PostgreSQL 18; last, a check that the checked-in sqlc
# and ent code is what their generators make. The integration set-up
# (Docker engine and images, see scripts/testenv.sh) and the build of
# sqlc (scripts/tools.sh) run in the background during the
# unit tests. Exits non-zero if any step failed.
#
# It leaves nothing running: containers the tests started carry the label
# io.sortid.test and are removed at the end, also after a test timeout or
# Ctrl-C (and any a killed run left are removed before the tests start); a
# dockerd this run started is stopped, one that was running is left alone.
# In CI a container left behind by the tests fails the run.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
step() { echo "== $* ($(date -u +%H:%M:%S))"; }

step gofmt
# Every .go file of the tree, git checkout or not; no files is a failure,
# not a pass (gofmt -l with no arguments would read stdin).
gofiles=$(find . -name '*.go' -not -path './.git/*')
if [ -z "$gofiles" ]; then
	echo "gofmt: no .go files found under $(pwd)"
	exit 1
fi
unformatted=$(gofmt -l $gofiles)
if [ -n "$unformatted" ]; then
	echo "gofmt needed: $unformatted"
	exit 1
fi
step go vet
# Each of the library's modules: the core and the adapters.
GO=$GO scripts/gomodules.sh vet ./... || exit 1

step packages
scripts/install-packages.sh || exit 1

run=$(mktemp -d)
envfile=$run/env setuplog=$run/setup.log
export SORTID_DOCKERD_PIDFILE=$run/dockerd.pid
label=io.sortid.test

# stop_test_pgbouncers ends the PgBouncer processes the integration tests
# start on this host (containers_test/pgbouncer_setup_test.go). They end
# with the test binary; one a killed binary left (PgBouncer drops root for
# the postgres user, which clears the death signal) is ended here.
stop_test_pgbouncers() {
	pkill -f 'sortid-pgbouncer-.*/pgbouncer\.ini' 2>/dev/null
	return 0
}

# remove_test_containers removes every container and image the tests
# marked with the label, if an engine answers.
remove_test_containers() {
	docker info >/dev/null 2>&1 || return 0
	local ids
	ids=$(docker ps -aq --filter "label=$label")
	[ -n "$ids" ] && docker rm -f $ids >/dev/null
	ids=$(docker image ls -q --filter "label=$label")
	[ -n "$ids" ] && docker image rm -f $ids >/dev/null
	return 0
}

finish() {
	if [ -n "${setup:-}" ] && kill -0 "$setup" 2>/dev/null; then
		kill "$setup" 2>/dev/null
		wait "$setup" 2>/dev/null
	fi
	if [ -n "${vet:-}" ] && kill -0 "$vet" 2>/dev/null; then
		kill "$vet" 2>/dev/null
		wait "$vet" 2>/dev/null
	fi
	if [ -n "${tools:-}" ] && kill -0 "$tools" 2>/dev/null; then
		kill "$tools" 2>/dev/null
		wait "$tools" 2>/dev/null
	fi
	stop_test_pgbouncers
	remove_test_containers
	if [ -s "$SORTID_DOCKERD_PIDFILE" ]; then
		local pid
		pid=$(cat "$SORTID_DOCKERD_PIDFILE")
		echo "== stopping the dockerd this run started (pid $pid)"
		kill "$pid" 2>/dev/null
		for _ in $(seq 30); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 1
		done
		kill -0 "$pid" 2>/dev/null && echo "dockerd (pid $pid) did not stop within 30 s"
	fi
	rm -rf "$run"
}
trap finish EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

scripts/testenv.sh >"$envfile" 2>"$setuplog" &
setup=$!
# The code generator whose output is checked in (sqlc), built once per
# machine, in the background at the lowest priority: on a fresh machine
# it is minutes of compiling, which then fills the time the other steps
# leave the CPU idle (downloads, servers starting) instead of slowing
# them. Its check runs last.
nice -n 19 scripts/tools.sh >"$run/tools" 2>"$run/tools.log" &
tools=$!
# The Go 1.27 toolchain (about 76 MB through the module proxy, once per
# machine) downloads while the unit tests keep the CPU busy.
GOTOOLCHAIN=go1.27.3 $GO version >"$run/toolchain.log" 2>&1 &

status=0
step unit tests
GO=$GO scripts/gomodules.sh test -race ./... || status=1
# gormplugin on SQLite and the migration tables against segmentio/ksuid
# and mongo-driver: a module of their own (with the browser test below),
# so that their drivers stay out of the library's go.mod.
(cd drivertests && $GO test -race ./gormsqlite/... ./migrate/... ./modgraph/...) || status=1
step "the page in headless Chromium"
# -count=1: the browser test builds and runs the command, which the test
# cache does not see, so a cached pass could hide a changed page.
(cd drivertests && $GO test -race -count=1 ./browser/...) || status=1
step "the extension's text codec under AddressSanitizer"
# The C that reads and writes KSUIDs and ObjectIDs in the sortid
# extension, against a slow reference, with every input in a heap block
# of exactly its size (about 2 s; needs only a C compiler).
make -s -C extension check-idtext || status=1
step tests without the race detector
# Allocation counts (the race detector makes sync.Pool drop items on
# purpose) and the 2^24-ID command test (too slow under it).
$GO test -count=1 -run 'NoAllocs|NeverRepeat' ./ksuid ./objectid ./uuidv7 ./cmd/sortid || status=1
$GO test -C sqltype -count=1 -run 'NoAllocs' . || status=1
step "ID packages on GOARCH=386 (under qemu-i386)"
# The clock is read differently on linux/amd64 and elsewhere; both must
# behave the same, in and out of a testing/synctest bubble. This kernel
# cannot run 32-bit binaries itself; Go's asynchronous preemption signals
# crash under qemu's user mode, so they are turned off. Rarely, on a
# loaded machine, the emulation still breaks: qemu dies ("qemu: uncaught
# target signal", once in a cold CI run on 2026-12-02), or the Go runtime
# under it crashes before any test ran ("fatal error: morestack on g0" in
# runtime.mstart, once in another that day). A package whose test binary
# crashed so, with no test reported failing, is run once more, and must
# pass then; a failed test fails the step at once.
if command -v qemu-i386 >/dev/null; then
	out386=$run/386.log
	if ! GOARCH=386 GODEBUG=asyncpreemptoff=1 $GO test -count=1 -exec qemu-i386 ./internal/... ./ksuid ./objectid ./uuidv7 2>&1 | tee "$out386"; then
		# Each failed package, and 1 if its output (the lines since the
		# package before it) holds a crash of qemu or of the runtime and
		# no failed test.
		verdicts=$(awk '
			/^(ok  |FAIL|\?   )\t/ { if ($1 == "FAIL") print $2, (crash && !failed); crash = 0; failed = 0; next }
			/qemu: uncaught target signal|^fatal error: / { crash = 1 }
			/^--- FAIL/ { failed = 1 }' "$out386")
		crashed=$(echo "$verdicts" | awk '$2 == 1 { print $1 }')
		if [ -n "$crashed" ] && ! echo "$verdicts" | awk '$2 == 0 { bad = 1 } END { exit !bad }'; then
			echo "qemu crashed under" $crashed "; running it again once"
			GOARCH=386 GODEBUG=asyncpreemptoff=1 $GO test -count=1 -exec qemu-i386 $crashed || status=1
		else
			status=1
		fi
	fi
elif [ -n "${CI:-}" ]; then
	echo "qemu-i386 is missing (Debian package qemu-user); scripts/install-packages.sh installs it"
	status=1
else
	echo "skipped: qemu-i386 is missing (Debian package qemu-user)"
fi
step "unit tests under Go 1.27"
# The go directive is 1.26.0 (pgx's x/text and x/sync need it); the next
# release must build and pass too. The go command fetches that toolchain
# through the module proxy (about 76 MB, once per machine).
GOTOOLCHAIN=go1.27.3 GO=$GO scripts/gomodules.sh test -count=1 ./... || status=1
step "clock links on other platforms"
# internal/wallclock reads the runtime's clock through go:linkname off
# linux/amd64; a link of a program that uses it shows that the symbol is
# there (internal/wallclock/linkcheck: about 25 s for the four platforms
# on a fresh 2-core machine, against 90 s for test binaries).
for target in linux/arm64 darwin/arm64 windows/amd64 js/wasm; do
	GOOS=${target%/*} GOARCH=${target#*/} $GO build -o /dev/null ./internal/wallclock/linkcheck || { echo "does not link for $target"; status=1; }
done
step "the Go blocks of README.md and docs/"
GO=$GO scripts/snippets.sh || status=1
# Vet of the benchmark and driver-test modules, compiling what only they
# import, runs in the background at the lowest priority during the
# integration tests, which spend much of their time waiting on servers;
# its output and verdict come after them.
vetlog=$run/vet.log
# With it, the GORM plugin on SQLite under Go 1.27, whose standard
# uuid.UUID keys the plugin fills (a test only that Go release builds).
# And a build of ent's generator, which the last step runs (go tool ent):
# cold, its compile is two minutes that would otherwise come after the
# integration tests.
# And each adapter without its replace, against the core versions it
# allows (scripts/adapters-core.sh).
nice -n 19 bash -c 'cd bench && "$0" vet ./... && cd ../drivertests && "$0" vet ./... &&
	GOTOOLCHAIN=go1.27.3 "$0" test -count=1 ./gormsqlite/... &&
	cd ../containers_test && "$0" build -o /dev/null entgo.io/ent/cmd/ent &&
	cd .. && GO="$0" scripts/adapters-core.sh' "$GO" >"$vetlog" 2>&1 &
vet=$!
# containers_test is not vetted on its own: its tests build it with -race
# below, and go test runs vet's main checks on it then. A separate vet
# would compile its whole dependency tree a second time (about two
# minutes on a fresh 2-core machine).

step integration set-up
wait "$setup"
setup=
cat "$setuplog" >&2
# Containers and PgBouncers a killed earlier run left behind.
remove_test_containers
stop_test_pgbouncers
step integration tests
# -v names every test and its result; the RUN/PAUSE/CONT lines only add
# noise.
(cd containers_test && env $(cat "$envfile") $GO test -race -count=1 -timeout 20m -v 2>&1) |
	sed -u '/^=== \(RUN\|PAUSE\|CONT\)/d' || status=1
step "benchmark and driver-test modules vet; GORM on SQLite under Go 1.27; ent built; adapters against the core"
wait "$vet" || status=1
vet=
cat "$vetlog"
if [ -n "${CI:-}" ] && docker info >/dev/null 2>&1; then
	step "no container left behind"
	left=$(docker ps -a --format '{{.ID}} {{.Image}} {{.Status}}')
	if [ -n "$left" ]; then
		echo "the tests left these containers:"
		echo "$left"
		status=1
	fi
fi
step "generated code is current (sqlc, ent)"
# The sqlc and ent code the integration tests run is checked in; it must
# be what the checked-in configuration and schema generate.
if wait "$tools"; then
	"$(cat "$run/tools")/sqlc" diff -f containers_test/sqlcdb/sqlc.yaml ||
		{ echo "containers_test/sqlcdb is stale: run sqlc generate (v1.31.1) there"; status=1; }
else
	cat "$run/tools.log"
	echo "could not build sqlc (scripts/tools.sh)"
	status=1
fi
tools=
cp -r containers_test/entdb "$run/entdb"
if ! (cd containers_test && $GO generate ./entdb) || ! diff -r "$run/entdb" containers_test/entdb; then
	echo "containers_test/entdb is stale: run go generate ./entdb in containers_test"
	status=1
fi
exit $status
