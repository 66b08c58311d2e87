// SPDX-License-Identifier: GPL-2.0
/*
 * test_decode.c: golden tests for liblogdev and the logdev CLI.
 *
 * Captures are built byte by byte with the helpers below (sub-buffers,
 * records, vbin_printf-style payloads), written to temporary files, and
 * decoded by the library in-process and by the CLI binary given as argv[1]
 * (its stdout/stderr compared with expected text).
 * Output: "PASS: name" / "FAIL: name: why"; exit 1 if anything failed.
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

/* the kernel's edprint() encoder, for LOGDEV_REC_PRINT_SLOTS goldens */
typedef uint32_t u32;
typedef uint64_t u64;
typedef uint16_t u16;
#include <linux/edprint_slots.h>
#include <linux/edprint_fmt.h>

char tmpdir[] = "/tmp/logdev-decode-XXXXXX";

/* ---- formats and payloads (capture builders: testlib.h) ------------ */

static const char formats_text[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tnet/core/skbuff.c\t291\tkfree_skbmem\tin\n"
	"2\tnet/core/skbuff.c\t295\tkfree_skbmem\t1\n"
	"3\tnet/core/skbuff.c\t320\tkfree_skbmem\tout\n"
	"4\tdrivers/net/x.c\t10\tfoo_xmit\tval=%d name=%s\\n\n"
	"5\tdrivers/net/x.c\t12\tfoo_xmit\tq\\t%lld \\\"%c\\\"\\101\n";

/* vbin_printf-style payload */
struct pl {
	uint8_t b[512];
	uint32_t n;
};

static void pl_raw(struct pl *p, unsigned align, uint64_t v, unsigned size)
{
	while (p->n % align)
		p->b[p->n++] = 0xaa;	/* padding content is not meaningful */
	for (unsigned i = 0; i < size; i++)
		p->b[p->n++] = (uint8_t)(v >> (8 * i));
}

/*
 * enc() - encode arguments as vbin_printf() lays them out.  types:
 * c (int stored as 1 byte), h (2 bytes), i (int, 4), l (long, 8),
 * L (long long, 8), z (size_t, 8), p (void *, 8), s (char *, text).
 */
static void enc(struct pl *p, const char *types, ...)
{
	va_list ap;

	p->n = 0;
	va_start(ap, types);
	for (const char *t = types; *t; t++) {
		switch (*t) {
		case 'c': pl_raw(p, 1, (uint64_t)va_arg(ap, int), 1); break;
		case 'h': pl_raw(p, 2, (uint64_t)va_arg(ap, int), 2); break;
		case 'i': pl_raw(p, 4, (uint64_t)va_arg(ap, int), 4); break;
		case 'l': pl_raw(p, 4, (uint64_t)va_arg(ap, long), 8); break;
		case 'L': pl_raw(p, 4, (uint64_t)va_arg(ap, long long), 8); break;
		case 'z': pl_raw(p, 4, (uint64_t)va_arg(ap, size_t), 8); break;
		case 'p': pl_raw(p, 4, (uint64_t)(uintptr_t)va_arg(ap, void *), 8); break;
		case 's': {
			const char *s = va_arg(ap, const char *);
			size_t n = strlen(s) + 1;

			memcpy(p->b + p->n, s, n);
			p->n += (uint32_t)n;
			break;
		}
		}
	}
	va_end(ap);
	while (p->n % 4)	/* vbin_printf returns whole u32 words */
		p->b[p->n++] = 0;
}

/* ---- comparing output ---------------------------------------------- */

/* CHECK_STR_EQ at the caller's file:line, and both texts whole on failure */
#define expect_text(name, got, exp) expect_text_at(__FILE__, __LINE__, name, got, exp)
static void expect_text_at(const char *file, int line, const char *name, const char *got,
			   const char *exp)
{
	if (!ldc_str_eq(file, line, name, "output", got, "expected", exp))
		fprintf(stdout, "--- expected\n%s--- got\n%s---\n", exp, got);
}

/* ---- golden report / deltas ---------------------------------------- */

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

	snprintf(args, sizeof(args), "deltas %s", path);
	st = run_cli(args, &out, &err);
	/* by context: CPU 1's three records are of three contexts, no pair */
	expect_text("deltas golden text (sorted by total)", out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)\n"
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
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)\n"
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

/* ---- lost events --------------------------------------------------- */

