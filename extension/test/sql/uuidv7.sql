-- The UUIDv7 functions on PostgreSQL's uuid type.
SET TimeZone = 'UTC';

-- 0x017f22e279b0 is millisecond 1645557742000, 2022-02-22 19:22:22 UTC.
SELECT uuidv7_time('017f22e2-79b0-7cc3-98c4-dc0c0c07398f');
SELECT uuidv7_time('017f22e2-79b0-4cc3-98c4-dc0c0c07398f');
SELECT uuidv7_min_at('2022-02-22 19:22:22.0009+00'), uuidv7_max_at('2022-02-22 19:22:22+00');
SELECT uuidv7_min_at('1969-12-31 23:59:59.999+00');

-- The generator: version 7, variant 10, now, each after the one before.
SELECT count(*) AS generated, count(DISTINCT u) AS distinct_ids,
	bool_and(substr(u::text, 15, 1) = '7') AS version_7,
	bool_and(substr(u::text, 20, 1) IN ('8', '9', 'a', 'b')) AS variant,
	bool_and(uuidv7_time(u) BETWEEN now() - interval '1 minute' AND now() + interval '1 minute') AS of_now
FROM (SELECT uuidv7_generate() AS u FROM generate_series(1, 10000)) g;
SELECT count(*) FILTER (WHERE u <= prev) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY n) AS prev
	FROM (SELECT n, uuidv7_generate() AS u FROM generate_series(1, 10000) n) g) s;

-- pg_partman's pair for a uuid column (Go's uuidv7.MinAt of
-- 2024-03-01T00:00:00Z is 018df74f-8400-7000-8000-000000000000, MaxAt of
-- 12:34:56.000 is 018dfa02-ad80-7fff-bfff-ffffffffffff); the decoder takes
-- the UUID's text and refuses another version.
SELECT uuidv7_time_encoder('2024-03-01 00:00:00+00') = '018df74f-8400-7000-8000-000000000000' AS encoder_is_min_at,
	pg_typeof(uuidv7_time_encoder('2024-03-01 00:00:00+00')) AS encoded_as;
SELECT uuidv7_time_decoder('018dfa02-ad80-7fff-bfff-ffffffffffff') = '2024-03-01 12:34:56+00' AS decoded;
SELECT uuidv7_time_decoder('018dfa02-ad80-4fff-bfff-ffffffffffff');
SET search_path = pg_catalog;
SELECT public.uuidv7_time_decoder(public.uuidv7_time_encoder('2024-03-01 00:00:00+00')::text) = '2024-03-01 00:00:00+00' AS round_trip;
RESET search_path;
