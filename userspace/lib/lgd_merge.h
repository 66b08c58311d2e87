/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_merge.h: items (records and lost-events gaps) and the k-way merge of a
 * reader's CPUs (merge.c); the sub-buffer to item steps both merges share
 * (stream.c).
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_MERGE_H
#define LIBLOGDEV_MERGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_read.h"

/* ---- items and merge ------------------------------------------------- */

enum lgd_item_kind {
	LGD_ITEM_REC = 1,
	LGD_ITEM_GAP = 2,
};

/*
 * Lost events: one kind per cause, named as the header fields and the
 * stats file's counters (docs/FORMAT.md, "Lost events").  @count is
 * records unless said otherwise.
 */
enum lgd_gap_kind {
	LGD_GAP_DROPPED = 1,	/* dropped_before: discard mode, buffer full */
	LGD_GAP_OVERRUN = 2,	/* overrun_before: overwritten records */
	LGD_GAP_SUBBUFS = 3,	/* seq jump not explained by overrun_before:
				 * @count is sub-buffers, not records */
	LGD_GAP_CORRUPT = 4,	/* rest of a sub-buffer skipped as corrupt;
				 * @count is bytes skipped */
	LGD_GAP_NESTING_LOST = 5,/* nesting_lost_before: nesting too deep, or
				 * the sub-buffer to enter still being written */
	LGD_GAP_TOO_BIG = 6,	/* too_big_before: larger than a sub-buffer */
	LGD_GAP_LOST = 7,	/* v1 capture's dropped_before: dropped,
				 * nesting_lost or too_big, not told apart */
	LGD_GAP_BAD_TS = 8,	/* a record with an absurd timestamp (0 or
				 * 2^64-1, lgd_ts_absurd()) stands here, left
				 * out (no LGD_ITEMS_ABSURD); @count 1 */
};

#define LGD_GAP_NR	9	/* by_kind[] arrays: indexed by enum lgd_gap_kind */

/**
 * struct lgd_lost - the lost events one CPU's kept gaps told of
 * @cpu:     the CPU number
 * @by_kind: per enum lgd_gap_kind (records; LGD_GAP_SUBBUFS sub-buffers,
 *           LGD_GAP_CORRUPT bytes; [0] unused)
 */
struct lgd_lost {
	uint32_t cpu;
	uint64_t by_kind[LGD_GAP_NR];
};

/**
 * struct lgd_merge_counts - what one merge (file: struct lgd_merge, live:
 * struct lgd_live) counted of the items it handed out; its own, zero at
 * its open, read after its end (lgd_merge_take_counts() keeps them past
 * lgd_merge_free())
 * @recs_seen, @recs_kept: records met / kept by the filter (task names and
 *             the recorder's records not counted)
 * @recorder_out: the recorder's records left out
 * @bad_type:  records kept whose type no version of the format has (damage:
 *             they print as "<type? ...>", and the verbs warn)
 * @absurd_ts: records with an absurd timestamp met (the file merge's end
 *             warns once with the count)
 * @lost, @nr_lost: per CPU index, the lost events of the gaps it kept
 *             (lgd_merge_lost())
 */
struct lgd_merge_counts {
	uint64_t recs_seen, recs_kept;
	uint64_t recorder_out;
	uint64_t bad_type;
	uint64_t absurd_ts;
	struct lgd_lost *lost;
	uint32_t nr_lost;
};

/**
 * lgd_add_sat() - @a + @b, or UINT64_MAX if that does not fit: a count
 * summed from untrusted headers never wraps to a small number.
 */
static inline uint64_t lgd_add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/**
 * lgd_ts_absurd() - is @ts a timestamp no trace clock gives: 0 (before the
 * clock started) or 2^64-1 (all ones: a field never written)?  Such a
 * record is kept out of every statistic (lgd_merge).
 */
static inline int lgd_ts_absurd(uint64_t ts)
{
	return ts == 0 || ts == UINT64_MAX;
}

/**
 * lgd_gap_kind_name() - "dropped", "overrun", "subbufs", "corrupt",
 * "nesting_lost", "too_big", "lost", "bad_ts" (or "?").
 */
