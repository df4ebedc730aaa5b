// Package containers holds sortid's integration tests. They run the ID
// types in real servers, a PostgreSQL, a MySQL or MariaDB and a
// MongoDB-wire server started once per test binary with testcontainers-go,
// and check what sortid promises: order by ID is order by time, and IDs
// made concurrently, also by eight separate processes in eight containers
// (machine/), do not collide.
//
// The images are the official postgres:18, mysql:8.4 and mongo:8 unless
// SORTID_TEST_POSTGRES_IMAGE, SORTID_TEST_MYSQL_IMAGE and
// SORTID_TEST_MONGO_IMAGE name others; scripts/testenv.sh, which make test
// runs first, sets them to local stand-ins where no registry can be
// reached. Every container carries the label io.sortid.test, by which
// scripts/test.sh removes what a killed run left. SORTID_TEST_POSTGRES_URL,
// SORTID_TEST_MYSQL_DSN and SORTID_TEST_MONGO_URI point the tests at running
// servers instead; they create and drop their own tables, collections and
// databases. Without a Docker engine the
// tests skip with the reason, or fail with it when CI or
// SORTID_REQUIRE_INTEGRATION is set.
package containers
