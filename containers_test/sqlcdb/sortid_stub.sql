-- What sqlc reads of the database. The database itself gets `sortid sql`
-- (sqltype.Install); sqlc cannot see the domains that script creates
-- inside DO blocks, so they and the one function the queries call are
-- declared here as the script declares them.
CREATE DOMAIN ksuid AS bytea CHECK (octet_length(VALUE) = 20);
CREATE DOMAIN objectid AS bytea CHECK (octet_length(VALUE) = 12);
CREATE FUNCTION ksuid_generate() RETURNS ksuid LANGUAGE sql VOLATILE
RETURN NULL;
