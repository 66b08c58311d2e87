// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c: two captures' delta tables side by side.  Pairs
 * are matched by their call sites' file, function and line (site ids differ
 * between captures), in three rounds, each only among what the ones before
 * left unmatched: the same file path; then the same file name (the path's
 * last component: one module built in two trees, /a/x.c and /b/x.c), where
 * that leaves one candidate on each side; then a site whose file is empty
 * with one of the same func:line in any file, where that leaves one
 * candidate on each side.  lgd_site_match() finds one site by the same
 * rule (diff --svg, hist across captures).  Several pairs of one
 * capture at the same places (a site registered twice, e.g. a probe removed
 * and added again) are merged before the median and p99 (nearest rank, as
 * in deltas.c, from their merged histograms) are taken.  Row labels are
 * "func:line", or "file:func:line" where the two captures together hold
 * that func:line in more than one
 * file, with "#N" where a capture has several sites at one file:func:line
 * (told apart, and matched, by their formats; diff_seq()).  Rows that
 * could not be matched one to one say so (lgd_diff_row.warn).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

/*
 * A pair's end as diff matches it: the site (file, func, line), or for a
 * site the capture does not name, its id.
 */
struct end {
	const struct lgd_site *st;	/* NULL: unknown site */
	uint32_t id;
};

/* the matching rounds of end_eq(), lgd_diff_build() and lgd_site_match() */
enum { M_EXACT, M_BASENAME, M_WILD, M_ROUNDS };

static const char *file_base(const char *f)
{
	const char *b = strrchr(f, '/');

	return b ? b + 1 : f;
}

/*
 * same place?  @mode M_EXACT: same file; M_BASENAME: also the same file
 * name in another directory; M_WILD: also an empty file with any file
 */
static int end_eq(const struct end *x, const struct end *y, int mode)
{
	if (!x->st || !y->st)
		return !x->st && !y->st && x->id == y->id;
	if (strcmp(x->st->func, y->st->func) || x->st->line != y->st->line)
		return 0;
	/* where a capture has several sites there, the format tells them apart */
	if ((x->st->label_seq || y->st->label_seq) && strcmp(x->st->fmt, y->st->fmt))
		return 0;
	if (!strcmp(x->st->file, y->st->file))
		return 1;
	if (mode == M_BASENAME)
		return x->st->file[0] && y->st->file[0] &&
		       !strcmp(file_base(x->st->file), file_base(y->st->file));
	return mode == M_WILD && (!x->st->file[0] || !y->st->file[0]);
}

/* One capture's pairs by place, samples merged. */
struct named {
	struct end from, to;
	struct lgd_hist h;
	int matched;
	int merged;	/* an end has a twin (has_twin()): pairs merged */
	int cut;	/* a pair from its first site was cut by lost events */
	uint64_t unmatched;	/* --durations: entries without return */
	int ambiguous;	/* an empty file that could mean several */
	uint64_t bd_n, bd_incomplete;	/* the breakdown's rows merged */
	int64_t bd_ns[LGD_BD_NR];
};

struct named_set {
	struct named *v;
	size_t nr, cap;
};

static void named_free(struct named_set *ns)
{
	for (size_t i = 0; i < ns->nr; i++)
		lgd_hist_free(&ns->v[i].h);
	free(ns->v);
}

/*
 * Has @st a twin in its capture: another site with its file, func, line and
 * format (lgd_site.twin: a site registered twice, a macro with two identical
 * edprint() calls)?  diff cannot tell the two apart: their pairs are merged.
 */
static int has_twin(const struct lgd_site *st)
{
	return st && st->twin;
}

