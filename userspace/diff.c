// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c: two captures' delta tables side by side.  Pairs are matched by
 * their call sites' "func:line" text (site ids differ between captures);
 * several pairs of one capture with the same text (a site registered twice,
 * e.g. a probe removed and added again) are merged before the median and
 * p99 (nearest rank, as in deltas.c) are taken.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

void ld_site_label(const struct ld_sites *s, uint32_t id, char *buf,
		   size_t size)
{
	const struct ld_site *st = ld_sites_get(s, id);

	if (st)
		snprintf(buf, size, "%s:%u", st->func, st->line);
	else
		snprintf(buf, size, "site#%u:?", id);
}

/* One capture's pairs by label, samples merged. */
struct named {
	char *from, *to;
	uint64_t *d, n;
};

struct named_set {
	struct named *v;
	size_t nr, cap;
};

static void named_free(struct named_set *ns)
{
	for (size_t i = 0; i < ns->nr; i++) {
		free(ns->v[i].from);
		free(ns->v[i].to);
		free(ns->v[i].d);
	}
	free(ns->v);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t rank(const uint64_t *d, uint64_t n, unsigned int q)
{
	uint64_t k = (n * q + 99) / 100;

	return n ? d[k ? k - 1 : 0] : 0;
}

static int named_build(struct named_set *ns, const struct ld_deltas *ds,
		       const struct ld_sites *s)
{
	char f[300], t[300];

	memset(ns, 0, sizeof(*ns));
	for (size_t i = 0; i < ds->nr; i++) {
		const struct ld_pair *p = &ds->pairs[i];
		struct named *x = NULL;
		uint64_t *nd;

		ld_site_label(s, p->from, f, sizeof(f));
		ld_site_label(s, p->to, t, sizeof(t));
		for (size_t j = 0; j < ns->nr; j++)
			if (!strcmp(ns->v[j].from, f) && !strcmp(ns->v[j].to, t)) {
				x = &ns->v[j];
				break;
			}
		if (!x) {
			if (ns->nr == ns->cap) {
				size_t nc = ns->cap ? ns->cap * 2 : 32;
				struct named *nv = realloc(ns->v, nc * sizeof(*nv));

				if (!nv)
					return -ENOMEM;
				ns->v = nv;
				ns->cap = nc;
			}
			x = &ns->v[ns->nr];
			memset(x, 0, sizeof(*x));
			x->from = strdup(f);
			x->to = strdup(t);
			ns->nr++;
			if (!x->from || !x->to)
				return -ENOMEM;
		}
		if (!p->count)
			continue;
		nd = realloc(x->d, (x->n + p->count) * sizeof(*nd));
		if (!nd)
			return -ENOMEM;
		memcpy(nd + x->n, p->d, p->count * sizeof(*nd));
		x->d = nd;
		x->n += p->count;
	}
	for (size_t i = 0; i < ns->nr; i++)
		qsort(ns->v[i].d, ns->v[i].n, sizeof(uint64_t), u64_cmp);
	return 0;
}

static void side_of(struct ld_diff_side *sd, const struct named *x)
{
	sd->count = x->n;
	sd->median = rank(x->d, x->n, 50);
	sd->p99 = rank(x->d, x->n, 99);
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct ld_diff_row *x = pa, *y = pb;
	int c;

	if (x->present != y->present) {
		/* both (3) first, then A only (1), then B only (2) */
		int ox = x->present == LD_DIFF_BOTH ? 0 : x->present;
		int oy = y->present == LD_DIFF_BOTH ? 0 : y->present;

		return ox - oy;
	}
	if (x->present == LD_DIFF_BOTH) {
		double dx = (double)x->b.median - (double)x->a.median;
		double dy = (double)y->b.median - (double)y->a.median;

		if (dx != dy)
			return dx > dy ? -1 : 1;
	}
	c = strcmp(x->from, y->from);
	return c ? c : strcmp(x->to, y->to);
}

static struct ld_diff_row *add_row(struct ld_diff *df, size_t *cap,
				   const struct named *x)
{
	struct ld_diff_row *r;

	if (df->nr == *cap) {
		size_t nc = *cap ? *cap * 2 : 32;
		struct ld_diff_row *nr = realloc(df->rows, nc * sizeof(*nr));

		if (!nr)
			return NULL;
		df->rows = nr;
		*cap = nc;
	}
	r = &df->rows[df->nr];
	memset(r, 0, sizeof(*r));
	r->from = strdup(x->from);
	r->to = strdup(x->to);
	df->nr++;
	if (!r->from || !r->to)
		return NULL;
	return r;
}

int ld_diff_build(struct ld_diff *df, const struct ld_deltas *a,
		  const struct ld_sites *sa, const struct ld_deltas *b,
		  const struct ld_sites *sb)
{
	struct named_set na, nb;
	struct ld_diff_row *r;
	size_t cap = 0;
	int ret;

	memset(df, 0, sizeof(*df));
	ret = named_build(&na, a, sa);
	if (!ret)
		ret = named_build(&nb, b, sb);
	else
		memset(&nb, 0, sizeof(nb));
	for (size_t i = 0; !ret && i < na.nr; i++) {
		r = add_row(df, &cap, &na.v[i]);
		if (!r) {
			ret = -ENOMEM;
			break;
		}
		r->present = LD_DIFF_IN_A;
		side_of(&r->a, &na.v[i]);
		for (size_t j = 0; j < nb.nr; j++)
			if (!strcmp(nb.v[j].from, r->from) && !strcmp(nb.v[j].to, r->to)) {
				r->present = LD_DIFF_BOTH;
				side_of(&r->b, &nb.v[j]);
				break;
			}
		if (r->present != LD_DIFF_BOTH)
			continue;
		if (r->a.median) {
			r->ratio = (double)r->b.median / (double)r->a.median;
			r->change_pct = ((double)r->b.median - (double)r->a.median) /
					(double)r->a.median * 100.0;
		} else if (r->b.median) {
			r->ratio = INFINITY;
			r->change_pct = INFINITY;
		} else {
			r->ratio = 1.0;
			r->change_pct = 0.0;
		}
	}
	for (size_t j = 0; !ret && j < nb.nr; j++) {
		int found = 0;

		for (size_t i = 0; i < na.nr && !found; i++)
			found = !strcmp(nb.v[j].from, na.v[i].from) &&
				!strcmp(nb.v[j].to, na.v[i].to);
		if (found)
			continue;
		r = add_row(df, &cap, &nb.v[j]);
		if (!r) {
			ret = -ENOMEM;
			break;
		}
		r->present = LD_DIFF_IN_B;
		side_of(&r->b, &nb.v[j]);
	}
	named_free(&na);
	named_free(&nb);
	if (ret) {
		ld_diff_free(df);
		return ret;
	}
	if (df->nr)
		qsort(df->rows, df->nr, sizeof(*df->rows), row_cmp);
	return 0;
}

void ld_diff_free(struct ld_diff *df)
{
	for (size_t i = 0; i < df->nr; i++) {
		free(df->rows[i].from);
		free(df->rows[i].to);
	}
	free(df->rows);
	memset(df, 0, sizeof(*df));
}
