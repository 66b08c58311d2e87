// SPDX-License-Identifier: GPL-2.0
/*
 * live.c: the live merge of "logdev report --follow" and "deltas --follow"
 * (struct lgd_live, lgd_live.h has the rule): each CPU's bytes, as read
 * from its trace_pipe_raw, are cut into whole sub-buffers and queued; the
 * queued sub-buffers are decoded one at a time into items (records and
 * lost-events gaps) by the one per-CPU decoder (stream.c, which reads a
 * capture file's the same way), and the oldest waiting item of all CPUs goes out once the reorder
 * window allows it.  The window is the classic bounded-lateness rule of
 * stream processing: an item goes out when nothing older can still come
 * (every CPU has one waiting), or when it is @window_ns older than the
 * newest data seen, or has waited @window_ns of wall time.
 *
 * Layer: library, read (beside merge.c; uses stream.c, the reader's
 * metadata, task names and filter).  Nothing here prints or exits.
 *
 * Memory: the queued sub-buffers (bounded by @max_bytes: over it, items go
 * out early), and per CPU one partial sub-buffer, one payload copy, a
 * decoder and a queue of pointers.  Units: ns, bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "subbuf.h"
#include "reader_int.h"

struct live_sb {
	uint8_t *buf;
	uint64_t off;		/* byte offset in the CPU's data fed */
	uint64_t t_in;		/* wall time it was fed (ns) */
};

struct lgd_live_cpu {
	struct lgd_cpu_stream st;	/* the decoder (stream.c), fed from @q */
	struct lgd_live *lv;
	uint8_t *part;		/* a sub-buffer being filled by feeds */
	uint32_t part_len;
	uint64_t fed;		/* bytes fed so far */
	struct live_sb *q;	/* ring of queued whole sub-buffers */
	uint32_t qhead, qn, qcap;
	int loaded;		/* q[qhead] is the decoder's current sub-buffer */
	uint64_t cur_t_in;	/* wall time the current sub-buffer was fed */
	uint64_t head_t_in;	/* and the one st.head came from */
};

static int live_next_sb(struct lgd_cpu_stream *s);
static int live_peek_seq(const struct lgd_cpu_stream *s, uint64_t *seq);

static const struct lgd_stream_src live_src = {
	.next = live_next_sb,
	.peek_seq = live_peek_seq,
};

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
	lv->sh = calloc(1, sizeof(*lv->sh));
	if (!lv->sh || lgd_merge_counts_init(&lv->counts, cpus, nr))
		goto nomem;
	for (uint32_t i = 0; i < nr; i++) {
		struct lgd_live_cpu *c = calloc(1, sizeof(*c));

		lv->cpu[i] = c;
		if (!c)
			goto nomem;
		c->lv = lv;
		c->st.src = &live_src;
		c->st.src_arg = c;
		c->st.r = r;
		c->st.sh = lv->sh;
		c->st.cpu = cpus[i];
		c->st.idx = i;
		c->part = malloc(sbs);
		c->st.payload = malloc(sbs);
		c->st.dec = lgd_sb_alloc();
		if (!c->part || !c->st.payload || !c->st.dec)
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
		free(c->st.payload);
		lgd_sb_free(c->st.dec);
		free(c);
	}
	free(lv->cpu);
	free(lv->sh);
	lgd_merge_counts_free(&lv->counts);
	memset(lv, 0, sizeof(*lv));
}

