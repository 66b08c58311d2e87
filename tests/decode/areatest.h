/* SPDX-License-Identifier: GPL-2.0 */
/*
 * areatest.h - helpers of the flight recorder's library tests
 * (lib/test_area.c; areatest.c): the formats text and records they write,
 * what the reader read back, validation, class counts.
 */
#ifndef AREATEST_H
#define AREATEST_H
#include <stdint.h>
#include "liblogdev.h"
#include "areabuild.h"

extern const char fmts[];	/* the formats text of the areas (sites 1, 2) */
extern uint64_t ts_next;	/* the next record's ts: every record a later one */
extern char last_warn[400];	/* the last warning, of validation or reading */

/* what the reader gave back (read_back()) */
struct got {
	uint32_t n;
	struct {
		uint32_t cpu, site, pid, n;
		uint64_t ts;
		uint8_t pl[32];
	} r[AB_MAX_LOG];
	uint64_t lost_subbufs;
	int warn_area, warn_read;	/* warnings of the validation, of the reader */
	int have_formats, have_stats;
	char last_boot[4096];
};
extern struct got got;

/* @n records of 4 payload bytes on @cpu */
void recs(struct ab_area *a, uint32_t cpu, int n);
/* the capture of @a (validated) in a temporary file, read back into got; 0 or -1 */
int read_back(const struct lgd_area *a);
/* validate @img (@len bytes) into @a, warnings counted in got.warn_area; lgd_area_open()'s result */
int validate(struct lgd_area *a, const uint8_t *img, size_t len, struct lgd_diag *d);
/* every record the area holds, except those of seqs @lost says (NULL: none), read back as written */
void expect_records(const char *name, const struct ab_area *ab, int (*lost)(uint64_t));
/* counts of CPU @c of @a as "sealed S unsealed U open O empty E corrupt C damaged D cut X" */
const char *counts(const struct lgd_area *a, uint32_t c);
/* the panic area: CPU 0 12 sub-buffers in a ring of 8 (4 records in the open one), CPU 1 three */
void panic_area(struct ab_area *ab, uint32_t local_bytes, int end);

#endif /* AREATEST_H */
