/*
 * idtext_test.c: the extension's text codec against a slow reference
 * written differently (a digit at a time over bytes), on fixed vectors,
 * random IDs, and random and hostile text. Every input is copied into a
 * heap block of exactly its length, with no NUL after it, so that
 * AddressSanitizer (make check-idtext) reports any read past its end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/idtext.h"

static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
static int	failures;

#define FAIL(...) do { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); if (++failures > 20) exit(1); } while (0)

/* xorshift64*: reproducible inputs from a seed. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t
next_random(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1Du;
}

/* ref_encode divides the 20-byte number by 62 a digit at a time. */
static void
ref_encode(char *dst, const uint8_t *id)
{
	uint8_t		n[KSUID_SIZE];

	memcpy(n, id, sizeof(n));
	for (int pos = KSUID_TEXT_LEN - 1; pos >= 0; pos--)
	{
		unsigned	rem = 0;

		for (int i = 0; i < KSUID_SIZE; i++)
		{
			unsigned	acc = rem << 8 | n[i];

			n[i] = (uint8_t) (acc / 62);
			rem = acc % 62;
		}
		dst[pos] = alphabet[rem];
	}
}

/* ref_decode multiplies by 62 a digit at a time; same contract as ksuid_decode_text. */
static IdTextResult
ref_decode(uint8_t *id, const char *src, size_t len, long *bad)
{
	uint8_t		n[KSUID_SIZE] = {0};

	*bad = -1;
	if (len != KSUID_TEXT_LEN)
		return IDTEXT_BAD_LENGTH;
	for (size_t i = 0; i < len; i++)
	{
		const char *p = src[i] ? strchr(alphabet, src[i]) : NULL;

		if (p == NULL)
		{
			*bad = (long) i;
			return IDTEXT_BAD_CHARACTER;
		}
	}
	for (size_t i = 0; i < len; i++)
	{
		unsigned	carry = (unsigned) (strchr(alphabet, src[i]) - alphabet);

		for (int j = KSUID_SIZE - 1; j >= 0; j--)
		{
			unsigned	acc = n[j] * 62u + carry;

			n[j] = (uint8_t) acc;
			carry = acc >> 8;
		}
		if (carry)
			return IDTEXT_OVERFLOW;
	}
	memcpy(id, n, sizeof(n));
	return IDTEXT_OK;
}

static IdTextResult
ref_hex(uint8_t *dst, size_t size, const char *src, size_t len, long *bad)
{
	*bad = -1;
	if (len != 2 * size)
		return IDTEXT_BAD_LENGTH;
	for (size_t i = 0; i < len; i++)
		if (!src[i] || !strchr("0123456789abcdefABCDEF", src[i]))
		{
			*bad = (long) i;
			return IDTEXT_BAD_CHARACTER;
		}
	for (size_t i = 0; i < size; i++)
	{
		unsigned	byte;

		sscanf((char[3]) {src[2 * i], src[2 * i + 1], 0}, "%2x", &byte);
		dst[i] = (uint8_t) byte;
	}
	return IDTEXT_OK;
}

/* exact copies s into a heap block of exactly len bytes. */
static char *
exact(const char *s, size_t len)
{
	char	   *p = malloc(len ? len : 1);

	memcpy(p, s, len);
	return p;
}

/* check_decode runs both decoders on len bytes at s and compares them. */
static void
check_decode(const char *s, size_t len)
{
	uint8_t		got[KSUID_SIZE], want[KSUID_SIZE];
	uint8_t		hex_got[KSUID_SIZE], hex_want[KSUID_SIZE];
	long		bad_got, bad_want;
	char	   *in = exact(s, len);
	IdTextResult r_got, r_want;

	memset(got, 0xA5, sizeof(got));
	r_got = ksuid_decode_text(got, in, len, &bad_got);
	r_want = ref_decode(want, s, len, &bad_want);
	if (r_got != r_want || bad_got != bad_want || (r_got == IDTEXT_OK && memcmp(got, want, sizeof(got)) != 0))
		FAIL("ksuid_decode_text(%.*s): result %d offset %ld, reference %d offset %ld", (int) len, s, r_got, bad_got, r_want, bad_want);
	if (r_got != IDTEXT_OK)
		for (size_t i = 0; i < sizeof(got); i++)
			if (got[i] != 0xA5)
				FAIL("ksuid_decode_text(%.*s) wrote into its output on an error", (int) len, s);
	for (size_t size = OBJECTID_SIZE; size <= KSUID_SIZE; size += KSUID_SIZE - OBJECTID_SIZE)
	{
		r_got = hex_decode_exact(hex_got, size, in, len, &bad_got);
		r_want = ref_hex(hex_want, size, s, len, &bad_want);
		if (r_got != r_want || bad_got != bad_want || (r_got == IDTEXT_OK && memcmp(hex_got, hex_want, size) != 0))
			FAIL("hex_decode_exact(%zu, %.*s): result %d offset %ld, reference %d offset %ld", size, (int) len, s, r_got, bad_got, r_want, bad_want);
	}
	free(in);
}

