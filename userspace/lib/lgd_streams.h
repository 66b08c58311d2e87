/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_streams.h: which records pair (streams.c).
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_STREAMS_H
#define LIBLOGDEV_STREAMS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_merge.h"

/* ---- pairing streams (streams.c) -------------------------------------- */

/*
 * Which records pair (report's "+D us", deltas, diff): a record with the
 * previous record of its stream.  streams.c's file comment has the rule
 * and the exact definition of nested time.
 */
enum lgd_by {
	LGD_BY_CONTEXT = 0,	/* (CPU, context level): the default */
	LGD_BY_CPU = 1,		/* CPU, any context (before issue 11) */
	LGD_BY_TASK = 2,	/* task context: pid across CPUs (pid 0 and
				 * interrupts: as LGD_BY_CONTEXT) */
};

/** lgd_by_parse() - "context", "cpu", "task" -> LGD_BY_*, else -EINVAL. */
int lgd_by_parse(const char *name);
/** lgd_by_name() - the name of LGD_BY_* @by ("?" if none). */
const char *lgd_by_name(int by);

/* CPUs from this on are not paired (the reader gives none: LGD_MAX_CPU) */
#define LGD_STREAMS_MAX_CPU	4096u

struct lgd_stream;
struct lgd_run;

/**
 * struct lgd_stream_step - a record's pair with its stream's previous one
 * @has_prev:  0: the first record of its stream (or the first after a gap,
 *             or after a record the filter left out: lgd_item.filtered)
 * @kind, @ns: lgd_ts_step() of the two timestamps (only LGD_STEP_OK is a
 *             delta)
 * @from_site, @from_cpu, @from_pid: the previous record's site, CPU and pid
 * @nested_ns, @nested_recs: nested time between the two (streams.c): sum of
 *             the spans of the runs of deeper-context records, ns; records
 */
struct lgd_stream_step {
	int has_prev;
	enum lgd_step kind;
	uint64_t ns;
	uint32_t from_site, from_cpu, from_pid;
	uint64_t nested_ns, nested_recs;
};

/**
 * struct lgd_streams - every stream's previous record (streams.c)
 * @cut:    pairs cut by lost-events gaps (a stream with a previous record
 *          forgotten at a gap), also given one by one to @on_cut if set
 */
struct lgd_streams {
	int by;
	uint32_t nr_cpu;
	struct lgd_stream *cs;		/* per CPU, 4 levels */
	struct lgd_run *runs;		/* per CPU, 3 levels */
	uint64_t *gaps;			/* per CPU: gaps seen */
	uint32_t *cur_pid;		/* per CPU: pid of its latest task-context record */
	struct lgd_stream *tasks;	/* LGD_BY_TASK: hash of pids */
	size_t tasks_cap, nr_tasks;
	uint64_t cut;
	uint64_t left_back, left_huge;	/* pairs whose step is no delta (lgd_ts_step()) */
	void (*on_cut)(void *arg, uint32_t site);	/* a pair from @site cut */
	void *cut_arg;
	const uint8_t *skip;	/* per site id (@nr_skip): records of a site set
				 * here pass without pairing or counting as
				 * nested (breakdown markers, lgd_bd_site_marks());
				 * NULL: none.  The owner keeps the array. */
	uint32_t nr_skip;
};

/**
 * lgd_streams_open() - no stream yet, pairing by @by (LGD_BY_*); each pair
 * cut by a gap given to @on_cut(@cut_arg, its first site) if @on_cut is set.
 */
void lgd_streams_open(struct lgd_streams *s, int by, void (*on_cut)(void *arg, uint32_t site),
		      void *cut_arg);
/** lgd_streams_init() - lgd_streams_open() without @on_cut. */
static inline void lgd_streams_init(struct lgd_streams *s, int by)
{
	lgd_streams_open(s, by, NULL, NULL);
}
/**
 * lgd_streams_add() - feed items in merge order: a record fills *@step with
 * its pair (if it has one); a gap forgets its CPU's streams.  A pair whose
 * step is LGD_STEP_BACK or LGD_STEP_HUGE is counted in @left_back or
 * @left_huge (no delta: every verb says so, lgd_fmt_left_out_n()).
 * Return: 0 or -ENOMEM.
 */
int lgd_streams_add(struct lgd_streams *s, const struct lgd_item *it,
		   struct lgd_stream_step *step);
/** lgd_streams_finish() - after the last item: count the cut task streams. */
void lgd_streams_finish(struct lgd_streams *s);
/** lgd_streams_free() - free the state, keep @by and @on_cut (ready again). */
void lgd_streams_free(struct lgd_streams *s);

#endif /* LIBLOGDEV_STREAMS_H */