const char *lgd_gap_kind_name(int kind);
/** lgd_ctx_name() - "task", "softirq", "hardirq", "nmi" or "ctx?". */
const char *lgd_ctx_name(int ctx);

/**
 * struct lgd_item - one record or one lost-events gap, in stream position
 * @kind:     enum lgd_item_kind
 * @cpu:      CPU the item belongs to
 * @ts:       ns; for gaps the sub-buffer's first_ts (never less than the
 *            previous item's ts on that CPU)
 * @rec:      record header (copy) for LGD_ITEM_REC; @rec.ctx holds the
 *            enum logdev_ctx only (bits 0-1 of the stored byte)
 * @rec_flags: the other bits of that byte: LOGDEV_REC_F_CUT
 * @payload:  @rec.arg_bytes bytes, valid until the next call on the merge
 * @gap_kind, @gap_count: for LGD_ITEM_GAP (see enum lgd_gap_kind)
 * @seq:      seq of the sub-buffer the item came from
 * @file_off: file offset of the record / sub-buffer (bytes)
 */
struct lgd_item {
	int kind;
	uint32_t cpu;
	uint64_t ts;
	struct logdev_rec_hdr rec;
	uint8_t rec_flags;
	const uint8_t *payload;
	int gap_kind;
	uint64_t gap_count;
	uint64_t seq;
	uint64_t file_off;
	int filtered;		/* left out by the reader's filter or as the
				 * recorder's record (lgd_reader_set_filter()):
				 * only seen with LGD_ITEMS_FILTERED */
	int ts_absurd;		/* a record whose own timestamp (@rec.ts) is absurd
				 * (lgd_ts_absurd()); @ts is then its CPU's previous
				 * record's, to keep it in place in the merge */
};

struct lgd_cpu_stream;

/* the merge's read-ahead (bytes): per CPU, and in all (split between CPUs) */
#define LGD_READ_AHEAD_CPU	(256u << 10)
#define LGD_READ_AHEAD_ALL	(4u << 20)

/*
 * What a merge (lgd_merge_open(), lgd_live_open()) hands out besides the
 * records its filter keeps and the gaps: given at init, never changed.
 */
enum lgd_items {
	LGD_ITEMS_COMM = 1,	/* comm records too (report --raw; durations:
				 * logdev's task-name records inside pairs,
				 * deltas.c); one with an absurd timestamp
				 * only with LGD_ITEMS_ABSURD */
	LGD_ITEMS_ABSURD = 2,	/* records with an absurd timestamp (ts_absurd
				 * set) instead of a LGD_GAP_BAD_TS gap in their
				 * place (report marks them) */
	LGD_ITEMS_FILTERED = 4,	/* the items the filter leaves out too, marked
				 * .filtered (for lgd_streams_add(): no pair
				 * across them) */
	LGD_ITEMS_NAMES_LATE = 8,	/* no task-name pass before this merge:
				 * its caller does not use the filter's verdict
				 * (a pass pairing every record); the names are
				 * added as the merge meets them, and are all
				 * known to the merges after it */
};

/** struct lgd_merge - k-way merge state (heap of CPU streams). */
struct lgd_merge {
	struct lgd_reader *r;
	struct lgd_cpu_stream **heap;
	uint32_t nr;
	struct lgd_cpu_stream *last;	/* stream of the item last returned */
	struct lgd_cpu_stream **all;
	uint32_t nr_all;
	unsigned int items;	/* LGD_ITEMS_*: given to lgd_merge_open() */
	struct lgd_merge_counts counts;	/* this merge's own */
};

/**
 * lgd_merge_open() - one stream per CPU of @r, merged by (ts, cpu), handing
 * out what @items (enum lgd_items, OR-ed) asks for besides kept records
 * and gaps; its counts (@m->counts) start at 0.  The task-name pass: when
 * @r's filter has --comm and no merge of @r has gone to the end yet (which
 * meets every comm record), the merge first reads every task name
 * (lgd_comm_load()), unless LGD_ITEMS_NAMES_LATE; so a verb reads its
 * capture once more for the names only if no pass of its own came first.
 * Return: 0 or -ENOMEM.
 */
