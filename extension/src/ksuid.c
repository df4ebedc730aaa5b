/*
 * ksuid.c: the ksuid type (20 bytes: seconds since 2014-05-13 16:53:20
 * UTC, then 16 payload bytes; as text, 27 base62 characters) and its
 * functions.
 */
#include "sortid.h"

#include "common/hashfn.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

/* The KSUID epoch, 2014-05-13 16:53:20 UTC, in seconds since 1970. */
#define KSUID_EPOCH 1400000000

#define KSUID_EXPECTED "a ksuid is 27 base62 characters (0-9, A-Z, a-z) or \\x and 40 hex digits"

/*
 * ksuid_parse reads the text of a KSUID into id: 27 base62 characters, or
 * \x and 40 hex digits, the form in which clients send raw bytes as text
 * (lib/pq, the simple protocol); the two cannot be confused, since base62
 * has no backslash. On bad input it reports the error through escontext
 * (see sortid_text_error) and returns false.
 */
static bool
ksuid_parse(uint8 *id, const char *src, size_t len, Node *escontext)
{
	IdTextResult result;
	long		bad;

	if (len >= 2 && src[0] == '\\' && src[1] == 'x')
	{
		result = hex_decode_exact(id, KSUID_SIZE, src + 2, len - 2, &bad);
		if (bad >= 0)
			bad += 2;
	}
	else
		result = ksuid_decode_text(id, src, len, &bad);
	if (result == IDTEXT_OK)
		return true;
	sortid_text_error(escontext, "ksuid", src, len, result, bad, KSUID_EXPECTED);
	return false;
}

PG_FUNCTION_INFO_V1(ksuid_in);
Datum
ksuid_in(PG_FUNCTION_ARGS)
{
	const char *src = PG_GETARG_CSTRING(0);
	uint8	   *id = (uint8 *) palloc(KSUID_SIZE);

	if (!ksuid_parse(id, src, strlen(src), fcinfo->context))
		PG_RETURN_NULL();
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(ksuid_out);
Datum
ksuid_out(PG_FUNCTION_ARGS)
{
	char	   *text = (char *) palloc(KSUID_TEXT_LEN + 1);

	ksuid_encode_text(text, (const uint8 *) PG_GETARG_POINTER(0));
	text[KSUID_TEXT_LEN] = '\0';
	PG_RETURN_CSTRING(text);
}

PG_FUNCTION_INFO_V1(ksuid_to_text);
Datum
ksuid_to_text(PG_FUNCTION_ARGS)
{
	text	   *result = (text *) palloc(VARHDRSZ + KSUID_TEXT_LEN);

	SET_VARSIZE(result, VARHDRSZ + KSUID_TEXT_LEN);
	ksuid_encode_text(VARDATA(result), (const uint8 *) PG_GETARG_POINTER(0));
	PG_RETURN_TEXT_P(result);
}

/*
 * ksuid_from_text, the cast from text, takes what the type's input takes,
 * so that '...'::ksuid and '...'::text::ksuid never disagree.
 */
PG_FUNCTION_INFO_V1(ksuid_from_text);
Datum
ksuid_from_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	uint8	   *id = (uint8 *) palloc(KSUID_SIZE);

	ksuid_parse(id, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), NULL);
	PG_RETURN_POINTER(id);
}

SORTID_BINARY_IO(ksuid, KSUID_SIZE, KSUID_TEXT_LEN, ksuid_decode_text)
SORTID_BYTEA_CASTS(ksuid, KSUID_SIZE)
SORTID_COMPARISONS(ksuid, KSUID_SIZE)

static uint32
read_be32(const uint8 *p)
{
	return (uint32) p[0] << 24 | (uint32) p[1] << 16 | (uint32) p[2] << 8 | (uint32) p[3];
}

PG_FUNCTION_INFO_V1(ksuid_time);
Datum
ksuid_time(PG_FUNCTION_ARGS)
{
	const uint8 *id = (const uint8 *) PG_GETARG_POINTER(0);

	PG_RETURN_TIMESTAMPTZ(time_t_to_timestamptz((pg_time_t) read_be32(id) + KSUID_EPOCH));
}

