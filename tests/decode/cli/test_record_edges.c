// SPDX-License-Identifier: GPL-2.0
/*
 * test_record_edges.c: records at the edges, through the CLI:
 *   A. labels of sites that share file, function and line (a macro that
 *      expands to two edprint() calls) are unique and stable, and diff
 *      matches such sites by their format too;
 *   B. report and deltas treat a timestamp going back, or jumping by more
 *      than 2^62 ns, on one CPU the same way, never overflow, and say what
 *      was left out;
 *   C. a record whose payload ends before an argument its format needs
 *      (not flagged cut) prints "[missing]" there, and report warns once;
 *   D. a text longer than the reader's buffer ends in "[cut]" (issue 24);
 *   F. a capture's PROBES section: misses of the recording, by reason,
 *      parsed by the counters the kernel appends (issue 24).
 * Usage: test_record_edges PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"
#include "capture.h"

char tmpdir[] = "/tmp/logdev-recedges-XXXXXX";

/* ---- A: sites sharing file, function and line ---------------------- */

/* label of site @id after parsing @formats */
static void check_labels(const char *name, const char *formats, const uint32_t *ids,
			 const char *const *exp, int n)
{
	struct lgd_sites s = { 0 };
	char got[256], why[1024] = "";
	int ok = lgd_sites_parse(&s, formats, strlen(formats)) == 0;

	for (int i = 0; ok && i < n; i++) {
		lgd_site_label(&s, ids[i], got, sizeof(got));
		if (strcmp(got, exp[i])) {
			snprintf(why, sizeof(why), "site %u: expected %s, got %s", ids[i],
				 exp[i], got);
			ok = 0;
		}
	}
	CHECK_WHY(ok, name, "%s", why[0] ? why : "parse failed");
	lgd_sites_free(&s);
}

/* three rounds, 100 us apart: loop, first (+1 us), second (+@d2 ns) */
static char *build_macro(const char *name, const char *formats, uint32_t loop,
			 uint32_t first, uint32_t second, uint64_t d2)
{
	struct trec r[9];

	for (int k = 0; k < 3; k++) {
		uint64_t t = 1000000ull + (uint64_t)k * 100000;

		r[3 * k] = (struct trec){ .ts = t, .site = loop };
		r[3 * k + 1] = (struct trec){ .ts = t + 1000, .site = first };
		r[3 * k + 2] = (struct trec){ .ts = t + 1000 + d2, .site = second };
	}
	return tl_build(name, formats, r, 9);
}

