#!/usr/bin/env bash
# Installs Debian's Chromium for the browser test of cmd/sortid when no
# Chromium is on the PATH and this runs as root with apt-get; otherwise it
# says why not and exits 0, and the test skips (or fails in CI) with the
# same reason.
set -uo pipefail
for name in chromium chromium-browser google-chrome; do
	command -v "$name" >/dev/null && exit 0
done
if [ -n "${SORTID_CHROMIUM:-}" ]; then
	exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "install-chromium: no Chromium, and installing one needs root and apt-get" >&2
	exit 0
fi
echo "install-chromium: installing Debian's chromium" >&2
out=$(apt-get update 2>&1 && DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 apt-get install -y -q chromium 2>&1) ||
	{ printf '%s\n' "$out" >&2; echo "install-chromium: apt-get failed" >&2; }
exit 0