static int named_build(struct named_set *ns, const struct lgd_deltas *ds,
		       const struct lgd_sites *s)
{
	memset(ns, 0, sizeof(*ns));
	for (size_t i = 0; i < ds->nr; i++) {
		const struct lgd_pair *p = &ds->pairs[i];
		struct end f = { lgd_sites_get(s, p->from), p->from };
		struct end t = { lgd_sites_get(s, p->to), p->to };
		struct named *x = NULL;

		for (size_t j = 0; j < ns->nr; j++)
			if (end_eq(&ns->v[j].from, &f, M_EXACT) && end_eq(&ns->v[j].to, &t, M_EXACT)) {
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
			x = &ns->v[ns->nr++];
			memset(x, 0, sizeof(*x));
			x->from = f;
			x->to = t;
			x->merged = has_twin(f.st) || has_twin(t.st);
		}
		if (lgd_hist_merge(&x->h, &p->h))
			return -ENOMEM;
		x->cut |= lgd_deltas_cut_at(ds, p->from) != 0;
		x->unmatched += p->unmatched;
		if (p->bd) {
			x->bd_n += p->bd->n - p->bd->incomplete - p->bd->mixed;
			x->bd_incomplete += p->bd->incomplete;
			for (unsigned int k = 0; k < LGD_BD_NR; k++)
				x->bd_ns[k] = x->bd_ns[k] > INT64_MAX - p->bd->ns[k] ? INT64_MAX :
					      x->bd_ns[k] + p->bd->ns[k];
		}
	}
	return 0;
}

static void side_of(struct lgd_diff_side *sd, struct named *x)
{
	sd->count = x->h.count;
	sd->median = lgd_hist_quantile(&x->h, 50);
	sd->p99 = lgd_hist_quantile(&x->h, 99);
	sd->approx = !lgd_hist_is_exact(&x->h);
	sd->cut = x->cut;
	sd->unmatched = x->unmatched;
	sd->bd_n = x->bd_n;
	sd->bd_incomplete = x->bd_incomplete;
	memcpy(sd->bd_ns, x->bd_ns, sizeof(sd->bd_ns));
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct lgd_diff_row *x = pa, *y = pb;
	int c;

	if (x->present != y->present) {
		/* both (3) first, then A only (1), then B only (2) */
		int ox = x->present == LGD_DIFF_BOTH ? 0 : x->present;
		int oy = y->present == LGD_DIFF_BOTH ? 0 : y->present;

		return ox - oy;
	}
	if (x->present == LGD_DIFF_BOTH) {
		double dx = (double)x->b.median - (double)x->a.median;
		double dy = (double)y->b.median - (double)y->a.median;

		if (dx != dy)
			return dx > dy ? -1 : 1;
	}
	c = strcmp(x->from, y->from);
	return c ? c : strcmp(x->to, y->to);
}

/*
 * (func, line) of the sites of both captures that exist in two files (@v),
 * and all sites of both in lgd_site_order_cmp() order (@all, for the #N of
 * labels)
 */
struct amb {
	const struct lgd_site **v;
	size_t nr;
	const struct lgd_site **all;
	size_t nall;
};

