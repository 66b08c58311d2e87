/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_render.h: rendering (render.c): an item to text, for every front end.
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_RENDER_H
#define LIBLOGDEV_RENDER_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_durations.h"
#include "lgd_deltas.h"

/* ---- rendering (render.c): an item to text, for every front end ------- */

/**
 * DOC: terminal-safe text.  Every text a front end prints from a capture
 * (messages, task names, site names from the formats) goes through
 * lgd_escape(), one rule for all: printable ASCII as is but for the
 * backslash (\\); \n \t \r and NUL (\0) as those two-character escapes;
 * every other control byte (0x00-0x1f, DEL 0x7f) as \xHH; valid UTF-8 kept
 * as it is (the terminal is assumed to speak UTF-8) except the C1 controls
 * U+0080-U+009F (an 8-bit CSI is one) and the bidirectional overrides
 * U+202A-U+202E, U+2066-U+2069 ("Trojan source"), whose bytes become \xHH;
 * each byte outside valid UTF-8 (0x80-0xff alone, overlong, surrogate, cut
 * short) as \xHH.  The result is printable, one line, and reversible.
 */
/**
 * lgd_escape() - the @n bytes of @s (NULs included) escaped as above into
 * @dst (@size bytes, NUL-terminated; cut at an escape's edge, never inside).
 * @dst may be NULL with @size 0 to measure.
 * Return: the length of the whole escaped text, bytes (>= @size: cut).
 */
size_t lgd_escape(char *dst, size_t size, const char *s, size_t n);
/**
 * lgd_escape_free() - would lgd_escape() keep the @n bytes at @s as they
 * are (all printable ASCII but '\\')?  About 2 instructions a byte.
 */
int lgd_escape_free(const char *s, size_t n);
/*
 * Are the 8 bytes at @s all printable ASCII (0x20..0x7e) other than @x and
 * @y?  Word-at-a-time tests (Sean Anderson's "Bit Twiddling Hacks":
 * haszero, hasless, hasmore), each exact for whether any byte of the word
 * matches: a byte below 0x20, a byte above 0x7e (0x80 and up included), @x,
 * @y.
 */
static inline int lgd_ascii8(const unsigned char *s, unsigned char x, unsigned char y)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	uint64_t w, a, b;

	memcpy(&w, s, 8);
	a = w ^ (ones * x);
	b = w ^ (ones * y);
	return !((((w - ones * 0x20) & ~w) | ((w + ones) | w) | ((a - ones) & ~a) |
		  ((b - ones) & ~b)) & high);
}

/**
 * lgd_ascii_run() - how many of the @n bytes at @s, from the first, are
 * printable ASCII (0x20..0x7e) other than @x and @y: 8 bytes at a time
 * (inline: @x and @y are constants where it is called).  The run a writer
 * copies as it is (lgd_escape(): '\\'; CSV: '"' and ',').
 */
static inline size_t lgd_ascii_run(const char *str, size_t n, char x, char y)
{
	const unsigned char *s = (const unsigned char *)str, *e = s + n;
	const unsigned char ux = (unsigned char)x, uy = (unsigned char)y;

	while (s + 8 <= e && lgd_ascii8(s, ux, uy))
		s += 8;
	/* under 8 bytes left (not a word that failed): the last 8, overlapping
	 * the words done, test the whole tail at once */
	if (s < e && s + 8 > e && n >= 8 && lgd_ascii8(e - 8, ux, uy))
		return n;
	while (s < e && *s >= 0x20 && *s < 0x7f && *s != ux && *s != uy)
		s++;
	return (size_t)(s - (const unsigned char *)str);
}

/** lgd_escape_alloc() - NUL-terminated @s escaped, malloc'd (NULL: no memory). */
char *lgd_escape_alloc(const char *s);
/**
 * lgd_utf8_len() - length (1-4 bytes) of the valid UTF-8 character at @s,
 * looking at no more than @avail bytes, with its code point in *@cp if not
 * NULL; 0 if the bytes there are none (stray continuation, overlong form,
 * surrogate, above U+10FFFF, cut short or by a NUL).  RFC 3629, section 4.
 */
int lgd_utf8_len(const unsigned char *s, size_t avail, uint32_t *cp);
/**
 * lgd_site_label() - the label of site @id in @s: "func:line", or
 * "file:func:line" when another site of @s has the same func and line in
 * another file (@label_file), either followed by "#N" when other sites of
 * @s have the same file, func and line (@label_seq: numbered in format
 * order, then id order), or "site#ID:?" for an unknown id.  Labels are
 * unique within a capture.
 * Written like snprintf() into @buf (@size bytes, NUL-terminated).
 * Return: the length of the whole label (>= @size: it was cut).
 */
