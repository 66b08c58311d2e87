/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_durations.h: return-probe durations (durations.c).
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_DURATIONS_H
#define LIBLOGDEV_DURATIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <uapi/linux/logdev.h>
#include "lgd_merge.h"
#include "lgd_hist.h"

/* ---- return-probe durations ------------------------------------------ */

#define LGD_DUR_DEPTH	32	/* open entries (and early returns) kept per key */
/*
 * How far (ns) a return may come before its entry in merged time, when the
 * two are on different CPUs (the return's CPU clock behind): a task's
 * return with no open entry waits that long for an entry on another CPU.
 */
#define LGD_DUR_SKEW_NS	1000000

enum { LGD_DUR_NONE = 0, LGD_DUR_ENTRY = 1, LGD_DUR_RETURN = 2 };

struct lgd_dur_slot;

/**
 * struct lgd_dur_pair - a return paired with its entry
 * @entry_site, @ret_site: site ids
 * @entry_cpu, @ret_cpu:   CPUs of the two records
 * @entry_off: file offset of the entry record
 * @ret_off:  file offset of the return record (identifies it: the pair can
 *            come after records that follow the return in merge order)
 * @ret_ts:   ns
 * @ns:       return ts - entry ts; negative when the clocks disagree (the
 *            return on a CPU whose clock is behind the entry's)
 */
struct lgd_dur_pair {
	uint32_t entry_site, ret_site;
	uint32_t entry_cpu, ret_cpu;
	uint64_t entry_off, ret_off, ret_ts;
	int64_t ns;
};

/**
 * struct lgd_dur_stats - every entry and return accounted for (records)
 * After lgd_dur_finish(): entries == paired + huge + entries_unmatched and
 * returns == paired + huge + returns_unmatched.  @huge: an entry and its
 * return more than LGD_STEP_MAX_NS (2^62 ns) apart, either way: damaged
 * stamps, no duration (left out of every statistic; the CLI warns).
 */
struct lgd_dur_stats {
	uint64_t entries, returns;
	uint64_t paired, negative;	/* negative: of the paired */
	uint64_t entries_unmatched, returns_unmatched;
	uint64_t huge;
};

/**
 * struct lgd_durations - pairs return-probe records with their entries
 * (durations.c: sites of file "probe" named NAME and NAME%return).
 */
struct lgd_durations {
	uint32_t nr_sites;
	uint8_t *role;		/* per site id: LGD_DUR_* */
	char **name;		/* per site id: probe name, or NULL */
	struct lgd_dur_slot *slots;
	size_t nr, cap;
	struct lgd_dur_stats stats;
	uint64_t *unmatched;	/* per site id: entries left without return */
};

/**
 * lgd_dur_init() - classify the sites of @s.  Return: 0 or -ENOMEM.
 * lgd_dur_has_returns() then says whether any return site exists.
 */
int lgd_dur_init(struct lgd_durations *du, const struct lgd_sites *s);
int lgd_dur_has_returns(const struct lgd_durations *du);
/**
 * lgd_dur_pair_sites() - after lgd_dur_init(): records of site @entry are
 * entries and records of site @ret their returns (edprint in/out pairs,
 * "--pair FROM,TO"), paired as return probes are (same task and context).
 * Return: 0, -EINVAL (a site unknown, the same, or already a probe's), or
 * -ENOMEM.
 */
int lgd_dur_pair_sites(struct lgd_durations *du, const struct lgd_sites *s,
		       uint32_t entry, uint32_t ret);
/**
 * lgd_dur_add() - feed items in merge order.  A return pairs with the
 * innermost open entry of its probe, task and context; a task's return
 * with none waits up to LGD_DUR_SKEW_NS for an entry on another CPU (and
 * pairs with a negative duration).  What cannot pair is counted unmatched
 * (also entries forgotten at a lost-events gap, or beyond LGD_DUR_DEPTH).
 * Return: 1 if *@out holds a pair (of this record, or of an earlier
 * return this entry completes), 0 otherwise, -ENOMEM.
 */
