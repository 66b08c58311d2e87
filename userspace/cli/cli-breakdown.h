/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli-breakdown.h: --breakdown of the delta verbs (cli-breakdown.c).
 */
#ifndef CLI_BREAKDOWN_H
#define CLI_BREAKDOWN_H

#include "liblogdev.h"
#include "cli-recorder.h"

/**
 * cli_bd_attach() - `record --breakdown`: the context markers attached in
 * @dir into @set (cli_probes_attach(): removed with the other probes): the
 * required ones all, or none and 2 (said); an optional one the kernel
 * lacks (NMI, local timer) noted on stderr and left out.
 * Return: 0, 1 (the probes file unusable) or 2.
 */
int cli_bd_attach(const char *dir, struct lgd_probe_set *set);
/**
 * cli_bd_is_marker() - is @it a record of a breakdown marker (a site of
 * @r's named logdev_bd_*)?  For the live views, whose sites grow as they
 * read: markers never pair there either.
 */
int cli_bd_is_marker(const struct lgd_reader *r, const struct lgd_item *it);
/**
 * cli_bd_open() - the breakdown's timelines for capture @r (lgd_bd_open()),
 * *@have the markers it has; without them, said on stderr for @verb.
 * Return: 0, 1 (no memory) or 2 (no markers: the verb refuses, exit 2).
 */
int cli_bd_open(const char *verb, struct lgd_reader *r, struct lgd_bd **bd, unsigned int *have);
/**
 * cli_bd_none() - after the collection: no marker record of @bd could be read
 * (none attached while it recorded, or none readable) is said on stderr.
 * Return: 1 then (the verb refuses, exit 2), else 0.
 */
int cli_bd_none(const struct lgd_bd *bd);
/**
 * cli_bd_print() - the breakdown table of @ds's rows (after the delta
 * table, in its order) on stdout, with its notes; incomplete pairs warned
 * on stderr (cli_nwarn).  @have: the markers (cli_bd_open()).
 */
void cli_bd_print(const struct lgd_reader *r, const struct lgd_deltas *ds, unsigned int have);

/** cli_bd_print_one() - cli_bd_print() of row @p alone, on one line (hist). */
void cli_bd_print_one(const struct lgd_reader *r, const struct lgd_pair *p, unsigned int have);

/**
 * cli_bd_row() - export --breakdown, per item @y of pipeline @rs in merge
 * order: a marker or gap fed to @bd; a record that ends a pair (its
 * duration, else its delta) split into *@sp.
 * Return: 1 (*@sp filled), 0 (no pair), -ENOMEM.
 */
int cli_bd_row(struct lgd_bd *bd, const struct lgd_records *rs, const struct lgd_record *y,
	       struct lgd_bd_split *sp);
/**
 * cli_bd_perfetto() - export --format perfetto --breakdown: the timelines of
 * @bd as trace events on @f (after the records; *@first: no comma before
 * the first event, as export writes them): interrupts and NMIs as slices on
 * the CPU tracks (tid CPU + 1 of pid 1), each task's running, preempted and
 * blocked time as slices on a track of its own (pid 2, "tasks", tid pid).
 */
void cli_bd_perfetto(FILE *f, const struct lgd_reader *r, struct lgd_bd *bd, int *first);

/**
 * cli_bd_print_diff() - diff --breakdown: for each row of @df, the mean time
 * per complete pair in each bucket in A and B and the change (us), the
 * bucket that changed most named.
 */
void cli_bd_print_diff(const struct lgd_diff *df);

#endif /* CLI_BREAKDOWN_H */
