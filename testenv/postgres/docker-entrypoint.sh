#!/bin/sh
# Starts PostgreSQL the way the official image does, so the same test code
# serves both: POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB,
# POSTGRES_INITDB_ARGS and POSTGRES_HOST_AUTH_METHOD are honoured, and
# "database system is ready to accept connections" is logged twice, once
# by a temporary server during set-up (on the Unix socket only) and once
# by the real one.
set -eu

if [ "${1:-}" != "postgres" ]; then
	exec "$@"
fi

user=${POSTGRES_USER:-postgres}
db=${POSTGRES_DB:-$user}

if [ ! -s "$PGDATA/PG_VERSION" ]; then
	mkdir -p "$PGDATA" /var/run/postgresql
	chown -R postgres:postgres "$PGDATA" /var/run/postgresql
	chmod 700 "$PGDATA"
	pwfile=$(mktemp)
	printf '%s\n' "${POSTGRES_PASSWORD:-}" >"$pwfile"
	chown postgres "$pwfile"
	# POSTGRES_INITDB_ARGS is split into words, as the official image does.
	# shellcheck disable=SC2086
	runuser -u postgres -- initdb --username="$user" --pwfile="$pwfile" \
		--auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 \
		${POSTGRES_INITDB_ARGS:-} >/dev/null
	rm -f "$pwfile"
	echo "host all all all ${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}" >>"$PGDATA/pg_hba.conf"

	runuser -u postgres -- pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/var/run/postgresql" -w start
	if [ "$db" != "postgres" ]; then
		runuser -u postgres -- psql -v ON_ERROR_STOP=1 -h /var/run/postgresql --username="$user" --dbname=postgres \
			-c "CREATE DATABASE \"$db\""
	fi
	runuser -u postgres -- pg_ctl -D "$PGDATA" -m fast -w stop
fi

exec runuser -u postgres -- "$@" -c listen_addresses='*' -c unix_socket_directories=/var/run/postgresql
