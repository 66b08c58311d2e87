// SPDX-License-Identifier: GPL-2.0
/*
 * render.c: the one renderer, an item to text, for every front end:
 * site labels ("func:line", "file:func:line", either with "#N" where sites
 * share file, function and line; "site#ID:?"), context and
 * lost-events names, a record's message (which renderer goes with which
 * record type: binary printf of its site's format, with cut and missing
 * marks (records lacking arguments counted: lgd_render.missing), or a hex
 * dump), return-probe duration marks, the time since the previous record
 * of its stream as the caller paired them (struct lgd_stream_step from
 * lgd_streams_add(): the renderer pairs nothing; lgd_ts_step(): a step
 * back or over 2^62 ns is marked as left out of deltas), and the whole
 * report line in its two styles:
 *
 *   text: [   789.171773] cpu:0 pid:1234 kfree_skbmem:291 in  +0.101 us
 *         [   789.171900] cpu:0 *** LOST 123 events (overrun) ***
 *   raw:  ts_ns cpu pid ctx site_id func line message  (tab-separated;
 *         message with \\ \t \n and NUL as \0 escaped)
 *         LOST cpu n kind
 *
 * Nothing here prints: text goes into buffers the caller writes out.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "fmtwalk.h"	/* struct lgd_fmtprog: a site's format, walked */

const char *lgd_gap_kind_name(int kind)
{
	switch (kind) {
	case LGD_GAP_DROPPED: return "dropped";
	case LGD_GAP_OVERRUN: return "overrun";
	case LGD_GAP_SUBBUFS: return "subbufs";
	case LGD_GAP_CORRUPT: return "corrupt";
	case LGD_GAP_NESTING_LOST: return "nesting_lost";
	case LGD_GAP_TOO_BIG: return "too_big";
	case LGD_GAP_LOST: return "lost";
	case LGD_GAP_BAD_TS: return "bad_ts";
	}
	return "?";
}

const char *lgd_ctx_name(int ctx)
{
	switch (ctx) {
	case LOGDEV_CTX_TASK: return "task";
	case LOGDEV_CTX_SOFTIRQ: return "softirq";
	case LOGDEV_CTX_HARDIRQ: return "hardirq";
	case LOGDEV_CTX_NMI: return "nmi";
	}
	return "ctx?";
}

/* ---- site labels ------------------------------------------------------ */

/*
 * "func:line", or "file:func:line" if @with_file and the file is known;
 * "#@seq" appended if @seq
 */
static int label_of(const struct lgd_site *st, uint32_t id, int with_file,
		    uint32_t seq, char *buf, size_t size)
{
	char sfx[16] = "";

	if (!st)
		return snprintf(buf, size, "site#%u:?", id);
	if (seq)
		snprintf(sfx, sizeof(sfx), "#%u", seq);
	if (with_file && st->file[0])
		return snprintf(buf, size, "%s:%s:%u%s", st->file, st->func, st->line, sfx);
	return snprintf(buf, size, "%s:%u%s", st->func, st->line, sfx);
}

int lgd_site_label(const struct lgd_sites *s, uint32_t id, char *buf,
		  size_t size)
{
	const struct lgd_site *st = lgd_sites_get(s, id);

	return label_of(st, id, st && st->label_file, st ? st->label_seq : 0, buf, size);
}

char *lgd_site_label_place(const struct lgd_site *st, uint32_t id, int with_file,
			  uint32_t seq)
{
	int n = label_of(st, id, with_file, seq, NULL, 0);
	char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;

	if (b)
		label_of(st, id, with_file, seq, b, (size_t)n + 1);
	return b;
}

char *lgd_site_label_alloc(const struct lgd_sites *s, uint32_t id)
{
	const struct lgd_site *st = lgd_sites_get(s, id);

	return lgd_site_label_place(st, id, st && st->label_file, st ? st->label_seq : 0);
}

int lgd_site_label_text(const struct lgd_sites *s, uint32_t id, char *buf, size_t size)
{
	char raw[512], *big = NULL;
	int n = lgd_site_label(s, id, raw, sizeof(raw));
	size_t len;

	if (n < 0)
		return n;
	if ((size_t)n >= sizeof(raw)) {		/* a long name: whole, then escaped */
		big = lgd_site_label_alloc(s, id);
		if (!big)
			return -ENOMEM;
	}
	len = lgd_escape(buf, size, big ? big : raw, (size_t)n);
	free(big);
	return len > INT32_MAX ? INT32_MAX : (int)len;
}

