/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_breakdown.h: where the time of a pair went (breakdown.c keeps the
 * timelines of the context markers, bdsplit.c splits one pair with them).
 * The markers are logdev probes on the kernel's tracepoints that
 * `logdev record --breakdown` attaches (docs/ANALYSIS.md, "Breakdown"):
 * their sites are named logdev_bd_* and never pair with other records.
 * Part of liblogdev (layer: library; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_BREAKDOWN_H
#define LIBLOGDEV_BREAKDOWN_H

#include <stddef.h>
#include <stdint.h>
#include "lgd_merge.h"
#include "lgd_meta.h"
#include "lgd_hist.h"

/* The buckets a pair's time is split into, in output order. */
enum lgd_bd_bucket {
	LGD_BD_OWN,		/* the task's (or interrupt's) own code */
	LGD_BD_HARDIRQ,		/* hardirq handlers and the local timer, nested */
	LGD_BD_SOFTIRQ,		/* softirqs nested on the task's CPU */
	LGD_BD_NMI,		/* NMI handlers (their own delta_ns) */
	LGD_BD_PREEMPTED,	/* off CPU, runnable: preempted, or woken and waiting */
	LGD_BD_BLOCKED,		/* off CPU, sleeping until woken */
	LGD_BD_NR
};

/* The marker kinds (bits of lgd_bd.have), one probe each. */
enum lgd_bd_mark {
	LGD_BDM_NONE, LGD_BDM_IRQ_IN, LGD_BDM_IRQ_OUT, LGD_BDM_SIRQ_IN, LGD_BDM_SIRQ_OUT,
	LGD_BDM_SWITCH, LGD_BDM_WAKING, LGD_BDM_NMI, LGD_BDM_TIMER_IN, LGD_BDM_TIMER_OUT,
	LGD_BDM_NR,
	LGD_BDM_BAD = 0xff	/* a logdev_bd_* site whose format is not its marker's:
				 * never paired, never read */
};

/** lgd_bd_mark_name() - the probe name of marker @m ("logdev_bd_switch"), or NULL. */
const char *lgd_bd_mark_name(unsigned int m);
/**
 * lgd_bd_mark_spec() - the probe spec `record --breakdown` writes for @m
 * (DEBUGFS.md grammar: "t:logdev_bd_switch=sched:sched_switch ..."), or NULL;
 * *@optional: 1 where a kernel may lack the tracepoint (nmi, local timer).
 */
const char *lgd_bd_mark_spec(unsigned int m, int *optional);
/**
 * lgd_bd_mark_of() - the marker kind of site @s: a probe named logdev_bd_*
 * whose format has exactly the arguments breakdown.c reads, in order, all
 * numbers; LGD_BDM_BAD for another site of that reserved name; else 0.
 */
unsigned int lgd_bd_mark_of(const struct lgd_site *s);

/**
 * lgd_bd_site_marks() - *@out: lgd_bd_mark_of() of each site id of @sites
 * (@sites->nr bytes, malloc'd), or NULL when no site is a marker.
 * Return: 0 or -ENOMEM.
 */
int lgd_bd_site_marks(const struct lgd_sites *sites, uint8_t **out);

/* Who took the time of a bucket. */
enum lgd_bd_who_kind {
	LGD_BDW_NONE,
	LGD_BDW_IRQ,		/* @id: irq number */
	LGD_BDW_TIMER,		/* the local timer interrupt, @id its vector */
	LGD_BDW_SOFTIRQ,	/* @id: softirq vector (0 HI .. 9 RCU) */
	LGD_BDW_NMI,		/* @id: the handler's address */
	LGD_BDW_TASK,		/* @id: pid (its name at @ts) */
	LGD_BDW_CTX,		/* an interrupt without markers: @id LOGDEV_CTX_* */
};

/** struct lgd_bd_who - a culprit: @kind, @id, @ts (task names), its @ns in the bucket. */
struct lgd_bd_who {
	uint32_t kind;
	uint32_t cpu;
	uint64_t id;
	uint64_t ts;
	int64_t ns;
};

/**
 * struct lgd_bd_split - one pair split: from @start (ns, its first record)
 * @len ns long, task @pid (its last record's), last record's @cpu; @ns per
 * bucket (summing to @len; own is what the others leave); @who the top
 * culprit of each bucket (kind LGD_BDW_NONE: none); @incomplete: lost events,
 * a marker lost or not fitting, or buckets over @len inside it; @mixed: its
 * two records are two tasks' (task context; --by context or cpu): not
 * split.  Neither is added to a row's figures.
 */
struct lgd_bd_split {
	uint64_t start;
	int64_t len;
	uint32_t pid, cpu;
	int incomplete, mixed;
	int64_t ns[LGD_BD_NR];
	struct lgd_bd_who who[LGD_BD_NR];
};

#define LGD_BD_WORST	3	/* instances kept per row, longest first */

/**
 * struct lgd_bd_row - a delta-table row's breakdown: @n pairs, of them
 * @incomplete and @mixed not added (lgd_bd_split); @ns per bucket summed
 * over the others;
 * @worst the @nworst longest complete ones; @log2 the buckets' sums of the
 * complete pairs by the log2 bucket of their length (lgd_hist_log2()'s, for
 * the stacked bars of hist --svg --breakdown)
 */
struct lgd_bd_row {
	uint64_t n, incomplete, mixed;
	int64_t ns[LGD_BD_NR];
	uint32_t nworst;
	struct lgd_bd_split worst[LGD_BD_WORST];
	int64_t log2[LGD_HIST_LOG2_N][LGD_BD_NR];
};

struct lgd_bd;

/**
 * lgd_bd_open() - the timelines for the markers of @sites (nothing fed
 * yet).  *@have: bits (1 << LGD_BDM_*) of the markers that were attached:
 * listed in @probes (the capture's PROBES text: a probe's site exists only
 * once it recorded, and stays from an earlier recording of the boot), or
 * without it (NULL) those with a site.
 * Return: 0, -ENOENT when the switch, hardirq or softirq markers are not
 * all there (nothing to split with), -ENOMEM.
 */
int lgd_bd_open(struct lgd_bd **bd, const struct lgd_sites *sites, const char *probes,
		unsigned int *have);
/**
 * lgd_bd_feed() - feed every item in merge order: records (@mark: their
 * site's lgd_bd_site_marks() value, 0 for the user's), lost-events gaps.
 * The user's records say which context ran when (an interrupt still open
 * under a task's record was not seen to end).  Return: 0 or -ENOMEM.
 */
int lgd_bd_feed(struct lgd_bd *bd, const struct lgd_item *it, unsigned int mark);
/**
 * lgd_bd_split() - split the pair from a record of task @a_pid at @a (ns,
 * on CPU @a_cpu) to one of task @pid at @b (on @b_cpu), context @ctx
 * (LOGDEV_CTX_*), fed up to @b, into *@out.
 */
void lgd_bd_split(struct lgd_bd *bd, uint32_t a_pid, uint32_t pid, unsigned int ctx, uint64_t a,
		  uint32_t a_cpu, uint64_t b, uint32_t b_cpu, struct lgd_bd_split *out);
/** lgd_bd_row_add() - add @sp to *@row (allocated on first use).  0 or -ENOMEM. */
int lgd_bd_row_add(struct lgd_bd_row **row, const struct lgd_bd_split *sp);
/**
 * struct lgd_bd_slice - a piece of a timeline (lgd_bd_walk()): from @start
 * to @end (ns) in bucket @bucket (LGD_BD_HARDIRQ, _SOFTIRQ, _NMI: of CPU
 * @cpu, @pid 0; LGD_BD_PREEMPTED, _BLOCKED: task @pid off CPU, back on
 * @cpu; LGD_BD_OWN: task @pid running on @cpu between two of those), by
 * @who (the culprit, as lgd_bd_split() names it)
 */
struct lgd_bd_slice {
	uint64_t start, end;
	uint32_t cpu, pid;
	uint32_t bucket;
	struct lgd_bd_who who;
};
/**
 * lgd_bd_walk() - every slice fed so far to @cb(@arg, slice): each CPU's
 * interrupts and NMIs in time order, then each task's states in time order,
 * tasks by pid (a time a task's whereabouts are not known: no slice).
 * Stops at @cb's first non-zero return.  Return: that, 0, or -ENOMEM.
 */
int lgd_bd_walk(struct lgd_bd *bd, int (*cb)(void *arg, const struct lgd_bd_slice *s),
		void *arg);
/**
 * lgd_bd_markers() - marker records fed so far that could be read; *@met
 * (if not NULL) all marker records met, read or not.
 */
uint64_t lgd_bd_markers(const struct lgd_bd *bd, uint64_t *met);
void lgd_bd_close(struct lgd_bd *bd);

/** lgd_bd_bucket_name() - "own", "hardirq", ... of LGD_BD_* @b. */
const char *lgd_bd_bucket_name(unsigned int b);
/** lgd_bd_softirq_name() - "TIMER", "NET_RX", ... of vector @v, or NULL. */
const char *lgd_bd_softirq_name(uint64_t v);

#endif /* LIBLOGDEV_BREAKDOWN_H */
