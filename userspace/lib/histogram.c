// SPDX-License-Identifier: GPL-2.0
/*
 * histogram.c: the log-linear histogram of the analyses (struct lgd_hist,
 * lgd_hist.h; our own code in the manner of HdrHistogram, G. Tene): memory
 * bounded whatever the count of values; count, min, max and total exact,
 * quantiles exact up to LGD_HIST_EXACT_MAX values and within 2^-8 relative
 * error beyond; log2 bucket counts for hist's chart.  Layer: analyses
 * (used by deltas.c, durations.c, hist.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"

/* ---- log-linear histogram (liblogdev.h: struct lgd_hist) ---------------- */

#define SUB	(1u << LGD_HIST_SUB_BITS)	/* 128 buckets per power of two */

/* chunk and bucket of magnitude @m; chunk 0 has 2 * SUB buckets */
static void bucket_of(uint64_t m, unsigned int *chunk, unsigned int *idx)
{
	unsigned int e;

	if (m < 2 * SUB) {
		*chunk = 0;
		*idx = (unsigned int)m;
		return;
	}
	e = 63u - (unsigned int)__builtin_clzll(m);		/* 8..63 */
	*chunk = e - LGD_HIST_SUB_BITS;				/* 1..56 */
	*idx = (unsigned int)(m >> (e - LGD_HIST_SUB_BITS)) - SUB;	/* 0..127 */
}

static unsigned int chunk_len(unsigned int chunk)
{
	return chunk ? SUB : 2 * SUB;
}

/* the middle of bucket @idx of @chunk (a magnitude; exact in chunk 0) */
static uint64_t bucket_mid(unsigned int chunk, unsigned int idx)
{
	unsigned int shift;

	if (!chunk)
		return idx;
	shift = chunk;			/* e - 7: width 2^shift */
	return ((uint64_t)(SUB + idx) << shift) + (1ull << (shift - 1));
}

static inline int hist_count(struct lgd_hist *h, int neg, unsigned int c, unsigned int i,
		      uint64_t n)
{
	uint64_t **ch = &h->chunk[neg][c];

	if (!*ch) {
		*ch = calloc(chunk_len(c), sizeof(**ch));
		if (!*ch)
			return -ENOMEM;
	}
	(*ch)[i] += n;
	return 0;
}

static void minmax(struct lgd_hist *h, int64_t lo, int64_t hi)
{
	if (!h->count || lo < h->min)
		h->min = lo;
	if (!h->count || hi > h->max)
		h->max = hi;
}

