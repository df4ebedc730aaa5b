-- sortid 0.1.0: the types ksuid and objectid, their operators, index
-- classes (btree, hash, BRIN), casts, min and max, and functions, and the
-- UUIDv7 functions in uuid.
\echo Use "CREATE EXTENSION sortid" to load this file. \quit

-- One install per database: the extension, or the domains of `sortid sql`
-- for servers that cannot load it. A database that has the domains is
-- refused, naming them, before anything is made; docs/postgresql.md
-- ("Moving from the domains to the types") says how to convert it.
DO $$
DECLARE
	found text;
BEGIN
	SELECT string_agg(format('%I.%I', n.nspname, t.typname), ', ') INTO found
	FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
	WHERE t.typtype = 'd' AND t.typname IN ('ksuid', 'objectid');
	IF found IS NOT NULL THEN
		RAISE EXCEPTION 'sortid: this database has the domains % of `sortid sql`; the extension replaces them', found
			USING ERRCODE = 'duplicate_object',
				HINT = 'Convert the columns to the types and drop the domains first: see "Moving from the domains to the types" in sortid''s docs/postgresql.md.';
	END IF;
END $$;

-- ksuid: a KSUID, 20 bytes that sort by time
CREATE TYPE ksuid;

CREATE FUNCTION ksuid_in(cstring) RETURNS ksuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_out(ksuid) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_recv(internal) RETURNS ksuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_send(ksuid) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE ksuid (
	INPUT = ksuid_in,
	OUTPUT = ksuid_out,
	RECEIVE = ksuid_recv,
	SEND = ksuid_send,
	INTERNALLENGTH = 20,
	ALIGNMENT = char,
	STORAGE = plain
);
COMMENT ON TYPE ksuid IS 'a KSUID, 20 bytes that sort by time (sortid)';

