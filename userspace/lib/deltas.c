// SPDX-License-Identifier: GPL-2.0
/*
 * deltas.c: statistics of the time between a record and the previous record
 * of its stream (streams.c: same CPU and context level by default; same CPU;
 * or same task), grouped by (from site, to site).  A pair never spans a
 * lost-events gap (such pairs are counted as cut, per site they started
 * at), nor a timestamp going back or jumping by more than LGD_STEP_MAX_NS
 * (lgd_ts_step(); such pairs are only counted: left_back, left_huge).
 * Each pair's deltas go into a log-linear histogram (struct lgd_hist,
 * histogram.c): memory per pair is bounded whatever the capture's size;
 * count, min, max and total are exact, median and p99 exact up to
 * LGD_HIST_EXACT_MAX deltas and within 2^-8 relative error beyond.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

/** struct lgd_site_count - @n (> 0: the slot is used) for site @site. */
struct lgd_site_count {
	uint32_t site;
	uint64_t n;
};

/* ---- pairs ---------------------------------------------------------------- */

/* the hash slot of (@from, @to, @parent) in @ds->pair_hash */
static size_t pair_slot(const struct lgd_deltas *ds, uint32_t from, uint32_t to,
			uint32_t parent)
{
	/* Knuth's multiplicative hash of the three ids */
	size_t i = ((from * 2654435761u) ^ (to * 40503u) ^ (parent * 2246822519u)) &
		   (ds->pair_hash_cap - 1);

	for (;;) {
		uint32_t k = ds->pair_hash[i];
		const struct lgd_pair *p = k ? &ds->pairs[k - 1] : NULL;

		if (!p || (p->from == from && p->to == to && p->parent == parent))
			return i;
		i = (i + 1) & (ds->pair_hash_cap - 1);
	}
}

/* index every pair (again: first use, growth, or the pairs were sorted) */
static int pair_rehash(struct lgd_deltas *ds, size_t want)
{
	size_t cap = 64;
	uint32_t *t;

	while (cap < 2 * want)
		cap *= 2;
	t = calloc(cap, sizeof(*t));
	if (!t)
		return -ENOMEM;
	free(ds->pair_hash);
	ds->pair_hash = t;
	ds->pair_hash_cap = cap;
	ds->pair_hash_nr = ds->nr;
	for (size_t i = 0; i < ds->nr; i++)
		t[pair_slot(ds, ds->pairs[i].from, ds->pairs[i].to, ds->pairs[i].parent)] =
			(uint32_t)i + 1;
	return 0;
}

static struct lgd_pair *find_pair3(struct lgd_deltas *ds, uint32_t from, uint32_t to,
				  uint32_t parent)
{
	size_t slot;
	uint32_t *memo = &ds->pair_memo[to % LGD_PAIR_MEMO];
	struct lgd_pair *p;

	/* a hash of the pairs (once a record: the deltas' hot path) */
	if (!ds->pair_hash || ds->pair_hash_nr != ds->nr || ds->pairs_moved) {
		ds->pairs_moved = 0;
		memset(ds->pair_memo, 0, sizeof(ds->pair_memo));
		if (pair_rehash(ds, ds->nr + 1))
			return NULL;
	}
	/* before it, the pair last found ending at a site like @to: a site is
	 * nearly always reached from the same one */
	p = *memo && *memo <= ds->nr ? &ds->pairs[*memo - 1] : NULL;
	if (p && p->from == from && p->to == to && p->parent == parent)
		return p;
	slot = pair_slot(ds, from, to, parent);
	if (ds->pair_hash[slot]) {
		*memo = ds->pair_hash[slot];
		return &ds->pairs[ds->pair_hash[slot] - 1];
	}
	if (2 * (ds->nr + 1) > ds->pair_hash_cap) {
		if (pair_rehash(ds, ds->nr + 1))
			return NULL;
		slot = pair_slot(ds, from, to, parent);
	}
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
	ds->pairs[ds->nr].parent = parent;
	ds->pair_hash[slot] = (uint32_t)ds->nr + 1;
	*memo = (uint32_t)ds->nr + 1;
	ds->pair_hash_nr = ds->nr + 1;
	return &ds->pairs[ds->nr++];
}

