#!/usr/bin/env bash
# Runs every fuzz target of ksuid/, objectid/, uuidv7/ and gormplugin/
# for FUZZTIME each (make fuzz), and prints one verdict per target with
# its execution count.
#
# Go's fuzzing coordinator sometimes reports "--- FAIL" with "context
# deadline exceeded" right at the end of -fuzztime without any failing
# input (a race in the engine, not in the code). A real failure always
# saves its input under testdata/fuzz/<target>/. So a FAIL that saved no
# new input and mentions the deadline is run once more; a FAIL that saved
# an input, or happens twice, fails this script.
set -uo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}
PARALLEL=${FUZZ_PARALLEL:-$(nproc)}
status=0

corpus_count() { find "$1/testdata/fuzz/$2" -type f 2>/dev/null | wc -l; }

run_target() {
	local pkg=$1 target=$2 log before after
	log=$(mktemp)
	before=$(corpus_count "$pkg" "$target")
	$GO test -C "$pkg" -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" -parallel "$PARALLEL" . >"$log" 2>&1
	local rc=$?
	after=$(corpus_count "$pkg" "$target")
	local execs
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	if [ $rc -eq 0 ]; then
		echo "fuzz: $pkg $target ok, about ${execs:-?} executions in $FUZZTIME"
		rm -f "$log"
		return 0
	fi
	if [ "$after" -eq "$before" ] && grep -q 'context deadline exceeded' "$log"; then
		echo "fuzz: $pkg $target: the fuzzing engine stopped at its deadline without a failing input (${execs:-?} executions)"
		rm -f "$log"
		return 2
	fi
	if [ "$after" -gt "$before" ]; then
		echo "fuzz: $pkg $target FAILED; the failing input is saved under $pkg/testdata/fuzz/$target:"
	else
		echo "fuzz: $pkg $target FAILED:"
	fi
	cat "$log"
	rm -f "$log"
	return 1
}

for pkg in ksuid objectid uuidv7 gormplugin; do
	for target in $($GO test -C "$pkg" -list '^Fuzz' . | grep '^Fuzz'); do
		run_target "$pkg" "$target"
		rc=$?
		if [ $rc -eq 2 ]; then
			echo "fuzz: running $pkg $target once more"
			run_target "$pkg" "$target" || status=1
		elif [ $rc -ne 0 ]; then
			status=1
		fi
	done
done
exit $status
