// SPDX-License-Identifier: GPL-2.0
/*
 * areatest.c - what the flight recorder's library tests share
 * (areatest.h): the records they write, the reader's answer, validation
 * with counted warnings, the counts of a CPU's classes, the panic area.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"
#include "areabuild.h"
#include "areatest.h"

const char fmts[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tdrivers/x.c\t10\tx_in\tin n=%d\n"
	"2\tdrivers/x.c\t20\tx_out\tout n=%d\n";

uint64_t ts_next = 1000000000ull;	/* every record a later ts: merge order = write order */

/* @n records of 4 payload bytes on @cpu */
void recs(struct ab_area *a, uint32_t cpu, int n)
{
	for (int i = 0; i < n; i++) {
		uint8_t pl[4];

		lgd_cap_put_u32(pl, a->nlog);
		ab_rec(a, cpu, ts_next, 1 + (a->nlog & 1), 100 + cpu, pl, 4);
		ts_next += 1000 + (a->nlog % 7) * 10;
	}
}

/* what the reader gave back (areatest.h) */
struct got got;

static int *warn_ctr;
char last_warn[400];

static void count_warn(void *arg, const struct lgd_diag *d)
{
	(void)arg;
	(*warn_ctr)++;
	snprintf(last_warn, sizeof(last_warn), "%s", d->msg);
}

/* the capture of @a (validated) in a temporary file, read back into @got; 0 or -1 */
int read_back(const struct lgd_area *a)
{
	struct lgd_cap_writer w;
	struct lgd_reader r;
	struct lgd_merge m;
	struct lgd_merge_counts mc = { 0 };
	struct lgd_diag d;
	struct lgd_item it;
	FILE *tf = tmpfile();
	int fd = tf ? dup(fileno(tf)) : -1, st;

	if (tf)
		fclose(tf);
	memset(&got, 0, sizeof(got));
	if (fd < 0 || lgd_cap_writer_start(&w, fd) || lgd_area_capture(a, &w, "test", NULL, NULL))
		return -1;
	warn_ctr = &got.warn_read;
	if (lgd_reader_open_fd(&r, fd, count_warn, NULL, &d))
		return -1;
	got.have_formats = r.sites.nr > 0;
	got.have_stats = r.stats != NULL;
	snprintf(got.last_boot, sizeof(got.last_boot), "%s", r.last_boot ? r.last_boot : "");
	if (lgd_merge_open(&m, &r, LGD_ITEMS_COMM | LGD_ITEMS_ABSURD)) {
		lgd_reader_close(&r);
		return -1;
	}
	while ((st = lgd_merge_next(&m, &it)) > 0) {
		if (it.kind == LGD_ITEM_GAP) {
			if (it.gap_kind == LGD_GAP_SUBBUFS)
				got.lost_subbufs += it.gap_count;
			continue;
		}
		if (got.n < AB_MAX_LOG) {
			got.r[got.n].cpu = it.cpu;
			got.r[got.n].ts = it.rec.ts;
			got.r[got.n].site = it.rec.site;
			got.r[got.n].pid = it.rec.pid;
			got.r[got.n].n = it.rec.arg_bytes;
			memcpy(got.r[got.n].pl, it.payload,
			       it.rec.arg_bytes < 32 ? it.rec.arg_bytes : 32);
		}
		got.n++;
	}
	lgd_merge_take_counts(&m, &mc);
	lgd_merge_counts_free(&mc);
	lgd_merge_free(&m);
	lgd_reader_close(&r);
	return st < 0 ? -1 : 0;
}

/* validate @img (@len bytes) into @a, warnings counted in got.warn_area; lgd_area_open()'s result */
int validate(struct lgd_area *a, const uint8_t *img, size_t len, struct lgd_diag *d)
{
	static int nw;

	nw = 0;
	warn_ctr = &nw;
	{
		int ret = lgd_area_open(a, img, len, count_warn, NULL, d);

		got.warn_area = nw;
		return ret;
	}
}

/* every record the area holds, except those of seqs @lost says (NULL: none), read back as written */
void expect_records(const char *name, const struct ab_area *ab, int (*lost)(uint64_t))
{
	uint32_t k = 0, bad = 0;

	for (uint32_t i = 0; i < ab->nlog; i++) {
		const struct ab_log *l = &ab->log[i];

		if (!ab_holds(ab, i) || (lost && lost(l->seq)))
			continue;
		if (k >= got.n || got.r[k].cpu != l->cpu || got.r[k].ts != l->ts ||
		    got.r[k].site != l->site || got.r[k].pid != l->pid || got.r[k].n != l->n ||
		    memcmp(got.r[k].pl, l->pl, l->n)) {
			if (!bad++)
				fail(name, "record %u (log %u, cpu %u seq %llu ts %llu) differs or is missing",
				     k, i, l->cpu, (unsigned long long)l->seq,
				     (unsigned long long)l->ts);
		}
		k++;
	}
	if (!bad)
		CHECK_WHY(k == got.n, name, "%u records expected, %u read back", k, got.n);
}

/* counts of CPU @c of @a as "sealed S unsealed U open O empty E corrupt C damaged D cut X" */
const char *counts(const struct lgd_area *a, uint32_t c)
{
	static char b[200];
	const uint64_t *n = a->cpus[c].count;

	snprintf(b, sizeof(b), "sealed %llu unsealed %llu open %llu empty %llu corrupt %llu "
		 "damaged %llu cut %llu", (unsigned long long)n[LGD_AREA_SEALED],
		 (unsigned long long)n[LGD_AREA_UNSEALED], (unsigned long long)n[LGD_AREA_OPEN],
		 (unsigned long long)n[LGD_AREA_EMPTY], (unsigned long long)n[LGD_AREA_CORRUPT],
		 (unsigned long long)n[LGD_AREA_DAMAGED], (unsigned long long)n[LGD_AREA_CUT]);
	return b;
}

/* the panic area: CPU 0 12 sub-buffers in a ring of 8 (4 records in the open one), CPU 1 three */
void panic_area(struct ab_area *ab, uint32_t local_bytes, int end)
{
	struct ab_opts o = { .formats = fmts, .local_bytes = local_bytes };

	ab_init(ab, &o);
	recs(ab, 0, 70);
	recs(ab, 1, 15);
	if (end)
		ab_end(ab, LOGDEV_END_PANIC, "sysrq triggered crash", 301123456789ull,
		       1796000300000000000ull);
	ab_finish(ab);
}

