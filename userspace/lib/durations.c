// SPDX-License-Identifier: GPL-2.0
/*
 * durations.c: pairs the records of logdev's return probes ("r:" in the
 * debugfs probes file) with their entries.  An r: probe NAME has two call
 * sites of file "probe": NAME (entry) and NAME%return (return).  Entries
 * are pushed on a stack per (task, context, probe name) (and per CPU for
 * pid 0 and for interrupt contexts, where the pid is only the interrupted
 * task's); a return pops the innermost entry of its probe and yields the
 * time between them, signed: negative when the return's CPU clock is behind
 * the entry's.  Merge order is timestamp order, so such a return comes
 * before its entry: a task's return that finds no open entry waits (up to
 * LGD_DUR_SKEW_NS of merged time, LGD_DUR_DEPTH of them) for an entry of the
 * same key on another CPU, which it then pairs with; on one CPU (pid 0,
 * interrupt contexts) there is no skew and it is unmatched at once.  A
 * lost-events gap on a CPU forgets that CPU's open entries of pid 0 and
 * interrupt contexts only: a task's entries stay valid across CPUs (a task
 * may migrate between entry and return).  Every entry and return ends up
 * paired or counted unmatched in du->stats (lgd_dur_finish()).
 * Memory: one slot per key, LGD_DUR_DEPTH entries and early returns deep.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

/** struct lgd_dur_open - one entry, or one return seen before its entry. */
struct lgd_dur_open {
	uint64_t ts;		/* ns */
	uint64_t off;		/* file offset of the record */
	uint32_t site, cpu;
};

/**
 * struct lgd_dur_slot - open entries of one probe for one task/context, and
 * its returns still waiting for an entry (another CPU's clock ahead).
 */
struct lgd_dur_slot {
	uint32_t pid, ctx;
	int64_t cpu;		/* -1: any CPU (a task) */
	const char *name;	/* interned probe name */
	uint32_t depth, nearly;
	struct lgd_dur_open open[LGD_DUR_DEPTH];	/* entries, innermost last */
	struct lgd_dur_open early[LGD_DUR_DEPTH];	/* returns, oldest first */
};

#define RET_SUFFIX	"%return"

static int site_is_probe(const struct lgd_site *s)
{
	return s && s->file && !strcmp(s->file, "probe");
}

/* Length of the base name if @s is a return site, else 0. */
static size_t ret_base_len(const struct lgd_site *s)
{
	size_t n, k = strlen(RET_SUFFIX);

	if (!site_is_probe(s) || !s->func)
		return 0;
	n = strlen(s->func);
	if (n <= k || strcmp(s->func + n - k, RET_SUFFIX))
		return 0;
	return n - k;
}

int lgd_dur_init(struct lgd_durations *du, const struct lgd_sites *s)
{
	memset(du, 0, sizeof(*du));
	du->nr_sites = s->nr;
	du->role = calloc(s->nr ? s->nr : 1, sizeof(*du->role));
	du->name = calloc(s->nr ? s->nr : 1, sizeof(*du->name));
	du->unmatched = calloc(s->nr ? s->nr : 1, sizeof(*du->unmatched));
	if (!du->role || !du->name || !du->unmatched) {
		lgd_dur_free(du);
		return -ENOMEM;
	}
	/* return sites first, then the entry sites that have a return twin */
	for (uint32_t i = 0; i < s->nr; i++) {
		size_t n = ret_base_len(s->by_id[i]);

		if (!n)
			continue;
		du->role[i] = LGD_DUR_RETURN;
		du->name[i] = strndup(s->by_id[i]->func, n);
		if (!du->name[i]) {
			lgd_dur_free(du);
			return -ENOMEM;
		}
	}
	for (uint32_t i = 0; i < s->nr; i++) {
		const struct lgd_site *e = s->by_id[i];

		if (!site_is_probe(e) || du->role[i])
			continue;
		for (uint32_t j = 0; j < s->nr; j++)
			if (du->role[j] == LGD_DUR_RETURN && !strcmp(du->name[j], e->func)) {
				du->role[i] = LGD_DUR_ENTRY;
				du->name[i] = strdup(e->func);
				if (!du->name[i]) {
					lgd_dur_free(du);
					return -ENOMEM;
				}
				break;
			}
	}
	return 0;
}

int lgd_dur_pair_sites(struct lgd_durations *du, const struct lgd_sites *s,
		       uint32_t entry, uint32_t ret)
{
	char *le, *lr;

	if (entry >= du->nr_sites || ret >= du->nr_sites || entry == ret ||
	    du->role[entry] || du->role[ret])
		return -EINVAL;
	le = lgd_site_label_alloc(s, entry);
	lr = lgd_site_label_alloc(s, entry);
	if (!le || !lr) {
		free(le);
		free(lr);
		return -ENOMEM;
	}
	du->role[entry] = LGD_DUR_ENTRY;
	du->name[entry] = le;
	du->role[ret] = LGD_DUR_RETURN;
	du->name[ret] = lr;
	return 0;
}

