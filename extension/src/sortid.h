/*
 * sortid.h: what the extension's files share.
 */
#ifndef SORTID_H
#define SORTID_H

#include "postgres.h"

#include "fmgr.h"
#include "datatype/timestamp.h"
#include "lib/hyperloglog.h"
#include "port/pg_bswap.h"
#include "utils/sortsupport.h"
#if PG_VERSION_NUM >= 160000
/* Since 16 the varlena macros (VARDATA, SET_VARSIZE, ...) live here. */
#include "varatt.h"
/* Soft input errors (errsave, SOFT_ERROR_OCCURRED) came in 16. */
#include "nodes/miscnodes.h"
#else
/* Before 16 an input function has no soft errors: every error is hard. */
#define errsave(context, ...) ereport(ERROR, __VA_ARGS__)
#define SOFT_ERROR_OCCURRED(escontext) false
#endif

#include "idtext.h"

/* Fills dst with n bytes from this backend's own strong random source. */
extern void sortid_random_bytes(uint8 *dst, size_t n);

/* The wall clock: seconds and nanoseconds since 1970. */
extern void sortid_clock(int64 *sec, int32 *nsec);

/*
 * Reports a text input error for a value of type typname (invalid_text_
 * representation): the value, at most 64 bytes of it, and what was
 * expected. With an escontext that asks for soft errors (PostgreSQL 16
 * and later: pg_input_is_valid, COPY ... ON_ERROR) it saves the error
 * there and returns; otherwise it does not return.
 */
extern void sortid_text_error(Node *escontext, const char *typname, const char *src, size_t len,
							  IdTextResult result, long bad, const char *expected);

/* Seconds since 1970 of a timestamptz, rounded down; an error if infinite. */
extern int64 sortid_unix_seconds(TimestampTz t, const char *caller);

/*
 * Abbreviated sort keys, shared by the types: the first bytes of an ID (8
 * on a 64-bit server) as an unsigned integer, which for a KSUID or an
 * ObjectID is its second and the bytes after it, so most comparisons of a
 * sort need no memcmp. sortid_abbrev_init sets up a sort's SortSupport to
 * count the keys' distinct values, and abandons the keys, as uuid's do,
 * when they turn out to be mostly equal (ObjectIDs of one process made in
 * the same second share their first 9 bytes).
 */
extern void sortid_abbrev_init(SortSupport ssup);
extern Datum sortid_abbrev_convert(const void *id, SortSupport ssup);

/*
 * The comparison, hash, sort support and aggregate functions of a
 * fixed-length ID type whose values compare as bytes: typname_eq, _ne,
 * _lt, _le, _gt, _ge, _cmp, _hash, _hash_extended, _sortsupport, _smaller
 * and _larger (for min and max).
 */
