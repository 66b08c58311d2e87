/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgd_cost.h: the probe cost of a capture (probecost.c): its calibration
 * (the PROBE_COST section, struct logdev_probe_cost of the uapi header)
 * and the cost of each call site's record, which the analyses subtract
 * from the pairs that hold the record (deltas.c, docs/ANALYSIS.md).
 * Part of liblogdev (layer: metadata; liblogdev.h includes every area).
 */
#ifndef LIBLOGDEV_COST_H
#define LIBLOGDEV_COST_H

#include <stddef.h>
#include <stdint.h>
#include <uapi/linux/logdev.h>

struct lgd_sites;

/**
 * lgd_cost_check() - copy a PROBE_COST section's @len bytes at @data into
 * *@out if they are a calibration this reader knows.
 * Version 1 (224 bytes, no pair floor) comes out in the current layout
 * (version and size the current ones), with no LOGDEV_COST_F_PAIR.
 * Return: 0; -EPROTO (another magic, version, size or count of kinds: the
 * reader cannot use it); -ENODATA (the module was never calibrated: ts 0).
 */
int lgd_cost_check(const void *data, size_t len, struct logdev_probe_cost *out);

/** lgd_cost_kind_name() - "edprint", "kprobe-int3", ... for enum logdev_cost_kinds. */
const char *lgd_cost_kind_name(unsigned int kind);

#define LGD_COST_NONE	0xff	/* a site whose records cost nothing known */

/**
 * lgd_cost_records() - how many records one measured hit of @kind writes:
 * 2 for a return probe (its figure is of a call: entry and return), else
 * 1; a record's cost is the kind's figure over it.
 */
static inline unsigned int lgd_cost_records(unsigned int kind)
{
	return kind == LOGDEV_COST_KRETPROBE ? 2 : 1;
}

/**
 * struct lgd_cost_sites - what one record of each site costs
 * @nr:    size of @kind, @ret and @ps (site ids 0 .. nr - 1)
 * @kind:  per site: enum logdev_cost_kinds, or LGD_COST_NONE (site 0, a
 *         site the formats lack)
 * @ret:   per site: 1 for a return probe's return site (NAME%return)
 * @ps:    per site: the cost of one record in ps (the kind's median; a
 *         return probe's call cost is split between its two records);
 *         0 where the kind was not measured
 * @pc:    the calibration they come from
 */
struct lgd_cost_sites {
	uint32_t nr;
	uint8_t *kind;
	uint8_t *ret;
	int64_t *ps;
	struct logdev_probe_cost pc;
};

/**
 * lgd_cost_sites_init() - the cost of each site of @s: a run-time probe's
 * site (file "probe", func NAME or NAME%return) by its kind as the
 * @probes text (a capture's PROBES section, may be NULL) defines NAME
 * ("r:" a return probe, "t:" a tracepoint, "p:" a kprobe: at an offset,
 * optimised if that was measured, else int3; at a function's entry,
 * through ftrace); without a definition, NAME%return or a NAME that has
 * one is a return probe, any other a kprobe through ftrace.  Any other
 * site is an edprint() call.  Return: 0 or -ENOMEM.
 */
int lgd_cost_sites_init(struct lgd_cost_sites *cs, const struct lgd_sites *s,
			const char *probes, const struct logdev_probe_cost *pc);
void lgd_cost_sites_free(struct lgd_cost_sites *cs);

/**
 * lgd_cost_floor() - the part (ps) of a pair's own two records inside the
 * pair from site @entry to site @ret: the calibration's @pair_ps of their
 * kind when both are of it and it was measured (LOGDEV_COST_F_PAIR): a
 * kretprobe's entry then a kretprobe's return, or two edprint() sites;
 * 0 for any other pair (its own records' cost stays in it).
 */
int64_t lgd_cost_floor(const struct lgd_cost_sites *cs, uint32_t entry, uint32_t ret);

/** lgd_cost_of() - ps of one record of site @id (0 if unknown). */
static inline int64_t lgd_cost_of(const struct lgd_cost_sites *cs, uint32_t id)
{
	return cs && id < cs->nr ? cs->ps[id] : 0;
}

/**
 * lgd_cost_comm() - ps of one of logdev's own task-name records
 * (LOGDEV_REC_COMM, written before or after a record on the write path:
 * kernel/logdev_record.c ld_write_comm()): the calibration's edprint
 * record, an estimate (the same write path: reserve, copy, commit; no
 * format walk); 0 without @cs or if edprint was not measured.
 */
static inline int64_t lgd_cost_comm(const struct lgd_cost_sites *cs)
{
	const struct logdev_cost_kind *k = cs ? &cs->pc.kind[LOGDEV_COST_EDPRINT] : NULL;

	return k && (k->flags & LOGDEV_COST_F_MEASURED) ? k->median_ps : 0;
}

#endif /* LIBLOGDEV_COST_H */
