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
#   - the images: PostgreSQL 18, 17 and 15 always built here, from
#     Debian's packages (sid, trixie, bookworm) with the sortid extension
#     compiled in each (testenv/postgres); the official mysql:9.7,
#     mariadb:11.8 and mongo:8 where they can be pulled, otherwise
#     stand-ins built without any registry: MySQL 9.7 (sid) and MariaDB
#     11.8 (trixie) from Debian (testenv/mysql), and FerretDB 2.7 on
#     PostgreSQL 18 with DocumentDB 1.0 (sid; testenv/ferretdb); a Citus
#     14.0.1 node (testenv/citus), the PostgreSQL 18 image with Citus
#     compiled from its release source (SORTID_CITUS_ARCHIVE, or
#     ../shared/vendor beside the repository; testenv/citus-build). The Debian servers stand on rootfs images made by
#     debootstrap, one per release, all at once. Everything is tagged by a
#     hash of its sources, so a second run reuses it and takes seconds;
#     stand-in images of other tags (older sources) are removed.
#
# SORTID_TEST_POSTGRES_IMAGE (18), SORTID_TEST_POSTGRES17_IMAGE,
# SORTID_TEST_POSTGRES15_IMAGE, SORTID_TEST_MYSQL_IMAGE,
# SORTID_TEST_MARIADB_IMAGE, SORTID_TEST_MONGO_IMAGE and
# SORTID_TEST_CITUS_IMAGE, when set, are used
# as they are. When no engine
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

# The Debian rootfs images the stand-ins are built on, one per server
# release: NAME, the Debian suite, the packages debootstrap installs
# (comma-separated), packages apt-get then installs in the rootfs, and a
# server-dev package
# whose files are unpacked without its dependencies
# (postgresql-server-dev-NN depends on clang and LLVM, about 1.4 GB, only
# for the JIT's bitcode, which the extension's build leaves out with
# with_llvm=no). gcc, make and libc6-dev build the sortid extension in the
# image itself, against that server's own headers and with that suite's
# compiler (gcc 12, 14, 16). pg_partman (5.2.4 on 17, 5.5.0 on 18) and
# TimescaleDB (2.31.0, Debian's Apache-licensed build, on 18) are there
# for the partition tests; the -dev libraries on 18 are what Citus's
# build needs (testenv/citus-build). "-" is none. MySQL is its server and client
# binaries alone: mysql-server's maintainer scripts want a running
# system, and the image's entrypoint does their set-up.
rootfs_specs=(
	"pg15 bookworm postgresql-15,gcc,make,libc6-dev - postgresql-server-dev-15"
	"pg17 trixie postgresql-17,gcc,make,libc6-dev postgresql-17-partman postgresql-server-dev-17"
	"pg18 sid postgresql-18,postgresql-18-pg-uuidv7,pgbouncer,gcc,make,libc6-dev postgresql-18-partman,postgresql-18-timescaledb,libzstd-dev,liblz4-dev,libkrb5-dev,libicu-dev,libcurl4-openssl-dev,libpq-dev postgresql-server-dev-18"
	"mariadb trixie mariadb-server - -"
	"mysql sid mysql-server-core,mysql-client - -"
	"documentdb sid postgresql-18 postgresql-18-documentdb -"
)

rootfs_tag() {
	echo "sortid-test/rootfs:$1-$(echo "$*" | sha256sum | cut -c1-12)"
}

# build_rootfs NAME SUITE PACKAGES APT UNPACK: the image of a
# debootstrap'd rootfs, made once per machine (two to four minutes each;
# they are made at once).
build_rootfs() {
	local name=$1 suite=$2 packages=$3 apt=$4 unpack=$5 tag rootfs mirror script=""
	tag=$(rootfs_tag "$@")
	have_image "$tag" && return 0
	mirror=$(debian_mirror)
	rootfs=$(mktemp -d)
	log "building a Debian $suite rootfs for $name ($packages; then $apt; unpacked: $unpack) from $mirror"
	if ! quiet debootstrap --variant=minbase --include="$packages" "$suite" "$rootfs" "$mirror"; then
		log "debootstrap of $name failed"
		rm -rf "$rootfs"
		return 1
	fi
	# The mirror may serve a snapshot of sid whose Release file is past its
	# Valid-Until date; debootstrap does not check it, apt does. No
	# service may start in the rootfs (policy-rc.d).
	[ "$apt" != - ] && script="DEBIAN_FRONTEND=noninteractive apt-get -q -y install ${apt//,/ } && "
	[ "$unpack" != - ] && script="$script apt-get -q download $unpack && dpkg-deb -x ${unpack}_*.deb / && rm -f ./*.deb && "
	if [ -n "$script" ]; then
		cp /etc/resolv.conf "$rootfs/etc/resolv.conf"
		printf '#!/bin/sh\nexit 101\n' >"$rootfs/usr/sbin/policy-rc.d"
		chmod +x "$rootfs/usr/sbin/policy-rc.d"
		mount -t proc proc "$rootfs/proc"
		chroot "$rootfs" sh -c "cd /tmp && apt-get -q -o Acquire::Check-Valid-Until=false update && $script apt-get clean" >"$rootfs.log" 2>&1
		local status=$?
		umount "$rootfs/proc"
		rm -f "$rootfs/usr/sbin/policy-rc.d"
		if [ $status != 0 ]; then
			cat "$rootfs.log" >&2
			log "installing $apt and unpacking $unpack in the $name rootfs failed"
			rm -rf "$rootfs" "$rootfs.log"
			return 1
		fi
		rm -f "$rootfs.log"
	fi
	rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin
	tar -C "$rootfs" -c . | docker import - "$tag" >/dev/null
	local status=$?
	rm -rf "$rootfs"
	return $status
}

