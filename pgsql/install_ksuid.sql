
-- The ksuid part.

-- The domain holds the 27-character text form. Its CHECK is the whole
-- grammar of KSUID.Parse: 27 characters of 0-9A-Za-z and no value above
-- the largest KSUID. Under "C" the alphabet's order is its digits' order,
-- so for texts of one length text order is numeric order, which is time
-- order. The CHECK names "C" itself: a domain's CHECK compares VALUE
-- under the database's collation, not the domain's, and under a
-- linguistic one 'Q…' sorts after 'aW…'. 27 bytes none of which is
-- outside the alphabet are 27 of its characters: a search for one
-- outside it costs a third of what matching the whole text does, and a
-- COPY pays it on every row. The constraint's name is the advice in the error any other value
-- gets: "value for domain ksuid violates check constraint "…"".
--
-- Development versions of this script made the domain over bytea; it is
-- refused rather than converted, as no release had it.
DO $$
BEGIN
	CREATE DOMAIN @SCHEMA@ksuid AS text COLLATE "C"
		CONSTRAINT "27 characters 0-9A-Za-z, at most aWgEPTl1tmebfsQzFP4bxwgy80V"
		CHECK (octet_length(VALUE) = 27 AND VALUE COLLATE "C" !~ '[^0-9A-Za-z]' AND VALUE COLLATE "C" <= 'aWgEPTl1tmebfsQzFP4bxwgy80V');
EXCEPTION WHEN duplicate_object THEN
	IF (SELECT typbasetype FROM pg_type WHERE oid = '@SCHEMA@ksuid'::regtype) <> 'text'::regtype THEN
		RAISE EXCEPTION 'sortid: the domain ksuid exists over %, not text: it is from a development version of sortid or another tool; nothing was changed',
			(SELECT typbasetype::regtype FROM pg_type WHERE oid = '@SCHEMA@ksuid'::regtype)
			USING ERRCODE = 'duplicate_object',
				HINT = 'Rename or drop that domain, and run the script again; bytea_to_ksuid() then converts 20-byte values.';
	END IF;
END $$;
COMMENT ON DOMAIN @SCHEMA@ksuid IS 'A KSUID in its 27-character text form, which sorts by time (sortid)';

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

-- bytea_to_ksuid returns the KSUID of its 20 bytes, for data another
-- tool stored as bytea. The 160-bit number is cut into three parts below
-- 62^9, whose nine digits each come out of bigint arithmetic in one
-- expression: a loop over the digits costs ten times as much, and
-- ksuid_generate() pays it for every row.
CREATE OR REPLACE FUNCTION @SCHEMA@bytea_to_ksuid(id bytea) RETURNS @SCHEMA@ksuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	a constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
	n numeric;
	c0 bigint;
	c1 bigint;
	c2 bigint;
BEGIN
	IF octet_length(id) <> 20 THEN
		RAISE EXCEPTION 'bytea_to_ksuid: % is % bytes; a KSUID is 20', id, octet_length(id)
			USING ERRCODE = 'invalid_binary_representation';
	END IF;
	-- The number, from five words of 32 bits.
	n := ((((get_byte(id, 0)::bigint * 16777216 + get_byte(id, 1) * 65536 + get_byte(id, 2) * 256 + get_byte(id, 3))::numeric * 4294967296
		+ (get_byte(id, 4)::bigint * 16777216 + get_byte(id, 5) * 65536 + get_byte(id, 6) * 256 + get_byte(id, 7))) * 4294967296
		+ (get_byte(id, 8)::bigint * 16777216 + get_byte(id, 9) * 65536 + get_byte(id, 10) * 256 + get_byte(id, 11))) * 4294967296
		+ (get_byte(id, 12)::bigint * 16777216 + get_byte(id, 13) * 65536 + get_byte(id, 14) * 256 + get_byte(id, 15))) * 4294967296
		+ (get_byte(id, 16)::bigint * 16777216 + get_byte(id, 17) * 65536 + get_byte(id, 18) * 256 + get_byte(id, 19));
	c0 := div(n, 183252712161029662582812243656704); -- 62^18
	c1 := mod(div(n, 13537086546263552), 13537086546263552); -- 62^9
	c2 := mod(n, 13537086546263552);
	RETURN substr(a, (c0 / 218340105584896 % 62)::int + 1, 1) || substr(a, (c0 / 3521614606208 % 62)::int + 1, 1) || substr(a, (c0 / 56800235584 % 62)::int + 1, 1)
		|| substr(a, (c0 / 916132832 % 62)::int + 1, 1) || substr(a, (c0 / 14776336 % 62)::int + 1, 1) || substr(a, (c0 / 238328 % 62)::int + 1, 1)
		|| substr(a, (c0 / 3844 % 62)::int + 1, 1) || substr(a, (c0 / 62 % 62)::int + 1, 1) || substr(a, (c0 % 62)::int + 1, 1)
		|| substr(a, (c1 / 218340105584896 % 62)::int + 1, 1) || substr(a, (c1 / 3521614606208 % 62)::int + 1, 1) || substr(a, (c1 / 56800235584 % 62)::int + 1, 1)
		|| substr(a, (c1 / 916132832 % 62)::int + 1, 1) || substr(a, (c1 / 14776336 % 62)::int + 1, 1) || substr(a, (c1 / 238328 % 62)::int + 1, 1)
		|| substr(a, (c1 / 3844 % 62)::int + 1, 1) || substr(a, (c1 / 62 % 62)::int + 1, 1) || substr(a, (c1 % 62)::int + 1, 1)
		|| substr(a, (c2 / 218340105584896 % 62)::int + 1, 1) || substr(a, (c2 / 3521614606208 % 62)::int + 1, 1) || substr(a, (c2 / 56800235584 % 62)::int + 1, 1)
		|| substr(a, (c2 / 916132832 % 62)::int + 1, 1) || substr(a, (c2 / 14776336 % 62)::int + 1, 1) || substr(a, (c2 / 238328 % 62)::int + 1, 1)
		|| substr(a, (c2 / 3844 % 62)::int + 1, 1) || substr(a, (c2 / 62 % 62)::int + 1, 1) || substr(a, (c2 % 62)::int + 1, 1);