/* diff: one site there on each side, its format changed: the place matches */
static void test_diff_changed_format(void)
{
	static const char f1[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tmain.c\t5\tloop\tloop\n"
		"2\tdrv.c\t20\twork\tv1 %d\n"
		"3\tdrv.c\t30\twork\tend\n";
	static const char f2[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tmain.c\t5\tloop\tloop\n"
		"2\tdrv.c\t20\twork\tv2 %d %d\n"
		"3\tdrv.c\t30\twork\tend\n";
	char *out, *err, args[1400];
	int st;
	char *p1 = build_macro("f1.cap", f1, 1, 2, 3, 2000);
	char *p2 = build_macro("f2.cap", f2, 1, 2, 3, 2000);

	snprintf(args, sizeof(args), "diff --format csv %s %s", p1, p2);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 &&
		  strstr(out, "\nloop:5,work:20,both,3,1000,1000,3,1000,1000,") &&
		  strstr(out, "\nwork:20,work:30,both,3,2000,2000,3,2000,2000,") &&
		  !strstr(out, "only"),
		  "diff: a lone site whose format changed is still matched by its place",
		  "status %d:\n%s", st, out);
	free(out);
	free(err);
}

static void test_labels(void)
{
	/*
	 * #define TWO(x) do { edprint("first %d", x); edprint("second %d", x); } while (0)
	 * used on drv.c:20: two sites of one file, function and line.
	 */
	static const char fa[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tmain.c\t5\tloop\tloop\n"
		"2\tdrv.c\t20\twork\tfirst %d\n"
		"3\tdrv.c\t20\twork\tsecond %d\n";
	static const char fb[] =	/* the same code, other ids, other order */
		"# id\tfile\tline\tfunc\tformat\n"
		"7\tdrv.c\t20\twork\tsecond %d\n"
		"8\tdrv.c\t20\twork\tfirst %d\n"
		"9\tmain.c\t5\tloop\tloop\n";
	static const char fsame[] =	/* two sites identical but for the id */
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tmain.c\t5\tloop\tloop\n"
		"2\tdrv.c\t20\twork\tsame %d\n"
		"3\tdrv.c\t20\twork\tsame %d\n";
	static const char fx[] =	/* and one of a func:line in two files */
		"# id\tfile\tline\tfunc\tformat\n"
		"1\ta.c\t10\tprobe\tx\n"
		"2\tb.c\t10\tprobe\ty2\n"
		"3\tb.c\t10\tprobe\ty1\n"
		"4\tb.c\t11\tprobe\ty3\n";
	char *pa, *pb, *ps, *out, *err, args[1400];
	int st;

	check_labels("labels: two sites of one file:func:line get #N in format order", fa,
		     (const uint32_t[]){ 1, 2, 3 },
		     (const char *const[]){ "loop:5", "work:20#1", "work:20#2" }, 3);
	check_labels("labels: the same code under other ids gets the same labels", fb,
		     (const uint32_t[]){ 7, 8, 9 },
		     (const char *const[]){ "work:20#2", "work:20#1", "loop:5" }, 3);
	check_labels("labels: identical sites but for the id are numbered by id", fsame,
		     (const uint32_t[]){ 2, 3 },
		     (const char *const[]){ "work:20#1", "work:20#2" }, 2);
	check_labels("labels: file and #N together where both are needed", fx,
		     (const uint32_t[]){ 1, 2, 3, 4 },
		     (const char *const[]){ "a.c:probe:10", "b.c:probe:10#2", "b.c:probe:10#1",
					    "probe:11" }, 4);

	pa = build_macro("ma.cap", fa, 1, 2, 3, 2000);
	pb = build_macro("mb.cap", fb, 9, 8, 7, 7000);
	ps = build_macro("ms.cap", fsame, 1, 2, 3, 2000);

	snprintf(args, sizeof(args), "deltas %s", pa);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 &&
		  strstr(out, "\nwork:20#1                work:20#2                         3 ") &&
		  strstr(out, "\nloop:5                   work:20#1                         3 ") &&
		  strstr(out, "\nwork:20#2                loop:5                            2 "),
		  "deltas: the two sites of a macro are two distinct rows",
		  "status %d:\n%s", st, out);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "report %s", pb);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && strstr(out, "pid:1 work:20#1 first 1") &&
		  strstr(out, "pid:1 work:20#2 second 1") && strstr(out, "pid:1 loop:5 loop"),
		  "report: labels follow the format order, not the ids",
		  "status %d:\n%s", st, out);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", pa, pb);
	st = run_cli(args, &out, &err);
	CHECK_STR_EQ(out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct,clock_a,clock_b\n"
		"work:20#1,work:20#2,both,3,2000,2000,3,7000,7000,3.5000,250.0000,local,local\n"
		"loop:5,work:20#1,both,3,1000,1000,3,1000,1000,1.0000,0.0000,local,local\n"
		"work:20#2,loop:5,both,2,97000,97000,2,92000,92000,0.9485,-5.1546,local,local\n",
		"diff: sites of one file:func:line are matched by their format");
	CHECK_WHY(st == 0 && !strstr(err, "warning"), "diff: one-to-one matches give no warning",
		  "status %d, stderr:\n%s", st, err);
	free(out);
	free(err);

	{	/* pairs from one site to each of the two: apart on both sides */
		const struct trec r[4] = {
			{ .ts = 1000000, .site = 1 }, { .ts = 1001000, .site = 2 },
			{ .ts = 1100000, .site = 1 }, { .ts = 1105000, .site = 3 },
		};
		char *p2 = tl_build("m2.cap", fa, r, 4);

		snprintf(args, sizeof(args), "diff --format csv %s %s", p2, p2);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 0 &&
			  strstr(out, "\nloop:5,work:20#1,both,1,1000,1000,1,1000,1000,") &&
			  strstr(out, "\nloop:5,work:20#2,both,1,5000,5000,1,5000,5000,"),
			  "diff: pairs to two sites of one place are not merged",
			  "status %d:\n%s", st, out);
		free(out);
		free(err);
	}

	snprintf(args, sizeof(args), "deltas %s", ps);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 &&
		  strstr(out, "\nwork:20#1                work:20#2                         3 ") &&
		  strstr(out, "\nwork:20#2                loop:5                            2 "),
		  "deltas: sites identical but for the id are two distinct rows",
		  "status %d:\n%s", st, out);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff %s %s", ps, ps);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(err, "warning") && strstr(err, "one to one") &&
		  strstr(err, "work:20"),
		  "diff: sites it cannot match one to one are merged with a warning",
		  "status %d, stderr:\n%s", st, err);
	free(out);
	free(err);
}

