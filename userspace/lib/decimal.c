// SPDX-License-Identifier: GPL-2.0
/*
 * decimal.c: unsigned integers in decimal for the readers' hot paths (no
 * printf there): lgd_fmt_u64() (lgd_render.h, inline below 100) and the
 * two-digit table its callers share.  Two digits per division by 100 (a
 * multiplication: constant divisor); the digit count from the bit length
 * (x * 1233 >> 12 ~ x * log10(2), the approximation of "Bit Twiddling
 * Hacks", "Find integer log base 10"), then one compare.
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

size_t lgd_fmt_u64_any(char *b, uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull,
	};
	/* digits: log10 from the bit length (1233 / 4096 ~ log10(2)), then one compare */
	unsigned t = ((64 - (unsigned)__builtin_clzll(v | 1)) * 1233) >> 12;
	size_t n = t + (v >= pow10[t]), i;

	if (!n)
		n = 1;	/* 0 */
	i = n;
	while (v >= 100) {	/* from the last digit back, two at a time */
		unsigned d = (unsigned)(v % 100);

		v /= 100;
		i -= 2;
		memcpy(b + i, lgd_dec2 + 2 * d, 2);
	}
	if (v >= 10)
		memcpy(b, lgd_dec2 + 2 * v, 2);
	else
		b[0] = (char)('0' + v);
	return n;
}
