// SPDX-License-Identifier: GPL-2.0
/*
 * merge.c: the k-way merge of a reader's CPU streams by timestamp with a
 * binary heap (layer: library, read): the filter's verdict on each item,
 * comm records handed to the task names, absurd timestamps, the lost
 * events of the gaps kept, and at the end the warnings summed up: records
 * whose site is missing from the formats are warned about for a capture
 * without END in one warning with their count (a capture cut short lacks
 * the final FORMATS section); for a complete one once per site (the first
 * LGD_MISSING_IDS), with its count and its first record's offset, as
 * damage when the formats were written after the data (sum_up()).
 * The task-name pass: a merge that goes to the end met every comm record
 * (@comms_all then); one whose filter needs the names before has
 * lgd_comm_load() read them first, by a merge of its own.
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

/* ---- merge ----------------------------------------------------------- */

static int before(const struct lgd_cpu_stream *a, const struct lgd_cpu_stream *b)
{
	if (a->head.ts != b->head.ts)
		return a->head.ts < b->head.ts;
	return a->cpu < b->cpu;
}

static void sift_down(struct lgd_merge *m, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, rr = l + 1, min = i;
		struct lgd_cpu_stream *t;

		if (l < m->nr && before(m->heap[l], m->heap[min]))
			min = l;
		if (rr < m->nr && before(m->heap[rr], m->heap[min]))
			min = rr;
		if (min == i)
			return;
		t = m->heap[i];
		m->heap[i] = m->heap[min];
		m->heap[min] = t;
		i = min;
	}
}

int lgd_merge_open(struct lgd_merge *m, struct lgd_reader *r, unsigned int items)
{
	return lgd_merge_open_part(m, r, items, 0, 1);
}

int lgd_merge_open_part(struct lgd_merge *m, struct lgd_reader *r, unsigned int items,
			uint32_t part, uint32_t nparts)
{
	struct lgd_merge_shared *sh = NULL;

	memset(m, 0, sizeof(*m));
	/* the task names before the filter asks them (--comm) */
	if (!(items & LGD_ITEMS_NAMES_LATE) && r->filter && r->filter->nr_comms && !r->comms_all &&
	    lgd_comm_load(r))
		return -ENOMEM;
	m->r = r;
	m->items = items;
	m->all = calloc(r->nr_cpus ? r->nr_cpus : 1, sizeof(*m->all));
	m->heap = calloc(r->nr_cpus ? r->nr_cpus : 1, sizeof(*m->heap));
	if (r->nr_cpus)
		sh = calloc(1, sizeof(*sh));
	if (!m->all || !m->heap || (r->nr_cpus && !sh) ||
	    lgd_merge_counts_init(&m->counts, r->cpus, r->nr_cpus)) {
		free(sh);
		goto nomem;
	}
	for (uint32_t i = 0; i < r->nr_cpus; i++) {
		struct lgd_cpu_stream *s;

		if (nparts > 1 && i % nparts != part)
			continue;
		s = calloc(1, sizeof(*s));
		if (!s) {
			if (!m->nr_all)
				free(sh);	/* owned by the first stream */
			goto nomem;
		}
		m->all[m->nr_all++] = s;
		s->sh = sh;
		s->r = r;
		s->cpu = r->cpus[i];
		s->idx = i;
		s->scan_off = r->first_sect_off;
		/* read-ahead: up to 256 KiB a CPU, 4 MiB in all, at least a sub-buffer */
		s->ra_cap = (uint32_t)((LGD_READ_AHEAD_ALL / r->nr_cpus < LGD_READ_AHEAD_CPU ?
					LGD_READ_AHEAD_ALL / r->nr_cpus : LGD_READ_AHEAD_CPU) /
				       r->hdr.subbuf_size * r->hdr.subbuf_size);
		if (s->ra_cap < r->hdr.subbuf_size)
			s->ra_cap = r->hdr.subbuf_size;
		s->ra = malloc(s->ra_cap);
		s->sb = s->ra;
		s->payload = malloc(r->hdr.subbuf_size);
		s->dec = lgd_sb_alloc();
		if (!s->ra || !s->payload || !s->dec)
			goto nomem;
		if (lgd_stream_advance(s))
			m->heap[m->nr++] = s;
	}
	if (!m->nr_all)
		free(sh);	/* a part with no CPU: no stream owns it */
	for (uint32_t i = m->nr; i-- > 0;)
		sift_down(m, i);
	return 0;
nomem:
	lgd_merge_free(m);
	return -ENOMEM;
}