static void
check_id(const uint8_t *id)
{
	char		got[KSUID_TEXT_LEN], want[KSUID_TEXT_LEN];
	char		hex[OBJECTID_TEXT_LEN];
	uint8_t		back[KSUID_SIZE];
	long		bad;

	ksuid_encode_text(got, id);
	ref_encode(want, id);
	if (memcmp(got, want, sizeof(got)) != 0)
		FAIL("ksuid_encode_text: %.27s, reference %.27s", got, want);
	if (ksuid_decode_text(back, got, sizeof(got), &bad) != IDTEXT_OK || memcmp(back, id, KSUID_SIZE) != 0)
		FAIL("ksuid text %.27s does not read back", got);
	objectid_encode_text(hex, id);
	if (hex_decode_exact(back, OBJECTID_SIZE, hex, sizeof(hex), &bad) != IDTEXT_OK || memcmp(back, id, OBJECTID_SIZE) != 0)
		FAIL("objectid text %.24s does not read back", hex);
	check_decode(got, sizeof(got));
}

int
main(void)
{
	/* Vectors from segmentio/ksuid's documentation and the type's bounds. */
	static const struct
	{
		const char *text;
		uint8_t		raw[KSUID_SIZE];
	}			vectors[] = {
		{"000000000000000000000000000", {0}},
		{"aWgEPTl1tmebfsQzFP4bxwgy80V", {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
		0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
		{"0ujtsYcgvSTl8PAuAdqWYSMnLOv", {0x06, 0x69, 0xF7, 0xEF, 0xB5, 0xA1, 0xCD, 0x34, 0xB5, 0xF9,
		0x9D, 0x11, 0x54, 0xFB, 0x68, 0x53, 0x34, 0x5C, 0x97, 0x35}},
	};
	static const char *const hostile[] = {
		"", "0", "aWgEPTl1tmebfsQzFP4bxwgy80W", "aWgEPTl1tmebfsQzFP4bxwgy81", "zzzzzzzzzzzzzzzzzzzzzzzzzzz",
		"aWgEPTl1tmebfsQzFP4bxwgy80V0", " 0ujtsYcgvSTl8PAuAdqWYSMnLO", "0ujtsYcgvSTl8PAuAdqWYSMnLO ",
		"0ujtsYcgvSTl8PAuAdqWYSMnLO\xC3", "\xC3\xA9" "0ujtsYcgvSTl8PAuAdqWYSMnL", "\\x0669f7efb5a1cd34b5f99d1154fb6853345c9735",
		"0669f7efb5a1cd34b5f99d1154fb6853345c973", "0669F7EFB5A1CD34B5F99D11", "0669F7EFB5A1CD34B5F99D1G",
		"-669F7EFB5A1CD34B5F99D11", "0x69F7EFB5A1CD34B5F99D11",
	};
	uint8_t		id[KSUID_SIZE];
	char		text[64];
	long		n;

	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++)
	{
		char		got[KSUID_TEXT_LEN];
		long		bad;

		ksuid_encode_text(got, vectors[i].raw);
		if (memcmp(got, vectors[i].text, KSUID_TEXT_LEN) != 0)
			FAIL("vector %zu: encoded %.27s, want %s", i, got, vectors[i].text);
		if (ksuid_decode_text(id, vectors[i].text, KSUID_TEXT_LEN, &bad) != IDTEXT_OK ||
			memcmp(id, vectors[i].raw, KSUID_SIZE) != 0)
			FAIL("vector %zu: %s does not decode", i, vectors[i].text);
	}
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++)
	{
		check_decode(hostile[i], strlen(hostile[i]));
		/* With a NUL inside, as a C string cannot carry but a buffer can. */
		memcpy(text, hostile[i], strlen(hostile[i]));
		if (strlen(hostile[i]) > 3)
		{
			text[3] = '\0';
			check_decode(text, strlen(hostile[i]));
		}
	}
	if (ksuid_decode_text(id, "aWgEPTl1tmebfsQzFP4bxwgy80W", KSUID_TEXT_LEN, &n) != IDTEXT_OVERFLOW)
		FAIL("one above the largest KSUID is not an overflow");

	for (int round = 0; round < 200000; round++)
	{
		/* Random IDs, some with long runs of 0x00 or 0xFF. */
		for (int i = 0; i < KSUID_SIZE; i++)
		{
			uint64_t	r = next_random();

			id[i] = (r & 0x300) == 0 ? 0 : (r & 0x300) == 0x100 ? 0xFF : (uint8_t) r;
		}
		check_id(id);

		/* Random text: any byte, or mostly digits with a stray byte. */
		n = (long) (next_random() % 45);
		if (round % 3 == 0)
			n = round % 2 ? KSUID_TEXT_LEN : OBJECTID_TEXT_LEN;
		for (long i = 0; i < n; i++)
		{
			uint64_t	r = next_random();

			text[i] = round % 5 == 0 ? (char) r : alphabet[(r >> 8) % (round % 7 == 0 ? 16 : 62)];
			if (round % 5 != 0 && (r & 0xFF) == 0)
				text[i] = (char) (r >> 16);
		}
		check_decode(text, (size_t) n);
	}
	if (failures)
	{
		fprintf(stderr, "idtext_test: %d failures\n", failures);
		return 1;
	}
	printf("idtext_test: ok (3 vectors, %zu hostile inputs, 200000 random IDs and texts)\n", sizeof(hostile) / sizeof(hostile[0]));
	return 0;
}
