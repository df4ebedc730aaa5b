#!/usr/bin/env bash
# Builds the code generator that scripts/test.sh checks the checked-in
# sqlc code with, sqlc v1.31.1, into a cache directory, and prints that
# directory. sqlc is installed with go install, so that its module graph
# stays out of the test modules'; its PostgreSQL parser is C, compiled by
# cgo: about 3.5 minutes the first time on a 2-core machine, seconds after
# (the binary is kept, and the Go build cache). ent's generator needs no
# build step: it is a tool of containers_test's go.mod (go tool ent).
set -euo pipefail
dir=${SORTID_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/sortid-tools}
sqlc_version=v1.31.1
mkdir -p "$dir"
if [ "$("$dir/sqlc" version 2>/dev/null)" != "$sqlc_version" ]; then
	GOBIN="$dir" ${GO:-go} install "github.com/sqlc-dev/sqlc/cmd/sqlc@$sqlc_version"
fi
echo "$dir"
