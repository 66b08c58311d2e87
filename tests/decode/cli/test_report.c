// SPDX-License-Identifier: GPL-2.0
/*
 * test_report.c: report and deltas of hand-made captures (CLI): the header
 * text parsed, golden report and deltas output, records of a site the
 * formats do not name
 * Captures are built byte by byte (testlib.h, fixture.h), written to
 * temporary files, decoded by the library in-process and by the CLI given
 * as argv[1].
 * Usage: test_report PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
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

char tmpdir[] = "/tmp/logdev-report-XXXXXX";

static void test_header_parse(void)
{
	struct lgd_header h;
	struct lgd_diag d;
	const char *bad = "version: 1\nendian: little\nsubbuf_size: 4096\n"
			  "field: subbuf.seq offset:16 size:8\n";

	CHECK_WHY(!lgd_header_parse(&h, header_text, strlen(header_text), &d) &&
		  h.subbuf_size == 256 && h.nr_subbufs == 4 && !strcmp(h.clock, "local") &&
		  !strcmp(h.mode, "overwrite"),
		  "header parse",
		  "%s", d.msg);
	CHECK_WHY(lgd_header_parse(&h, bad, strlen(bad), &d) == -EPROTO,
		  "header field layout mismatch refused",
		  "accepted");
	CHECK_WHY(!lgd_header_parse(&h, header_text_v1, strlen(header_text_v1), &d) &&
		  h.version == 1 && h.subbuf_hdr_size == 40,
		  "format version 1 header accepted (40-byte sub-buffer headers)",
		  "%s", d.msg);
	{
		static const struct { const char *text, *name, *why; } refused[] = {
			{ "version: 4\nendian: little\nsubbuf_size: 256\n"
			  "field: subbuf.seq offset:8 size:8\n",
			  "format version 4 refused", "unsupported record format version" },
			{ "version: 0\nendian: little\nsubbuf_size: 256\n"
			  "field: subbuf.seq offset:8 size:8\n",
			  "format version 0 refused", "unsupported record format version" },
			{ "version: 2\nendian: little\nsubbuf_size: 256\nsubbuf_hdr_size: 40\n"
			  "field: subbuf.seq offset:8 size:8\n",
			  "version 2 with a 40-byte sub-buffer header refused", "subbuf_hdr_size" },
			{ "version: 1\nendian: little\nsubbuf_size: 256\nsubbuf_hdr_size: 48\n"
			  "field: subbuf.seq offset:8 size:8\n",
			  "version 1 with a 48-byte sub-buffer header refused", "subbuf_hdr_size" },
			{ "version: 2\nendian: little\nsubbuf_size: 256\n"
			  "field: subbuf.nesting_lost_before offset:36 size:4\n",
			  "version 2 with nesting_lost_before elsewhere refused", "layout" },
		};

		for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
			int ret = lgd_header_parse(&h, refused[i].text, strlen(refused[i].text), &d);

			CHECK_WHY(ret == -EPROTO && strstr(d.msg, refused[i].why), refused[i].name,
				  "returned %d, \"%s\"", ret, ret ? d.msg : "");
		}
	}
	bad = "version: 1\nendian: little\nsubbuf_size: 256\nfield: subbuf.seq offset:8 size:8\n";
	CHECK_WHY(!lgd_header_parse(&h, bad, strlen(bad), &d) && h.subbuf_hdr_size == 40,
		  "version 1 without subbuf_hdr_size: 40 assumed", "%s", d.msg);
}

/* ---- golden report / deltas ---------------------------------------- */

/*
 * deltas of the golden capture of test_report_deltas() at @path: by context,
 * by CPU, sorted by count; @want: the missing site's warning; usage errors
 */