static void test_gaps(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *out, *err, *path, args[700];

	cap_meta(&b, formats_text);
	sb_begin(&s, 0, 0, 1000000000ull, 0, 0);
	sb_rec(&s, 1000000000ull, 1, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	sb_rec(&s, 1000001000ull, 2, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	/* seq 1: 5 records dropped, 2 nesting-lost and 1 too big before it */
	{
		struct lgd_sb_info h = {
			.magic = LOGDEV_SUBBUF_MAGIC, .version = LOGDEV_FORMAT_VERSION,
			.seq = 1, .first_ts = 1000002000ull, .dropped_before = 5,
			.nesting_lost_before = 2, .too_big_before = 1,
		};

		sb_begin_info(&s, &h);
	}
	sb_rec(&s, 1000002500ull, 3, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	/* seq 4: sub-buffers 2, 3 overwritten, 123 records */
	sb_begin(&s, 0, 4, 1000900000ull, 0, 123);
	sb_rec(&s, 1000900000ull, 1, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	sb_rec(&s, 1000900100ull, 2, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	/* seq 6: seq jump with no count */
	sb_begin(&s, 0, 6, 1001000000ull, 0, 0);
	sb_rec(&s, 1001000000ull, 3, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("gaps.cap", b.p, b.n);

	snprintf(args, sizeof(args), "report %s", path);
	run_cli(args, &out, &err);
	expect_text("lost events: LOST lines, no delta across", out,
		"[     1.000000] cpu:0 pid:10 kfree_skbmem:291 in\n"
		"[     1.000001] cpu:0 pid:10 kfree_skbmem:295 1  +1.000 us\n"
		"[     1.000002] cpu:0 *** LOST 5 events (dropped) ***\n"
		"[     1.000002] cpu:0 *** LOST 2 events (nesting_lost) ***\n"
		"[     1.000002] cpu:0 *** LOST 1 events (too_big) ***\n"
		"[     1.000002] cpu:0 pid:10 kfree_skbmem:320 out\n"
		"[     1.000900] cpu:0 *** LOST 123 events (overrun) ***\n"
		"[     1.000900] cpu:0 pid:10 kfree_skbmem:291 in\n"
		"[     1.000900] cpu:0 pid:10 kfree_skbmem:295 1  +0.100 us\n"
		"[     1.001000] cpu:0 *** LOST 1 sub-buffers (overrun) ***\n"
		"[     1.001000] cpu:0 pid:10 kfree_skbmem:320 out\n");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "report --raw %s", path);
	run_cli(args, &out, &err);
	CHECK_WHY(strstr(out, "LOST\t0\t5\tdropped\n") && strstr(out, "LOST\t0\t123\toverrun\n") &&
		  strstr(out, "LOST\t0\t2\tnesting_lost\n") && strstr(out, "LOST\t0\t1\ttoo_big\n") &&
		  strstr(out, "LOST\t0\t1\tsubbufs\n"),
		  "lost events: raw LOST lines",
		  "got:\n%s", out);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas %s", path);
	run_cli(args, &out, &err);
	/* only 291->295 twice (1000 and 100 ns); nothing across a gap */
	expect_text("lost events: deltas never span a gap", out,
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)\n"
		"kfree_skbmem:291         kfree_skbmem:295                  2      0.100      0.100      1.000      1.000        1.100        0      0.000\n"
		"lost events: 5 gaps, 131 records lost and more in missing sub-buffers or corrupt data; 3 pairs cut\n");
	free(out);
	free(err);
	free(b.p);
}

/*
 * A format version 1 capture (40-byte headers; dropped_before counts
 * dropped, nesting_lost and too_big records together): read as before, its
 * mixed count printed as kind "lost", its overrun as "overrun".
 */
/*
 * A damaged sub-buffer seq was counted as lost sub-buffers: seq 2^32+2
 * between 1 and 3 gave "LOST 4294967296 sub-buffers", 2^64-1 a count that
 * wrapped the sums to 0, a seq gone back a loss counted from the damaged
 * value (fresh user: "0 (subbufs 4294967272 sub-buffers)").  Now a seq out
 * of line between neighbours that agree is damaged (read as the one
 * between), one that goes back is a reset or damage, a jump of more
 * sub-buffers than ns between their stamps is impossible: each is warned
 * ("corrupt at byte N", the seq field) and counted lost never; a real jump
 * still is.  Sums of counts saturate instead of wrapping.
 */
static void seq_unit(void)
{
	static const struct {
		uint64_t prev, seq, next;
		int have_next;
		uint64_t prev_ts, ts;
		int verdict;
		uint64_t lost, base;
	} c[] = {
		{ 4, 5, 0, 0, 1000, 2000, LGD_SEQ_OK, 0, 5 },
		{ 4, 10, 11, 1, 1000, 2000, LGD_SEQ_JUMP, 5, 10 },	/* a real jump */
		{ 4, 10, 0, 0, 1000, 2000, LGD_SEQ_JUMP, 5, 10 },
		{ 4, (1ull << 32) + 5, 6, 1, 1000, 2000, LGD_SEQ_DAMAGED, 0, 5 },
		{ 4, UINT64_MAX, 6, 1, 1000, 2000, LGD_SEQ_DAMAGED, 0, 5 },
		{ 4, 2, 6, 1, 1000, 2000, LGD_SEQ_DAMAGED, 0, 5 },	/* back, next goes on */
		{ 4, 4, 5, 1, 1000, 2000, LGD_SEQ_DAMAGED, 0, 4 },	/* a repeat */
		{ 4, 2, 9, 1, 1000, 2000, LGD_SEQ_DAMAGED, 0, 5 },
		{ 101, 0, 1, 1, 1000, 2000, LGD_SEQ_BACK, 0, 0 },	/* a reset */
		{ 4, 2, 0, 0, 1000, 2000, LGD_SEQ_BACK, 0, 2 },
		{ UINT64_MAX, 0, 0, 0, 1000, 2000, LGD_SEQ_BACK, 0, 0 },	/* prev + 1 wraps */
		{ 4, (1ull << 32) + 5, 0, 0, 1000, 2000, LGD_SEQ_IMPOSSIBLE, 0, (1ull << 32) + 5 },
		{ 4, UINT64_MAX, 0, 0, 1000, 2000, LGD_SEQ_IMPOSSIBLE, 0, UINT64_MAX },
		{ 0, 1ull << 40, (1ull << 40) + 1, 1, 5, 1000, LGD_SEQ_IMPOSSIBLE, 0, 1ull << 40 },
		{ 4, 1000, 0, 0, 2000, 1000, LGD_SEQ_IMPOSSIBLE, 0, 1000 },	/* time back: slack only */
		{ 4, 1000, 0, 0, 0, 1000, LGD_SEQ_JUMP, 995, 1000 },	/* a stamp unknown: no time rule */
		{ 4, 4 + 1 + 68, 0, 0, 2000, 2000, LGD_SEQ_JUMP, 68, 73 },	/* 0 ns: the slack, 4 + 64 */
		{ 4, 4 + 1 + 69, 0, 0, 2000, 2000, LGD_SEQ_IMPOSSIBLE, 0, 74 },
	};
	int bad = 0;
	char why[400] = "";

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct lgd_seq_ctx x = {
			.have_prev = 1, .prev = c[i].prev, .have_next = c[i].have_next,
			.next = c[i].next, .prev_ts = c[i].prev_ts, .ts = c[i].ts, .slack = 4 + 64,
		};
		uint64_t lost = 7, base = 7;
		char msg[300];
		int v = lgd_seq_step(&x, c[i].seq, &lost, &base, msg, sizeof(msg));

		if ((v != c[i].verdict || lost != c[i].lost || base != c[i].base ||
		     (v >= LGD_SEQ_BACK) != !!msg[0]) && !bad++)
			snprintf(why, sizeof(why), "case %zu: verdict %d lost %llu base %llu msg '%s'", i, v,
				 (unsigned long long)lost, (unsigned long long)base, msg);
	}
	CHECK_WHY(!bad, "seq: lgd_seq_step() on damaged, reset, impossible and real steps",
		  "%d bad; first %s", bad, why);
}

/* CPU 0's sub-buffers of @seqs (@n), 1 us apart, one record each; CPU 1 beside; *@off[i]: their offsets */
static char *seq_cap(const char *name, const uint64_t *seqs, int n, size_t *off)
{
	struct buf b = { 0 };
	struct sbuf s;
	char *path;

	cap_meta(&b, formats_text);
	for (int i = 0; i < n; i++) {
		uint64_t t = 1000000 + (uint64_t)i * 1000;

		sb_begin(&s, 0, seqs[i], t, 0, 0);
		sb_rec(&s, t, 1 + (uint32_t)(i % 3), LOGDEV_REC_PRINT, 0, 10, NULL, 0);
		off[i] = cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
		sb_begin(&s, 1, (uint64_t)i, t + 500, 0, 0);
		sb_rec(&s, t + 500, 1, LOGDEV_REC_PRINT, 0, 11, NULL, 0);
		cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	}
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats_text, strlen(formats_text));
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return path;
}

static void test_seq_damage(void)
{
	static const uint64_t clean[4] = { 0, 1, 2, 3 };
	static const struct {
		uint64_t seq2;
		const char *what;
	} dmg[] = {
		{ (1ull << 32) + 2, "is damaged: read as 2" },
		{ UINT64_MAX, "is damaged: read as 2" },
		{ 0, "is damaged: read as 2" },
		{ 1, "is damaged: read as 2" },
		{ 1000000, "is damaged: read as 2" },
	};
	size_t off[8];
	char args[700], want[200], *path, *ref, *out, *err;
	int st;

	seq_unit();
	path = seq_cap("seq-clean.cap", clean, 4, off);
	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &ref, &err);
	CHECK_WHY(st == 0 && !err[0], "seq: the clean capture: exit 0", "exit %d err %s", st, err);
	free(err);
	for (size_t i = 0; i < sizeof(dmg) / sizeof(dmg[0]); i++) {
		uint64_t seqs[4] = { 0, 1, dmg[i].seq2, 3 };
		static const char *const verbs[3] = { "report", "deltas", "export --format csv" };

		path = seq_cap("seq-dmg.cap", seqs, 4, off);
		snprintf(want, sizeof(want), "corrupt at byte %zu (CPU 0", off[2] + 8);
		for (int v = 0; v < 3; v++) {
			snprintf(args, sizeof(args), "%s %s", verbs[v], path);
			st = run_cli(args, &out, &err);
			CHECK_WHY(st == 3 && strstr(err, want) && strstr(err, dmg[i].what) &&
				  !strstr(err, "lost events") && !strstr(out, "LOST") &&
				  !strstr(out, ",lost,") && !strstr(out, "lost events") &&
				  (v || !strcmp(out, ref)),
				  NAMEF("seq: %s with CPU 0's seq 2 as %llu: warned at its byte, no sub-buffer lost, exit 3",
					verbs[v], (unsigned long long)dmg[i].seq2),
				  "exit %d, want '%s' and '%s', stderr %s stdout %.400s", st, want, dmg[i].what,
				  err, out);
			free(out);
			free(err);
		}
	}
	free(ref);

	/* the last sub-buffer's seq jumps 2^40 in 1 us: impossible, not lost */
	{
		uint64_t seqs[4] = { 0, 1, 2, 1ull << 40 };

		path = seq_cap("seq-last.cap", seqs, 4, off);
		snprintf(args, sizeof(args), "report %s", path);
		st = run_cli(args, &out, &err);
		snprintf(want, sizeof(want), "corrupt at byte %zu (CPU 0", off[3] + 8);
		CHECK_WHY(st == 3 && strstr(err, want) && strstr(err, "is impossible") &&
			  !strstr(err, "lost events") && !strstr(out, "LOST"),
			  "seq: a jump of 2^40 sub-buffers in 1 us: impossible, warned, not lost",
			  "exit %d stderr %s stdout %s", st, err, out);
		free(out);
		free(err);
	}
	/* a reset (0 1 2, then 0 1 2 again): one warning, nothing lost */
	{
		uint64_t seqs[6] = { 0, 1, 2, 0, 1, 2 };

		path = seq_cap("seq-reset.cap", seqs, 6, off);
		snprintf(args, sizeof(args), "report %s", path);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 3 && strstr(err, "seq 0 after 2 goes backwards") &&
			  !strstr(err, "lost events") && !strstr(out, "LOST") && !strchr(strchr(err, '\n') + 1, '\n'),
			  "seq: a reset: one warning, no sub-buffer lost",
			  "exit %d stderr %s stdout %s", st, err, out);
		free(out);
		free(err);
	}
	/* a real jump (0 1 5 6: 3 sub-buffers overwritten, no count) is still a loss */
	{
		uint64_t seqs[4] = { 0, 1, 5, 6 };

		path = seq_cap("seq-jump.cap", seqs, 4, off);
		snprintf(args, sizeof(args), "report %s", path);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 3 && strstr(out, "cpu:0 *** LOST 3 sub-buffers") &&
			  strstr(err, "lost events: cpu:0 0 (subbufs 3 sub-buffers), cpu:1 0") &&
			  !strstr(err, "corrupt"),
			  "seq: a real jump of 3 sub-buffers is still counted lost, not called damage",
			  "exit %d stderr %s stdout %s", st, err, out);
		free(out);
		free(err);
	}
	/* jumps of 2^63 sub-buffers on each of 2 CPUs (2^63 ns apart): the
	 * total, 2^64, saturates instead of wrapping to 0 (no warning) */
	{
		struct buf b = { 0 };
		struct sbuf s;

		cap_meta(&b, formats_text);
		for (uint16_t cpu = 0; cpu < 2; cpu++) {
			sb_begin(&s, cpu, 0, 1000, 0, 0);
			sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
			cap_sect(&b, LGD_SECT_CPU_DATA, cpu, s.b, SBS);
			sb_begin(&s, cpu, (1ull << 63) + 1, (1ull << 63) + 2000, 0, 0);
			sb_rec(&s, (1ull << 63) + 2000, 1, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
			cap_sect(&b, LGD_SECT_CPU_DATA, cpu, s.b, SBS);
		}
		cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats_text, strlen(formats_text));
		cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
		snprintf(args, sizeof(args), "report %s", write_tmp("seq-sat.cap", b.p, b.n));
		free(b.p);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 3 && strstr(err, "lost events: cpu:0 0 (subbufs 9223372036854775808 sub-buffers), "
					   "cpu:1 0 (subbufs 9223372036854775808 sub-buffers)"),
			  "seq: lost sub-buffers of 2^63 on two CPUs: said, the sum does not wrap to 0",
			  "exit %d stderr %s", st, err);
		free(out);
		free(err);
	}
}