/* ---- B: timestamps going back or jumping on one CPU ----------------- */


static char *build_ts(const char *name, const uint64_t *ts, int n)
{
	static const uint8_t none[1];
	struct trec r[16];

	for (int i = 0; i < n; i++)
		r[i] = (struct trec){ ts[i], 1 + (uint32_t)(i & 1), none, 0, 0, 0 };
	return tl_build(name, tl_fts, r, n);
}

static void test_timestamps(void)
{
	const uint64_t back[] = { 5000, 4000, 6000, 7000 };
	const uint64_t huge[] = { 1000, 1500, 0xffffffffffffff00ull, 2000, 2600 };
	const uint64_t big = 1ull << 62;
	const uint64_t sum[] = { 1, big, 2, big + 1, 3, big + 2 };	/* 0 is absurd */
	char *p, *out, *err, args[1400];
	int st;

	p = build_ts("back.cap", back, 4);
	snprintf(args, sizeof(args), "report %s", p);
	run_cli(args, &out, &err);
	CHECK_STR_EQ(out,
		"# clock: local (ftrace clock local)\n"
		"[     0.000005] cpu:0 pid:1 f:1 in\n"
		"[     0.000004] cpu:0 pid:1 g:2 out  -1.000 us (clock went back, not in deltas)\n"
		"[     0.000006] cpu:0 pid:1 f:1 in  +2.000 us\n"
		"[     0.000007] cpu:0 pid:1 g:2 out  +1.000 us\n",
		"report: a step back on one CPU is marked, not left blank");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas %s", p);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 &&
		  strstr(out, "\nf:1                      g:2                               1 ") &&
		  strstr(out, "\ndeltas: 1 pair left out: clock went backwards (1), "
			      "step over 2^62 ns (0)\n"),
		  "deltas: the pair across a step back is counted as left out",
		  "status %d:\n%s", st, out);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "diff %s %s", p, p);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(err, "logdev diff: warning: ") &&
		  strstr(err, "back.cap: 1 pair left out: clock went backwards (1), "
			      "step over 2^62 ns (0)\n"),
		  "diff: pairs left out of either capture are warned about",
		  "status %d, stderr:\n%s", st, err);
	free(out);
	free(err);

	p = build_ts("huge.cap", huge, 5);
	snprintf(args, sizeof(args), "report %s", p);
	run_cli(args, &out, &err);
	CHECK_STR_EQ(out,
		"# clock: local (ftrace clock local)\n"
		"[     0.000001] cpu:0 pid:1 f:1 in\n"
		"[     0.000001] cpu:0 pid:1 g:2 out  +0.500 us\n"
		"[ 18446744073.709551] cpu:0 pid:1 f:1 in  +18446744073709549.860 us "
		"(step over 2^62 ns, not in deltas)\n"
		"[     0.000002] cpu:0 pid:1 g:2 out  -18446744073709549.360 us "
		"(clock went back, not in deltas)\n"
		"[     0.000002] cpu:0 pid:1 f:1 in  +0.600 us\n",
		"report: an impossible step is marked, report and deltas agree");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas --by cpu %s", p);
	run_cli(args, &out, &err);
	CHECK_STR_EQ(out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)  # clock: local (ftrace clock local)\n"
		"g:2                      f:1                               1      0.600      0.600      0.600      0.600        0.600\n"
		"f:1                      g:2                               1      0.500      0.500      0.500      0.500        0.500\n"
		"deltas: 2 pairs left out: clock went backwards (1), step over 2^62 ns (1)\n",
		"deltas: no wrapped negative delta, both left-out pairs counted");
	free(out);
	free(err);
	{
		/*
		 * one rule for every verb: the same note (stderr) and exit 3
		 * wherever a delta is shown or counted; none dropped silently
		 */
		static const char *const verbs[] = {
			"report", "hist f:1 g:2", "hist --svg /dev/null f:1 g:2",
			"export --format csv", "export --format json", "export --format perfetto",
			"diff", "diff --format csv", "diff --svg /dev/null f:1 g:2",
		};
		const char *note = "2 pairs left out: clock went backwards (1), step over 2^62 ns (1)\n";

		for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
			char name[300];

			st = tl_run_verb(verbs[i], p, &out, &err);
			snprintf(name, sizeof(name), "%s: the pairs left out (step back, step over "
				 "2^62 ns) said on stderr, exit 3", verbs[i]);
			CHECK_WHY(st == 3 && strstr(err, note), name, "status %d, stderr:\n%s", st,
				  err);
			free(out);
			free(err);
		}
	}

	p = build_ts("sum.cap", sum, 6);
	snprintf(args, sizeof(args), "deltas --by cpu %s", p);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 &&
		  strstr(out, "\nf:1                      g:2                               3 "
			      "4611686018427387.903 4611686018427387.903 4611686018427387.903 "
			      "4611686018427387.903 9223372036854775.807 >\n") && !strstr(out, " -"),
		  "deltas: a total beyond 2^63 ns saturates instead of overflowing, marked '>'",
		  "status %d:\n%s%s", st, out, err);
	free(out);
	free(err);
}