/* at the end of the merge: the warnings left out, unnamed sites */
static void sum_up(struct lgd_merge *m, struct lgd_merge_shared *sh)
{
	struct lgd_reader *r = m->r;
	uint64_t absurd = m->counts.absurd_ts;

	if (sh->summed_up)
		return;
	sh->summed_up = 1;
	for (int k = 0; k < RL_NR; k++)
		if (sh->nwarn[k] > LGD_WARN_BURST)
			lgd_rd_warn(r, -EINVAL, -1, -1, -1, "... and %llu more \"%s\" warnings",
			     (unsigned long long)(sh->nwarn[k] - LGD_WARN_BURST), lgd_rl_name[k]);
	if (absurd)
		lgd_rd_warn(r, -ERANGE, -1, -1, -1,
		     "%llu record%s with an absurd timestamp (0 or 2^64-1) left out of every statistic",
		     (unsigned long long)absurd, absurd == 1 ? "" : "s");
	if (sh->missing_sites && !r->complete) {
		lgd_rd_warn(r, -ENODATA, -1, -1, -1,
		     "%llu records use call sites missing from the capture's formats (cut short before the final FORMATS section?)",
		     (unsigned long long)sh->missing_sites);
		return;
	}
	/*
	 * A complete capture: once per site, at its first record.  Its formats
	 * written after its data (r->sites_final, as logdev record and the
	 * live snapshot write them) list every site its records name: one
	 * missing is damage (a site id or the formats corrupt).  Formats only
	 * before the data (hand-made, or a recording whose last formats could
	 * not be read) may lack sites that fired later: said, not as damage.
	 */
	for (uint32_t i = 0; i < sh->nr_miss; i++)
		lgd_rd_warn(r, r->sites_final ? -EINVAL : -ENOENT, (int64_t)sh->miss[i].off,
		     sh->miss[i].cpu, (int64_t)sh->miss[i].seq,
		     "call site %u is not in the capture's formats, %s: %llu record%s, the first here, shown as site#%u:?",
		     sh->miss[i].site, r->sites_final ?
		     "though they were written after its data (a damaged site id or formats)" :
		     "which come before its data (a site that first fired later?)",
		     (unsigned long long)sh->miss[i].n, sh->miss[i].n == 1 ? "" : "s",
		     sh->miss[i].site);
	if (sh->miss_other)
		lgd_rd_warn(r, r->sites_final ? -EINVAL : -ENOENT, -1, -1, -1,
		     "... and %llu more records of other call sites missing from the capture's formats",
		     (unsigned long long)sh->miss_other);
}

static int merge_one(struct lgd_merge *m, struct lgd_item *it)
{
	struct lgd_cpu_stream *s;

	/*
	 * The stream whose head was handed out last time is still at the top:
	 * refilled in place and sifted down once (or taken out when it ends),
	 * not popped and pushed.  (ts, cpu) orders every head strictly, so
	 * the order handed out is the same either way.
	 */
	if (m->last) {
		m->last = NULL;
		if (!lgd_stream_advance(m->heap[0]))
			m->heap[0] = m->heap[--m->nr];
		if (m->nr == 2) {	/* two CPUs: one compare */
			if (before(m->heap[1], m->heap[0])) {
				s = m->heap[0];
				m->heap[0] = m->heap[1];
				m->heap[1] = s;
			}
		} else {
			sift_down(m, 0);
		}
	}
	if (!m->nr) {
		if (m->nr_all)
			sum_up(m, m->all[0]->sh);
		m->r->comms_all = 1;	/* every comm record met */
		return 0;
	}
	s = m->heap[0];
	*it = s->head;
	m->last = s;
	return 1;
}

int lgd_reader_set_filter(struct lgd_reader *r, const struct lgd_filter *f)
{
	int ret;

	free(r->filter_sites);
	r->filter_sites = NULL;
	r->nr_filter_sites = 0;
	r->filter = f;
	r->filter_on = lgd_filter_active(f);
	if (!f)
		return 0;
	ret = lgd_filter_sites(f, &r->sites, &r->filter_sites);
	if (ret)
		return ret;
	r->nr_filter_sites = r->sites.nr;
	return 0;
}

/* the recorder's own record (task context, its pid), left out by default */
static int is_recorder(const struct lgd_reader *r, const struct lgd_item *it)
{
	return it->kind == LGD_ITEM_REC && r->recorder_pid >= 0 &&
	       !(r->filter && r->filter->include_recorder) &&
	       (it->rec.ctx & LOGDEV_CTX_MASK) == LOGDEV_CTX_TASK &&
	       it->rec.pid == (uint64_t)r->recorder_pid;
}

int lgd_reader_comm_matches(const struct lgd_reader *r)
{
	const struct lgd_filter *f = r->filter;

	if (!f || !f->nr_comms || !r->comm_tab)
		return 0;
	for (size_t i = 0; i < r->comm_tab_cap; i++)
		for (uint32_t j = 0; j < r->comm_tab[i].n; j++)
			for (size_t k = 0; k < f->nr_comms; k++)
				if (!fnmatch(f->comms[k], r->comm_tab[i].v[j].comm, 0))
					return 1;
	return 0;
}

