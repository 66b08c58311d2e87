// SPDX-License-Identifier: GPL-2.0
/*
 * test_filters.c: the record filters (filter.c: --cpu --pid --comm --site
 * --context --from --to), how they meet pairing (a pair only where both
 * records pass: a record left out never joins its neighbours), the
 * recorder's own records (RECORDER section: left out by default, counted;
 * --include-recorder), bad values (exit 2), in report, deltas, diff and
 * convert; and the parser's values through lgd_filter_set().
 *   test_filters PATH-TO-logdev
 * Output: "PASS: name" / "FAIL: name: why"; exit 1 if anything failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"

char tmpdir[] = "/tmp/logdev-filters-XXXXXX";

static const char formats[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\ta.c\t10\tf\tin\n"
	"2\ta.c\t20\tf\tmid\n"
	"3\ta.c\t30\tf\tout\n"
	"5\tb.c\t40\tg\tirq\n";

static char *path;

static void comm(struct sbuf *s, uint64_t ts, uint32_t pid, const char *name)
{
	char c[LOGDEV_COMM_LEN] = { 0 };

	strncpy(c, name, sizeof(c));
	sb_rec(s, ts, 0, LOGDEV_REC_COMM, 0, pid, c, sizeof(c));
}

/*
 * CPU 0, pid 10 "sh": in 1.000 ms, mid 1.005, out 1.010, an irq (g:40) of
 * pid 10 at 1.012, in 1.020, out 1.030.
 * CPU 1, pid 20 "kworker/1": in 1.001, out 1.004; pid 99 (the recorder):
 * in 1.006, out 1.007, and a hardirq while it ran at 1.008.
 */
