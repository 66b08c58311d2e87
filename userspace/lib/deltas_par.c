// SPDX-License-Identifier: GPL-2.0
/*
 * deltas_par.c: record deltas of one capture on several threads (layer:
 * library, analysis).  With --by context or cpu a pair never crosses CPUs
 * (streams.c), and a delta table adds up (counts, sums, histograms:
 * lgd_hist_merge()), so the capture's CPUs are dealt out to threads, each
 * reads its own CPUs through its own reader of the same file and its own
 * merge (lgd_merge_open_part()), and the tables are added up in the end.
 * The result is the one table lgd_deltas_collect() makes: rows are sorted
 * by lgd_deltas_finish() on values alone, never on the order they came.
 *
 * What would not add up is left to the one-thread path: a filter (relative
 * times start at the first record of the whole merge, --comm reads task
 * names in time order), --by task (a task moves between CPUs), durations
 * and the breakdown (they take lgd_deltas_collect()'s own options), and
 * any capture a part reader warned about (damage: its warnings are worded
 * and rate-limited in merge order).  Then the caller's reader @r is used
 * as if this function had not been called.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "liblogdev.h"

/* one thread's share: its reader, table, counts, and how it went */
struct part {
	struct lgd_reader r;
	struct lgd_deltas ds;
	struct lgd_merge_counts n;
	uint32_t idx, nparts;
	uint64_t warns;		/* warnings its reader gave: any, and the part is void */
	int open, ret;
};

static void count_warn(void *arg, const struct lgd_diag *d)
{
	(void)d;
	((struct part *)arg)->warns++;
}

static void *part_run(void *arg)
{
	struct part *p = arg;
	const struct lgd_records_opts o = { .items = LGD_ITEMS_FILTERED,
					    .part = p->idx, .nparts = p->nparts };
	struct lgd_records rs;
	struct lgd_record y;
	int ret;

	if (lgd_records_open(&rs, &p->r, &o)) {
		p->ret = -ENOMEM;
		return NULL;
	}
	while ((ret = lgd_records_next(&rs, &y)) > 0) {
		ret = lgd_deltas_feed(&p->ds, &rs, &y.it);
		if (ret < 0)
			break;
	}
	lgd_merge_take_counts(&rs.m, &p->n);
	lgd_records_close(&rs);
	p->ret = ret;
	return NULL;
}

/* @p's reader: @r's file opened again (its own offset), @r's filter */
static int part_open(struct part *p, const struct lgd_reader *r, const struct lgd_deltas *ds)
{
	struct lgd_diag d = { 0 };
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", r->fd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (lgd_reader_open_fd(&p->r, fd, count_warn, p, &d))
		return -EIO;
	p->open = 1;
	/* the same bytes as @r's: a file still growing is read by one thread */
	if (p->r.file_size != r->file_size || p->r.nr_cpus != r->nr_cpus)
		return -EAGAIN;
	if (lgd_reader_set_filter(&p->r, r->filter))
		return -ENOMEM;
	lgd_deltas_init(&p->ds, &(struct lgd_deltas_opts){ .by = ds->by });
	return 0;
}

static void part_close(struct part *p)
{
	if (!p->open)
		return;
	lgd_deltas_free(&p->ds);
	lgd_merge_counts_free(&p->n);
	lgd_reader_close(&p->r);
}

/* @src's pairs and counts added to @dst's */
static int deltas_add_up(struct lgd_deltas *dst, const struct lgd_deltas *src)
{
	for (size_t i = 0; i < src->nr; i++) {
		const struct lgd_pair *s = &src->pairs[i];
		struct lgd_pair *d = lgd_deltas_pair(dst, s->from, s->to, s->parent);

		if (!d || lgd_hist_merge(&d->h, &s->h))
			return -ENOMEM;
		d->count += s->count;
		d->nested_n += s->nested_n;
		d->nested_recs += s->nested_recs;
		d->nested_ns = lgd_add_sat(d->nested_ns, s->nested_ns);
	}
	if (lgd_deltas_cut_merge(dst, src))
		return -ENOMEM;
	dst->left_back += src->left_back;
	dst->left_huge += src->left_huge;
	dst->lost = lgd_add_sat(dst->lost, src->lost);
	dst->lost_gaps += src->lost_gaps;
	dst->lost_unknown += src->lost_unknown;
	dst->records += src->records;
	return 0;
}

/* Return: 1 if this capture or table takes the one-thread path */
static int one_thread(const struct lgd_reader *r, const struct lgd_deltas *ds, unsigned int n)
{
	return n < 2 || r->nr_cpus < 2 || r->filter_on || ds->bd || ds->by == LGD_BY_TASK ||
	       ds->nr || ds->records || ds->nr_user_pairs || ds->inside_set || ds->cost;
}

int lgd_deltas_collect_par(struct lgd_reader *r, struct lgd_deltas *ds, unsigned int nthreads,
			   struct lgd_merge_counts *counts)
{
	struct part *pt;
	pthread_t *th;
	uint32_t n = nthreads < r->nr_cpus ? nthreads : r->nr_cpus;
	uint32_t started = 0;
	int ret = 0;

	if (one_thread(r, ds, nthreads))
		return lgd_deltas_collect(r, ds, 0, NULL, counts);
	pt = calloc(n, sizeof(*pt));
	th = calloc(n, sizeof(*th));
	if (!pt || !th) {
		ret = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < n && !ret; i++) {
		pt[i].idx = i;
		pt[i].nparts = n;
		ret = part_open(&pt[i], r, ds);
	}
	for (; started < n && !ret; started++)
		if (pthread_create(&th[started], NULL, part_run, &pt[started]))
			ret = -EAGAIN;
	for (uint32_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (uint32_t i = 0; i < n && !ret; i++)
		ret = pt[i].ret < 0 ? pt[i].ret : pt[i].warns ? -EAGAIN : 0;
	if (ret == -ENOMEM)
		goto out;
	if (ret) {		/* damage, a growing file, no /proc: one thread */
		ret = 1;
		goto out;
	}
	if (counts && (ret = lgd_merge_counts_init(counts, r->cpus, r->nr_cpus)))
		goto out;
	for (uint32_t i = 0; i < n && !ret; i++) {
		ret = deltas_add_up(ds, &pt[i].ds);
		if (!ret && counts)
			lgd_merge_counts_add(counts, &pt[i].n);
	}
out:
	for (uint32_t i = 0; pt && i < n; i++)
		part_close(&pt[i]);
	free(pt);
	free(th);
	if (ret == 1)
		return lgd_deltas_collect(r, ds, 0, NULL, counts);
	return ret;
}
