-- sortid for PostgreSQL, by part: the ksuid domain and its functions,
-- the objectid domain and its functions, and functions for UUIDv7 in the
-- uuid type (`sortid sql ksuid|objectid|uuidv7`; `sortid sql` is all
-- three). Idempotent: running it again (a newer version, too) replaces the
-- functions and keeps the domains and the data. Needs PostgreSQL 14 or
-- later; the ksuid part, and the uuidv7 part before PostgreSQL 18, need
-- the pgcrypto extension, which comes with PostgreSQL and which they
-- create if missing.
--
-- A KSUID is 20 bytes: 4-byte seconds since 2014-05-13 16:53:20 UTC, then
-- 16 payload bytes; as text, 27 base62 characters (0-9A-Za-z), which is
-- what every client, tool and person writes. An ObjectID is 12 bytes:
-- 4-byte seconds since 1970, then 8 more; as text, 24 hex digits. The
-- domains hold that text, under the "C" collation, in which the text of
-- either sorts as its bytes do, and so by time: a literal pasted into
-- psql, a string from any driver and a typed ID all compare right with
-- the built-in text operators, and an index serves =, IN, ranges and
-- ORDER BY. A UUIDv7 is PostgreSQL's own uuid, which sorts by time as it
-- is.

BEGIN;
-- Quiet, so that `sortid sql | psql -q` prints nothing but errors: no
-- notices for what exists already, and no result row for the lock.
SET LOCAL client_min_messages = warning;
-- Two installs at once would collide on CREATE OR REPLACE.
DO $$ BEGIN PERFORM pg_advisory_xact_lock(hashtext('sortid install')); END $$;

-- One install per database: where the sortid extension is (CREATE
-- EXTENSION sortid), its types and functions are the real ones, and this
-- script would replace its functions with SQL ones over domains. It stops
-- before changing anything, with SQLSTATE 55S01, which sqltype.Install
-- reports as ErrExtensionInstalled.
DO $$
BEGIN
	IF EXISTS (SELECT FROM pg_extension WHERE extname = 'sortid') THEN
		RAISE EXCEPTION 'sortid: this database has the sortid extension, whose ksuid and objectid types and functions this script''s domains would shadow; nothing was changed'
			USING ERRCODE = '55S01',
				HINT = 'Nothing to install: the extension has all of it. `sortid sql` is for servers that cannot load the extension.';
	END IF;
END $$;

-- Citus 14 finds no row by a distribution column of these domains: say
-- so where Citus is (the domains work as the other columns of a
-- distributed table, read uncast).
DO $$
BEGIN
	IF EXISTS (SELECT FROM pg_extension WHERE extname = 'citus') THEN
		RAISE WARNING 'sortid: Citus finds no row by a distribution column of the ksuid or objectid domain; distribute tables by a uuid column, or install the sortid extension instead of this script'
			USING HINT = 'sortid check reports a table distributed by one, and GORM''s plugin refuses it.';
	END IF;
END $$;
