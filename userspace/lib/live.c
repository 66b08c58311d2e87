// SPDX-License-Identifier: GPL-2.0
/*
 * live.c: the live merge of "logdev report --follow" and "deltas --follow"
 * (struct lgd_live, liblogdev.h has the rule): each CPU's bytes, as read
 * from its trace_pipe_raw, are cut into whole sub-buffers and queued; the
 * queued sub-buffers are decoded one at a time into items (records and
 * lost-events gaps, as reader.c's per-CPU streams make them from a capture
 * file), and the oldest waiting item of all CPUs goes out once the reorder
 * window allows it.  The window is the classic bounded-lateness rule of
 * stream processing: an item goes out when nothing older can still come
 * (every CPU has one waiting), or when it is @window_ns older than the
 * newest data seen, or has waited @window_ns of wall time.
 *
 * Layer: reader (beside reader.c; uses subbuf.c, the reader's metadata,
 * task names and filter).  Nothing here prints or exits.
 *
 * Memory: the queued sub-buffers (bounded by @max_bytes: over it, items go
 * out early), and per CPU one partial sub-buffer, one payload copy, a
 * decoder and a queue of pointers.  Units: ns, bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "subbuf.h"

struct live_sb {
	uint8_t *buf;
	uint64_t off;		/* byte offset in the CPU's data fed */
	uint64_t t_in;		/* wall time it was fed (ns) */
};

struct lgd_live_cpu {
	uint32_t cpu;
	uint8_t *part;		/* a sub-buffer being filled by feeds */
	uint32_t part_len;
	uint64_t fed;		/* bytes fed so far */
	struct live_sb *q;	/* ring of queued whole sub-buffers */
	uint32_t qhead, qn, qcap;
	struct lgd_sb *dec;	/* walks q[qhead] when @loaded */
	int loaded;
	uint64_t seq, prev_seq;	/* prev_seq: as lgd_seq_step() read it */
	uint64_t prev_first_ts;	/* the previous sub-buffer's first_ts */
	int have_prev_seq;
	uint64_t last_ts;	/* ts of the CPU's previous record */
	struct lgd_item pending[LGD_SB_GAPS_MAX];	/* gaps waiting before the records */
	int npending, ipending;
	struct lgd_item head;	/* the next item of this CPU, if @has_head */
	int has_head;
	uint64_t head_t_in;	/* wall time its sub-buffer was fed */
	uint8_t *payload;	/* copy of @head's payload */
	uint32_t idx;		/* its index: lv->cpu[], the reader's lost counts */
};