#define SORTID_COMPARISONS(typname, size) \
static inline int \
typname##_compare(Datum a, Datum b) \
{ \
	return memcmp(DatumGetPointer(a), DatumGetPointer(b), size); \
} \
PG_FUNCTION_INFO_V1(typname##_eq); \
Datum typname##_eq(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(typname##_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) == 0); } \
PG_FUNCTION_INFO_V1(typname##_ne); \
Datum typname##_ne(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(typname##_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) != 0); } \
PG_FUNCTION_INFO_V1(typname##_lt); \
Datum typname##_lt(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(typname##_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) < 0); } \
PG_FUNCTION_INFO_V1(typname##_le); \
Datum typname##_le(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(typname##_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) <= 0); } \
PG_FUNCTION_INFO_V1(typname##_gt); \
Datum typname##_gt(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(typname##_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) > 0); } \
PG_FUNCTION_INFO_V1(typname##_ge); \
Datum typname##_ge(PG_FUNCTION_ARGS) { PG_RETURN_BOOL(typname##_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)) >= 0); } \
PG_FUNCTION_INFO_V1(typname##_cmp); \
Datum typname##_cmp(PG_FUNCTION_ARGS) \
{ \
	int			c = typname##_compare(PG_GETARG_DATUM(0), PG_GETARG_DATUM(1)); \
	PG_RETURN_INT32(c < 0 ? -1 : c > 0); \
} \
PG_FUNCTION_INFO_V1(typname##_hash); \
Datum typname##_hash(PG_FUNCTION_ARGS) \
{ \
	return hash_any((const unsigned char *) PG_GETARG_POINTER(0), size); \
} \
PG_FUNCTION_INFO_V1(typname##_hash_extended); \
Datum typname##_hash_extended(PG_FUNCTION_ARGS) \
{ \
	return hash_any_extended((const unsigned char *) PG_GETARG_POINTER(0), size, PG_GETARG_INT64(1)); \
} \
static int \
typname##_fastcmp(Datum a, Datum b, SortSupport ssup) \
{ \
	return typname##_compare(a, b); \
} \
static Datum \
typname##_abbrev_convert(Datum original, SortSupport ssup) \
{ \
	return sortid_abbrev_convert(DatumGetPointer(original), ssup); \
} \
PG_FUNCTION_INFO_V1(typname##_sortsupport); \
Datum typname##_sortsupport(PG_FUNCTION_ARGS) \
{ \
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0); \
	ssup->comparator = typname##_fastcmp; \
	if (ssup->abbreviate) \
	{ \
		sortid_abbrev_init(ssup); \
		ssup->abbrev_converter = typname##_abbrev_convert; \
		ssup->abbrev_full_comparator = typname##_fastcmp; \
	} \
	PG_RETURN_VOID(); \
} \
PG_FUNCTION_INFO_V1(typname##_smaller); \
Datum typname##_smaller(PG_FUNCTION_ARGS) \
{ \
	Datum		a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1); \
	return typname##_compare(a, b) <= 0 ? a : b; \
} \
PG_FUNCTION_INFO_V1(typname##_larger); \
Datum typname##_larger(PG_FUNCTION_ARGS) \
{ \
	Datum		a = PG_GETARG_DATUM(0), b = PG_GETARG_DATUM(1); \
	return typname##_compare(a, b) >= 0 ? a : b; \
}

/*
 * The casts of a fixed-length ID type to and from bytea:
 * typname_to_bytea and bytea_to_typname; a bytea of another length is an
 * error.
 */
#define SORTID_BYTEA_CASTS(typname, size) \
PG_FUNCTION_INFO_V1(typname##_to_bytea); \
Datum typname##_to_bytea(PG_FUNCTION_ARGS) \
{ \
	bytea	   *result = (bytea *) palloc(VARHDRSZ + (size)); \
	SET_VARSIZE(result, VARHDRSZ + (size)); \
	memcpy(VARDATA(result), PG_GETARG_POINTER(0), size); \
	PG_RETURN_BYTEA_P(result); \
} \
PG_FUNCTION_INFO_V1(bytea_to_##typname); \
Datum bytea_to_##typname(PG_FUNCTION_ARGS) \
{ \
	bytea	   *b = PG_GETARG_BYTEA_PP(0); \
	size_t		len = VARSIZE_ANY_EXHDR(b); \
	uint8	   *id; \
	if (len != (size)) \
		ereport(ERROR, \
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION), \
				 errmsg("invalid bytea for type %s: %zu bytes", #typname, len), \
				 errdetail("A value of type %s is %d bytes.", #typname, (int) (size)))); \
	id = (uint8 *) palloc(size); \
	memcpy(id, VARDATA_ANY(b), size); \
	PG_RETURN_POINTER(id); \
}

/*
 * The binary I/O of a fixed-length ID type: typname_recv and typname_send.
 * Send writes the raw bytes. Receive reads the raw bytes, or the type's
 * text of textlen characters, decoded by decode_text (an IdTextResult
 * function of (id, src, len, &bad)): a client that does not know the type
 * (pgx's CopyFrom without sqltype's hook) sends a value's text in the
 * binary format. The two lengths differ, so neither can be read as the
 * other. The text's bytes are never quoted in the error: they may be any
 * bytes, NUL and invalid UTF-8 included.
 */
#define SORTID_BINARY_IO(typname, size, textlen, decode_text) \
PG_FUNCTION_INFO_V1(typname##_recv); \
Datum typname##_recv(PG_FUNCTION_ARGS) \
{ \
	StringInfo	buf = (StringInfo) PG_GETARG_POINTER(0); \
	int			len = buf->len - buf->cursor; \
	uint8	   *id = (uint8 *) palloc(size); \
	const char *text; \
	IdTextResult result; \
	long		bad; \
	if (len == (size)) \
	{ \
		memcpy(id, pq_getmsgbytes(buf, size), size); \
		PG_RETURN_POINTER(id); \
	} \
	if (len != (textlen)) \
		ereport(ERROR, \
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION), \
				 errmsg("invalid binary %s: %d bytes", #typname, len), \
				 errdetail("A value of type %s is %d bytes, or the %d characters of its text.", \
						   #typname, (int) (size), (int) (textlen)))); \
	text = pq_getmsgbytes(buf, textlen); \
	result = decode_text(id, text, textlen, &bad); \
	if (result == IDTEXT_BAD_CHARACTER) \
		ereport(ERROR, \
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION), \
				 errmsg("invalid binary %s: %d bytes that are not its text", #typname, len), \
				 errdetail("The byte 0x%02x at offset %ld is not allowed there.", \
						   (unsigned char) text[bad], bad))); \
	if (result != IDTEXT_OK) \
		ereport(ERROR, \
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION), \
				 errmsg("invalid binary %s: %d bytes that are not its text", #typname, len), \
				 errdetail("The value is above the largest %s.", #typname))); \
	PG_RETURN_POINTER(id); \
} \
PG_FUNCTION_INFO_V1(typname##_send); \
Datum typname##_send(PG_FUNCTION_ARGS) \
{ \
	StringInfoData buf; \
	pq_begintypsend(&buf); \
	pq_sendbytes(&buf, (const char *) PG_GETARG_POINTER(0), size); \
	PG_RETURN_BYTEA_P(pq_endtypsend(&buf)); \
}

#endif							/* SORTID_H */
