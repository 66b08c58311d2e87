// SPDX-License-Identifier: GPL-2.0
/*
 * test_clock.c: every output names the trace clock of the capture (issue
 * 26): report's text header, deltas' and diff's header line, export's rows
 * (csv, json) and perfetto's metadata, convert's note of the ftrace clock;
 * a diff of two captures stamped by different clocks warns (exit 3).
 * Captures with the header's "clock:" local, global, mono and one logdev
 * does not know.
 * Usage: test_clock PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"
#include "capture.h"

char tmpdir[] = "/tmp/logdev-clock-XXXXXX";

static const char fmts[] = "1\ta.c\t10\tf\tin\n2\ta.c\t20\tg\tout\n";

/* a capture of four records (f, g, f, g) stamped by @clock; its path */
static char *clock_cap(const char *clock)
{
	char hdr[600], name[64];
	struct buf b = { 0 };
	struct sbuf s;
	char *path;

	snprintf(hdr, sizeof(hdr),
		 "version: 3\nendian: little\nsubbuf_size: 256\nnr_subbufs: 4\n"
		 "subbuf_hdr_size: 48\nrec_hdr_size: 24\nclock: %s\nmode: overwrite\n"
		 "field: subbuf.seq offset:8 size:8\nfield: rec.len offset:12 size:2\n"
		 "field: subbuf.too_big_before offset:44 size:4\n", clock);
	cap_start(&b);
	cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, hdr, strlen(hdr));
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, fmts, strlen(fmts));
	sb_begin(&s, 0, 0, 1000, 0, 0);
	for (int i = 0; i < 4; i++)
		sb_rec(&s, 1000 + 1000 * (uint64_t)i, 1 + (i & 1), LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	snprintf(name, sizeof(name), "%s.cap", clock);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return strdup(path);
}

/* the first line of @s, in a static buffer */
static const char *line1(const char *s)
{
	static char l[1024];
	size_t n = strcspn(s, "\n");

	snprintf(l, sizeof(l), "%.*s", (int)(n < sizeof(l) ? n : sizeof(l) - 1), s);
	return l;
}

static int ends_with(const char *s, const char *tail)
{
	size_t a = strlen(s), b = strlen(tail);

	return a >= b && !strcmp(s + a - b, tail);
}

/* report and deltas of a capture on @clock name it and its ftrace clock */
static void test_one(const char *clock, const char *desc)
{
	char args[900], name[160], *p = clock_cap(clock), *out, *err;
	int st;

	snprintf(args, sizeof(args), "report %s", p);
	st = run_cli(args, &out, &err);
	snprintf(name, sizeof(name), "report: the first line names the clock: %s", desc);
	check(name, st == 0 && !strcmp(line1(out), desc) && strstr(out, "\n[     0.000001] "),
	      "status %d, first line '%s', want '%s'", st, line1(out), desc);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "report --raw %s", p);
	st = run_cli(args, &out, &err);
	snprintf(name, sizeof(name), "report --raw (%s): records only, no header", clock);
	check(name, st == 0 && out[0] != '#', "status %d, first line '%s'", st, line1(out));
	free(out);
	free(err);

	snprintf(args, sizeof(args), "deltas %s", p);
	st = run_cli(args, &out, &err);
	snprintf(name, sizeof(name), "deltas: the header line ends '  %s'", desc);
	check(name, st == 0 && !strncmp(out, "from ", 5) && ends_with(line1(out), desc) &&
	      strstr(line1(out), "  # clock: "),
	      "status %d, header '%s'", st, line1(out));
	free(out);
	free(err);
	free(p);
}

/* export: the clock in every csv and json row, in perfetto's metadata */
static void test_export(void)
{
	char args[900], *p = clock_cap("global"), *out, *err;
	int st, rows = 0, good = 0;

	snprintf(args, sizeof(args), "export --format csv %s", p);
	st = run_cli(args, &out, &err);
	for (char *l = out, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			break;
		*nl = 0;
		rows++;
		good += ends_with(l, rows == 1 ? ",lost_count,clock\r" : ",global\r");
	}
	check("export csv: a clock column, 'global' on every row", st == 0 && rows == 5 && good == 5,
	      "status %d, %d rows, %d with the clock", st, rows, good);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "export --format json %s", p);
	st = run_cli(args, &out, &err);
	rows = good = 0;
	for (char *l = out, *nl; *l; l = nl + 1) {
		nl = strchr(l, '\n');
		if (!nl)
			break;
		*nl = 0;
		rows++;
		good += ends_with(l, ",\"clock\":\"global\"}");
	}
	check("export json: \"clock\":\"global\" in every row", st == 0 && rows == 4 && good == 4,
	      "status %d, %d rows, %d with the clock", st, rows, good);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "export --format perfetto %s", p);
	st = run_cli(args, &out, &err);
	check("export perfetto: the clock and ftrace's in the trace's metadata",
	      st == 0 && strstr(out, "\"metadata\":{\"clock\":\"global\",\"ftrace_clock\":\"global\"}"),
	      "status %d, '%s'", st, line1(out));
	free(out);
	free(err);
	free(p);
}

/* convert: which ftrace clock the trace.dat's times are on */
static void test_convert(void)
{
	char args[900], *p = clock_cap("mono"), *out, *err;
	int st;

	snprintf(args, sizeof(args), "convert -o %s %s", tmp_path("mono.dat"), p);
	st = run_cli(args, &out, &err);
	check("convert: says the capture's clock and the matching ftrace clock",
	      st == 0 && strstr(err, "logdev: convert: clock mono (ftrace clock mono): the file's trace_clock"),
	      "status %d, stderr '%s'", st, err);
	free(out);
	free(err);
	free(p);
}

/* diff: one clock named once; two clocks named both, with a warning */
static void test_diff(void)
{
	char args[900], *a = clock_cap("local"), *b = clock_cap("global"), *out, *err;
	int st;

	snprintf(args, sizeof(args), "diff %s %s", a, a);
	st = run_cli(args, &out, &err);
	check("diff, one clock: the header line names it, no warning",
	      st == 0 && ends_with(line1(out), "  # clock: local (ftrace clock local)") && !err[0],
	      "status %d, header '%s', stderr '%s'", st, line1(out), err);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff %s %s", a, b);
	st = run_cli(args, &out, &err);
	check("diff, two clocks: the header line names both, a warning, exit 3",
	      st == 3 && ends_with(line1(out), "  # clock: A local, B global") &&
	      strstr(err, "logdev diff: warning: ") && strstr(err, "local.cap was recorded on clock local, ") &&
	      strstr(err, "global.cap on clock global: "),
	      "status %d, header '%s', stderr '%s'", st, line1(out), err);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format json %s %s", a, b);
	st = run_cli(args, &out, &err);
	check("diff json: clock_a and clock_b",
	      st == 3 && strstr(out, "\"clock_a\": \"local\", \"clock_b\": \"global\", \"pairs\": ["),
	      "status %d, '%s'", st, line1(out));
	free(out);
	free(err);
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_clock PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_one("local", "# clock: local (ftrace clock local)");
	test_one("global", "# clock: global (ftrace clock global)");
	test_one("mono", "# clock: mono (ftrace clock mono)");
	test_one("x86-tsc", "# clock: x86-tsc (no ftrace clock matches)");
	test_export();
	test_convert();
	test_diff();
	tmpdir_remove();
	printf("clock: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
