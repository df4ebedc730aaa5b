#!/bin/sh
# Starts PostgreSQL 18 with DocumentDB, with the settings FerretDB 2 needs
# (pg_cron in the database it uses; collations on, which DocumentDB leaves
# off by default and refuses a collation with otherwise), then FerretDB in
# the foreground.
set -eu
data=/var/lib/documentdb
bin=/usr/lib/postgresql/18/bin
if [ ! -s "$data/PG_VERSION" ]; then
	mkdir -p "$data"
	chown postgres "$data"
	su postgres -c "$bin/initdb -D $data -A trust -U postgres --encoding UTF8 --locale C.UTF-8" >/dev/null
	cat >>"$data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
unix_socket_directories = '/tmp'
shared_preload_libraries = 'pg_cron,pg_documentdb_core,pg_documentdb'
cron.database_name = 'postgres'
documentdb_core.enableCollation = on
documentdb.enableCollationWithNonUniqueOrderedIndexes = on
CONF
fi
su postgres -c "$bin/pg_ctl -D $data -l /tmp/postgresql.log -w start" >/dev/null
su postgres -c "PGOPTIONS='-c client_min_messages=warning' psql -h /tmp -q -v ON_ERROR_STOP=1 -c 'CREATE EXTENSION IF NOT EXISTS documentdb CASCADE'"
exec /usr/local/bin/ferretdb