static void test_deltas_golden(const char *path, const char *want)
{
	char *out, *err, args[700];
	int st;

	snprintf(args, sizeof(args), "deltas %s", path);
	st = run_cli(args, &out, &err);
	/* by context: CPU 1's three records are of three contexts, no pair */
	expect_text("deltas golden text (sorted by total)", out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:295         kfree_skbmem:320                  1    484.000    484.000    484.000    484.000      484.000        0      0.000\n"
		"kfree_skbmem:291         kfree_skbmem:295                  1      0.101      0.101      0.101      0.101        0.101        0      0.000\n"
		"site#9:?                 kfree_skbmem:291                  1      0.098      0.098      0.098      0.098        0.098        0      0.000\n"
		"kfree_skbmem:320         site#9:?                          1      0.001      0.001      0.001      0.001        0.001        0      0.000\n");
	CHECK_WHY(st == 3 && !strcmp(err, want), "deltas: exit 3, the missing site warned",
		  "status %d stderr '%s'", st, err);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "deltas --by cpu %s", path);
	st = run_cli(args, &out, &err);
	expect_text("deltas --by cpu golden text (sorted by total)", out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)  # clock: local (ftrace clock local)\n"
		"kfree_skbmem:291         foo_xmit:12                       1    526.000    526.000    526.000    526.000      526.000\n"
		"kfree_skbmem:295         kfree_skbmem:320                  1    484.000    484.000    484.000    484.000      484.000\n"
		"foo_xmit:10              kfree_skbmem:291                  1      0.950      0.950      0.950      0.950        0.950\n"
		"kfree_skbmem:291         kfree_skbmem:295                  1      0.101      0.101      0.101      0.101        0.101\n"
		"site#9:?                 kfree_skbmem:291                  1      0.098      0.098      0.098      0.098        0.098\n"
		"kfree_skbmem:320         site#9:?                          1      0.001      0.001      0.001      0.001        0.001\n");
	CHECK_EQ(st, 3, "deltas --by cpu exit 3 (the missing site)");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "deltas --sort=count %s", path);
	st = run_cli(args, &out, &err);
	CHECK_WHY(st == 3 && strstr(out, "kfree_skbmem:291         kfree_skbmem:295"),
		  "deltas --sort=count accepted",
		  "status %d", st);
	free(out);
	free(err);
	st = run_cli("deltas --sort=bogus x", &out, &err);
	CHECK_EQ(st, 2, "usage error exits 2");
	free(out);
	free(err);
	st = run_cli("frobnicate", &out, &err);
	CHECK_EQ(st, 2, "unknown command exits 2");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "report %s/does-not-exist", tmpdir);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 1, "missing file exits 1");
	free(out);
	free(err);
}

