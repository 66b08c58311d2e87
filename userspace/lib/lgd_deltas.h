/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_deltas.h: the delta analysis (deltas.c) and the diff of two captures'
 * delta tables (diff.c).
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_DELTAS_H
#define LIBLOGDEV_DELTAS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_streams.h"
#include "lgd_hist.h"
#include "lgd_cost.h"
#include "lgd_breakdown.h"

/* ---- deltas ---------------------------------------------------------- */

/**
 * struct lgd_pair - deltas between site @from and the next record @to of its
 * stream (lgd_streams: by context, CPU or task).
 * Values are signed: a return-probe duration (lgd_deltas_add_value()) is
 * negative when the CPUs' clocks disagree; deltas between records are not.
 * @h:          the distribution (lgd_hist: bounded memory)
 * @min, @max, @median, @p99, @total: ns, after lgd_deltas_finish()
 * @approx:     median and p99 come from the histogram (more than
 *              LGD_HIST_EXACT_MAX values): within LGD_HIST_REL_ERROR
 * @nested_n:   deltas of this pair with deeper-context records between
 *              their two records; @nested_ns the sum of their nested time
 *              (lgd_stream_step, saturating), @nested_recs their records
 * @unmatched:  --durations: entries of @from's probe left without return
 *              (the row's count is short of them); else 0
 * @parent:     --durations with @by_parent: the entry site of the innermost
 *              enclosing open entry of the same task and context when this
 *              one began (LGD_NO_SITE: none)
 * @self_ns:    --durations: sum of self times (a duration minus the
 *              durations of the pairs directly nested in it; saturating)
 * @inside_n, @inside_ns: --durations with @inside_site: durations of this
 *              pair that ran inside an entry of that site (at any depth;
 *              the outermost call of the pair's probe only), and their sum
 * @cost_hits, @cost_ns: --durations with probe costs (@cost of struct
 *              lgd_deltas): records inside this pair's durations whose
 *              cost was taken out of them, and the ns taken out (already
 *              out of every duration, self and inside figure above), the
 *              part of each pair's own two records inside it included
 *              (lgd_cost_floor(): kretprobe and edprint pairs)
 * @comm_hits, @comm_ns: --durations: of logdev's own task-name records
 *              (LOGDEV_REC_COMM), those inside this pair's durations (same
 *              task and context, as nested probe records), counted with or
 *              without probe costs; with them, charged at lgd_cost_comm()
 *              and the ns taken out (included in @cost_hits, @cost_ns)
 * @bd:         with a breakdown (lgd_deltas_opts.bd): where this row's time
 *              went (lgd_breakdown.h), NULL until its first pair
 */
struct lgd_pair {
	uint32_t from, to;
	uint32_t parent;	/* LGD_NO_SITE unless split by parent */
	uint64_t count;
	struct lgd_hist h;
	int64_t min, max, median, p99, total;
	int approx;
	uint64_t nested_n, nested_ns, nested_recs;
	uint64_t unmatched;
	int64_t self_ns;
	uint64_t inside_n;
	int64_t inside_ns;
	uint64_t cost_hits;
	int64_t cost_ns;
	uint64_t comm_hits;
	int64_t comm_ns;
	struct lgd_bd_row *bd;
};

#define LGD_NO_SITE	UINT32_MAX

struct lgd_site_count;

/*
 * struct lgd_deltas - @left_back, @left_huge: pairs of consecutive records
 * of a stream left out because the timestamp went back, or jumped by more
 * than LGD_STEP_MAX_NS (lgd_ts_step()).
 * @by:       LGD_BY_* (lgd_deltas_init(); 0: context)
 * @cut:      pairs cut by lost-events gaps (lgd_streams.cut); how many of
 *            them started at a site: lgd_deltas_cut_at() (@cut_tab: a hash
 *            table of @cut_cap slots, @cut_nr in use)
 * @lost:     records lost (gap counts of kinds counted in records) and
 *            @lost_gaps gaps of any kind
 */
