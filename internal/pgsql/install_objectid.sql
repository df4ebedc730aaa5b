
-- The objectid part.

DO $$
BEGIN
	CREATE DOMAIN @SCHEMA@objectid AS bytea
		CONSTRAINT "12 raw bytes; for the 24 hex digits use objectid_from_text()"
		CHECK (octet_length(VALUE) = 12);
EXCEPTION WHEN duplicate_object THEN
	IF EXISTS (SELECT FROM pg_constraint WHERE contypid = '@SCHEMA@objectid'::regtype AND conname = 'objectid_check') THEN
		ALTER DOMAIN @SCHEMA@objectid RENAME CONSTRAINT objectid_check
			TO "12 raw bytes; for the 24 hex digits use objectid_from_text()";
	END IF;
END $$;
COMMENT ON DOMAIN @SCHEMA@objectid IS 'A MongoDB ObjectId: 12 bytes, which sort by time (sortid)';

-- objectid_to_text returns the 24 lowercase hex digits of an ObjectID.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_to_text(id bytea) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
	IF octet_length(id) <> 12 THEN
		RAISE EXCEPTION 'objectid_to_text: % is % bytes; an ObjectID is 12', id, octet_length(id)
			USING ERRCODE = 'invalid_binary_representation';
	END IF;
	RETURN encode(id, 'hex');
END $$;

-- objectid_from_text returns the ObjectID of 24 hex digits (either case);
-- anything else is an error that quotes the input.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_from_text(text_form text) RETURNS @SCHEMA@objectid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	quoted constant text := '"' || left(text_form, 64) || CASE WHEN length(text_form) > 64 THEN '"...' ELSE '"' END;
BEGIN
	IF length(text_form) <> 24 THEN
		RAISE EXCEPTION 'objectid_from_text: parsing %: invalid length %, want 24', quoted, length(text_form)
			USING ERRCODE = 'invalid_text_representation';
	END IF;
	IF text_form !~ '^[0-9A-Fa-f]{24}$' THEN
		RAISE EXCEPTION 'objectid_from_text: parsing %: invalid character "%" at offset %', quoted,
			substring(text_form FROM '[^0-9A-Fa-f]'), strpos(text_form, substring(text_form FROM '[^0-9A-Fa-f]')) - 1
			USING ERRCODE = 'invalid_text_representation';
	END IF;
	RETURN decode(text_form, 'hex');
END $$;

-- objectid_time returns the second an ObjectID was made in.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_time(id bytea) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
	IF octet_length(id) <> 12 THEN
		RAISE EXCEPTION 'objectid_time: % is % bytes; an ObjectID is 12', id, octet_length(id)
			USING ERRCODE = 'invalid_binary_representation';
	END IF;
	RETURN to_timestamp(('x' || encode(substring(id FROM 1 FOR 4), 'hex'))::bit(32)::bigint);
END $$;

-- Order comparisons of two objectids: objectid < objectid and the like. Without them
-- PostgreSQL compares a objectid column with an untyped value (a literal in
-- psql, the text form a driver sends as a parameter) as bytea, so the
-- 24-byte text matched the wrong rows: WHERE id < '…' matched every row,
-- and a DELETE with it deleted them all. With them the untyped value is
-- made a objectid first, and the domain's CHECK refuses the text form. Each is
-- a one-expression SQL function, which PostgreSQL inlines into the query
-- as the bytea comparison, so a btree index on the column (a primary key)
-- serves it as before. There is no objectid = objectid: PostgreSQL
-- does not inline an operator inside id = ANY($1), IN (…) or <> ALL($1),
-- where it would run as a function call per row and a bytea index could
-- not serve it. A row comparison, (created_at, id) > ($1, $2), needs
-- operators of a btree operator family, which only a superuser can
-- create: compare the ID as bytea there, (created_at, id::bytea) >
-- ($1, $2::bytea).
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_lt(a @SCHEMA@objectid, b @SCHEMA@objectid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea < b::bytea;
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_le(a @SCHEMA@objectid, b @SCHEMA@objectid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea <= b::bytea;
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_gt(a @SCHEMA@objectid, b @SCHEMA@objectid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea > b::bytea;
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_ge(a @SCHEMA@objectid, b @SCHEMA@objectid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea >= b::bytea;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@< (LEFTARG = @SCHEMA@objectid, RIGHTARG = @SCHEMA@objectid, FUNCTION = @SCHEMA@objectid_lt,
		COMMUTATOR = OPERATOR(@SCHEMA@>), NEGATOR = OPERATOR(@SCHEMA@>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@<= (LEFTARG = @SCHEMA@objectid, RIGHTARG = @SCHEMA@objectid, FUNCTION = @SCHEMA@objectid_le,
		COMMUTATOR = OPERATOR(@SCHEMA@>=), NEGATOR = OPERATOR(@SCHEMA@>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@> (LEFTARG = @SCHEMA@objectid, RIGHTARG = @SCHEMA@objectid, FUNCTION = @SCHEMA@objectid_gt,
		COMMUTATOR = OPERATOR(@SCHEMA@<), NEGATOR = OPERATOR(@SCHEMA@<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@>= (LEFTARG = @SCHEMA@objectid, RIGHTARG = @SCHEMA@objectid, FUNCTION = @SCHEMA@objectid_ge,
		COMMUTATOR = OPERATOR(@SCHEMA@<=), NEGATOR = OPERATOR(@SCHEMA@<), RESTRICT = scalargesel, JOIN = scalargejoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;

-- objectid <> objectid: id <> '…' and id NOT IN ('…', …) with the text form
-- matched every row, and a DELETE with them deleted every row; with this
-- operator the untyped value is made a objectid first, and the domain's CHECK
-- refuses the text form. <> is never served by an index, so a per-row
-- function call inside <> ALL (NOT IN) costs no index plan. There is still
-- no objectid = objectid: see above. So id IS DISTINCT FROM '…' and
-- NOT (id = '…'), which PostgreSQL resolves with =, still compare as
-- bytea: write id <> objectid_from_text('…'), or use the extension.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_ne(a @SCHEMA@objectid, b @SCHEMA@objectid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea <> b::bytea;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@<> (LEFTARG = @SCHEMA@objectid, RIGHTARG = @SCHEMA@objectid, FUNCTION = @SCHEMA@objectid_ne,
		COMMUTATOR = OPERATOR(@SCHEMA@<>), RESTRICT = neqsel, JOIN = neqjoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;