static void test_saturated_totals(void)
{
	/*
	 * three f:1 -> g:2 deltas of 2^62-1 ns, no step left out: the
	 * total saturates, and every verb printing it marks the row '>',
	 * explains it and exits 3 (deltas, deltas --durations' total and
	 * self, hist, diff --svg)
	 */
	const uint64_t d = (1ull << 62) - 1;
	const uint64_t sat[] = { 1, 1 + d, 2 + d, 2 + 2 * d, 3 + 2 * d, 3 + 3 * d };
	static const char *const verbs[] = {
		"deltas", "deltas --durations --pair f:1,g:2", "hist f:1 g:2",
		"hist --svg /dev/null f:1 g:2", "diff --svg /dev/null f:1 g:2",
	};
	char *q = build_ts("sat.cap", sat, 6), name[300], *out, *err;
	int st;

	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
		st = tl_run_verb(verbs[i], q, &out, &err);
		snprintf(name, sizeof(name), "%s: a saturated total is marked '>' with its "
			 "footnote, exit 3", verbs[i]);
		CHECK_WHY(st == 3 && strstr(out, " >\n") && strstr(out, "> rows with a sum"),
			  name, "status %d, stdout:\n%s\nstderr:\n%s", st, out, err);
		free(out);
		free(err);
	}
}

/* ---- C: arguments missing from a payload that was not cut ----------- */

static void check_missing(const char *name, const char *fmt, const void *pl, size_t n,
			  unsigned int flags, const char *exp, unsigned int exp_st)
{
	char got[512];
	unsigned int status = 99;
	int r = lgd_bprintf_rec_status(got, sizeof(got), fmt, pl, n, NULL, LGD_TS_END, flags,
				      &status);

	CHECK_WHY(r == (int)strlen(exp) && !memcmp(got, exp, strlen(exp) + 1) &&
		  status == exp_st, name,
		  "fmt \"%s\": expected \"%s\" status %u, got \"%s\" (ret %d) status %u", fmt,
		  exp, exp_st, got, r, status);
}

