#!/usr/bin/env bash
# Builds every Go block of README.md and docs/*.md, so that no snippet
# rots: each ```go block is a complete file (package clause, imports),
# written with a //line directive so that an error names the Markdown
# file and line. They build inside the containers_test module, which
# requires every driver the snippets use (pgx, mongo-driver, GORM and its
# PostgreSQL driver, ent), and are vetted as they build. Run by make
# check and so by make test; needs the module cache warm, not the network.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
dir=$(mktemp -d "$PWD/containers_test/snippets_XXXXXX")
trap 'rm -rf "$dir"' EXIT
n=0
for md in README.md docs/*.md; do
	n=$(awk -v md="$md" -v dir="$dir" -v n="$n" '
		/^```go$/ { n++; inblock = 1; out = sprintf("%s/s%03d/main.go", dir, n); system("mkdir -p " dir "/s" sprintf("%03d", n)); printf "//line %s:%d\n", md, NR + 1 > out; next }
		/^```/ && inblock { inblock = 0; close(out); next }
		inblock { print > out }
		END { print n }' "$md")
done
if [ "$n" -eq 0 ]; then
	echo "snippets: no Go blocks found"
	exit 1
fi
echo "snippets: building $n Go blocks"
cd containers_test
$GO vet "./$(basename "$dir")/..."
