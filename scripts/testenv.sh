#!/usr/bin/env bash
# Makes the integration-test environment ready and prints, one per line,
# the environment the tests need (NAME=value), for `make test`:
#
#   - a Docker engine: when none answers, dockerd is started in the
#     background, after installing Debian's docker.io (as root, with
#     apt-get) if scripts/install-packages.sh has not;
#   - the images: the official postgres:18 and mongo:8 where they can be
#     pulled, otherwise local stand-ins built without any registry:
#     PostgreSQL 15 from Debian packages (testenv/postgres) and FerretDB
#     (testenv/ferretdb). Stand-ins are tagged by a hash of their sources,
#     so a second run reuses them and takes seconds.
#
# SORTID_TEST_POSTGRES_IMAGE and SORTID_TEST_MONGO_IMAGE, when set, are
# used as they are. When no engine can be had, this script says why on
# stderr and still exits 0: the tests then fail in CI, or skip elsewhere,
# with the same reason.
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
	for _ in $(seq 60); do
		docker info >/dev/null 2>&1 && return 0
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

# hash_of names a folder's contents, so that an edited stand-in is rebuilt.
hash_of() { (cd "$root/$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-12); }

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

build_postgres() {
	local tag="sortid-test/postgres:15-$(hash_of testenv/postgres)"
	if ! have_image "$tag"; then
		local base=sortid-test/debian-postgres-rootfs:15
		if ! have_image "$base"; then
			command -v debootstrap >/dev/null || apt_install debootstrap || return 1
			local suite mirror rootfs
			suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
			mirror=$(debian_mirror)
			rootfs=$(mktemp -d)
			log "building a Debian $suite rootfs with postgresql-15 from $mirror (about a minute)"
			if ! quiet debootstrap --variant=minbase --include=postgresql-15 "$suite" "$rootfs" "$mirror"; then
				log "debootstrap failed"
				rm -rf "$rootfs"
				return 1
			fi
			tar -C "$rootfs" -c . | docker import - "$base" >/dev/null
			rm -rf "$rootfs"
		fi
		log "building $tag"
		DOCKER_BUILDKIT=0 quiet docker build -t "$tag" "$root/testenv/postgres" || return 1
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
		DOCKER_BUILDKIT=0 quiet docker build -t "$tag" "$ctx" || { rm -rf "$ctx"; return 1; }
		rm -rf "$ctx"
	fi
	echo "$tag"
}

# choose NAME DEFAULT BUILDER: the image for NAME, printed as NAME=image.
choose() {
	local name=$1 default=$2 builder=$3 image
	image=${!name:-}
	if [ -z "$image" ]; then
		if pullable "$default"; then
			image=$default
		else
			log "$default cannot be pulled here; using a local stand-in"
			image=$($builder) || { log "could not build the stand-in for $default"; return 1; }
		fi
	fi
	echo "$name=$image"
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
choose SORTID_TEST_POSTGRES_IMAGE postgres:18 build_postgres
choose SORTID_TEST_MONGO_IMAGE mongo:8 build_ferretdb
exit 0
