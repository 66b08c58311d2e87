/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_hist.h: log-linear histograms and their SVG chart (hist.c, deltas.c).
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_HIST_H
#define LIBLOGDEV_HIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_meta.h"

/* ---- log-linear histograms (deltas.c) --------------------------------- */

/*
 * A distribution in bounded memory (HDR-histogram style; our own code):
 * values of magnitude below 256 ns have one bucket each; above, each power
 * of two [2^e, 2^(e+1)) is split into 128 buckets of width 2^(e-7).  A
 * bucket is shown by its middle, so a percentile read from the histogram
 * is within 2^-8 (< 0.4 %) of the exact nearest-rank value (relative to
 * it), and exact below 256 ns.  Negative values (durations) have buckets
 * of their own.  Up to LGD_HIST_EXACT_MAX values are also kept as they
 * are, and while a histogram holds no more than that its percentiles are
 * exact.  count, min, max and the sum are always exact.
 * Memory: 1 KB per power of two in use (2 KB for values below 256 ns), per
 * sign: at most 116 KB, plus up to LGD_HIST_EXACT_MAX * 8 bytes, whatever
 * the number of values.
 */
#define LGD_HIST_SUB_BITS	7
#define LGD_HIST_CHUNKS		57	/* chunk 0: 0..255; chunk k: [2^(k+7), 2^(k+8)) */
#define LGD_HIST_EXACT_MAX	1024
/* the stated bound of a histogram percentile's relative error */
#define LGD_HIST_REL_ERROR	"2^-8 (0.39 %)"

/**
 * struct lgd_hist - @count values, @min, @max (ns, valid if @count),
 * @sum (exact: 128 bits), @chunk[0] non-negative values, @chunk[1]
 * magnitudes of negative ones, @exact (the values while @count <=
 * LGD_HIST_EXACT_MAX, else NULL; @exact_cap allocated, grown by doubling)
 */
struct lgd_hist {
	uint64_t count;
	int64_t min, max;
	__int128 sum;
	uint64_t *chunk[2][LGD_HIST_CHUNKS];
	int64_t *exact;
	uint32_t exact_cap;
};

/** lgd_hist_add() - add value @v (ns).  Return: 0 or -ENOMEM. */
int lgd_hist_add(struct lgd_hist *h, int64_t v);
/** lgd_hist_merge() - add every value of @src to @dst.  0 or -ENOMEM. */
int lgd_hist_merge(struct lgd_hist *dst, const struct lgd_hist *src);
/**
 * lgd_hist_quantile() - nearest-rank percentile @q (0 < @q <= 100): the
 * ceil(q/100 * count)-th smallest value; exact while @exact holds every
 * value (count <= LGD_HIST_EXACT_MAX), else the middle of its bucket
 * clamped to [min, max] (error bound above).  0 for an empty histogram.
 * Sorts @exact in place.
 */
int64_t lgd_hist_quantile(struct lgd_hist *h, unsigned int q);
/*
 * Log2 buckets (logdev hist, like bpftrace's hist()): bucket 0 holds the
 * value 0, bucket k (1..64) the values in [2^(k-1), 2^k); for negative
 * values the same by magnitude.
 */
#define LGD_HIST_LOG2_N		65
/**
 * lgd_hist_log2() - the count of @h's values in each log2 bucket: @pos[k]
 * non-negative values, @neg[k] negative ones by magnitude (@neg[0] is 0).
 * Exact: a log2 bucket is a whole number of log-linear buckets.
 */
void lgd_hist_log2(const struct lgd_hist *h, uint64_t pos[LGD_HIST_LOG2_N],
		   uint64_t neg[LGD_HIST_LOG2_N]);
/**
 * lgd_log2_label() - the label of log2 bucket @k (@neg: of negative values)
 * into @b (snprintf): "[0]", "[1]", "[2, 4)", "[1K, 2K)" with binary
 * suffixes K M G T P E (2^10 ... 2^60) where a bound is a multiple of one;
 * negative: "[-1]", "(-4, -2]".  Return: as snprintf.
 */
int lgd_log2_label(char *b, size_t n, unsigned int k, int neg);

/**
 * struct lgd_svg_series - one distribution of a histogram chart
 * @name:   legend text (raw capture text allowed: it is escaped)
 * @pos, @neg: log2 bucket counts (lgd_hist_log2())
 * @count, @min, @median, @max: records and ns, for the legend
 * @marks:  a note printed after the legend line ("" or NULL: none), e.g.
 *          "! pairs cut by lost events"
 * @stack, @nstack, @stack_names: a chart of one series only: each bar of a
 *          non-negative bucket k split into @nstack parts in proportion to
 *          @stack[k * @nstack + i] (ns; e.g. the breakdown's buckets), part
 *          i named @stack_names[i] in a legend; NULL: plain bars
 */
struct lgd_svg_series {
	const char *name;
	const uint64_t *pos, *neg;
	uint64_t count;
	int64_t min, median, max;
	const char *marks;
	const int64_t *stack;
	unsigned int nstack;
	const char *const *stack_names;
};

/**
 * lgd_svg_hist() - write a self-contained SVG 1.1 chart of @n (1 or 2)
 * series' log2 histograms to @f (hist.c: our own code): title @title, x
 * axis the buckets (ns), y axis the count (records), bars side by side per
 * bucket in two colours, a legend line per series with count, min, median
 * and max (us).  All text is lgd_escape()d, then XML-escaped: the file is
 * well-formed XML whatever bytes the names hold.
 * Return: 0, -EINVAL (@n not 1 or 2), or -EIO (a write failed).
 */
int lgd_svg_hist(FILE *f, const char *title, const struct lgd_svg_series *s, int n);
/** lgd_hist_is_exact() - are @h's percentiles exact (all values kept)? */
int lgd_hist_is_exact(const struct lgd_hist *h);
/** lgd_hist_total() - the sum, saturated to [INT64_MIN, INT64_MAX] ns. */
int64_t lgd_hist_total(const struct lgd_hist *h);
void lgd_hist_free(struct lgd_hist *h);

#endif /* LIBLOGDEV_HIST_H */
