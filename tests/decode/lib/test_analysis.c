// SPDX-License-Identifier: GPL-2.0
/*
 * test_analysis.c: the analyses (library and CLI): diff of two captures,
 * return-probe durations, spans over 2^62 ns, every entry and return
 * accounted for, probes' miss counts
 * Captures are built byte by byte (testlib.h, fixture.h), written to
 * temporary files, decoded by the library in-process and by the CLI given
 * as argv[1].
 * Usage: test_analysis PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <sys/wait.h>
#include <limits.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"

/* deltas --durations of a capture without probe-cost calibration */
#define NOTE_NO_COST \
	"probe cost: not taken out: the capture has no calibration (write \"calibrate\" to logdev/probe_cost before recording); durations and self times include the nested probes' own time\n"

char tmpdir[] = "/tmp/logdev-analysis-XXXXXX";

/* ---- diff and return-probe durations ------------------------------- */

static const char formats_b[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tnet/core/skbuff.c\t320\tkfree_skbmem\tout\n"
	"2\tnet/core/skbuff.c\t291\tkfree_skbmem\tin\n"
	"3\tnet/core/skbuff.c\t295\tkfree_skbmem\t1\n"
	"7\tdrivers/net/y.c\t50\tnew_func\tnew\n";

/*
 * A: three times in -> 1 (1 us) -> out (2 us), 97 us apart, then foo_xmit:10.
 * B: the same sites under other ids: in -> 1 takes 484 us, 1 -> out 1 us,
 *    out -> in 515 us; ends with new_func:50 instead of foo_xmit:10.
 */
static void test_diff(void)
{
	const uint64_t T = 1000000000ull;
	uint64_t ra[10][2], rb[10][2];
	char *pa, *pb, *out, *err, args[1400];
	int n = 0, st;

	for (int k = 0; k < 3; k++) {
		ra[n][0] = T + k * 100000ull; ra[n++][1] = 1;
		ra[n][0] = T + k * 100000ull + 1000; ra[n++][1] = 2;
		ra[n][0] = T + k * 100000ull + 3000; ra[n++][1] = 3;
	}
	ra[n][0] = T + 300000; ra[n++][1] = 4;
	pa = build_seq("a.cap", formats_text, (const uint64_t (*)[2])ra, n);
	n = 0;
	for (int k = 0; k < 3; k++) {
		rb[n][0] = T + k * 1000000ull; rb[n++][1] = 2;
		rb[n][0] = T + k * 1000000ull + 484000; rb[n++][1] = 3;
		rb[n][0] = T + k * 1000000ull + 485000; rb[n++][1] = 1;
	}
	rb[n][0] = T + 3000000; rb[n++][1] = 7;
	pb = build_seq("b.cap", formats_b, (const uint64_t (*)[2])rb, n);

	snprintf(args, sizeof(args), "diff %s %s", pa, pb);
	st = run_cli(args, &out, &err);
	expect_text("diff golden text (matched by func:line, worst first, one-sided last)", out,
		"from                     to                         count_A median_A(us)   p99_A(us)   count_B median_B(us)   p99_B(us)      ratio      change  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:291         kfree_skbmem:295                 3        1.000       1.000         3      484.000     484.000    484.00x   +48300.0%\n"
		"kfree_skbmem:320         kfree_skbmem:291                 2       97.000      97.000         2      515.000     515.000      5.31x     +430.9%\n"
		"kfree_skbmem:295         kfree_skbmem:320                 3        2.000       2.000         3        1.000       1.000      0.50x      -50.0%\n"
		"kfree_skbmem:320         foo_xmit:10                      1       97.000      97.000         -            -           -          -   only in A\n"
		"kfree_skbmem:320         new_func:50                      -            -           -         1      515.000     515.000          -   only in B\n");
	CHECK_WHY(st == 0 && !err[0],
		  "diff exit 0, no warnings",
		  "status %d stderr '%s'", st, err);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", pa, pb);
	run_cli(args, &out, &err);
	expect_text("diff --format csv golden", out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct,clock_a,clock_b\n"
		"kfree_skbmem:291,kfree_skbmem:295,both,3,1000,1000,3,484000,484000,484.0000,48300.0000,local,local\n"
		"kfree_skbmem:320,kfree_skbmem:291,both,2,97000,97000,2,515000,515000,5.3093,430.9278,local,local\n"
		"kfree_skbmem:295,kfree_skbmem:320,both,3,2000,2000,3,1000,1000,0.5000,-50.0000,local,local\n"
		"kfree_skbmem:320,foo_xmit:10,only_a,1,97000,97000,,,,,,local,local\n"
		"kfree_skbmem:320,new_func:50,only_b,,,,1,515000,515000,,,local,local\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format=json %s %s", pa, pb);
	run_cli(args, &out, &err);
	{
		char exp[2400];

		snprintf(exp, sizeof(exp),
			"{\"a\": \"%s\", \"b\": \"%s\", \"clock_a\": \"local\", \"clock_b\": \"local\", \"pairs\": [\n"
			"  {\"from\": \"kfree_skbmem:291\", \"to\": \"kfree_skbmem:295\", \"status\": \"both\", "
			"\"a\": {\"count\": 3, \"median_ns\": 1000, \"p99_ns\": 1000}, "
			"\"b\": {\"count\": 3, \"median_ns\": 484000, \"p99_ns\": 484000}, "
			"\"ratio\": 484.0000, \"change_pct\": 48300.0000},\n"
			"  {\"from\": \"kfree_skbmem:320\", \"to\": \"kfree_skbmem:291\", \"status\": \"both\", "
			"\"a\": {\"count\": 2, \"median_ns\": 97000, \"p99_ns\": 97000}, "
			"\"b\": {\"count\": 2, \"median_ns\": 515000, \"p99_ns\": 515000}, "
			"\"ratio\": 5.3093, \"change_pct\": 430.9278},\n"
			"  {\"from\": \"kfree_skbmem:295\", \"to\": \"kfree_skbmem:320\", \"status\": \"both\", "
			"\"a\": {\"count\": 3, \"median_ns\": 2000, \"p99_ns\": 2000}, "
			"\"b\": {\"count\": 3, \"median_ns\": 1000, \"p99_ns\": 1000}, "
			"\"ratio\": 0.5000, \"change_pct\": -50.0000},\n"
			"  {\"from\": \"kfree_skbmem:320\", \"to\": \"foo_xmit:10\", \"status\": \"only_a\", "
			"\"a\": {\"count\": 1, \"median_ns\": 97000, \"p99_ns\": 97000}, \"b\": null, "
			"\"ratio\": null, \"change_pct\": null},\n"
			"  {\"from\": \"kfree_skbmem:320\", \"to\": \"new_func:50\", \"status\": \"only_b\", "
			"\"a\": null, \"b\": {\"count\": 1, \"median_ns\": 515000, \"p99_ns\": 515000}, "
			"\"ratio\": null, \"change_pct\": null}\n"
			"]}\n", pa, pb);
		expect_text("diff --format=json golden", out, exp);
	}
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --min-count 3 --format csv %s %s", pa, pb);
	run_cli(args, &out, &err);
	expect_text("diff --min-count 3 keeps pairs with >= 3 deltas on each side", out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct,clock_a,clock_b\n"
		"kfree_skbmem:291,kfree_skbmem:295,both,3,1000,1000,3,484000,484000,484.0000,48300.0000,local,local\n"
		"kfree_skbmem:295,kfree_skbmem:320,both,3,2000,2000,3,1000,1000,0.5000,-50.0000,local,local\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format xml %s %s", pa, pb);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 2 && !out[0],
		  "diff: unknown format is a usage error (2)",
		  "status %d", st);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "diff %s", pa);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 2, "diff: one FILE is a usage error (2)");
	free(out);
	free(err);
}