static void lwarn(struct lgd_live *lv, int err, int64_t off, int64_t cpu, int64_t seq,
		  const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void lwarn(struct lgd_live *lv, int err, int64_t off, int64_t cpu, int64_t seq,
		  const char *fmt, ...)
{
	struct lgd_diag d = { err, off, cpu, seq, "" };
	va_list ap;

	if (!lv->r->warn)
		return;
	va_start(ap, fmt);
	vsnprintf(d.msg, sizeof(d.msg), fmt, ap);
	va_end(ap);
	lv->r->warn(lv->r->warn_arg, &d);
}

int lgd_live_open(struct lgd_live *lv, struct lgd_reader *r, const uint32_t *cpus,
		  uint32_t nr, const struct lgd_live_opts *o)
{
	uint32_t sbs = r->hdr.subbuf_size;

	memset(lv, 0, sizeof(*lv));
	if (!nr || !sbs)
		return -EINVAL;
	lv->r = r;
	lv->window_ns = o->window_ns;
	lv->max_bytes = o->max_bytes;
	lv->items = o->items;
	lv->on_unknown_site = o->on_unknown_site;
	lv->arg = o->arg;
	if (lv->max_bytes < 2ull * sbs * nr)
		lv->max_bytes = 2ull * sbs * nr;
	lv->cpu = calloc(nr, sizeof(*lv->cpu));
	if (!lv->cpu)
		return -ENOMEM;
	lv->nr_cpus = nr;
	if (lgd_reader_lost_init(r, cpus, nr))
		goto nomem;
	for (uint32_t i = 0; i < nr; i++) {
		struct lgd_live_cpu *c = calloc(1, sizeof(*c));

		lv->cpu[i] = c;
		if (!c)
			goto nomem;
		c->cpu = cpus[i];
		c->idx = i;
		c->part = malloc(sbs);
		c->payload = malloc(sbs);
		c->dec = lgd_sb_alloc();
		if (!c->part || !c->payload || !c->dec)
			goto nomem;
	}
	return 0;
nomem:
	lgd_live_free(lv);
	return -ENOMEM;
}

void lgd_live_free(struct lgd_live *lv)
{
	for (uint32_t i = 0; i < lv->nr_cpus; i++) {
		struct lgd_live_cpu *c = lv->cpu[i];

		if (!c)
			continue;
		for (uint32_t k = 0; k < c->qn; k++)
			free(c->q[(c->qhead + k) % c->qcap].buf);
		free(c->q);
		free(c->part);
		free(c->payload);
		lgd_sb_free(c->dec);
		free(c);
	}
	free(lv->cpu);
	memset(lv, 0, sizeof(*lv));
}

uint32_t lgd_live_cpu_id(const struct lgd_live *lv, uint32_t i)
{
	return i < lv->nr_cpus ? lv->cpu[i]->cpu : 0;
}

/* a whole sub-buffer of CPU @c is in @c->part: queue it */
static int queue_part(struct lgd_live *lv, struct lgd_live_cpu *c, uint64_t now_ns)
{
	uint32_t sbs = lv->r->hdr.subbuf_size;
	struct lgd_sb_info h;
	struct live_sb *e;
	uint8_t *b;

	if (c->qn == c->qcap) {
		uint32_t nc = c->qcap ? c->qcap * 2 : 8;
		struct live_sb *nq = malloc(nc * sizeof(*nq));

		if (!nq)
			return -ENOMEM;
		for (uint32_t k = 0; k < c->qn; k++)
			nq[k] = c->q[(c->qhead + k) % c->qcap];
		free(c->q);
		c->q = nq;
		c->qcap = nc;
		c->qhead = 0;
	}
	b = malloc(sbs);
	if (!b)
		return -ENOMEM;
	memcpy(b, c->part, sbs);
	e = &c->q[(c->qhead + c->qn++) % c->qcap];
	e->buf = b;
	e->off = c->fed - sbs;
	e->t_in = now_ns;
	lv->held_bytes += sbs;
	/* its first_ts: the newest data seen is at least that new */
	{
		struct lgd_sb *tmp = lgd_sb_alloc();

		if (tmp) {
			int st = lgd_sb_load(tmp, b, sbs, sbs, &h);

			if ((st == LGD_SB_OK || st == LGD_SB_DATA_CUT) && !lgd_ts_absurd(h.first_ts) &&
			    h.first_ts > lv->newest_ts)
				lv->newest_ts = h.first_ts;
			lgd_sb_free(tmp);
		}
	}
	return 0;
}

int lgd_live_feed(struct lgd_live *lv, uint32_t i, const void *data, size_t len,
		  uint64_t now_ns)
{
	uint32_t sbs = lv->r->hdr.subbuf_size;
	const uint8_t *p = data;
	struct lgd_live_cpu *c;

	if (i >= lv->nr_cpus)
		return -EINVAL;
	c = lv->cpu[i];
	while (len) {
		size_t n = sbs - c->part_len < len ? sbs - c->part_len : len;
		int ret;

		memcpy(c->part + c->part_len, p, n);
		c->part_len += (uint32_t)n;
		c->fed += n;
		p += n;
		len -= n;
		if (c->part_len < sbs)
			break;
		c->part_len = 0;
		ret = queue_part(lv, c, now_ns);
		if (ret)
			return ret;
	}
	return 0;
}

/* a corrupt gap of @count bytes at @off, alone in the queue */
static void corrupt_gap(struct lgd_live_cpu *c, uint64_t count, uint64_t off)
{
	lgd_gap_item(&c->pending[0], LGD_GAP_CORRUPT, count, c->cpu, c->last_ts, c->last_ts, c->seq,
		     off);
	c->npending = 1;
	c->ipending = 0;
}

/* drop the queue's first sub-buffer (fully decoded) */
static void pop_sb(struct lgd_live *lv, struct lgd_live_cpu *c)
{
	free(c->q[c->qhead].buf);
	c->qhead = (c->qhead + 1) % c->qcap;
	c->qn--;
	c->loaded = 0;
	lv->held_bytes -= lv->r->hdr.subbuf_size;
}

/*
 * Load the queue's first sub-buffer: check its header, queue its gaps (as
 * reader.c's load_subbuf(): seq jump, overrun, then the refusals by cause).
 * Return: 1 loaded (or a corrupt gap queued), 0 queue empty.
 */
static int load_sb(struct lgd_live *lv, struct lgd_live_cpu *c)
{
	uint32_t sbs = lv->r->hdr.subbuf_size;

	c->npending = c->ipending = 0;
	while (c->qn) {
		struct live_sb *e = &c->q[c->qhead];
		struct lgd_sb_info h;
		int st = lgd_sb_load(c->dec, e->buf, sbs, sbs, &h);

		c->seq = h.seq;
		if (st == LGD_SB_BAD_MAGIC || st == LGD_SB_BAD_VERSION ||
		    st == LGD_SB_BAD_DATA_BYTES || st == LGD_SB_SHORT) {
			lwarn(lv, st == LGD_SB_BAD_VERSION ? -EPROTO : -EINVAL, (int64_t)e->off,
			      c->cpu, -1, "%s, sub-buffer skipped",
			      st == LGD_SB_BAD_MAGIC ? "bad sub-buffer magic" :
			      st == LGD_SB_BAD_VERSION ? "sub-buffer version unsupported" :
			      "bad data_bytes");
			corrupt_gap(c, sbs, e->off);
			c->prev_seq++;
			pop_sb(lv, c);
			return 1;
		}
		{
			struct lgd_seq_ctx sc = {
				.have_prev = c->have_prev_seq, .prev = c->prev_seq,
				.prev_ts = c->prev_first_ts, .ts = h.first_ts,
				.slack = (uint64_t)lv->r->hdr.nr_subbufs + LGD_SEQ_SLACK,
			};
			uint64_t lost = 0, base = c->seq;
			char why[sizeof(((struct lgd_diag *)0)->msg)];

			/* the next sub-buffer, if it is queued already */
			if (c->qn > 1)
				sc.have_next = lgd_sb_peek_seq(c->q[(c->qhead + 1) % c->qcap].buf, sbs,
							       &sc.next) == 1;
			if (lgd_seq_step(&sc, c->seq, &lost, &base, why, sizeof(why)) >= LGD_SEQ_BACK)
				lwarn(lv, -EINVAL, (int64_t)e->off, c->cpu, (int64_t)c->seq, "%s", why);
			c->npending = lgd_sb_gaps(c->pending, &h, c->cpu, lost, c->last_ts, e->off);
			c->have_prev_seq = 1;
			c->prev_seq = base;
			c->prev_first_ts = h.first_ts;
		}
		c->loaded = 1;
		return 1;
	}
	return 0;
}

/* make c->head from the queued data; 0 if none now */
static int advance(struct lgd_live *lv, struct lgd_live_cpu *c)
{
	for (;;) {
		struct lgd_sb_rec rec;
		struct live_sb *e;
		uint64_t foff;

		if (c->ipending < c->npending) {
			c->head = c->pending[c->ipending++];
			c->head_t_in = c->qn ? c->q[c->qhead].t_in : 0;
			return 1;
		}
		if (!c->loaded) {
			if (!load_sb(lv, c))
				return 0;
			continue;
		}
		e = &c->q[c->qhead];
		switch (lgd_sb_next(c->dec, &rec)) {
		case LGD_SB_REC_END:
		case LGD_SB_REC_CUT:
			pop_sb(lv, c);
			continue;
		case LGD_SB_REC_TRAILING:
			lwarn(lv, -EINVAL, (int64_t)(e->off + rec.bad_off), c->cpu, (int64_t)c->seq,
			      "%u trailing bytes too short for a record", rec.left);
			continue;
		case LGD_SB_REC_BAD_LEN:
			lwarn(lv, -EINVAL, (int64_t)(e->off + rec.bad_off), c->cpu, (int64_t)c->seq,
			      "bad record length %u (%u bytes left in sub-buffer), rest of sub-buffer skipped",
			      rec.hdr.len, rec.left);
			corrupt_gap(c, rec.left, e->off + rec.bad_off);
			continue;
		case LGD_SB_REC_BAD_ARGS:
			lwarn(lv, -EINVAL, (int64_t)(e->off + rec.bad_off), c->cpu, (int64_t)c->seq,
			      "record arg_bytes %u exceeds its length %u, record skipped",
			      rec.hdr.arg_bytes, rec.hdr.len);
			continue;
		}
		foff = e->off + rec.off;
		if (!lgd_ts_absurd(rec.hdr.ts)) {
			c->last_ts = rec.hdr.ts;
			if (rec.hdr.ts > lv->newest_ts)
				lv->newest_ts = rec.hdr.ts;
		}
		lgd_item_of_rec(&c->head, c->cpu, &rec, c->last_ts, c->seq, foff, c->payload);
		c->head_t_in = e->t_in;
		return 1;
	}
}

/* is @a before @b in the merge: (ts, cpu) */
static int before(const struct lgd_live_cpu *a, const struct lgd_live_cpu *b)
{
	if (a->head.ts != b->head.ts)
		return a->head.ts < b->head.ts;
	return a->cpu < b->cpu;
}

int lgd_live_next(struct lgd_live *lv, uint64_t now_ns, int drain, struct lgd_item *it,
		  unsigned int *flags)
{
	struct lgd_reader *r = lv->r;

	for (;;) {
		struct lgd_live_cpu *min = NULL;
		int all = 1, ready;

		for (uint32_t i = 0; i < lv->nr_cpus; i++) {
			struct lgd_live_cpu *c = lv->cpu[i];

			if (!c->has_head)
				c->has_head = advance(lv, c);
			if (!c->has_head) {
				all = 0;
				continue;
			}
			if (!min || before(c, min))
				min = c;
		}
		if (!min)
			return 0;
		ready = drain || all ||
			(lv->newest_ts >= lv->window_ns && min->head.ts <= lv->newest_ts - lv->window_ns) ||
			now_ns - min->head_t_in >= lv->window_ns;
		*flags = 0;
		if (!ready) {
			if (lv->held_bytes <= lv->max_bytes)
				return 0;
			*flags |= LGD_LIVE_EARLY;
		}
		*it = min->head;
		min->has_head = 0;	/* advanced at the next call: the payload stays valid */
		if (it->kind == LGD_ITEM_REC && it->rec.type == LOGDEV_REC_COMM) {
			if (lgd_comm_add(r, it->rec.pid, it->ts, it->payload, it->rec.arg_bytes))
				return -ENOMEM;
			if (!(lv->items & LGD_ITEMS_COMM))
				continue;
		}
		/* formats re-read before the filter looks at the site */
		if (it->kind == LGD_ITEM_REC && it->rec.type != LOGDEV_REC_COMM &&
		    !(it->ts_absurd && !(lv->items & LGD_ITEMS_ABSURD)) && lv->on_unknown_site &&
		    !lgd_sites_get(&r->sites, it->rec.site))
			lv->on_unknown_site(lv->arg, r, it->rec.site);
		lgd_reader_settle(r, it, min->idx, !!(lv->items & LGD_ITEMS_ABSURD));
		if (it->kind == LGD_ITEM_REC && it->rec.type != LOGDEV_REC_COMM && !it->ts_absurd) {
			if (lv->have_last && it->ts < lv->last_ts)
				*flags |= LGD_LIVE_LATE;
			else {
				lv->last_ts = it->ts;
				lv->have_last = 1;
			}
		}
		if (it->filtered && !(lv->items & LGD_ITEMS_FILTERED))
			continue;
		if (!it->filtered && it->kind == LGD_ITEM_REC && it->rec.type != LOGDEV_REC_COMM) {
			lv->records++;
			if (*flags & LGD_LIVE_LATE)
				lv->late++;
			if (*flags & LGD_LIVE_EARLY)
				lv->early++;
		}
		return 1;
	}
}

uint64_t lgd_live_deadline(const struct lgd_live *lv)
{
	uint64_t t = UINT64_MAX;

	for (uint32_t i = 0; i < lv->nr_cpus; i++) {
		const struct lgd_live_cpu *c = lv->cpu[i];
		uint64_t in = c->has_head ? c->head_t_in : c->qn ? c->q[c->qhead].t_in : UINT64_MAX;

		if (in < t)
			t = in;
	}
	return t == UINT64_MAX || t > UINT64_MAX - lv->window_ns ? UINT64_MAX : t + lv->window_ns;
}