uint32_t lgd_live_cpu_id(const struct lgd_live *lv, uint32_t i)
{
	return i < lv->nr_cpus ? lv->cpu[i]->st.cpu : 0;
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

/* drop the queue's first sub-buffer (fully decoded) */
static void pop_sb(struct lgd_live *lv, struct lgd_live_cpu *c)
{
	free(c->q[c->qhead].buf);
	c->qhead = (c->qhead + 1) % c->qcap;
	c->qn--;
	c->loaded = 0;
	lv->held_bytes -= lv->r->hdr.subbuf_size;
}

/* struct lgd_stream_src: the decoder is done with the current sub-buffer; the next queued */
static int live_next_sb(struct lgd_cpu_stream *s)
{
	struct lgd_live_cpu *c = s->src_arg;
	struct live_sb *e;

	if (c->loaded)
		pop_sb(c->lv, c);
	if (!c->qn)
		return 0;
	e = &c->q[c->qhead];
	s->sb = e->buf;
	s->sb_off = e->off;
	s->sb_avail = c->lv->r->hdr.subbuf_size;
	c->cur_t_in = e->t_in;
	c->loaded = 1;
	return 1;
}

/* struct lgd_stream_src: the seq of the sub-buffer after the current one, if queued already */
static int live_peek_seq(const struct lgd_cpu_stream *s, uint64_t *seq)
{
	const struct lgd_live_cpu *c = s->src_arg;

	return c->qn > 1 && lgd_sb_peek_seq(c->q[(c->qhead + 1) % c->qcap].buf,
					    c->lv->r->hdr.subbuf_size, seq) == 1;
}

/* make c->st.head from the queued data (the one decoder, stream.c); 0 if none now */
static int advance(struct lgd_live *lv, struct lgd_live_cpu *c)
{
	const struct lgd_item *h = &c->st.head;

	if (lgd_stream_advance(&c->st) <= 0)
		return 0;
	if (h->kind == LGD_ITEM_REC && !h->ts_absurd && h->ts > lv->newest_ts)
		lv->newest_ts = h->ts;
	c->head_t_in = c->cur_t_in;
	return 1;
}

/* is @a before @b in the merge: (ts, cpu) */
static int before(const struct lgd_live_cpu *a, const struct lgd_live_cpu *b)
{
	if (a->st.head.ts != b->st.head.ts)
		return a->st.head.ts < b->st.head.ts;
	return a->st.cpu < b->st.cpu;
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

			if (!c->st.has_head)
				c->st.has_head = advance(lv, c);
			if (!c->st.has_head) {
				all = 0;
				continue;
			}
			if (!min || before(c, min))
				min = c;
		}
		if (!min)
			return 0;
		ready = drain || all ||
			(lv->newest_ts >= lv->window_ns && min->st.head.ts <= lv->newest_ts - lv->window_ns) ||
			now_ns - min->head_t_in >= lv->window_ns;
		*flags = 0;
		if (!ready) {
			if (lv->held_bytes <= lv->max_bytes)
				return 0;
			*flags |= LGD_LIVE_EARLY;
		}
		*it = min->st.head;
		min->st.has_head = 0;	/* advanced at the next call: the payload stays valid */
		if (it->kind == LGD_ITEM_REC && it->rec.type == LOGDEV_REC_COMM) {
			if (lgd_comm_add(r, it->rec.pid, it->ts, it->payload, it->rec.arg_bytes))
				return -ENOMEM;
			if (!(lv->items & LGD_ITEMS_COMM) ||
			    (it->ts_absurd && !(lv->items & LGD_ITEMS_ABSURD)))
				continue;
		}
		/* formats re-read before the filter looks at the site */
		if (it->kind == LGD_ITEM_REC && it->rec.type != LOGDEV_REC_COMM &&
		    !(it->ts_absurd && !(lv->items & LGD_ITEMS_ABSURD)) && lv->on_unknown_site &&
		    !lgd_sites_get(&r->sites, it->rec.site))
			lv->on_unknown_site(lv->arg, r, it->rec.site);
		lgd_reader_settle(r, &lv->counts, it, min->st.idx, !!(lv->items & LGD_ITEMS_ABSURD));
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
		uint64_t in = c->st.has_head ? c->head_t_in : c->qn ? c->q[c->qhead].t_in : UINT64_MAX;

		if (in < t)
			t = in;
	}
	return t == UINT64_MAX || t > UINT64_MAX - lv->window_ns ? UINT64_MAX : t + lv->window_ns;
}
