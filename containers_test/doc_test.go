// Package containers holds sortid's integration tests. They run the ID
// types in real servers, PostgreSQL 18, 17 and 15 (each with the sortid
// extension), MySQL 9.7, MariaDB 11.8 and a MongoDB-wire server, started
// once per test binary with testcontainers-go, and check what sortid
// promises: order by ID is order by time, and IDs made concurrently, also
// by eight separate processes in eight containers (machine/), do not
// collide.
//
// scripts/testenv.sh, which make test runs first, names the images in
// SORTID_TEST_POSTGRES_IMAGE (18), SORTID_TEST_POSTGRES17_IMAGE,
// SORTID_TEST_POSTGRES15_IMAGE, SORTID_TEST_MYSQL_IMAGE,
// SORTID_TEST_MARIADB_IMAGE and SORTID_TEST_MONGO_IMAGE: the PostgreSQL
// ones are always its own (the official images lack the extension), the
// others the official mysql:9.7, mariadb:11.8 and mongo:8 where a registry
// can be reached. Every container carries the label io.sortid.test, by which
// scripts/test.sh removes what a killed run left. SORTID_TEST_POSTGRES_URL
// (and _POSTGRES15_URL, _POSTGRES17_URL), SORTID_TEST_MYSQL_DSN (and
// _MARIADB_DSN) and SORTID_TEST_MONGO_URI point the tests at running
// servers instead; they create and drop their own tables, collections and
// databases. Without a Docker engine the
// tests skip with the reason, or fail with it when CI or
// SORTID_REQUIRE_INTEGRATION is set.
package containers
