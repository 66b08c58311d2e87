// SPDX-License-Identifier: GPL-2.0
/*
 * test_site_args.c: site arguments and probe labels (CLI; issue 26, point
 * 1): a probe removed and added again with the same definition (two ids, as
 * a module older than the fix gave it) is one label and one site, so
 * `deltas --durations --inside NAME` finds its calls; a name whose records
 * stand for two definitions is a warning naming both labels and formats,
 * and NAME alone then is an error naming them, while an old definition no
 * record has changes nothing (lgd_sites_mark_used()); an --inside, --pair, hist or
 * diff argument that names no site is exit 2 naming the closest labels,
 * never a silent 0.
 * Captures are built byte by byte (fixture.h's build_seq()).
 * Usage: test_site_args PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"

char tmpdir[] = "/tmp/logdev-siteargs-XXXXXX";

/*
 * main_loop (id 1) then 3 calls of the return probe kfree_skbmem, each 2 us;
 * the first call's records carry ids @entry1 and @ret1, the others' @entry
 * and @ret; its path, malloc'd
 */
static char *probe_cap2(const char *name, const char *formats, uint64_t entry1, uint64_t ret1,
			uint64_t entry, uint64_t ret)
{
	uint64_t rec[9][2];

	for (int k = 0; k < 3; k++) {
		uint64_t t = 1000000ull + (uint64_t)k * 100000;

		rec[3 * k][0] = t;		rec[3 * k][1] = 1;
		rec[3 * k + 1][0] = t + 1000;	rec[3 * k + 1][1] = k ? entry : entry1;
		rec[3 * k + 2][0] = t + 3000;	rec[3 * k + 2][1] = k ? ret : ret1;
	}
	return strdup(build_seq(name, formats, (const uint64_t (*)[2])rec, 9));
}

/* probe_cap2() with one pair of ids for every call */
static char *probe_cap(const char *name, const char *formats, uint64_t entry, uint64_t ret)
{
	return probe_cap2(name, formats, entry, ret, entry, ret);
}

