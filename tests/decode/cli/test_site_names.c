// SPDX-License-Identifier: GPL-2.0
/*
 * test_site_names.c: site names in every output (CLI): hostile names in json and
 * csv, two sites on one func:line told apart, escaped names, a 400-character
 * name keeps its :line
 * Captures are built byte by byte (testlib.h, fixture.h), written to
 * temporary files, decoded by the library in-process and by the CLI given
 * as argv[1].
 * Usage: test_site_names PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
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

char tmpdir[] = "/tmp/logdev-sitenames-XXXXXX";

/* ---- machine-readable output with hostile names --- */

/*
 * run python3 on @script with @arg; returns its stdout (malloc'd), "" if it
 * printed nothing.
 */
static char *run_py(const char *script, const char *arg)
{
	char cmd[1600], *sp = write_tmp("check.py", script, strlen(script));
	char *op = tmp_path("py.out");

	snprintf(cmd, sizeof(cmd), "python3 %s '%s' >%s 2>&1", sp, arg, op);
	if (system(cmd) == -1)
		return strdup("could not run python3");
	return slurp(op);
}

/* the labels the hostile sites must have in JSON/CSV (Python escapes) */
#define HOSTILE_LABELS_PY \
	"exp = ['a\\rb:5', 'q\"uote,comma:6', 'back\\\\slash:7', '\\x01ctl\\x1f\\x7f:8',\n" \
	"       'hi\\ufffd\\ufffd\\ufffd:9', 'caf\\u00e9:10', 'sur\\ufffd\\ufffd\\ufffd:11',\n" \
	"       'ov\\ufffd\\ufffd:12', '\\U0001f600:13', 'x\\ufffd\\ufffd\\ufffd\\ufffd:14',\n" \
	"       'semi;colon:16']\n" \
	"want = sorted(zip(exp, exp[1:]))\n"

static const char json_check_py[] =
	"import json, sys\n"
	HOSTILE_LABELS_PY
	"data = open(sys.argv[1], 'rb').read()\n"
	"try:\n"
	"    text = data.decode('utf-8')\n"
	"except UnicodeDecodeError as e:\n"
	"    print('not UTF-8:', e); sys.exit(0)\n"
	"try:\n"
	"    doc = json.loads(text)\n"
	"except ValueError as e:\n"
	"    print('json refuses it:', e); sys.exit(0)\n"
	"got = sorted((p['from'], p['to']) for p in doc['pairs'])\n"
	"if got != want:\n"
	"    print('labels differ: got', ascii(got)); sys.exit(0)\n"
	"if not doc['a'].endswith('h\\ufffdst.cap'):\n"
	"    print('file name:', ascii(doc['a'])); sys.exit(0)\n"
	"print('ok')\n";

static const char csv_check_py[] =
	"import csv, io, sys\n"
	HOSTILE_LABELS_PY
	"data = open(sys.argv[1], 'rb').read()\n"
	"try:\n"
	"    text = data.decode('utf-8')\n"
	"except UnicodeDecodeError as e:\n"
	"    print('not UTF-8:', e); sys.exit(0)\n"
	"try:\n"
	"    rows = list(csv.reader(io.StringIO(text, newline=''), strict=True))\n"
	"except csv.Error as e:\n"
	"    print('csv refuses it:', e); sys.exit(0)\n"
	"bad = [r for r in rows if len(r) != 13]\n"
	"if bad:\n"
	"    print(len(bad), 'rows without 13 fields, e.g.', ascii(bad[0])); sys.exit(0)\n"
	"got = sorted((r[0], r[1]) for r in rows[1:])\n"
	"if got != want:\n"
	"    print('labels differ: got', ascii(got)); sys.exit(0)\n"
	"print('ok')\n";

/*
 * Sites whose names hold CR, quotes, commas, backslashes, control bytes,
 * bytes 0x80-0xff that are not UTF-8 (lone, overlong, surrogate, above
 * U+10FFFF, cut short) and valid UTF-8; records walk them in order, so
 * every site is in a "from" and a "to".  diff A A in json and csv must
 * parse strictly (UTF-8, json strict, csv strict) and give the labels
 * back (invalid bytes as U+FFFD, one per byte).
 */