static void test_report_deltas(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	struct pl p;
	char *out, *err, *path, want[600];
	size_t site9_off;
	int st;

	cap_meta(&b, formats_text);
	/* CPU 0 */
	sb_begin(&s, 0, 0, 789171773000ull, 0, 0);
	sb_rec(&s, 789171773000ull, 1, LOGDEV_REC_PRINT, 0, 1234, NULL, 0);
	sb_rec(&s, 789171773101ull, 2, LOGDEV_REC_PRINT, 0, 1234, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	/* CPU 1, interleaved in the file */
	sb_begin(&s, 1, 0, 789171773050ull, 0, 0);
	enc(&p, "is", 42, "eth0");
	sb_rec(&s, 789171773050ull, 4, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 0, p.b, p.n);
	sb_rec(&s, 789171774000ull, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_SOFTIRQ, 77, NULL, 0);
	enc(&p, "Lc", -5ll, 'x');
	sb_rec(&s, 789172300000ull, 5, LOGDEV_REC_PRINT, LOGDEV_CTX_NMI, 0, p.b, p.n);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	/* CPU 0, second sub-buffer */
	sb_begin(&s, 0, 1, 789172257101ull, 0, 0);
	sb_rec(&s, 789172257101ull, 3, LOGDEV_REC_PRINT, 0, 1234, NULL, 0);
	site9_off = sb_rec(&s, 789172257102ull, 9, LOGDEV_REC_PRINT, 0, 1234, "\1\2\3\4", 4);
	sb_rec(&s, 789172257200ull, 1, LOGDEV_REC_RAW, 0, 1234, "\xde\xad", 2);
	site9_off += cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_STATS, LGD_CAP_NO_CPU, "cpu=0 written=5\n", 16);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("golden.cap", b.p, b.n);

	char args[700];

	/* by context (the default): an interrupt context's first record has no delta */
	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &out, &err);
	expect_text("report golden text (+D us by CPU and context)",
		out,
		"# clock: local (ftrace clock local)\n"
		"[   789.171773] cpu:0 pid:1234 kfree_skbmem:291 in\n"
		"[   789.171773] cpu:1 pid:0 hardirq foo_xmit:10 val=42 name=eth0\n"
		"[   789.171773] cpu:0 pid:1234 kfree_skbmem:295 1  +0.101 us\n"
		"[   789.171774] cpu:1 pid:77 softirq kfree_skbmem:291 in\n"
		"[   789.172257] cpu:0 pid:1234 kfree_skbmem:320 out  +484.000 us\n"
		"[   789.172257] cpu:0 pid:1234 site#9:? <unknown site 9: 4 arg bytes>  +0.001 us\n"
		"[   789.172257] cpu:0 pid:1234 kfree_skbmem:291 <raw 2 bytes: de ad>  +0.098 us\n"
		"[   789.172300] cpu:1 pid:0 nmi foo_xmit:12 q\\t-5 \"x\"A\n");
	/*
	 * Site 9 is not in the formats: its record prints as site#9:?, and
	 * stderr names the site and its record's byte, exit 3 (it was exit 0,
	 * silent).  These formats come before the data (as a hand-made
	 * capture's may): said, not as damage; test_missing_site() has the
	 * recorder's layout, formats after the data, where it is damage.
	 */
	snprintf(want, sizeof(want), "logdev: warning: at byte %zu (CPU 0, sub-buffer seq 1): call site 9 is "
		 "not in the capture's formats, which come before its data (a site that first fired "
		 "later?): 1 record, the first here, shown as site#9:?\n", site9_off);
	CHECK_WHY(st == 3 && !strcmp(err, want),
		  "report golden: exit 3, the missing site 9 and its record's byte on stderr",
		  "status %d stderr '%s' want '%s'", st, err, want);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "report --by cpu %s", path);
	st = run_cli(args, &out, &err);
	expect_text("report --by cpu golden text (+D us by CPU, any context)",
		out,
		"# clock: local (ftrace clock local)\n"
		"[   789.171773] cpu:0 pid:1234 kfree_skbmem:291 in\n"
		"[   789.171773] cpu:1 pid:0 hardirq foo_xmit:10 val=42 name=eth0\n"
		"[   789.171773] cpu:0 pid:1234 kfree_skbmem:295 1  +0.101 us\n"
		"[   789.171774] cpu:1 pid:77 softirq kfree_skbmem:291 in  +0.950 us\n"
		"[   789.172257] cpu:0 pid:1234 kfree_skbmem:320 out  +484.000 us\n"
		"[   789.172257] cpu:0 pid:1234 site#9:? <unknown site 9: 4 arg bytes>  +0.001 us\n"
		"[   789.172257] cpu:0 pid:1234 kfree_skbmem:291 <raw 2 bytes: de ad>  +0.098 us\n"
		"[   789.172300] cpu:1 pid:0 nmi foo_xmit:12 q\\t-5 \"x\"A  +526.000 us\n");
	CHECK_WHY(st == 3 && !strcmp(err, want),
		  "report --by cpu: exit 3, the same warning",
		  "status %d stderr '%s'", st, err);
	free(out);
	free(err);

	snprintf(args, sizeof(args), "report --raw %s", path);
	run_cli(args, &out, &err);
	expect_text("report --raw golden text", out,
		"789171773000\t0\t1234\ttask\t1\tkfree_skbmem\t291\tin\n"
		"789171773050\t1\t0\thardirq\t4\tfoo_xmit\t10\tval=42 name=eth0\n"
		"789171773101\t0\t1234\ttask\t2\tkfree_skbmem\t295\t1\n"
		"789171774000\t1\t77\tsoftirq\t1\tkfree_skbmem\t291\tin\n"
		"789172257101\t0\t1234\ttask\t3\tkfree_skbmem\t320\tout\n"
		"789172257102\t0\t1234\ttask\t9\t?\t0\t<unknown site 9: 4 arg bytes>\n"
		"789172257200\t0\t1234\ttask\t1\tkfree_skbmem\t291\t<raw 2 bytes: de ad>\n"
		"789172300000\t1\t0\tnmi\t5\tfoo_xmit\t12\tq\\t-5 \"x\"A\n");
	free(out);
	free(err);

	test_deltas_golden(path, want);
	free(b.p);
}

/* ---- a call site missing from a complete capture's formats --------- */

/*
 * A record whose site id the formats of a complete capture lack printed
 * as site#N:? with exit 0 (fresh user).  With the recorder's layout (the
 * last FORMATS after the last CPU data, then END) every site of a record is
 * listed, so a missing one is damage: one warning per site id, with its
 * count and its first record's byte ("corrupt at byte N (CPU, seq)"), the
 * records still printed, exit 3.  Site 0 (by design unknown: raw records,
 * a full site table) and task-name records are never missing.  At most 16
 * site ids are named; the rest are counted in one line.
 */