static void test_gaps_v1(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	struct lgd_sb_info h = {
		.magic = LOGDEV_SUBBUF_MAGIC, .version = 1, .first_ts = 1000000000ull,
	};
	static const char v1_head[] =
		"1000000000\t0\t10\ttask\t1\tkfree_skbmem\t291\tin\n"
		"1000001000\t0\t10\ttask\t2\tkfree_skbmem\t295\t1\n"
		"LOST\t0\t3\toverrun\n"
		"LOST\t0\t7\tlost\n"
		"1000002500\t0\t10\ttask\t3\tkfree_skbmem\t320\tout\n";
	char *out, *err, *path, args[700];
	int st;

	cap_start(&b);
	cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, header_text_v1, strlen(header_text_v1));
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats_text, strlen(formats_text));
	sb_begin_info(&s, &h);
	CHECK_EQ(s.pos, 40, "v1 encoder: records start after a 40-byte header");
	sb_rec(&s, 1000000000ull, 1, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	sb_rec(&s, 1000001000ull, 2, LOGDEV_REC_PRINT, 0, 10, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	h.seq = 1;
	h.first_ts = 1000002000ull;
	h.lost_before = 7;
	h.overrun_before = 3;
	sb_begin_info(&s, &h);
	/* 9 records of 24 bytes fill a v1 sub-buffer exactly (216 bytes) */
	for (int i = 0; i < 9; i++)
		CHECK_NE(sb_rec(&s, 1000002500ull + i, 3, LOGDEV_REC_PRINT, 0, 10, NULL, 0), 0,
			 NAMEF("v1 encoder: record %d of 9 fits", i));
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("gaps-v1.cap", b.p, b.n);

	snprintf(args, sizeof(args), "report --raw %s", path);
	st = run_cli(args, &out, &err);
	/* issue 12: lost events are a warning (exit 3), said once with the counts per CPU */
	CHECK_WHY(st == 3 && !strncmp(out, v1_head, strlen(v1_head)) &&
		  !strcmp(err, "logdev: warning: lost events: cpu:0 10 (overrun 3 lost 7)\n"),
		  "v1 capture: records read, dropped_before as LOST kind lost, overrun as overrun",
		  "exit %d, out:\n%s\nerr:\n%s", st, out, err);
	{
		int lines = 0;

		for (const char *c = out; *c; c++)
			lines += *c == '\n';
		CHECK_EQ(lines, 13, "v1 capture: all 11 records and 2 LOST lines");
	}
	free(out);
	free(err);
	free(b.p);
}

/* ---- printf rendering ---------------------------------------------- */

static struct lgd_ksyms test_ksyms;

static void check_render(const char *name, const char *fmt, const struct pl *p,
			 const char *exp, const struct lgd_ksyms *ks)
{
	char got[512];
	int n = lgd_bprintf(got, sizeof(got), fmt, p->b, p->n, ks);

	CHECK_WHY(!strcmp(got, exp) && n == (int)strlen(exp),
		  name,
		  "fmt \"%s\": expected \"%s\" got \"%s\" (ret %d)", fmt, exp, got, n);
}

/* expected string from the host's snprintf where kernel and glibc agree */
#define HOST(fmt, types, ...) do {					\
	char exp_[512], nm_[600];					\
	struct pl p_;							\
	snprintf(exp_, sizeof(exp_), fmt, __VA_ARGS__);			\
	enc(&p_, types, __VA_ARGS__);					\
	snprintf(nm_, sizeof(nm_), "bprintf host-agrees \"%s\"", fmt);	\
	check_render(nm_, fmt, &p_, exp_, NULL);			\
} while (0)

#define KERN(fmt, exp, types, ...) do {					\
	char nm_[600];							\
	struct pl p_;							\
	enc(&p_, types, __VA_ARGS__);					\
	snprintf(nm_, sizeof(nm_), "bprintf kernel \"%s\"", fmt);	\
	check_render(nm_, fmt, &p_, exp, &test_ksyms);			\
} while (0)