struct lgd_deltas {
	struct lgd_pair *pairs;
	size_t nr, cap;
	uint32_t *pair_hash;		/* index + 1 of each pair by (from, to, parent) */
	size_t pair_hash_cap, pair_hash_nr;
	int pairs_moved;		/* sorted since indexed */
#define LGD_PAIR_MEMO 64
	uint32_t pair_memo[LGD_PAIR_MEMO];	/* by to site % 64: the pair last found */
	int by;
	struct lgd_streams st;
	int st_ready;
	uint64_t left_back, left_huge;
	uint64_t cut;
	struct lgd_site_count *cut_tab;
	size_t cut_cap, cut_nr;
	uint64_t lost, lost_gaps, lost_unknown;
	uint64_t records;	/* records fed (items of kind LGD_ITEM_REC) */
	int cut_err;
	/* --durations options, given to lgd_deltas_init() (struct lgd_deltas_opts) */
	const uint32_t (*user_pairs)[2];	/* edprint (entry, return) site pairs */
	size_t nr_user_pairs;
	int by_parent;
	uint32_t inside_site;
	int inside_set;
	const struct lgd_cost_sites *cost;
	unsigned int cost_kinds;	/* bit per enum logdev_cost_kinds of a record charged */
	unsigned int floor_kinds;	/* ... of a pair whose own records were taken out */
	uint64_t floor_pairs;	/* pairs whose own records' part was taken out
				 * (lgd_cost_floor(); in lgd_pair.cost_ns) */
	int64_t floor_max_ps;	/* the largest part taken out of one of them */
	int64_t floor_min_raw;	/* the shortest of them as measured (ns) */
	uint64_t comm_inside;	/* --durations: task-name records inside a pair
				 * (each once, however deep: lgd_pair.comm_hits
				 * counts one per pair holding it) */
	struct lgd_bd *bd;	/* the breakdown's timelines (lgd_deltas_opts) */
	struct lgd_pair *last_pair;	/* lgd_deltas_add(): the pair it made, */
	uint64_t last_from_ts;		/* its first record's time, CPU, pid */
	uint32_t last_from_cpu, last_from_pid;
};

/**
 * struct lgd_deltas_opts - a delta table's options, given at init
 * @by:         LGD_BY_* (0: context)
 * @user_pairs, @nr_user_pairs: --durations: edprint (entry, return) site
 *              pairs (the array must outlive the table)
 * @by_parent:  --durations: split by parent
 * @inside_site, @inside_set: --durations: the time inside this site
 * @cost:       --durations: the cost of each site's record (lgd_cost.h),
 *              taken out of the durations that hold it; NULL: raw times
 *              (the table must outlive the deltas)
 * @bd:         split every pair into where its time went (lgd_bd_open();
 *              the caller closes it after the table), NULL: not
 */
struct lgd_deltas_opts {
	int by;
	const uint32_t (*user_pairs)[2];
	size_t nr_user_pairs;
	int by_parent;
	uint32_t inside_site;
	int inside_set;
	const struct lgd_cost_sites *cost;
	struct lgd_bd *bd;
};

/** lgd_deltas_init() - an empty table with options @o (none allocated yet). */
void lgd_deltas_init(struct lgd_deltas *ds, const struct lgd_deltas_opts *o);

enum lgd_sort { LGD_SORT_TOTAL, LGD_SORT_MAX, LGD_SORT_P99, LGD_SORT_MEDIAN,
	       LGD_SORT_COUNT };

/**
 * lgd_deltas_add() - feed items in merge order (pairs across a step that is
 * not LGD_STEP_OK are counted in @left_back / @left_huge, not kept).
 * Return: 0 or -ENOMEM.
 */
int lgd_deltas_add(struct lgd_deltas *ds, const struct lgd_item *it);
/**
 * lgd_deltas_add_value() - add one value of @ns (may be negative) to pair
 * (@from, @to), e.g. a return-probe duration (entry site, return site).
 * Return: 0 or -ENOMEM.
 */
int lgd_deltas_add_value(struct lgd_deltas *ds, uint32_t from, uint32_t to,
			int64_t ns);
/**
 * lgd_deltas_pair() - the row of pair (@from, @to, @parent: LGD_NO_SITE
 * unless split by parent), made empty if it is not there yet.
 * Return: the row (valid until the next row is made), or NULL (no memory).
 */
struct lgd_pair *lgd_deltas_pair(struct lgd_deltas *ds, uint32_t from, uint32_t to,
				 uint32_t parent);
/**
 * lgd_deltas_cut_merge() - add @src's pairs cut by lost events (@cut, per
 * site: @cut_tab) to @dst's.  Return: 0 or -ENOMEM.
 */
int lgd_deltas_cut_merge(struct lgd_deltas *dst, const struct lgd_deltas *src);
/** lgd_deltas_cut_at() - pairs from @site cut by lost events (@ds->cut_tab). */
uint64_t lgd_deltas_cut_at(const struct lgd_deltas *ds, uint32_t site);
/**
 * lgd_deltas_finish() - compute min/median/p99/max/total (saturating at
 * INT64_MIN/INT64_MAX ns, never overflowing) per pair and sort
 * pairs by @key descending (ties: count desc, then from, to ascending).
 * median and p99 are nearest-rank: sorted[ceil(q*n)-1].
 */