static void test_missing(void)
{
	static const uint8_t i7[4] = { 7, 0, 0, 0 };
	static const uint8_t i1h[8] = { 1, 0, 0, 0, 2, 0, 0, 0 };
	static const uint8_t abc[4] = { 'a', 'b', 'c', 0 };
	static const uint8_t full[8] = { 7, 0, 0, 0, 'q', 0, 0, 0 };
	static const char fmt[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tm.c\t3\tm\tx=%d c=%c\n";
	struct trec r[3] = {
		{ 1000, 1, i7, 4, 0, 0 },
		{ 2000, 1, full, 8, 0, 0 },
		{ 3000, 1, i7, 4, 0, 0 },
	};
	char *p, *out, *err, args[1400];
	const char *w;
	int st;

	check_missing("missing: %c after the payload", "x=%d c=%c!", i7, 4, 0,
		      "x=7 c=[missing]", LGD_BP_ST_MISSING);
	check_missing("missing: everything", "%c", NULL, 0, 0, "[missing]", LGD_BP_ST_MISSING);
	check_missing("missing: half a long long", "%d %lld", i1h, 8, 0, "1 [missing]",
		      LGD_BP_ST_MISSING);
	check_missing("missing: a string", "%s and %s", abc, 4, 0, "abc and [missing]",
		      LGD_BP_ST_MISSING);
	check_missing("missing: a * width", "%d %*d", i7, 4, 0, "7 [missing]",
		      LGD_BP_ST_MISSING);
	check_missing("missing: a pointer", "%d %px", i7, 4, 0, "7 [missing]",
		      LGD_BP_ST_MISSING);
	check_missing("missing: slots payload", "%d %d", i7, 4, LGD_BP_SLOTS, "7 [missing]",
		      LGD_BP_ST_MISSING);
	check_missing("missing: slots %c", "%d %c", i7, 4, LGD_BP_SLOTS, "7 [missing]",
		      LGD_BP_ST_MISSING);
	check_missing("missing: a cut record still says [cut]", "%d %d", i7, 4, LGD_BP_CUT,
		      "7 [cut]", 0);
	check_missing("missing: none in a whole payload", "x=%d c=%c", full, 8, 0, "x=7 c=q",
		      0);

	p = tl_build("miss.cap", fmt, r, 3);
	snprintf(args, sizeof(args), "report %s", p);
	st = run_cli(args, &out, &err);
	w = strstr(err, "warning");
	CHECK_WHY(st == 3 && strstr(out, "pid:1 m:3 x=7 c=[missing]\n") &&
		  strstr(out, "pid:1 m:3 x=7 c=q ") && w && !strstr(w + 1, "warning") &&
		  strstr(err, "2 records") && !memchr(out, 0, strlen(out)),
		  "report: a missing argument is marked and warned about once, with a count",
		  "status %d:\n%s\nstderr:\n%s", st, out, err);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "report --raw %s", p);
	st = run_cli(args, &out, &err);
	w = strstr(err, "warning");
	CHECK_WHY(st == 3 && strstr(out, "\tx=7 c=[missing]\n") && w &&
		  !strstr(w + 1, "warning") && strstr(err, "2 records"),
		  "report --raw: the same mark and warning",
		  "status %d:\n%s\nstderr:\n%s", st, out, err);
	free(out);
	free(err);
}

/*
 * issue 24: a text longer than the reader's message buffer (8191 bytes)
 * ends in "[cut]": "%*d" with a width of INT_MIN (8 MiB of padding, as
 * the kernel clamps it) rendered 8191 bytes with no mark.
 */
static void test_long_text(void)
{
	static const uint8_t wmin[8] = { 0, 0, 0, 0x80, 5, 0, 0, 0 };
	static const char fmt[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tw.c\t9\tw\t[%*d]\n";
	struct trec r[1] = { { 1000, 1, wmin, 8, 0, 0 } };
	char *p, *out, *err, args[1400];
	const char *m, *nl;
	int st;

	p = tl_build("wide.cap", fmt, r, 1);
	snprintf(args, sizeof(args), "report --raw %s", p);
	st = run_cli(args, &out, &err);
	m = strstr(out, "\t[5");
	nl = m ? strchr(m, '\n') : NULL;
	CHECK_WHY(m && nl && nl - m > 8000 && !memcmp(nl - 5, "[cut]", 5), "long text: a '*' width "
		  "of INT_MIN: the message is cut and ends in [cut]",
		  "status %d, %zu bytes of output, message end: %.20s", st, strlen(out),
		  nl ? nl - 20 : "(none)");
	free(out);
	free(err);
}
/*
 * ---- F: a probe's misses are this recording's, and say why ----------------
 * The probes file counts misses since a probe was added; the recorder now
 * stores them relative to its start (lgd_probes_since()), and the warning
 * says which kind: a return probe short of instances (maxactive) or a
 * handler already running on that CPU.
 */
static void test_probe_misses(void)
{
	const char *start = "p:a f hits=5 missed=3\n"
			    "r2:grp/b g $retval hits=4 returns=2 missed=7 missed_maxactive=4\n"
			    "p:d k hits=9 missed=8\n";
	const char *end = "p:a f hits=9 missed=10\n"
			  "r2:grp/b g $retval hits=8 returns=5 missed=9 missed_maxactive=6\n"
			  "p:c h hits=1 missed=2\n"
			  "p:d k hits=1 missed=1\n"
			  "t:tp kmem:kmem_cache_free hits=3\n";
	size_t len = 0;
	char *t = lgd_probes_since(start, end, &len), *out, *err, args[1400];
	const char *pr = "r1:rp lt_probe_delay $retval hits=10 returns=4 missed=6 "
			 "missed_maxactive=5 counted=recording\n"
			 "p:q lt_probe_target hits=10 missed=2\n";
	const struct trec r[1] = { { 1000, 1, NULL, 0, 0, 0 } };
	char *p;
	int st;

	CHECK_STR_EQ(t ? t : "(null)",
		     "p:a f hits=9 missed=7 counted=recording\n"
		     "r2:grp/b g $retval hits=8 returns=5 missed=2 missed_maxactive=2 counted=recording\n"
		     "p:c h hits=1 missed=2 counted=recording\n"
		     "p:d k hits=1 missed=1 counted=recording\n"
		     "t:tp kmem:kmem_cache_free hits=3 counted=recording\n",
		     "probes_since: misses of the recording (a probe added meanwhile, or re-added "
		     "with smaller counts, keeps its own)");
	CHECK_EQ(len, t ? strlen(t) : 0, "probes_since: the length returned");
	free(t);

	p = tl_build_ex("misses.cap", tl_fts, r, 1, pr);
	snprintf(args, sizeof(args), "report %s", p);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(err, "warning: probe rp missed 6 hits (the kernel's nmissed in "
				    "this recording: 5 for want of a free return instance (raise "
				    "maxactive: rN:...), 1 because a handler was already running on "
				    "that CPU)"),
		  "report: a return probe's misses, this recording's, split by reason",
		  "status %d, stderr:\n%s", st, err);
	CHECK_WHY(strstr(err, "warning: probe q missed 2 hits (the kernel's nmissed since the probe "
			      "was added: a handler was already running on that CPU)"),
		  "report: counts not made relative (an older capture) say so",
		  "stderr:\n%s", err);
	free(out);
	free(err);
}