int lgd_site_label(const struct lgd_sites *s, uint32_t id, char *buf,
		  size_t size);
/**
 * lgd_site_label_alloc() - lgd_site_label() whole, malloc'd (NULL: no memory).
 */
char *lgd_site_label_alloc(const struct lgd_sites *s, uint32_t id);
/**
 * lgd_site_label_text() - lgd_site_label() escaped for a terminal
 * (lgd_escape()): the label every text table and report line prints (csv
 * and json take the raw lgd_site_label() and escape it per their formats).
 * Return: as lgd_site_label(), or -ENOMEM.
 */
int lgd_site_label_text(const struct lgd_sites *s, uint32_t id, char *buf, size_t size);
/** lgd_site_label_text_alloc() - lgd_site_label_text() whole, malloc'd (NULL: no memory). */
char *lgd_site_label_text_alloc(const struct lgd_sites *s, uint32_t id);
/**
 * lgd_site_label_place() - malloc'd label of site @st (NULL: unknown site
 * @id, "site#ID:?"), naming the file if @with_file and it is known (diff:
 * where two captures together hold the func:line in two files), and ending
 * "#@seq" if @seq is not 0 (diff: the rank of its format at its place).
 */
char *lgd_site_label_place(const struct lgd_site *st, uint32_t id, int with_file,
			  uint32_t seq);

/** LGD_U64_DEC_MAX: bytes lgd_fmt_u64() may write (20 digits; no NUL). */
#define LGD_U64_DEC_MAX 20
/**
 * lgd_fmt_u64() - @v in decimal into @b (at least LGD_U64_DEC_MAX bytes), no
 * NUL, as printf's "%" PRIu64 (two digits per division: no printf on the
 * readers' hot paths; in bprintf.c, used by it and the layers above).
 * Return: the number of digits written (1..20).
 */
size_t lgd_fmt_u64_any(char *b, uint64_t v);
/*
 * lgd_copy_small() - @n <= 16 bytes from @s to @d, inline: two overlapping
 * 8- or 4-byte moves (a label, a format's text between conversions, digits:
 * shorter than a call of memcpy() costs)
 */
static inline void lgd_copy_small(char *d, const char *s, size_t n)
{
	if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else {
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
	}
}
/* "00" to "99", for lgd_fmt_u64() */
extern const char lgd_dec2[200];
/* lgd_fmt_u64(), inline for 0..99: a pid's, a CPU's or a small argument's */
static inline size_t lgd_fmt_u64(char *b, uint64_t v)
{
	if (v < 10) {
		b[0] = (char)('0' + v);
		return 1;
	}
	if (v < 100) {
		b[0] = lgd_dec2[2 * v];
		b[1] = lgd_dec2[2 * v + 1];
		return 2;
	}
	return lgd_fmt_u64_any(b, v);
}
/** lgd_fmt_us() - @ns as microseconds with 3 decimals, "-" when negative. */
void lgd_fmt_us(char *b, size_t n, int64_t ns);
/**
 * lgd_fmt_dur_summary() - the line "durations: P paired (N negative), E
 * entries without return, R returns without entry\n" into @b (snprintf).
 */
int lgd_fmt_dur_summary(char *b, size_t n, const struct lgd_dur_stats *st);
/**
 * lgd_fmt_left_out() - "N pairs left out: clock went backwards (K), step over
 * 2^62 ns (J)" (no newline) into @b (snprintf) for @ds's @left_back and
 * @left_huge (lgd_ts_step()).  Return: as snprintf; 0 (@b "") when none was.
 */
int lgd_fmt_left_out(char *b, size_t n, const struct lgd_deltas *ds);
/** lgd_fmt_left_out_n() - the same for counts @back and @huge (lgd_streams). */
int lgd_fmt_left_out_n(char *b, size_t n, uint64_t back, uint64_t huge);

/**
 * lgd_render_msg() - message text of record item @it of @r into @buf (@size
 * bytes): the site's format rendered with its payload (LOGDEV_REC_PRINT,
 * LOGDEV_REC_PRINT_SLOTS; one trailing newline removed; "[cut]" marks
 * arguments that were cut, "[missing]" one a payload not flagged cut lacks,
 * lgd_bprintf_rec()), "<unknown site N: M arg bytes>", or "<raw N bytes:
 * xx ...>" (other types: "<type? ...>").  *@status (if not NULL): the
 * LGD_BP_ST_* bits of lgd_bprintf_rec_status(), 0 for the other kinds.
 * The text is terminal-safe: escaped by lgd_escape() (DOC: terminal-safe
 * text), cut at an escape's edge to fit @size, and a text cut to fit
 * ends in "[cut]" (a '*' width of INT_MIN asks for 8 MiB).
 * Return: bytes of text in @buf (no NULs, no control bytes).
 */