int lgd_dur_add(struct lgd_durations *du, const struct lgd_item *it,
	       struct lgd_dur_pair *out);
/**
 * lgd_dur_finish() - after the last item: count what is still open as
 * unmatched (@stats is then complete).
 */
void lgd_dur_finish(struct lgd_durations *du);
void lgd_dur_free(struct lgd_durations *du);

/**
 * struct lgd_dur_mark - a return-probe record paired with its entry
 * @off:  file offset of the return record (identifies it)
 * @ns:   its duration (signed, lgd_dur_pair.ns)
 * @entry_cpu, @ret_cpu: CPUs of the entry and the return
 */
struct lgd_dur_mark {
	uint64_t off;
	int64_t ns;
	uint32_t entry_cpu, ret_cpu;
};

/** struct lgd_dur_marks - every pair of a capture, sorted by @off. */
struct lgd_dur_marks {
	struct lgd_dur_mark *v;
	size_t nr;
};

/**
 * lgd_dur_collect() - a whole pass over @r pairing every return with its
 * entry (@du from lgd_dur_init(), finished here: @du->stats complete).  A
 * return on a CPU whose clock is behind comes before its entry in merge
 * order, so a printer needs them all first.  The reader's warnings are
 * silenced during this pass (the printing pass gives them).
 * Return: 0 or -ENOMEM; @mk freed with lgd_dur_marks_free().
 */
int lgd_dur_collect(struct lgd_reader *r, struct lgd_durations *du,
		   struct lgd_dur_marks *mk);
/** lgd_dur_mark_find() - the mark of the record at file offset @off, or NULL. */
const struct lgd_dur_mark *lgd_dur_mark_find(const struct lgd_dur_marks *mk, uint64_t off);
void lgd_dur_marks_free(struct lgd_dur_marks *mk);

/**
 * lgd_deltas_collect() - merge every item of @r into @ds: the time between
 * a record and the previous one of its stream (@ds->by), or with
 * @durations only return-probe durations and the edprint pairs of
 * @ds->user_pairs (pair: entry site, return site; signed), with their self
 * time, split by parent (@ds->by_parent) and the time inside
 * @ds->inside_site (if @ds->inside_set): deltas.c's "nesting" comment
 * (with @durations, logdev's task-name records inside pairs counted in
 * @ds->comm_inside and charged with the probe costs).  *@st (if not NULL):
 * how many entries and returns were paired, negative, unmatched; *@counts
 * (if not NULL; lgd_merge_counts_free()): the merge's counts.
 * Return: 0, -ENOMEM, or a read error from lgd_merge_next().
 */
int lgd_deltas_collect(struct lgd_reader *r, struct lgd_deltas *ds, int durations,
		      struct lgd_dur_stats *st, struct lgd_merge_counts *counts);
struct lgd_records;
/**
 * lgd_deltas_feed() - one item of a records pipeline (lgd_records_next(),
 * the merge of LGD_ITEMS_FILTERED) into @ds's record deltas: a breakdown
 * marker (lgd_records_mark()) is fed to @ds->bd only, anything else to
 * lgd_deltas_add() and its pair to the breakdown.  Return: 0 or -ENOMEM.
 */
int lgd_deltas_feed(struct lgd_deltas *ds, const struct lgd_records *rs,
		    const struct lgd_item *it);
/**
 * lgd_deltas_collect_par() - lgd_deltas_collect() of record deltas (not
 * durations) on up to @nthreads threads, one part of @r's CPUs each
 * (deltas_par.c), with the same table and counts as one thread makes; the
 * one-thread path where parts would not add up: a filter, --by task, a
 * breakdown, a capture with damage (its warnings then come from @r).
 * @ds: fresh from lgd_deltas_init().  Return: as lgd_deltas_collect().
 */
int lgd_deltas_collect_par(struct lgd_reader *r, struct lgd_deltas *ds, unsigned int nthreads,
			   struct lgd_merge_counts *counts);

#endif /* LIBLOGDEV_DURATIONS_H */
