-- What sqlc reads of the database. The database itself gets `sortid sql`
-- (sqltype.Install); sqlc cannot see the domains that script creates
-- inside DO blocks, so they and the one function the queries call are
-- declared here as the script declares them.
CREATE DOMAIN ksuid AS text COLLATE "C" CHECK (octet_length(VALUE) = 27);
CREATE DOMAIN objectid AS text COLLATE "C" CHECK (octet_length(VALUE) = 24);
CREATE FUNCTION ksuid_generate() RETURNS ksuid LANGUAGE sql VOLATILE
RETURN NULL;
