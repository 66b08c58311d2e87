/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_records.h: the records pipeline every verb reads a capture through
 * (records.c): durations paired first, the merge (its filter, its counts),
 * each record's step to its stream's previous one, and close.
 * Part of liblogdev (layer: library, analysis; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_RECORDS_H
#define LIBLOGDEV_RECORDS_H

#include <stddef.h>
#include <stdint.h>
#include "lgd_merge.h"
#include "lgd_streams.h"
#include "lgd_durations.h"

/**
 * struct lgd_records_opts - a pipeline's options, given at open
 * @items:     what the merge hands out besides kept records and gaps
 *             (enum lgd_items, OR-ed)
 * @durations: pair return probes (and @pairs) in a pass of their own first
 *             when the capture has return sites: each record's mark in
 *             lgd_record.dur, the totals in lgd_records.du.stats
 * @pairs, @nr_pairs: edprint (entry, return) site pairs paired as probes
 *             (with @durations; the array must outlive the pipeline)
 * @steps:     each record's step to its stream's previous one (lgd_record.step)
 * @by:        the streams the step is taken in (LGD_BY_*)
 * @part, @nparts: with @nparts > 1, only part @part of the CPUs
 *             (lgd_merge_open_part()); 0: all of them
 */
struct lgd_records_opts {
	unsigned int items;
	int durations;
	const uint32_t (*pairs)[2];
	size_t nr_pairs;
	int steps;
	int by;
	uint32_t part, nparts;
};

/**
 * struct lgd_record - one item of the pipeline
 * @it:   the item (record or gap; .filtered with LGD_ITEMS_FILTERED)
 * @step: with @steps, a record's step to its stream's previous record
 *        (streams.c; every item fed, filtered ones too, so no pair spans one)
 * @dur:  a return record's duration pair (@durations), or NULL
 */
struct lgd_record {
	struct lgd_item it;
	struct lgd_stream_step step;
	const struct lgd_dur_mark *dur;
};

/**
 * struct lgd_records - the pipeline over reader @r (not owned: opened and
 * filtered by the caller, closed after lgd_records_close())
 * @du:       with @durations, the durations (lgd_dur_init() of @r's sites;
 *            stats complete after the open when @has_dur)
 * @has_dur:  the capture has return sites and @durations was asked
 * @m:        the merge: its counts (@m.counts) for the notes after the loop
 * @st:       the streams: @st.left_back, @st.left_huge after the loop
 * @bad_pair: after -EINVAL from lgd_records_open(), the index of the pair
 *            lgd_dur_pair_sites() refused
 */
struct lgd_records {
	struct lgd_reader *r;
	struct lgd_records_opts o;
	struct lgd_durations du;
	int has_dur;
	struct lgd_dur_marks marks;
	struct lgd_merge m;
	struct lgd_streams st;
	size_t bad_pair;
	uint8_t *bd_marks;	/* breakdown markers by site: never paired */
};

/**
 * lgd_records_open() - the pipeline over @r with options @o: the durations'
 * pass if asked and needed, then the merge opened (the task-name pass
 * first if its filter needs one: lgd_merge_open()).  Nothing to free after
 * an error.  Return: 0, -ENOMEM, -EINVAL (a pair refused: @rs->bad_pair).
 */
int lgd_records_open(struct lgd_records *rs, struct lgd_reader *r,
		     const struct lgd_records_opts *o);
/**
 * lgd_records_next() - the next item in merge order into *@rec (its payload
 * valid until the next call).  Return: 1, 0 at the end, or -ENOMEM.
 */
int lgd_records_next(struct lgd_records *rs, struct lgd_record *rec);
/**
 * lgd_records_mark() - the breakdown marker kind of item @it of @rs
 * (lgd_bd_site_marks(): LGD_BDM_*, LGD_BDM_BAD), 0 for any other item.
 */
unsigned int lgd_records_mark(const struct lgd_records *rs, const struct lgd_item *it);
/** lgd_records_close() - free everything the pipeline holds (not the reader). */
void lgd_records_close(struct lgd_records *rs);

#endif /* LIBLOGDEV_RECORDS_H */