CREATE FUNCTION ksuid_eq(ksuid, ksuid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_ne(ksuid, ksuid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_lt(ksuid, ksuid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_le(ksuid, ksuid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_gt(ksuid, ksuid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_ge(ksuid, ksuid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_cmp(ksuid, ksuid) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_hash(ksuid) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION ksuid_hash_extended(ksuid, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = ksuid, RIGHTARG = ksuid, FUNCTION = ksuid_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- btequalimage: two equal ksuids are the same bytes, so B-tree indexes may
-- deduplicate (PostgreSQL 13 and later), as they do for uuid.
CREATE OPERATOR CLASS ksuid_ops DEFAULT FOR TYPE ksuid USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 ksuid_cmp(ksuid, ksuid),
	FUNCTION 2 ksuid_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);

CREATE OPERATOR CLASS ksuid_hash_ops DEFAULT FOR TYPE ksuid USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 ksuid_hash(ksuid),
	FUNCTION 2 ksuid_hash_extended(ksuid, bigint);

-- BRIN: a table whose rows arrive in ID order (an append-only log keyed by
-- ksuid) can be indexed by block ranges, a fraction of a B-tree's size.
CREATE OPERATOR CLASS ksuid_minmax_ops DEFAULT FOR TYPE ksuid USING brin AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);

-- min and max, the first and the last ksuid in time.
CREATE FUNCTION ksuid_smaller(ksuid, ksuid) RETURNS ksuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_larger(ksuid, ksuid) RETURNS ksuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(ksuid) (SFUNC = ksuid_smaller, STYPE = ksuid, SORTOP = <,
	COMBINEFUNC = ksuid_smaller, PARALLEL = SAFE);
CREATE AGGREGATE max(ksuid) (SFUNC = ksuid_larger, STYPE = ksuid, SORTOP = >,
	COMBINEFUNC = ksuid_larger, PARALLEL = SAFE);

-- Casts: none implicit, so that no operator becomes ambiguous.
CREATE FUNCTION ksuid_to_bytea(ksuid) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_ksuid(bytea) RETURNS ksuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_to_text(ksuid) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_from_text(text) RETURNS ksuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (ksuid AS bytea) WITH FUNCTION ksuid_to_bytea(ksuid) AS ASSIGNMENT;
CREATE CAST (bytea AS ksuid) WITH FUNCTION bytea_to_ksuid(bytea) AS ASSIGNMENT;
CREATE CAST (ksuid AS text) WITH FUNCTION ksuid_to_text(ksuid) AS ASSIGNMENT;
CREATE CAST (text AS ksuid) WITH FUNCTION ksuid_from_text(text);

CREATE FUNCTION ksuid_time(ksuid) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_min_at(timestamptz) RETURNS ksuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION ksuid_max_at(timestamptz) RETURNS ksuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- objectid: a MongoDB ObjectId, 12 bytes that sort by time
CREATE TYPE objectid;

CREATE FUNCTION objectid_in(cstring) RETURNS objectid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_out(objectid) RETURNS cstring
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_recv(internal) RETURNS objectid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_send(objectid) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE objectid (
	INPUT = objectid_in,
	OUTPUT = objectid_out,
	RECEIVE = objectid_recv,
	SEND = objectid_send,
	INTERNALLENGTH = 12,
	ALIGNMENT = char,
	STORAGE = plain
);
COMMENT ON TYPE objectid IS 'a MongoDB ObjectId, 12 bytes that sort by time (sortid)';

CREATE FUNCTION objectid_eq(objectid, objectid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_ne(objectid, objectid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_lt(objectid, objectid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_le(objectid, objectid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_gt(objectid, objectid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_ge(objectid, objectid) RETURNS boolean
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_cmp(objectid, objectid) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_hash(objectid) RETURNS integer
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION objectid_hash_extended(objectid, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR = (LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_eq,
	COMMUTATOR = =, NEGATOR = <>, RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR <> (LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_ne,
	COMMUTATOR = <>, NEGATOR = =, RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR < (LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_lt,
	COMMUTATOR = >, NEGATOR = >=, RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR <= (LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_le,
	COMMUTATOR = >=, NEGATOR = >, RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR > (LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_gt,
	COMMUTATOR = <, NEGATOR = <=, RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR >= (LEFTARG = objectid, RIGHTARG = objectid, FUNCTION = objectid_ge,
	COMMUTATOR = <=, NEGATOR = <, RESTRICT = scalargesel, JOIN = scalargejoinsel);

-- btequalimage: two equal objectids are the same bytes, so B-tree indexes may
-- deduplicate (PostgreSQL 13 and later), as they do for uuid.
CREATE OPERATOR CLASS objectid_ops DEFAULT FOR TYPE objectid USING btree AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 objectid_cmp(objectid, objectid),
	FUNCTION 2 objectid_sortsupport(internal),
	FUNCTION 4 btequalimage(oid);

CREATE OPERATOR CLASS objectid_hash_ops DEFAULT FOR TYPE objectid USING hash AS
	OPERATOR 1 =,
	FUNCTION 1 objectid_hash(objectid),
	FUNCTION 2 objectid_hash_extended(objectid, bigint);

-- BRIN: a table whose rows arrive in ID order (an append-only log keyed by
-- objectid) can be indexed by block ranges, a fraction of a B-tree's size.
CREATE OPERATOR CLASS objectid_minmax_ops DEFAULT FOR TYPE objectid USING brin AS
	OPERATOR 1 <,
	OPERATOR 2 <=,
	OPERATOR 3 =,
	OPERATOR 4 >=,
	OPERATOR 5 >,
	FUNCTION 1 brin_minmax_opcinfo(internal),
	FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
	FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
	FUNCTION 4 brin_minmax_union(internal, internal, internal);

-- min and max, the first and the last objectid in time.
CREATE FUNCTION objectid_smaller(objectid, objectid) RETURNS objectid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_larger(objectid, objectid) RETURNS objectid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE AGGREGATE min(objectid) (SFUNC = objectid_smaller, STYPE = objectid, SORTOP = <,
	COMBINEFUNC = objectid_smaller, PARALLEL = SAFE);
CREATE AGGREGATE max(objectid) (SFUNC = objectid_larger, STYPE = objectid, SORTOP = >,
	COMBINEFUNC = objectid_larger, PARALLEL = SAFE);

-- Casts: none implicit, so that no operator becomes ambiguous.
CREATE FUNCTION objectid_to_bytea(objectid) RETURNS bytea
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION bytea_to_objectid(bytea) RETURNS objectid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_to_text(objectid) RETURNS text
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_from_text(text) RETURNS objectid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (objectid AS bytea) WITH FUNCTION objectid_to_bytea(objectid) AS ASSIGNMENT;
CREATE CAST (bytea AS objectid) WITH FUNCTION bytea_to_objectid(bytea) AS ASSIGNMENT;
CREATE CAST (objectid AS text) WITH FUNCTION objectid_to_text(objectid) AS ASSIGNMENT;
CREATE CAST (text AS objectid) WITH FUNCTION objectid_from_text(text);

CREATE FUNCTION objectid_time(objectid) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_min_at(timestamptz) RETURNS objectid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION objectid_max_at(timestamptz) RETURNS objectid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ksuid_generate: a new KSUID of the clock, laid out as Go's ksuid.New
-- lays it out (second, fraction of the second, random), each after the one
-- before within a backend.
CREATE FUNCTION ksuid_generate() RETURNS ksuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;

-- UUIDv7 (RFC 9562) in PostgreSQL's own uuid type.
CREATE FUNCTION uuidv7_generate() RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;
CREATE FUNCTION uuidv7_time(uuid) RETURNS timestamptz
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_min_at(timestamptz) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuidv7_max_at(timestamptz) RETURNS uuid
	AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The pairs pg_partman (5.2 and later) takes to partition a table by time
-- on a text column of KSUIDs or ObjectIDs, or a uuid column of UUIDv7s
-- (create_parent's p_time_encoder and p_time_decoder; pg_partman refuses
-- a column of the ksuid or objectid type): the smallest ID of a time, and
-- the time of an ID's text. Their bodies are bound when they are created,
-- so pg_partman's own search path does not matter.
CREATE FUNCTION ksuid_time_encoder(timestamptz) RETURNS text
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN ksuid_to_text(ksuid_min_at($1));
CREATE FUNCTION ksuid_time_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN ksuid_time(ksuid_from_text($1));
CREATE FUNCTION objectid_time_encoder(timestamptz) RETURNS text
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN objectid_to_text(objectid_min_at($1));
CREATE FUNCTION objectid_time_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN objectid_time(objectid_from_text($1));
CREATE FUNCTION uuidv7_time_encoder(timestamptz) RETURNS uuid
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN uuidv7_min_at($1);
CREATE FUNCTION uuidv7_time_decoder(text) RETURNS timestamptz
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
	RETURN uuidv7_time($1::uuid);

