
-- The uuidv7 part.

-- UUIDv7 (RFC 9562) in PostgreSQL's own uuid type, which needs no domain:
-- it is 16 bytes, compares as bytes, and reads the text form in every
-- query mode. uuidv7_generate is the column default; on PostgreSQL 18 it
-- is the built-in uuidv7(), and before 18 one SQL expression with the
-- same layout, which uuidv7.New in Go also uses: the millisecond, the
-- fraction of it in rand_a (12 bits, here from the microsecond), 62
-- random bits from pgcrypto, which this part creates only on a server
-- before 18 (18 needs no extension). IDs from Go and from either version
-- therefore interleave by time to the microsecond. (Before 18, two IDs of
-- one session in the same microsecond are not ordered between
-- themselves; 18's uuidv7() orders them.)
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 180000 THEN
		EXECUTE 'CREATE OR REPLACE FUNCTION @SCHEMA@uuidv7_generate() RETURNS uuid
			LANGUAGE sql VOLATILE PARALLEL SAFE RETURN pg_catalog.uuidv7()';
	ELSE
		CREATE EXTENSION IF NOT EXISTS pgcrypto;
		IF to_regprocedure('gen_random_bytes(integer)') IS NULL THEN
			RAISE EXCEPTION 'sortid: uuidv7_generate needs gen_random_bytes from the pgcrypto extension before PostgreSQL 18, which is installed in a schema outside the search path (%); add that schema to the search path and run the script again',
				current_setting('search_path');
		END IF;
		EXECUTE 'CREATE OR REPLACE FUNCTION @SCHEMA@uuidv7_generate() RETURNS uuid
			LANGUAGE sql VOLATILE PARALLEL SAFE
			RETURN (SELECT encode(int8send((us / 1000) * 65536 + 28672 + (us % 1000) * 4096 / 1000)
					|| set_byte(r, 0, (get_byte(r, 0) & 63) | 128), ''hex'')::uuid
				FROM (SELECT floor(date_part(''epoch'', clock_timestamp()) * 1000000)::bigint AS us,
					gen_random_bytes(8) AS r) AS now_and_random)';
	END IF;
END $$;

-- uuidv7_time returns the millisecond a UUIDv7 was made in (as
-- uuid_extract_timestamp does on PostgreSQL 17 and later); a UUID of
-- another version is an error.
CREATE OR REPLACE FUNCTION @SCHEMA@uuidv7_time(id uuid) RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	digits constant text := replace(id::text, '-', '');
	ms bigint;
BEGIN
	IF substr(digits, 13, 1) <> '7' OR substr(digits, 17, 1) NOT IN ('8', '9', 'a', 'b') THEN
		RAISE EXCEPTION 'uuidv7_time: % is not a version 7 UUID with the RFC 9562 variant', id
			USING ERRCODE = 'invalid_parameter_value';
	END IF;
	ms := ('x' || substr(digits, 1, 12))::bit(48)::bigint;
	-- In two parts: an interval times a number is computed in double
	-- precision, which is not exact to the millisecond in year 10889.
	RETURN timestamptz 'epoch' + (ms / 1000) * interval '1 second' + (ms % 1000) * interval '1 millisecond';
END $$;

-- uuidv7_min_at and uuidv7_max_at return the smallest and the largest
-- UUIDv7 of the millisecond that holds t, the bounds of a time window:
-- WHERE id BETWEEN uuidv7_min_at(from) AND uuidv7_max_at(to).
CREATE OR REPLACE FUNCTION @SCHEMA@uuidv7_min_at(t timestamptz) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	ms constant numeric := floor(extract(epoch FROM t) * 1000);
BEGIN
	IF ms < 0 OR ms > 281474976710655 THEN
		RAISE EXCEPTION 'uuidv7_min_at: the time % is outside the UUIDv7 range (1970-01-01 00:00:00 UTC to the year 10889)', t
			USING ERRCODE = 'datetime_field_overflow';
	END IF;
	RETURN (lpad(to_hex(ms::bigint), 12, '0') || '70008000000000000000')::uuid;
END $$;

CREATE OR REPLACE FUNCTION @SCHEMA@uuidv7_max_at(t timestamptz) RETURNS uuid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	ms constant numeric := floor(extract(epoch FROM t) * 1000);
BEGIN
	IF ms < 0 OR ms > 281474976710655 THEN
		RAISE EXCEPTION 'uuidv7_max_at: the time % is outside the UUIDv7 range (1970-01-01 00:00:00 UTC to the year 10889)', t
			USING ERRCODE = 'datetime_field_overflow';
	END IF;
	RETURN (lpad(to_hex(ms::bigint), 12, '0') || '7fffbfffffffffffffff')::uuid;
END $$;

-- uuidv7_time_encoder and uuidv7_time_decoder are the pair pg_partman
-- (5.2 and later) takes to partition a uuid column of UUIDv7s by time, as
-- ksuid_time_encoder and ksuid_time_decoder are for KSUIDs (pg_partman's
-- own uuid7_time_encoder and uuid7_time_decoder serve as well). The
-- decoder takes the UUID's text, as pg_partman passes it.
CREATE OR REPLACE FUNCTION @SCHEMA@uuidv7_time_encoder(t timestamptz) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT
RETURN @SCHEMA@uuidv7_min_at(t);

CREATE OR REPLACE FUNCTION @SCHEMA@uuidv7_time_decoder(id text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT
RETURN @SCHEMA@uuidv7_time(id::uuid);

