#!/usr/bin/env bash
# Runs one go command in each of the library's modules, the core and the
# adapters, and fails if it failed in any:
#
#	scripts/gomodules.sh vet ./...
#	scripts/gomodules.sh test -race ./...
#
# With GOMODULES_PARALLEL=1 the modules run at once, each one's output
# printed whole, in order, when all are done. make check uses it: with a
# warm build cache the adapters' tests then run beside the core's longest
# package instead of after it. make test does not: with a cold cache the
# four go commands would each compile the same standard library and
# dependencies at once (a cold clean-clone run took 77 s longer in the
# Go 1.27 step alone).
#
# The core, github.com/sortid/sortid (ksuid, objectid, uuidv7, sqlbytes,
# the command), requires no module; each adapter is a module of its own
# that requires its driver and the core, which its go.mod replaces with
# this checkout (CONTRIBUTING.md, "Modules and releases"). The list is the
# one place that names them; bench/, drivertests/ and containers_test/
# are modules of tests, not of the library.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
LIBRARY_MODULES=". sqltype bsoncodec gormplugin"
if [ "${1:-}" = "--list" ]; then
	echo $LIBRARY_MODULES
	exit 0
fi
status=0
if [ -n "${GOMODULES_PARALLEL:-}" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
	pids=()
	for m in $LIBRARY_MODULES; do
		$GO -C "$m" "$@" >"$out/${#pids[@]}" 2>&1 &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || status=1
		cat "$out/$i"
	done
	exit $status
fi
for m in $LIBRARY_MODULES; do
	$GO -C "$m" "$@" || status=1
done
exit $status
