// SPDX-License-Identifier: GPL-2.0
/*
 * test_damaged_records.c: damaged records through every verb (issue 24, the fresh
 * user's trials):
 *   A. a record of a type no format version has is counted and warned
 *      (exit 3) by report, report --raw, deltas, hist, export, diff and
 *      convert; the records around it are still shown;
 *   B. a task-name record outside its rules (a version 1 or 2 sub-buffer,
 *      which has none; a site or a size other than the kernel writes) is
 *      such a record, not a name: it used to rename the task to its bytes
 *      with exit 0;
 *   C. diff says which capture holds them.
 * Usage: test_damaged_records PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "liblogdev.h"
#include "subbuf.h"
#include "testlib.h"
#include "capture.h"

char tmpdir[] = "/tmp/logdev-records-XXXXXX";

static const char *const verbs[] = {
	"report", "report --raw", "deltas", "deltas --by cpu", "hist f:1 g:2",
	"export --format csv", "export --format json", "diff",
};
#define NVERBS (sizeof(verbs) / sizeof(verbs[0]))

/* every verb on @cap: exit 3 and "N record(s) of no known type" on stderr */
static void every_verb(const char *cap, const char *what, const char *count)
{
	char name[600], args[1400], *out, *err;
	int st;

	for (size_t i = 0; i <= NVERBS; i++) {
		if (i < NVERBS) {
			st = tl_run_verb(verbs[i], cap, &out, &err);
		} else {
			snprintf(args, sizeof(args), "convert -o %s/records.dat %s", tmpdir, cap);
			st = run_cli(args, &out, &err);
		}
		snprintf(name, sizeof(name), "%s: %s: counted on stderr (%s), exit 3",
			 i < NVERBS ? verbs[i] : "convert", what, count);
		CHECK_WHY(st == 3 && strstr(err, "warning: ") && strstr(err, count), name,
			  "status %d, stderr:\n%s", st, err);
		free(out);
		free(err);
	}
}

/* ---- A: a type no version has ---------------------------------------- */
static void test_bad_type(void)
{
	const struct trec r[] = {
		{ 1000, 1, NULL, 0, 0, 0 }, { 2000, 2, NULL, 0, 0, 9 },	/* type 9: none such */
		{ 3000, 2, NULL, 0, 0, 0 }, { 4000, 1, NULL, 0, 0, 0 },
	};
	char *p = tl_build("badtype.cap", tl_fts, r, 4), args[1400], *out, *err;

	every_verb(p, "a record of type 9", "1 record of no known type");
	snprintf(args, sizeof(args), "report %s", p);
	run_cli(args, &out, &err);
	CHECK_WHY(strstr(out, "g:2 <type? ") && strstr(out, "f:1 in  +"),
		  "report: the records around it are still shown, it as <type? ...>",
		  "stdout:\n%s", out);
	free(out);
	free(err);
}

/* ---- B: task-name records outside their rules ------------------------- */

/*
 * A capture of f:1, g:2, a task-name record (@version of the sub-buffer,
 * its @site and @bytes), f:1, g:2, all of pid 1; the path.
 */
static char *comm_cap(const char *name, uint16_t version, uint32_t site, uint32_t bytes)
{
	static const char comm[32] = "evil";
	struct lgd_sb_info h = {
		.magic = LOGDEV_SUBBUF_MAGIC, .version = version, .cpu = 0, .seq = 0,
		.first_ts = 1000,
	};
	struct buf b = { 0 };
	struct sbuf s;
	char *path;

	cap_meta(&b, tl_fts);
	sb_begin_info(&s, &h);
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 1, tl_int1, 4);
	sb_rec(&s, 1200, 2, LOGDEV_REC_PRINT, 0, 1, tl_int1, 4);
	sb_rec(&s, 1500, site, LOGDEV_REC_COMM, 0, 1, comm, bytes);
	sb_rec(&s, 2000, 1, LOGDEV_REC_PRINT, 0, 1, tl_int1, 4);
	sb_rec(&s, 3000, 2, LOGDEV_REC_PRINT, 0, 1, tl_int1, 4);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return path;
}