static void test_bprintf(void)
{
	static const char ks[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 T kfree_skbmem\n"
		"ffffffff81000140 t skb_free_head\n"
		"ffffffff81001000 T _etext\n"
		"ffffffffc0001000 t foo_xmit\t[foo]\n"
		"ffffffffc0001080 t foo_rx\t[foo]\n";
	struct pl p;

	lgd_ksyms_parse(&test_ksyms, ks, strlen(ks));

	HOST("%d", "i", 42);
	HOST("%d|%i|%u", "iii", -7, 2147483647, 3000000000u);
	HOST("%5d|%-5d|%05d|%+d|% d", "iiiii", 42, 42, 42, 42, 42);
	HOST("%x %X %#x %#X %o %#o", "iiiiii", 255, 255, 255, 255, 8, 8);
	HOST("%08x|%-8x|%.3x", "iii", 0xbeef, 0xbeef, 0xa);
	HOST("%hhd %hhu %hd %hu", "cchh", -1, 255, -2, 65535);
	HOST("%c%hhd%hd%d", "cchi", 'A', 5, -300, 70000);
	HOST("%ld %lu %lx", "lll", -1234567890123L, 1234567890123UL, 0xdeadbeefcafeUL);
	HOST("%lld %llu %llx", "LLL", -1LL, 18446744073709551615ULL, 0x123456789abcdefULL);
	HOST("%c%lld", "cL", 'z', 1LL << 40);
	HOST("%zu %zd %zx", "zzz", (size_t)12345, (size_t)-3, (size_t)0xabc);
	HOST("%s|%10s|%-10s|%.2s|%5.1s", "sssss", "eth0", "eth0", "eth0", "eth0", "eth0");
	HOST("%s%d %s%hd", "sish", "ab", 7, "xyz", 3);
	HOST("%c|%3c|%-3c|", "ccc", 'a', 'b', 'c');
	HOST("%*d|%-*d|%.*d", "iiiiii", 6, 42, 6, 42, 4, 7);
	HOST("100%% %d%%", "i", 5);
	HOST("%s", "s", "");
	HOST("%d %d %d %d", "iiii", 0, 1, -2147483647 - 1, 99);

	/* kernel-specific behaviour (differs from C printf) */
	KERN("%.0d", "0", "i", 0);
	KERN("%#x", "0x0", "i", 0);
	KERN("%05.3d", "00007", "i", 7);
	KERN("%*d", "7   ", "ii", -4, 7);
	KERN("%.*d", "3", "ii", -1, 3);
	KERN("%p", "0000000000000000", "p", (void *)0);
	KERN("%px", "ffff888012345678", "p", (void *)0xffff888012345678ull);
	KERN("%p|", "ffff888012345678|", "p", (void *)0xffff888012345678ull);
	KERN("%pS", "kfree_skbmem+0x10/0x40", "p", (void *)0xffffffff81000110ull);
	KERN("%ps", "kfree_skbmem", "p", (void *)0xffffffff81000110ull);
	KERN("%pS", "foo_xmit+0x4/0x80 [foo]", "p", (void *)0xffffffffc0001004ull);
	/* the last text symbol ends at _etext, not at the next module's symbol */
	KERN("%pSR", "skb_free_head+0x0/0xec0", "p", (void *)0xffffffff81000140ull);
	KERN("%pS", "0x1234", "p", (void *)0x1234);
	KERN("%20ps|", "        kfree_skbmem|", "p", (void *)0xffffffff81000100ull);
	KERN("%pI4 up", "10.0.0.1 up", "s", "10.0.0.1");
	KERN("%pI4%d", "10.0.0.1!5", "si", "10.0.0.1!", 5);
	KERN("%pe", "-ENOMEM", "p", (void *)(intptr_t)-12);
	KERN("%pe", "-EPROBE_DEFER", "p", (void *)(intptr_t)-517);
	/* plain %p holds the kernel's hash (docs/SECURITY.md): printed as is */
	KERN("%p|%20p|%-12p|%pK", "0000000075f33ab9|            75f33ab9|75f33ab9    |0000000075f33ab9",
	     "pppp", (void *)0x75f33ab9ull, (void *)0x75f33ab9ull, (void *)0x75f33ab9ull,
	     (void *)0x75f33ab9ull);
	/* no hash key yet when recorded (LOGDEV_PTR_NOKEY): as the kernel printed */
	KERN("%p|%20p|%pK|%pe|%px", "(____ptrval____)|(____ptrval____)|(____ptrval____)|(____ptrval____)|7fffffffffffffff",
	     "ppppp", (void *)LOGDEV_PTR_NOKEY, (void *)LOGDEV_PTR_NOKEY,
	     (void *)LOGDEV_PTR_NOKEY, (void *)LOGDEV_PTR_NOKEY, (void *)LOGDEV_PTR_NOKEY);
	KERN("%d %jd %d", "1 ", "iLi", 1, 2LL, 3);
	KERN("%d %n", "1 ", "ii", 1, 2);
	KERN("end%", "end", "i", 0);
	/* without kallsyms: hex like a kernel without CONFIG_KALLSYMS */
	enc(&p, "p", (void *)0xffffffff81000110ull);
	check_render("bprintf %pS without kallsyms", "%pS", &p, "0xffffffff81000110", NULL);
	/* reading past the payload never reads out of bounds: marked, ends there */
	enc(&p, "i", 1);
	check_render("bprintf missing args marked [missing]", "%d %d %s|%lld", &p, "1 [missing]",
		     NULL);
	p.n = 2;
	memcpy(p.b, "ab", 2);	/* string without NUL at the end */
	check_render("bprintf unterminated string bounded", "%s|", &p, "ab|", NULL);
	{
		char small[8];
		int n;

		enc(&p, "s", "abcdefghijkl");
		n = lgd_bprintf(small, sizeof(small), "%s", p.b, p.n, NULL);
		CHECK_WHY(n == 12 && !strcmp(small, "abcdefg"),
			  "bprintf truncates output, returns full length",
			  "n=%d '%s'", n, small);
	}
	{
		const struct lgd_ksym *k;
		uint64_t off, size;

		k = lgd_ksyms_lookup(&test_ksyms, 0xffffffffc0001090ull, &off, &size);
		CHECK_WHY(!k,
			  "ksyms: last symbol has no size, no match",
			  "matched %s", k->name);
	}
	lgd_ksyms_free(&test_ksyms);
}

/* ---- corruption ---------------------------------------------------- */

struct decode_res {
	int opened;
	int records;
	int gaps;
	int warnings;
	char warn_text[4096];
};

static void count_warn(void *arg, const struct lgd_diag *d)
{
	struct decode_res *r = arg;
	size_t n = strlen(r->warn_text);

	r->warnings++;
	if (n + 200 < sizeof(r->warn_text))
		snprintf(r->warn_text + n, sizeof(r->warn_text) - n, "off=%lld %s\n",
			 (long long)d->offset, d->msg);
}

static void decode_file(const char *path, struct decode_res *res)
{
	struct lgd_reader r;
	struct lgd_merge m;
	struct lgd_item it;
	struct lgd_diag d;

	memset(res, 0, sizeof(*res));
	if (lgd_reader_open(&r, path, count_warn, res, &d))
		return;
	res->opened = 1;
	if (lgd_merge_init(&m, &r)) {
		lgd_reader_close(&r);
		return;
	}
	while (lgd_merge_next(&m, &it) > 0) {
		if (it.kind == LGD_ITEM_REC) {
			const struct lgd_site *s = lgd_sites_get(&r.sites, it.rec.site);
			char msg[256];

			if (s)
				lgd_bprintf(msg, sizeof(msg), s->fmt, it.payload,
					   it.rec.arg_bytes, NULL);
			res->records++;
		} else {
			res->gaps++;
		}
	}
	lgd_merge_free(&m);
	lgd_reader_close(&r);
}

/* three sub-buffers on CPU 0 with 2 records each; returns capture */
static void build_three(struct buf *b, size_t sb_off[3], uint32_t rec_off[3][2])
{
	struct sbuf s;
	struct pl p;

	cap_meta(b, formats_text);
	for (int k = 0; k < 3; k++) {
		sb_begin(&s, 0, (uint64_t)k, 1000 + 100 * (uint64_t)k, 0, 0);
		enc(&p, "is", k, "abc");
		rec_off[k][0] = sb_rec(&s, 1000 + 100 * (uint64_t)k, 4, LOGDEV_REC_PRINT, 0, 1,
				       p.b, p.n);
		rec_off[k][1] = sb_rec(&s, 1010 + 100 * (uint64_t)k, 1, LOGDEV_REC_PRINT, 0, 1,
				       NULL, 0);
		sb_off[k] = cap_sect(b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	}
	cap_sect(b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
}

static void corrupt_case(const char *name, size_t patch_off, const void *patch,
			 size_t plen, int exp_records, size_t exp_warn_off,
			 const char *marker)
{
	struct buf b = { 0 };
	size_t sb_off[3];
	uint32_t rec_off[3][2];
	struct decode_res res;
	char want[64], args[700], *out, *err, *path;
	int st;

	build_three(&b, sb_off, rec_off);
	(void)rec_off;
	memcpy(b.p + patch_off, patch, plen);
	path = write_tmp("corrupt.cap", b.p, b.n);
	decode_file(path, &res);
	snprintf(want, sizeof(want), "off=%zu ", exp_warn_off);
	CHECK_WHY(res.opened && res.records == exp_records && strstr(res.warn_text, want),
		  name,
		  "opened %d records %d (want %d) warnings:\n%s(want offset %zu)", res.opened,
		  res.records, exp_records, res.warn_text, exp_warn_off);

	/* and through the CLI: status 0, warning names the offset */
	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &out, &err);
	snprintf(want, sizeof(want), "corrupt at byte %zu", exp_warn_off);
	{
		int lines = 0;
		char nm[300];

		for (char *q = out; *q; q++)
			lines += *q == '\n';
		snprintf(nm, sizeof(nm), "%s (CLI)", name);
		CHECK_WHY(st == 3 && strstr(err, want) && strstr(out, marker) &&
			  lines >= exp_records,
			  nm,
			  "status %d stderr:\n%sstdout:\n%s", st, err, out);
	}
	free(out);
	free(err);
	free(b.p);
}

static void test_corruption(void)
{
	struct buf b = { 0 };
	size_t sb_off[3];
	uint32_t rec_off[3][2];
	uint8_t v[4];
	struct decode_res full, res;
	char *path;
	int prev, mono = 1, crash_free = 1;

	build_three(&b, sb_off, rec_off);
	path = write_tmp("good.cap", b.p, b.n);
	decode_file(path, &full);
	CHECK_WHY(full.records == 6 && full.warnings == 0,
		  "corruption baseline: 6 records, no warnings",
		  "records %d warnings %d\n%s", full.records, full.warnings, full.warn_text);

	/* bad magic in the middle sub-buffer: skip it, keep the others */
	lgd_cap_put_u32(v, 0x12345678);
	corrupt_case("bad sub-buffer magic", sb_off[1], v, 4, 4, sb_off[1], "val=2 name=abc");
	/* record len not a multiple of 8 (second record of sub-buffer 1) */
	v[0] = 30;
	v[1] = 0;
	corrupt_case("record len not multiple of 8", sb_off[1] + rec_off[1][1] + 12, v, 2, 5,
		     sb_off[1] + rec_off[1][1] + 12, "val=2 name=abc");
	/* record len beyond data_bytes (first record of sub-buffer 1) */
	v[0] = 200;
	corrupt_case("record len beyond data_bytes", sb_off[1] + rec_off[1][0] + 12, v, 2, 4,
		     sb_off[1] + rec_off[1][0] + 12, "val=2 name=abc");
	/* data_bytes beyond the sub-buffer */
	lgd_cap_put_u32(v, 5000);
	corrupt_case("data_bytes beyond sub-buffer", sb_off[2] + 24, v, 4, 4, sb_off[2] + 24,
		     "val=1 name=abc");
	/* arg_bytes beyond the record */
	lgd_cap_put_u32(v, 100);
	corrupt_case("arg_bytes beyond record", sb_off[0] + rec_off[0][0] + 20, v, 4, 5,
		     sb_off[0] + rec_off[0][0] + 20, "val=2 name=abc");
	/* record len < 24 */
	v[0] = 8;
	v[1] = 0;
	corrupt_case("record len below header size", sb_off[2] + rec_off[2][1] + 12, v, 2, 5,
		     sb_off[2] + rec_off[2][1] + 12, "val=2 name=abc");

	/* truncation at every byte offset */
	prev = 0;
	for (size_t k = 0; k < b.n; k++) {
		char *tp = write_tmp("trunc.cap", b.p, k);

		decode_file(tp, &res);
		if (res.records < prev)
			mono = 0;
		prev = res.records;
		if (res.opened && res.warnings == 0)
			crash_free = 0;	/* a cut file must warn */
		/* every record entirely before the cut must be decoded */
		int want = 0;

		for (int s = 0; s < 3; s++)
			for (int r = 0; r < 2; r++) {
				uint32_t len = r == 0 ? rec_off[s][1] - rec_off[s][0] : 24;

				if (sb_off[s] + rec_off[s][r] + len <= k)
					want++;
			}
		if (res.records != want) {
			fail("truncation: all complete records decoded",
			     "cut at %zu: %d records, expected %d\n%s", k, res.records, want,
			     res.warn_text);
			mono = -1;
			break;
		}
	}
	if (mono == 1)
		pass("truncation at every byte: complete records all decoded, monotonic");
	else if (mono == 0)
		fail("truncation monotonic", "record count went down");
	if (crash_free)
		pass("truncation at every byte: always warned");
	else
		fail("truncation: always warned", "a truncated capture decoded silently");

	/* not a capture at all, and an empty file */
	path = write_tmp("junk.cap", "hello world, not a capture", 26);
	decode_file(path, &res);
	CHECK_WHY(!res.opened,
		  "bad capture magic refused",
		  "opened");
	{
		char args[700], *out, *err;
		int st;

		snprintf(args, sizeof(args), "report %s", path);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 1 && strstr(err, "not a logdev capture"),
			  "unusable file exits 1 with message",
			  "status %d err %s", st, err);
		free(out);
		free(err);
	}
	/*
	 * An empty file (a recording that wrote nothing, a `> x.cap` gone
	 * wrong) is no capture: every reading verb exits 1 and says so, not 3
	 * (truncated) as a capture cut inside its file header does.
	 */
	path = write_tmp("empty.cap", "", 0);
	decode_file(path, &res);
	CHECK_WHY(!res.opened, "empty file: the library refuses it", "opened");
	{
		static const char *const verbs[] = {
			"report", "report --raw", "deltas", "export --format csv", "convert -o /dev/null",
			"hist --pair 1",
		};
		char args[700], *out, *err;
		int st;

		for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++) {
			snprintf(args, sizeof(args), "%s %s", verbs[i], path);
			st = run_cli(args, &out, &err);
			CHECK_WHY(st == 1 && strstr(err, "empty file (0 bytes): not a logdev capture") &&
				  !strstr(err, "truncated") && !out[0],
				  NAMEF("empty file: %s exits 1, 'empty file ... not a logdev capture', "
					"nothing on stdout", verbs[i]),
				  "status %d out %.200s err %s", st, out, err);
			free(out);
			free(err);
		}
		snprintf(args, sizeof(args), "diff %s %s", path, path);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 1 && strstr(err, "empty file (0 bytes): not a logdev capture") && !out[0],
			  "empty file: diff exits 1, 'empty file ... not a logdev capture'",
			  "status %d out %.200s err %s", st, out, err);
		free(out);
		free(err);
	}
	/* a capture cut inside its file header is still "truncated" (exit 3) */
	path = write_tmp("cut1.cap", LGD_CAP_MAGIC, 1);
	{
		char args[700], *out, *err;
		int st;

		snprintf(args, sizeof(args), "report %s", path);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 3 && strstr(err, "truncated at byte 1"),
			  "1 byte of capture magic: truncated, exit 3", "status %d err %s", st, err);
		free(out);
		free(err);
	}
	free(b.p);

	/* header with a wrong version is refused */
	{
		struct buf c = { 0 };
		const char *h = "version: 4\nendian: little\nsubbuf_size: 256\n"
				"field: subbuf.seq offset:8 size:8\n";

		cap_start(&c);
		cap_sect(&c, LGD_SECT_HEADER, LGD_CAP_NO_CPU, h, strlen(h));
		path = write_tmp("v4.cap", c.p, c.n);
		decode_file(path, &res);
		CHECK_WHY(!res.opened,
			  "unsupported format version refused",
			  "opened");
		free(c.p);
	}
}

