// SPDX-License-Identifier: GPL-2.0
/*
 * decimal.c: unsigned integers in decimal for the readers' hot paths (no
 * printf there): lgd_fmt_u64() (lgd_render.h, inline below 100) and the
 * two-digit table its callers share.  Digits four at a time: per four
 * digits three divisions by constants (multiplications), the last two
 * independent, in 32-bit arithmetic below 10^8.
 */
#include <stdint.h>
#include <string.h>
#include "liblogdev.h"

/* two decimal digits of 0..99, for lgd_fmt_u64() and its callers */
const char lgd_dec2[200] =
	"00010203040506070809101112131415161718192021222324"
	"25262728293031323334353637383940414243444546474849"
	"50515253545556575859606162636465666768697071727374"
	"75767778798081828384858687888990919293949596979899";

/* @v (< 10000) as exactly 4 digits at @b: its two halves independent */
static inline void put4(char *b, uint32_t v)
{
	uint32_t hi = v / 100, lo = v % 100;

	memcpy(b, lgd_dec2 + 2 * hi, 2);
	memcpy(b + 2, lgd_dec2 + 2 * lo, 2);
}

/* @v (< 10000) in decimal at @b, 1 to 4 digits; Return: their number */
static inline size_t put_upto4(char *b, uint32_t v)
{
	if (v < 100) {
		if (v < 10) {
			b[0] = (char)('0' + v);
			return 1;
		}
		memcpy(b, lgd_dec2 + 2 * v, 2);
		return 2;
	}
	if (v < 1000) {
		b[0] = (char)('0' + v / 100);
		memcpy(b + 1, lgd_dec2 + 2 * (v % 100), 2);
		return 3;
	}
	put4(b, v);
	return 4;
}

/* @v < 10^8 in decimal at @b; Return: the number of digits */
static inline size_t put_upto8(char *b, uint32_t v)
{
	uint32_t q;
	size_t k;

	if (v < 10000)
		return put_upto4(b, v);
	q = v / 10000;
	k = put_upto4(b, q);
	put4(b + k, v - q * 10000);
	return k + 4;
}

/* @v >= 10^16: eight digits at a time off the right, into a buffer */
static __attribute__((noinline)) size_t put_big(char *b, uint64_t v)
{
	char t[LGD_U64_DEC_MAX];
	size_t n = 0, k;

	do {
		uint64_t q = v / 100000000u;
		uint32_t r = (uint32_t)(v - q * 100000000u);

		n += 8;
		put4(t + sizeof(t) - n, r / 10000);
		put4(t + sizeof(t) - n + 4, r % 10000);
		v = q;
	} while (v >= 100000000u);
	k = put_upto8(b, (uint32_t)v);
	memcpy(b + k, t + sizeof(t) - n, n);
	return k + n;
}

/*
 * Four digits at a time from the right (a division by 10000, then two
 * independent ones by 100), in 32-bit arithmetic below 10^8 (a pid, an
 * argument, a timestamp's seconds): up to 20 digits.
 */
size_t lgd_fmt_u64_any(char *b, uint64_t v)
{
	if (v < 100000000u)
		return put_upto8(b, (uint32_t)v);
	if (v < 10000000000000000ull) {	/* 9 to 16 digits: a nanosecond timestamp */
		uint64_t q = v / 100000000u;
		uint32_t r = (uint32_t)(v - q * 100000000u);
		size_t k = put_upto8(b, (uint32_t)q);

		put4(b + k, r / 10000);
		put4(b + k + 4, r % 10000);
		return k + 8;
	}
	return put_big(b, v);
}
