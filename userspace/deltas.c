// SPDX-License-Identifier: GPL-2.0
/*
 * deltas.c: statistics of the time between consecutive records on one CPU,
 * grouped by (from site, to site).  A pair never spans a lost-events gap,
 * nor a timestamp going back or jumping by more than LGD_STEP_MAX_NS
 * (lgd_ts_step(); such pairs are only counted: left_back, left_huge).
 * Memory: 8 bytes per record (every delta is kept for median/p99).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

static int grow_cpu(struct lgd_deltas *ds, uint32_t cpu)
{
	uint32_t n = cpu + 1;
	uint32_t *ps;
	uint64_t *pt;
	uint8_t *pv;

	if (cpu < ds->nr_cpu)
		return 0;
	ps = realloc(ds->prev_site, n * sizeof(*ps));
	if (!ps)
		return -ENOMEM;
	ds->prev_site = ps;
	pt = realloc(ds->prev_ts, n * sizeof(*pt));
	if (!pt)
		return -ENOMEM;
	ds->prev_ts = pt;
	pv = realloc(ds->prev_valid, n);
	if (!pv)
		return -ENOMEM;
	ds->prev_valid = pv;
	memset(pv + ds->nr_cpu, 0, n - ds->nr_cpu);
	ds->nr_cpu = n;
	return 0;
}

static struct lgd_pair *find_pair(struct lgd_deltas *ds, uint32_t from, uint32_t to)
{
	/* linear search from the end: few distinct pairs in practice */
	for (size_t i = ds->nr; i-- > 0;)
		if (ds->pairs[i].from == from && ds->pairs[i].to == to)
			return &ds->pairs[i];
	if (ds->nr == ds->cap) {
		size_t nc = ds->cap ? ds->cap * 2 : 64;
		struct lgd_pair *np = realloc(ds->pairs, nc * sizeof(*np));

		if (!np)
			return NULL;
		ds->pairs = np;
		ds->cap = nc;
	}
	memset(&ds->pairs[ds->nr], 0, sizeof(ds->pairs[0]));
	ds->pairs[ds->nr].from = from;
	ds->pairs[ds->nr].to = to;
	return &ds->pairs[ds->nr++];
}

static int pair_push(struct lgd_pair *p, int64_t v)
{
	if (p->count == p->cap) {
		uint64_t nc = p->cap ? p->cap * 2 : 16;
		int64_t *nd = realloc(p->d, nc * sizeof(*nd));

		if (!nd)
			return -ENOMEM;
		p->d = nd;
		p->cap = nc;
	}
	p->d[p->count++] = v;
	return 0;
}

int lgd_deltas_add_value(struct lgd_deltas *ds, uint32_t from, uint32_t to,
			int64_t ns)
{
	struct lgd_pair *p = find_pair(ds, from, to);

	return p ? pair_push(p, ns) : -ENOMEM;
}

int lgd_deltas_add(struct lgd_deltas *ds, const struct lgd_item *it)
{
	struct lgd_pair *p;

	if (it->cpu > (1u << 20))
		return 0;
	if (grow_cpu(ds, it->cpu))
		return -ENOMEM;
	if (it->kind == LGD_ITEM_GAP) {
		ds->prev_valid[it->cpu] = 0;
		return 0;
	}
	if (ds->prev_valid[it->cpu]) {
		uint64_t ns;

		switch (lgd_ts_step(ds->prev_ts[it->cpu], it->ts, &ns)) {
		case LGD_STEP_OK:
			p = find_pair(ds, ds->prev_site[it->cpu], it->rec.site);
			if (!p || pair_push(p, (int64_t)ns))
				return -ENOMEM;
			break;
		case LGD_STEP_BACK:
			ds->left_back++;
			break;
		case LGD_STEP_HUGE:
			ds->left_huge++;
			break;
		}
	}
	ds->prev_valid[it->cpu] = 1;
	ds->prev_site[it->cpu] = it->rec.site;
	ds->prev_ts[it->cpu] = it->ts;
	return 0;
}

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static enum lgd_sort sort_key;

static int64_t key_of(const struct lgd_pair *p)
{
	switch (sort_key) {
	case LGD_SORT_MAX: return p->max;
	case LGD_SORT_P99: return p->p99;
	case LGD_SORT_MEDIAN: return p->median;
	case LGD_SORT_COUNT: return (int64_t)p->count;
	default: return p->total;
	}
}

static int pair_cmp(const void *a, const void *b)
{
	const struct lgd_pair *x = a, *y = b;
	int64_t kx = key_of(x), ky = key_of(y);

	if (kx != ky)
		return kx > ky ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}

/* nearest-rank percentile q/100 of n sorted values */
static int64_t rank(const int64_t *d, uint64_t n, unsigned q)
{
	uint64_t k = (n * q + 99) / 100;

	return d[k ? k - 1 : 0];
}

void lgd_deltas_finish(struct lgd_deltas *ds, enum lgd_sort key)
{
	for (size_t i = 0; i < ds->nr; i++) {
		struct lgd_pair *p = &ds->pairs[i];

		qsort(p->d, p->count, sizeof(*p->d), i64_cmp);
		p->total = 0;
		for (uint64_t j = 0; j < p->count; j++)	/* saturating */
			if (p->d[j] > 0 && p->total > INT64_MAX - p->d[j])
				p->total = INT64_MAX;
			else if (p->d[j] < 0 && p->total < INT64_MIN - p->d[j])
				p->total = INT64_MIN;
			else
				p->total += p->d[j];
		p->min = p->d[0];
		p->max = p->d[p->count - 1];
		p->median = rank(p->d, p->count, 50);
		p->p99 = rank(p->d, p->count, 99);
	}
	sort_key = key;
	if (ds->nr)
		qsort(ds->pairs, ds->nr, sizeof(*ds->pairs), pair_cmp);
}

void lgd_deltas_free(struct lgd_deltas *ds)
{
	for (size_t i = 0; i < ds->nr; i++)
		free(ds->pairs[i].d);
	free(ds->pairs);
	free(ds->prev_site);
	free(ds->prev_ts);
	free(ds->prev_valid);
	memset(ds, 0, sizeof(*ds));
}

int lgd_deltas_collect(struct lgd_reader *r, struct lgd_deltas *ds, int durations,
		      struct lgd_dur_stats *st)
{
	struct lgd_durations du;
	struct lgd_dur_pair dp;
	struct lgd_merge m;
	struct lgd_item it;
	int ret;

	if (lgd_dur_init(&du, &r->sites))
		return -ENOMEM;
	if (lgd_merge_init(&m, r)) {
		lgd_dur_free(&du);
		return -ENOMEM;
	}
	while ((ret = lgd_merge_next(&m, &it)) > 0) {
		if (!durations) {
			ret = lgd_deltas_add(ds, &it);
		} else {
			ret = lgd_dur_add(&du, &it, &dp);
			if (ret > 0)
				ret = lgd_deltas_add_value(ds, dp.entry_site, dp.ret_site, dp.ns);
		}
		if (ret < 0)
			break;
	}
	lgd_dur_finish(&du);
	if (st)
		*st = du.stats;
	lgd_merge_free(&m);
	lgd_dur_free(&du);
	return ret < 0 ? ret : 0;
}