/* The key of @it: pid, ctx, and the CPU where the pid does not say it all. */
static void key_of(const struct lgd_item *it, uint32_t *pid, uint32_t *ctx,
		   int64_t *cpu)
{
	*pid = it->rec.pid;
	*ctx = it->rec.ctx;
	*cpu = (it->rec.pid == 0 || it->rec.ctx != LOGDEV_CTX_TASK) ?
		(int64_t)it->cpu : -1;
}

int lgd_dur_has_returns(const struct lgd_durations *du)
{
	for (uint32_t i = 0; i < du->nr_sites; i++)
		if (du->role[i] == LGD_DUR_RETURN)
			return 1;
	return 0;
}

static struct lgd_dur_slot *find_slot(struct lgd_durations *du, uint32_t pid,
				     uint32_t ctx, int64_t cpu, const char *name,
				     int create)
{
	struct lgd_dur_slot *sl;

	for (size_t i = 0; i < du->nr; i++) {
		sl = &du->slots[i];
		if (sl->pid == pid && sl->ctx == ctx && sl->cpu == cpu &&
		    sl->name == name)
			return sl;
	}
	if (!create)
		return NULL;
	for (size_t i = 0; i < du->nr; i++)	/* reuse an empty one */
		if (!du->slots[i].depth && !du->slots[i].nearly) {
			sl = &du->slots[i];
			goto fill;
		}
	if (du->nr == du->cap) {
		size_t nc = du->cap ? du->cap * 2 : 16;
		struct lgd_dur_slot *ns = realloc(du->slots, nc * sizeof(*ns));

		if (!ns)
			return NULL;
		du->slots = ns;
		du->cap = nc;
	}
	sl = &du->slots[du->nr++];
fill:
	memset(sl, 0, sizeof(*sl));
	sl->pid = pid;
	sl->ctx = ctx;
	sl->cpu = cpu;
	sl->name = name;
	return sl;
}

/* name pointers are interned per site: compare by the entry site's string */
static const char *intern(struct lgd_durations *du, const char *name)
{
	for (uint32_t i = 0; i < du->nr_sites; i++)
		if (du->role[i] == LGD_DUR_ENTRY && !strcmp(du->name[i], name))
			return du->name[i];
	return NULL;
}

/* @n open entries of @v left without return: counted, also per entry site */
static void entries_lost(struct lgd_durations *du, const struct lgd_dur_open *v, uint32_t n)
{
	du->stats.entries_unmatched += n;
	for (uint32_t i = 0; i < n; i++)
		if (v[i].site < du->nr_sites)
			du->unmatched[v[i].site]++;
}

/*
 * *@out: the pair of entry @e and return @r.  Return: 1, or 0 when their
 * stamps lie more than LGD_STEP_MAX_NS apart, either way: no call takes
 * that long and no two CPUs' clocks disagree so much (damaged stamps), so
 * no duration (it would not fit an int64_t either): counted in huge, both
 * ends used up.
 */
static int fill_pair(struct lgd_durations *du, struct lgd_dur_pair *out,
		     const struct lgd_dur_open *e, const struct lgd_dur_open *r)
{
	uint64_t d;
	enum lgd_step k = lgd_ts_step(e->ts, r->ts, &d);

	if (k == LGD_STEP_HUGE || (k == LGD_STEP_BACK && d > LGD_STEP_MAX_NS)) {
		du->stats.huge++;
		return 0;
	}
	out->entry_site = e->site;
	out->entry_off = e->off;
	out->entry_cpu = e->cpu;
	out->ret_site = r->site;
	out->ret_cpu = r->cpu;
	out->ret_off = r->off;
	out->ret_ts = r->ts;
	out->ns = k == LGD_STEP_BACK ? -(int64_t)d : (int64_t)d;	/* |d| <= 2^62 */
	du->stats.paired++;
	if (out->ns < 0)
		du->stats.negative++;
	return 1;
}

/*
 * push @o on @v (@n deep); full: the oldest is dropped and counted in @lost,
 * and per site in @du->unmatched if @entries
 */
static void push(struct lgd_durations *du, struct lgd_dur_open *v, uint32_t *n,
		 const struct lgd_dur_open *o, uint64_t *lost, int entries)
{
	if (*n == LGD_DUR_DEPTH) {
		if (entries && v[0].site < du->nr_sites)
			du->unmatched[v[0].site]++;
		memmove(v, v + 1, (LGD_DUR_DEPTH - 1) * sizeof(*v));
		--*n;
		++*lost;
	}
	v[(*n)++] = *o;
}

int lgd_dur_add(struct lgd_durations *du, const struct lgd_item *it,
	       struct lgd_dur_pair *out)
{
	struct lgd_dur_slot *sl;
	struct lgd_dur_open o;
	const char *name;
	uint32_t pid, ctx;
	int64_t cpu;

