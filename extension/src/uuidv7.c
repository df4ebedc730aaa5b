/*
 * uuidv7.c: UUIDv7 (RFC 9562) in PostgreSQL's own uuid type:
 * uuidv7_generate, uuidv7_time, uuidv7_min_at and uuidv7_max_at, which
 * `sortid sql` defines in SQL for servers without the extension.
 */
#include "sortid.h"

#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

/* The largest millisecond a UUIDv7 holds: 2^48 - 1. */
#define UUIDV7_MAX_MS INT64CONST(281474976710655)

/*
 * uuidv7_generate lays out its UUIDs as Go's uuidv7.New does: the
 * millisecond, the fraction of it in rand_a (12 bits), then 62 random
 * bits. Within a backend each UUID sorts after the one before: when the
 * clock has not moved on past the last UUID's 1/4096 ms, the next takes
 * the tick after the last one.
 */
static uint64 last_uuid_tick = 0;

PG_FUNCTION_INFO_V1(uuidv7_generate);
Datum
uuidv7_generate(PG_FUNCTION_ARGS)
{
	int64		sec;
	int32		nsec;
	uint64		tick;
	pg_uuid_t  *uuid = (pg_uuid_t *) palloc(UUID_LEN);

	sortid_clock(&sec, &nsec);
	/* Milliseconds times 4096, plus the fraction of the millisecond. */
	tick = ((uint64) sec * 1000 + (uint64) (nsec / 1000000)) << 12 |
		(uint64) (nsec % 1000000) * 4096 / 1000000;
	if (tick <= last_uuid_tick)
		tick = last_uuid_tick + 1;
	if (tick >> 12 > (uint64) UUIDV7_MAX_MS)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("uuidv7_generate: the clock is past the UUIDv7 range")));
	last_uuid_tick = tick;

	for (int i = 5; i >= 0; i--)
		uuid->data[i] = (uint8) (tick >> (12 + 8 * (5 - i)));
	uuid->data[6] = (uint8) (0x70 | ((tick >> 8) & 0x0F));
	uuid->data[7] = (uint8) tick;
	sortid_random_bytes(uuid->data + 8, 8);
	uuid->data[8] = (uint8) (0x80 | (uuid->data[8] & 0x3F));
	PG_RETURN_UUID_P(uuid);
}

PG_FUNCTION_INFO_V1(uuidv7_time);
Datum
uuidv7_time(PG_FUNCTION_ARGS)
{
	const pg_uuid_t *uuid = PG_GETARG_UUID_P(0);
	int64		ms = 0;

	if ((uuid->data[6] & 0xF0) != 0x70 || (uuid->data[8] & 0xC0) != 0x80)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("uuidv7_time: %s is not a version 7 UUID with the RFC 9562 variant",
						DatumGetCString(DirectFunctionCall1(uuid_out, UUIDPGetDatum(uuid))))));
	for (int i = 0; i < 6; i++)
		ms = ms << 8 | uuid->data[i];
	PG_RETURN_TIMESTAMPTZ((ms - (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * 1000) * 1000);
}

/*
 * uuidv7_at returns the smallest (fill 0) or the largest (fill 0xFF)
 * UUIDv7 of the millisecond that holds t, version and variant bits set.
 */
static pg_uuid_t *
uuidv7_at(TimestampTz t, uint8 fill, const char *caller)
{
	int64		ms;
	pg_uuid_t  *uuid;

	if (TIMESTAMP_NOT_FINITE(t))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("%s: the time is infinite", caller)));
	/* Rounded down, also before 2000 (PostgreSQL's epoch). */
	ms = t / 1000;
	if (t % 1000 < 0)
		ms--;
	ms += (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * 1000;
	if (ms < 0 || ms > UUIDV7_MAX_MS)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("%s: the time %s is outside the UUIDv7 range (1970-01-01 00:00:00 UTC to the year 10889)",
						caller, timestamptz_to_str(t))));
	uuid = (pg_uuid_t *) palloc(UUID_LEN);
	for (int i = 5; i >= 0; i--, ms >>= 8)
		uuid->data[i] = (uint8) ms;
	memset(uuid->data + 6, fill, UUID_LEN - 6);
	uuid->data[6] = (uint8) (0x70 | (fill & 0x0F));
	uuid->data[8] = (uint8) (0x80 | (fill & 0x3F));
	return uuid;
}

PG_FUNCTION_INFO_V1(uuidv7_min_at);
Datum
uuidv7_min_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(uuidv7_at(PG_GETARG_TIMESTAMPTZ(0), 0, "uuidv7_min_at"));
}

PG_FUNCTION_INFO_V1(uuidv7_max_at);
Datum
uuidv7_max_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(uuidv7_at(PG_GETARG_TIMESTAMPTZ(0), 0xFF, "uuidv7_max_at"));
}