/*
 * Return probes: sites "probe" f and f%return.  Task 10 nests f twice
 * (recursion); task 20 calls f on CPU 1 meanwhile, and its return comes
 * on CPU 0 (migrated); an interrupt on CPU 0 (pid 10, hardirq) runs f
 * inside task 10's call.  A return without an entry gets no duration.
 */
static void test_durations(void)
{
	static const char fmts[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tprobe\t0\tf\targ1=%llx\n"
		"2\tprobe\t0\tf%return\tretval=%llx\n"
		"3\tprobe\t0\tg\t\n";
	struct buf b = { 0 };
	struct sbuf s;
	struct pl p;
	char *path, *out, *err, args[700];

	cap_start(&b);
	cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, header_text, strlen(header_text));
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, fmts, strlen(fmts));
	sb_begin(&s, 0, 0, 1000, 0, 0);
	enc(&p, "L", 0x11ll);
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);		/* f outer */
	sb_rec(&s, 2000, 1, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);		/* f inner */
	sb_rec(&s, 2500, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 10, p.b, p.n);
	sb_rec(&s, 2600, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 10, p.b, p.n);
	sb_rec(&s, 5000, 2, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);		/* inner: 3 us */
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);	/* 6 records of 32 bytes fill one */
	sb_begin(&s, 0, 1, 9000, 0, 0);
	sb_rec(&s, 9000, 2, LOGDEV_REC_PRINT, 0, 20, p.b, p.n);		/* task 20 */
	sb_rec(&s, 11000, 2, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);	/* outer: 10 us */
	sb_rec(&s, 12000, 2, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);	/* no entry */
	sb_rec(&s, 13000, 3, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 1, 0, 3000, 0, 0);
	sb_rec(&s, 3000, 1, LOGDEV_REC_PRINT, 0, 20, p.b, p.n);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("dur.cap", b.p, b.n);
	free(b.p);

	snprintf(args, sizeof(args), "report --raw %s", path);
	run_cli(args, &out, &err);
	expect_text("report pairs return probes with entries (task, ctx, nesting, migration)", out,
		"1000\t0\t10\ttask\t1\tf\t0\targ1=11\n"
		"2000\t0\t10\ttask\t1\tf\t0\targ1=11\n"
		"2500\t0\t10\thardirq\t1\tf\t0\targ1=11\n"
		"2600\t0\t10\thardirq\t2\tf%return\t0\tretval=11 duration=0.100 us\n"
		"3000\t1\t20\ttask\t1\tf\t0\targ1=11\n"
		"5000\t0\t10\ttask\t2\tf%return\t0\tretval=11 duration=3.000 us\n"
		"9000\t0\t20\ttask\t2\tf%return\t0\tretval=11 duration=6.000 us\n"
		"11000\t0\t10\ttask\t2\tf%return\t0\tretval=11 duration=10.000 us\n"
		"12000\t0\t10\ttask\t2\tf%return\t0\tretval=11\n"
		"13000\t0\t10\ttask\t3\tg\t0\t\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "deltas --durations %s", path);
	run_cli(args, &out, &err);
	expect_text("deltas --durations: paired return-probe durations only, then the summary", out,
		/* self: the outer call's 10 us minus the inner one's 3 us */
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)  # clock: local (ftrace clock local)\n"
		"f:0                      f%return:0                        4      0.100      3.000     10.000     10.000       19.100       16.100\n"
		NOTE_NO_COST
		"durations: 4 paired (0 negative), 0 entries without return, 1 return without entry\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --durations --format csv %s %s", path, path);
	run_cli(args, &out, &err);
	expect_text("diff --durations of a capture with itself", out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct,clock_a,clock_b\n"
		"f:0,f%return:0,both,4,3000,10000,4,3000,10000,1.0000,0.0000,local,local\n");
	free(out);
	free(err);
}