	if (it->kind == LGD_ITEM_GAP) {
		/* per-CPU keys only: their entries' returns may be lost */
		for (size_t i = 0; i < du->nr; i++)
			if (du->slots[i].cpu == (int64_t)it->cpu) {
				entries_lost(du, du->slots[i].open, du->slots[i].depth);
				du->slots[i].depth = 0;
			}
		return 0;
	}
	if (it->rec.site >= du->nr_sites || !du->role[it->rec.site])
		return 0;
	o.ts = it->ts;
	o.off = it->file_off;
	o.site = it->rec.site;
	o.cpu = it->cpu;
	name = intern(du, du->name[it->rec.site]);
	if (!name)
		return 0;	/* a return without any entry site */
	key_of(it, &pid, &ctx, &cpu);
	if (du->role[it->rec.site] == LGD_DUR_ENTRY) {
		du->stats.entries++;
		sl = find_slot(du, pid, ctx, cpu, name, 1);
		if (!sl)
			return -ENOMEM;
		/* returns that waited too long have no entry */
		while (sl->nearly && it->ts > sl->early[0].ts &&
		       it->ts - sl->early[0].ts > LGD_DUR_SKEW_NS) {
			memmove(sl->early, sl->early + 1, --sl->nearly * sizeof(sl->early[0]));
			du->stats.returns_unmatched++;
		}
		/* the newest waiting return, if on another CPU, is this entry's */
		if (sl->nearly && sl->early[sl->nearly - 1].cpu != it->cpu) {
			sl->nearly--;
			return fill_pair(du, out, &o, &sl->early[sl->nearly]);
		}
		push(du, sl->open, &sl->depth, &o, &du->stats.entries_unmatched, 1);
		return 0;
	}
	du->stats.returns++;
	sl = find_slot(du, pid, ctx, cpu, name, cpu < 0);
	if (sl && sl->depth) {
		sl->depth--;
		return fill_pair(du, out, &sl->open[sl->depth], &o);
	}
	if (cpu >= 0) {		/* one CPU: no skew, the entry is not coming */
		du->stats.returns_unmatched++;
		return 0;
	}
	if (!sl)
		return -ENOMEM;
	push(du, sl->early, &sl->nearly, &o, &du->stats.returns_unmatched, 0);
	return 0;
}

void lgd_dur_finish(struct lgd_durations *du)
{
	for (size_t i = 0; i < du->nr; i++) {
		entries_lost(du, du->slots[i].open, du->slots[i].depth);
		du->stats.returns_unmatched += du->slots[i].nearly;
		du->slots[i].depth = 0;
		du->slots[i].nearly = 0;
	}
}

void lgd_dur_free(struct lgd_durations *du)
{
	if (du->name)
		for (uint32_t i = 0; i < du->nr_sites; i++)
			free(du->name[i]);
	free(du->name);
	free(du->role);
	free(du->unmatched);
	free(du->slots);
	memset(du, 0, sizeof(*du));
}

static int mark_cmp(const void *a, const void *b)
{
	const struct lgd_dur_mark *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

int lgd_dur_collect(struct lgd_reader *r, struct lgd_durations *du,
		   struct lgd_dur_marks *mk)
{
	lgd_warn_fn warn = r->warn;
	struct lgd_dur_pair dp;
	struct lgd_merge m;
	struct lgd_item it;
	size_t cap = 0;
	int ret;

	mk->v = NULL;
	mk->nr = 0;
	/*
	 * pairs made on every record (filter.c): no verdict asked, so no
	 * task-name pass before; this pass meets them all for the next
	 */
	if (lgd_merge_open(&m, r, LGD_ITEMS_FILTERED | LGD_ITEMS_NAMES_LATE))
		return -ENOMEM;
	r->warn = NULL;		/* the printing pass gives the warnings */
	while ((ret = lgd_merge_next(&m, &it)) > 0) {
		ret = lgd_dur_add(du, &it, &dp);
		if (ret < 0)
			break;
		if (!ret)
			continue;
		if (mk->nr == cap) {
			size_t nc = cap ? cap * 2 : 256;
			struct lgd_dur_mark *nm = realloc(mk->v, nc * sizeof(*nm));

			if (!nm) {
				ret = -ENOMEM;
				break;
			}
			mk->v = nm;
			cap = nc;
		}
		mk->v[mk->nr++] = (struct lgd_dur_mark){ dp.ret_off, dp.ns, dp.entry_cpu,
							dp.ret_cpu };
	}
	r->warn = warn;
	lgd_merge_free(&m);
	lgd_dur_finish(du);
	if (mk->nr)
		qsort(mk->v, mk->nr, sizeof(*mk->v), mark_cmp);
	return ret < 0 ? ret : 0;
}

const struct lgd_dur_mark *lgd_dur_mark_find(const struct lgd_dur_marks *mk, uint64_t off)
{
	struct lgd_dur_mark key = { .off = off };

	if (!mk->nr)
		return NULL;
	return bsearch(&key, mk->v, mk->nr, sizeof(*mk->v), mark_cmp);
}

void lgd_dur_marks_free(struct lgd_dur_marks *mk)
{
	free(mk->v);
	mk->v = NULL;
	mk->nr = 0;
}