static int amb_cmp(const void *pa, const void *pb)
{
	const struct lgd_site *x = *(const struct lgd_site *const *)pa;
	const struct lgd_site *y = *(const struct lgd_site *const *)pb;
	int c = strcmp(x->func, y->func);

	return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

static int amb_build(struct amb *am, const struct lgd_sites *sa,
		     const struct lgd_sites *sb)
{
	const struct lgd_sites *ss[2] = { sa, sb };
	size_t n = 0;

	am->nr = 0;
	am->v = malloc(((size_t)sa->nr + sb->nr + 1) * sizeof(*am->v));
	am->all = malloc(((size_t)sa->nr + sb->nr + 1) * sizeof(*am->all));
	if (!am->v || !am->all)
		return -ENOMEM;
	for (int k = 0; k < 2; k++)
		for (uint32_t i = 0; i < ss[k]->nr; i++)
			if (ss[k]->by_id[i])
				am->v[n++] = ss[k]->by_id[i];
	qsort(am->v, n, sizeof(*am->v), lgd_site_order_cmp);
	memcpy(am->all, am->v, n * sizeof(*am->all));
	am->nall = n;
	/*
	 * an empty file (sorted first) is the same place as any one file, and
	 * one file name in two directories is (the captures' build trees
	 * differ) unless one capture has both (lgd_site.label_file)
	 */
	for (size_t i = 0, j; i < n; i = j) {
		const char *file = am->v[i]->file;
		int differ = am->v[i]->label_file;

		for (j = i + 1; j < n && !amb_cmp(&am->v[j], &am->v[i]); j++) {
			differ |= am->v[j]->label_file;
			differ |= file[0] && strcmp(file_base(am->v[j]->file), file_base(file)) != 0;
			file = am->v[j]->file;
		}
		if (differ)
			am->v[am->nr++] = am->v[i];	/* i >= am->nr: no overlap */
	}
	return 0;
}

/*
 * The #N of @st's label in a diff: where either capture has several sites
 * at @st's file:func:line, the rank of @st's format among the distinct
 * formats both captures have there (sites with one format are merged);
 * else 0 (no #N).
 */
static uint32_t diff_seq(const struct amb *am, const struct lgd_site *st)
{
	size_t lo = 0, hi = am->nall;
	uint32_t n = 0;
	int need = 0;

	while (lo < hi) {	/* the first site at @st's place */
		size_t mid = lo + (hi - lo) / 2;

		if (lgd_site_place_cmp(&am->all[mid], &st) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < am->nall && !lgd_site_place_cmp(&am->all[i], &st); i++) {
		need |= am->all[i]->label_seq != 0;
		if (strcmp(am->all[i]->fmt, st->fmt) < 0 &&
		    (i == lo || strcmp(am->all[i - 1]->fmt, am->all[i]->fmt)))
			n++;
	}
	return need ? n + 1 : 0;
}

/* the row label of an end seen as @x in A and/or @y in B (either NULL) */
static char *end_label(const struct amb *am, const struct end *x,
		       const struct end *y)
{
	const struct end *e = x ? x : y;

	if (x && y && x->st && !x->st->file[0])
		e = y;		/* matched by func:line: take the side with a file */
	return lgd_site_label_place(e->st, e->id, e->st &&
				   bsearch(&e->st, am->v, am->nr, sizeof(*am->v), amb_cmp),
				   e->st ? diff_seq(am, e->st) : 0);
}

static struct lgd_diff_row *add_row(struct lgd_diff *df, size_t *cap,
				   const struct amb *am, struct named *a,
				   struct named *b)
{
	struct lgd_diff_row *r;

	if (df->nr == *cap) {
		size_t nc = *cap ? *cap * 2 : 32;
		struct lgd_diff_row *nr = realloc(df->rows, nc * sizeof(*nr));

		if (!nr)
			return NULL;
		df->rows = nr;
		*cap = nc;
	}
	r = &df->rows[df->nr];
	memset(r, 0, sizeof(*r));
	r->from = end_label(am, a ? &a->from : NULL, b ? &b->from : NULL);
	r->to = end_label(am, a ? &a->to : NULL, b ? &b->to : NULL);
	df->nr++;
	if (!r->from || !r->to)
		return NULL;
	r->present = (a ? LGD_DIFF_IN_A : 0) | (b ? LGD_DIFF_IN_B : 0);
	if ((a && a->merged) || (b && b->merged))
		r->warn |= LGD_DIFF_W_MERGED;
	if (r->present != LGD_DIFF_BOTH && ((a && a->ambiguous) || (b && b->ambiguous)))
		r->warn |= LGD_DIFF_W_AMBIGUOUS;
	if (a)
		side_of(&r->a, a);
	if (b)
		side_of(&r->b, b);
	if (r->present != LGD_DIFF_BOTH)
		return r;
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
	return r;
}

/* unmatched pairs of @ns at the places of @x (end_eq()'s @mode) */
static struct named *match(struct named_set *ns, const struct named *x, int mode,
			   size_t *count)
{
	struct named *found = NULL;

	*count = 0;
	for (size_t j = 0; j < ns->nr; j++)
		if (!ns->v[j].matched && end_eq(&ns->v[j].from, &x->from, mode) &&
		    end_eq(&ns->v[j].to, &x->to, mode)) {
			if (!found)
				found = &ns->v[j];
			++*count;
		}
	return found;
}

int lgd_diff_build(struct lgd_diff *df, const struct lgd_deltas *a,
		  const struct lgd_sites *sa, const struct lgd_deltas *b,
		  const struct lgd_sites *sb)
{
	struct named_set na, nb;
	struct amb am = { 0 };
	size_t cap = 0;
	int ret;

	memset(df, 0, sizeof(*df));
	memset(&nb, 0, sizeof(nb));
	ret = named_build(&na, a, sa);
	if (!ret)
		ret = named_build(&nb, b, sb);
	if (!ret)
		ret = amb_build(&am, sa, sb);
	/*
	 * exact places first, then one file name in two directories, then an
	 * empty file matching any file, the last two only where that leaves
	 * no choice (one candidate on each side)
	 */
	for (int mode = M_EXACT; !ret && mode < M_ROUNDS; mode++)
		for (size_t i = 0; i < na.nr; i++) {
			struct named *y;
			size_t ny, nx;

			if (na.v[i].matched || !(y = match(&nb, &na.v[i], mode, &ny)))
				continue;
			if (mode != M_EXACT && (ny > 1 || (match(&na, y, mode, &nx), nx > 1))) {
				na.v[i].ambiguous = y->ambiguous = 1;
				continue;
			}
			na.v[i].matched = y->matched = 1;
			if (!add_row(df, &cap, &am, &na.v[i], y)) {
				ret = -ENOMEM;
				break;
			}
		}
	for (size_t i = 0; !ret && i < na.nr; i++)
		if (!na.v[i].matched && !add_row(df, &cap, &am, &na.v[i], NULL))
			ret = -ENOMEM;
	for (size_t j = 0; !ret && j < nb.nr; j++)
		if (!nb.v[j].matched && !add_row(df, &cap, &am, NULL, &nb.v[j]))
			ret = -ENOMEM;
	free(am.v);
	free(am.all);
	named_free(&na);
	named_free(&nb);
	if (ret) {
		lgd_diff_free(df);
		return ret;
	}
	if (df->nr)
		qsort(df->rows, df->nr, sizeof(*df->rows), row_cmp);
	return 0;
}

int64_t lgd_site_match(const struct lgd_sites *s, const struct lgd_site *x)
{
	struct end ex = { x, x ? x->id : 0 };

	for (int mode = M_EXACT; mode < M_ROUNDS; mode++) {
		int64_t found = -1;
		size_t n = 0;

		for (uint32_t i = 0; i < s->nr; i++) {
			struct end e = { s->by_id[i], i };

			/* a merged probe site is its canon's (lgd_site.canon) */
			if (!e.st || e.st->canon || !end_eq(&e, &ex, mode))
				continue;
			if (found < 0)
				found = i;
			n++;
		}
		/* exact: the first of twins (diff merges them); else one only */
		if (n == 1 || (n && mode == M_EXACT))
			return found;
		if (n)
			return -2;
	}
	return -1;
}

void lgd_diff_min_count(struct lgd_diff *df, uint64_t min)
{
	size_t k = 0;

	for (size_t i = 0; i < df->nr; i++) {
		struct lgd_diff_row *r = &df->rows[i];

		if (((r->present & LGD_DIFF_IN_A) && r->a.count < min) ||
		    ((r->present & LGD_DIFF_IN_B) && r->b.count < min)) {
			free(r->from);
			free(r->to);
			continue;
		}
		df->rows[k++] = *r;
	}
	df->nr = k;
}

void lgd_diff_free(struct lgd_diff *df)
{
	for (size_t i = 0; i < df->nr; i++) {
		free(df->rows[i].from);
		free(df->rows[i].to);
	}
	free(df->rows);
	memset(df, 0, sizeof(*df));
}