int lgd_merge_open(struct lgd_merge *m, struct lgd_reader *r, unsigned int items);
/**
 * lgd_merge_open_part() - lgd_merge_open() of part @part of @nparts of @r's
 * CPUs: those whose index i (in r->cpus) has i % @nparts == @part (the
 * others are not read).  Its counts still have a slot per CPU of @r, so
 * the parts' counts add up to one merge's (lgd_merge_counts_add()).
 * Return: 0 or -ENOMEM.
 */
int lgd_merge_open_part(struct lgd_merge *m, struct lgd_reader *r, unsigned int items,
			uint32_t part, uint32_t nparts);
/** lgd_merge_init() - lgd_merge_open() with no @items. */
static inline int lgd_merge_init(struct lgd_merge *m, struct lgd_reader *r)
{
	return lgd_merge_open(m, r, 0);
}
/**
 * lgd_merge_next() - next item in time order (within a CPU: stream order).
 * Comm records (LOGDEV_REC_COMM) go to the reader's task names
 * (lgd_comm_at()) and are items only with LGD_ITEMS_COMM (report
 * --raw shows them; deltas --durations counts and charges those inside a
 * pair; text and deltas never see them).
 * Return: 1 with *@it filled, 0 at the end.  Data problems go to the
 * reader's warning callback; -ENOMEM/-EIO only for system failures.
 */
int lgd_merge_next(struct lgd_merge *m, struct lgd_item *it);
void lgd_merge_free(struct lgd_merge *m);
/**
 * lgd_merge_take_counts() - move @m's counts to *@dst (its old ones freed),
 * leaving @m's at 0: kept past lgd_merge_free(), freed by
 * lgd_merge_counts_free().
 */
void lgd_merge_take_counts(struct lgd_merge *m, struct lgd_merge_counts *dst);
/**
 * lgd_merge_counts_add() - add @src's counts to @dst's (saturating), the
 * lost counts slot by slot: both from merges of the same reader's CPUs
 * (lgd_merge_open_part()).
 */
void lgd_merge_counts_add(struct lgd_merge_counts *dst, const struct lgd_merge_counts *src);
/** lgd_merge_counts_free() - free @c's lost counts; @c at 0. */
void lgd_merge_counts_free(struct lgd_merge_counts *c);
/**
 * lgd_merge_lost() - the lost events of CPU index @i (0 to @c->nr_lost - 1)
 * in the gaps a merge kept (file or live; a filter keeps or leaves out a
 * gap by CPU and time only): @by_kind filled (struct lgd_lost), *@cpu its
 * CPU number (if @cpu is not NULL).  Return: the records lost (the kinds
 * counted in records: all but SUBBUFS, CORRUPT and BAD_TS).
 */
uint64_t lgd_merge_lost(const struct lgd_merge_counts *c, uint32_t i,
			uint64_t by_kind[LGD_GAP_NR], uint32_t *cpu);

/* Items from sub-buffers: one decoder (stream.c) for a capture file and live reads */
#define LGD_SB_GAPS_MAX	6	/* gaps one sub-buffer header can tell of */
/**
 * lgd_gap_item() - *@g: a gap of @kind (enum lgd_gap_kind) and @count of
 * CPU @cpu at @ts, never before @last_ts (ns), from sub-buffer @seq at @off.
 */
void lgd_gap_item(struct lgd_item *g, int kind, uint64_t count, uint32_t cpu, uint64_t ts,
		  uint64_t last_ts, uint64_t seq, uint64_t off);
/* lgd_seq_step() verdicts on a sub-buffer's seq */
enum lgd_seq {
	LGD_SEQ_OK,		/* the next one after the previous (or the first) */
	LGD_SEQ_JUMP,		/* sub-buffers missing before it: *lost of them */
	LGD_SEQ_BACK,		/* not after the previous: the buffer reset, or damage */
	LGD_SEQ_DAMAGED,	/* out of line between neighbours that agree: damaged,
				 * read as the one between them */
	LGD_SEQ_IMPOSSIBLE,	/* a jump of more sub-buffers than could be opened in
				 * the time between them: damaged, not a loss */
};

/* lgd_seq_ctx.slack of both merges: the ring's sub-buffers and this many */
#define LGD_SEQ_SLACK	64