size_t lgd_render_msg(const struct lgd_reader *r, const struct lgd_item *it,
		     char *buf, size_t size, unsigned int *status);
/**
 * lgd_render_msg_bytes() - lgd_render_msg() before escaping: the bytes the
 * kernel would have printed (control bytes and NULs included), for writers
 * that escape per their own format (json, csv); a text longer than @size
 * ends in "[cut]".  Return: bytes in @buf.
 */
size_t lgd_render_msg_bytes(const struct lgd_reader *r, const struct lgd_item *it,
			   char *buf, size_t size, unsigned int *status);
/**
 * lgd_render_dur() - append " duration=D us" (3 decimals, signed) for the
 * pair @dm to the @n bytes of @msg (@size bytes); a negative one is marked
 * "(negative: entry on cpu N, clocks disagree)" or "(negative: clock went
 * back on cpu N)".  Return: the new length (cut to fit).
 */
size_t lgd_render_dur(char *msg, size_t size, size_t n, const struct lgd_dur_mark *dm);

enum { LGD_RENDER_TEXT = 0, LGD_RENDER_RAW = 1 };

/**
 * struct lgd_render - line renderer of one capture (render.c's file comment
 * shows the two styles).  The "+D us" delta of a line is given to it
 * (lgd_render_item()): the caller pairs records (lgd_streams_add()), the
 * renderer only writes the pair it is given.
 * @missing:  records rendered so far whose payload lacked an argument
 *            their format needs ("[missing]", LGD_BP_ST_MISSING): a front
 *            end warns once per capture with this count
 */
/* a message is cut at LGD_MSG_MAX - 1 bytes */
#define LGD_MSG_MAX	8192

struct lgd_render {
	const struct lgd_reader *r;
	int style;		/* LGD_RENDER_TEXT or LGD_RENDER_RAW */
	char *label;		/* lgd_render_label()'s buffer */
	size_t label_cap;
	char **labels;		/* per site id: its label text, made once */
	uint32_t *label_len;	/* their lengths (bytes) */
	const struct lgd_site **label_site;	/* the site each was made from */
	uint32_t nr_labels;	/* size of the three (the reader's sites.nr) */
	char *line;		/* the lines kept (lgd_render_keep()), then the one being built */
	size_t len, cap;
	size_t kept;		/* bytes of lines kept at the start of @line */
	int err;
	uint64_t missing;
};

/** lgd_render_init() - for items of @r in @style.  Return: 0 or -ENOMEM. */
int lgd_render_init(struct lgd_render *rd, const struct lgd_reader *r, int style);
/**
 * lgd_render_item() - the line (ending in a newline) of item @it, given in
 * merge order, with @sp its pair with its stream's previous record
 * (lgd_streams_add(): the "+D us" of text lines; not read for raw lines);
 * @dur the duration mark of this record (lgd_dur_mark_find()) or NULL.
 * An item the filter left out (.filtered) has an empty line (0 bytes).
 * *@text points to it, valid until the next call.
 * Return: its length in bytes (it may hold NULs: write it with fwrite), or
 * -ENOMEM.
 */
long lgd_render_item(struct lgd_render *rd, const struct lgd_item *it,
		    const struct lgd_stream_step *sp, const struct lgd_dur_mark *dur,
		    const char **text);
/**
 * lgd_render_keep() - keep the line lgd_render_item() just made in @rd's
 * buffer (the next is made after it), so that a front end writes lines in
 * batches: once the lines kept reach @flush_at bytes, *@text points to them
 * and they are forgotten.  Return: their length (bytes) to write then, else
 * 0.  Before the last write: lgd_render_keep(rd, 0, &text).
 */
size_t lgd_render_keep(struct lgd_render *rd, size_t flush_at, const char **text);
/**
 * lgd_render_label() - the whole label of site @id (lgd_site_label()), in a
 * buffer of @rd valid until the next call.  Never cut unless out of memory.
 */
const char *lgd_render_label(struct lgd_render *rd, uint32_t id);
/**
 * lgd_render_forget_labels() - drop the labels lgd_render_item() keeps per
 * site (made once per site id, remade when the site's struct or the number
 * of sites changes); call it after changing the reader's sites in place
 * (lgd_sites_parse(), lgd_sites_mark_labels()) while rendering.
 */
void lgd_render_forget_labels(struct lgd_render *rd);
void lgd_render_free(struct lgd_render *rd);

#endif /* LIBLOGDEV_RENDER_H */
