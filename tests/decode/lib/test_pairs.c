// SPDX-License-Identifier: GPL-2.0
/*
 * test_pairs.c: which records pair (streams.c: --by context, cpu, task),
 * nested time, and the per-pair histograms' percentiles (deltas.c) against
 * exact nearest-rank values on random and adversarial data.
 *   test_pairs PATH-TO-logdev
 * Output: "PASS: name" / "FAIL: name: why"; exit 1 if anything failed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"

/* deltas --durations of a capture without probe-cost calibration */
#define NOTE_NO_COST \
	"probe cost: not taken out: the capture has no calibration (write \"calibrate\" to logdev/probe_cost before recording); durations and self times include the nested probes' own time\n"

char tmpdir[] = "/tmp/logdev-pairs-XXXXXX";

static const char formats[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tnet/core/skbuff.c\t291\tkfree_skbmem\tin\n"
	"2\tnet/core/skbuff.c\t295\tkfree_skbmem\t1\n"
	"3\tnet/core/skbuff.c\t320\tkfree_skbmem\tout\n";

static char *run(const char *fmt, const char *path, int *st)
{
	char args[700], *out, *err;

	snprintf(args, sizeof(args), fmt, path);
	*st = run_cli(args, &out, &err);
	tl_strip_clock(out);	/* report's header: test_report.c checks it */
	if (err[0])
		printf("# stderr of %s: %s", args, err);
	free(err);
	return out;
}

/*
 * CPU 0, pid 10: a task pair in -> out with two hardirq records inside it
 * (1 us apart), out -> in, then in -> out again with a hardirq, an NMI
 * inside it, and a hardirq: the task pairs keep their true 10 us, and the
 * interrupts' records pair among themselves.
 */
static void test_context(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *out, *path;
	int st;

	cap_meta(&b, formats);
	sb_begin(&s, 0, 0, 1000000, 0, 0);
	sb_rec(&s, 1000000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	sb_rec(&s, 1002000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 10, NULL, 0);
	sb_rec(&s, 1003000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 10, NULL, 0);
	sb_rec(&s, 1010000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 0, 1, 1020000, 0, 0);	/* 8 records fill a sub-buffer */
	sb_rec(&s, 1020000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	sb_rec(&s, 1021000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 10, NULL, 0);
	sb_rec(&s, 1021500, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_NMI, 10, NULL, 0);
	sb_rec(&s, 1022000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 10, NULL, 0);
	sb_rec(&s, 1030000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("ctx.cap", b.p, b.n);
	free(b.p);

	out = run("deltas %s", path, &st);
	/* nested: 291->320 twice, 1 us (2 records) + 1 us (3 records); the
	 * hardirq pair around the NMI: 1 record, a span of 0 */
	CHECK_STR_EQ(out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:295         kfree_skbmem:295                  3      1.000      1.000     18.000     18.000       20.000        1      0.000\n"
		"kfree_skbmem:291         kfree_skbmem:320                  2     10.000     10.000     10.000     10.000       20.000        2      2.000\n"
		"kfree_skbmem:320         kfree_skbmem:291                  1     10.000     10.000     10.000     10.000       10.000        0      0.000\n",
		"deltas --by context: an irq inside a task pair leaves it whole, nested time apart");
	CHECK_EQ(st, 0, "deltas --by context exit 0");
	free(out);
	out = run("deltas --by=context %s", path, &st);
	CHECK_TRUE(strstr(out, "kfree_skbmem:291         kfree_skbmem:320                  2     10.000") != NULL,
		   "deltas --by=context is the default");
	free(out);

	/* the rule before: the interrupt splits the task's pair */
	out = run("deltas --by cpu %s", path, &st);
	CHECK_STR_EQ(out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:295         kfree_skbmem:320                  2      7.000      7.000      8.000      8.000       15.000\n"
		"kfree_skbmem:320         kfree_skbmem:291                  1     10.000     10.000     10.000     10.000       10.000\n"
		"kfree_skbmem:291         kfree_skbmem:295                  2      1.000      1.000      2.000      2.000        3.000\n"
		"kfree_skbmem:295         kfree_skbmem:295                  3      0.500      0.500      1.000      1.000        2.000\n",
		"deltas --by cpu: consecutive records of the CPU, any context");
	free(out);

	/* report's +D us follows the same rule */
	out = run("report %s", path, &st);
	CHECK_STR_EQ(out,
		"[     0.001000] cpu:0 pid:10 kfree_skbmem:291 in\n"
		"[     0.001002] cpu:0 pid:10 hardirq kfree_skbmem:295 1\n"
		"[     0.001003] cpu:0 pid:10 hardirq kfree_skbmem:295 1  +1.000 us\n"
		"[     0.001010] cpu:0 pid:10 kfree_skbmem:320 out  +10.000 us\n"
		"[     0.001020] cpu:0 pid:10 kfree_skbmem:291 in  +10.000 us\n"
		"[     0.001021] cpu:0 pid:10 hardirq kfree_skbmem:295 1  +18.000 us\n"
		"[     0.001021] cpu:0 pid:10 nmi kfree_skbmem:295 1\n"
		"[     0.001022] cpu:0 pid:10 hardirq kfree_skbmem:295 1  +1.000 us\n"
		"[     0.001030] cpu:0 pid:10 kfree_skbmem:320 out  +10.000 us\n",
		"report: +D us since the previous record of the same CPU and context");
	free(out);
	out = run("report --by cpu %s", path, &st);
	CHECK_TRUE(strstr(out, "] cpu:0 pid:10 kfree_skbmem:320 out  +7.000 us\n") != NULL,
		   "report --by cpu: +D us since the CPU's previous record");
	free(out);

	out = run("deltas --by bogus %s", path, &st);
	CHECK_EQ(st, 2, "deltas --by bogus: usage error");
	free(out);
	out = run("report --by %s", "", &st);
	CHECK_EQ(st, 2, "report --by without a value: usage error");
	free(out);

	/* diff pairs the same way */
	{
		char args[1400], *err;

		snprintf(args, sizeof(args), "diff %s %s", path, path);
		st = run_cli(args, &out, &err);
		CHECK_TRUE(st == 0 && strstr(out, "kfree_skbmem:291         kfree_skbmem:320                 2       10.000") != NULL,
			   "diff: pairs by context too");
		free(out);
		free(err);
		snprintf(args, sizeof(args), "diff --by cpu %s %s", path, path);
		st = run_cli(args, &out, &err);
		CHECK_TRUE(st == 0 && !strstr(out, "kfree_skbmem:291         kfree_skbmem:320"),
			   "diff --by cpu: the interrupt splits the pair");
		free(out);
		free(err);
	}
}

/*
 * pid 20 enters on CPU 1 and leaves on CPU 0 (migrated); pid 30 the other
 * way round; an interrupt of pid 20 on CPU 0 before its record there
 */
static void test_task(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *out, *path;
	int st;

	cap_meta(&b, formats);
	sb_begin(&s, 1, 0, 2000000, 0, 0);
	sb_rec(&s, 2000000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 20, NULL, 0);
	sb_rec(&s, 2001000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 30, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	sb_begin(&s, 0, 0, 2003000, 0, 0);
	sb_rec(&s, 2003000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 20, NULL, 0);
	sb_rec(&s, 2005000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 20, NULL, 0);
	sb_rec(&s, 2006000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 30, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("task.cap", b.p, b.n);
	free(b.p);

	out = run("deltas --by task %s", path, &st);
	CHECK_STR_EQ(out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:291         kfree_skbmem:320                  1      5.000      5.000      5.000      5.000        5.000        1      0.000\n"
		"kfree_skbmem:295         kfree_skbmem:320                  1      5.000      5.000      5.000      5.000        5.000        0      0.000\n",
		"deltas --by task: a task's pair across CPUs, its interrupt nested");
	CHECK_EQ(st, 0, "deltas --by task exit 0");
	free(out);
	out = run("deltas %s", path, &st);
	CHECK_STR_EQ(out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:291         kfree_skbmem:295                  1      1.000      1.000      1.000      1.000        1.000        0      0.000\n"
		"kfree_skbmem:320         kfree_skbmem:320                  1      1.000      1.000      1.000      1.000        1.000        0      0.000\n",
		"deltas --by context: per CPU, whatever the task");
	free(out);
}

/*
 * --by task, nested time is what ran on the CPU in other contexts between
 * the task's two records, whatever pid the interrupts' records carry:
 * pid 10 records in on CPU 0, sleeps, the idle CPU takes two hardirqs
 * (pid 0, 1 us apart), pid 10 records out.  --by context and --by task
 * give the same pair and the same nested time (issue 11: --by task had
 * given the run to pid 0's stream, nested 0).
 */
static void test_task_idle_irq(void)
{
	static const char want[] =
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:291         kfree_skbmem:320                  1     10.000     10.000     10.000     10.000       10.000        1      1.000\n"
		"kfree_skbmem:295         kfree_skbmem:295                  1      1.000      1.000      1.000      1.000        1.000        0      0.000\n";
	struct buf b = { 0 };
	struct sbuf s;
	char *out, *path;
	int st;

	cap_meta(&b, formats);
	sb_begin(&s, 0, 0, 1000000, 0, 0);
	sb_rec(&s, 1000000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	sb_rec(&s, 1002000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 0, NULL, 0);
	sb_rec(&s, 1003000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 0, NULL, 0);
	sb_rec(&s, 1010000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("idleirq.cap", b.p, b.n);
	free(b.p);
	out = run("deltas %s", path, &st);
	CHECK_STR_EQ(out, want, "deltas --by context: an idle CPU's interrupts nested in the task pair");
	free(out);
	out = run("deltas --by task %s", path, &st);
	CHECK_STR_EQ(out, want,
		"deltas --by task: interrupts of pid 0 between a task's two records on its CPU are nested in its pair");
	free(out);
}

/*
 * a capture of sites 1 -> 2 (in -> out, 10 us) whose formats are @formats,
 * and 3 -> 4 on CPU 1 if @four
 */
static char *paths_cap(const char *name, const char *formats, int four)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *path;

	cap_meta(&b, formats);
	sb_begin(&s, 0, 0, 1000000, 0, 0);
	sb_rec(&s, 1000000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	sb_rec(&s, 1010000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	if (four) {
		sb_begin(&s, 1, 0, 1000000, 0, 0);
		sb_rec(&s, 1000000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 11, NULL, 0);
		sb_rec(&s, 1020000, 4, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 11, NULL, 0);
		cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	}
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return path;
}

/*
 * diff matches sites across build trees by file name (issue 11): one
 * module built in /a and in /b matches; a third capture with that file
 * name in two directories does not (either could be meant: warned); a
 * capture with nothing in common says so and exits 3.  diff --svg finds
 * B's pair by the same rule.
 */
static void test_diff_paths(void)
{
	char *a = strdup(paths_cap("pa.cap",
		"# id\tfile\tline\tfunc\tformat\n"
		"1\t/a/drv/x.c\t10\tf\tin\n"
		"2\t/a/drv/x.c\t12\tf\tout\n", 0));
	char *b = strdup(paths_cap("pb.cap",
		"# id\tfile\tline\tfunc\tformat\n"
		"1\t/b/drv/x.c\t10\tf\tin\n"
		"2\t/b/drv/x.c\t12\tf\tout\n", 0));
	char *c = strdup(paths_cap("pc.cap",
		"# id\tfile\tline\tfunc\tformat\n"
		"1\t/c/one/x.c\t10\tf\tin\n"
		"2\t/c/one/x.c\t12\tf\tout\n"
		"3\t/c/two/x.c\t10\tf\tin\n"
		"4\t/c/two/x.c\t12\tf\tout\n", 1));
	char *d = strdup(paths_cap("pd.cap",
		"# id\tfile\tline\tfunc\tformat\n"
		"1\t/b/drv/y.c\t10\tg\tin\n"
		"2\t/b/drv/y.c\t12\tg\tout\n", 0));
	char args[1400], *out, *err;
	int st;

	snprintf(args, sizeof(args), "diff %s %s", a, b);
	st = run_cli(args, &out, &err);
	CHECK_STR_EQ(out,
		"from                     to                         count_A median_A(us)   p99_A(us)   count_B median_B(us)   p99_B(us)      ratio      change  # clock: local (ftrace clock local)\n"
		"f:10                     f:12                             1       10.000      10.000         1       10.000      10.000      1.00x       +0.0%\n",
		"diff: one file name in two build trees is one place");
	CHECK_STR_EQ(err, "", "diff of two build trees: no warning");
	CHECK_EQ(st, 0, "diff of two build trees: exit 0");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff %s %s", a, c);
	st = run_cli(args, &out, &err);
	CHECK_TRUE(!strstr(out, "1.00x") && strstr(out, "only in A") && strstr(out, "only in B"),
		   "diff: a file name in two directories of B matches neither");
	CHECK_TRUE(strstr(err, "could be any of several") != NULL,
		   "diff: the file-name ambiguity is warned about");
	CHECK_EQ(st, 3, "diff with an ambiguous file name: exit 3");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff %s %s", a, d);
	st = run_cli(args, &out, &err);
	CHECK_TRUE(strstr(err, "warning: no pair of A matches a pair of B") != NULL &&
		   strstr(err, "same code?") != NULL, "diff: nothing in common is said, with a hint");
	CHECK_EQ(st, 3, "diff with nothing in common: exit 3");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --svg %s/p.svg f:10 f:12 %s %s", tmpdir, a, b);
	st = run_cli(args, &out, &err);
	CHECK_TRUE(st == 0 && strstr(out, "B: ") && strstr(out, ": 1 deltas"),
		   "diff --svg: B's pair found across build trees");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "diff --svg %s/p.svg f:10 f:12 %s %s", tmpdir, a, c);
	st = run_cli(args, &out, &err);
	CHECK_TRUE(st == 2 && strstr(err, "several sites of the capture could be that one"),
		   "diff --svg: an ambiguous file name is a clear error, as in the table");
	free(out);
	free(err);
	free(a);
	free(b);
	free(c);
	free(d);
}

/*
 * a lost-events gap cuts the pair from site X (an absurd id, 0xfffffff0):
 * the row X -> Y is marked '!', the footnote counts gap, records, pairs
 */
static void test_cut(void)
{
	const uint32_t X = 0xfffffff0u;
	struct buf b = { 0 };
	struct sbuf s;
	char *out, *path;
	int st;

	cap_meta(&b, formats);
	sb_begin(&s, 0, 0, 1000, 0, 0);
	sb_rec(&s, 1000, X, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	sb_rec(&s, 2000, 2, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	sb_rec(&s, 4000, X, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 0, 1, 9000, 7, 0);		/* 7 records dropped before it */
	sb_rec(&s, 9000, 2, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	sb_rec(&s, 9500, X, LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("cut.cap", b.p, b.n);
	free(b.p);
	out = run("deltas %s", path, &st);
	CHECK_STR_EQ(out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:295         site#4294967280:?                 2      0.500      0.500      2.000      2.000        2.500        0      0.000\n"
		"site#4294967280:?        kfree_skbmem:295                  1      1.000      1.000      1.000      1.000        1.000        0      0.000 !\n"
		"! lost events: 1 gap, 7 records lost; 1 pair cut: counts of pairs from a site where one was cut may be short (rows marked !)\n",
		"deltas: a row whose first site had a pair cut by lost events is marked !");
	/* issue 12: lost events are a warning in every verb (stderr: the counts per CPU) */
	CHECK_EQ(st, 3, "deltas with a gap exit 3");
	free(out);
}

/*
 * --by task across a gap: pid 20's record on CPU 1, lost events on CPU 1,
 * then its next record on CPU 0: no pair (its records on CPU 1 may be
 * lost), counted as cut; pid 30 (last on CPU 0) pairs across it
 */
static void test_task_gap(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *out, *path;
	int st;

	cap_meta(&b, formats);
	sb_begin(&s, 1, 0, 1000, 0, 0);
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 20, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	sb_begin(&s, 1, 1, 2000, 3, 0);		/* 3 records dropped on CPU 1 */
	sb_rec(&s, 2000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 40, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	sb_begin(&s, 0, 0, 1500, 0, 0);
	sb_rec(&s, 1500, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 30, NULL, 0);
	sb_rec(&s, 3000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 20, NULL, 0);
	sb_rec(&s, 4000, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_TASK, 30, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("taskgap.cap", b.p, b.n);
	free(b.p);
	out = run("deltas --by task %s", path, &st);
	CHECK_STR_EQ(out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:291         kfree_skbmem:320                  1      2.500      2.500      2.500      2.500        2.500        0      0.000 !\n"
		"! lost events: 1 gap, 3 records lost; 1 pair cut: counts of pairs from a site where one was cut may be short (rows marked !)\n",
		"deltas --by task: a task's pair across a gap of its previous CPU is cut");
	free(out);
}

/* an empty capture: the table says so */
static void test_empty(void)
{
	struct buf b = { 0 };
	char *out, *path;
	int st;

	cap_meta(&b, formats);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("empty.cap", b.p, b.n);
	free(b.p);
	out = run("deltas %s", path, &st);
	CHECK_TRUE(st == 0 && !strcmp(out, "deltas: 0 records\n"), "deltas: an empty capture says 0 records");
	free(out);
	{
		char args[1400], *err;

		snprintf(args, sizeof(args), "diff %s %s", path, path);
		st = run_cli(args, &out, &err);
		CHECK_TRUE(st == 0 && strstr(out, "\nA: 0 records\nB: 0 records\n") != NULL,
			   "diff: an empty capture says 0 records");
		free(out);
		free(err);
	}
}

/*
 * edprint pairs as durations (--pair), self time, --by-parent, --inside:
 * task 10 calls f (10 -> 20, 9 us) which calls g twice (3 us, 1 us; an
 * interrupt's g of 0.5 us meanwhile is not nested: another context), then
 * g alone (2 us)
 */
static void test_nesting(void)
{
	static const struct { const char *args, *name; } usage[] = {	/* exit 2 each */
		{ "deltas --pair f:10,nosuch:1 %s", "deltas --pair with an unknown site: usage error" },
		{ "deltas --pair f:10 %s", "deltas --pair without TO: usage error" },
		{ "deltas --pair f:10,f:20 --pair f:20,g:40 %s",
		  "deltas --pair: a site in two pairs: usage error (was exit 1, 'the same site twice, or')" },
		{ "hist --durations f:10 f:10 %s",
		  "hist --durations FROM FROM: usage error (was exit 1, a message about --pair)" },
	};
	static const char fmts[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\ta.c\t10\tf\tin\n2\ta.c\t20\tf\tout\n"
		"3\tb.c\t30\tg\tin\n4\tb.c\t40\tg\tout\n";
	static const uint64_t rec[][3] = {	/* ts, site, ctx */
		{ 1000, 1, 0 }, { 2000, 3, 0 }, { 3000, 3, 2 }, { 3500, 4, 2 }, { 5000, 4, 0 },
		{ 6000, 3, 0 }, { 7000, 4, 0 }, { 10000, 2, 0 }, { 20000, 3, 0 }, { 22000, 4, 0 },
	};
	struct buf b = { 0 };
	struct sbuf s;
	char *out, *path;
	int st;

	cap_meta(&b, fmts);
	sb_begin(&s, 0, 0, 1000, 0, 0);
	for (size_t i = 0; i < sizeof(rec) / sizeof(rec[0]); i++) {
		if (i == 8) {
			cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
			sb_begin(&s, 0, 1, rec[i][0], 0, 0);
		}
		sb_rec(&s, rec[i][0], (uint32_t)rec[i][1], LOGDEV_REC_PRINT, (uint8_t)rec[i][2], 10,
		       NULL, 0);
	}
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("nest.cap", b.p, b.n);
	free(b.p);

	out = run("deltas --pair f:10,f:20 --pair g:30,g:40 %s", path, &st);
	CHECK_STR_EQ(out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)  # clock: local (ftrace clock local)\n"
		"f:10                     f:20                              1      9.000      9.000      9.000      9.000        9.000        5.000\n"
		"g:30                     g:40                              4      0.500      1.000      3.000      3.000        6.500        6.500\n"
		NOTE_NO_COST
		"durations: 5 paired (0 negative), 0 entries without return, 0 returns without entry\n",
		"deltas --pair: edprint pairs as durations, self time without nested pairs");
	CHECK_EQ(st, 0, "deltas --pair exit 0");
	free(out);
	out = run("deltas --pair f:10,f:20 --pair g:30,g:40 --by-parent %s", path, &st);
	CHECK_STR_EQ(out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us) parent  # clock: local (ftrace clock local)\n"
		"f:10                     f:20                              1      9.000      9.000      9.000      9.000        9.000        5.000 -\n"
		"g:30                     g:40                              2      1.000      1.000      3.000      3.000        4.000        4.000 f:10\n"
		"g:30                     g:40                              2      0.500      0.500      2.000      2.000        2.500        2.500 -\n"
		NOTE_NO_COST
		"durations: 5 paired (0 negative), 0 entries without return, 0 returns without entry\n",
		"deltas --by-parent: g split by its innermost enclosing pair");
	free(out);
	out = run("deltas --pair f:10,f:20 --pair g:30,g:40 --inside f:10 %s", path, &st);
	CHECK_TRUE(strstr(out, "\ninside f:10: 1 call, 9.000 us inclusive\n"
			  "  g:30 -> g:40: 2 calls, 4.000 us, 44.4 % of f:10\n") != NULL,
		   "deltas --inside: time of g inside f, and its share");
	free(out);
	for (size_t i = 0; i < sizeof(usage) / sizeof(usage[0]); i++) {
		out = run(usage[i].args, path, &st);
		CHECK_EQ(st, 2, usage[i].name);
		free(out);
	}
}

/*
 * --inside with callees that nest: f (10 us) calls g (8 us), which calls
 * h (6 us); h again outside f (20 us), so h's total (26 us) leads the table
 * while g leads inside f.  The list is by time inside f (g first), and the
 * shares, of calls at any depth, add to 140 %, which a note says (a fresh
 * user's list added to more than 100 % in the table's order, unexplained)
 */
static void test_inside_nested(void)
{
	static const char fmts[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\ta.c\t10\tf\tin\n2\ta.c\t20\tf\tout\n"
		"3\tb.c\t30\tg\tin\n4\tb.c\t40\tg\tout\n"
		"5\tc.c\t50\th\tin\n6\tc.c\t60\th\tout\n";
	static const uint64_t rec[][2] = {	/* ts, site */
		{ 1000, 1 }, { 2000, 3 }, { 3000, 5 }, { 9000, 6 }, { 10000, 4 }, { 11000, 2 },
		{ 20000, 5 }, { 40000, 6 },
	};
	char *out, *path = build_seq("inside-nested.cap", fmts, rec, 8);
	int st;

	out = run("deltas --pair f:10,f:20 --pair g:30,g:40 --pair h:50,h:60 --inside f:10 %s",
		  path, &st);
	CHECK_TRUE(strstr(out, "\ninside f:10: 1 call, 10.000 us inclusive\n"
			  "  g:30 -> g:40: 1 call, 8.000 us, 80.0 % of f:10\n"
			  "  h:50 -> h:60: 1 call, 6.000 us, 60.0 % of f:10\n"
			  "  (calls at any depth inside f:10: nested ones are counted in their "
			  "callers too, so the shares add to 140.0 %; --by-parent splits them by "
			  "direct parent)\n") != NULL,
		   "deltas --inside: nested callees by time inside, their shares' sum over 100 % said");
	CHECK_EQ(st, 0, "deltas --inside with nested callees: exit 0");
	free(out);
	out = run("deltas --pair f:10,f:20 --pair g:30,g:40 --inside f:10 %s", path, &st);
	CHECK_TRUE(strstr(out, "80.0 % of f:10\n") && !strstr(out, "shares add"),
		   "deltas --inside: shares within 100 %: no note");
	free(out);
}

/* ---- histograms ----------------------------------------------------------- */

static uint64_t rng = 88172645463325252ull;

static uint64_t xorshift(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* |a - e| <= |e| / 2^8, exactly (128-bit), and a == e below 256 */
static int within(int64_t a, int64_t e)
{
	__int128 d = (__int128)a - e, m = e < 0 ? -(__int128)e : e;

	if (d < 0)
		d = -d;
	return m < 256 ? d == 0 : d * 256 <= m;
}

/*
 * logdev hist's log2 buckets (lgd_hist_log2()) of @h and of the merged @hm
 * against counts made from the @n values themselves: bucket 0 the value 0,
 * bucket k [2^(k-1), 2^k), negative values by magnitude.
 */
static void check_log2(const char *name, const struct lgd_hist *h, const struct lgd_hist *hm,
		       const int64_t *v, uint64_t n)
{
	static uint64_t want[2][LGD_HIST_LOG2_N], pos[2][LGD_HIST_LOG2_N], neg[2][LGD_HIST_LOG2_N];
	char why[200] = "";
	int bad = 0;

	memset(want, 0, sizeof(want));
	for (uint64_t i = 0; i < n; i++) {
		uint64_t m = v[i] < 0 ? -(uint64_t)v[i] : (uint64_t)v[i];

		want[v[i] < 0][m ? 64 - __builtin_clzll(m) : 0]++;
	}
	lgd_hist_log2(h, pos[0], neg[0]);
	lgd_hist_log2(hm, pos[1], neg[1]);
	for (int k = 0; k < LGD_HIST_LOG2_N && !bad; k++)
		for (int j = 0; j < 2 && !bad; j++)
			if (pos[j][k] != want[0][k] || neg[j][k] != want[1][k]) {
				snprintf(why, sizeof(why), "bucket %d: want %llu/-%llu, got %llu/-%llu%s",
					 k, (unsigned long long)want[0][k],
					 (unsigned long long)want[1][k], (unsigned long long)pos[j][k],
					 (unsigned long long)neg[j][k], j ? " (merged)" : "");
				bad = 1;
			}
	CHECK_WHY(!bad, NAMEF("hist %s: log2 bucket counts exact (logdev hist)", name), "%s", why);
}

/*
 * Put @n values of @v into a histogram (and half of them into each of two
 * merged ones), compare count, min, max, total and the percentiles with the
 * exact values of a sorted copy.
 */
static void check_values(const char *name, int64_t *v, uint64_t n)
{
	static const unsigned int qs[] = { 1, 10, 25, 50, 75, 90, 99, 100 };
	struct lgd_hist h = { 0 }, h1 = { 0 }, h2 = { 0 };
	__int128 sum = 0;
	int bad = 0, err = 0;
	char why[300] = "";

	for (uint64_t i = 0; i < n; i++) {
		err |= lgd_hist_add(&h, v[i]);
		err |= lgd_hist_add(i % 2 ? &h1 : &h2, v[i]);
		sum += v[i];
	}
	err |= lgd_hist_merge(&h1, &h2);
	qsort(v, n, sizeof(*v), i64_cmp);
	CHECK_WHY(!err && h.count == n && h.min == v[0] && h.max == v[n - 1] &&
		  h.sum == sum && h1.count == n && h1.min == v[0] && h1.max == v[n - 1],
		  NAMEF("hist %s: count, min, max, sum exact", name),
		  "err %d count %llu min %lld max %lld", err, (unsigned long long)h.count,
		  (long long)h.min, (long long)h.max);
	for (unsigned int k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		uint64_t r = (n * qs[k] + 99) / 100;
		int64_t e = v[r ? r - 1 : 0];
		int64_t a = lgd_hist_quantile(&h, qs[k]), a1 = lgd_hist_quantile(&h1, qs[k]);

		if (!within(a, e) || a1 != a || (n <= LGD_HIST_EXACT_MAX && a != e)) {
			if (!bad)
				snprintf(why, sizeof(why), "p%u: exact %lld, histogram %lld, merged %lld",
					 qs[k], (long long)e, (long long)a, (long long)a1);
			bad = 1;
		}
	}
	CHECK_WHY(!bad, NAMEF("hist %s: percentiles within 2^-8 of exact (%llu values%s)", name,
			       (unsigned long long)n, n <= LGD_HIST_EXACT_MAX ? ", exact" : ""),
		  "%s", why);
	CHECK_EQ(lgd_hist_is_exact(&h), n <= LGD_HIST_EXACT_MAX,
		 NAMEF("hist %s: exact only while all values are kept", name));
	check_log2(name, &h, &h1, v, n);
	lgd_hist_free(&h);
	lgd_hist_free(&h1);
	lgd_hist_free(&h2);
}

static void test_hist(void)
{
	enum { N = 200000 };
	int64_t *v = malloc(N * sizeof(*v));
	uint64_t n;

	if (!v) {
		fail("hist", "no memory");
		return;
	}
	/* random: log-uniform from 1 ns to about 17 s */
	for (n = 0; n < N; n++)
		v[n] = (int64_t)((xorshift() >> 30) >> (xorshift() % 34));
	check_values("log-uniform", v, N);
	/* random: uniform in 0..999 ns (the exact buckets and the first octaves) */
	for (n = 0; n < N; n++)
		v[n] = (int64_t)(xorshift() % 1000);
	check_values("uniform 0-999", v, N);
	/* signed: durations with negative values */
	for (n = 0; n < N; n++)
		v[n] = (int64_t)(xorshift() % 2000000) - 500000;
	check_values("signed", v, N);
	/* adversarial: every bucket edge of every power of two, both sides of it */
	n = 0;
	for (int e = 8; e < 63; e++)
		for (int i = 0; i < 128; i += 5) {
			uint64_t lo = (uint64_t)(128 + i) << (e - 7);

			v[n++] = (int64_t)lo;
			v[n++] = (int64_t)(lo - 1);
			v[n++] = (int64_t)(lo + (1ull << (e - 7)) - 1);
		}
	check_values("bucket edges", v, n);
	/* adversarial: the extremes */
	n = 0;
	for (int i = 0; i < 3000; i++) {
		v[n++] = INT64_MAX;
		v[n++] = INT64_MIN;
		v[n++] = INT64_MIN + 1;
		v[n++] = 0;
	}
	check_values("INT64_MIN, INT64_MAX, 0", v, n);
	/* adversarial: one value, just above a power of two (the widest error) */
	for (n = 0; n < 5000; n++)
		v[n] = (1ll << 40) + 1;
	check_values("one value 2^40+1", v, n);
	/* two clusters: the median falls between them */
	for (n = 0; n < 5001; n++)
		v[n] = n % 2 ? 1000000007 : 257;
	check_values("two clusters", v, n);
	/* around the exact limit */
	for (n = 0; n < LGD_HIST_EXACT_MAX; n++)
		v[n] = 1000003 + (int64_t)n * 7919;
	check_values("exact limit", v, LGD_HIST_EXACT_MAX);
	for (n = 0; n <= LGD_HIST_EXACT_MAX; n++)
		v[n] = 1000003 + (int64_t)n * 7919;
	check_values("exact limit + 1", v, LGD_HIST_EXACT_MAX + 1);
	free(v);
	{
		struct lgd_hist h = { 0 };

		CHECK_EQ(lgd_hist_quantile(&h, 50), 0, "hist: empty: percentile 0");
		CHECK_EQ(lgd_hist_total(&h), 0, "hist: empty: total 0");
	}
	{
		struct lgd_hist h = { 0 };

		for (int i = 0; i < 3; i++)
			lgd_hist_add(&h, INT64_MAX);
		CHECK_EQ(lgd_hist_total(&h), INT64_MAX, "hist: a total beyond 2^63-1 saturates");
		lgd_hist_free(&h);
	}
}

/* logdev hist's bucket labels (bpftrace's style, binary suffixes) */
static void test_log2_labels(void)
{
	static const struct { unsigned int k; int neg; const char *want; } t[] = {
		{ 0, 0, "[0]" }, { 1, 0, "[1]" }, { 2, 0, "[2, 4)" }, { 10, 0, "[512, 1K)" },
		{ 11, 0, "[1K, 2K)" }, { 21, 0, "[1M, 2M)" }, { 31, 0, "[1G, 2G)" },
		{ 63, 0, "[4E, 8E)" }, { 64, 0, "[8E, 16E)" }, { 1, 1, "[-1]" },
		{ 3, 1, "(-8, -4]" }, { 12, 1, "(-4K, -2K]" },
	};
	char b[48];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		lgd_log2_label(b, sizeof(b), t[i].k, t[i].neg);
		CHECK_STR_EQ(b, t[i].want, NAMEF("hist: log2 label of bucket %s%u", t[i].neg ? "-" : "",
						 t[i].k));
	}
}

/* deltas --help states the bound */
static void test_help(void)
{
	char *out, *err;
	int st = run_cli("deltas --help", &out, &err);

	CHECK_TRUE(st == 0 && strstr(out, "2^-8 (0.39 %)") && strstr(out, "--by"),
		   "deltas --help: the percentiles' error bound and --by");
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_pairs PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_context();
	test_task();
	test_task_idle_irq();
	test_diff_paths();
	test_empty();
	test_cut();
	test_task_gap();
	test_nesting();
	test_inside_nested();
	test_hist();
	test_help();
	test_log2_labels();
	tmpdir_remove();
	printf("pairs: %d passed, %d failed\n", passes, failures);
	return ldc_exit_status();
}