struct lgd_pair *lgd_deltas_pair(struct lgd_deltas *ds, uint32_t from, uint32_t to,
				 uint32_t parent)
{
	return find_pair3(ds, from, to, parent);
}

/*
 * find_pair3() of an unsplit pair, its memo tried inline first (the hot
 * path of lgd_deltas_add()): valid while the table is indexed as it is
 */
static inline struct lgd_pair *find_pair(struct lgd_deltas *ds, uint32_t from, uint32_t to)
{
	uint32_t m = ds->pair_memo[to % LGD_PAIR_MEMO];

	if (m && m <= ds->nr && ds->pair_hash && ds->pair_hash_nr == ds->nr && !ds->pairs_moved) {
		struct lgd_pair *p = &ds->pairs[m - 1];

		if (p->from == from && p->to == to && p->parent == LGD_NO_SITE)
			return p;
	}
	return find_pair3(ds, from, to, LGD_NO_SITE);
}

static int pair_push(struct lgd_pair *p, int64_t v)
{
	if (lgd_hist_add(&p->h, v))
		return -ENOMEM;
	p->count++;
	return 0;
}

int lgd_deltas_add_value(struct lgd_deltas *ds, uint32_t from, uint32_t to,
			int64_t ns)
{
	struct lgd_pair *p = find_pair(ds, from, to);

	return p ? pair_push(p, ns) : -ENOMEM;
}

/* the slot of @site in the cut table (open addressing), or an empty one */
static struct lgd_site_count *cut_slot(struct lgd_site_count *tab, size_t cap, uint32_t site)
{
	size_t i = (site * 2654435761u) & (cap - 1);	/* Knuth's multiplicative hash */

