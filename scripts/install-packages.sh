#!/usr/bin/env bash
# Installs, in one apt-get run, the Debian packages the tests use and this
# machine lacks, naming each and why first: docker.io (the engine for the
# integration tests), debootstrap (to build the PostgreSQL, MySQL and
# MariaDB stand-in images), chromium (the browser test of cmd/sortid),
# qemu-user (the GOARCH=386 test run), postgresql-client (psql, which the
# integration tests pipe sortid sql into), build-essential (the C
# compiler for the AddressSanitizer test of the extension's text codec;
# the extension itself is built inside each PostgreSQL image), pgbouncer
# (1.18, the connection pooler the integration tests run on this host in
# front of PostgreSQL 18; 1.26 runs in that server's image). It needs
# root and apt-get; elsewhere it says what is missing and exits 0, and
# the tests that need it skip (or fail in CI) with the same reason. With
# SORTID_NO_INSTALL set it installs nothing and exits 1 after the list.
set -uo pipefail

need=()
why=()
add() { need+=("$1"); why+=("$1: $2"); }
command -v dockerd >/dev/null || docker info >/dev/null 2>&1 || add docker.io "the engine for the integration tests"
command -v debootstrap >/dev/null || add debootstrap "builds the PostgreSQL, MySQL and MariaDB stand-in images without a registry"
if [ -z "${SORTID_CHROMIUM:-}" ] && ! command -v chromium >/dev/null &&
	! command -v chromium-browser >/dev/null && ! command -v google-chrome >/dev/null; then
	add chromium "the browser test of cmd/sortid's page"
fi
command -v qemu-i386 >/dev/null || add qemu-user "runs the ID packages' tests as GOARCH=386"
command -v psql >/dev/null || add postgresql-client "psql, which the integration tests pipe sortid sql into"
command -v pgbouncer >/dev/null || [ -x /usr/sbin/pgbouncer ] || add pgbouncer "the pooler the integration tests run in transaction mode in front of PostgreSQL 18"
command -v cc >/dev/null && command -v make >/dev/null || add build-essential "the C compiler and make of the extension's AddressSanitizer test"
[ ${#need[@]} -eq 0 ] && exit 0
for line in "${why[@]}"; do
	echo "install-packages: needed: $line" >&2
done
if [ -n "${SORTID_NO_INSTALL:-}" ]; then
	echo "install-packages: SORTID_NO_INSTALL is set; install the packages above yourself, or unset it" >&2
	exit 1
fi

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
