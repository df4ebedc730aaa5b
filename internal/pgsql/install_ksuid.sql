
-- The ksuid part.

-- The CHECK constraint's name is the advice in the error a value of any
-- other length gets, the text form above all: "value for domain ksuid
-- violates check constraint "20 raw bytes; …"". Installs before that name
-- had the default one, ksuid_check, which is renamed.
DO $$
BEGIN
	CREATE DOMAIN @SCHEMA@ksuid AS bytea
		CONSTRAINT "20 raw bytes; for the 27-character text use ksuid_from_text()"
		CHECK (octet_length(VALUE) = 20);
EXCEPTION WHEN duplicate_object THEN
	IF EXISTS (SELECT FROM pg_constraint WHERE contypid = '@SCHEMA@ksuid'::regtype AND conname = 'ksuid_check') THEN
		ALTER DOMAIN @SCHEMA@ksuid RENAME CONSTRAINT ksuid_check
			TO "20 raw bytes; for the 27-character text use ksuid_from_text()";
	END IF;
END $$;
COMMENT ON DOMAIN @SCHEMA@ksuid IS 'A KSUID: 20 bytes, which sort by time (sortid)';

-- ksuid_generate takes its random bytes from pgcrypto's gen_random_bytes,
-- a cryptographically strong source (never random()). The extension comes
-- with PostgreSQL; creating it needs the CREATE privilege on the database.
CREATE EXTENSION IF NOT EXISTS pgcrypto;
DO $$
BEGIN
	IF to_regprocedure('gen_random_bytes(integer)') IS NULL THEN
		RAISE EXCEPTION 'sortid: ksuid_generate needs gen_random_bytes from the pgcrypto extension, which is installed in a schema outside the search path (%); add that schema to the search path and run the script again',
			current_setting('search_path');
	END IF;
END $$;

