/*
 * sortid.c: the extension's module, and what its types share: the random
 * source, the clock and the input errors.
 */
#include "sortid.h"

#include <time.h>

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "utils/timestamp.h"

PG_MODULE_MAGIC;

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

/* How much of a bad value an error message quotes. */
#define QUOTED_MAX 64

void
sortid_text_error(const char *typname, const char *src, size_t len,
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
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%.*s%s\"", typname, quoted, src, ellipsis),
					 errdetail("The value is %zu bytes long; %s.", len, expected)));
			break;
		case IDTEXT_BAD_CHARACTER:
			{
				int			charlen = pg_mblen(src + bad);

				if ((size_t) charlen > len - (size_t) bad)
					charlen = (int) (len - (size_t) bad);
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
						 errmsg("invalid input syntax for type %s: \"%.*s%s\"", typname, quoted, src, ellipsis),
						 errdetail("The character \"%.*s\" at byte offset %ld is not allowed there; %s.",
								   charlen, src + bad, bad, expected)));
				break;
			}
		case IDTEXT_OVERFLOW:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("invalid input syntax for type %s: \"%.*s%s\"", typname, quoted, src, ellipsis),
					 errdetail("The value is above the largest KSUID, aWgEPTl1tmebfsQzFP4bxwgy80V.")));
			break;
		case IDTEXT_OK:
			break;
	}
	elog(ERROR, "sortid_text_error called without an error");
}