/**
 * struct lgd_seq_ctx - what lgd_seq_step() judges a CPU's next sub-buffer by
 * @have_prev, @prev: the base: the seq the CPU's previous sub-buffer had (or
 *            was read as)
 * @have_next, @next: the seq of the CPU's sub-buffer after this one, when
 *            it is at hand (a capture file; a live read if already queued)
 * @prev_ts, @ts: first_ts (ns) of the previous and of this sub-buffer
 * @slack:    sub-buffers a jump may exceed the ns between them by
 */
struct lgd_seq_ctx {
	int have_prev, have_next;
	uint64_t prev, next;
	uint64_t prev_ts, ts;
	uint64_t slack;
};

/**
 * lgd_seq_step() - judge sub-buffer seq @seq against @c, the one rule of
 * both merges (file and live).  A seq that goes back below the previous
 * one, or jumps, while the next one follows the previous one's
 * (prev < next < seq, or next <= prev + 2): LGD_SEQ_DAMAGED, read as
 * prev + 1 (or prev).  Else back: LGD_SEQ_BACK, the new base.  Else a jump
 * of k = seq - prev - 1 sub-buffers: LGD_SEQ_IMPOSSIBLE if k exceeds the ns
 * from @c->prev_ts to @c->ts (a sub-buffer opens at most once per ns; when
 * both stamps are known) plus @c->slack, else LGD_SEQ_JUMP.  Never wraps.
 * @lost: sub-buffers to count missing (LGD_SEQ_JUMP only, else 0);
 * @base: the seq to judge the next one against; @why (@n bytes, if not
 * NULL): for BACK, DAMAGED and IMPOSSIBLE, a sentence for the warning.
 * Return: enum lgd_seq.
 */
int lgd_seq_step(const struct lgd_seq_ctx *c, uint64_t seq, uint64_t *lost, uint64_t *base,
		 char *why, size_t n);
/**
 * lgd_reader_settle() - a record or gap of CPU index @i just taken by a
 * merge of @r (comm records already handled): a record with an absurd
 * timestamp counted (@n->absurd_ts) and, unless @absurd_items, turned into
 * an LGD_GAP_BAD_TS gap in its place; the first record's time kept for
 * relative --from/--to; the filter's verdict in @it->filtered; the merge's
 * counts @n of records and of the lost events of kept gaps.
 */
void lgd_reader_settle(struct lgd_reader *r, struct lgd_merge_counts *n, struct lgd_item *it,
		       uint32_t i, int absurd_items);
/**
 * lgd_merge_counts_init() - counts @c at 0, lost events for the @n CPUs
 * @cpus (indexes as given).  Return: 0 or -ENOMEM.
 */
int lgd_merge_counts_init(struct lgd_merge_counts *c, const uint32_t *cpus, uint32_t n);

/*
 * The largest step (ns) between two consecutive records of one CPU that is
 * taken as real: 2^62 ns (146 years; every trace clock counts from boot).
 */
#define LGD_STEP_MAX_NS	(1ULL << 62)

enum lgd_step {
	LGD_STEP_OK,	/* ts >= prev, at most LGD_STEP_MAX_NS later */
	LGD_STEP_BACK,	/* ts < prev: the clock went back */
	LGD_STEP_HUGE,	/* more than LGD_STEP_MAX_NS later: impossible */
};

/**
 * lgd_ts_step() - classify the step from timestamp @prev to @ts (ns) of two
 * consecutive records of one CPU; *@ns: its size (prev - ts for
 * LGD_STEP_BACK), never wrapped.  The one rule of the renderer's "+D us"
 * (lgd_render_item()), of lgd_deltas_add() and so of diff: only LGD_STEP_OK
 * steps are deltas.  Inline: once a record.
 */
static inline enum lgd_step lgd_ts_step(uint64_t prev, uint64_t ts, uint64_t *ns)
{
	if (ts < prev) {
		*ns = prev - ts;
		return LGD_STEP_BACK;
	}
	*ns = ts - prev;
	return *ns > LGD_STEP_MAX_NS ? LGD_STEP_HUGE : LGD_STEP_OK;
}

#endif /* LIBLOGDEV_MERGE_H */