char *lgd_site_label_text_alloc(const struct lgd_sites *s, uint32_t id)
{
	char *raw = lgd_site_label_alloc(s, id), *t;

	if (!raw)
		return NULL;
	t = lgd_escape_alloc(raw);
	free(raw);
	return t;
}

/* ---- numbers ------------------------------------------------------------ */

void lgd_fmt_us(char *b, size_t n, int64_t ns)
{
	uint64_t m = ns < 0 ? -(uint64_t)ns : (uint64_t)ns;

	snprintf(b, n, "%s%" PRIu64 ".%03" PRIu64, ns < 0 ? "-" : "", m / 1000, m % 1000);
}

int lgd_fmt_dur_summary(char *b, size_t n, const struct lgd_dur_stats *st)
{
	return snprintf(b, n, "durations: %" PRIu64 " paired (%" PRIu64 " negative), %" PRIu64
			" %s without return, %" PRIu64 " %s without entry\n", st->paired,
			st->negative, st->entries_unmatched,
			st->entries_unmatched == 1 ? "entry" : "entries", st->returns_unmatched,
			st->returns_unmatched == 1 ? "return" : "returns");
}

int lgd_fmt_left_out(char *b, size_t n, const struct lgd_deltas *ds)
{
	return lgd_fmt_left_out_n(b, n, ds->left_back, ds->left_huge);
}

int lgd_fmt_left_out_n(char *b, size_t n, uint64_t back, uint64_t huge)
{
	uint64_t all = back + huge;

	if (!all) {
		if (n)
			b[0] = 0;
		return 0;
	}
	return snprintf(b, n, "%" PRIu64 " pair%s left out: clock went backwards (%" PRIu64
			"), step over 2^62 ns (%" PRIu64 ")", all, all == 1 ? "" : "s",
			back, huge);
}

/* ---- a record's message --------------------------------------------------- */

/* @n bytes in @buf cut to fit @size end in "[cut]", as a cut argument's do
 * (docs/FORMAT.md; '%*d' of INT_MIN asks 8 MiB); Return: the new length */
static size_t msg_cut(char *buf, size_t size, size_t n)
{
	static const char mark[] = "[cut]";
	const size_t ml = sizeof(mark) - 1;

	if (size < sizeof(mark) || (n >= ml && !memcmp(buf + n - ml, mark, ml)))
		return n;
	if (n + sizeof(mark) > size)
		n = size - sizeof(mark);
	memcpy(buf + n, mark, sizeof(mark));
	return n + sizeof(mark) - 1;
}

size_t lgd_render_msg_bytes(const struct lgd_reader *r, const struct lgd_item *it,
			   char *buf, size_t size, unsigned int *status)
{
	const struct lgd_site *s = lgd_sites_get(&r->sites, it->rec.site);
	int print = it->rec.type == LOGDEV_REC_PRINT || it->rec.type == LOGDEV_REC_PRINT_SLOTS;
	size_t n;
	int len;

	if (status)
		*status = 0;
	if (!size)
		return 0;
	if (print && s) {
		len = lgd_bprintf_site(buf, size, s, it->payload, it->rec.arg_bytes,
				       r->has_ksyms ? &r->ksyms : NULL, it->rec.ts,
				       (it->rec.type == LOGDEV_REC_PRINT_SLOTS ?
					LGD_BP_SLOTS : 0) |
				       (it->rec_flags & LOGDEV_REC_F_CUT ? LGD_BP_CUT : 0),
				       status);
		n = len < 0 ? 0 : (size_t)len < size ? (size_t)len : size - 1;
		if (len >= 0 && (size_t)len >= size)	/* longer than @buf: marked */
			return msg_cut(buf, size, n);
		if (n && buf[n - 1] == '\n')
			buf[--n] = 0;
		return n;
	} else if (print) {
		snprintf(buf, size, "<unknown site %u: %u arg bytes>", it->rec.site,
			 it->rec.arg_bytes);
	} else if (it->rec.type == LOGDEV_REC_COMM) {	/* the name, at most 16 bytes */
		n = it->rec.arg_bytes < LOGDEV_COMM_LEN ? it->rec.arg_bytes : LOGDEV_COMM_LEN;
		n = n < size - 1 ? n : size - 1;
		memcpy(buf, it->payload, n);
		buf[n] = 0;
	} else {
		int o = snprintf(buf, size, "<%s %u bytes:",
				 it->rec.type == LOGDEV_REC_RAW ? "raw" : "type?",
				 it->rec.arg_bytes);

		for (uint32_t i = 0; i < it->rec.arg_bytes && i < 32 && o > 0 &&
		     (size_t)o + 4 < size; i++)
			o += snprintf(buf + o, size - (size_t)o, " %02x", it->payload[i]);
		if (o > 0 && (size_t)o + 6 < size)
			snprintf(buf + o, size - (size_t)o, "%s>",
				 it->rec.arg_bytes > 32 ? " ..." : "");
	}
	return strlen(buf);
}