/* the probe added (ids 2, 3), removed, added again (ids 4, 5): one definition */
static const char readded[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tmain.c\t20\tmain_loop\tloop\n"
	"2\tprobe\t0\tkfree_skbmem\t\n"
	"3\tprobe\t0\tkfree_skbmem%return\t\n"
	"4\tprobe\t0\tkfree_skbmem\t\n"
	"5\tprobe\t0\tkfree_skbmem%return\t\n";

/* the same name for two definitions (other arguments) */
static const char redefined[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tmain.c\t20\tmain_loop\tloop\n"
	"2\tprobe\t0\tkfree_skbmem\tskb=0x%llx\n"
	"3\tprobe\t0\tkfree_skbmem%return\t\n"
	"4\tprobe\t0\tkfree_skbmem\t\n"
	"5\tprobe\t0\tkfree_skbmem%return\t\n";

/*
 * @cap's probe is plain: report labels it kfree_skbmem:0 (no #N, no
 * warning) and --inside kfree_skbmem finds its 3 calls; @what names the case
 */
static void check_plain(const char *cap, const char *what)
{
	char *out, *err, args[1400];
	int st;

	snprintf(args, sizeof(args), "report %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && strstr(out, " kfree_skbmem:0 ") && !strstr(out, ":0#") &&
		  !strstr(err, "warning"),
		  NAMEF("%s: labelled kfree_skbmem:0, no #N, no warning", what),
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas --durations --inside kfree_skbmem %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && strstr(out, "inside kfree_skbmem: 3 calls, 6.000 us inclusive"),
		  NAMEF("%s: deltas --durations --inside NAME finds its 3 calls", what),
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);
}

static void test_readded(void)
{
	char *cap = probe_cap("readded.cap", readded, 4, 5), *out, *err, args[1400];
	char *one = probe_cap("one.cap", readded, 2, 3);
	int st;

	check_plain(cap, "re-added probe, one definition");

	snprintf(args, sizeof(args), "deltas --durations --inside main_loop:20 %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && strstr(out, "inside main_loop:20: 0 calls") &&
		  strstr(err, "--inside main_loop:20: that site has no call in this capture"),
		  "--inside a site with no call: 0 calls, said on stderr",
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --durations --format csv %s %s", cap, one);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && strstr(out, "\nkfree_skbmem:0,kfree_skbmem%return:0,both,3,") &&
		  !strstr(out, "only_"),
		  "re-added probe: diff against a capture where it has one id matches its rows",
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "deltas --durations %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && strstr(out, "kfree_skbmem:0") &&
		  strstr(out, "kfree_skbmem%return:0") && !strstr(err, "without return"),
		  "re-added probe: its entries pair with its returns as one site",
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);
	free(cap);
	free(one);
}

/*
 * the name's old definition (ids 2, 3: other arguments) is in the formats,
 * as the module keeps it, but no record has it: the one recorded is
 * "kfree_skbmem:0" and the name finds it, no warning (a fresh user's
 * capture said "kfree_skbmem:0#2" and refused the name)
 */
static void test_redefined_unused(void)
{
	char *cap = probe_cap("redefined-old.cap", redefined, 4, 5), *out, *err, args[1400];
	int st;

	check_plain(cap, "an old definition no record has");
	snprintf(args, sizeof(args), "hist --durations kfree_skbmem kfree_skbmem%%return %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && strstr(out, "3"), "an old definition no record has: hist NAME finds it",
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);
	free(cap);
}

/* both definitions recorded (the first call by the old one) */
static void test_redefined(void)
{
	char *cap = probe_cap2("redefined.cap", redefined, 2, 3, 4, 5), *out, *err, args[1400];
	int st;

	snprintf(args, sizeof(args), "report %s", cap);
	st = run_cli(args, &out, &err);
	/* exit 3: the old definition's record lacks its argument (skb=0x[missing]) */
	CHECK_WHY(st == 3 && strstr(out, " kfree_skbmem:0#1 ") &&
		  strstr(err, "warning: probe kfree_skbmem stands for different definitions") &&
		  strstr(err, "kfree_skbmem:0#1 ''") && strstr(err, "kfree_skbmem:0#2 'skb=0x%llx'"),
		  "one name, two definitions: #N kept and a warning names both labels and formats",
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "deltas --durations --inside kfree_skbmem %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 2 && strstr(err, "kfree_skbmem is a probe name with several labels") &&
		  strstr(err, "kfree_skbmem:0#1") && strstr(err, "kfree_skbmem:0#2") && !out[0],
		  "one name, two definitions: --inside NAME is an error naming both (exit 2)",
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "deltas --durations --inside kfree_skbmem:0#1 %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 0 && strstr(out, "inside kfree_skbmem:0#1: 2 calls"),
		  "one name, two definitions: --inside LABEL#N picks one",
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);
	free(cap);
}

/* VERB ARGS: exit 2, nothing on stdout, the closest label named first */
static void expect_nomatch(const char *what, const char *args, const char *first)
{
	char *out, *err, *cl;
	int st = run_cli(args, &out, &err);

	cl = strstr(err, "closest labels: ");
	CHECK_WHY(st == 2 && !out[0] && cl && !strncmp(cl + 16, first, strlen(first)),
		  NAMEF("no such site: %s: exit 2 naming the closest labels (%s first)", what, first),
		  "status %d:\n%s\nstderr: %s", st, out, err);
	free(out);
	free(err);
}

static void test_nomatch(void)
{
	char *cap = probe_cap("nomatch.cap", readded, 4, 5), args[1400];

	snprintf(args, sizeof(args), "deltas --durations --inside kfree_skbmen %s", cap);
	expect_nomatch("deltas --inside (a typo)", args, "kfree_skbmem:0");
	snprintf(args, sizeof(args), "deltas --durations --inside kfree %s", cap);
	expect_nomatch("deltas --inside (a prefix)", args, "kfree_skbmem:0, kfree_skbmem%return:0");
	snprintf(args, sizeof(args), "deltas --pair main_loop:20,kfree_skb %s", cap);
	expect_nomatch("deltas --pair", args, "kfree_skbmem");
	snprintf(args, sizeof(args), "hist --durations kfree_skbmem kfree_skbmem%%ret %s", cap);
	expect_nomatch("hist FROM TO", args, "kfree_skbmem%return:0");
	snprintf(args, sizeof(args), "diff --pair main_lop:20,kfree_skbmem:0 %s %s", cap, cap);
	expect_nomatch("diff --pair", args, "main_loop:20");
	snprintf(args, sizeof(args), "export --format csv --pair main_loop:2,kfree_skbmem:0 %s", cap);
	expect_nomatch("export --pair", args, "main_loop:20");
	free(cap);
}

/* --pair given a probe's own entry and return: why it is refused, not an errno */
static void test_probe_pair(void)
{
	char *cap = probe_cap("probepair.cap", readded, 4, 5), *out, *err, args[1400];
	int st;

	snprintf(args, sizeof(args), "hist --pair 1 kfree_skbmem kfree_skbmem%%return %s", cap);
	check_cli("hist --pair N with FROM TO too: refused saying so, not 'one FILE only' (exit 2)",
		  args, 2, NULL, "--pair N or FROM TO, not both");
	snprintf(args, sizeof(args), "hist --pair 1 --pair 2 %s", cap);
	check_cli("hist --pair twice: refused (the second won silently)", args, 2, NULL,
		  "--pair given twice");
	snprintf(args, sizeof(args),
		 "deltas --durations --pair kfree_skbmem:0,kfree_skbmem%%return:0 %s", cap);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 2 && strstr(err, "logdev deltas: --pair kfree_skbmem:0,kfree_skbmem%return:0: "
				    "kfree_skbmem:0 is a probe's site: a probe's entry and return pair "
				    "by themselves (deltas --durations)") &&
		  !strstr(err, "Invalid argument"),
		  "deltas --pair of a probe's entry and return: refused naming the verb and the probe's site, exit 2",
		  "status %d, stderr: %s", st, err);
	free(out);
	free(err);
	free(cap);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_site_args PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_readded();
	test_redefined_unused();
	test_redefined();
	test_nomatch();
	test_probe_pair();
	tmpdir_remove();
	printf("site_args: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