/*
 * Differences of untrusted stamps, never wrapped: an entry at 1000 ns and
 * its return at 2^63 + 5000 ns made a duration of -9223372036854771.808 us
 * ("negative: clock went back", exit 0) in report, deltas --durations and
 * convert, and convert wrote the return at 0.000005 s (a time extend cut to
 * 59 bits) with a negative delta_ns.  Now no duration, a warning (exit 3);
 * the trace.dat has the right time (trace-cmd, if installed) and a delta_ns
 * saturated at 2^63 - 1.
 */
static void test_huge_spans(void)
{
	static const char fmts[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tprobe\t0\tf\targ1=%llx\n"
		"2\tprobe\t0\tf%return\tretval=%llx\n"
		"3\tx.c\t1\tg\tin\n";
	static const char warn_text[] = "logdev: warning: 1 return-probe pair more than 2^62 ns apart "
					"(damaged timestamps?) left out of the durations\n";
	struct buf b = { 0 };
	struct sbuf s;
	struct pl p;
	char *path, *out, *err, args[1400], *dat;
	int st;

	cap_start(&b);
	cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, header_text, strlen(header_text));
	sb_begin(&s, 0, 0, 1000, 0, 0);
	enc(&p, "L", 0x11ll);
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	sb_rec(&s, 2000, 3, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	sb_rec(&s, (1ull << 63) + 5000, 2, LOGDEV_REC_PRINT, 0, 10, p.b, p.n);
	sb_rec(&s, (1ull << 63) + 6000, 3, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, fmts, strlen(fmts));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("huge-span.cap", b.p, b.n);
	free(b.p);

	snprintf(args, sizeof(args), "report --raw %s", path);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(out, "9223372036854780808\t0\t10\ttask\t2\tf%return\t0\tretval=11\n") &&
		  !strstr(out, "duration=") && strstr(err, warn_text) &&
		  strstr(err, "durations: 0 paired (0 negative)"),
		  "huge span: report: no duration 2^63 ns long (none wrapped negative), warned, exit 3",
		  "exit %d stdout %s stderr %s", st, out, err);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas --durations %s", path);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && !strstr(out, "-9223372036") && !strstr(out, "f%return:0") &&
		  strstr(err, warn_text),
		  "huge span: deltas --durations: no row of it, warned, exit 3",
		  "exit %d stdout %s stderr %s", st, out, err);
	free(out);
	free(err);
	dat = tmp_path("huge-span.dat");
	snprintf(args, sizeof(args), "convert -o %s %s", dat, path);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(err, warn_text), "huge span: convert: warned, exit 3",
		  "exit %d stderr %s", st, err);
	free(out);
	free(err);
	if (!system("command -v trace-cmd >/dev/null 2>&1")) {
		char cmd[1400], *got;

		snprintf(cmd, sizeof(cmd), "trace-cmd report -N -t %s > %s 2>/dev/null; "
			 "trace-cmd report -N -R %s >> %s 2>/dev/null", dat, tmp_path("tc.txt"),
			 dat, tmp_path("tc.txt"));
		st = system(cmd);
		got = slurp(tmp_path("tc.txt"));
		CHECK_WHY(strstr(got, "9223372036.854780808: f__return:") &&
			  strstr(got, "delta_ns=9223372036854775807 ") && !strstr(got, "delta_ns=-922"),
			  "huge span: trace.dat: the record's time whole, delta_ns saturated (trace-cmd)",
			  "%s", got);
		free(got);
	} else {
		skip("huge span: trace.dat read back", "trace-cmd not installed");
	}
}

