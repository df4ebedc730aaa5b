/*
 * sortid.c: the extension's module, and what its types share: the random
 * source, the clock and the input errors.
 */
#include "sortid.h"

#include <time.h>

#include "common/hashfn.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/timestamp.h"

#ifdef PG_MODULE_MAGIC_EXT
/* 18 and later: the module names itself in pg_get_loaded_modules(). */
PG_MODULE_MAGIC_EXT(.name = "sortid",.version = "0.1.0");
#else
PG_MODULE_MAGIC;
#endif

/*
 * Random bytes are read from pg_strong_random in blocks, for speed: one
 * read serves about 300 KSUIDs. The block belongs to the process that read
 * it. A backend inherits the postmaster's memory when it forks, so a
 * library loaded by shared_preload_libraries would otherwise hand every
 * backend the same bytes: a block read by another process (another pid)
 * is thrown away unused.
 */
static uint8 random_block[4096];
static size_t random_used = sizeof(random_block);
static int	random_owner = 0;

void
sortid_random_bytes(uint8 *dst, size_t n)
{
	Assert(n <= sizeof(random_block));
	if (random_owner != MyProcPid)
	{
		random_used = sizeof(random_block);
		random_owner = MyProcPid;
	}
	if (n > sizeof(random_block) - random_used)
	{
		if (!pg_strong_random(random_block, sizeof(random_block)))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate random values")));
		random_used = 0;
	}
	memcpy(dst, random_block + random_used, n);
	/* A byte handed out is not left in memory to be read again. */
	memset(random_block + random_used, 0, n);
	random_used += n;
}

void
sortid_clock(int64 *sec, int32 *nsec)
{
#ifdef WIN32
	TimestampTz now = GetCurrentTimestamp();

	*sec = now / USECS_PER_SEC + (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
	*nsec = (int32) (now % USECS_PER_SEC) * 1000;
	if (*nsec < 0)
	{
		*sec -= 1;
		*nsec += 1000000000;
	}
#else
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not read the clock: %m")));
	*sec = ts.tv_sec;
	*nsec = (int32) ts.tv_nsec;
#endif
}

int64
sortid_unix_seconds(TimestampTz t, const char *caller)
{
	int64		sec;

	if (TIMESTAMP_NOT_FINITE(t))
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("%s: the time is infinite", caller)));
	/* Rounded down, also before 2000 (PostgreSQL's epoch). */
	sec = t / USECS_PER_SEC;
	if (t % USECS_PER_SEC < 0)
		sec--;
	return sec + (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
}

/* What a sort's abbreviated keys have seen. */
typedef struct AbbrevState
{
	int64		input_count;	/* keys made */
	bool		estimating;		/* still counting distinct keys */
	hyperLogLogState distinct;	/* estimate of the distinct keys */
} AbbrevState;

static bool
abbrev_abort(int memtupcount, SortSupport ssup)
{
	AbbrevState *state = (AbbrevState *) ssup->ssup_extra;
	double		distinct;

	/* Too few keys yet to judge; or judged good already. */
	if (memtupcount < 10000 || state->input_count < 10000 || !state->estimating)
		return false;
	distinct = estimateHyperLogLog(&state->distinct);
	/* Enough distinct keys that they will pay off whatever follows. */
	if (distinct > 100000.0)
	{
		state->estimating = false;
		return false;
	}
	/*
	 * Fewer than one distinct key in 2,000: most comparisons would fall
	 * through to memcmp anyway (PostgreSQL's own threshold for uuid).
	 */
	return distinct < state->input_count / 2000.0 + 0.5;
}

void
sortid_abbrev_init(SortSupport ssup)
{
	AbbrevState *state = (AbbrevState *) palloc(sizeof(AbbrevState));

	state->input_count = 0;
	state->estimating = true;
	initHyperLogLog(&state->distinct, 10);
	ssup->ssup_extra = state;
	ssup->comparator = ssup_datum_unsigned_cmp;
	ssup->abbrev_abort = abbrev_abort;
}

Datum
sortid_abbrev_convert(const void *id, SortSupport ssup)
{
	AbbrevState *state = (AbbrevState *) ssup->ssup_extra;
	Datum		key;

	/* Every type is longer than a Datum: 12 bytes at the least. */
	memcpy(&key, id, sizeof(Datum));
	state->input_count++;
	if (state->estimating)
	{
		uint32		folded = (uint32) key;

#if SIZEOF_DATUM == 8
		folded ^= (uint32) (key >> 32);
#endif
		addHyperLogLog(&state->distinct, DatumGetUInt32(hash_uint32(folded)));
	}
	/* Big-endian bytes compare as the unsigned integer they spell. */
	return DatumBigEndianToNative(key);
}

/* How much of a bad value an error message quotes. */
#define QUOTED_MAX 64

void
sortid_text_error(Node *escontext, const char *typname, const char *src, size_t len,
				  IdTextResult result, long bad, const char *expected)
{
	int			quoted = (int) len;
	const char *ellipsis = "";

	if (len > QUOTED_MAX)
	{
		quoted = pg_mbcliplen(src, (int) len, QUOTED_MAX);
		ellipsis = "...";
	}
	switch (result)
	{
		case IDTEXT_BAD_LENGTH:
			errsave(escontext,
					errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					errmsg("invalid input syntax for type %s: \"%.*s%s\"", typname, quoted, src, ellipsis),
					errdetail("The value is %zu bytes long; %s.", len, expected));
			return;
		case IDTEXT_BAD_CHARACTER:
			{
				int			charlen = pg_mblen(src + bad);

				if ((size_t) charlen > len - (size_t) bad)
					charlen = (int) (len - (size_t) bad);
				errsave(escontext,
						errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						errmsg("invalid input syntax for type %s: \"%.*s%s\"", typname, quoted, src, ellipsis),
						errdetail("The character \"%.*s\" at byte offset %ld is not allowed there; %s.",
								  charlen, src + bad, bad, expected));
				return;
			}
		case IDTEXT_OVERFLOW:
			errsave(escontext,
					errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					errmsg("invalid input syntax for type %s: \"%.*s%s\"", typname, quoted, src, ellipsis),
					errdetail("The value is above the largest KSUID, aWgEPTl1tmebfsQzFP4bxwgy80V."));
			return;
		case IDTEXT_OK:
			break;
	}
	elog(ERROR, "sortid_text_error called without an error");
}
