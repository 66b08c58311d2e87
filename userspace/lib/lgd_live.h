/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_live.h: the live merge of --follow (live.c): sub-buffers as they
 * arrive, merged.
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_LIVE_H
#define LIBLOGDEV_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_merge.h"

/* ---- live follow (live.c): sub-buffers as they arrive, merged ---------- */

/*
 * A live merge: the bytes read from each CPU's trace_pipe_raw go in
 * (lgd_live_feed()), items come out merged by time (lgd_live_next()) once
 * no CPU can still deliver an older one, or once they are old enough: a
 * bounded reorder window.  An item is handed out when
 *   - every CPU has an item waiting (the plain k-way merge: each CPU's data
 *     is in time order, so nothing older can come), or
 *   - it is older than the newest record seen by @window_ns of trace clock,
 *   - it has waited @window_ns of wall time (CLOCK_MONOTONIC, given by the
 *     caller as @now_ns) since its sub-buffer was fed, or
 *   - the sub-buffers held exceed @max_bytes (the reorder buffer is full:
 *     handed out early, LGD_LIVE_EARLY), or the caller drains (@drain).
 * A record older than one already handed out (its CPU's data came after
 * the window) is handed out with LGD_LIVE_LATE, never dropped or moved.
 * Memory: the sub-buffers held (at most @max_bytes plus what one
 * lgd_live_feed() adds before the caller calls lgd_live_next() again),
 * and per CPU one partial sub-buffer, one payload copy and a decoder
 * (stream.c's, as for a capture file: data problems warned as there, the
 * repeating kinds LGD_WARN_BURST times each).
 * Items are as lgd_merge_next() gives them: comm records go to the
 * reader's task names (items only with LGD_ITEMS_COMM), absurd timestamps
 * become LGD_GAP_BAD_TS gaps unless LGD_ITEMS_ABSURD, filtered items are
 * skipped unless LGD_ITEMS_FILTERED (then marked .filtered), the reader's
 * filter and recorder pid apply.  @file_off is the byte offset in the
 * CPU's stream of data fed.
 */
#define LGD_LIVE_LATE	1	/* older than an item already handed out */
#define LGD_LIVE_EARLY	2	/* handed out before its window: buffer full */

struct lgd_live_cpu;
struct lgd_merge_shared;

/**
 * struct lgd_live - a live merge of @nr_cpus CPUs of reader @r (metadata:
 * header, sites, symbols; task names added as comm records arrive)
 * @window_ns:  reorder window, trace clock and wall time (ns)
 * @max_bytes:  bound of the sub-buffers held (bytes)
 * @held_bytes: sub-buffers held now (bytes)
 * @newest_ts:  newest record timestamp fed (ns)
 * @last_ts:    timestamp of the last record handed out (ns)
 * @late, @early: records handed out with LGD_LIVE_LATE / LGD_LIVE_EARLY
 * @records:    records handed out (comm records not counted)
 * @on_unknown_site: if set, called with a record's site id when the reader
 *              does not know it, before the filter decides (re-read the
 *              formats there: sites register when they first fire)
 */
struct lgd_live {
	struct lgd_reader *r;
	struct lgd_live_cpu **cpu;
	struct lgd_merge_shared *sh;	/* the CPUs' warning counts */
	uint32_t nr_cpus;
	uint64_t window_ns, max_bytes, held_bytes;
	uint64_t newest_ts, last_ts;
	int have_last;
	uint64_t late, early, records;
	struct lgd_merge_counts counts;	/* its own, as a file merge's */
	unsigned int items;	/* enum lgd_items, given at init */
	void (*on_unknown_site)(void *arg, struct lgd_reader *r, uint32_t site);
	void *arg;
};

/**
 * struct lgd_live_opts - a live merge's options, given at init
 * @window_ns: the reorder window (ns)
 * @max_bytes: sub-buffers held at most (raised to 2 sub-buffers per CPU)
 * @items:     enum lgd_items, OR-ed
 * @on_unknown_site, @arg: as struct lgd_live's (may be NULL)
 */
struct lgd_live_opts {
	uint64_t window_ns, max_bytes;
	unsigned int items;
	void (*on_unknown_site)(void *arg, struct lgd_reader *r, uint32_t site);
	void *arg;
};

/**
 * lgd_live_open() - a live merge of the CPUs @cpus[0..@nr-1] of @r (which
 * gives subbuf_size) with options @o; the lost-events counts of @r
 * (@lv->counts, lgd_merge_lost(): index i is @cpus[i]) start at 0.
 * Return: 0 or -ENOMEM / -EINVAL (@nr 0).
 */
int lgd_live_open(struct lgd_live *lv, struct lgd_reader *r, const uint32_t *cpus,
		  uint32_t nr, const struct lgd_live_opts *o);
/** lgd_live_init() - lgd_live_open() with only a window and a bound. */
static inline int lgd_live_init(struct lgd_live *lv, struct lgd_reader *r, const uint32_t *cpus,
				uint32_t nr, uint64_t window_ns, uint64_t max_bytes)
{
	struct lgd_live_opts o = { .window_ns = window_ns, .max_bytes = max_bytes };

	return lgd_live_open(lv, r, cpus, nr, &o);
}
/**
 * lgd_live_feed() - @len bytes read from CPU index @i (into @cpus of
 * lgd_live_init()) at wall time @now_ns; a read may end inside a
 * sub-buffer (a pipe), the rest comes with the next call.  Never refuses
 * data: call lgd_live_next() after it (it hands out early when over
 * @max_bytes).  Return: 0 or -ENOMEM / -EINVAL.
 */
int lgd_live_feed(struct lgd_live *lv, uint32_t i, const void *data, size_t len,
		 uint64_t now_ns);
/**
 * lgd_live_next() - the next item that may be handed out at wall time
 * @now_ns (everything held if @drain), *@flags its LGD_LIVE_* bits.
 * Data problems go to the reader's warning callback.
 * Return: 1 with *@it filled (payload valid until the next call), 0 if
 * none may go out now, -ENOMEM.
 */
int lgd_live_next(struct lgd_live *lv, uint64_t now_ns, int drain, struct lgd_item *it,
		 unsigned int *flags);
/**
 * lgd_live_deadline() - the wall time (ns, as the @now_ns given to
 * lgd_live_feed()) at which the oldest-fed item held becomes due by the
 * window, UINT64_MAX if nothing is held: how long a caller may wait.
 */
uint64_t lgd_live_deadline(const struct lgd_live *lv);
/** lgd_live_cpu_id() - the CPU number of index @i. */
uint32_t lgd_live_cpu_id(const struct lgd_live *lv, uint32_t i);
void lgd_live_free(struct lgd_live *lv);

#endif /* LIBLOGDEV_LIVE_H */
