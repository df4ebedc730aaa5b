#!/bin/sh
# Starts MariaDB the way the official mysql image does, so the same test
# code serves both: MYSQL_ROOT_PASSWORD, MYSQL_DATABASE, MYSQL_USER and
# MYSQL_PASSWORD are honoured, set-up runs on a temporary server that
# listens on no TCP port, and the real server listens on all addresses.
# The server keeps Debian's defaults otherwise: character set utf8mb4 with
# the case-insensitive collation utf8mb4_general_ci.
set -eu

if [ "${1:-}" != "mariadbd" ]; then
	exec "$@"
fi

datadir=/var/lib/mysql
socket=/run/mysqld/mysqld.sock
mkdir -p /run/mysqld
chown mysql:mysql /run/mysqld

if [ ! -d "$datadir/mysql" ]; then
	mariadb-install-db --user=mysql --datadir="$datadir" --skip-test-db \
		--auth-root-authentication-method=normal >/dev/null
	mariadbd --user=mysql --datadir="$datadir" --skip-networking --socket="$socket" &
	pid=$!
	for _ in $(seq 60); do
		mariadb-admin --socket="$socket" ping >/dev/null 2>&1 && break
		sleep 1
	done
	{
		if [ -n "${MYSQL_DATABASE:-}" ]; then
			echo "CREATE DATABASE \`$MYSQL_DATABASE\`;"
		fi
		if [ -n "${MYSQL_USER:-}" ]; then
			echo "CREATE USER '$MYSQL_USER'@'%' IDENTIFIED BY '${MYSQL_PASSWORD:-}';"
			if [ -n "${MYSQL_DATABASE:-}" ]; then
				echo "GRANT ALL ON \`$MYSQL_DATABASE\`.* TO '$MYSQL_USER'@'%';"
			fi
		fi
		echo "CREATE USER 'root'@'%' IDENTIFIED BY '${MYSQL_ROOT_PASSWORD:-}';"
		echo "GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;"
		echo "ALTER USER 'root'@'localhost' IDENTIFIED BY '${MYSQL_ROOT_PASSWORD:-}';"
	} | mariadb --socket="$socket" -u root
	mariadb-admin --socket="$socket" -u root --password="${MYSQL_ROOT_PASSWORD:-}" shutdown
	wait "$pid" || true
fi

exec "$@" --user=mysql --datadir="$datadir" --socket="$socket" --bind-address=0.0.0.0 --port=3306