/* ---- task names (comm records, format version 3) --------------------- */

static void comm_rec(struct sbuf *s, uint64_t ts, uint8_t ctx, uint32_t pid, const char *name)
{
	char c[LOGDEV_COMM_LEN] = { 0 };

	memcpy(c, name, strlen(name) < sizeof(c) ? strlen(name) : sizeof(c) - 1);
	sb_rec(s, ts, 0, LOGDEV_REC_COMM, ctx, pid, c, sizeof(c));
}

static void test_comm(void)
{
	struct buf b = { 0 };
	struct sbuf s;
	struct lgd_reader r;
	struct lgd_diag d;
	char *out, *err, *path, args[700];
	int st;

	cap_meta(&b, formats_text);
	/* CPU 0: alpha-100, then beta-101 with an NMI inside, then 102 with no name */
	sb_begin(&s, 0, 0, 1000000000ull, 0, 0);
	comm_rec(&s, 1000000000ull, 0, 100, "alpha");
	sb_rec(&s, 1000000000ull, 1, LOGDEV_REC_PRINT, 0, 100, NULL, 0);
	comm_rec(&s, 1000001000ull, 0, 101, "beta");
	sb_rec(&s, 1000001000ull, 2, LOGDEV_REC_PRINT, 0, 101, NULL, 0);
	sb_rec(&s, 1000001500ull, 3, LOGDEV_REC_PRINT, LOGDEV_CTX_NMI, 101, NULL, 0);
	sb_rec(&s, 1000002000ull, 1, LOGDEV_REC_PRINT, 0, 102, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 0, 1, 1000002500ull, 0, 0);
	/* 103's first record: its comm record comes later (the first was lost) */
	sb_rec(&s, 1000002500ull, 1, LOGDEV_REC_PRINT, 0, 103, NULL, 0);
	comm_rec(&s, 1000002600ull, 0, 103, "late");
	sb_rec(&s, 1000002600ull, 2, LOGDEV_REC_PRINT, 0, 103, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	/* CPU 1: pid 100 reused by gamma (alpha exited), which renames itself */
	sb_begin(&s, 1, 0, 1000003000ull, 0, 0);
	comm_rec(&s, 1000003000ull, LOGDEV_CTX_HARDIRQ, 100, "gamma");
	sb_rec(&s, 1000003000ull, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 100, NULL, 0);
	comm_rec(&s, 1000004000ull, 0, 100, "gamma");	/* repeated: no new entry */
	sb_rec(&s, 1000004000ull, 2, LOGDEV_REC_PRINT, 0, 100, NULL, 0);
	comm_rec(&s, 1000005000ull, 0, 100, "renamed-long-nam");	/* 16 bytes, no NUL */
	sb_rec(&s, 1000005000ull, 3, LOGDEV_REC_PRINT, 0, 100, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	/* names a task may give itself: control characters, nothing */
	sb_begin(&s, 1, 1, 1000006000ull, 0, 0);
	comm_rec(&s, 1000006000ull, 0, 104, "a\tb\nc\\");
	sb_rec(&s, 1000006000ull, 1, LOGDEV_REC_PRINT, 0, 104, NULL, 0);
	comm_rec(&s, 1000007000ull, 0, 105, "");
	sb_rec(&s, 1000007000ull, 1, LOGDEV_REC_PRINT, 0, 105, NULL, 0);
	/* pid 0: every CPU's idle task, one name for all */
	comm_rec(&s, 1000008000ull, LOGDEV_CTX_HARDIRQ, 0, "swapper/1");
	sb_rec(&s, 1000008000ull, 1, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ, 0, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 1, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp("comm.cap", b.p, b.n);

	snprintf(args, sizeof(args), "report --by cpu %s", path);
	st = run_cli(args, &out, &err);
	expect_text("comm: report prints COMM-PID, pid:N without a comm record", out,
		"[     1.000000] cpu:0 alpha-100 kfree_skbmem:291 in\n"
		"[     1.000001] cpu:0 beta-101 kfree_skbmem:295 1  +1.000 us\n"
		"[     1.000001] cpu:0 beta-101 nmi kfree_skbmem:320 out  +0.500 us\n"
		"[     1.000002] cpu:0 pid:102 kfree_skbmem:291 in  +0.500 us\n"
		"[     1.000002] cpu:0 pid:103 kfree_skbmem:291 in  +0.500 us\n"
		"[     1.000002] cpu:0 late-103 kfree_skbmem:295 1  +0.100 us\n"
		"[     1.000003] cpu:1 gamma-100 hardirq kfree_skbmem:291 in\n"
		"[     1.000004] cpu:1 gamma-100 kfree_skbmem:295 1  +1.000 us\n"
		"[     1.000005] cpu:1 renamed-long-na-100 kfree_skbmem:320 out  +1.000 us\n"
		"[     1.000006] cpu:1 a\\tb\\nc\\\\-104 kfree_skbmem:291 in  +1.000 us\n"
		"[     1.000007] cpu:1 pid:105 kfree_skbmem:291 in  +1.000 us\n"
		"[     1.000008] cpu:1 <idle>-0 hardirq kfree_skbmem:291 in  +1.000 us\n");
	CHECK_WHY(st == 0 && err[0] == 0, "comm: report exit 0, no warnings",
		  "status %d stderr '%s'", st, err);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "report --raw %s", path);
	run_cli(args, &out, &err);
	CHECK_WHY(!strstr(out, "type?") &&
		  strstr(out, "1000000000\t0\t100\ttask\t0\t<comm>\t0\talpha\n"
			 "1000000000\t0\t100\ttask\t1\tkfree_skbmem\t291\tin\n") &&
		  strstr(out, "1000005000\t1\t100\ttask\t0\t<comm>\t0\trenamed-long-na\n"),
		  "comm: report --raw shows comm records (func <comm>, the name)", "%s", out);
	free(out);
	free(err);
	snprintf(args, sizeof(args), "deltas %s", path);
	run_cli(args, &out, &err);
	CHECK_WHY(!strstr(out, "site#0"), "comm: deltas leave comm records out", "%s", out);
	free(out);
	free(err);

	/* the library: names at each time, after a full load */
	if (lgd_reader_open(&r, path, NULL, NULL, &d)) {
		CHECK_TRUE(0, "comm: open");
		return;
	}
	CHECK_TRUE(lgd_comm_at(&r, 100, 1000000000ull) == NULL, "comm: nothing known before a merge");
	CHECK_EQ(lgd_comm_load(&r), 0, "comm: load");
	CHECK_EQ(r.nr_comms, (size_t)8, "comm: one entry per (pid, name) run");
	{
		static const struct { uint32_t pid; uint64_t ts; const char *want; } at[] = {
			{ 100, 1000000000ull, "alpha" }, { 100, 1000002999ull, "alpha" },
			{ 100, 1000003000ull, "gamma" }, { 100, 1000004999ull, "gamma" },
			{ 100, 1000005000ull, "renamed-long-na" }, { 100, ~0ull, "renamed-long-na" },
			{ 100, 0, "alpha" },	/* before any: the first after */
			{ 101, 1000001500ull, "beta" }, { 103, 1000002500ull, "late" },
			{ 102, 1000002000ull, NULL }, { 99, 1000002000ull, NULL },
		};

		for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
			const char *got = lgd_comm_at(&r, at[i].pid, at[i].ts);

			CHECK_WHY(at[i].want ? got && !strcmp(got, at[i].want) : !got,
				  NAMEF("comm: pid %u at %llu is %s", at[i].pid,
					(unsigned long long)at[i].ts, at[i].want ? at[i].want : "unknown"),
				  "got %s", got ? got : "NULL");
		}
	}
	lgd_reader_close(&r);
	free(b.p);

	/*
	 * Many comm records: 20000 pids in descending order (the old sorted
	 * array moved every entry at each insertion), and one pid renamed
	 * 2000 times with the clock going backwards (out of time order: kept
	 * only for the first LGD_COMM_UNORDERED_MAX names).  Must stay linear.
	 */
	{
		struct buf c = { 0 };
		uint64_t seq = 0, ts = 5000000000ull;
		struct timespec t0, t1;
		char nm[16];
		double secs;
		int k = 0;

		cap_meta(&c, formats_text);
		while (k < 22000) {
			sb_begin(&s, 0, seq++, ts, 0, 0);
			for (; k < 22000; k++) {
				uint32_t pid = k < 20000 ? 30000 - (uint32_t)k : 7;

				snprintf(nm, sizeof(nm), k < 20000 ? "t%d" : "r%d", k);
				if (k >= 20000)
					ts -= 10;	/* backwards */
				else
					ts += 10;
				char cm[LOGDEV_COMM_LEN] = { 0 };

				memcpy(cm, nm, strlen(nm));
				if (!sb_rec(&s, ts, 0, LOGDEV_REC_COMM, 0, pid, cm, sizeof(cm)))
					break;
			}
			cap_sect(&c, LGD_SECT_CPU_DATA, 0, s.b, SBS);
		}
		cap_sect(&c, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
		path = write_tmp("comm-many.cap", c.p, c.n);
		if (!lgd_reader_open(&r, path, NULL, NULL, &d)) {
			clock_gettime(CLOCK_MONOTONIC, &t0);
			CHECK_EQ(lgd_comm_load(&r), 0, "comm many: load");
			clock_gettime(CLOCK_MONOTONIC, &t1);
			secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
			CHECK_WHY(secs < 2.0, "comm many: 22000 comm records loaded in under 2 s",
				  "%.2f s", secs);
			CHECK_EQ(r.nr_comm_tasks, (size_t)20001, "comm many: 20001 pids");
			CHECK_EQ(r.nr_comms, (size_t)(20000 + LGD_COMM_UNORDERED_MAX),
				 "comm many: out-of-order renames capped");
			CHECK_STR_EQ(lgd_comm_at(&r, 30000, ~0ull), "t0", "comm many: first pid named");
			CHECK_STR_EQ(lgd_comm_at(&r, 10001, ~0ull), "t19999", "comm many: last pid named");
			lgd_reader_close(&r);
		} else {
			CHECK_TRUE(0, "comm many: open");
		}
		free(c.p);
	}
}

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

/* ---- diff and return-probe durations ------------------------------- */

static const char formats_b[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tnet/core/skbuff.c\t320\tkfree_skbmem\tout\n"
	"2\tnet/core/skbuff.c\t291\tkfree_skbmem\tin\n"
	"3\tnet/core/skbuff.c\t295\tkfree_skbmem\t1\n"
	"7\tdrivers/net/y.c\t50\tnew_func\tnew\n";

/* records (ts, site) on CPU 0, pid 1, as many per sub-buffer as fit (8), into a capture */
static char *build_seq(const char *name, const char *formats,
		       const uint64_t (*rec)[2], int nr)
{
	struct buf b = { 0 };
	struct sbuf s;
	uint64_t seq = 0;
	char *path;

	cap_start(&b);
	cap_sect(&b, LGD_SECT_HEADER, LGD_CAP_NO_CPU, header_text, strlen(header_text));
	cap_sect(&b, LGD_SECT_FORMATS, LGD_CAP_NO_CPU, formats, strlen(formats));
	for (int i = 0; i < nr; i++) {
		if (i % ((SBS - LOGDEV_SUBBUF_HDR_SIZE) / LOGDEV_REC_HDR_SIZE) == 0) {
			if (i)
				cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
			sb_begin(&s, 0, seq++, rec[i][0], 0, 0);
		}
		sb_rec(&s, rec[i][0], (uint32_t)rec[i][1], LOGDEV_REC_PRINT, 0, 1, NULL, 0);
	}
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return path;
}

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
		"from                     to                         count_A median_A(us)   p99_A(us)   count_B median_B(us)   p99_B(us)      ratio      change\n"
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
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct\n"
		"kfree_skbmem:291,kfree_skbmem:295,both,3,1000,1000,3,484000,484000,484.0000,48300.0000\n"
		"kfree_skbmem:320,kfree_skbmem:291,both,2,97000,97000,2,515000,515000,5.3093,430.9278\n"
		"kfree_skbmem:295,kfree_skbmem:320,both,3,2000,2000,3,1000,1000,0.5000,-50.0000\n"
		"kfree_skbmem:320,foo_xmit:10,only_a,1,97000,97000,,,,,\n"
		"kfree_skbmem:320,new_func:50,only_b,,,,1,515000,515000,,\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format=json %s %s", pa, pb);
	run_cli(args, &out, &err);
	{
		char exp[2400];

		snprintf(exp, sizeof(exp),
			"{\"a\": \"%s\", \"b\": \"%s\", \"pairs\": [\n"
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
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct\n"
		"kfree_skbmem:291,kfree_skbmem:295,both,3,1000,1000,3,484000,484000,484.0000,48300.0000\n"
		"kfree_skbmem:295,kfree_skbmem:320,both,3,2000,2000,3,1000,1000,0.5000,-50.0000\n");
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
		pass("huge span: trace.dat read back: trace-cmd not installed (skipped)");
	}
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
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)\n"
		"f:0                      f%return:0                        4      0.100      3.000     10.000     10.000       19.100       16.100\n"
		"durations: 4 paired (0 negative), 0 entries without return, 1 return without entry\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --durations --format csv %s %s", path, path);
	run_cli(args, &out, &err);
	expect_text("diff --durations of a capture with itself", out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct\n"
		"f:0,f%return:0,both,4,3000,10000,4,3000,10000,1.0000,0.0000\n");
	free(out);
	free(err);
}