/*
 * The fresh user's PROBES lines: an argument named like a counter (the
 * kernel prints the arguments first, the counters last), numbers that are
 * none, a return probe's counts that disagree, a mark with a tail, no name.
 */
static void test_probe_lines(void)
{
	const char *pr = "p:a f missed=%ax hits=1 missed=7 counted=recording\n"
			 "p:neg f hits=1 missed=-1 counted=recording\n"
			 "p:big f hits=1 missed=18446744073709551616 counted=recording\n"
			 "r:rq g hits=5 returns=1 missed=6 missed_maxactive=9 counted=recording\n"
			 "p:tail f hits=1 missed=3 counted=recordingX\n"
			 "p: f hits=1 missed=2\n";
	const struct trec r[1] = { { 1000, 1, NULL, 0, 0, 0 } };
	size_t len = 0;
	char *t = lgd_probes_since("p:a f missed=%ax hits=0 missed=3\n",
				   "p:a f missed=%ax hits=1 missed=7\n", &len);
	char *p = tl_build_ex("lines.cap", tl_fts, r, 1, pr), *out, *err, args[1400];

	CHECK_STR_EQ(t ? t : "(null)", "p:a f missed=%ax hits=1 missed=4 counted=recording\n",
		     "probes_since: the counter the kernel appends, not an argument named like it");
	free(t);
	snprintf(args, sizeof(args), "report %s", p);
	run_cli(args, &out, &err);
	CHECK_WHY(strstr(err, "probe a missed 7 hits (the kernel's nmissed in this recording"),
		  "report: an argument named missed= is not the count", "stderr:\n%s", err);
	CHECK_WHY(!strstr(err, "probe neg") && !strstr(err, "probe big"),
		  "report: missed=-1 and a count past 2^64 are no counts (no warning of 2^64 - 1 hits)",
		  "stderr:\n%s", err);
	CHECK_WHY(strstr(err, "probe rq missed 9 hits (the kernel's nmissed in this recording: 9 "
			      "for want of a free return instance"),
		  "report: missed_maxactive above missed is taken as the lower bound of both",
		  "stderr:\n%s", err);
	CHECK_WHY(strstr(err, "probe tail missed 3 hits (the kernel's nmissed since the probe was added"),
		  "report: counted=recordingX is no mark", "stderr:\n%s", err);
	CHECK_WHY(!strstr(err, "probe  missed"), "report: a line without a name is no probe",
		  "stderr:\n%s", err);
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_record_edges PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_labels();
	test_diff_changed_format();
	test_timestamps();
	test_saturated_totals();
	test_missing();
	test_long_text();
	test_probe_misses();
	test_probe_lines();
	tmpdir_remove();
	printf("record_edges: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
