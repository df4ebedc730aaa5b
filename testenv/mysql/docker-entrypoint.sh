#!/bin/sh
# Starts MySQL or MariaDB (whichever the image holds) the way the official
# mysql image does, so the same test code serves both: MYSQL_ROOT_PASSWORD
# and MYSQL_DATABASE are honoured, set-up runs on a temporary server that
# listens on no TCP port, and the real server listens on all addresses.
# Each keeps Debian's defaults otherwise (MySQL 9.7: utf8mb4_0900_ai_ci;
# MariaDB 11.8: utf8mb4_uca1400_ai_ci), both case-insensitive.
set -eu

if [ "${1:-}" != "mysqld" ]; then
	exec "$@"
fi

datadir=/var/lib/mysql
socket=/run/mysqld/mysqld.sock
# MySQL refuses to start without its secure-file-priv directory.
mkdir -p /run/mysqld "$datadir" /var/lib/mysql-files
chown mysql:mysql /run/mysqld "$datadir" /var/lib/mysql-files

if command -v mariadbd >/dev/null; then
	server=mariadbd client=mariadb admin=mariadb-admin
else
	server=mysqld client=mysql admin=mysqladmin
fi

if [ ! -d "$datadir/mysql" ]; then
	if [ "$server" = mariadbd ]; then
		mariadb-install-db --user=mysql --datadir="$datadir" --skip-test-db \
			--auth-root-authentication-method=normal >/dev/null
	else
		mysqld --initialize-insecure --user=mysql --datadir="$datadir" >/dev/null
	fi
	"$server" --user=mysql --datadir="$datadir" --skip-networking --socket="$socket" >/dev/null &
	pid=$!
	for _ in $(seq 120); do
		"$admin" --socket="$socket" -u root ping >/dev/null 2>&1 && break
		sleep 1
	done
	{
		if [ -n "${MYSQL_DATABASE:-}" ]; then
			echo "CREATE DATABASE \`$MYSQL_DATABASE\`;"
		fi
		echo "CREATE USER 'root'@'%' IDENTIFIED BY '${MYSQL_ROOT_PASSWORD:-}';"
		echo "GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;"
		echo "ALTER USER 'root'@'localhost' IDENTIFIED BY '${MYSQL_ROOT_PASSWORD:-}';"
	} | "$client" --socket="$socket" -u root
	"$admin" --socket="$socket" -u root --password="${MYSQL_ROOT_PASSWORD:-}" shutdown
	wait "$pid" || true
fi

exec "$server" --user=mysql --datadir="$datadir" --socket="$socket" --bind-address=0.0.0.0 --port=3306