/*
 * ksuid_at returns the KSUID of the second that holds t with every payload
 * byte set to fill: the smallest (0) or the largest (0xFF) of that second.
 */
static uint8 *
ksuid_at(TimestampTz t, uint8 fill, const char *caller)
{
	int64		sec = sortid_unix_seconds(t, caller) - KSUID_EPOCH;
	uint8	   *id;

	if (sec < 0 || sec > PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("%s: the time %s is outside the KSUID range (2014-05-13 16:53:20 UTC to 2150-06-19 23:21:35 UTC)",
						caller, timestamptz_to_str(t))));
	id = (uint8 *) palloc(KSUID_SIZE);
	id[0] = (uint8) (sec >> 24);
	id[1] = (uint8) (sec >> 16);
	id[2] = (uint8) (sec >> 8);
	id[3] = (uint8) sec;
	memset(id + 4, fill, KSUID_SIZE - 4);
	return id;
}

PG_FUNCTION_INFO_V1(ksuid_min_at);
Datum
ksuid_min_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(ksuid_at(PG_GETARG_TIMESTAMPTZ(0), 0, "ksuid_min_at"));
}

PG_FUNCTION_INFO_V1(ksuid_max_at);
Datum
ksuid_max_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(ksuid_at(PG_GETARG_TIMESTAMPTZ(0), 0xFF, "ksuid_max_at"));
}

/*
 * ksuid_generate makes KSUIDs laid out as Go's ksuid.New makes them: the
 * second, then the fraction of the second in 3 bytes (units of 2^-24 s),
 * then 13 random bytes; so IDs from SQL and from Go interleave in time
 * order. Within a backend each ID sorts after the one before: when the
 * clock has not moved on past the last ID's tick (or has stepped back),
 * the next ID is the last plus a random step of 1 to 2^72, as Go's
 * monotonic generator does.
 */
static uint8 last_ksuid[KSUID_SIZE];
static bool have_last_ksuid = false;

/* Adds the big-endian number n (len bytes) to id; true if it overflowed. */
static bool
ksuid_add(uint8 *id, const uint8 *n, int len)
{
	unsigned int carry = 0;
	int			j = len - 1;

	for (int i = KSUID_SIZE - 1; i >= 0; i--)
	{
		unsigned int sum = id[i] + carry;

		if (j >= 0)
			sum += n[j--];
		else if (carry == 0)
			return false;
		id[i] = (uint8) sum;
		carry = sum >> 8;
	}
	return carry != 0;
}

PG_FUNCTION_INFO_V1(ksuid_generate);
Datum
ksuid_generate(PG_FUNCTION_ARGS)
{
	int64		sec;
	int32		nsec;
	uint64		tick;
	uint64		last_tick;
	uint8	   *id = (uint8 *) palloc(KSUID_SIZE);

	sortid_clock(&sec, &nsec);
	sec -= KSUID_EPOCH;
	if (sec < 0 || sec > PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("ksuid_generate: the clock is outside the KSUID range (2014-05-13 16:53:20 UTC to 2150-06-19 23:21:35 UTC)")));
	/* The first 7 bytes as one number: seconds and 24 bits of fraction. */
	tick = (uint64) sec << 24 | (uint64) nsec * (1 << 24) / 1000000000;
	last_tick = 0;
	for (int i = 0; i < 7; i++)
		last_tick = last_tick << 8 | last_ksuid[i];

	if (!have_last_ksuid || tick > last_tick)
	{
		for (int i = 6; i >= 0; i--, tick >>= 8)
			id[i] = (uint8) tick;
		sortid_random_bytes(id + 7, KSUID_SIZE - 7);
	}
	else
	{
		uint8		step[9];
		static const uint8 one[1] = {1};

		sortid_random_bytes(step, sizeof(step));
		memcpy(id, last_ksuid, KSUID_SIZE);
		if (ksuid_add(id, step, sizeof(step)) || ksuid_add(id, one, 1))
			ereport(ERROR,
					(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
					 errmsg("ksuid_generate: passed the largest KSUID")));
	}
	memcpy(last_ksuid, id, KSUID_SIZE);
	have_last_ksuid = true;
	PG_RETURN_POINTER(id);
}