	while (tab[i].n && tab[i].site != site)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

uint64_t lgd_deltas_cut_at(const struct lgd_deltas *ds, uint32_t site)
{
	return ds->cut_cap ? cut_slot(ds->cut_tab, ds->cut_cap, site)->n : 0;
}

static int cut_add(struct lgd_deltas *ds, uint32_t site, uint64_t n)
{
	struct lgd_site_count *sc;

	if (!n)
		return 0;
	ds->cut += n;
	if ((ds->cut_nr + 1) * 2 > ds->cut_cap) {
		size_t nc = ds->cut_cap ? ds->cut_cap * 2 : 64;
		struct lgd_site_count *nt = calloc(nc, sizeof(*nt));

		if (!nt)
			return -ENOMEM;
		for (size_t i = 0; i < ds->cut_cap; i++)
			if (ds->cut_tab[i].n)
				*cut_slot(nt, nc, ds->cut_tab[i].site) = ds->cut_tab[i];
		free(ds->cut_tab);
		ds->cut_tab = nt;
		ds->cut_cap = nc;
	}
	sc = cut_slot(ds->cut_tab, ds->cut_cap, site);
	if (!sc->n) {
		sc->site = site;
		ds->cut_nr++;
	}
	sc->n += n;
	return 0;
}

int lgd_deltas_cut_merge(struct lgd_deltas *dst, const struct lgd_deltas *src)
{
	for (size_t i = 0; i < src->cut_cap; i++)
		if (cut_add(dst, src->cut_tab[i].site, src->cut_tab[i].n))
			return -ENOMEM;
	return 0;
}

/* a pair cut by a gap: counted per site it started at */
static void on_cut(void *arg, uint32_t site)
{
	struct lgd_deltas *ds = arg;

	if (cut_add(ds, site, 1))
		ds->cut_err = -ENOMEM;
}

void lgd_deltas_init(struct lgd_deltas *ds, const struct lgd_deltas_opts *o)
{
	memset(ds, 0, sizeof(*ds));
	ds->by = o->by;
	ds->user_pairs = o->user_pairs;
	ds->nr_user_pairs = o->nr_user_pairs;
	ds->by_parent = o->by_parent;
	ds->inside_site = o->inside_site;
	ds->inside_set = o->inside_set;
	ds->cost = o->cost;
	ds->bd = o->bd;
	lgd_streams_open(&ds->st, ds->by, on_cut, ds);
	ds->st_ready = 1;
}

int lgd_deltas_add(struct lgd_deltas *ds, const struct lgd_item *it)
{
	struct lgd_stream_step sp;
	struct lgd_pair *p;

	ds->last_pair = NULL;
	if (it->kind == LGD_ITEM_REC && !it->filtered)
		ds->records++;
	/* a record with an absurd stamp stands in a gap of its own: left out
	 * and warned about by the reader, not lost; it still cuts its pairs */
	if (it->kind == LGD_ITEM_GAP && it->gap_kind != LGD_GAP_BAD_TS && !it->filtered) {
		ds->lost_gaps++;
		if (it->gap_kind != LGD_GAP_SUBBUFS && it->gap_kind != LGD_GAP_CORRUPT)
			ds->lost = lgd_add_sat(ds->lost, it->gap_count);
		else
			ds->lost_unknown++;
	}
	if (lgd_streams_add(&ds->st, it, &sp) || ds->cut_err)
		return -ENOMEM;
	if (!sp.has_prev || it->filtered)	/* both ends kept (streams.c) */
		return 0;
	switch (sp.kind) {
	case LGD_STEP_OK:
		p = find_pair(ds, sp.from_site, it->rec.site);
		if (!p || pair_push(p, (int64_t)sp.ns))
			return -ENOMEM;
		ds->last_pair = p;
		ds->last_from_ts = it->ts - sp.ns;
		ds->last_from_cpu = sp.from_cpu;
		ds->last_from_pid = sp.from_pid;
		if (sp.nested_recs) {
			p->nested_n++;
			p->nested_recs += sp.nested_recs;
			p->nested_ns = p->nested_ns + sp.nested_ns < p->nested_ns ?
				       UINT64_MAX : p->nested_ns + sp.nested_ns;
		}
		break;
	case LGD_STEP_BACK:
		ds->left_back++;
		break;
	case LGD_STEP_HUGE:
		ds->left_huge++;
		break;
	}
	return 0;
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

void lgd_deltas_finish(struct lgd_deltas *ds, enum lgd_sort key)
{
	if (ds->st_ready)
		lgd_streams_finish(&ds->st);
	for (size_t i = 0; i < ds->nr; i++) {
		struct lgd_pair *p = &ds->pairs[i];

		p->approx = !lgd_hist_is_exact(&p->h);
		p->total = lgd_hist_total(&p->h);
		p->min = p->h.min;
		p->max = p->h.max;
		p->median = lgd_hist_quantile(&p->h, 50);
		p->p99 = lgd_hist_quantile(&p->h, 99);
	}
	sort_key = key;
	if (ds->nr)
		qsort(ds->pairs, ds->nr, sizeof(*ds->pairs), pair_cmp);
	ds->pairs_moved = 1;	/* find_pair3() indexes them again */
}

void lgd_deltas_free(struct lgd_deltas *ds)
{
	for (size_t i = 0; i < ds->nr; i++) {
		lgd_hist_free(&ds->pairs[i].h);
		free(ds->pairs[i].bd);
	}
	free(ds->pairs);
	free(ds->pair_hash);
	if (ds->st_ready)
		lgd_streams_free(&ds->st);
	free(ds->cut_tab);
	memset(ds, 0, sizeof(*ds));
}

/*
 * Nesting of durations (--durations): inclusive time is the duration; the
 * self time of a pair is its duration minus the durations of the pairs
 * directly nested in it (of the same task and context: entries pushed on a
 * stack per key, as durations.c keys them, in merge order); its parent is
 * the entry below it on that stack when it returns.  A pair completed at
 * its entry (its return came first: the CPUs' clocks disagree) has no
 * children and its parent is the top of its entry's stack.  Entries above
 * a returning one are entries whose return never came: dropped.
 * With probe costs (@ds->cost), every record of a task and context, kept
 * by the filters or not, charges its site's cost to each entry open below
 * it (nest_charge(): an entry's own record and its return's are not in
 * its pair); a pair's duration is then its span minus what it was charged
 * (rounded to ns), and its parent adds that corrected duration to its
 * children's: self time is the corrected duration minus the children's.
 * logdev's own task-name records (LOGDEV_REC_COMM: the merge hands them out
 * with LGD_ITEMS_COMM) are nested as records are, by their task and
 * context, but belong to no site: each open entry below one counts it
 * (nest_comm()) and, with probe costs, is charged lgd_cost_comm() for it
 * (the calibration's edprint record: the same write path); a record is
 * counted once in @ds->comm_inside when the first pair holding it is kept.
 */
struct nest_open {
	uint64_t off;
	int64_t child_ns;
	uint32_t site;
	const char *name;
	int64_t cost_ps;
	uint64_t hits;
	uint64_t comm_n;	/* task-name records inside it */
	uint64_t comm_counted;	/* of them, in @comm_inside already */
	int64_t comm_ps;	/* their cost, part of @cost_ps */
};

struct nest_task {
	uint32_t pid, ctx;
	int64_t cpu;
	uint32_t depth;
	struct nest_open v[LGD_DUR_DEPTH];
};

struct nest {
	struct nest_task *t;
	size_t nr, cap;
};

struct nest_res {
	uint32_t parent;
	int64_t child_ns;
	int inside;
	int64_t ns;		/* the duration, less the probes' cost */
	int64_t floor_ps;	/* of it: the pair's own records (lgd_cost_floor()) */
	uint64_t hits;		/* records charged to it */
	uint64_t comm, comm_new;	/* task-name records in it; not counted before */
	int64_t comm_ns;	/* their cost taken out */
};

static struct nest_task *nest_task(struct nest *n, const struct lgd_item *it, int create)
{
	uint32_t pid = it->rec.pid, ctx = it->rec.ctx;
	int64_t cpu = (pid == 0 || ctx != LOGDEV_CTX_TASK) ? (int64_t)it->cpu : -1;
	struct nest_task *t;

	for (size_t i = 0; i < n->nr; i++)
		if (n->t[i].pid == pid && n->t[i].ctx == ctx && n->t[i].cpu == cpu)
			return &n->t[i];
	if (!create)
		return NULL;
	for (size_t i = 0; i < n->nr; i++)	/* reuse an empty one */
		if (!n->t[i].depth) {
			t = &n->t[i];
			goto fill;
		}
	if (n->nr == n->cap) {
		size_t nc = n->cap ? n->cap * 2 : 16;
		struct nest_task *nt = realloc(n->t, nc * sizeof(*nt));

		if (!nt)
			return NULL;
		n->t = nt;
		n->cap = nc;
	}
	t = &n->t[n->nr++];
fill:
	t->pid = pid;
	t->ctx = ctx;
	t->cpu = cpu;
	t->depth = 0;
	return t;
}

/* @a + @b, saturated at INT64_MIN and INT64_MAX */
static int64_t sat_add(int64_t a, int64_t b)
{
	if (b > 0 && a > INT64_MAX - b)
		return INT64_MAX;
	if (b < 0 && a < INT64_MIN - b)
		return INT64_MIN;
	return a + b;
}

static int nest_push(struct nest *n, const struct lgd_item *it, const char *name)
{
	struct nest_task *t = nest_task(n, it, 1);

	if (!t)
		return -ENOMEM;
	if (t->depth == LGD_DUR_DEPTH) {	/* the oldest goes, as in durations.c */
		memmove(t->v, t->v + 1, (LGD_DUR_DEPTH - 1) * sizeof(t->v[0]));
		t->depth--;
	}
	t->v[t->depth++] = (struct nest_open){ .off = it->file_off, .site = it->rec.site,
					       .name = name };
	return 0;
}

/* is an entry of @site below level @i of @t, with no call of @name between? */
static int nest_inside(const struct nest_task *t, uint32_t i, const char *name,
		       const struct lgd_deltas *ds)
{
	if (!ds->inside_set)
		return 0;
	while (i-- > 0) {
		if (t->v[i].site == ds->inside_site)
			return 1;
		if (t->v[i].name == name)
			return 0;	/* the outer call of the same probe counts */
	}
	return 0;
}

/* pair @dp completed by the return @it: its entry off the stack */
static void nest_pop(struct nest *n, const struct lgd_item *it, const struct lgd_dur_pair *dp,
		     const struct lgd_deltas *ds, struct nest_res *res)
{
	struct nest_task *t = nest_task(n, it, 0);

	for (uint32_t i = t ? t->depth : 0; i-- > 0;) {
		if (t->v[i].off != dp->entry_off)
			continue;
		res->child_ns = t->v[i].child_ns;
		res->comm = t->v[i].comm_n;
		res->comm_new = t->v[i].comm_n - t->v[i].comm_counted;
		for (uint32_t j = 0; j < i; j++)	/* theirs too: counted now */
			t->v[j].comm_counted += res->comm_new;
		if (ds->cost && t->v[i].hits) {
			res->hits = t->v[i].hits;
			res->ns = sat_add(dp->ns, -((sat_add(t->v[i].cost_ps, res->floor_ps) + 500) /
						    1000));
			res->comm_ns = (t->v[i].comm_ps + 500) / 1000;
		}
		if (i) {
			res->parent = t->v[i - 1].site;
			t->v[i - 1].child_ns = sat_add(t->v[i - 1].child_ns, res->ns);
		}
		res->inside = nest_inside(t, i, t->v[i].name, ds);
		t->depth = i;
		return;
	}
}

/* a pair (@res) completed by its entry @it (the return came first) */
static void nest_top(struct nest *n, const struct lgd_item *it,
		     const char *name, const struct lgd_deltas *ds, struct nest_res *res)
{
	struct nest_task *t = nest_task(n, it, 0);

	if (!t || !t->depth)
		return;
	res->parent = t->v[t->depth - 1].site;
	t->v[t->depth - 1].child_ns = sat_add(t->v[t->depth - 1].child_ns, res->ns);
	res->inside = nest_inside(t, t->depth, name, ds);
}

/* record @it costs @ps: charged to every entry open in its task and context */
static void nest_charge(struct nest *n, const struct lgd_item *it, int64_t ps)
{
	struct nest_task *t = ps ? nest_task(n, it, 0) : NULL;

	for (uint32_t i = 0; t && i < t->depth; i++) {
		t->v[i].cost_ps = sat_add(t->v[i].cost_ps, ps);
		t->v[i].hits++;
	}
}

/*
 * a task-name record @it (logdev's own): inside every entry open in its
 * task and context, counted there and charged @ps (0: counted only)
 */
static void nest_comm(struct nest *n, const struct lgd_item *it, int64_t ps)
{
	struct nest_task *t = nest_task(n, it, 0);

	for (uint32_t i = 0; t && i < t->depth; i++) {
		t->v[i].comm_n++;
		if (!ps)
			continue;
		t->v[i].comm_ps = sat_add(t->v[i].comm_ps, ps);
		t->v[i].cost_ps = sat_add(t->v[i].cost_ps, ps);
		t->v[i].hits++;
	}
}

static void nest_gap(struct nest *n, uint32_t cpu)
{
	for (size_t i = 0; i < n->nr; i++)
		if (n->t[i].cpu == (int64_t)cpu)
			n->t[i].depth = 0;
}


/*
 * Does the filter keep both ends of the duration @dp that record @it
 * closed?  The other end has @it's task and context (durations.c pairs
 * them so), its own CPU, site and time (@it's ts minus the duration).
 */
static int dur_kept(const struct lgd_reader *r, const struct lgd_item *it,
		    const struct lgd_dur_pair *dp)
{
	struct lgd_item o = *it;

	if (it->filtered)
		return 0;
	o.cpu = dp->entry_off == it->file_off ? dp->ret_cpu : dp->entry_cpu;
	o.rec.site = dp->entry_off == it->file_off ? dp->ret_site : dp->entry_site;
	o.ts = dp->entry_off == it->file_off ? dp->ret_ts : dp->ret_ts - (uint64_t)dp->ns;
	return lgd_reader_keep(r, &o);
}

static int add_dur(struct lgd_deltas *ds, const struct lgd_dur_pair *dp,
		   const struct nest_res *res)
{
	struct lgd_pair *p = find_pair3(ds, dp->entry_site, dp->ret_site,
					ds->by_parent ? res->parent : LGD_NO_SITE);

	if (!p || pair_push(p, res->ns))
		return -ENOMEM;
	ds->last_pair = p;
	p->self_ns = sat_add(p->self_ns, sat_add(res->ns, res->child_ns == INT64_MIN ? INT64_MAX :
								 -res->child_ns));
	p->cost_hits = lgd_add_sat(p->cost_hits, res->hits);
	p->cost_ns = sat_add(p->cost_ns, dp->ns - res->ns);
	p->comm_hits = lgd_add_sat(p->comm_hits, res->comm);
	p->comm_ns = sat_add(p->comm_ns, res->comm_ns);
	ds->comm_inside = lgd_add_sat(ds->comm_inside, res->comm_new);
	if (res->inside) {
		p->inside_n++;
		p->inside_ns = sat_add(p->inside_ns, res->ns);
	}
	return 0;
}

/*
 * item @it fed to the breakdown's timelines (@ds->bd, if any).  Return: 1
 * for a marker (@rs->bd_marks: never paired), 0, -ENOMEM.
 */
static int bd_item(struct lgd_deltas *ds, const struct lgd_records *rs,
		   const struct lgd_item *it)
{
	unsigned int mk = lgd_records_mark(rs, it);

	if (ds->bd && lgd_bd_feed(ds->bd, it, mk))
		return -ENOMEM;
	return mk != 0;
}

/*
 * the pair ds->last_pair just got, ending at @it's task and context, from
 * a record of task @a_pid at @a on CPU @a_cpu to @b on @b_cpu, split into
 * its row
 */
static int split_pair(struct lgd_deltas *ds, const struct lgd_item *it, uint32_t a_pid,
		      uint64_t a, uint32_t a_cpu, uint64_t b, uint32_t b_cpu)
{
	struct lgd_bd_split sp;

	lgd_bd_split(ds->bd, a_pid, it->rec.pid, it->rec.ctx, a, a_cpu, b, b_cpu, &sp);
	return lgd_bd_row_add(&ds->last_pair->bd, &sp);
}

/* lgd_deltas_feed(), inlined in lgd_deltas_collect()'s per-record loop */
static inline int feed(struct lgd_deltas *ds, const struct lgd_records *rs,
		       const struct lgd_item *it)
{
	int ret;

	ds->last_pair = NULL;
	ret = bd_item(ds, rs, it);
	if (ret)
		return ret < 0 ? ret : 0;	/* a marker: never paired */
	ret = lgd_deltas_add(ds, it);
	if (!ret && ds->bd && ds->last_pair)
		ret = split_pair(ds, it, ds->last_from_pid, ds->last_from_ts,
				 ds->last_from_cpu, it->ts, it->cpu);
	return ret;
}

int lgd_deltas_feed(struct lgd_deltas *ds, const struct lgd_records *rs,
		    const struct lgd_item *it)
{
	return feed(ds, rs, it);
}

int lgd_deltas_collect(struct lgd_reader *r, struct lgd_deltas *ds, int durations,
		      struct lgd_dur_stats *st, struct lgd_merge_counts *counts)
{
	/* pairs made on every record, kept if both pass; durations: task
	 * names too (logdev's own records inside pairs) */
	const struct lgd_records_opts o = {
		.items = LGD_ITEMS_FILTERED | (durations ? LGD_ITEMS_COMM : 0u) };
	struct lgd_durations du;
	struct lgd_dur_pair dp;
	struct lgd_records rs;
	struct lgd_record y;
	int ret;

	struct nest ns = { 0 };
	uint64_t left_out = 0, left_neg = 0;	/* pairs the filters left out */

	if (lgd_dur_init(&du, &r->sites))
		return -ENOMEM;
	for (size_t i = 0; i < ds->nr_user_pairs; i++) {
		ret = lgd_dur_pair_sites(&du, &r->sites, ds->user_pairs[i][0], ds->user_pairs[i][1]);
		if (ret) {
			lgd_dur_free(&du);
			return ret;
		}
	}
	if (lgd_records_open(&rs, r, &o)) {
		lgd_dur_free(&du);
		return -ENOMEM;
	}
	while ((ret = lgd_records_next(&rs, &y)) > 0) {
		const struct lgd_item *it = &y.it;

		if (!durations) {
			ret = feed(ds, &rs, it);
			if (ret < 0)
				break;
			continue;
		}
		ds->last_pair = NULL;
		ret = bd_item(ds, &rs, it);
		if (ret < 0)
			break;
		if (ret)
			continue;	/* a marker: never paired */
		if (it->kind == LGD_ITEM_REC && it->rec.type == LOGDEV_REC_COMM) {
			nest_comm(&ns, it, lgd_cost_comm(ds->cost));
		} else {
			if (it->kind == LGD_ITEM_REC && !it->filtered)
				ds->records++;
			if (it->kind == LGD_ITEM_GAP && it->gap_kind != LGD_GAP_BAD_TS &&
			    !it->filtered) {
				ds->lost_gaps++;
				if (it->gap_kind != LGD_GAP_SUBBUFS &&
				    it->gap_kind != LGD_GAP_CORRUPT)
					ds->lost = lgd_add_sat(ds->lost, it->gap_count);
				else
					ds->lost_unknown++;
			}
			int role = it->kind == LGD_ITEM_REC && it->rec.site < du.nr_sites ?
				   du.role[it->rec.site] : LGD_DUR_NONE;
			int64_t cost = it->kind == LGD_ITEM_REC ? lgd_cost_of(ds->cost, it->rec.site) : 0;

			if (it->kind == LGD_ITEM_GAP)
				nest_gap(&ns, it->cpu);
			if (cost)
				ds->cost_kinds |= 1u << ds->cost->kind[it->rec.site];
			if (role == LGD_DUR_ENTRY)	/* not in its own pair */
				nest_charge(&ns, it, cost);
			ret = lgd_dur_add(&du, it, &dp);
			if (ret > 0 && !dur_kept(r, it, &dp)) {
				ret = 0;	/* an end left out by the filter */
				left_out++;	/* not among the pairs counted */
				left_neg += dp.ns < 0;
			}
			if (ret > 0) {
				int64_t fl = lgd_cost_floor(ds->cost, dp.entry_site, dp.ret_site);
				struct nest_res res = { LGD_NO_SITE, 0, 0,
							sat_add(dp.ns, -((fl + 500) / 1000)),
							fl, 0, 0, 0, 0 };

				if (fl) {
					if (!ds->floor_pairs || dp.ns < ds->floor_min_raw)
						ds->floor_min_raw = dp.ns;
					if (fl > ds->floor_max_ps)
						ds->floor_max_ps = fl;
					ds->floor_pairs = lgd_add_sat(ds->floor_pairs, 1);
					ds->floor_kinds |= 1u << ds->cost->kind[dp.entry_site];
				}
				if (role == LGD_DUR_RETURN && dp.ret_off == it->file_off)
					nest_pop(&ns, it, &dp, ds, &res);
				else
					nest_top(&ns, it, du.name[it->rec.site], ds, &res);
				ret = add_dur(ds, &dp, &res);
				if (!ret && ds->bd && ds->last_pair && dp.ns >= 0)
					ret = split_pair(ds, it, it->rec.pid,
							 dp.ret_ts - (uint64_t)dp.ns, dp.entry_cpu,
							 dp.ret_ts, dp.ret_cpu);
			} else if (!ret && role == LGD_DUR_ENTRY) {
				ret = nest_push(&ns, it, du.name[it->rec.site]);
			}
			if (role != LGD_DUR_ENTRY)	/* a return: after its pair closed */
				nest_charge(&ns, it, cost);
		}
		if (ret < 0)
			break;
	}
	lgd_dur_finish(&du);
	du.stats.paired -= left_out;
	du.stats.negative -= left_neg;
	if (st)
		*st = du.stats;
	/* rows of entry sites with entries left without return */
	for (size_t i = 0; durations && i < ds->nr; i++)
		if (ds->pairs[i].from < du.nr_sites)
			ds->pairs[i].unmatched = du.unmatched[ds->pairs[i].from];
	if (counts)
		lgd_merge_take_counts(&rs.m, counts);
	lgd_records_close(&rs);
	lgd_dur_free(&du);
	free(ns.t);
	return ret < 0 ? ret : 0;
}
