/*
 * objectid.c: the objectid type (MongoDB's ObjectId, 12 bytes: seconds
 * since 1970, then 8 more; as text, 24 hex digits) and its functions.
 */
#include "sortid.h"

#include "common/hashfn.h"
#include "libpq/pqformat.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"

#define OBJECTID_EXPECTED "an objectid is 24 hex digits (either case), with or without \\x before them"

/*
 * objectid_parse reads 24 hex digits into id, with or without \x before
 * them (the form in which clients send raw bytes as text: lib/pq, the
 * simple protocol). On bad input it reports the error through escontext
 * (see sortid_text_error) and returns false.
 */
static bool
objectid_parse(uint8 *id, const char *src, size_t len, Node *escontext)
{
	IdTextResult result;
	long		bad;
	size_t		skip = 0;

	if (len >= 2 && src[0] == '\\' && src[1] == 'x')
		skip = 2;
	result = hex_decode_exact(id, OBJECTID_SIZE, src + skip, len - skip, &bad);
	if (result == IDTEXT_OK)
		return true;
	sortid_text_error(escontext, "objectid", src, len, result, bad >= 0 ? bad + (long) skip : bad,
					  OBJECTID_EXPECTED);
	return false;
}

PG_FUNCTION_INFO_V1(objectid_in);
Datum
objectid_in(PG_FUNCTION_ARGS)
{
	const char *src = PG_GETARG_CSTRING(0);
	uint8	   *id = (uint8 *) palloc(OBJECTID_SIZE);

	if (!objectid_parse(id, src, strlen(src), fcinfo->context))
		PG_RETURN_NULL();
	PG_RETURN_POINTER(id);
}

PG_FUNCTION_INFO_V1(objectid_out);
Datum
objectid_out(PG_FUNCTION_ARGS)
{
	char	   *text = (char *) palloc(OBJECTID_TEXT_LEN + 1);

	objectid_encode_text(text, (const uint8 *) PG_GETARG_POINTER(0));
	text[OBJECTID_TEXT_LEN] = '\0';
	PG_RETURN_CSTRING(text);
}

PG_FUNCTION_INFO_V1(objectid_to_text);
Datum
objectid_to_text(PG_FUNCTION_ARGS)
{
	text	   *result = (text *) palloc(VARHDRSZ + OBJECTID_TEXT_LEN);

	SET_VARSIZE(result, VARHDRSZ + OBJECTID_TEXT_LEN);
	objectid_encode_text(VARDATA(result), (const uint8 *) PG_GETARG_POINTER(0));
	PG_RETURN_TEXT_P(result);
}

/*
 * objectid_from_text, the cast from text, takes what the type's input
 * takes, so that '...'::objectid and '...'::text::objectid never disagree.
 */
PG_FUNCTION_INFO_V1(objectid_from_text);
Datum
objectid_from_text(PG_FUNCTION_ARGS)
{
	text	   *t = PG_GETARG_TEXT_PP(0);
	uint8	   *id = (uint8 *) palloc(OBJECTID_SIZE);

	objectid_parse(id, VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t), NULL);
	PG_RETURN_POINTER(id);
}

/* The 24 hex digits of an ObjectID's text, for objectid_recv. */
static IdTextResult
objectid_decode_text(uint8 *id, const char *src, size_t len, long *bad)
{
	return hex_decode_exact(id, OBJECTID_SIZE, src, len, bad);
}

SORTID_BINARY_IO(objectid, OBJECTID_SIZE, OBJECTID_TEXT_LEN, objectid_decode_text)
SORTID_BYTEA_CASTS(objectid, OBJECTID_SIZE)
SORTID_COMPARISONS(objectid, OBJECTID_SIZE)

PG_FUNCTION_INFO_V1(objectid_time);
Datum
objectid_time(PG_FUNCTION_ARGS)
{
	const uint8 *id = (const uint8 *) PG_GETARG_POINTER(0);
	uint32		sec = (uint32) id[0] << 24 | (uint32) id[1] << 16 | (uint32) id[2] << 8 | (uint32) id[3];

	PG_RETURN_TIMESTAMPTZ(time_t_to_timestamptz((pg_time_t) sec));
}

/*
 * objectid_at returns the ObjectID of the second that holds t with its 8
 * bytes after the time set to fill: the smallest (0) or the largest (0xFF)
 * of that second.
 */
static uint8 *
objectid_at(TimestampTz t, uint8 fill, const char *caller)
{
	int64		sec = sortid_unix_seconds(t, caller);
	uint8	   *id;

	if (sec < 0 || sec > PG_UINT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("%s: the time %s is outside the ObjectID range (1970-01-01 00:00:00 UTC to 2106-02-07 06:28:15 UTC)",
						caller, timestamptz_to_str(t))));
	id = (uint8 *) palloc(OBJECTID_SIZE);
	id[0] = (uint8) (sec >> 24);
	id[1] = (uint8) (sec >> 16);
	id[2] = (uint8) (sec >> 8);
	id[3] = (uint8) sec;
	memset(id + 4, fill, OBJECTID_SIZE - 4);
	return id;
}

PG_FUNCTION_INFO_V1(objectid_min_at);
Datum
objectid_min_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(objectid_at(PG_GETARG_TIMESTAMPTZ(0), 0, "objectid_min_at"));
}

PG_FUNCTION_INFO_V1(objectid_max_at);
Datum
objectid_max_at(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(objectid_at(PG_GETARG_TIMESTAMPTZ(0), 0xFF, "objectid_max_at"));
}