int lgd_reader_keep(const struct lgd_reader *r, const struct lgd_item *it)
{
	const struct lgd_filter *f = r->filter;
	int site_ok = 1;
	const char *comm = NULL;

	if (is_recorder(r, it))
		return 0;
	if (!lgd_filter_active(f))
		return 1;
	if (it->kind == LGD_ITEM_REC) {
		if (f->nr_sites)
			site_ok = r->filter_sites && it->rec.site < r->nr_filter_sites &&
				  r->filter_sites[it->rec.site];
		if (f->nr_comms)
			comm = lgd_comm_at(r, it->rec.pid, it->ts);
	}
	return lgd_filter_match(f, it, site_ok, comm, r->filter_base);
}

static inline void settle(struct lgd_reader *r, struct lgd_merge_counts *n,
			  struct lgd_item *it, uint32_t i, int absurd_items);

/*
 * Record @it as the merge hands it out: if its site is missing from the
 * formats, count it by site (the first in merge order gives the offset).
 * A task name record has no call site, and site 0 is "unknown" by design
 * (a raw record without one, a full site table): never "missing".
 */
static void note_missing(struct lgd_merge_shared *sh, const struct lgd_reader *r,
			 const struct lgd_item *it)
{
	uint32_t i, site = it->rec.site;

	if (it->kind != LGD_ITEM_REC || it->rec.type == LOGDEV_REC_COMM || !site ||
	    lgd_sites_get(&r->sites, site))
		return;
	sh->missing_sites++;
	for (i = 0; i < sh->nr_miss && sh->miss[i].site != site; i++)
		;
	if (i == sh->nr_miss) {
		if (i == LGD_MISSING_IDS) {
			sh->miss_other++;
			return;
		}
		sh->nr_miss++;
		sh->miss[i].site = site;
		sh->miss[i].cpu = it->cpu;
		sh->miss[i].off = it->file_off;
		sh->miss[i].seq = it->seq;
		sh->miss[i].n = 0;
	}
	sh->miss[i].n++;
}

/* every item, the filter's verdict in it->filtered */
static int merge_next_all(struct lgd_merge *m, struct lgd_item *it)
{
	int ret;

	while ((ret = merge_one(m, it)) > 0 &&
	       it->kind == LGD_ITEM_REC && it->rec.type == LOGDEV_REC_COMM) {
		/* a task name, not an item; known already after lgd_comm_load() */
		if (!m->r->comms_all &&
		    lgd_comm_put(m->r, it->rec.pid, it->ts, it->payload, it->rec.arg_bytes))
			return -ENOMEM;
		/* an item too if asked; with an absurd stamp only if those are */
		if ((m->items & LGD_ITEMS_COMM) &&
		    (!it->ts_absurd || (m->items & LGD_ITEMS_ABSURD)))
			break;
	}
	if (ret > 0) {
		note_missing(m->last->sh, m->r, it);
		settle(m->r, &m->counts, it, m->last->idx, !!(m->items & LGD_ITEMS_ABSURD));
	}
	return ret;
}

void lgd_reader_settle(struct lgd_reader *r, struct lgd_merge_counts *n, struct lgd_item *it,
		       uint32_t i, int absurd_items)
{
	settle(r, n, it, i, absurd_items);
}

/* lgd_reader_settle(), inlined in the capture merge's per-item path */
static inline void settle(struct lgd_reader *r, struct lgd_merge_counts *n,
			  struct lgd_item *it, uint32_t i, int absurd_items)
{
	int rec = it->kind == LGD_ITEM_REC && it->rec.type != LOGDEV_REC_COMM;

