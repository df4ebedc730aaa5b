/*
 * idtext.h: the text forms of KSUIDs and ObjectIDs, in plain C with no
 * PostgreSQL headers, so that the same code is built into the extension
 * and into test/idtext_test.c, which runs it under AddressSanitizer.
 */
#ifndef SORTID_IDTEXT_H
#define SORTID_IDTEXT_H

#include <stddef.h>
#include <stdint.h>

#define KSUID_SIZE 20
#define KSUID_TEXT_LEN 27
#define OBJECTID_SIZE 12
#define OBJECTID_TEXT_LEN 24

/* What a decoder made of its input. */
typedef enum IdTextResult
{
	IDTEXT_OK,
	IDTEXT_BAD_LENGTH,			/* not the length the form has */
	IDTEXT_BAD_CHARACTER,		/* a byte outside the form's digits, at *bad */
	IDTEXT_OVERFLOW				/* base62 digits whose value is above 2^160 - 1 */
} IdTextResult;

/* Writes the 27 base62 digits of a KSUID (no NUL). */
extern void ksuid_encode_text(char *dst, const uint8_t *id);

/*
 * Reads 27 base62 digits of len bytes at src into id; on an error id is
 * unchanged and *bad is the offset of the first bad byte (or -1).
 */
extern IdTextResult ksuid_decode_text(uint8_t *id, const char *src, size_t len, long *bad);

/* Writes the 24 lowercase hex digits of an ObjectID (no NUL). */
extern void objectid_encode_text(char *dst, const uint8_t *id);

/*
 * Reads exactly 2 * size hex digits (either case) of len bytes at src into
 * dst: the text of an ObjectID, or the digits after \x.
 */
extern IdTextResult hex_decode_exact(uint8_t *dst, size_t size, const char *src, size_t len, long *bad);

#endif							/* SORTID_IDTEXT_H */