END $$;

-- ksuid_to_bytea returns the 20 bytes of a KSUID: the digits in three
-- parts of nine, as bytea_to_ksuid writes them.
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_to_bytea(id @SCHEMA@ksuid) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	a constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
	n numeric;
BEGIN
	n := ((strpos(a, substr(id, 1, 1)) - 1)::bigint * 218340105584896 + (strpos(a, substr(id, 2, 1)) - 1)::bigint * 3521614606208 + (strpos(a, substr(id, 3, 1)) - 1)::bigint * 56800235584 + (strpos(a, substr(id, 4, 1)) - 1)::bigint * 916132832 + (strpos(a, substr(id, 5, 1)) - 1)::bigint * 14776336 + (strpos(a, substr(id, 6, 1)) - 1)::bigint * 238328 + (strpos(a, substr(id, 7, 1)) - 1)::bigint * 3844 + (strpos(a, substr(id, 8, 1)) - 1)::bigint * 62 + (strpos(a, substr(id, 9, 1)) - 1)::bigint)::numeric * 183252712161029662582812243656704
		+ ((strpos(a, substr(id, 10, 1)) - 1)::bigint * 218340105584896 + (strpos(a, substr(id, 11, 1)) - 1)::bigint * 3521614606208 + (strpos(a, substr(id, 12, 1)) - 1)::bigint * 56800235584 + (strpos(a, substr(id, 13, 1)) - 1)::bigint * 916132832 + (strpos(a, substr(id, 14, 1)) - 1)::bigint * 14776336 + (strpos(a, substr(id, 15, 1)) - 1)::bigint * 238328 + (strpos(a, substr(id, 16, 1)) - 1)::bigint * 3844 + (strpos(a, substr(id, 17, 1)) - 1)::bigint * 62 + (strpos(a, substr(id, 18, 1)) - 1)::bigint)::numeric * 13537086546263552
		+ ((strpos(a, substr(id, 19, 1)) - 1)::bigint * 218340105584896 + (strpos(a, substr(id, 20, 1)) - 1)::bigint * 3521614606208 + (strpos(a, substr(id, 21, 1)) - 1)::bigint * 56800235584 + (strpos(a, substr(id, 22, 1)) - 1)::bigint * 916132832 + (strpos(a, substr(id, 23, 1)) - 1)::bigint * 14776336 + (strpos(a, substr(id, 24, 1)) - 1)::bigint * 238328 + (strpos(a, substr(id, 25, 1)) - 1)::bigint * 3844 + (strpos(a, substr(id, 26, 1)) - 1)::bigint * 62 + (strpos(a, substr(id, 27, 1)) - 1)::bigint);
	-- The first 4 bytes, then two times 8, each as the bigint whose
	-- two's complement they are.
	RETURN substring(int8send(div(n, 340282366920938463463374607431768211456)::bigint) FROM 5 FOR 4) -- 2^128
		|| int8send((CASE WHEN mod(div(n, 18446744073709551616), 18446744073709551616) >= 9223372036854775808
			THEN mod(div(n, 18446744073709551616), 18446744073709551616) - 18446744073709551616
			ELSE mod(div(n, 18446744073709551616), 18446744073709551616) END)::bigint)
		|| int8send((CASE WHEN mod(n, 18446744073709551616) >= 9223372036854775808
			THEN mod(n, 18446744073709551616) - 18446744073709551616
			ELSE mod(n, 18446744073709551616) END)::bigint);