/* ---- machine-readable output with hostile names (issue 7, fault 9) --- */

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
	"bad = [r for r in rows if len(r) != 11]\n"
	"if bad:\n"
	"    print(len(bad), 'rows without 11 fields, e.g.', ascii(bad[0])); sys.exit(0)\n"
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

/* ---- two sites with the same func:line (issue 7, fault 10) ---------- */

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
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct\n"
		"main_loop:20,b.c:probe:10,both,3,1000,1000,3,7000,7000,7.0000,600.0000\n"
		"a.c:probe:10,main_loop:20,both,3,49000,49000,3,49000,49000,1.0000,0.0000\n"
		"main_loop:20,a.c:probe:10,both,3,1000,1000,3,1000,1000,1.0000,0.0000\n"
		"b.c:probe:10,main_loop:20,both,2,49000,49000,2,43000,43000,0.8776,-12.2449\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", pa, pc);
	st = run_cli(args, &out, &err);
	expect_text("diff: a capture with only a.c's probe matches a.c's rows, not b.c's", out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct\n"
		"a.c:probe:10,main_loop:20,both,3,49000,49000,5,49000,49000,1.0000,0.0000\n"
		"main_loop:20,a.c:probe:10,both,3,1000,1000,6,1000,1000,1.0000,0.0000\n"
		"b.c:probe:10,main_loop:20,only_a,2,49000,49000,,,,,\n"
		"main_loop:20,b.c:probe:10,only_a,3,1000,1000,,,,,\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", pc, pd);
	st = run_cli(args, &out, &err);
	expect_text("diff: a site without a file matches the one of that func:line", out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct\n"
		"main_loop:20,probe:10,both,6,1000,1000,6,1000,1000,1.0000,0.0000\n"
		"probe:10,main_loop:20,both,5,49000,49000,5,49000,49000,1.0000,0.0000\n");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff --format csv %s %s", pa, pd);
	st = run_cli(args, &out, &err);
	expect_text("diff: a site without a file is not matched where two files could be meant",
		out,
		"from,to,status,count_a,median_a_ns,p99_a_ns,count_b,median_b_ns,p99_b_ns,ratio,change_pct\n"
		"a.c:probe:10,main_loop:20,only_a,3,49000,49000,,,,,\n"
		"b.c:probe:10,main_loop:20,only_a,2,49000,49000,,,,,\n"
		"main_loop:20,a.c:probe:10,only_a,3,1000,1000,,,,,\n"
		"main_loop:20,b.c:probe:10,only_a,3,1000,1000,,,,,\n"
		"main_loop:20,probe:10,only_b,,,,6,1000,1000,,\n"
		"probe:10,main_loop:20,only_b,,,,5,49000,49000,,\n");
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

/* ---- every entry and return accounted for (issue 7, fault 11) ------- */

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
	/* issue 12: stdout holds records only, so `report cap > file` is the records */
	check("report: the durations summary is on stderr, not among the records on stdout",
	      out[0] == '[' && !strstr(out, "durations:"),
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
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)     self(us)\n"
		"f:0                      f%return:0                        2     -5.000     -5.000      2.000      2.000       -3.000       -3.000 ?\n"
		"? rows whose probe has entries without return: their count is short of those (summary line)\n"
		"durations: 2 paired (1 negative), 2 entries without return, 3 returns without entry\n");
	free(out);
	free(err);
}

/* ---- LOGDEV_REC_PRINT_SLOTS: edprint()'s compile-time encoding ------- */

