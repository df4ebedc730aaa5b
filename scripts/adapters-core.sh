#!/usr/bin/env bash
# Tests each adapter module as a user's build sees it: without the
# development replace of its go.mod, against each core version it allows,
# the minimum it requires and the core at HEAD. A go.work made for the
# check puts that core in place (from git: the tag of the minimum, HEAD's
# tree), so it needs nothing beyond the module cache and the proxy the
# adapter's own dependencies come from. An adapter that
# starts using core API newer than its required version fails against
# the minimum: raise its require to the release that added the API, and
# say so in the CHANGELOG (CONTRIBUTING.md, "Modules and releases").
#
# Until the core's first tag, an adapter requires v0.0.0, which stands
# for the unreleased core: HEAD is then both ends, and the check says so.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
core=github.com/sortid/sortid
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# tree REV DIR [PATH]: the files of REV (under PATH) in DIR.
tree() {
	mkdir -p "$2"
	git archive "$1" ${3:+"$3"} | tar -x -C "$2"
}

tree HEAD "$tmp/core-HEAD"
status=0
for adapter in $(scripts/gomodules.sh --list); do
	[ "$adapter" = . ] && continue
	min=$(cd "$adapter" && $GO list -m -f '{{.Version}}' "$core")
	cores=(HEAD)
	if git rev-parse -q --verify "refs/tags/$min" >/dev/null; then
		tree "$min" "$tmp/core-$min"
		cores=("$min" HEAD)
	elif [ "$min" = v0.0.0 ]; then
		echo "adapters-core: $adapter requires $core $min, the unreleased core: HEAD stands for it"
	else
		echo "adapters-core: $adapter requires $core $min, which is no tag of this repository" >&2
		status=1
		continue
	fi
	for rev in "${cores[@]}"; do
		work="$tmp/$adapter-$rev"
		tree HEAD "$work" "$adapter"
		(cd "$work/$adapter" && $GO mod edit -dropreplace="$core")
		# The workspace's replace stands where the adapter's was: a
		# version of the core that no proxy may have (v0.0.0, or a tag
		# not yet pushed) is read from its tree.
		printf 'go 1.26.0\n\nuse %s\n\nreplace %s => %s\n' "$work/$adapter" "$core" "$tmp/core-$rev" >"$work/go.work"
		echo "adapters-core: $adapter against the core at $rev, without the replace"
		if ! (cd "$work/$adapter" && GOWORK="$work/go.work" $GO test -count=1 ./...); then
			echo "adapters-core: $adapter fails against the core at $rev" >&2
			status=1
		fi
	done
done
exit "$status"
