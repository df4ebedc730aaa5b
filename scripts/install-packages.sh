#!/usr/bin/env bash
# Installs, in one apt-get run, the Debian packages the tests use and this
# machine lacks: docker.io (the engine for the integration tests),
# debootstrap (to build the PostgreSQL stand-in image) and chromium (the
# browser test of cmd/sortid). It needs root and apt-get; elsewhere it
# says what is missing and exits 0, and the tests that need it skip (or
# fail in CI) with the same reason.
set -uo pipefail

need=()
command -v dockerd >/dev/null || docker info >/dev/null 2>&1 || need+=(docker.io)
command -v debootstrap >/dev/null || need+=(debootstrap)
if [ -z "${SORTID_CHROMIUM:-}" ] && ! command -v chromium >/dev/null &&
	! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then
	need+=(chromium)
fi
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "install-packages: missing ${need[*]}, and installing needs root and apt-get" >&2
	exit 0
fi
echo "install-packages: installing ${need[*]}" >&2
if ! out=$(apt-get update 2>&1 &&
	DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 apt-get install -y -q "${need[@]}" 2>&1); then
	printf '%s\n' "$out" >&2
	echo "install-packages: apt-get failed" >&2
fi
exit 0
