#!/bin/sh
# Starts PostgreSQL the way the official image does, so the same test code
# serves both: POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB are
# honoured, and "database system is ready to accept connections" is logged
# twice, once by a temporary server during set-up and once by the real one.
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
	runuser -u postgres -- initdb --username="$user" --pwfile="$pwfile" \
		--auth-local=trust --auth-host=scram-sha-256 --locale=C.UTF-8 --encoding=UTF8 >/dev/null
	rm -f "$pwfile"
	echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"

	runuser -u postgres -- pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
	if [ "$db" != "postgres" ]; then
		runuser -u postgres -- psql -v ON_ERROR_STOP=1 --username="$user" --dbname=postgres \
			-c "CREATE DATABASE \"$db\""
	fi
	runuser -u postgres -- pg_ctl -D "$PGDATA" -m fast -w stop
fi

exec runuser -u postgres -- "$@" -c listen_addresses='*'