size_t lgd_render_msg(const struct lgd_reader *r, const struct lgd_item *it,
		     char *buf, size_t size, unsigned int *status)
{
	const struct lgd_site *s = lgd_sites_get(&r->sites, it->rec.site);
	char raw[8192];
	size_t n;

	if (!size)
		return 0;
	/* straight into @buf: nearly always whole and with nothing to escape */
	n = lgd_render_msg_bytes(r, it, buf, size, status);
	if (n + 1 < size && ((s && s->prog && s->prog->plain &&
			      (it->rec.type == LOGDEV_REC_PRINT ||
			       it->rec.type == LOGDEV_REC_PRINT_SLOTS)) ||
			     lgd_escape_free(buf, n)))
		return n;
	n = lgd_render_msg_bytes(r, it, raw, sizeof(raw), status);
	n = lgd_escape(buf, size, raw, n);
	/* cut at an escape's edge, then marked */
	return n < size ? n : msg_cut(buf, size, strlen(buf));
}

/* snprintf() at @n of @msg; Return: the new length, cut to fit */
static size_t msg_add(char *msg, size_t size, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t msg_add(char *msg, size_t size, size_t n, const char *fmt, ...)
{
	va_list ap;
	int o;

	if (n >= size)
		return n;
	va_start(ap, fmt);
	o = vsnprintf(msg + n, size - n, fmt, ap);
	va_end(ap);
	return o < 0 ? n : n + (size_t)o < size ? n + (size_t)o : size - 1;
}

size_t lgd_render_dur(char *msg, size_t size, size_t n, const struct lgd_dur_mark *dm)
{
	char d[40];

	lgd_fmt_us(d, sizeof(d), dm->ns);
	n = msg_add(msg, size, n, "%sduration=%s us", n ? " " : "", d);
	if (dm->ns < 0 && dm->entry_cpu != dm->ret_cpu)
		n = msg_add(msg, size, n, " (negative: entry on cpu %u, clocks disagree)",
			    dm->entry_cpu);
	else if (dm->ns < 0)
		n = msg_add(msg, size, n, " (negative: clock went back on cpu %u)",
			    dm->ret_cpu);
	return n;
}

/* ---- whole lines ---------------------------------------------------------- */

int lgd_render_init(struct lgd_render *rd, const struct lgd_reader *r, int style)
{
	memset(rd, 0, sizeof(*rd));
	rd->r = r;
	rd->style = style;
	return 0;
}

void lgd_render_free(struct lgd_render *rd)
{
	lgd_render_forget_labels(rd);
	free(rd->label);
	free(rd->line);
	memset(rd, 0, sizeof(*rd));
}

/* make room for @n more bytes (and a NUL) in the line; 0 or -ENOMEM */
static int line_room(struct lgd_render *rd, size_t n)
{
	if (rd->len + n + 1 > rd->cap) {
		size_t nc = (rd->len + n + 1) * 2;
		char *nl = realloc(rd->line, nc);

		if (!nl)
			return -ENOMEM;
		rd->line = nl;
		rd->cap = nc;
	}
	return 0;
}

/* the line ends in a NUL only once it is done (lgd_render_item()) */
static inline void line_put(struct lgd_render *rd, const char *s, size_t n)
{
	if (rd->len + n + 1 > rd->cap && (rd->err || (rd->err = line_room(rd, n))))
		return;
	memcpy(rd->line + rd->len, s, n);
	rd->len += n;
}

static void line_add(struct lgd_render *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void line_add(struct lgd_render *rd, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (rd->err || (!rd->cap && (rd->err = line_room(rd, 256))))
		return;
	/* one vsnprintf() when the line has room, as it has nearly always */
	va_start(ap, fmt);
	n = vsnprintf(rd->line + rd->len, rd->cap - rd->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= rd->cap - rd->len) {
		if ((rd->err = line_room(rd, (size_t)n)))
			return;
		va_start(ap, fmt);
		vsnprintf(rd->line + rd->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	rd->len += (size_t)n;
}

static void line_str(struct lgd_render *rd, const char *s)
{
	line_put(rd, s, strlen(s));
}

/* @v in decimal, at least @width digits (zero-padded); no printf: hot path */
static void line_u64(struct lgd_render *rd, uint64_t v, int width)
{
	char b[LGD_U64_DEC_MAX];
	size_t n = lgd_fmt_u64(b, v);

	if ((int)n < width) {
		static const char zeros[] = "00000000000000000000";
		size_t z = (size_t)width - n;

		line_put(rd, zeros, z < sizeof(zeros) - 1 ? z : sizeof(zeros) - 1);
	}
	line_put(rd, b, n);
}

/* a timestamp as seconds with 6 decimals, right-aligned in 12 columns */
static void line_ts(struct lgd_render *rd, uint64_t ts)
{
	uint64_t sec = ts / 1000000000u, us = ts % 1000000000u / 1000u;
	char b[LGD_U64_DEC_MAX + 12];
	size_t n = lgd_fmt_u64(b + 12, sec), pad = n < 5 ? 5 - n : 0;

	/* "   SSSSS.uuuuuu": at least 12 columns, the seconds padded on the left */
	memset(b + 12 - pad, ' ', pad);
	line_put(rd, b + 12 - pad, pad + n);
	b[0] = '.';
	for (int i = 6; i > 0; i--, us /= 10)
		b[i] = (char)('0' + us % 10);
	line_put(rd, b, 7);
}

/* @n bytes of @s, terminal-safe (lgd_escape()) */
static void line_escape(struct lgd_render *rd, const char *s, size_t n)
{
	size_t len = lgd_escape(NULL, 0, s, n);

	if (rd->err || (rd->err = line_room(rd, len)))
		return;
	lgd_escape(rd->line + rd->len, len + 1, s, n);
	rd->len += len;
}

const char *lgd_render_label(struct lgd_render *rd, uint32_t id)
{
	int n = lgd_site_label_text(&rd->r->sites, id, rd->label, rd->label_cap);

	if (n >= 0 && (size_t)n >= rd->label_cap) {
		char *nb = realloc(rd->label, (size_t)n + 1);

		if (!nb)	/* cut, but still a string */
			return rd->label ? rd->label : "?";
		rd->label = nb;
		rd->label_cap = (size_t)n + 1;
		lgd_site_label_text(&rd->r->sites, id, rd->label, rd->label_cap);
	}
	return rd->label ? rd->label : "?";
}

void lgd_render_forget_labels(struct lgd_render *rd)
{
	for (uint32_t i = 0; i < rd->nr_labels; i++)
		free(rd->labels[i]);
	free(rd->labels);
	free(rd->label_len);
	free(rd->label_site);
	rd->labels = NULL;
	rd->label_len = NULL;
	rd->label_site = NULL;
	rd->nr_labels = 0;
}

/*
 * The label of site @id (lgd_render_label()), made once per site (the
 * label's snprintf and escape cost more than the rest of a report line);
 * *@len its length.  Valid until the next call.
 */
static const char *label_get(struct lgd_render *rd, uint32_t id, size_t *len)
{
	const struct lgd_sites *ss = &rd->r->sites;
	const struct lgd_site *st = lgd_sites_get(ss, id);
	const char *l;

	if (rd->nr_labels != ss->nr) {		/* first call, or the sites grew */
		lgd_render_forget_labels(rd);
		rd->labels = calloc(ss->nr, sizeof(*rd->labels));
		rd->label_len = calloc(ss->nr, sizeof(*rd->label_len));
		rd->label_site = calloc(ss->nr, sizeof(*rd->label_site));
		if (rd->labels && rd->label_len && rd->label_site)
			rd->nr_labels = ss->nr;
		else
			lgd_render_forget_labels(rd);
	}
	if (st && id < rd->nr_labels && (!rd->labels[id] || rd->label_site[id] != st)) {
		char *t = lgd_site_label_text_alloc(ss, id);

		if (t) {
			free(rd->labels[id]);
			rd->labels[id] = t;
			rd->label_len[id] = (uint32_t)strlen(t);
			rd->label_site[id] = st;
		}
	}
	if (st && id < rd->nr_labels && rd->labels[id] && rd->label_site[id] == st) {
		*len = rd->label_len[id];
		return rd->labels[id];
	}
	l = lgd_render_label(rd, id);	/* unknown site ("site#ID:?"), or no memory */
	*len = strlen(l);
	return l;
}

/*
 * The message of @it, and its duration mark, straight into the line at @o,
 * where LGD_MSG_MAX bytes are free (escaped: lgd_render_msg()); Return: its end
 */
static char *put_msg(struct lgd_render *rd, char *o, const struct lgd_item *it,
		     const struct lgd_dur_mark *dur)
{
	unsigned int st;
	size_t len = lgd_render_msg(rd->r, it, o, LGD_MSG_MAX, &st);

	if (st & LGD_BP_ST_MISSING)
		rd->missing++;
	if (dur)
		len = lgd_render_dur(o, LGD_MSG_MAX, len, dur);
	return o + len;
}

static void render_gap(struct lgd_render *rd, const struct lgd_item *it)
{
	if (rd->style == LGD_RENDER_RAW) {
		line_add(rd, "LOST\t%u\t%" PRIu64 "\t%s\n", it->cpu, it->gap_count,
			 lgd_gap_kind_name(it->gap_kind));
		return;
	}
	line_put(rd, "[ ", 2);
	line_ts(rd, it->ts);
	switch (it->gap_kind) {
	case LGD_GAP_BAD_TS:
		line_add(rd, "] cpu:%u *** %" PRIu64 " record left out: absurd timestamp ***\n",
			 it->cpu, it->gap_count);
		break;
	case LGD_GAP_SUBBUFS:
		line_add(rd, "] cpu:%u *** LOST %" PRIu64 " sub-buffers (overrun) ***\n",
			 it->cpu, it->gap_count);
		break;
	case LGD_GAP_CORRUPT:
		line_add(rd, "] cpu:%u *** LOST %" PRIu64 " bytes (corrupt sub-buffer) ***\n",
			 it->cpu, it->gap_count);
		break;
	default:
		line_add(rd, "] cpu:%u *** LOST %" PRIu64 " events (%s) ***\n",
			 it->cpu, it->gap_count, lgd_gap_kind_name(it->gap_kind));
	}
}

/*
 * raw: ts cpu pid ctx site func line message, tab-separated; a comm record
 * (when the merge returns them): func "<comm>", site and line 0, the name
 */
static void render_raw(struct lgd_render *rd, const struct lgd_item *it,
		       const struct lgd_dur_mark *dur)
{
	const struct lgd_site *s = lgd_sites_get(&rd->r->sites, it->rec.site);

	line_u64(rd, it->ts_absurd ? it->rec.ts : it->ts, 0);	/* its own, absurd or not */
	line_put(rd, "\t", 1);
	line_u64(rd, it->cpu, 0);
	line_put(rd, "\t", 1);
	line_u64(rd, it->rec.pid, 0);
	line_put(rd, "\t", 1);
	line_str(rd, lgd_ctx_name(it->rec.ctx));
	line_put(rd, "\t", 1);
	line_u64(rd, it->rec.site, 0);
	line_put(rd, "\t", 1);
	if (it->rec.type == LOGDEV_REC_COMM || !s)
		line_str(rd, it->rec.type == LOGDEV_REC_COMM ? "<comm>" : "?");
	else
		line_escape(rd, s->func, strlen(s->func));
	line_put(rd, "\t", 1);
	line_u64(rd, s ? s->line : 0, 0);
	line_put(rd, "\t", 1);
	if (rd->err || (rd->err = line_room(rd, LGD_MSG_MAX)))
		return;
	rd->len = (size_t)(put_msg(rd, rd->line + rd->len, it, dur) - rd->line);
}

/* @v with exactly 3 digits (zero-padded), @v < 1000 */
static inline char *put_3(char *o, unsigned v)
{
	unsigned lo = v % 100;

	o[0] = (char)('0' + v / 100);
	o[1] = lgd_dec2[2 * lo];
	o[2] = lgd_dec2[2 * lo + 1];
	return o + 3;
}

/* a timestamp as line_ts() writes it, at @o; Return: the end */
static char *put_ts(char *o, uint64_t ts)
{
	uint64_t sec = ts / 1000000000u;
	unsigned us = (unsigned)(ts % 1000000000u / 1000u);
	char b[LGD_U64_DEC_MAX];
	size_t n = lgd_fmt_u64(b, sec);

	if (n < 5) {	/* right-aligned in 5 */
		memcpy(o, "     ", 5);
		o += 5 - n;
	}
	lgd_copy_small(o, b, n);
	o += n;
	*o++ = '.';
	o = put_3(o, us / 1000);
	return put_3(o, us % 1000);
}

#define PUT_LIT(o, s) (memcpy((o), (s), sizeof(s) - 1), (o) + sizeof(s) - 1)

/*
 * text: [   SECONDS] cpu:C COMM-P [ctx] LABEL MESSAGE[  +D us] (pid:P where
 * the capture has no comm record of P); "  -D us (clock
 * went back, not in deltas)", "  +D us (step over 2^62 ns, not in deltas)".
 * Room for the whole line is made once, then it is written with no check.
 */
static void render_text(struct lgd_render *rd, const struct lgd_item *it,
			const struct lgd_stream_step *sp, const struct lgd_dur_mark *dur)
{
	const char *comm = lgd_comm_at(rd->r, it->rec.pid, it->ts), *ctx = NULL, *label;
	size_t lc = comm ? strlen(comm) : 0, lctx = 0, ll;
	char *o;

	if (it->rec.ctx) {
		ctx = lgd_ctx_name(it->rec.ctx);
		lctx = strlen(ctx);
	}
	label = label_get(rd, it->rec.site, &ll);
	/* numbers and fixed text < 192 bytes; an escape is at most 4 bytes a byte */
	if (rd->err || (rd->err = line_room(rd, 192 + 4 * lc + lctx + ll + LGD_MSG_MAX)))
		return;
	o = rd->line + rd->len;
	o = PUT_LIT(o, "[ ");
	o = put_ts(o, it->ts_absurd ? it->rec.ts : it->ts);
	o = PUT_LIT(o, "] cpu:");
	o += lgd_fmt_u64(o, it->cpu);
	if (lc) {	/* ftrace's COMM-PID, escaped */
		*o++ = ' ';
		o += lgd_escape(o, 4 * lc + 1, comm, lc);
		*o++ = '-';
	} else {	/* no comm record (format versions 1 and 2), or an empty name */
		o = PUT_LIT(o, " pid:");
	}
	o += lgd_fmt_u64(o, it->rec.pid);
	if (ctx) {
		*o++ = ' ';
		memcpy(o, ctx, lctx);
		o += lctx;
	}
	*o++ = ' ';
	if (ll <= 16)
		lgd_copy_small(o, label, ll);
	else
		memcpy(o, label, ll);
	o += ll;
	*o++ = ' ';
	o = put_msg(rd, o, it, dur);
	if (it->ts_absurd) {
		o = PUT_LIT(o, "  (absurd timestamp, not in statistics)");
	} else if (sp->has_prev) {
		/* the rule of deltas (lgd_ts_step()): marked where it leaves one out */
		uint64_t d = sp->ns;
		enum lgd_step k = sp->kind;

		o = k == LGD_STEP_BACK ? PUT_LIT(o, "  -") : PUT_LIT(o, "  +");
		o += lgd_fmt_u64(o, d / 1000);
		*o++ = '.';
		o = put_3(o, (unsigned)(d % 1000));
		o = PUT_LIT(o, " us");
		if (k == LGD_STEP_BACK)
			o = PUT_LIT(o, " (clock went back, not in deltas)");
		else if (k == LGD_STEP_HUGE)
			o = PUT_LIT(o, " (step over 2^62 ns, not in deltas)");
	}
	rd->len = (size_t)(o - rd->line);
}

long lgd_render_item(struct lgd_render *rd, const struct lgd_item *it,
		    const struct lgd_stream_step *sp, const struct lgd_dur_mark *dur,
		    const char **text)
{
	rd->len = rd->kept;
	rd->err = 0;
	if (it->filtered) {	/* left out by the filter: its place only */
		*text = "";
		return 0;
	}
	if (it->kind == LGD_ITEM_GAP) {
		render_gap(rd, it);
	} else {
		if (rd->style == LGD_RENDER_RAW)
			render_raw(rd, it, dur);
		else
			render_text(rd, it, sp, dur);
		line_put(rd, "\n", 1);
	}
	if (rd->err)
		return rd->err;
	rd->line[rd->len] = 0;	/* line_put() keeps room for it */
	*text = rd->line + rd->kept;
	return (long)(rd->len - rd->kept);
}

size_t lgd_render_keep(struct lgd_render *rd, size_t flush_at, const char **text)
{
	size_t n;

	rd->kept = rd->len;
	*text = rd->line;
	if (rd->kept < flush_at)
		return 0;
	n = rd->len;
	rd->kept = rd->len = 0;
	return n;
}