void lgd_deltas_finish(struct lgd_deltas *ds, enum lgd_sort key);
void lgd_deltas_free(struct lgd_deltas *ds);

/* ---- diff of two captures' delta tables ------------------------------ */

/**
 * struct lgd_diff_side - one capture's numbers for a pair (ns, records)
 * @approx:    median and p99 from the histogram (lgd_pair.approx)
 * @cut:       pairs starting at its first site were cut by lost events
 * @unmatched: --durations: entries of its probe left without return
 * @bd_n, @bd_ns: with a breakdown, its complete pairs and their sums per
 *            bucket (lgd_bd_row; 0: none); @bd_incomplete the others
 */
struct lgd_diff_side {
	uint64_t count;
	int64_t median, p99;
	int approx, cut;
	uint64_t unmatched;
	uint64_t bd_n, bd_incomplete;
	int64_t bd_ns[LGD_BD_NR];
};

enum { LGD_DIFF_IN_A = 1, LGD_DIFF_IN_B = 2, LGD_DIFF_BOTH = 3 };

/**
 * struct lgd_diff_row - one call-site pair, matched by file, func and line
 *              (and format, where a capture has several sites there)
 * @from, @to:  the pair's labels: "func:line", or "file:func:line" where
 *              the two captures hold that func:line in two files; "#N"
 *              appended where a capture has several sites at that
 *              file:func:line (N: rank of the format among the formats
 *              both captures have there)
 * @present:    LGD_DIFF_IN_A, LGD_DIFF_IN_B or LGD_DIFF_BOTH
 * @a, @b:      each side's numbers (zero where absent); pairs of one
 *              capture at the same places are merged
 * @ratio:      b.median / a.median (both sides only; INFINITY if
 *              a.median is 0 and b.median is not, 1 if both are 0)
 * @change_pct: (b.median - a.median) / a.median * 100, same cases
 * @warn:       LGD_DIFF_W_* bits: the row could not be matched one to one
 */
struct lgd_diff_row {
	char *from, *to;
	int present;
	struct lgd_diff_side a, b;
	double ratio, change_pct;
	unsigned int warn;
};

/* an end's site shares file, func, line and format with another site of
 * its capture: diff cannot tell them apart, their pairs are merged */
#define LGD_DIFF_W_MERGED	1
/* a site left unmatched: matched only by its file name or without a file,
 * it could be any of several sites of the other capture */
#define LGD_DIFF_W_AMBIGUOUS	2

struct lgd_diff {
	struct lgd_diff_row *rows;
	size_t nr;
};

/**
 * lgd_diff_build() - match the pairs of two finished delta tables (@a with
 * sites @sa, @b with @sb) by the file, function and line of their sites,
 * and their format where a capture has several sites at one place; what
 * the same file path left unmatched then by file name (the path's last
 * component: one module built in two trees), then a site with an empty
 * file with that func:line in any file, each only where no other could be
 * meant (one candidate on each side).  Rows that cannot be
 * matched one to one carry LGD_DIFF_W_* bits in @warn.  Rows: pairs of both
 * sides first,
 * largest median increase (b - a, ns) first, so the worst regressions lead
 * and improvements come last; then pairs only in A, then only in B (each
 * by label).  Return: 0 or -ENOMEM.
 */
int lgd_diff_build(struct lgd_diff *df, const struct lgd_deltas *a,
		  const struct lgd_sites *sa, const struct lgd_deltas *b,
		  const struct lgd_sites *sb);
/**
 * lgd_diff_min_count() - drop the rows of @df with fewer than @min deltas
 * (records) on a side where they are present (rare pairs are noise).
 */
void lgd_diff_min_count(struct lgd_diff *df, uint64_t min);
void lgd_diff_free(struct lgd_diff *df);
/**
 * lgd_site_match() - the site of capture @s at the place of @x (a site of
 * another capture), by lgd_diff_build()'s rule: same file path, func, line
 * (and format where a capture has several sites there); else the same file
 * name in another directory; else an empty file on either side.
 * Return: its id; -1 none; -2 several could be meant (not the same path).
 */
int64_t lgd_site_match(const struct lgd_sites *s, const struct lgd_site *x);

#endif /* LIBLOGDEV_DELTAS_H */