static void test_bad_comm(void)
{
	static const struct {
		const char *name, *what;
		uint16_t version;
		uint32_t site, bytes;
	} c[] = {
		{ "comm-v2.cap", "a type-4 record in a version 2 sub-buffer", 2, 0, LOGDEV_COMM_LEN },
		{ "comm-v1.cap", "a type-4 record in a version 1 sub-buffer", 1, 0, LOGDEV_COMM_LEN },
		{ "comm-site.cap", "a task-name record with a site", 3, 2, LOGDEV_COMM_LEN },
		{ "comm-size.cap", "a task-name record of 8 bytes", 3, 0, 8 },
	};
	char args[1400], *out, *err;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char *p = comm_cap(c[i].name, c[i].version, c[i].site, c[i].bytes);

		every_verb(p, c[i].what, "1 record of no known type");
		snprintf(args, sizeof(args), "report %s", p);
		run_cli(args, &out, &err);
		CHECK_WHY(!strstr(out, "evil") && strstr(out, "pid:1 g:2 out"),
			  c[i].what, "stdout:\n%s", out);
		free(out);
		free(err);
	}
	/* the rule's own case: a version 3 task name names the task, no warning */
	{
		char *p = comm_cap("comm-ok.cap", 3, 0, LOGDEV_COMM_LEN);
		int st;

		snprintf(args, sizeof(args), "report %s", p);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 0 && strstr(out, "evil-1 g:2 out") && !strstr(err, "no known type"),
			  "a version 3 task-name record of site 0 and 16 bytes names the task",
			  "status %d, stdout:\n%s\nstderr:\n%s", st, out, err);
		free(out);
		free(err);
	}
}

/* ---- C: diff names the capture -------------------------------------- */
static void test_diff_names(void)
{
	const struct trec r[] = {
		{ 1000, 1, NULL, 0, 0, 0 }, { 2000, 2, NULL, 0, 0, 9 }, { 3000, 2, NULL, 0, 0, 0 },
	};
	const struct trec g[] = { { 1000, 1, NULL, 0, 0, 0 }, { 3000, 2, NULL, 0, 0, 0 } };
	char *a = tl_build("diff-bad.cap", tl_fts, r, 3), *b, args[1400], *out, *err, want[600];
	int st;

	a = strdup(a);
	b = tl_build("diff-good.cap", tl_fts, g, 2);
	snprintf(args, sizeof(args), "diff %s %s", b, a);
	st = run_cli(args, &out, &err);
	snprintf(want, sizeof(want), "warning: %s: 1 record of no known type", a);
	CHECK_WHY(st == 3 && strstr(err, want) && !strstr(err, "diff-good.cap: 1 record"),
		  "diff: the warning names the capture that holds the record",
		  "status %d, stderr:\n%s", st, err);
	free(out);
	free(err);
	free(a);
}

/*
 * A capture followed by 4 MiB of zeros (a file cut short with zero-filled or
 * sparse space after it): each 16 zero bytes read as a section header of
 * length 0 whose end is no header, and the resynchronising scan after it
 * went to the end of the file every time, 16 bytes further on: hours for
 * a few MiB, nothing printed.  The damage is now scanned once: the report
 * ends (within run_cli()'s 60 s; a fraction of a second) and says where
 * the file stops making sense.
 */
static void test_zero_tail(void)
{
	const struct trec r[] = { { 1000, 1, NULL, 0, 0, 0 }, { 2000, 2, NULL, 0, 0, 0 } };
	char *p = tl_build("zerotail.cap", tl_fts, r, 2), args[1400], *out, *err;
	size_t len = 0;
	int st;

	free(slurp_n(p, &len));
	/* its END section (the last 16 bytes) cut, then zeros up to 4 MiB */
	CHECK_WHY(len > 16 && !truncate(p, len - 16) && !truncate(p, 4 << 20),
		  "zero tail: capture without its END, padded to 4 MiB", "%s: %zu bytes", p, len);
	snprintf(args, sizeof(args), "report %s", p);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(err, "truncated at byte 4194304"),
		  "zero tail: report ends (exit 3, not the timeout's 124) and says where the file stops",
		  "status %d err %.400s", st, err);
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_damaged_records PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_bad_type();
	test_bad_comm();
	test_diff_names();
	test_zero_tail();
	tmpdir_remove();
	printf("records: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
