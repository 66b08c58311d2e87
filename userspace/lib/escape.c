// SPDX-License-Identifier: GPL-2.0
/*
 * escape.c: terminal-safe text, the one rule every front end uses
 * (lgd_render.h, "lgd_escape()"): printable ASCII and printable UTF-8 as
 * they are, '\\' \n \t \r and NUL as two-character escapes, anything
 * else (controls, C1, bidi overrides, bytes outside valid UTF-8) as \xHH
 * per byte.  The common case, a run of printable ASCII, is tested 8 bytes
 * at a time (lgd_ascii_run(), which the CSV writer uses too).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

int lgd_utf8_len(const unsigned char *s, size_t avail, uint32_t *cp_out)
{
	unsigned char c = s[0];
	uint32_t cp;
	size_t n;

	if (c < 0x80) {
		if (cp_out)
			*cp_out = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	if (n > avail)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)	/* also stops at a NUL */
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	if (cp_out)
		*cp_out = cp;
	return (int)n;
}

/*
 * The escape of the character at @s (@avail bytes left) into @out (at
 * least 17 bytes): its length, or 0 when the character is safe as it is;
 * *@used: the bytes of @s it stands for.
 */
static size_t esc_char(const unsigned char *s, size_t avail, char *out, size_t *used)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char c = *s;
	uint32_t cp;
	int n;

	*used = 1;
	if (c >= 0x20 && c < 0x7f && c != '\\')
		return 0;
	switch (c) {
	case '\\': memcpy(out, "\\\\", 2); return 2;
	case '\n': memcpy(out, "\\n", 2); return 2;
	case '\t': memcpy(out, "\\t", 2); return 2;
	case '\r': memcpy(out, "\\r", 2); return 2;
	case '\0': memcpy(out, "\\0", 2); return 2;
	}
	n = c < 0x80 ? 1 : lgd_utf8_len(s, avail, &cp);
	if (n > 1 && !(cp >= 0x80 && cp <= 0x9f) &&		/* C1 controls (CSI...) */
	    !(cp >= 0x202a && cp <= 0x202e) && !(cp >= 0x2066 && cp <= 0x2069)) {
		*used = (size_t)n;	/* printable UTF-8: kept */
		return 0;
	}
	/* a control byte, DEL, a byte outside valid UTF-8, or a whole unsafe character */
	if (n < 1)
		n = 1;
	for (int i = 0; i < n; i++) {
		out[4 * i] = '\\';
		out[4 * i + 1] = 'x';
		out[4 * i + 2] = hex[s[i] >> 4];
		out[4 * i + 3] = hex[s[i] & 15];
	}
	*used = (size_t)n;
	return 4 * (size_t)n;
}

int lgd_escape_free(const char *src, size_t n)
{
	return lgd_ascii_run(src, n, '\\', '\\') == n;
}

size_t lgd_escape(char *dst, size_t size, const char *src, size_t n)
{
	const unsigned char *s = (const unsigned char *)src, *e = s + n;
	size_t o = 0, used, k;
	int full = 0;
	char esc[17];

	while (s < e) {
		const unsigned char *run = s;

		/* printable ASCII at once: nearly every byte of a message */
		s += lgd_ascii_run((const char *)s, (size_t)(e - s), '\\', '\\');
		if (s > run) {
			size_t len = (size_t)(s - run);

			if (!full && o + len < size)
				memcpy(dst + o, run, len);
			else if (!full && o < size) {	/* cut: what fits */
				memcpy(dst + o, run, size - 1 - o);
				dst[size - 1] = 0;
				full = 1;
			} else {
				full = 1;
			}
			o += len;
		}
		if (s == e)
			break;
		k = esc_char(s, (size_t)(e - s), esc, &used);
		if (!k) {		/* printable UTF-8 */
			memcpy(esc, s, used);
			k = used;
		}
		if (!full && o + k < size)
			memcpy(dst + o, esc, k);
		else
			full = 1;	/* an escape is never cut in two */
		if (full && size && o < size)
			dst[o] = 0;
		o += k;
		s += used;
	}
	if (!full && size)
		dst[o] = 0;
	return o;
}

char *lgd_escape_alloc(const char *s)
{
	size_t n = strlen(s), len = lgd_escape(NULL, 0, s, n);
	char *b = malloc(len + 1);

	if (b)
		lgd_escape(b, len + 1, s, n);
	return b;
}