/* ---- every entry and return accounted for --- */

/*
 * r: probe f.  Task 10: entry on cpu0 at 1 ms, return on cpu1 at 1 ms - 5 us
 * (cpu1's clock behind): paired, -5 us, marked.  Task 30: entry without
 * return.  Task 40: return without entry (cpu1).  Task 50: a plain 2 us call
 * on cpu0.  Hardirq on cpu1: a return without entry.  Task 70: a return,
 * then an entry, both on cpu1 (one clock: not a pair, both unmatched).
 */
static void test_dur_accounting(void)
{
	static const char fmts[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tprobe\t0\tf\tin\n"
		"2\tprobe\t0\tf%return\tout\n";
	struct buf b = { 0 };
	struct sbuf s;
	char *path, *out, *err, args[700];
	int st;

	cap_start(&b);
	cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, header_text, strlen(header_text));
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, fmts, strlen(fmts));
	sb_begin(&s, 0, 0, 1000000, 0, 0);
	sb_rec(&s, 1000000, 1, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	sb_rec(&s, 2000000, 1, LOGDEV_REC_PRINT, 0, 30, NULL, 0);
	sb_rec(&s, 4000000, 1, LOGDEV_REC_PRINT, 0, 50, NULL, 0);
	sb_rec(&s, 4002000, 2, LOGDEV_REC_PRINT, 0, 50, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 1, 0, 995000, 0, 0);
	sb_rec(&s, 995000, 2, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	sb_rec(&s, 3000000, 2, LOGDEV_REC_PRINT, 0, 40, NULL, 0);
	sb_rec(&s, 3500000, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 0, NULL, 0);
	sb_rec(&s, 6000000, 2, LOGDEV_REC_PRINT, 0, 70, NULL, 0);
	sb_rec(&s, 6000500, 1, LOGDEV_REC_PRINT, 0, 70, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("skew.cap", b.p, b.n);
	free(b.p);

	snprintf(args, sizeof(args), "report --raw %s", path);
	st = run_cli(args, &out, &err);
	expect_text("report --raw: a return on a CPU whose clock is behind gets its negative duration",
		out,
		"995000\t1\t10\ttask\t2\tf%return\t0\tout duration=-5.000 us (negative: entry on cpu 0, clocks disagree)\n"
		"1000000\t0\t10\ttask\t1\tf\t0\tin\n"
		"2000000\t0\t30\ttask\t1\tf\t0\tin\n"
		"3000000\t1\t40\ttask\t2\tf%return\t0\tout\n"
		"3500000\t1\t0\thardirq\t2\tf%return\t0\tout\n"
		"4000000\t0\t50\ttask\t1\tf\t0\tin\n"
		"4002000\t0\t50\ttask\t2\tf%return\t0\tout duration=2.000 us\n"
		"6000000\t1\t70\ttask\t2\tf%return\t0\tout\n"
		"6000500\t1\t70\ttask\t1\tf\t0\tin\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &out, &err);
	check("report: summary line counts paired, negative and unmatched entries and returns",
	      st == 0 && strstr(out, "out duration=-5.000 us (negative: entry on cpu 0, clocks disagree)") &&
	      !strcmp(err, "logdev: durations: 2 paired (1 negative), 2 entries without return, "
		     "3 returns without entry\n"), "status %d:\n%s\nstderr:\n%s", st, out, err);
	/* stdout holds the clock header and the records, so `report cap > file`
	 * is the records */
	check("report: the durations summary is on stderr, not among the records on stdout",
	      tl_strip_clock(out) && out[0] == '[' && !strstr(out, "durations:"),
	      "stdout:\n%s", out);
	free(out);
	free(err);

	/* the library: every entry and return paired or counted unmatched */
	{
		struct lgd_reader r;
		struct lgd_merge m;
		struct lgd_durations du;
		struct lgd_dur_pair dp;
		struct lgd_item it;
		struct lgd_diag d;
		int np = 0, neg_ok = 0;

		if (lgd_reader_open(&r, path, NULL, NULL, &d) || lgd_dur_init(&du, &r.sites) ||
		    lgd_merge_init(&m, &r)) {
			fail("lgd_dur: open", "%s", d.msg);
		} else {
			while (lgd_merge_next(&m, &it) > 0)
				if (lgd_dur_add(&du, &it, &dp) == 1) {
					np++;
					neg_ok |= dp.ns == -5000 && dp.entry_cpu == 0 &&
						  dp.ret_cpu == 1 && dp.ret_ts == 995000;
				}
			lgd_dur_finish(&du);
			check("lgd_dur: entries = paired + unmatched, returns = paired + unmatched",
			      np == 2 && neg_ok && du.stats.entries == 4 && du.stats.returns == 5 &&
			      du.stats.paired == 2 && du.stats.negative == 1 &&
			      du.stats.entries_unmatched == 2 && du.stats.returns_unmatched == 3,
			      "%d pairs (negative one right: %d); entries %llu returns %llu paired %llu "
			      "negative %llu unmatched %llu/%llu", np, neg_ok,
			      (unsigned long long)du.stats.entries,
			      (unsigned long long)du.stats.returns,
			      (unsigned long long)du.stats.paired,
			      (unsigned long long)du.stats.negative,
			      (unsigned long long)du.stats.entries_unmatched,
			      (unsigned long long)du.stats.returns_unmatched);
			lgd_merge_free(&m);
			lgd_dur_free(&du);
			lgd_reader_close(&r);
		}
	}

	snprintf(args, sizeof(args), "deltas --durations %s", path);
	st = run_cli(args, &out, &err);
	expect_text("deltas --durations: the negative duration counts, and the summary line", out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)  # clock: local (ftrace clock local)\n"
		"f:0                      f%return:0                        2     -5.000     -5.000      2.000      2.000       -3.000       -3.000 ?\n"
		"? rows whose probe has entries without return: their count is short of those (summary line)\n"
		NOTE_NO_COST
		"durations: 2 paired (1 negative), 2 entries without return, 3 returns without entry\n");
	free(out);
	free(err);
}

/* the probes' miss counts of a capture's PROBES section */
static void test_probe_missed(void)
{
	const char *pr =
		"p:lt_probe_target lt_probe_target $arg1 hits=1000 missed=0\n"
		"p:kmem_cache_free kmem_cache_free $arg1 hits=35216 missed=41\n"
		"r3:kprobes/myret do_sys_openat2 $retval:s32 hits=27 returns=27 missed=5\n"
		"t:tp_kcf kmem:kmem_cache_free $arg3 hits=1589\n"
		"p:kmem_cache kmem_cache_alloc hits=2 missed=7";
	struct lgd_site s = { .file = "probe", .func = "kmem_cache_free" };

	CHECK_EQ(lgd_probe_missed(pr, &s), 41, "probe_missed: p: probe");
	s.func = "myret%return";
	CHECK_EQ(lgd_probe_missed(pr, &s), 5, "probe_missed: return site of rN:GRP/NAME");
	s.func = "myret";
	CHECK_EQ(lgd_probe_missed(pr, &s), 5, "probe_missed: entry site of rN:GRP/NAME");
	s.func = "lt_probe_target";
	CHECK_EQ(lgd_probe_missed(pr, &s), 0, "probe_missed: missed=0");
	s.func = "tp_kcf";
	CHECK_EQ(lgd_probe_missed(pr, &s), 0, "probe_missed: tracepoint (no missed=): 0, not the next line's");
	s.func = "kmem_cache";
	CHECK_EQ(lgd_probe_missed(pr, &s), 7, "probe_missed: last line, no newline; a prefix name is not a match");
	s.func = "kmem";
	CHECK_EQ(lgd_probe_missed(pr, &s), 0, "probe_missed: unknown probe");
	s.file = "demo.c";
	s.func = "kmem_cache_free";
	CHECK_EQ(lgd_probe_missed(pr, &s), 0, "probe_missed: an edprint site of the same name is not a probe");
	CHECK_EQ(lgd_probe_missed(NULL, &s), 0, "probe_missed: no PROBES section");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_analysis PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_diff();
	test_durations();
	test_huge_spans();
	test_dur_accounting();
	test_probe_missed();
	tmpdir_remove();
	printf("analysis: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
