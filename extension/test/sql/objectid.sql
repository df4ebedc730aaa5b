-- The objectid type: text forms, casts, time, order, indexes and
-- aggregates. Every value is written by hand from the ObjectId layout.
SET TimeZone = 'UTC';

-- 24 hex digits in either case, with or without \x; out in lowercase.
SELECT '507f1f77bcf86cd799439011'::objectid;
SELECT '507F1F77BCF86CD799439011'::objectid, '\x507f1f77bcf86cd799439011'::objectid;
SELECT '507f1f77bcf86cd799439011'::objectid::bytea;
SELECT '000000000000000000000000'::objectid, 'ffffffffffffffffffffffff'::objectid;

-- Bad text is an error that quotes the input and says why.
SELECT '507f1f77bcf86cd79943901'::objectid;
SELECT '507f1f77bcf86cd7994390111'::objectid;
SELECT '507f1f77bcf86cd79943901g'::objectid;
SELECT '507f1f77-cf86cd799439011'::objectid;
SELECT ''::objectid;
SELECT '\x507f1f77'::objectid;

-- The casts from text and bytea take what the input takes.
SELECT '\x507f1f77bcf86cd799439011'::text::objectid = '507f1f77bcf86cd799439011'::objectid AS hex_text_cast,
	'507F1F77BCF86CD799439011'::text::objectid = '507f1f77bcf86cd799439011'::objectid AS upper_text_cast,
	'\x507f1f77bcf86cd799439011'::bytea::objectid = '507f1f77bcf86cd799439011'::objectid AS bytea_cast;
SELECT '507f1f77bcf86cd79943901g'::text::objectid;
SELECT '\x507f1f77'::bytea::objectid;
SELECT '507f1f77bcf86cd799439011'::objectid::text, objectid_send('507f1f77bcf86cd799439011');

-- Time: 0x507f1f77 is second 1350508407, 2012-10-17 21:13:27 UTC.
SELECT objectid_time('507f1f77bcf86cd799439011');
SELECT objectid_min_at('2012-10-17 21:13:27.9+00'), objectid_max_at('2012-10-17 21:13:27+00');
SELECT objectid_min_at('1969-12-31 23:59:59+00');
SELECT objectid_min_at('2106-02-07 06:28:16+00');

-- Order, NOT IN, min and max.
CREATE TABLE o (id objectid PRIMARY KEY, n int);
INSERT INTO o VALUES
	('ffffffffffffffffffffffff', 3),
	('507f1f77bcf86cd799439012', 2),
	('000000000000000000000000', 0),
	('507f1f77bcf86cd799439011', 1);
SELECT n, id FROM o ORDER BY id;
SELECT count(*) FROM o WHERE id NOT IN ('000000000000000000000000', '507F1F77BCF86CD799439011');
SELECT min(id), max(id) FROM o;

-- 50,000 ObjectIDs of one process in one second, in reverse: their
-- first 9 bytes are the same, so the sort gives up its abbreviated keys,
-- and still sorts them in byte order.
CREATE TABLE o_many AS
	SELECT decode('66000000' || 'a1b2c3d4e5' || lpad(to_hex(i), 6, '0'), 'hex')::objectid AS id, i
	FROM generate_series(49999, 0, -1) i;
SELECT count(*) FILTER (WHERE i <> rn - 1) AS out_of_order
FROM (SELECT i, row_number() OVER (ORDER BY id) AS rn FROM o_many) s;

-- BRIN over ObjectIDs a second apart.
CREATE TABLE o_log AS
	SELECT objectid_min_at(timestamptz '2024-01-01 00:00:00+00' + i * interval '1 second') AS id, i
	FROM generate_series(0, 49999) i;
CREATE INDEX o_log_brin ON o_log USING brin (id) WITH (pages_per_range = 4);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM o_log
	WHERE id >= objectid_min_at('2024-01-01 03:00:00+00') AND id < objectid_min_at('2024-01-01 04:00:00+00');
SELECT count(*) FROM o_log
	WHERE id >= objectid_min_at('2024-01-01 03:00:00+00') AND id < objectid_min_at('2024-01-01 04:00:00+00');
RESET enable_seqscan;

-- pg_partman's pair (Go's objectid.MinAt of 2024-03-01T00:00:00Z is
-- 65e11a800000000000000000, MaxAt of 12:34:56 is 65e1cb70ffffffffffffffff).
SELECT objectid_time_encoder('2024-03-01 00:00:00+00') = '65e11a800000000000000000' AS encoder_is_min_at,
	pg_typeof(objectid_time_encoder('2024-03-01 00:00:00+00')) AS encoded_as;
SELECT objectid_time_decoder('65e1cb70ffffffffffffffff') = '2024-03-01 12:34:56+00' AS decoded;
SELECT objectid_time_decoder('65e1cb70fffffffffffffffg');
SET search_path = pg_catalog;
SELECT public.objectid_time_decoder(public.objectid_time_encoder('2024-03-01 00:00:00+00')) = '2024-03-01 00:00:00+00' AS round_trip;
RESET search_path;