static void make_cap(void)
{
	struct buf b = { 0 };
	struct sbuf s;

	cap_meta(&b, formats);
	cap_sect(&b, LGD_SECT_RECORDER, LGD_CAP_NO_CPU, "pid 99\n", 7);
	sb_begin(&s, 0, 0, 1000000, 0, 0);
	comm(&s, 1000000, 10, "sh");
	sb_rec(&s, 1000000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	sb_rec(&s, 1005000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	sb_rec(&s, 1010000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	sb_rec(&s, 1012000, 5, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 10, NULL, 0);
	sb_rec(&s, 1020000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	sb_rec(&s, 1030000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 1, 0, 1001000, 0, 0);
	comm(&s, 1001000, 20, "kworker/1");
	sb_rec(&s, 1001000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 20, NULL, 0);
	sb_rec(&s, 1004000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 20, NULL, 0);
	comm(&s, 1006000, 99, "logdev");
	sb_rec(&s, 1006000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 99, NULL, 0);
	sb_rec(&s, 1007000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 99, NULL, 0);
	sb_rec(&s, 1008000, 5, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 99, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	/* as logdev record ends it: STATS, END (without STATS: salvaged, capture.h) */
	cap_sect(&b, LGD_SECT_STATS, LGD_CAP_NO_CPU, "cpu0 written=6\n", 15);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("f.cap", b.p, b.n);
	free(b.p);
}

/* run "logdev ARGS PATH"; *st exit status; *errp stderr (or freed if NULL) */
static char *run(const char *args, int *st, char **errp)
{
	char cmd[1200], *out, *err;

	snprintf(cmd, sizeof(cmd), "%s %s", args, path);
	*st = run_cli(cmd, &out, &err);
	tl_strip_clock(out);	/* report's header: test_report.c checks it */
	if (errp)
		*errp = err;
	else
		free(err);
	return out;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_report(void)
{
	char *out, *err;
	int st;

	out = run("report", &st, &err);
	CHECK_STR_EQ(out,
		"[     0.001000] cpu:0 sh-10 f:10 in\n"
		"[     0.001001] cpu:1 kworker/1-20 f:10 in\n"
		"[     0.001004] cpu:1 kworker/1-20 f:30 out  +3.000 us\n"
		"[     0.001005] cpu:0 sh-10 f:20 mid  +5.000 us\n"
		"[     0.001008] cpu:1 logdev-99 hardirq g:40 irq\n"
		"[     0.001010] cpu:0 sh-10 f:30 out  +5.000 us\n"
		"[     0.001012] cpu:0 sh-10 hardirq g:40 irq\n"
		"[     0.001020] cpu:0 sh-10 f:10 in  +10.000 us\n"
		"[     0.001030] cpu:0 sh-10 f:30 out  +10.000 us\n",
		"report: the recorder's task records (pid 99) left out, its interrupt kept");
	CHECK_STR_CONTAINS(err, "logdev: 2 records of the recorder (pid 99) left out; --include-recorder keeps them",
			   "report: says how many of the recorder's records were left out");
	CHECK_EQ(st, 0, "report: leaving the recorder out is not a warning (exit 0)");
	free(out);
	free(err);

	out = run("report --include-recorder", &st, &err);
	CHECK_TRUE(strstr(out, "cpu:1 logdev-99 f:10 in  +2.000 us\n") &&
		   strstr(out, "cpu:1 logdev-99 f:30 out  +1.000 us\n") && !err[0],
		   "report --include-recorder: its records shown, nothing said");
	free(out);
	free(err);

	out = run("report --cpu 1", &st, NULL);
	CHECK_STR_EQ(out,
		"[     0.001001] cpu:1 kworker/1-20 f:10 in\n"
		"[     0.001004] cpu:1 kworker/1-20 f:30 out  +3.000 us\n"
		"[     0.001008] cpu:1 logdev-99 hardirq g:40 irq\n",
		"report --cpu 1");
	free(out);

	/* out's +D would be to mid (left out): no delta, never +10 us to in */
	out = run("report --site 'f:[13]0'", &st, NULL);
	CHECK_STR_EQ(out,
		"[     0.001000] cpu:0 sh-10 f:10 in\n"
		"[     0.001001] cpu:1 kworker/1-20 f:10 in\n"
		"[     0.001004] cpu:1 kworker/1-20 f:30 out  +3.000 us\n"
		"[     0.001010] cpu:0 sh-10 f:30 out\n"
		"[     0.001020] cpu:0 sh-10 f:10 in  +10.000 us\n"
		"[     0.001030] cpu:0 sh-10 f:30 out  +10.000 us\n",
		"report --site: no +D across a record left out");
	free(out);

	out = run("report --site g", &st, NULL);
	CHECK_EQ(count_lines(out), 2, "report --site FUNC: a site's func alone matches");
	free(out);
	out = run("report --site 'b.c:*'", &st, NULL);
	CHECK_EQ(count_lines(out), 2, "report --site FILE:*: file:func:line matches");
	free(out);

	out = run("report --context hardirq", &st, NULL);
	CHECK_STR_EQ(out,
		"[     0.001008] cpu:1 logdev-99 hardirq g:40 irq\n"
		"[     0.001012] cpu:0 sh-10 hardirq g:40 irq\n",
		"report --context hardirq");
	free(out);
	out = run("report --context task,hardirq --cpu 0", &st, NULL);
	CHECK_EQ(count_lines(out), 6, "report --context task,hardirq --cpu 0: a list, AND with --cpu");
	free(out);

	out = run("report --pid 20", &st, NULL);
	CHECK_EQ(count_lines(out), 2, "report --pid 20");
	free(out);
	out = run("report --pid 5-15,20", &st, NULL);
	CHECK_EQ(count_lines(out), 8, "report --pid 5-15,20: ranges");
	free(out);
	out = run("report --comm 'kworker*'", &st, NULL);
	CHECK_TRUE(count_lines(out) == 2 && strstr(out, "kworker/1-20 f:30 out"),
		   "report --comm GLOB: the task's name at the record's time");
	free(out);
	out = run("report --comm sh --comm kworker/1", &st, NULL);
	CHECK_EQ(count_lines(out), 8, "report --comm twice: either name");
	free(out);

}

/* report --from and --to; what deltas says when the filters leave nothing */
static void test_report_window(void)
{
	char *out, *err;
	int st;

	/* the window: from <= ts < to */
	out = run("report --from 0.001005 --to 0.00102", &st, NULL);
	CHECK_STR_EQ(out,
		"[     0.001005] cpu:0 sh-10 f:20 mid\n"
		"[     0.001008] cpu:1 logdev-99 hardirq g:40 irq\n"
		"[     0.001010] cpu:0 sh-10 f:30 out  +5.000 us\n"
		"[     0.001012] cpu:0 sh-10 hardirq g:40 irq\n",
		"report --from S --to S: seconds as report prints them, from <= ts < to");
	free(out);
	out = run("report --from +4us --to +10us", &st, NULL);
	CHECK_TRUE(count_lines(out) == 3 && strstr(out, "[     0.001004] cpu:1") &&
		   !strstr(out, "0.001010]"),
		   "report --from +4us --to +10us: from the first record (1.000 ms)");
	free(out);
	out = run("report --from 1010us", &st, NULL);
	CHECK_EQ(count_lines(out), 4, "report --from 1010us: a unit");
	free(out);
	out = run("report --from +1s", &st, &err);
	CHECK_TRUE(out[0] == 0 && st == 0, "report --from +1s: nothing left, exit 0");
	CHECK_STR_CONTAINS(err, "the filters left out all 9 records",
			   "report --from +1s: says the filters left every record out");
	free(out);
	free(err);
	/* a capture where nothing could match --comm (no task name of that
	 * glob in it) says so, and which names it has */
	out = run("deltas --comm nosuchtask", &st, &err);
	CHECK_STR_CONTAINS(err, "no task in the capture is named like --comm",
			   "deltas --comm nosuchtask: says no task has such a name");
	free(out);
	free(err);
	/* records kept, but no two neighbours both kept: the filter said */
	out = run("deltas --site f:20 --site g:40", &st, &err);
	CHECK_STR_CONTAINS(out, "both its records pass the filters",
			   "deltas --site A --site B with no pair A->B: the empty table blames the filters");
	free(out);
	free(err);
	out = run("deltas --cpu 0", &st, &err);
	CHECK_TRUE(!strstr(err, "left out all"), "deltas --cpu 0: records kept, no such note");
	free(out);
	free(err);
}

static void test_deltas(void)
{
	char *out;
	int st;

	out = run("deltas", &st, NULL);
	CHECK_TRUE(strstr(out, "\nf:10                     f:20                              1      5.000") &&
		   strstr(out, "\nf:10                     f:30                              2") &&
		   strstr(out, "\nf:20                     f:30                              1      5.000"),
		   "deltas: unfiltered rows (recorder's pair left out)");
	free(out);
	out = run("deltas --include-recorder", &st, NULL);
	CHECK_TRUE(strstr(out, "\nf:10                     f:30                              3") != NULL,
		   "deltas --include-recorder: its pair counted");
	free(out);

	/* both ends must pass: no f:10 -> f:30 of 10 us across the mid */
	out = run("deltas --site 'f:[13]0'", &st, NULL);
	CHECK_TRUE(strstr(out, "\nf:10                     f:30                              2      3.000      3.000     10.000     10.000       13.000") &&
		   !strstr(out, "f:20") && strstr(out, "\nf:30                     f:10                              1     10.000") &&
		   count_lines(out) == 3,
		   "deltas --site: pairs only where both records pass (none across f:20)");
	free(out);
	out = run("deltas --cpu 1", &st, NULL);
	CHECK_TRUE(strstr(out, "\nf:10                     f:30                              1      3.000") &&
		   count_lines(out) == 2, "deltas --cpu 1: one row");
	free(out);
	out = run("deltas --pid 10 --from +5us", &st, NULL);
	CHECK_TRUE(strstr(out, "\nf:20                     f:30                              1      5.000") &&
		   strstr(out, "\nf:30                     f:10                              1     10.000") &&
		   !strstr(out, "\nf:10                     f:20"),
		   "deltas --pid --from: the pair before the window left out");
	free(out);
	out = run("deltas --context nmi", &st, NULL);
	CHECK_TRUE(strstr(out, "deltas: 0 records") != NULL && st == 0, "deltas --context nmi: 0 records, exit 0");
	free(out);
}

/* --durations (--pair): a duration counts only if its entry and return pass */
static void test_durations(void)
{
	char *out;
	int st;

	out = run("deltas --pair f:10,f:30", &st, NULL);
	CHECK_TRUE(strstr(out, "\nf:10                     f:30                              3      3.000     10.000") != NULL,
		   "deltas --pair: 3 durations unfiltered");
	free(out);
	out = run("deltas --pair f:10,f:30 --to +25us", &st, NULL);
	CHECK_TRUE(strstr(out, "\nf:10                     f:30                              2      3.000      3.000     10.000     10.000") != NULL,
		   "deltas --pair --to: a return after the window drops its duration");
	free(out);
	out = run("deltas --pair f:10,f:30 --from +5us", &st, NULL);
	CHECK_TRUE(strstr(out, "\nf:10                     f:30                              1     10.000") != NULL,
		   "deltas --pair --from: an entry before the window drops its duration");
	free(out);
	out = run("deltas --pair f:10,f:30 --cpu 1", &st, NULL);
	CHECK_TRUE(strstr(out, "\nf:10                     f:30                              1      3.000") != NULL,
		   "deltas --pair --cpu 1: the task on CPU 1 only");
	CHECK_WHY(strstr(out, "durations: 1 paired (0 negative)") != NULL,
		  "deltas --pair --cpu 1: the footer counts the pairs kept, not those the filter left out",
		  "%s", out);
	free(out);
}

/* lost events: kept or left out by CPU and time only */
static void test_gaps(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *save = path, *out;
	int st;

	cap_meta(&b, formats);
	sb_begin(&s, 0, 0, 1000000, 0, 0);
	sb_rec(&s, 1000000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 1, 0, 1001000, 0, 0);
	sb_rec(&s, 1001000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 20, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	sb_begin(&s, 1, 1, 1002000, 5, 0);	/* 5 dropped before it */
	sb_rec(&s, 1002000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 20, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("gap.cap", b.p, b.n);
	free(b.p);
	out = run("report --pid 20", &st, NULL);
	CHECK_TRUE(strstr(out, "LOST 5 events") && count_lines(out) == 3 &&
		   !strstr(out, "+1.000 us"), "report --pid: a gap of its CPU shown, no +D across it");
	free(out);
	out = run("report --cpu 0", &st, NULL);
	CHECK_TRUE(!strstr(out, "LOST") && count_lines(out) == 1, "report --cpu 0: CPU 1's gap left out");
	free(out);
	out = run("report --from +1.5us", &st, NULL);
	CHECK_TRUE(strstr(out, "LOST 5 events") && count_lines(out) == 2,
		   "report --from: a gap inside the window shown");
	free(out);
	path = save;
}

static void test_diff_convert(void)
{
	char args[1200], *out, *err;
	int st;

	snprintf(args, sizeof(args), "diff --cpu 1 --format csv %s", path);
	out = run(args, &st, &err);
	CHECK_TRUE(st == 0 && count_lines(out) == 2 && strstr(out, "\nf:10,f:30,both,1,3000,3000,1,3000,3000,"),
		   "diff --cpu 1: both sides filtered");
	CHECK_STR_CONTAINS(err, "left out", "diff: the recorder's records counted for each side");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "convert -o %s --pid 20", tmp_path("f.dat"));
	out = run(args, &st, &err);
	CHECK_TRUE(st == 0 && strstr(err, "logdev convert: 2 records") == NULL &&
		   strstr(err, "convert: 2 records,"), "convert --pid 20: 2 records written");
	free(out);
	free(err);
}

static void test_bad(void)
{
	static const char *const bad[][2] = {
		{ "--cpu x", "bad --cpu 'x': expected CPU numbers" },
		{ "--cpu 3-1", "bad --cpu '3-1'" },
		{ "--cpu 4096", "bad --cpu '4096'" },
		{ "--cpu 1,", "bad --cpu '1,'" },
		{ "--cpu ''", "bad --cpu ''" },
		{ "--pid -1", "bad --pid '-1'" },
		{ "--pid 4294967296", "bad --pid '4294967296'" },
		{ "--context irq", "bad --context 'irq': expected a list of task, softirq, hardirq, nmi" },
		{ "--context task,", "bad --context 'task,'" },
		{ "--from 1.5x", "bad --from '1.5x': expected seconds" },
		{ "--from 0.0000000001", "bad --from '0.0000000001'" },
		{ "--to 1.5ns", "bad --to '1.5ns'" },
		{ "--to -1", "bad --to '-1'" },
		{ "--to 1e3", "bad --to '1e3'" },
		{ "--from 99999999999999999999", "bad --from '99999999999999999999'" },
		{ "--site ''", "bad --site ''" },
		{ "--comm ''", "bad --comm ''" },
		/* a window no record can be in, in either order of the options */
		{ "--from 2 --to 1", "bad --to '1': not after --from (2): no record could be in the window" },
		{ "--to 1 --from 2", "bad --from '2': not before --to (1): no record could be in the window" },
		{ "--from +5us --to +5us", "bad --to '+5us': not after --from (+5us)" },
	};
	static const char *const verbs[] = { "report", "deltas", "convert -o /dev/null" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		for (size_t v = 0; v < 3; v++) {
			char args[300], *out, *err;
			int st;

			snprintf(args, sizeof(args), "%s %s", verbs[v], bad[i][0]);
			out = run(args, &st, &err);
			CHECK_WHY(st == 2 && strstr(err, bad[i][1]) && !out[0],
				  NAMEF("%s: usage error (exit 2) saying why", args),
				  "exit %d, stderr %s", st, err);
			free(out);
			free(err);
		}
	}
	{
		/* TO forgotten: the capture is not taken for TO (nor the live
		 * buffers read) */
		char *out, *err;
		int st;

		out = run("hist --pair 99", &st, &err);
		CHECK_WHY(st == 2 && strstr(err, "the deltas table has"),
			  "hist --pair N beyond the table: usage error (exit 2)", "exit %d, stderr %s", st, err);
		free(out);
		free(err);
		out = run("hist g:40 f:10", &st, &err);
		CHECK_WHY(st == 2 && strstr(err, "no deltas from g:40 to f:10"),
			  "hist FROM TO of no pair: usage error (exit 2)", "exit %d, stderr %s", st, err);
		free(out);
		free(err);
		out = run("hist f:10", &st, &err);
		CHECK_WHY(st == 2 && strstr(err, "is a file") && !out[0],
			  "hist FROM FILE (TO missing): usage error (exit 2), FILE named as a file",
			  "exit %d, stderr %s", st, err);
		free(out);
		free(err);
	}
	{
		char args[1200], *out, *err;
		int st;

		snprintf(args, sizeof(args), "diff --context bogus %s", path);
		out = run(args, &st, &err);
		CHECK_TRUE(st == 2 && strstr(err, "logdev diff: bad --context 'bogus'"),
			   "diff --context bogus: exit 2");
		free(out);
		free(err);
	}
}

/* the parser's values, through the library */
static void test_parse(void)
{
	struct lgd_filter f = { 0 };
	char why[200];

	CHECK_EQ(lgd_filter_set(&f, "from", "4.026146", why, sizeof(why)), 0, "from 4.026146");
	CHECK_TRUE(f.has_from && !f.from_rel && f.from_ns == 4026146000ull, "from 4.026146: ns");
	CHECK_EQ(lgd_filter_set(&f, "to", "+1.5s", why, sizeof(why)), 0, "to +1.5s");
	CHECK_TRUE(f.has_to && f.to_rel && f.to_ns == 1500000000ull, "to +1.5s: relative ns");
	CHECK_EQ(lgd_filter_set(&f, "to", "200ms", why, sizeof(why)), 0, "to 200ms");
	CHECK_TRUE(!f.to_rel && f.to_ns == 200000000ull, "to 200ms: ns");
	CHECK_EQ(lgd_filter_set(&f, "to", "2.5us", why, sizeof(why)), 0, "to 2.5us");
	CHECK_EQ(f.to_ns, 2500, "to 2.5us: 2500 ns");
	CHECK_EQ(lgd_filter_set(&f, "to", "7ns", why, sizeof(why)), 0, "to 7ns");
	CHECK_EQ(f.to_ns, 7, "to 7ns");
	CHECK_EQ(lgd_filter_set(&f, "from", "18446744073.709551615", why, sizeof(why)), 0,
		 "from 2^64-1 ns in seconds");
	CHECK_TRUE(f.from_ns == UINT64_MAX, "from 18446744073.709551615: 2^64-1 ns");
	CHECK_EQ(lgd_filter_set(&f, "from", "18446744073.709551616", why, sizeof(why)), -EINVAL,
		 "from 2^64 ns: refused");
	CHECK_TRUE(f.from_ns == UINT64_MAX, "a refused value leaves the filter as it was");
	CHECK_EQ(lgd_filter_set(&f, "cpu", "0,2-3", why, sizeof(why)), 0, "cpu 0,2-3");
	CHECK_TRUE(f.nr_cpus == 2 && f.cpus[1].lo == 2 && f.cpus[1].hi == 3, "cpu 0,2-3: two ranges");
	CHECK_EQ(lgd_filter_set(&f, "cpu", "1-x", why, sizeof(why)), -EINVAL, "cpu 1-x refused");
	CHECK_EQ(f.nr_cpus, 2, "cpu 1-x: the list as it was");
	CHECK_EQ(lgd_filter_set(&f, "bogus", "1", why, sizeof(why)), -ENOENT, "unknown filter name");
	CHECK_TRUE(lgd_filter_active(&f), "lgd_filter_active");
	lgd_filter_free(&f);
	CHECK_TRUE(!lgd_filter_active(&f), "lgd_filter_free: empty again");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_filters PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	make_cap();
	test_report();
	test_report_window();
	test_deltas();
	test_durations();
	test_gaps();
	test_diff_convert();
	test_bad();
	test_parse();
	if (!getenv("KEEP"))
		tmpdir_remove();
	printf("filters: %d passed, %d failed\n", passes, failures);
	return ldc_exit_status();
}
