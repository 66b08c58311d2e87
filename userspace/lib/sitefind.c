// SPDX-License-Identifier: GPL-2.0
/*
 * sitefind.c: a user's site argument found in a capture's sites, and the
 * closest labels when it names none (layer: renderer, beside render.c's
 * labels; lgd_sitefind.h).  The one place every verb that takes a site
 * argument (deltas --inside/--pair, hist, diff, export) looks it up, so
 * a wrong one is an error naming what is there, never a silent 0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "lgd_sitefind.h"

/*
 * a site that is its own label (not merged into another: lgd_site.canon;
 * not a definition the records do not use: lgd_site.unused)
 */
static const struct lgd_site *own_site(const struct lgd_sites *s, uint32_t i)
{
	const struct lgd_site *st = s->by_id[i];

	return st && !st->canon && !st->unused ? st : NULL;
}

int64_t lgd_site_find(const struct lgd_sites *s, const char *arg)
{
	int64_t probe = -1;
	char *first = NULL;

	for (uint32_t i = 0; i < s->nr; i++) {
		const struct lgd_site *st = own_site(s, i);
		char *l;
		int eq;

		if (!st)
			continue;
		l = lgd_site_label_alloc(s, i);
		eq = l && !strcmp(l, arg);
		if (eq) {
			free(l);
			free(first);
			return i;
		}
		if (!strcmp(st->file, "probe") && !strcmp(st->func, arg)) {
			if (probe < 0) {
				probe = i;
				first = l;
				l = NULL;
			} else if (probe >= 0 && first && l && strcmp(first, l)) {
				probe = -2;	/* one name, several labels */
			}
		}
		free(l);
	}
	free(first);
	return probe;
}

/* Levenshtein distance of @a and @b (each cut at 255 bytes) */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned row[256], n = (unsigned)strnlen(b, 255), m = (unsigned)strnlen(a, 255);

	for (unsigned j = 0; j <= n; j++)
		row[j] = j;
	for (unsigned i = 1; i <= m; i++) {
		unsigned diag = row[0];

		row[0] = i;
		for (unsigned j = 1; j <= n; j++) {
			unsigned up = row[j];
			unsigned best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[n];
}

/* lower is closer: tier (name, prefix, substring, other) then distance */
static unsigned long closeness(const struct lgd_site *st, const char *label, const char *arg)
{
	unsigned d1 = edit_distance(arg, label), d2 = edit_distance(arg, st->func);
	unsigned d = d1 < d2 ? d1 : d2, tier;

	if (!strcmp(st->func, arg))
		tier = 0;
	else if (!strncmp(label, arg, strlen(arg)) || !strncmp(st->func, arg, strlen(arg)))
		tier = 1;
	else if (strstr(label, arg) || strstr(arg, st->func))
		tier = 2;
	else
		tier = 3;
	return (unsigned long)tier << 16 | (d > 0xffff ? 0xffff : d);
}

int lgd_site_closest(const struct lgd_sites *s, const char *arg, char **out, int max)
{
	unsigned long score[16];
	int n = 0;

	if (max > 16)
		max = 16;
	for (uint32_t i = 0; i < s->nr && max > 0; i++) {
		const struct lgd_site *st = own_site(s, i);
		unsigned long sc;
		char *l;
		int k;

		if (!st)
			continue;
		l = lgd_site_label_alloc(s, i);
		if (!l)
			goto err;
		sc = closeness(st, l, arg);
		/* insertion into the sorted best @max (ties: label order) */
		for (k = n; k > 0 && (score[k - 1] > sc ||
				      (score[k - 1] == sc && strcmp(out[k - 1], l) > 0)); k--)
			;
		if (k >= max) {
			free(l);
			continue;
		}
		if (n == max)
			free(out[--n]);
		memmove(out + k + 1, out + k, (size_t)(n - k) * sizeof(*out));
		memmove(score + k + 1, score + k, (size_t)(n - k) * sizeof(*score));
		out[k] = l;
		score[k] = sc;
		n++;
	}
	return n;
err:
	while (n > 0)
		free(out[--n]);
	return -ENOMEM;
}
