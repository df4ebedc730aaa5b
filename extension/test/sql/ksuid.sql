-- The ksuid type: text and binary forms, casts, time, order, indexes,
-- aggregates and the generator. Every value here is written by hand from
-- the KSUID format (ksuid/ksuid_test.go holds the same vectors).
SET TimeZone = 'UTC';

-- Text in and out: the example vector (second 1500000000, payload 1..16),
-- the smallest and the largest KSUID, and the \x form of raw bytes.
SELECT '0qjBBlJIfbVLKwnJn4xpLGDr00e'::ksuid;
SELECT '0qjBBlJIfbVLKwnJn4xpLGDr00e'::ksuid::bytea;
SELECT '\x05f5e1000102030405060708090a0b0c0d0e0f10'::ksuid;
SELECT '\x05F5E1000102030405060708090A0B0C0D0E0F10'::ksuid;
SELECT '000000000000000000000000000'::ksuid, 'aWgEPTl1tmebfsQzFP4bxwgy80V'::ksuid;
SELECT 'aWgEPTl1tmebfsQzFP4bxwgy80V'::ksuid::bytea;

-- Bad text is an error that quotes the input and says why.
SELECT 'aWgEPTl1tmebfsQzFP4bxwgy80W'::ksuid;
SELECT '0qjBBlJIfbVLKwnJn4xpLGDr00'::ksuid;
SELECT '0qjBBlJIfbVLKwnJn4xpLGDr00ee'::ksuid;
SELECT '0qjBBlJIfbVLKwnJn4xpLGDr0-e'::ksuid;
SELECT '0qjBBlJIfbVLKwnJn4xpLGDr0ée'::ksuid;
SELECT ''::ksuid;
SELECT '\x05f5e100'::ksuid;
SELECT '\x05f5e1000102030405060708090a0b0c0d0e0f1g'::ksuid;
SELECT repeat('0', 100)::ksuid;

-- The casts from text and from bytea take what the input takes: the same
-- ID from each form, and the same errors.
SELECT '0qjBBlJIfbVLKwnJn4xpLGDr00e'::text::ksuid = '0qjBBlJIfbVLKwnJn4xpLGDr00e'::ksuid AS text_cast,
	'\x05f5e1000102030405060708090a0b0c0d0e0f10'::text::ksuid = '0qjBBlJIfbVLKwnJn4xpLGDr00e'::ksuid AS hex_text_cast,
	'\x05f5e1000102030405060708090a0b0c0d0e0f10'::bytea::ksuid = '0qjBBlJIfbVLKwnJn4xpLGDr00e'::ksuid AS bytea_cast;
SELECT 'aWgEPTl1tmebfsQzFP4bxwgy80W'::text::ksuid;
SELECT '\x05f5e100'::bytea::ksuid;
SELECT '0qjBBlJIfbVLKwnJn4xpLGDr00e'::ksuid::text, ksuid_to_text('0qjBBlJIfbVLKwnJn4xpLGDr00e');

-- Binary I/O: send is the 20 bytes.
SELECT ksuid_send('0qjBBlJIfbVLKwnJn4xpLGDr00e');

-- Time: the second a KSUID holds, and the bounds of a second.
SELECT ksuid_time('0qjBBlJIfbVLKwnJn4xpLGDr00e');
SELECT ksuid_time('000000000000000000000000000'), ksuid_time('aWgEPTl1tmebfsQzFP4bxwgy80V');
SELECT ksuid_min_at('2017-07-14 02:40:00.999+00')::bytea, ksuid_max_at('2017-07-14 02:40:00+00')::bytea;
SELECT ksuid_min_at('2017-07-14 04:40:00.5+02') = ksuid_min_at('2017-07-14 02:40:00+00') AS zone_agnostic;
SELECT ksuid_min_at('2014-05-13 16:53:19+00');
SELECT ksuid_max_at('infinity');

-- Order is byte order, which is time order.
CREATE TABLE k (id ksuid PRIMARY KEY, n int);
INSERT INTO k VALUES
	('aWgEPTl1tmebfsQzFP4bxwgy80V', 4),
	('0qjBBlJIfbVLKwnJn4xpLGDr00e', 2),
	('000000000000000000000000001', 1),
	('0qjBBlJIfbVLKwnJn4xpLGDr00f', 3),
	('000000000000000000000000000', 0);
SELECT n, id FROM k ORDER BY id;
SELECT n FROM k WHERE id > '0qjBBlJIfbVLKwnJn4xpLGDr00e' ORDER BY id DESC;
SELECT count(*) FROM k WHERE id NOT IN ('000000000000000000000000000', 'aWgEPTl1tmebfsQzFP4bxwgy80V');
SELECT count(*) FROM k WHERE id IS DISTINCT FROM '0qjBBlJIfbVLKwnJn4xpLGDr00e';
SELECT min(id), max(id) FROM k;
SELECT min(id) FROM k WHERE n > 10;
SELECT ksuid_cmp('000000000000000000000000001', '000000000000000000000000000'),
	ksuid_cmp('000000000000000000000000000', '000000000000000000000000000'),
	ksuid_cmp('000000000000000000000000000', 'aWgEPTl1tmebfsQzFP4bxwgy80V');