/* room for @n exact values (@n <= LGD_HIST_EXACT_MAX): grown by doubling */
static int exact_room(struct lgd_hist *h, uint64_t n)
{
	uint32_t nc = h->exact_cap ? h->exact_cap : 8;
	int64_t *ne;

	if (n <= h->exact_cap)
		return 0;
	while (nc < n)
		nc *= 2;
	ne = realloc(h->exact, nc * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	h->exact = ne;
	h->exact_cap = nc;
	return 0;
}

int lgd_hist_add(struct lgd_hist *h, int64_t v)
{
	int neg = v < 0;
	uint64_t m = neg ? -(uint64_t)v : (uint64_t)v;
	unsigned int c, i;

	bucket_of(m, &c, &i);
	if (hist_count(h, neg, c, i, 1))
		return -ENOMEM;
	if (h->count < LGD_HIST_EXACT_MAX) {
		if (exact_room(h, h->count + 1))
			return -ENOMEM;
		h->exact[h->count] = v;
	} else if (h->exact) {		/* one more than kept: histogram only */
		free(h->exact);
		h->exact = NULL;
		h->exact_cap = 0;
	}
	minmax(h, v, v);
	h->count++;
	h->sum += v;
	return 0;
}

int lgd_hist_merge(struct lgd_hist *dst, const struct lgd_hist *src)
{
	if (!src->count)
		return 0;
	for (int neg = 0; neg < 2; neg++)
		for (unsigned int c = 0; c < LGD_HIST_CHUNKS; c++) {
			if (!src->chunk[neg][c])
				continue;
			for (unsigned int i = 0; i < chunk_len(c); i++)
				if (src->chunk[neg][c][i] &&
				    hist_count(dst, neg, c, i, src->chunk[neg][c][i]))
					return -ENOMEM;
		}
	if (dst->count + src->count <= LGD_HIST_EXACT_MAX) {	/* both keep theirs */
		if (exact_room(dst, dst->count + src->count))
			return -ENOMEM;
		memcpy(dst->exact + dst->count, src->exact, src->count * sizeof(*src->exact));
	} else {
		free(dst->exact);
		dst->exact = NULL;
		dst->exact_cap = 0;
	}
	minmax(dst, src->min, src->max);
	dst->count += src->count;
	dst->sum += src->sum;
	return 0;
}

int lgd_hist_is_exact(const struct lgd_hist *h)
{
	return !h->count || h->exact;
}

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* ceil(@n * @q / 100) without overflow: the nearest rank */
static uint64_t rank_of(uint64_t n, unsigned int q)
{
	uint64_t k = n / 100 * q + (n % 100 * q + 99) / 100;

	return k ? k : 1;
}

int64_t lgd_hist_quantile(struct lgd_hist *h, unsigned int q)
{
	uint64_t k, seen = 0;
	int64_t v = 0;

	if (!h->count)
		return 0;
	k = rank_of(h->count, q);
	if (h->exact) {
		qsort(h->exact, h->count, sizeof(*h->exact), i64_cmp);
		return h->exact[k - 1];
	}
	/* negative values, most negative first, then the others upwards */
	for (int c = LGD_HIST_CHUNKS - 1; c >= 0; c--) {
		const uint64_t *ch = h->chunk[1][c];

		for (int i = ch ? (int)chunk_len((unsigned int)c) - 1 : -1; i >= 0; i--) {
			seen += ch[i];
			if (seen >= k) {
				uint64_t m = bucket_mid((unsigned int)c, (unsigned int)i);

				v = m > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)m;
				goto found;
			}
		}
	}
	for (unsigned int c = 0; c < LGD_HIST_CHUNKS; c++) {
		const uint64_t *ch = h->chunk[0][c];

		for (unsigned int i = 0; ch && i < chunk_len(c); i++) {
			seen += ch[i];
			if (seen >= k) {
				uint64_t m = bucket_mid(c, i);

				v = m > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)m;
				goto found;
			}
		}
	}
	v = h->max;	/* not reached: the buckets hold count values */
found:
	return v < h->min ? h->min : v > h->max ? h->max : v;
}

int64_t lgd_hist_total(const struct lgd_hist *h)
{
	return h->sum > INT64_MAX ? INT64_MAX : h->sum < INT64_MIN ? INT64_MIN :
	       (int64_t)h->sum;
}

void lgd_hist_free(struct lgd_hist *h)
{
	for (int neg = 0; neg < 2; neg++)
		for (unsigned int c = 0; c < LGD_HIST_CHUNKS; c++)
			free(h->chunk[neg][c]);
	free(h->exact);
	memset(h, 0, sizeof(*h));
}

/*
 * Powers of two hold whole log-linear buckets (chunk 0: one value each;
 * chunk c >= 1: [2^(c+7), 2^(c+8))), so these counts are exact.
 */
void lgd_hist_log2(const struct lgd_hist *h, uint64_t pos[LGD_HIST_LOG2_N],
		   uint64_t neg[LGD_HIST_LOG2_N])
{
	memset(pos, 0, LGD_HIST_LOG2_N * sizeof(*pos));
	memset(neg, 0, LGD_HIST_LOG2_N * sizeof(*neg));
	for (int s = 0; s < 2; s++) {
		uint64_t *out = s ? neg : pos;

		for (unsigned int c = 0; c < LGD_HIST_CHUNKS; c++) {
			const uint64_t *ch = h->chunk[s][c];

			if (!ch)
				continue;
			for (unsigned int i = 0; i < chunk_len(c); i++) {
				unsigned int k;

				if (!ch[i])
					continue;
				if (c)
					k = c + 8;
				else
					k = i ? 64u - (unsigned int)__builtin_clzll(i) : 0;
				out[k] += ch[i];
			}
		}
	}
}
