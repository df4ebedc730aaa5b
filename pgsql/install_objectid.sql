
-- The objectid part.

-- The domain holds the 24 lowercase hex digits that ObjectID.String and
-- every MongoDB tool write; under "C" their order is the bytes' order.
-- Uppercase is refused rather than folded: two spellings of one ID would
-- compare unequal. objectid_from_text reads either case.
DO $$
BEGIN
	CREATE DOMAIN @SCHEMA@objectid AS text COLLATE "C"
		CONSTRAINT "24 lowercase hex digits; objectid_from_text() reads uppercase"
		CHECK (octet_length(VALUE) = 24 AND VALUE COLLATE "C" !~ '[^0-9a-f]');
EXCEPTION WHEN duplicate_object THEN
	IF (SELECT typbasetype FROM pg_type WHERE oid = '@SCHEMA@objectid'::regtype) <> 'text'::regtype THEN
		RAISE EXCEPTION 'sortid: the domain objectid exists over %, not text: it is from a development version of sortid or another tool; nothing was changed',
			(SELECT typbasetype::regtype FROM pg_type WHERE oid = '@SCHEMA@objectid'::regtype)
			USING ERRCODE = 'duplicate_object',
				HINT = 'Rename or drop that domain, and run the script again; bytea_to_objectid() then converts 12-byte values.';
	END IF;
END $$;
COMMENT ON DOMAIN @SCHEMA@objectid IS 'A MongoDB ObjectId in its 24-hex-digit text form, which sorts by time (sortid)';

-- bytea_to_objectid returns the ObjectID of its 12 bytes, for data
-- another tool stored as bytea.
CREATE OR REPLACE FUNCTION @SCHEMA@bytea_to_objectid(id bytea) RETURNS @SCHEMA@objectid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
	IF octet_length(id) <> 12 THEN
		RAISE EXCEPTION 'bytea_to_objectid: % is % bytes; an ObjectID is 12', id, octet_length(id)
			USING ERRCODE = 'invalid_binary_representation';
	END IF;
	RETURN encode(id, 'hex');
END $$;

-- objectid_to_bytea returns the 12 bytes of an ObjectID.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_to_bytea(id @SCHEMA@objectid) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN decode(id, 'hex');

-- objectid_to_text returns the text of an ObjectID, the value itself, so
-- that SQL written for the extension runs on the domain.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_to_text(id @SCHEMA@objectid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE RETURN id::text;

-- objectid_from_text returns the ObjectID of 24 hex digits (either case);
-- anything else is an error that quotes the input.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_from_text(text_form text) RETURNS @SCHEMA@objectid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	quoted constant text := '"' || left(text_form, 64) || CASE WHEN length(text_form) > 64 THEN '"...' ELSE '"' END;
	bad text;
BEGIN
	IF length(text_form) <> 24 THEN
		RAISE EXCEPTION 'objectid_from_text: parsing %: invalid length %, want 24', quoted, length(text_form)
			USING ERRCODE = 'invalid_text_representation';
	END IF;
	bad := substring(text_form FROM '[^0-9A-Fa-f]');
	IF bad IS NOT NULL THEN
		RAISE EXCEPTION 'objectid_from_text: parsing %: invalid character "%" at offset %', quoted, bad, strpos(text_form, bad) - 1
			USING ERRCODE = 'invalid_text_representation';
	END IF;
	RETURN lower(text_form);
END $$;

-- objectid_time returns the second an ObjectID was made in.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_time(id @SCHEMA@objectid) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN to_timestamp(('x' || left(id, 8))::bit(32)::bigint);

-- objectid_min_at and objectid_max_at return the smallest and the largest
-- ObjectID of the second that holds t, the bounds of a time window.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_min_at(t timestamptz) RETURNS @SCHEMA@objectid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	seconds constant numeric := floor(extract(epoch FROM t));
BEGIN
	IF seconds < 0 OR seconds > 4294967295 THEN
		RAISE EXCEPTION 'objectid_min_at: the time % is outside the ObjectID range (1970-01-01 00:00:00 UTC to 2106-02-07 06:28:15 UTC)', t
			USING ERRCODE = 'datetime_field_overflow';
	END IF;
	RETURN lpad(to_hex(seconds::bigint), 8, '0') || '0000000000000000';
END $$;

CREATE OR REPLACE FUNCTION @SCHEMA@objectid_max_at(t timestamptz) RETURNS @SCHEMA@objectid
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
	seconds constant numeric := floor(extract(epoch FROM t));
BEGIN
	IF seconds < 0 OR seconds > 4294967295 THEN
		RAISE EXCEPTION 'objectid_max_at: the time % is outside the ObjectID range (1970-01-01 00:00:00 UTC to 2106-02-07 06:28:15 UTC)', t
			USING ERRCODE = 'datetime_field_overflow';
	END IF;
	RETURN lpad(to_hex(seconds::bigint), 8, '0') || 'ffffffffffffffff';
END $$;

-- objectid_time_encoder and objectid_time_decoder are the pair pg_partman
-- (5.2 and later) takes to partition a text column of ObjectIDs by time,
-- as ksuid_time_encoder and ksuid_time_decoder are for KSUIDs.
CREATE OR REPLACE FUNCTION @SCHEMA@objectid_time_encoder(t timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT
RETURN @SCHEMA@objectid_min_at(t)::text;

CREATE OR REPLACE FUNCTION @SCHEMA@objectid_time_decoder(id text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT
RETURN @SCHEMA@objectid_time(@SCHEMA@objectid_from_text(id));