	if (it->kind == LGD_ITEM_REC && it->ts_absurd) {
		n->absurd_ts++;
		if (!absurd_items) {	/* a gap in its place: no statistic sees it */
			lgd_gap_item(it, LGD_GAP_BAD_TS, 1, it->cpu, it->ts, it->ts, it->seq,
				     it->file_off);
			rec = 0;
		}
	}
	/* a probe's sites of one definition are one site (lgd_site.canon) */
	if (rec && r->sites.nr_merged && it->rec.site < r->sites.nr &&
	    r->sites.by_id[it->rec.site] && r->sites.by_id[it->rec.site]->canon)
		it->rec.site = r->sites.by_id[it->rec.site]->canon;
	if (rec && !r->filter_base_set && !it->ts_absurd) {
		r->filter_base_set = 1;	/* the first record: relative times */
		r->filter_base = it->ts;
	}
	/* no filter and no recorder pid (a capture file): every item kept */
	it->filtered = (r->filter_on || r->recorder_pid >= 0) && !lgd_reader_keep(r, it);
	if (rec) {
		if (is_recorder(r, it)) {
			n->recorder_out += it->filtered;
		} else {
			n->recs_seen++;
			n->recs_kept += !it->filtered;
			n->bad_type += !it->filtered && it->rec.type != LOGDEV_REC_PRINT &&
					  it->rec.type != LOGDEV_REC_PRINT_SLOTS &&
					  it->rec.type != LOGDEV_REC_RAW;
		}
	} else if (it->kind == LGD_ITEM_GAP && !it->filtered && i < n->nr_lost &&
		   it->gap_kind > 0 && it->gap_kind < LGD_GAP_NR) {
		n->lost[i].by_kind[it->gap_kind] = lgd_add_sat(n->lost[i].by_kind[it->gap_kind],
							       it->gap_count);
	}
}

int lgd_merge_counts_init(struct lgd_merge_counts *c, const uint32_t *cpus, uint32_t n)
{
	lgd_merge_counts_free(c);
	c->lost = calloc(n ? n : 1, sizeof(*c->lost));
	if (!c->lost)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		c->lost[i].cpu = cpus[i];
	c->nr_lost = n;
	return 0;
}

void lgd_merge_counts_free(struct lgd_merge_counts *c)
{
	free(c->lost);
	memset(c, 0, sizeof(*c));
}

void lgd_merge_counts_add(struct lgd_merge_counts *dst, const struct lgd_merge_counts *src)
{
	dst->recs_seen = lgd_add_sat(dst->recs_seen, src->recs_seen);
	dst->recs_kept = lgd_add_sat(dst->recs_kept, src->recs_kept);
	dst->recorder_out = lgd_add_sat(dst->recorder_out, src->recorder_out);
	dst->bad_type = lgd_add_sat(dst->bad_type, src->bad_type);
	dst->absurd_ts = lgd_add_sat(dst->absurd_ts, src->absurd_ts);
	for (uint32_t i = 0; i < dst->nr_lost && i < src->nr_lost; i++)
		for (int k = 0; k < LGD_GAP_NR; k++)
			dst->lost[i].by_kind[k] = lgd_add_sat(dst->lost[i].by_kind[k],
							      src->lost[i].by_kind[k]);
}

void lgd_merge_take_counts(struct lgd_merge *m, struct lgd_merge_counts *dst)
{
	lgd_merge_counts_free(dst);
	*dst = m->counts;
	memset(&m->counts, 0, sizeof(m->counts));
}

uint64_t lgd_merge_lost(const struct lgd_merge_counts *c, uint32_t i,
			uint64_t by_kind[LGD_GAP_NR], uint32_t *cpu)
{
	uint64_t sum = 0;

	memset(by_kind, 0, LGD_GAP_NR * sizeof(by_kind[0]));
	if (i >= c->nr_lost)
		return 0;
	if (cpu)
		*cpu = c->lost[i].cpu;
	for (int k = 1; k < LGD_GAP_NR; k++) {
		by_kind[k] = c->lost[i].by_kind[k];
		if (k != LGD_GAP_SUBBUFS && k != LGD_GAP_CORRUPT && k != LGD_GAP_BAD_TS)
			sum = lgd_add_sat(sum, by_kind[k]);
	}
	return sum;
}

int lgd_merge_next(struct lgd_merge *m, struct lgd_item *it)
{
	int ret;

	while ((ret = merge_next_all(m, it)) > 0 && it->filtered && !(m->items & LGD_ITEMS_FILTERED))
		;
	return ret;
}

void lgd_merge_free(struct lgd_merge *m)
{
	lgd_merge_counts_free(&m->counts);
	if (m->nr_all)
		free(m->all[0]->sh);
	for (uint32_t i = 0; i < m->nr_all; i++) {
		free(m->all[i]->ra);
		free(m->all[i]->payload);
		lgd_sb_free(m->all[i]->dec);
		free(m->all[i]);
	}
	free(m->all);
	free(m->heap);
	memset(m, 0, sizeof(*m));
}

int lgd_comm_load(struct lgd_reader *r)
{
	lgd_warn_fn wfn = r->warn;
	struct lgd_merge m;
	struct lgd_item it;
	int ret;

	if (r->comms_all)
		return 0;
	ret = lgd_merge_open(&m, r, LGD_ITEMS_NAMES_LATE);
	if (ret)
		return ret;
	r->warn = NULL;		/* the caller's own pass warns */
	while ((ret = lgd_merge_next(&m, &it)) > 0)
		;
	r->warn = wfn;
	lgd_merge_free(&m);
	return ret;	/* at the end: @comms_all set by the merge */
}
