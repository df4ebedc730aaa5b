/*
 * idtext.c: base62 for KSUIDs and hex for ObjectIDs, both directions.
 *
 * A KSUID's text is its 160-bit big-endian value in base62, digits
 * 0-9A-Za-z, padded to 27 digits. The digits are in ASCII order, so text
 * order is value order is byte order. Both directions move five digits at
 * a time (62^5 < 2^32), so that the work is 64-bit arithmetic by a
 * constant, which compilers turn into multiplications.
 */
#include "idtext.h"

#include <string.h>

#define BASE62_GROUP 916132832u	/* 62^5 */

static const char base62_digits[] =
"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
static const char hex_digits[] = "0123456789abcdef";

/* X marks a byte that is not a digit of the table's form. */
#define X 0xFF

/* The value of each byte as a base62 digit. */
static const uint8_t base62_value[256] = {
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, X, X, X, X, X, X,
	X, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
	25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, X, X, X, X, X,
	X, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50,
	51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
};

/* The value of each byte as a hex digit. */
static const uint8_t hex_value[256] = {
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, X, X, X, X, X, X,
	X, 10, 11, 12, 13, 14, 15, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, 10, 11, 12, 13, 14, 15, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
	X, X, X, X, X, X, X, X, X, X, X, X, X, X, X, X,
};

void
ksuid_encode_text(char *dst, const uint8_t *id)
{
	uint32_t	words[5];
	int			first = 0;		/* the first non-zero word */
	int			pos = KSUID_TEXT_LEN;

	for (int i = 0; i < 5; i++)
		words[i] = (uint32_t) id[4 * i] << 24 | (uint32_t) id[4 * i + 1] << 16 |
			(uint32_t) id[4 * i + 2] << 8 | (uint32_t) id[4 * i + 3];

	/*
	 * Five times: divide the number by 62^5 and write the remainder's five
	 * digits. 2^160 < 62^27, so what is left after that is below 62^2.
	 */
	for (int pass = 0; pass < 5; pass++)
	{
		uint64_t	rem = 0;
		uint32_t	group;

		for (int i = first; i < 5; i++)
		{
			uint64_t	acc = rem << 32 | words[i];

			words[i] = (uint32_t) (acc / BASE62_GROUP);
			rem = acc % BASE62_GROUP;
		}
		while (first < 5 && words[first] == 0)
			first++;
		group = (uint32_t) rem;
		for (int d = 0; d < 5; d++)
		{
			dst[--pos] = base62_digits[group % 62];
			group /= 62;
		}
	}
	dst[1] = base62_digits[words[4] % 62];
	dst[0] = base62_digits[words[4] / 62];
}

IdTextResult
ksuid_decode_text(uint8_t *id, const char *src, size_t len, long *bad)
{
	uint32_t	words[5] = {0, 0, 0, 0, 0};
	size_t		i = 0;

	*bad = -1;
	if (len != KSUID_TEXT_LEN)
		return IDTEXT_BAD_LENGTH;
	for (size_t j = 0; j < len; j++)
		if (base62_value[(uint8_t) src[j]] == X)
		{
			*bad = (long) j;
			return IDTEXT_BAD_CHARACTER;
		}

	/*
	 * Multiply-accumulate a group of digits at a time: the first 2, then
	 * five groups of 5. A carry out of the top word means the value is
	 * 2^160 or more; the value only grows, so it cannot come back.
	 */
	while (i < len)
	{
		size_t		n = i == 0 ? 2 : 5;
		uint32_t	group = 0;
		uint32_t	scale = 1;
		uint64_t	carry;

		for (size_t k = 0; k < n; k++)
		{
			group = group * 62 + base62_value[(uint8_t) src[i + k]];
			scale *= 62;
		}
		carry = group;
		for (int w = 4; w >= 0; w--)
		{
			uint64_t	acc = (uint64_t) words[w] * scale + carry;

			words[w] = (uint32_t) acc;
			carry = acc >> 32;
		}
		if (carry != 0)
			return IDTEXT_OVERFLOW;
		i += n;
	}
	for (int w = 0; w < 5; w++)
	{
		id[4 * w] = (uint8_t) (words[w] >> 24);
		id[4 * w + 1] = (uint8_t) (words[w] >> 16);
		id[4 * w + 2] = (uint8_t) (words[w] >> 8);
		id[4 * w + 3] = (uint8_t) words[w];
	}
	return IDTEXT_OK;
}

void
objectid_encode_text(char *dst, const uint8_t *id)
{
	for (int i = 0; i < OBJECTID_SIZE; i++)
	{
		dst[2 * i] = hex_digits[id[i] >> 4];
		dst[2 * i + 1] = hex_digits[id[i] & 15];
	}
}

IdTextResult
hex_decode_exact(uint8_t *dst, size_t size, const char *src, size_t len, long *bad)
{
	uint8_t		out[KSUID_SIZE];	/* the largest size asked for */

	*bad = -1;
	if (size > sizeof(out) || len != 2 * size)
		return IDTEXT_BAD_LENGTH;
	for (size_t i = 0; i < size; i++)
	{
		uint8_t		hi = hex_value[(uint8_t) src[2 * i]];
		uint8_t		lo = hex_value[(uint8_t) src[2 * i + 1]];

		if (hi == X || lo == X)
		{
			*bad = (long) (hi == X ? 2 * i : 2 * i + 1);
			return IDTEXT_BAD_CHARACTER;
		}
		out[i] = (uint8_t) (hi << 4 | lo);
	}
	memcpy(dst, out, size);
	return IDTEXT_OK;
}
