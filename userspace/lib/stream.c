// SPDX-License-Identifier: GPL-2.0
/*
 * stream.c: one CPU's stream of a capture (layer: library, read): its
 * sections found by walking the section headers, its sub-buffers read
 * ahead and decoded (through subbuf.h) into items, records and lost-events
 * gaps (a seq step judged by lgd_seq_step(): damaged, reset and impossible
 * steps warned, never counted lost).  The one per-CPU decoder: the live
 * merge (live.c) gives its queued sub-buffers through a struct
 * lgd_stream_src instead of the file's sections.
 *
 * Memory: per CPU a read-ahead of whole sub-buffers and a cursor; nothing
 * grows with the capture size.  Warnings that can repeat for every record
 * or sub-buffer (timestamp going backwards, sub-buffer CPU or seq
 * mismatch) are given LGD_WARN_BURST times per kind, then summed up by the
 * merge.  A timestamp is compared with the previous record of its CPU, so
 * one bad stamp costs one warning.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "liblogdev.h"
#include "comm.h"
#include "subbuf.h"
#include "reader_int.h"

const char *const lgd_rl_name[RL_NR] = {
	"timestamp goes backwards", "sub-buffer CPU mismatch",
	"sub-buffer seq out of line",
};

/* warning of kind @kind: the first LGD_WARN_BURST, then only counted */
static void rl_warn(struct lgd_cpu_stream *s, int kind, int err, int64_t off,
		    int64_t seq, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void rl_warn(struct lgd_cpu_stream *s, int kind, int err, int64_t off,
		    int64_t seq, const char *fmt, ...)
{
	va_list ap;

	if (++s->sh->nwarn[kind] > LGD_WARN_BURST)
		return;
	va_start(ap, fmt);
	lgd_rd_vwarn(s->r, err, off, s->cpu, seq, fmt, ap);
	va_end(ap);
}

/* next chunk of up to subbuf_size bytes of this CPU's data; 0 at the end */
static int next_subbuf(struct lgd_cpu_stream *s)
{
	struct lgd_reader *r = s->r;
	uint32_t sbs = r->hdr.subbuf_size;
	ssize_t n;
	size_t want;

	while (!s->sect_left) {
		uint8_t sh[LGD_CAP_SECT_HDR_BYTES];
		uint32_t type, cpu;
		uint64_t len;
		const struct lgd_sect_fix *fx;

		if (s->eof)
			return 0;
		n = lgd_rd_pread(r->fd, sh, sizeof(sh), s->scan_off);
		if (n >= (ssize_t)sizeof(sh))
			lgd_cap_sect_hdr_get(sh, &type, &cpu, &len);
		fx = n >= (ssize_t)sizeof(sh) ? lgd_rd_fix_at(r, s->scan_off) : NULL;
		if (fx) {	/* a corrupt header, as the open read it (warned there) */
			type = fx->type;
			cpu = fx->cpu;
			len = fx->len;
		}
		if (n < (ssize_t)sizeof(sh) || type == LGD_SECT_END) {
			s->eof = 1;
			return 0;
		}
		s->sect_off = s->scan_off + sizeof(sh);
		if (len > r->file_size - s->sect_off)
			len = r->file_size - s->sect_off;	/* warned at open */
		s->scan_off = fx ? fx->next : s->sect_off + len;
		if (type == LGD_SECT_CPU_DATA && cpu == s->cpu) {
			s->sect_left = len;
			if (len % sbs && s->scan_off != r->file_size)	/* cut: warned at open */
				lgd_rd_warn(r, -EINVAL, (int64_t)s->sect_off, s->cpu, -1,
				     "CPU data section of %llu bytes is not a multiple of the sub-buffer size %u",
				     (unsigned long long)len, sbs);
		}
	}
	want = s->sect_left < sbs ? (size_t)s->sect_left : sbs;
	if (s->sect_off < s->ra_off || s->sect_off + want > s->ra_off + s->ra_len) {
		/* several sub-buffers a read: fewer system calls than one each */
		size_t get = s->sect_left < s->ra_cap ? (size_t)s->sect_left : s->ra_cap;

		n = lgd_rd_pread(r->fd, s->ra, get, s->sect_off);
		if (n < 0) {
			lgd_rd_warn(r, (int)n, (int64_t)s->sect_off, s->cpu, -1, "read error");
			s->eof = 1;
			return 0;
		}
		s->ra_off = s->sect_off;
		s->ra_len = (uint32_t)n;
	}
	s->sb = s->ra + (s->sect_off - s->ra_off);
	n = (ssize_t)(s->ra_off + s->ra_len - s->sect_off);	/* short at the end of the file */
	s->sb_off = s->sect_off;
	s->sb_avail = (uint32_t)(n < (ssize_t)want ? n : (ssize_t)want);
	s->sect_off += want;
	s->sect_left -= want;
	return 1;
}

void lgd_gap_item(struct lgd_item *g, int kind, uint64_t count, uint32_t cpu, uint64_t ts,
		  uint64_t last_ts, uint64_t seq, uint64_t off)
{
	memset(g, 0, sizeof(*g));
	g->kind = LGD_ITEM_GAP;
	g->cpu = cpu;
	g->ts = ts < last_ts ? last_ts : ts;
	g->gap_kind = kind;
	g->gap_count = count;
	g->seq = seq;
	g->file_off = off;
}

int lgd_seq_step(const struct lgd_seq_ctx *c, uint64_t seq, uint64_t *lost, uint64_t *base,
		 char *why, size_t n)
{
	uint64_t p = c->prev, k, dt;

	*lost = 0;
	*base = seq;
	if (why && n)
		why[0] = 0;
	if (!c->have_prev || (seq > p && seq - p == 1))
		return LGD_SEQ_OK;
	/* the next one follows the previous: this one is out of line */
	if (c->have_next && c->next > p && (seq < p || c->next < seq || c->next - p <= 2)) {
		*base = c->next - p >= 2 ? p + 1 : p;
		if (why)
			snprintf(why, n, "sub-buffer seq %llu between %llu and %llu is damaged: read as %llu, no sub-buffer counted lost",
				 (unsigned long long)seq, (unsigned long long)p,
				 (unsigned long long)c->next, (unsigned long long)*base);
		return LGD_SEQ_DAMAGED;
	}
	if (seq <= p) {
		if (why)
			snprintf(why, n, "sub-buffer seq %llu after %llu goes backwards (the buffer was reset, or a seq is damaged): no sub-buffer counted lost",
				 (unsigned long long)seq, (unsigned long long)p);
		return LGD_SEQ_BACK;
	}
	k = seq - p - 1;	/* seq > p + 1: no wrap */
	if (!lgd_ts_absurd(c->prev_ts) && !lgd_ts_absurd(c->ts)) {
		dt = c->ts > c->prev_ts ? c->ts - c->prev_ts : 0;
		if (k > dt && k - dt > c->slack) {
			if (why)
				snprintf(why, n, "sub-buffer seq %llu after %llu: a jump of %llu sub-buffers in %llu ns is impossible (a damaged seq?): not counted lost",
					 (unsigned long long)seq, (unsigned long long)p,
					 (unsigned long long)k, (unsigned long long)dt);
			return LGD_SEQ_IMPOSSIBLE;
		}
	}
	*lost = k;
	return LGD_SEQ_JUMP;
}

/* the lost-events gaps of sub-buffer header @h (@subbufs lost before it); their number */
static int sb_gaps(struct lgd_item g[LGD_SB_GAPS_MAX], const struct lgd_sb_info *h, uint32_t cpu,
		   uint64_t subbufs, uint64_t last_ts, uint64_t off)
{
	const struct {
		int kind;
		uint64_t count;
	} k[LGD_SB_GAPS_MAX] = {
		{ LGD_GAP_SUBBUFS, h->overrun_before ? 0 : subbufs },
		{ LGD_GAP_OVERRUN, h->overrun_before }, { LGD_GAP_DROPPED, h->dropped_before },
		{ LGD_GAP_NESTING_LOST, h->nesting_lost_before },
		{ LGD_GAP_TOO_BIG, h->too_big_before }, { LGD_GAP_LOST, h->lost_before },
	};
	int n = 0;

	for (int i = 0; i < LGD_SB_GAPS_MAX; i++)
		if (k[i].count)
			lgd_gap_item(&g[n++], k[i].kind, k[i].count, cpu, h->first_ts, last_ts, h->seq, off);
	return n;
}

/* a corrupt gap of @count bytes, alone in the queue (what was queued is dropped) */
static void corrupt_gap(struct lgd_cpu_stream *s, uint64_t count)
{
	s->npending = 1;
	s->ipending = 0;
	lgd_gap_item(&s->pending[0], LGD_GAP_CORRUPT, count, s->cpu, s->last_ts, s->last_ts,
		     s->seq, s->sb_off);
}

/* the current sub-buffer is unusable: one corrupt gap, nothing else */
static int skip_subbuf(struct lgd_cpu_stream *s)
{
	corrupt_gap(s, s->sb_avail);
	s->prev_seq++;	/* assume it was the next one */
	return 1;
}

/*
 * The seq of the CPU's sub-buffer after the current one (the rest of its
 * section, or the CPU's next CPU_DATA section), for lgd_seq_step(); the
 * stream is not moved.  Return: 1 with *@seq, 0 if there is none or it is
 * no sub-buffer (bad magic or version, cut).
 */
static int peek_next_seq(const struct lgd_cpu_stream *s, uint64_t *seq)
{
	const struct lgd_reader *r = s->r;
	uint8_t b[LOGDEV_SUBBUF_HDR_SIZE];
	uint64_t off = s->sect_off, scan = s->scan_off;
	ssize_t n;

	if (!s->sect_left) {
		for (;;) {	/* as next_subbuf() walks the sections */
			uint8_t sh[LGD_CAP_SECT_HDR_BYTES];
			const struct lgd_sect_fix *fx;
			uint32_t type, cpu;
			uint64_t len, data;

			if (s->eof || lgd_rd_pread(r->fd, sh, sizeof(sh), scan) < (ssize_t)sizeof(sh))
				return 0;
			lgd_cap_sect_hdr_get(sh, &type, &cpu, &len);
			fx = lgd_rd_fix_at(r, scan);
			if (fx) {
				type = fx->type;
				cpu = fx->cpu;
				len = fx->len;
			}
			if (type == LGD_SECT_END)
				return 0;
			data = scan + sizeof(sh);
			if (len > r->file_size - data)
				len = r->file_size - data;
			if (type == LGD_SECT_CPU_DATA && cpu == s->cpu && len) {
				off = data;
				break;
			}
			scan = fx ? fx->next : data + len;
		}
	}
	n = lgd_rd_pread(r->fd, b, sizeof(b), off);
	return n > 0 && lgd_sb_peek_seq(b, (size_t)n, seq) == 1;
}

/*
 * Load the next sub-buffer: check its header, queue its gaps and set up the
 * record walk.  Return 0 at the end of the CPU's data.
 */
static int load_subbuf(struct lgd_cpu_stream *s)
{
	struct lgd_reader *r = s->r;
	uint32_t sbs = r->hdr.subbuf_size, hsz = lgd_sb_hdr_size(r->hdr.version);

	s->npending = s->ipending = 0;
	while (s->src ? s->src->next(s) : next_subbuf(s)) {
		struct lgd_sb_info h;
		int st = lgd_sb_load(s->dec, s->sb, s->sb_avail, sbs, &h);

		if (st == LGD_SB_SHORT) {
			lgd_rd_warn(r, -ENODATA, (int64_t)(s->sb_off + s->sb_avail), s->cpu, -1,
			     "sub-buffer at byte %llu has %u bytes, its header needs %u",
			     (unsigned long long)s->sb_off, s->sb_avail, hsz);
			continue;
		}
		s->seq = h.seq;
		switch (st) {
		case LGD_SB_BAD_MAGIC:
			lgd_rd_warn(r, -EINVAL, (int64_t)s->sb_off, s->cpu, -1,
			     "bad sub-buffer magic 0x%08x, sub-buffer skipped", h.magic);
			return skip_subbuf(s);
		case LGD_SB_BAD_VERSION:
			lgd_rd_warn(r, -EPROTO, (int64_t)(s->sb_off + lgd_sb_field_off(LGD_SB_F_VERSION)),
			     s->cpu, (int64_t)s->seq,
			     "sub-buffer version %u unsupported, sub-buffer skipped", h.version);
			return skip_subbuf(s);
		}
		if (h.cpu != (s->cpu & 0xffff))
			rl_warn(s, RL_CPU_MISMATCH, -EINVAL,
				(int64_t)(s->sb_off + lgd_sb_field_off(LGD_SB_F_CPU)),
				(int64_t)s->seq, "sub-buffer says cpu %u, section says %u",
				(unsigned)h.cpu, s->cpu);
		if (st == LGD_SB_BAD_DATA_BYTES) {
			lgd_rd_warn(r, -EINVAL, (int64_t)(s->sb_off + lgd_sb_field_off(LGD_SB_F_DATA_BYTES)),
			     s->cpu, (int64_t)s->seq,
			     "data_bytes %u exceeds sub-buffer size %u, sub-buffer skipped",
			     h.data_bytes, sbs);
			return skip_subbuf(s);
		}
		{
			struct lgd_seq_ctx c = {
				.have_prev = s->have_prev_seq, .prev = s->prev_seq,
				.prev_ts = s->prev_first_ts, .ts = h.first_ts,
				.slack = (uint64_t)r->hdr.nr_subbufs + LGD_SEQ_SLACK,
			};
			uint64_t lost = 0, base = s->seq;
			char why[sizeof(((struct lgd_diag *)0)->msg)];

			if (c.have_prev && !(s->seq > c.prev && s->seq - c.prev == 1))
				c.have_next = s->src ? s->src->peek_seq(s, &c.next) :
					      peek_next_seq(s, &c.next);
			if (lgd_seq_step(&c, s->seq, &lost, &base, why, sizeof(why)) >= LGD_SEQ_BACK)
				rl_warn(s, RL_SEQ_BACK, -EINVAL,
					(int64_t)(s->sb_off + lgd_sb_field_off(LGD_SB_F_SEQ)),
					(int64_t)s->seq, "%s", why);
			s->npending = sb_gaps(s->pending, &h, s->cpu, lost, s->last_ts, s->sb_off);
			s->have_prev_seq = 1;
			s->prev_seq = base;
			s->prev_first_ts = h.first_ts;
		}
		if (st == LGD_SB_DATA_CUT)
			lgd_rd_warn(r, -ENODATA, (int64_t)(s->sb_off + s->sb_avail), s->cpu,
			     (int64_t)s->seq,
			     "sub-buffer at byte %llu has %u of its %u data bytes",
			     (unsigned long long)s->sb_off,
			     s->sb_avail - lgd_sb_hdr_size(h.version), h.data_bytes);
		return 1;
	}
	return 0;
}

static inline void item_of_rec(struct lgd_item *restrict it, uint32_t cpu,
			       const struct lgd_sb_rec *restrict rec, uint64_t last_ts,
			       uint64_t seq, uint64_t off, uint8_t *restrict payload);

/* produce s->head; 0 if the stream is finished */
int lgd_stream_advance(struct lgd_cpu_stream *s)
{
	struct lgd_reader *r = s->r;

	for (;;) {
		struct lgd_sb_rec rec;
		uint64_t foff;

		if (s->ipending < s->npending) {
			s->head = s->pending[s->ipending++];
			return 1;
		}
		switch (lgd_sb_next(s->dec, &rec)) {
		case LGD_SB_REC_END:
			if (!load_subbuf(s))
				return 0;
			continue;
		case LGD_SB_REC_CUT:	/* the capture ends inside: said at load */
			continue;
		case LGD_SB_REC_TRAILING:
			lgd_rd_warn(r, -EINVAL, (int64_t)(s->sb_off + rec.bad_off), s->cpu,
			     (int64_t)s->seq, "%u trailing bytes too short for a record",
			     rec.left);
			continue;
		case LGD_SB_REC_BAD_LEN:
			lgd_rd_warn(r, -EINVAL, (int64_t)(s->sb_off + rec.bad_off), s->cpu, (int64_t)s->seq,
			     "bad record length %u (%u bytes left in sub-buffer), rest of sub-buffer skipped",
			     rec.hdr.len, rec.left);
			corrupt_gap(s, rec.left);
			continue;
		case LGD_SB_REC_BAD_ARGS:
			lgd_rd_warn(r, -EINVAL, (int64_t)(s->sb_off + rec.bad_off), s->cpu, (int64_t)s->seq,
			     "record arg_bytes %u exceeds its length %u, record skipped",
			     rec.hdr.arg_bytes, rec.hdr.len);
			continue;
		}
		foff = s->sb_off + rec.off;
		if (lgd_ts_absurd(rec.hdr.ts))
			;	/* kept in place (the CPU's last time); lgd_merge_next() */
		else if (rec.hdr.ts < s->last_ts)
			rl_warn(s, RL_TS_BACK, -ERANGE, (int64_t)foff, (int64_t)s->seq,
				"timestamp goes backwards on this CPU (%llu after %llu)",
				(unsigned long long)rec.hdr.ts,
				(unsigned long long)s->last_ts);
		if (!lgd_ts_absurd(rec.hdr.ts))
			s->last_ts = rec.hdr.ts;	/* compare the next with this one */
		/*
		 * A capture file's payload stays where it is: its read-ahead
		 * is read over only when this stream advances past it, which
		 * ends the item's life as it ended the copy's.  A live source
		 * frees its sub-buffers on its own terms: copied.
		 */
		item_of_rec(&s->head, s->cpu, &rec, s->last_ts, s->seq, foff,
			    s->src ? s->payload : NULL);
		return 1;
	}
}

/*
 * *@it from record @rec of the current sub-buffer, inlined in the per-record
 * path (restrict: the item, the record and the payload copy never overlap,
 * so the memset and the stores stay as cheap as when they were written in
 * place)
 */
static inline void item_of_rec(struct lgd_item *restrict it, uint32_t cpu,
			       const struct lgd_sb_rec *restrict rec, uint64_t last_ts,
			       uint64_t seq, uint64_t off, uint8_t *restrict payload)
{
	memset(it, 0, sizeof(*it));
	it->kind = LGD_ITEM_REC;
	it->cpu = cpu;
	it->ts = lgd_ts_absurd(rec->hdr.ts) ? last_ts : rec->hdr.ts;
	it->ts_absurd = lgd_ts_absurd(rec->hdr.ts);
	it->rec = rec->hdr;
	it->rec_flags = rec->flags;
	if (payload) {	/* NULL: the record's own bytes */
		memcpy(payload, rec->payload, rec->hdr.arg_bytes);
		it->payload = payload;
	} else {
		it->payload = rec->payload;
	}
	it->seq = seq;
	it->file_off = off;
}