-- ksuid_generate returns a new KSUID for clock_timestamp(), laid out as
-- ksuid.New lays out its IDs in Go: the seconds, then the
-- fraction of the second in 3 bytes (units of 2^-24 s), then 13 random
-- bytes. IDs made in SQL and in Go therefore interleave in time order to
-- the microsecond. It is one SQL expression, which PostgreSQL inlines into
-- the statement that calls it (a PL/pgSQL function would cost a third of
-- the insert rate; date_part's double precision, exact to a fraction of a
-- microsecond here, costs less than extract's numeric). The 7 bytes of
-- time are the hex digits of
-- seconds * 2^24 + fraction after a leading 1 (2^56 added): a clock before
-- 2014 gives fewer digits and so an error; a clock past 2150-06-19 would
-- wrap, as KSUIDs cannot hold it.
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_generate() RETURNS @SCHEMA@ksuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN decode(substring(to_hex(floor(date_part('epoch', clock_timestamp()) * 16777216)::bigint
		- 23488102400000000 + 72057594037927936) FROM 2), 'hex')
	|| gen_random_bytes(13);

-- ksuid_to_text returns the 27-character text form of a 20-byte KSUID.
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_to_text(id bytea) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	alphabet constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
	-- The 160-bit number as three parts below 62^9 each, so that the digits
	-- of each come out of bigint arithmetic.
	n numeric;
	part bigint;
	digits text := '';
BEGIN
	IF octet_length(id) <> 20 THEN
		RAISE EXCEPTION 'ksuid_to_text: % is % bytes; a KSUID is 20', id, octet_length(id)
			USING ERRCODE = 'invalid_binary_representation';
	END IF;
	n := 0;
	FOR i IN 0..4 LOOP
		n := n * 4294967296 + ('x' || encode(substring(id FROM 4 * i + 1 FOR 4), 'hex'))::bit(32)::bigint;
	END LOOP;
	FOR chunk IN 1..3 LOOP
		part := (n % 13537086546263552)::bigint; -- 62^9
		n := div(n, 13537086546263552);
		FOR i IN 1..9 LOOP
			digits := substr(alphabet, (part % 62)::int + 1, 1) || digits;
			part := part / 62;
		END LOOP;
	END LOOP;
	RETURN digits;
END $$;

-- ksuid_from_text returns the KSUID of a 27-character text form. Like the
-- Go package's Parse it accepts nothing else: a wrong length, a character
-- outside 0-9A-Za-z, or a value above the largest KSUID is an error that
-- quotes the input (at most its first 64 characters).
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_from_text(text_form text) RETURNS @SCHEMA@ksuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	alphabet constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
	quoted constant text := '"' || left(text_form, 64) || CASE WHEN length(text_form) > 64 THEN '"...' ELSE '"' END;
	n numeric := 0;
	digit int;
	out bytea := '';
BEGIN
	IF length(text_form) <> 27 THEN
		RAISE EXCEPTION 'ksuid_from_text: parsing %: invalid length %, want 27', quoted, length(text_form)
			USING ERRCODE = 'invalid_text_representation';
	END IF;
	FOR i IN 1..27 LOOP
		digit := strpos(alphabet, substr(text_form, i, 1)) - 1;
		IF digit < 0 THEN
			RAISE EXCEPTION 'ksuid_from_text: parsing %: invalid character "%" at offset %', quoted, substr(text_form, i, 1), i - 1
				USING ERRCODE = 'invalid_text_representation';
		END IF;
		n := n * 62 + digit;
	END LOOP;
	IF n >= 1461501637330902918203684832716283019655932542976 THEN -- 2^160
		RAISE EXCEPTION 'ksuid_from_text: parsing %: value out of range (above aWgEPTl1tmebfsQzFP4bxwgy80V)', quoted
			USING ERRCODE = 'numeric_value_out_of_range';
	END IF;
	FOR i IN 1..5 LOOP
		out := substring(int8send((n % 4294967296)::bigint) FROM 5 FOR 4) || out;
		n := div(n, 4294967296);
	END LOOP;
	RETURN out;
END $$;

-- ksuid_time returns the second a KSUID was made in.
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_time(id bytea) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
	IF octet_length(id) <> 20 THEN
		RAISE EXCEPTION 'ksuid_time: % is % bytes; a KSUID is 20', id, octet_length(id)
			USING ERRCODE = 'invalid_binary_representation';
	END IF;
	RETURN to_timestamp(1400000000 + ('x' || encode(substring(id FROM 1 FOR 4), 'hex'))::bit(32)::bigint);
END $$;

-- ksuid_min_at and ksuid_max_at return the smallest and the largest KSUID
-- of the second that holds t, the bounds of a time window:
-- WHERE id BETWEEN ksuid_min_at(from) AND ksuid_max_at(to).
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_min_at(t timestamptz) RETURNS @SCHEMA@ksuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	seconds constant numeric := floor(extract(epoch FROM t)) - 1400000000;
BEGIN
	IF seconds < 0 OR seconds > 4294967295 THEN
		RAISE EXCEPTION 'ksuid_min_at: the time % is outside the KSUID range (2014-05-13 16:53:20 UTC to 2150-06-19 23:21:35 UTC)', t
			USING ERRCODE = 'datetime_field_overflow';
	END IF;
	RETURN substring(int8send(seconds::bigint) FROM 5 FOR 4) || '\x00000000000000000000000000000000'::bytea;
END $$;

CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_max_at(t timestamptz) RETURNS @SCHEMA@ksuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	seconds constant numeric := floor(extract(epoch FROM t)) - 1400000000;
BEGIN
	IF seconds < 0 OR seconds > 4294967295 THEN
		RAISE EXCEPTION 'ksuid_max_at: the time % is outside the KSUID range (2014-05-13 16:53:20 UTC to 2150-06-19 23:21:35 UTC)', t
			USING ERRCODE = 'datetime_field_overflow';
	END IF;
	RETURN substring(int8send(seconds::bigint) FROM 5 FOR 4) || '\xffffffffffffffffffffffffffffffff'::bytea;
END $$;

-- Order comparisons of two ksuids: ksuid < ksuid and the like. Without them
-- PostgreSQL compares a ksuid column with an untyped value (a literal in
-- psql, the text form a driver sends as a parameter) as bytea, so the
-- 27-byte text matched the wrong rows: WHERE id < '…' matched every row,
-- and a DELETE with it deleted them all. With them the untyped value is
-- made a ksuid first, and the domain's CHECK refuses the text form. Each is
-- a one-expression SQL function, which PostgreSQL inlines into the query
-- as the bytea comparison, so a btree index on the column (a primary key)
-- serves it as before. There is no ksuid = ksuid: PostgreSQL
-- does not inline an operator inside id = ANY($1), IN (…) or <> ALL($1),
-- where it would run as a function call per row and a bytea index could
-- not serve it. A row comparison, (created_at, id) > ($1, $2), needs
-- operators of a btree operator family, which only a superuser can
-- create: compare the ID as bytea there, (created_at, id::bytea) >
-- ($1, $2::bytea).
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_lt(a @SCHEMA@ksuid, b @SCHEMA@ksuid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea < b::bytea;
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_le(a @SCHEMA@ksuid, b @SCHEMA@ksuid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea <= b::bytea;
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_gt(a @SCHEMA@ksuid, b @SCHEMA@ksuid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea > b::bytea;
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_ge(a @SCHEMA@ksuid, b @SCHEMA@ksuid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea >= b::bytea;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@< (LEFTARG = @SCHEMA@ksuid, RIGHTARG = @SCHEMA@ksuid, FUNCTION = @SCHEMA@ksuid_lt,
		COMMUTATOR = OPERATOR(@SCHEMA@>), NEGATOR = OPERATOR(@SCHEMA@>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@<= (LEFTARG = @SCHEMA@ksuid, RIGHTARG = @SCHEMA@ksuid, FUNCTION = @SCHEMA@ksuid_le,
		COMMUTATOR = OPERATOR(@SCHEMA@>=), NEGATOR = OPERATOR(@SCHEMA@>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@> (LEFTARG = @SCHEMA@ksuid, RIGHTARG = @SCHEMA@ksuid, FUNCTION = @SCHEMA@ksuid_gt,
		COMMUTATOR = OPERATOR(@SCHEMA@<), NEGATOR = OPERATOR(@SCHEMA@<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@>= (LEFTARG = @SCHEMA@ksuid, RIGHTARG = @SCHEMA@ksuid, FUNCTION = @SCHEMA@ksuid_ge,
		COMMUTATOR = OPERATOR(@SCHEMA@<=), NEGATOR = OPERATOR(@SCHEMA@<), RESTRICT = scalargesel, JOIN = scalargejoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;

-- ksuid <> ksuid: id <> '…' and id NOT IN ('…', …) with the text form
-- matched every row, and a DELETE with them deleted every row; with this
-- operator the untyped value is made a ksuid first, and the domain's CHECK
-- refuses the text form. <> is never served by an index, so a per-row
-- function call inside <> ALL (NOT IN) costs no index plan. There is still
-- no ksuid = ksuid: see above. So id IS DISTINCT FROM '…' and
-- NOT (id = '…'), which PostgreSQL resolves with =, still compare as
-- bytea: write id <> ksuid_from_text('…'), or use the extension.
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_ne(a @SCHEMA@ksuid, b @SCHEMA@ksuid) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURN a::bytea <> b::bytea;
DO $$
BEGIN
	CREATE OPERATOR @SCHEMA@<> (LEFTARG = @SCHEMA@ksuid, RIGHTARG = @SCHEMA@ksuid, FUNCTION = @SCHEMA@ksuid_ne,
		COMMUTATOR = OPERATOR(@SCHEMA@<>), RESTRICT = neqsel, JOIN = neqjoinsel);
EXCEPTION WHEN duplicate_function THEN NULL;
END $$;