END $$;

-- ksuid_generate returns a new KSUID for clock_timestamp(), laid out as
-- ksuid.New lays out its IDs in Go: the seconds, then the fraction of the
-- second in 3 bytes (units of 2^-24 s), then 13 random bytes. IDs made in
-- SQL and in Go therefore interleave in time order to the microsecond.
-- The 7 bytes of time are the hex digits of seconds * 2^24 + fraction
-- after a leading 1 (2^56 added): a clock before 2014 gives fewer digits
-- and so an error. A clock past 2150-06-19 23:21:35 UTC, which a KSUID
-- cannot hold, reaches 2^57, and the number times 64 then overflows
-- bigint: an error ("bigint out of range"), as the C function raises
-- one, and not an ID that wraps to 2014. (SQL cannot raise an error of
-- its own without a second read of the clock or a subquery, which cost
-- 40% more an ID.)
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_generate() RETURNS @SCHEMA@ksuid
LANGUAGE sql VOLATILE PARALLEL SAFE
RETURN @SCHEMA@bytea_to_ksuid(decode(substring(to_hex((floor(date_part('epoch', clock_timestamp()) * 16777216)::bigint
		- 23488102400000000 + 72057594037927936) * 64 / 64) FROM 2), 'hex')
	|| gen_random_bytes(13));

-- ksuid_to_text returns the text of a KSUID, which is the value itself:
-- it is here so that SQL written for the extension runs on the domain.
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_to_text(id @SCHEMA@ksuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id::text;

-- ksuid_from_text returns its argument as a KSUID. Like the Go package's
-- Parse it accepts nothing else: a wrong length, a character outside
-- 0-9A-Za-z, or a value above the largest KSUID is an error that quotes
-- the input (at most its first 64 characters) and says which.
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_from_text(text_form text) RETURNS @SCHEMA@ksuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	quoted constant text := '"' || left(text_form, 64) || CASE WHEN length(text_form) > 64 THEN '"...' ELSE '"' END;
	bad text;
BEGIN
	IF length(text_form) <> 27 THEN
		RAISE EXCEPTION 'ksuid_from_text: parsing %: invalid length %, want 27', quoted, length(text_form)
			USING ERRCODE = 'invalid_text_representation';
	END IF;
	bad := substring(text_form FROM '[^0-9A-Za-z]');
	IF bad IS NOT NULL THEN
		RAISE EXCEPTION 'ksuid_from_text: parsing %: invalid character "%" at offset %', quoted, bad, strpos(text_form, bad) - 1
			USING ERRCODE = 'invalid_text_representation';
	END IF;
	IF text_form COLLATE "C" > 'aWgEPTl1tmebfsQzFP4bxwgy80V' THEN
		RAISE EXCEPTION 'ksuid_from_text: parsing %: value out of range (above aWgEPTl1tmebfsQzFP4bxwgy80V)', quoted
			USING ERRCODE = 'numeric_value_out_of_range';
	END IF;
	RETURN text_form;
END $$;

-- ksuid_time returns the second a KSUID was made in.
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_time(id @SCHEMA@ksuid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN to_timestamp(1400000000 + ('x' || encode(substring(@SCHEMA@ksuid_to_bytea(id) FROM 1 FOR 4), 'hex'))::bit(32)::bigint);

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
	RETURN @SCHEMA@bytea_to_ksuid(substring(int8send(seconds::bigint) FROM 5 FOR 4) || decode(repeat('00', 16), 'hex'));
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
	RETURN @SCHEMA@bytea_to_ksuid(substring(int8send(seconds::bigint) FROM 5 FOR 4) || decode(repeat('ff', 16), 'hex'));
END $$;

-- ksuid_time_encoder and ksuid_time_decoder are the pair pg_partman (5.2
-- and later) takes to partition a text column of KSUIDs by time
-- (create_parent's p_time_encoder and p_time_decoder): the smallest KSUID
-- of a time's second, as text, and the second of a KSUID's text, which
-- must be a valid KSUID. pg_partman calls them under its own search path,
-- so they run under the one they were created in.
CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_time_encoder(t timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT
RETURN @SCHEMA@ksuid_min_at(t)::text;

CREATE OR REPLACE FUNCTION @SCHEMA@ksuid_time_decoder(id text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT
RETURN @SCHEMA@ksuid_time(@SCHEMA@ksuid_from_text(id));