/*
 * Encode the arguments with include/linux/edprint_slots.h (the code the
 * kernel's edprint() expands to), render with lgd_bprintf_slots(), compare
 * with @exp; also check the size edprint() reserves equals what it stores.
 */
#define SLOTS(fmt, exp, ...) do {					\
	struct pl p_;							\
	char got_[512], nm_[600];					\
	EDP_MAP(EDP_DECL, ##__VA_ARGS__)				\
	u32 want_ = 0 EDP_MAP(EDP_SIZE, ##__VA_ARGS__);			\
	char *_edp = (char *)p_.b;					\
	EDP_MAP(EDP_STORE, ##__VA_ARGS__)				\
	p_.n = (uint32_t)(_edp - (char *)p_.b);				\
	int n_ = lgd_bprintf_slots(got_, sizeof(got_), fmt, p_.b, p_.n, NULL); \
	snprintf(nm_, sizeof(nm_), "slots \"%s\"", fmt);		\
	CHECK_WHY(!strcmp(got_, exp) && n_ == (int)strlen(exp) && p_.n == want_ && \
		  p_.n % 4 == 0, nm_,					\
		  "expected \"%s\" got \"%s\" (ret %d, %u bytes stored, %u reserved)", \
		  exp, got_, n_, p_.n, want_);				\
	if (EDP_WORDS_OK && (0 EDP_MAP(EDP_WSIZE, ##__VA_ARGS__)) <= EDP_WORDS_MAX) \
		WORDS_SAME(nm_, p_, ##__VA_ARGS__);			\
} while (0)

/*
 * The word form (EDP_WSTORE, what edprint() hands __logdev_words()) of the
 * same arguments: the bytes of the slot stores in @p_, zero after them to
 * the end of the last word (the record's padding).
 */
static unsigned int slots_as_words;
#define WORDS_SAME(nm_, p_, ...) do {					\
	u64 _edw[4] = { 0 };						\
	unsigned int _edo = 0;						\
	uint8_t wb_[4 * sizeof(u64)], zero_[4 * sizeof(u64)] = { 0 };	\
	u32 wn_ = 0 EDP_MAP(EDP_WSIZE, ##__VA_ARGS__);			\
	EDP_MAP(EDP_WDECL, ##__VA_ARGS__)				\
	EDP_MAP(EDP_WSTORE, ##__VA_ARGS__)				\
	memcpy(wb_, _edw, sizeof(wb_));					\
	slots_as_words++;						\
	CHECK_WHY(wn_ == (p_).n && _edo == wn_ &&			\
		  !memcmp(wb_, (p_).b, (p_).n) &&			\
		  !memcmp(wb_ + wn_, zero_, sizeof(wb_) - wn_),		\
		  nm_, "words: %u bytes (%u placed) against %u slot bytes, or they differ", \
		  wn_, _edo, (p_).n);					\
} while (0)

static void test_slots(void)
{
	const char *nullstr = NULL;
	const unsigned char ustr[] = "uchar";
	char buf[8] = "arr";
	struct {
		unsigned int u3:3;
		int s5:5;
		unsigned long long w40:40;
		_Bool b:1;
	} bf = { 5, -3, 0x123456789aULL, 1 };
	unsigned int bf_bytes;
	int nargs;

	/* (no arguments: an empty payload; not expressible here, the tests
	 * build with -std=c11, where `, ##__VA_ARGS__` keeps its comma) */
	SLOTS("%d %d %d", "0 1 -1", 0, 1, -1);
	SLOTS("int min %d max %d", "int min -2147483648 max 2147483647", INT_MIN, INT_MAX);
	SLOTS("hh %hhd %hhu %hhx", "hh -5 250 ab", (signed char)-5, (unsigned char)250,
	      (unsigned char)0xab);
	SLOTS("h %hd %hu %hx", "h -12345 65535 beef", (short)-12345, (unsigned short)65535,
	      (unsigned short)0xbeef);
	SLOTS("l %ld %lu %lx", "l -9223372036854775808 18446744073709551615 deadbeefcafe",
	      LONG_MIN, ULONG_MAX, 0xdeadbeefcafeUL);
	SLOTS("ll %lld %llx", "ll -1 123456789abcdef", -1LL, 0x0123456789abcdefULL);
	SLOTS("z %zu %zd", "z 4096 -4096", (size_t)4096, (ssize_t)-4096);
	SLOTS("star [%*d] [%-*d] [%.*d]", "star [     3] [3     ] [0009]", 6, 3, 6, 3, 4, 9);
	SLOTS("char [%c] [%3c] [%-3c]", "char [A] [  b] [c  ]", 'A', 'b', 'c');
	SLOTS("str [%s] [%10s] [%-5s|]", "str [abc] [     right] [left |]", "abc", "right",
	      "left");
	SLOTS("str null [%s]", "str null [(null)]", nullstr);
	SLOTS("str empty [%s] then %d", "str empty [] then 5", "", 5);
	SLOTS("%s=%d, %s=%u, %s=%llx", "a=-1, b=2, c=3", "a", -1, "b", 2U, "c", 3ULL);
	SLOTS("after str %s %c %hd %lld", "after str xyz q -2 -3", "xyz", 'q', (short)-2, -3LL);
	SLOTS("uchar %s array %s", "uchar uchar array arr", ustr, buf);
	SLOTS("many %d %d %d %d %d %d %d %d %d %d", "many 1 2 3 4 5 6 7 8 9 10",
	      1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
	/* the word form's edges: an 8-byte value across two words, 32 bytes
	 * exactly (the most __logdev_words() takes), one word, 36 bytes (too
	 * many: the slots path) */
	SLOTS("straddle %d %llx %d %lx", "straddle -7 1122334455667788 9 99aabbccddeeff00",
	      -7, 0x1122334455667788ULL, 9, 0x99aabbccddeeff00UL);
	SLOTS("full %u %lld %d %lld %d %d", "full 4294967295 -2 3 -4 5 6",
	      UINT_MAX, -2LL, 3, -4LL, 5, 6);
	SLOTS("eight %d %d %d %d %d %d %d %d", "eight 1 -2 3 -4 5 -6 7 -8",
	      1, -2, 3, -4, 5, -6, 7, -8);
	SLOTS("one %hd", "one -1", (short)-1);
	SLOTS("one %lx", "one ffffffff00000001", 0xffffffff00000001UL);
	SLOTS("one %c%c", "one ab", 'a', 'b');
	SLOTS("nine %d %d %d %d %d %d %d %d %d", "nine 1 2 3 4 5 6 7 8 9",
	      1, 2, 3, 4, 5, 6, 7, 8, 9);
	/*
	 * bit-fields (EDP_RV()): narrow ones take an int's 4-byte slot, one
	 * wider than int its declared type's 8; in the word form and, with a
	 * string, in the slots form
	 */
	SLOTS("bits %u %d %llx %d", "bits 5 -3 123456789a 1", bf.u3, bf.s5, bf.w40, bf.b);
	SLOTS("bits %d [%s] %d", "bits 5 [str] -3", bf.u3, "str", bf.s5);
	/* every case above without a string, but "many" and "nine" (> 32 bytes) */
	check("slots: the no-string cases also took the word form", slots_as_words == 16,
	      "%u of 16", slots_as_words);
	bf_bytes = 0 EDP_MAP(EDP_WSIZE, bf.u3, bf.s5, bf.w40, bf.b);
	check("slots: a 40-bit bit-field is 8 bytes, the narrow ones 4 (20 in all)",
	      bf_bytes == 20, "%u", bf_bytes);
	nargs = EDP_NARGS(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
	check("slots: EDP_NARGS counts 16 arguments", nargs == 16, "%d", nargs);
}

/* ---- issue 7: cut arguments, encodings chosen by a parse, unrenderable - */

/* render @p (flags LGD_BP_*) and compare @expn bytes (NULs allowed) */
static void check_rec(const char *name, const char *fmt, const uint8_t *pl, size_t n,
		      unsigned int flags, const char *exp, size_t expn)
{
	char got[1024];
	int r = lgd_bprintf_rec(got, sizeof(got), fmt, pl, n, NULL, LGD_TS_END, flags);

	CHECK_WHY(r == (int)expn && !memcmp(got, exp, expn) && got[expn] == 0,
		  name,
		  "fmt \"%s\": expected \"%.*s\" (%zu) got \"%.*s\" (ret %d)", fmt, (int)expn, exp,
		  expn, r > 0 && r < (int)sizeof(got) ? r : 0, got, r);
}

/* which encoding edprint() picks for fmt and these arguments: 1 slots */
#define ENC(fmt, ...)							\
	edp_fmt_slots_ok(fmt, EDP_NARGS(__VA_ARGS__),			\
			 0 EDP_MAP(EDP_STRBIT, ##__VA_ARGS__),		\
			 0 EDP_MAP(EDP_WIDEBIT, ##__VA_ARGS__), NULL)
#define EXPECT_ENC(want, fmt, ...)					\
	check("encoding of \"" fmt "\" is " #want,			\
	      ENC(fmt, ##__VA_ARGS__) == (want), "got %d", ENC(fmt, ##__VA_ARGS__))

static void test_issue7(void)
{
	static uint8_t pl[512];
	static char exp[1024];
	const unsigned long bitmap[1] = { 0xf0f0f };
	const unsigned char mac[6] = { 0 }, b3[3] = { 1, 2, 3 };
	void *dentry = (void *)bitmap;
	char *cp = (char *)"x";
	size_t n;

	/* fault 2: the encoding comes from a parse of the format */
	EXPECT_ENC(0, "[%20pb]", bitmap);
	EXPECT_ENC(0, "[%*pb]", 20, bitmap);
	EXPECT_ENC(0, "[%-12pd2]", dentry);
	EXPECT_ENC(0, "[%3ph]", b3);
	EXPECT_ENC(0, "[%20pM]", mac);
	EXPECT_ENC(0, "[%-20pI4]", b3);
	EXPECT_ENC(0, "[%40pUb]", mac);
	EXPECT_ENC(0, "%p", cp);
	EXPECT_ENC(0, "%px %s", cp, "s");
	EXPECT_ENC(0, "%d", cp);		/* a char pointer read as a number */
	EXPECT_ENC(0, "%s", 5);			/* a number read as a string */
	EXPECT_ENC(0, "%d", 5L);		/* 8 bytes read as 4 */
	EXPECT_ENC(0, "%ld", 5);		/* 4 bytes read as 8 */
	EXPECT_ENC(0, "%d %d", 5);		/* too few arguments */
	EXPECT_ENC(0, "%d", 5, 6);		/* too many */
	EXPECT_ENC(0, "%n", 5);			/* refused by the kernel */
	EXPECT_ENC(0, "50%", 5);
	/* (no arguments: -std=c11 keeps the comma of ", ##__VA_ARGS__") */
	check("encoding of \"plain 100%%\" is 1", edp_fmt_slots_ok("plain 100%%", 0, 0, 0, NULL) == 1,
	      "got 0");
	check("encoding of \"%d\" with no argument is 0", edp_fmt_slots_ok("%d", 0, 0, 0, NULL) == 0,
	      "got 1");
	EXPECT_ENC(1, "%d %s %c", 1, "a", 'c');
	EXPECT_ENC(1, "[%-+ #012.5d] %5% [%.3s]", 1, "abcdef");
	EXPECT_ENC(1, "%*d %-*.*s", 6, 3, 6, 2, "abc");
	EXPECT_ENC(1, "%hhx %hd %lu %llx %zu %td %Lx", (unsigned char)1, (short)2, 3UL,
		   4ULL, (size_t)5, (ptrdiff_t)6, 7ULL);

	/* fault 1: a cut vbin_printf() record: string cut at the payload end */
	memset(pl, 'Z', 511);
	pl[511] = 0;
	memset(exp, 'Z', 511);
	memcpy(exp + 511, "[cut]", 5);
	check_rec("cut: vbin string cut at 512 bytes is marked", "%s%s", pl, 512, LGD_BP_CUT,
		  exp, 516);
	check_rec("cut: same with text after it", "<%s> and %d", pl, 512, LGD_BP_CUT,
		  (memcpy(exp, "<", 1), memset(exp + 1, 'Z', 511),
		   memcpy(exp + 512, "[cut]", 5), exp), 517);
	/* cut before a number: the stored data ends where it would start */
	memcpy(pl, "abc\0\0\0\0\0\5\0\0\0", 12);
	check_rec("cut: a number left out is marked where it would be", "%s %d %d|", pl, 8,
		  LGD_BP_CUT, "abc 0 [cut]", 11);
	check_rec("cut: nothing marked without the flag", "%s %d|", pl, 8, 0, "abc 0|", 6);
	/* slots: a %s of 255 characters in a record flagged cut */
	memset(pl, 'y', 255);
	pl[255] = 0;
	memcpy(pl + 256, "\x2a\0\0\0", 4);
	memset(exp, 'y', 255);
	memcpy(exp, "[", 1);
	memset(exp + 1, 'y', 255);
	memcpy(exp + 256, "[cut]] 42", 9);
	check_rec("cut: slots %s cut at 255 is marked, the rest follows", "[%s] %d", pl, 260,
		  LGD_BP_SLOTS | LGD_BP_CUT, exp, 265);
	memcpy(exp + 256, "] 42", 4);
	check_rec("cut: a 255-character %s in a record not cut is not marked", "[%s] %d", pl,
		  260, LGD_BP_SLOTS, exp, 260);

	/* fault 2: a conversion a slots payload cannot render is marked */
	memset(pl, 0xaa, 16);
	check_rec("unrenderable: slots %20pM", "mac [%20pM] then %d", pl, 12, LGD_BP_SLOTS,
		  "mac [[unrenderable %20pM]", 25);
	check_rec("unrenderable: slots %3ph", "[%3ph]", pl, 8, LGD_BP_SLOTS,
		  "[[unrenderable %3ph]", 20);
	/* the vbin_printf() path stores the kernel's text: printed as is */
	memcpy(pl, "   00:11:22:33:44:5a\0\0\0\0", 24);
	check_rec("vbin %20pM is the kernel's text", "[%20pM]", pl, 24, 0,
		  "[   00:11:22:33:44:5a]", 22);

	/* %c of 0 prints a NUL byte and goes on, as the kernel's vsnprintf() */
	memset(pl, 0, 8);
	check_rec("%c of 0: slots", "xxx%cyyy", pl, 4, LGD_BP_SLOTS, "xxx\0yyy", 7);
	check_rec("%c of 0: vbin", "xxx%cyyy", pl, 4, 0, "xxx\0yyy", 7);

	/* through the CLI: report --raw escapes the NUL, marks the cut */
	{
		struct buf b = { 0 };
		struct sbuf s;
		char args[700], *out, *err;
		const char *path;

		cap_meta(&b, "# id\tfile\tline\tfunc\tformat\n"
			 "1\ta.c\t1\tf\txxx%cyyy\n"
			 "2\ta.c\t2\tf\t%s|%d\n");
		sb_begin(&s, 0, 0, 1000, 0, 0);
		sb_rec(&s, 1000, 1, LOGDEV_REC_PRINT_SLOTS, 0, 1, "\0\0\0\0", 4);
		sb_rec(&s, 1001, 2, LOGDEV_REC_PRINT, LOGDEV_CTX_HARDIRQ | LOGDEV_REC_F_CUT, 1,
		       "abc\0", 4);
		cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
		cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
		path = write_tmp("issue7.cap", b.p, b.n);
		snprintf(args, sizeof(args), "report --raw %s", path);
		run_cli(args, &out, &err);
		expect_text("report --raw: %c of 0 and a cut record", out,
			    "1000\t0\t1\ttask\t1\tf\t1\txxx\\0yyy\n"
			    "1001\t0\t1\thardirq\t2\tf\t2\tabc|[cut]\n");
		free(out);
		free(err);
		snprintf(args, sizeof(args), "%s report --by cpu %s > %s", cli, path,
			 tmp_path("issue7.txt"));
		if (system(args))
			fail("report: %c of 0", "report failed");
		out = slurp_n(tmp_path("issue7.txt"), &n);
		check("report: %c of 0 prints as \\0 (terminal-safe), and the rest",
		      memmem(out, n, "f:1 xxx\\0yyy\n", 13) != NULL &&
		      memmem(out, n, "hardirq f:2 abc|[cut]  +", 24) != NULL,
		      "got %zu bytes \"%s\"", n, out);
		free(out);
		free(b.p);
	}
}

/* the slots encoder reads a "%.Ns" / "%.*s" string no further than vsnprintf() */
static u16 test_sprec[EDP_MAX_ARGS];

static void test_prec_bound(void)
{
	/* not NUL-terminated: ASan stops the test if anything reads past */
	const char arr4[4] = { 'a', 'b', 'c', 'd' };
	const char arr2[2] = { 'e', 'f' };
	const char *fmt = "[%.4s] [%.*s] [%s] [%.300s] [%.0s]";
	struct pl p;
	char got[600];

	check("sprec: precisions of the %s arguments",
	      edp_fmt_slots_ok(fmt, 6, 0x3d, 0, test_sprec) == 1 && test_sprec[0] == 5 &&
	      test_sprec[1] == 0 && test_sprec[2] == EDP_SPREC_STAR && test_sprec[3] == 0 &&
	      test_sprec[4] == EDP_STR_MAX + 2 && test_sprec[5] == 1,
	      "got %u %u %u %u %u %u", test_sprec[0], test_sprec[1], test_sprec[2],
	      test_sprec[3], test_sprec[4], test_sprec[5]);
#define EDP_SBOUND(i, prev)	edp_sprec_bound(test_sprec[i], prev)
	{
		long _edprev = 0;
		EDP_MAP(EDP_DECLB, arr4, 2, arr2, "xyz", "long", arr2)
		char *_edp = (char *)p.b;

		EDP_MAP(EDP_STORE, arr4, 2, arr2, "xyz", "long", arr2)
		p.n = (uint32_t)(_edp - (char *)p.b);
	}
#undef EDP_SBOUND
	lgd_bprintf_slots(got, sizeof(got), fmt, p.b, p.n, NULL);
	expect_text("slots: %.4s and %.*s of arrays without a NUL read only the precision",
		    got, "[abcd] [ef] [xyz] [long] []");
}

/* issue 12: the probes' miss counts of a capture's PROBES section */
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
		fprintf(stderr, "usage: test_decode PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_header_parse();
	test_bprintf();
	test_slots();
	test_issue7();
	test_prec_bound();
	test_report_deltas();
	test_missing_site();
	test_seq_damage();
	test_comm();
	test_gaps();
	test_gaps_v1();
	test_corruption();
	test_diff();
	test_durations();
	test_huge_spans();
	test_hostile_names();
	test_same_func_line();
	test_escaped_sites();
	test_long_site_name();
	test_dur_accounting();
	test_probe_missed();
	tmpdir_remove();
	printf("decode: %d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