# build_all_rootfs makes the rootfs images that are missing, at once.
build_all_rootfs() {
	local spec pids=() status=0
	command -v debootstrap >/dev/null || apt_install debootstrap || return 1
	for spec in "${rootfs_specs[@]}"; do
		# shellcheck disable=SC2086
		build_rootfs $spec &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || status=1
	done
	return $status
}

rootfs_of() {
	local spec
	for spec in "${rootfs_specs[@]}"; do
		# shellcheck disable=SC2086
		[ "${spec%% *}" = "$1" ] && rootfs_tag $spec && return 0
	done
	return 1
}

# extension_files lists, NUL-separated and relative to extension/, the
# extension's sources and its regression tests (not what a local build or
# test run left beside them).
extension_files() {
	(cd "$root/extension" && find . -path ./test/results -prune -o -type f \( -name '*.[ch]' -o -name '*.sql' -o -name '*.out' \
		-o -name '*.control' -o -name Makefile \) -print0 | sort -z)
}

# extension_hash names the extension's files.
extension_hash() {
	extension_files | (cd "$root/extension" && xargs -0 sha256sum) | sha256sum | cut -c1-12
}

# build_postgres MAJOR: PostgreSQL MAJOR from Debian with the sortid
# extension built (warnings are errors) and installed in the image, its
# sources kept at /usr/src/sortid-extension for make installcheck.
build_postgres() {
	local major=$1 base tag
	base=$(rootfs_of "pg$major")
	have_image "$base" || return 1
	tag="sortid-test/postgres:$major-$(hash_of testenv/postgres "$base" "$(extension_hash)")"
	if ! have_image "$tag"; then
		local ctx
		ctx=$(mktemp -d)
		log "building $tag, with the sortid extension"
		cp "$root"/testenv/postgres/* "$ctx/"
		mkdir "$ctx/extension"
		extension_files | (cd "$root/extension" && xargs -0 cp --parents -t "$ctx/extension")
		DOCKER_BUILDKIT=0 quiet docker build --force-rm --build-arg BASE="$base" --build-arg PG_MAJOR="$major" -t "$tag" "$ctx" ||
			{ log "PostgreSQL $major: the image (and the extension in it) does not build"; rm -rf "$ctx"; return 1; }
		rm -rf "$ctx"
	fi
	echo "$tag"
}
build_postgres15() { build_postgres 15; }
build_postgres17() { build_postgres 17; }
build_postgres18() { build_postgres 18; }

# build_mysql NAME VERSION: MySQL or MariaDB from Debian, started as the
# official images start.
build_mysql() {
	local name=$1 version=$2 base tag
	base=$(rootfs_of "$name")
	have_image "$base" || return 1
	tag="sortid-test/$name:$version-$(hash_of testenv/mysql "$base")"
	if ! have_image "$tag"; then
		log "building $tag"
		DOCKER_BUILDKIT=0 quiet docker build --force-rm --build-arg BASE="$base" -t "$tag" "$root/testenv/mysql" || return 1
	fi
	echo "$tag"
}
build_mysql97() { build_mysql mysql 9.7; }
build_mariadb118() { build_mysql mariadb 11.8; }

# build_ferretdb: FerretDB 2.7 on PostgreSQL 18 with DocumentDB 1.0
# (testenv/ferretdb): the binary built here, on the documentdb rootfs.
build_ferretdb() {
	local rootfs tag
	rootfs=$(rootfs_of documentdb) || return 1
	have_image "$rootfs" || { log "the documentdb rootfs is missing"; return 1; }
	tag="sortid-test/ferretdb:2.7.0-$(hash_of testenv/ferretdb "$rootfs")"
	if ! have_image "$tag"; then
		local ctx
		ctx=$(mktemp -d)
		log "building FerretDB 2.7 (a minute or two the first time)"
		(cd "$root/testenv/ferretdb" && CGO_ENABLED=0 quiet go build -trimpath -o "$ctx/ferretdb" .) || { rm -rf "$ctx"; return 1; }
		cp "$root/testenv/ferretdb/Dockerfile" "$root/testenv/ferretdb/entrypoint.sh" "$ctx/"
		DOCKER_BUILDKIT=0 quiet docker build --force-rm --build-arg "ROOTFS=$rootfs" -t "$tag" "$ctx" || { rm -rf "$ctx"; return 1; }
		rm -rf "$ctx"
	fi
	echo "$tag"
}

# The release source of Citus, which no registry here serves
# (../shared/vendor/README.md beside the repository), and its sha256.
citus_version=14.0.1
citus_sha256=acfa9a77cd84a8e1edab26cca4a71355f39c910c01586da89560e0240d4b05ba

# citus_archive prints the path of the archive: SORTID_CITUS_ARCHIVE, or
# the shared folder beside the repository (or the work folder's).
citus_archive() {
	local f
	for f in "${SORTID_CITUS_ARCHIVE:-}" "$root/../shared/vendor/citus-$citus_version.tar.gz" \
		"$root/../../shared/vendor/citus-$citus_version.tar.gz" "/work/shared/vendor/citus-$citus_version.tar.gz"; do
		if [ -n "$f" ] && [ -f "$f" ]; then
			echo "$f"
			return 0
		fi
	done
	log "the Citus $citus_version source archive is missing: set SORTID_CITUS_ARCHIVE, or put it in ../shared/vendor beside the repository"
	return 1
}

# build_citus_install: Citus built on the PostgreSQL 18 rootfs
# (testenv/citus-build), once per archive and rootfs.
build_citus_install() {
	local base archive tag
	base=$(rootfs_of pg18) || return 1
	have_image "$base" || return 1
	archive=$(citus_archive) || return 1
	if [ "$(sha256sum <"$archive" | cut -c1-64)" != "$citus_sha256" ]; then
		log "$archive is not Citus $citus_version's release source (its sha256 differs)"
		return 1
	fi
	tag="sortid-test/citus-build:$citus_version-$(hash_of testenv/citus-build "$base" "$citus_sha256")"
	if ! have_image "$tag"; then
		local ctx
		ctx=$(mktemp -d)
		log "building Citus $citus_version from its source (about six minutes on two cores)"
		cp "$root/testenv/citus-build/Dockerfile" "$ctx/"
		cp "$archive" "$ctx/citus.tar.gz"
		DOCKER_BUILDKIT=0 quiet docker build --force-rm --build-arg BASE="$base" -t "$tag" "$ctx" ||
			{ log "Citus does not build"; rm -rf "$ctx"; return 1; }
		rm -rf "$ctx"
	fi
	echo "$tag"
}

# build_citus: a Citus node, the sortid PostgreSQL 18 image with Citus.
build_citus() {
	local base install tag
	base=$(build_postgres 18) || return 1
	install=$(build_citus_install) || return 1
	tag="sortid-test/citus:$citus_version-$(hash_of testenv/citus "$base" "$install")"
	if ! have_image "$tag"; then
		log "building $tag"
		DOCKER_BUILDKIT=0 quiet docker build --force-rm --build-arg BASE="$base" --build-arg CITUS="$install" -t "$tag" "$root/testenv/citus" || return 1
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
build_all_rootfs || log "some rootfs images could not be built"
# The PostgreSQL servers are always stand-ins: they carry the sortid
# extension, which the official images lack. The three compile at once
# (choose then finds them built). Only these are waited for: a dockerd
# started above is a child of this shell too.
pg_builds=()
for major in 15 17 18; do
	build_postgres "$major" >/dev/null &
	pg_builds+=($!)
done
# Citus compiles beside them (choose then finds it built).
if [ -z "${SORTID_TEST_CITUS_IMAGE:-}" ]; then
	build_citus_install >/dev/null &
	pg_builds+=($!)
fi
wait "${pg_builds[@]}"
choose SORTID_TEST_POSTGRES_IMAGE "" build_postgres18
choose SORTID_TEST_POSTGRES17_IMAGE "" build_postgres17
choose SORTID_TEST_POSTGRES15_IMAGE "" build_postgres15
choose SORTID_TEST_MYSQL_IMAGE mysql:9.7 build_mysql97
choose SORTID_TEST_MARIADB_IMAGE mariadb:11.8 build_mariadb118
choose SORTID_TEST_MONGO_IMAGE mongo:8 build_ferretdb
choose SORTID_TEST_CITUS_IMAGE "" build_citus
# Citus's build stays, so that a changed extension does not compile it
# again.
if citus_install=$(build_citus_install 2>/dev/null); then
	in_use+=("$citus_install")
fi
# The rootfs images stay, so that an edited stand-in builds in seconds.
for spec in "${rootfs_specs[@]}"; do
	# shellcheck disable=SC2086
	in_use+=("$(rootfs_tag $spec)")
done
remove_stale
exit 0