-- The \x form is the same key as the text.
INSERT INTO k VALUES ('\x05f5e1000102030405060708090a0b0c0d0e0f10', 9);

-- A hash index and a hash join find the same rows as the B-tree.
CREATE TABLE k_hashed AS SELECT * FROM k;
CREATE INDEX k_hashed_id ON k_hashed USING hash (id);
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT n FROM k_hashed WHERE id = '0qjBBlJIfbVLKwnJn4xpLGDr00f';
SELECT n FROM k_hashed WHERE id = '0qjBBlJIfbVLKwnJn4xpLGDr00f';
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_mergejoin = off;
SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM k a JOIN k_hashed b USING (id);
SELECT count(*) FROM k a JOIN k_hashed b USING (id);
RESET enable_mergejoin;
RESET enable_nestloop;

-- Sorting 50,000 KSUIDs, one a second, given in reverse and with their
-- payload counting down: a sort (with abbreviated keys) and a B-tree
-- build put them in byte order.
CREATE TABLE k_many AS
	SELECT (substr(ksuid_min_at(timestamptz '2024-01-01 00:00:00+00' + i * interval '1 second')::bytea, 1, 4)
		|| decode(lpad(to_hex(50000 - i), 32, '0'), 'hex'))::ksuid AS id, i
	FROM generate_series(49999, 0, -1) i;
SELECT count(*) FILTER (WHERE i <> rn - 1) AS out_of_order
FROM (SELECT i, row_number() OVER (ORDER BY id) AS rn FROM k_many) s;
CREATE INDEX k_many_id ON k_many (id);
SET enable_seqscan = off;
SELECT count(*) FILTER (WHERE i <> rn - 1) AS out_of_order
FROM (SELECT i, row_number() OVER () AS rn FROM (SELECT i FROM k_many ORDER BY id) o) s;
RESET enable_seqscan;

-- BRIN: a range of an hour reads only the block ranges that hold it.
DROP INDEX k_many_id;
CREATE INDEX k_many_brin ON k_many USING brin (id) WITH (pages_per_range = 4);
SET enable_seqscan = off;
SET enable_indexscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM k_many
	WHERE id >= ksuid_min_at('2024-01-01 03:00:00+00') AND id < ksuid_min_at('2024-01-01 04:00:00+00');
SELECT count(*) FROM k_many
	WHERE id >= ksuid_min_at('2024-01-01 03:00:00+00') AND id < ksuid_min_at('2024-01-01 04:00:00+00');
RESET enable_seqscan;
RESET enable_indexscan;

-- The generator: KSUIDs of now, each after the one before, in a
-- statement and across statements.
SELECT count(*) AS generated, count(DISTINCT id) AS distinct_ids,
	bool_and(ksuid_time(id) BETWEEN date_trunc('second', now()) - interval '1 minute' AND now() + interval '1 minute') AS of_now
FROM (SELECT ksuid_generate() AS id FROM generate_series(1, 10000)) g;
SELECT count(*) FILTER (WHERE id <= prev) AS not_increasing
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS prev
	FROM (SELECT n, ksuid_generate() AS id FROM generate_series(1, 10000) n) g) s;
CREATE TABLE k_gen (id ksuid PRIMARY KEY DEFAULT ksuid_generate(), n int);
INSERT INTO k_gen (n) SELECT generate_series(1, 1000);
INSERT INTO k_gen (n) SELECT generate_series(1001, 2000);
SELECT count(*) FILTER (WHERE n <> rn) AS out_of_order FROM (SELECT n, row_number() OVER (ORDER BY id) AS rn FROM k_gen) s;

-- pg_partman's pair: the smallest KSUID of a time as text (Go's
-- ksuid.MinAt of 2024-03-01T00:00:00Z is 2d3ykafzYwGnkMqnex3Bf5k5Uye),
-- and the second of a KSUID's text (ksuid.MaxAt of 12:34:56 that day is
-- 2d5SYwTT3R6UOsvlVOr3nNxzSvP); text that is not a KSUID, and a time
-- outside the KSUID range, are errors. Both work under pg_partman's
-- search path, which leaves the extension's schema out.
SELECT ksuid_time_encoder('2024-03-01 00:00:00+00') = '2d3ykafzYwGnkMqnex3Bf5k5Uye' AS encoder_is_min_at,
	pg_typeof(ksuid_time_encoder('2024-03-01 00:00:00+00')) AS encoded_as;
SELECT ksuid_time_decoder('2d5SYwTT3R6UOsvlVOr3nNxzSvP') = '2024-03-01 12:34:56+00' AS decoded;
SELECT ksuid_time_decoder('2d5SYwTT3R6UOsvlVOr3nNxzSv');
SELECT ksuid_time_encoder('2014-05-13 16:53:19+00');
SET search_path = pg_catalog;
SELECT public.ksuid_time_decoder(public.ksuid_time_encoder('2024-03-01 00:00:00+00')) = '2024-03-01 00:00:00+00' AS round_trip;
RESET search_path;