static void test_hostile_names(void)
{
	static const char fmts[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tx.c\t5\ta\rb\tm\n"
		"2\tx.c\t6\tq\"uote,comma\tm\n"
		"3\tx.c\t7\tback\\slash\tm\n"
		"4\tx.c\t8\t\x01" "ctl\x1f\x7f\tm\n"
		"5\tx.c\t9\thi\x80\xff\xc3\tm\n"
		"6\tx.c\t10\tcaf\xc3\xa9\tm\n"
		"7\tx.c\t11\tsur\xed\xa0\x80\tm\n"
		"8\tx.c\t12\tov\xc0\xaf\tm\n"
		"9\tx.c\t13\t\xf0\x9f\x98\x80\tm\n"
		"10\tx.c\t14\tx\xf4\x90\x80\x80\tm\n"
		"11\tx.c\t16\tsemi;colon\tm\n";
	uint64_t rec[11][2];
	char *path, *out, *err, args[1400], *res;
	int st;

	for (int i = 0; i < 11; i++) {
		rec[i][0] = 1000000ull + (uint64_t)i * 1000 * (i + 1);
		rec[i][1] = (uint64_t)i + 1;
	}
	path = build_seq("h\xe9st.cap", fmts, (const uint64_t (*)[2])rec, 11);

	snprintf(args, sizeof(args), "diff --format json %s %s", path, path);
	st = run_cli(args, &out, &err);
	write_tmp("hostile.json", out, strlen(out));
	res = run_py(json_check_py, tmp_path("hostile.json"));
	check("diff --format json: strict UTF-8 JSON whatever bytes the names hold", st == 0 &&
	      !strcmp(res, "ok\n"), "status %d, python: %s", st, res);
	free(res);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", path, path);
	st = run_cli(args, &out, &err);
	write_tmp("hostile.csv", out, strlen(out));
	res = run_py(csv_check_py, tmp_path("hostile.csv"));
	check("diff --format csv: RFC 4180, UTF-8, whatever bytes the names hold", st == 0 &&
	      !strcmp(res, "ok\n"), "status %d, python: %s", st, res);
	free(res);
	free(out);
	free(err);
}

/* ---- two sites with the same func:line --- */

/* does every line of @text after the header have distinct first @ncols columns? */
static int rows_distinct(const char *text, int ncols, char *dup, size_t dsz)
{
	char keys[64][700];
	int nk = 0;
	const char *l = strchr(text, '\n');

	dup[0] = 0;
	while (l && l[1] && nk < 64) {
		const char *p = l + 1, *e = strchr(p, '\n');
		char w[3][300];
		int n = 0;

		if (!e)
			break;
		while (n < ncols && p < e) {
			int k = 0;

			while (p < e && *p == ' ')
				p++;
			while (p < e && *p != ' ' && k < 299)
				w[n][k++] = *p++;
			w[n++][k] = 0;
		}
		snprintf(keys[nk], sizeof(keys[nk]), "%s|%s", w[0], ncols > 1 ? w[1] : "");
		for (int i = 0; i < nk; i++)
			if (!strcmp(keys[i], keys[nk])) {
				snprintf(dup, dsz, "%s", keys[nk]);
				return 0;
			}
		nk++;
		l = e;
	}
	return 1;
}

/*
 * a.c and b.c both have "static void probe()" with its edprint() on line
 * 10, called from main_loop:20: main_loop, a's probe, main_loop, b's probe,
 * ...  A: both 1 us after main_loop; B: b's probe takes 7 us, a's 1 us.
 * C: only a.c's probe (so its own labels need no file).
 */
static void test_same_func_line(void)
{
	static const char fa[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\ta.c\t10\tprobe\tin a\n"
		"2\tb.c\t10\tprobe\tin b\n"
		"3\tmain.c\t20\tmain_loop\tloop\n";
	static const char fb[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"5\tmain.c\t20\tmain_loop\tloop\n"
		"6\tb.c\t10\tprobe\tin b\n"
		"7\ta.c\t10\tprobe\tin a\n";
	static const char fc[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tmain.c\t20\tmain_loop\tloop\n"
		"2\ta.c\t10\tprobe\tin a\n";
	static const char fd[] =	/* C with no file for the probe */
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tmain.c\t20\tmain_loop\tloop\n"
		"2\t\t10\tprobe\tin a\n";
	uint64_t ra[12][2], rb[12][2], rc[12][2];
	char *pa, *pb, *pc, *pd, *out, *err, args[1400], dup[700];
	int st;

	for (int k = 0; k < 3; k++) {
		uint64_t t = 1000000ull + (uint64_t)k * 100000;

		ra[4 * k][0] = t;		ra[4 * k][1] = 3;
		ra[4 * k + 1][0] = t + 1000;	ra[4 * k + 1][1] = 1;
		ra[4 * k + 2][0] = t + 50000;	ra[4 * k + 2][1] = 3;
		ra[4 * k + 3][0] = t + 51000;	ra[4 * k + 3][1] = 2;
		rb[4 * k][0] = t;		rb[4 * k][1] = 5;
		rb[4 * k + 1][0] = t + 1000;	rb[4 * k + 1][1] = 7;
		rb[4 * k + 2][0] = t + 50000;	rb[4 * k + 2][1] = 5;
		rb[4 * k + 3][0] = t + 57000;	rb[4 * k + 3][1] = 6;
		rc[4 * k][0] = t;		rc[4 * k][1] = 1;
		rc[4 * k + 1][0] = t + 1000;	rc[4 * k + 1][1] = 2;
		rc[4 * k + 2][0] = t + 50000;	rc[4 * k + 2][1] = 1;
		rc[4 * k + 3][0] = t + 51000;	rc[4 * k + 3][1] = 2;
	}
	pa = build_seq("dupa.cap", fa, (const uint64_t (*)[2])ra, 12);
	pb = build_seq("dupb.cap", fb, (const uint64_t (*)[2])rb, 12);
	pc = build_seq("dupc.cap", fc, (const uint64_t (*)[2])rc, 12);
	pd = build_seq("dupd.cap", fd, (const uint64_t (*)[2])rc, 12);

	snprintf(args, sizeof(args), "deltas %s", pa);
	st = run_cli(args, &out, &err);
	check("deltas: two sites of one func:line in two files have distinct labels",
	      st == 0 && rows_distinct(out, 2, dup, sizeof(dup)) && strstr(out, "a.c:probe:10") &&
	      strstr(out, "b.c:probe:10") && strstr(out, "main_loop:20 ") &&
	      !strstr(out, "main.c:main_loop"),
	      "status %d, duplicate row '%s':\n%s", st, dup, out);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "report %s", pa);
	st = run_cli(args, &out, &err);
	check("report: the label of a func:line shared by two files names the file",
	      st == 0 && strstr(out, "pid:1 a.c:probe:10 in a") &&
	      strstr(out, "pid:1 b.c:probe:10 in b") && strstr(out, "pid:1 main_loop:20 loop"),
	      "status %d:\n%s", st, out);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", pa, pb);
	st = run_cli(args, &out, &err);
	expect_text("diff matches sites by file, func and line (ids and order differ)", out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct,clock_a,clock_b\n"
		"main_loop:20,b.c:probe:10,both,3,1000,1000,3,7000,7000,7.0000,600.0000,local,local\n"
		"a.c:probe:10,main_loop:20,both,3,49000,49000,3,49000,49000,1.0000,0.0000,local,local\n"
		"main_loop:20,a.c:probe:10,both,3,1000,1000,3,1000,1000,1.0000,0.0000,local,local\n"
		"b.c:probe:10,main_loop:20,both,2,49000,49000,2,43000,43000,0.8776,-12.2449,local,local\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", pa, pc);
	st = run_cli(args, &out, &err);
	expect_text("diff: a capture with only a.c's probe matches a.c's rows, not b.c's", out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct,clock_a,clock_b\n"
		"a.c:probe:10,main_loop:20,both,3,49000,49000,5,49000,49000,1.0000,0.0000,local,local\n"
		"main_loop:20,a.c:probe:10,both,3,1000,1000,6,1000,1000,1.0000,0.0000,local,local\n"
		"b.c:probe:10,main_loop:20,only_a,2,49000,49000,,,,,,local,local\n"
		"main_loop:20,b.c:probe:10,only_a,3,1000,1000,,,,,,local,local\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", pc, pd);
	st = run_cli(args, &out, &err);
	expect_text("diff: a site without a file matches the one of that func:line", out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct,clock_a,clock_b\n"
		"main_loop:20,probe:10,both,6,1000,1000,6,1000,1000,1.0000,0.0000,local,local\n"
		"probe:10,main_loop:20,both,5,49000,49000,5,49000,49000,1.0000,0.0000,local,local\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", pa, pd);
	st = run_cli(args, &out, &err);
	expect_text("diff: a site without a file is not matched where two files could be meant",
		out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct,clock_a,clock_b\n"
		"a.c:probe:10,main_loop:20,only_a,3,49000,49000,,,,,,local,local\n"
		"b.c:probe:10,main_loop:20,only_a,2,49000,49000,,,,,,local,local\n"
		"main_loop:20,a.c:probe:10,only_a,3,1000,1000,,,,,,local,local\n"
		"main_loop:20,b.c:probe:10,only_a,3,1000,1000,,,,,,local,local\n"
		"main_loop:20,probe:10,only_b,,,,6,1000,1000,,,local,local\n"
		"probe:10,main_loop:20,only_b,,,,5,49000,49000,,,local,local\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff %s %s", pa, pb);
	st = run_cli(args, &out, &err);
	check("diff text: no two rows with the same from and to",
	      st == 0 && rows_distinct(out, 2, dup, sizeof(dup)), "status %d, duplicate '%s':\n%s",
	      st, dup, out);
	free(out);
	free(err);
}

/*
 * Issue 7 follow-up (class 9): the kernel's "formats" escapes file and func
 * as it escapes the format (\t \n \\ \" \ooo), so a __FILE__ with a tab,
 * newline or quote keeps its line; the reader undoes the escapes in all
 * three fields.
 */
static void test_escaped_sites(void)
{
	static const char ft[] =
		"# id\tfile\tline\tfunc\tformat\n"
		"1\tdir\\twith tab/we\\\"ird,name.c\t500\tlt_oddfiles\toddfile\n"
		"2\tnew\\nline.c\t500\tlt_oddfiles\tnlfile\n"
		"3\tback\\\\slash\\001.c\t7\tf\\tn\\101\tfn\n";
	struct lgd_sites s = { 0 };
	const struct lgd_site *a, *b, *c;
	uint64_t r[3][2] = { { 1000000, 1 }, { 1001000, 2 }, { 1002000, 3 } };
	char *path, *out, *err, args[600];
	int bad, st;

	bad = lgd_sites_parse(&s, ft, strlen(ft));
	a = lgd_sites_get(&s, 1);
	b = lgd_sites_get(&s, 2);
	c = lgd_sites_get(&s, 3);
	check("formats: escaped file and func are unescaped (tab, quote, newline, backslash, octal)",
	      bad == 0 && a && b && c &&
	      !strcmp(a->file, "dir\twith tab/we\"ird,name.c") && !strcmp(a->func, "lt_oddfiles") &&
	      a->line == 500 && !strcmp(a->fmt, "oddfile") &&
	      !strcmp(b->file, "new\nline.c") && !strcmp(b->fmt, "nlfile") &&
	      !strcmp(c->file, "back\\slash\001.c") && !strcmp(c->func, "f\tnA") &&
	      !strcmp(c->fmt, "fn"),
	      "bad %d, files [%s] [%s] [%s] func [%s]", bad, a ? a->file : "-",
	      b ? b->file : "-", c ? c->file : "-", c ? c->func : "-");
	lgd_sites_free(&s);

	path = build_seq("escfile.cap", ft, (const uint64_t (*)[2])r, 3);
	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &out, &err);
	check("report: sites whose file has a tab, quote or newline are named with the file (escaped)",
	      st == 0 && !*err &&
	      strstr(out, "pid:1 dir\\twith tab/we\"ird,name.c:lt_oddfiles:500 oddfile") &&
	      strstr(out, "pid:1 new\\nline.c:lt_oddfiles:500 nlfile") &&
	      strstr(out, "pid:1 f\\tnA:7 fn"),
	      "status %d, stderr [%s]:\n%s", st, err, out);
	free(out);
	free(err);
}

/* a site name of 400 characters keeps its :line in report and deltas */
static void test_long_site_name(void)
{
	char fmts[1200], name[401], want[420], *path, *out, *err, args[1400];
	uint64_t rec[3][2] = { { 1000, 1 }, { 2000, 1 }, { 4000, 1 } };
	int st;

	memset(name, 'n', 400);
	name[0] = 'F';
	name[400] = 0;
	snprintf(fmts, sizeof(fmts), "# id\tfile\tline\tfunc\tformat\n1\tx.c\t4321\t%s\tm\n", name);
	path = build_seq("long.cap", fmts, (const uint64_t (*)[2])rec, 3);
	snprintf(want, sizeof(want), "%s:4321", name);

	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &out, &err);
	check("report: a 400-character site name is printed whole with its :line",
	      st == 0 && strstr(out, want) != NULL, "status %d, got %.80s...", st, out);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas %s", path);
	st = run_cli(args, &out, &err);
	{
		char row[900];

		snprintf(row, sizeof(row), "\n%s %s ", want, want);
		check("deltas: a 400-character site name is printed whole with its :line",
		      st == 0 && strstr(out, row) != NULL, "status %d", st);
	}
	free(out);
	free(err);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_site_names PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_hostile_names();
	test_same_func_line();
	test_escaped_sites();
	test_long_site_name();
	tmpdir_remove();
	printf("site_names: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