static void test_missing_site(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	struct lgd_reader r;
	struct lgd_diag d;
	char args[700], want[600], *out, *err, *path;
	char comm[LOGDEV_COMM_LEN] = "sh";
	size_t first;
	int st;

	cap_start(&b);
	cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, header_text, strlen(header_text));
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats_text, strlen(formats_text));
	sb_begin(&s, 0, 0, 1000, 0, 0);
	sb_rec(&s, 1000, 0, LOGDEV_REC_COMM, 0, 7, comm, sizeof(comm));
	sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 7, NULL, 0);
	first = sb_rec(&s, 1100, 9, LOGDEV_REC_PRINT, 0, 7, "\1\2\3\4", 4);
	sb_rec(&s, 1200, 0, LOGDEV_REC_RAW, 0, 7, "\xde\xad", 2);	/* site 0: unknown by design */
	sb_rec(&s, 1300, 9, LOGDEV_REC_PRINT, 0, 7, NULL, 0);
	first += cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 1, 0, 1000, 0, 0);
	sb_rec(&s, 1400, 9, LOGDEV_REC_PRINT, 0, 7, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	/* the recorder's last FORMATS, after the data: still no site 9 */
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats_text, strlen(formats_text));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("missing-site.cap", b.p, b.n);
	if (CHECK_EQ(lgd_reader_open(&r, path, NULL, NULL, &d), 0, "missing site: opens")) {
		CHECK_TRUE(r.complete && r.sites_final, "missing site: formats after the data: sites_final");
		lgd_reader_close(&r);
	}
	snprintf(want, sizeof(want), "logdev: warning: corrupt at byte %zu (CPU 0, sub-buffer seq 0): "
		 "call site 9 is not in the capture's formats, though they were written after its "
		 "data (a damaged site id or formats): 3 records, the first here, shown as "
		 "site#9:?\n", first);
	for (int v = 0; v < 3; v++) {
		static const char *const verbs[3] = { "report", "deltas", "export --format csv" };

		snprintf(args, sizeof(args), "%s %s", verbs[v], path);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 3 && !strcmp(err, want),
			  NAMEF("missing site: %s: one warning naming site 9, its count and first record's byte; exit 3",
				verbs[v]), "status %d stderr '%s' want '%s'", st, err, want);
		if (!v) {
			int n = 0;

			for (const char *q = out; (q = strstr(q, "site#9:? <unknown site 9")); q++)
				n++;
			CHECK_EQ(n, 3, "missing site: report still prints its 3 records (site#9:?)");
			CHECK_STR_CONTAINS(out, "site#0:? <raw 2 bytes: de ad>",
					   "missing site: site 0 printed as before, not warned");
		}
		free(out);
		free(err);
	}
	free(b.p);

	/* 20 missing sites: 16 named, the rest counted */
	memset(&b, 0, sizeof(b));
	cap_start(&b);
	cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, header_text, strlen(header_text));
	for (uint32_t i = 0; i < 20; i++) {
		if (!(i % 5))
			sb_begin(&s, 0, i / 5, 1000 + i, 0, 0);
		sb_rec(&s, 1000 + i, 100 + i, LOGDEV_REC_PRINT, 0, 7, NULL, 0);
		if (i % 5 == 4)
			cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	}
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats_text, strlen(formats_text));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	snprintf(args, sizeof(args), "report %s", write_tmp("missing-20.cap", b.p, b.n));
	st = run_cli(args, &out, &err);
	{
		int lines = 0;

		for (const char *q = err; (q = strchr(q, '\n')); q++)
			lines++;
		CHECK_WHY(st == 3 && lines == 17 && strstr(err, "call site 115 is not") &&
			  !strstr(err, "call site 116 is not") &&
			  strstr(err, "... and 4 more records of other call sites missing"),
			  "missing site: 20 sites: 16 named, the other 4 records counted in one line",
			  "status %d, %d lines: %s", st, lines, err);
	}
	free(out);
	free(err);
	free(b.p);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_report PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_header_parse();
	test_report_deltas();
	test_missing_site();
	tmpdir_remove();
	printf("report: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
