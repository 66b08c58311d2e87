// SPDX-License-Identifier: GPL-2.0
/*
 * test_terminal_safety.c: no recorded byte reaches a terminal unescaped
 * (library and CLI): strings holding ESC, CR, BEL, DEL, bytes 0x80-0xff,
 * C1 controls and bidi overrides, in %s and %c arguments, task names and
 * site names, escaped in report, report --raw, deltas, diff, convert's
 * messages, hist, its SVG and export; lgd_escape() itself.
 * Usage: test_terminal_safety PATH-TO-logdev
 * Output: PASS/FAIL lines (ldcheck.h); exit 1 if anything failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"
#include "fixture.h"

char tmpdir[] = "/tmp/logdev-termsafety-XXXXXX";

/*
 * The first unsafe byte of @n bytes of @s for a terminal: a control byte
 * other than '\n', DEL, a byte outside valid UTF-8, a C1 control or a bidi
 * override.  Return: its offset, or -1 if there is none.
 */
static long unsafe_at_tab(const char *s, size_t n, int tab_ok)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int k;

		if (p[i] == '\n' || (tab_ok && p[i] == '\t') || (p[i] >= 0x20 && p[i] < 0x7f)) {
			i++;
			continue;
		}
		k = lgd_utf8_len(p + i, n - i, &cp);
		if (k < 2 || (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069))
			return (long)i;
		i += (size_t)k;
	}
	return -1;
}

#define CHECK_SAFE(text, n, name) CHECK_SAFE_TAB(text, n, 0, name)
#define CHECK_SAFE_TAB(text, n, tab_ok, name)                                                \
	do {                                                                                 \
		long at_ = unsafe_at_tab((text), (n), (tab_ok));                            \
		CHECK_WHY(at_ < 0, name, "byte 0x%02x at %ld of %zu: ...%.40s",              \
			  at_ < 0 ? 0 : (unsigned char)(text)[at_], at_, (size_t)(n),          \
			  at_ < 0 ? "" : (text) + (at_ > 20 ? at_ - 20 : 0));                  \
	} while (0)

/* ---- lgd_escape() ------------------------------------------------------ */

#define L(lit) lit, sizeof(lit) - 1	/* a literal and its length, NULs included */

static void test_escape_unit(void)
{
	static const struct { const char *in; size_t n; const char *want; } cases[] = {
		{ L("plain text"), "plain text" },
		{ L("\x1b[2J"), "\\x1b[2J" },
		{ L("a\nb\tc\rd\\e"), "a\\nb\\tc\\rd\\\\e" },
		{ L("nul\0cut"), "nul\\0cut" },
		{ L("del\x7f bel\x07"), "del\\x7f bel\\x07" },
		{ L("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
		{ L("lone \x80 \xff"), "lone \\x80 \\xff" },
		{ L("csi \xc2\x9b" "2J"), "csi \\xc2\\x9b2J" },
		{ L("bidi \xe2\x80\xae" "x"), "bidi \\xe2\\x80\\xaex" },
		{ L("cut \xe2\x82"), "cut \\xe2\\x82" },
		{ L("overlong \xc0\xaf"), "overlong \\xc0\\xaf" },
		{ L("surrogate \xed\xa0\x80"), "surrogate \\xed\\xa0\\x80" },
	};
	char out[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len = lgd_escape(out, sizeof(out), cases[i].in, cases[i].n);

		CHECK_STR_EQ(out, cases[i].want, NAMEF("lgd_escape: case %zu", i));
		CHECK_EQ(len, strlen(cases[i].want), NAMEF("lgd_escape: case %zu length", i));
		CHECK_EQ(lgd_escape(NULL, 0, cases[i].in, cases[i].n), len,
			 NAMEF("lgd_escape: case %zu measured with NULL", i));
	}
	/* cut: never inside an escape; the whole length returned */
	CHECK_EQ(lgd_escape(out, 6, "ab\x1b" "cd", 5), (size_t)8, "lgd_escape: cut returns the whole length");
	CHECK_STR_EQ(out, "ab", "lgd_escape: cut before an escape that does not fit");
	CHECK_EQ(lgd_escape(out, 4, "abcdef", 6), (size_t)6, "lgd_escape: cut plain text, length");
	CHECK_STR_EQ(out, "abc", "lgd_escape: cut plain text");
}

/* ---- a capture whose strings hold every kind of unsafe byte ------------- */

static const char hostile_formats[] =
	"# id\tfile\tline\tfunc\tformat\n"
	"1\tx.c\t10\tev\x1b[7mil\tstr=%s chr=%c\n"
	"2\tfi\x9ble\xff.c\t20\tbidi\tname=%s\n"
	"3\tx.c\t30\tnulcut\tv=%s end\n"
	"4\tx.c\t40\tfmt\ttitle\x1b]0;pwned\x07 done\n"
	"5\tx.c\t50\tc1\xc2\x9b\x7f\tc1\n";

/* a vbin_printf payload: %s text (NUL included) then %c as one byte */
static uint32_t pl_str_chr(uint8_t *pl, const char *s, size_t n, int c)
{
	uint32_t k = 0;

	memcpy(pl, s, n);
	k = (uint32_t)n;
	if (c >= 0)
		pl[k++] = (uint8_t)c;
	while (k % 4)
		pl[k++] = 0;
	return k;
}

static char *hostile_cap(const char *name)
{
	struct buf b = { 0 };
	struct sbuf s;
	uint8_t pl[128], comm[LOGDEV_COMM_LEN] = "sh\x1b[2Jx\r\x7f\x80";
	uint32_t n;
	char *path;

	cap_meta(&b, hostile_formats);
	sb_begin(&s, 0, 0, 1000000ull, 0, 0);
	sb_rec(&s, 1000000ull, 0, LOGDEV_REC_COMM, 0, 7, comm, sizeof(comm));
	n = pl_str_chr(pl, "\x1b[31mRED\r\x7f\x80\xff\xc2\x9b[1A", 18, 0x07);
	sb_rec(&s, 1000000ull, 1, LOGDEV_REC_PRINT, 0, 7, pl, n);
	n = pl_str_chr(pl, "caf\xc3\xa9 \xe2\x80\xae" "evil", 14, -1);
	sb_rec(&s, 1001000ull, 2, LOGDEV_REC_PRINT, 0, 7, pl, n);
	n = pl_str_chr(pl, "ab\0\x1b[cd", 7, -1);	/* %s ends at the NUL */
	sb_rec(&s, 1002000ull, 3, LOGDEV_REC_PRINT, 0, 7, pl, n);
	sb_rec(&s, 1003000ull, 4, LOGDEV_REC_PRINT, 0, 7, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	sb_begin(&s, 0, 1, 1004000ull, 0, 0);
	sb_rec(&s, 1004000ull, 1, LOGDEV_REC_RAW, 0, 7, "\x1b\x07\x00\xff", 4);
	sb_rec(&s, 1005000ull, 5, LOGDEV_REC_PRINT, 0, 7, NULL, 0);
	cap_sect(&b, LGD_SECT_CPU_DATA, 0, s.b, SBS);
	cap_sect(&b, LGD_SECT_END, LGD_CAP_NO_CPU, NULL, 0);
	path = write_tmp(name, b.p, b.n);
	free(b.p);
	return path;
}

static void test_terminal_safety(void)
{
	char *path = hostile_cap("hostile.cap"), args[1200], *out, *err;
	size_t n;
	int st;

	snprintf(args, sizeof(args), "report %s", path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 0, "terminal: report exit 0");
	CHECK_SAFE(out, strlen(out), "terminal: report text holds no unsafe byte");
	CHECK_SAFE(err, strlen(err), "terminal: report stderr holds no unsafe byte");
	CHECK_STR_CONTAINS(out, "str=\\x1b[31mRED\\r\\x7f\\x80\\xff\\xc2\\x9b[1A chr=\\x07",
			   "terminal: %s and %c escaped (ESC CR DEL 0x80 0xff C1 BEL)");
	CHECK_STR_CONTAINS(out, "cpu:0 sh\\x1b[2Jx\\r\\x7f\\x80-7 ev\\x1b[7mil:10",
			   "terminal: task name and site function escaped");
	CHECK_STR_CONTAINS(out, "bidi:20 name=caf\xc3\xa9 \\xe2\\x80\\xaeevil",
			   "terminal: valid UTF-8 kept, bidi override escaped");
	CHECK_STR_CONTAINS(out, "nulcut:30 v=ab end", "terminal: %s ends at its NUL");
	CHECK_STR_CONTAINS(out, "fmt:40 title\\x1b]0;pwned\\x07 done",
			   "terminal: control bytes of the format itself escaped");
	CHECK_STR_CONTAINS(out, "<raw 4 bytes: 1b 07 00 ff>", "terminal: raw records as hex");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "report --raw %s", path);
	st = run_cli(args, &out, &err);
	CHECK_SAFE_TAB(out, strlen(out), 1, "terminal: report --raw holds no unsafe byte but its tabs");
	CHECK_STR_CONTAINS(out, "\tev\\x1b[7mil\t10\tstr=\\x1b[31mRED\\r",
			   "terminal: report --raw escapes func and message alike");
	CHECK_STR_CONTAINS(out, "\t<comm>\t0\tsh\\x1b[2Jx\\r\\x7f\\x80\n",
			   "terminal: report --raw comm records escaped");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "deltas %s", path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 0, "terminal: deltas exit 0");
	CHECK_SAFE(out, strlen(out), "terminal: deltas holds no unsafe byte");
	CHECK_STR_CONTAINS(out, "ev\\x1b[7mil:10", "terminal: deltas labels escaped");
	CHECK_STR_CONTAINS(out, "c1\\xc2\\x9b\\x7f:50", "terminal: deltas labels: C1 and DEL escaped");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "diff %s %s", path, path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 0, "terminal: diff exit 0");
	CHECK_SAFE(out, strlen(out), "terminal: diff text holds no unsafe byte");
	CHECK_STR_CONTAINS(out, "ev\\x1b[7mil:10", "terminal: diff labels escaped");
	free(out);
	free(err);

	/* json keeps the names themselves (its own \u escapes), never a raw ESC */
	snprintf(args, sizeof(args), "diff --format json %s %s", path, path);
	st = run_cli(args, &out, &err);
	CHECK_SAFE(out, strlen(out), "terminal: diff json holds no unsafe byte");
	CHECK_STR_CONTAINS(out, "\"ev\\u001b[7mil:10\"", "terminal: diff json escapes per JSON");
	CHECK_STR_CONTAINS(out, "\"c1\\u009b\\u007f:50\"", "terminal: diff json writes C1 and DEL as \\u escapes");
	free(out);
	free(err);

	/* convert: the trace.dat message is the escaped text of report */
	snprintf(args, sizeof(args), "convert -o %s %s", tmp_path("hostile.dat"), path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 0, "terminal: convert exit 0");
	free(out);
	free(err);
	out = slurp_n(tmp_path("hostile.dat"), &n);
	CHECK_TRUE(memmem(out, n, "str=\\x1b[31mRED\\r\\x7f", 21) != NULL,
		   "terminal: convert's messages are report's escaped text");
	CHECK_TRUE(memmem(out, n, "str=\x1b[31m", 9) == NULL,
		   "terminal: convert's printed message (msg) holds no raw ESC");
	free(out);
}

/*
 * hist, its SVG and export on the hostile capture: terminal text escaped,
 * the SVG well-formed XML (python3's parser) with the names escaped, the
 * json lines valid JSON with the control bytes as \u escapes, the csv read
 * back by python3's csv module with the message's bytes as they were.
 */
static void test_hist_export_safety(void)
{
	char *path = hostile_cap("hostile-x.cap"), *svg = tmp_path("hostile.svg");
	char *js = tmp_path("hostile.json"), *cs = tmp_path("hostile.csv");
	char args[2000], *out, *err;
	int st;

	snprintf(args, sizeof(args), "hist --pair 1 --svg %s %s", svg, path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 0, "terminal: hist exit 0");
	CHECK_SAFE(out, strlen(out), "terminal: hist text holds no unsafe byte");
	CHECK_STR_CONTAINS(out, "[512, 1K)", "terminal: hist buckets the pair's 1000 ns delta (1K = 1024)");
	free(out);
	free(err);
	out = slurp(svg);
	CHECK_TRUE(out != NULL, "terminal: hist --svg wrote the file");
	if (out) {
		CHECK_SAFE(out, strlen(out), "terminal: hist's SVG holds no control byte");
		CHECK_STR_CONTAINS(out, "ev\\x1b[7mil:10 -&gt; bidi:20",
				   "terminal: SVG title escaped (\\x1b, then XML's &gt;)");
	}
	free(out);
	snprintf(args, sizeof(args), "python3 -c 'import sys, xml.etree.ElementTree as E; "
		 "E.parse(sys.argv[1])' %s", svg);
	CHECK_EQ(system(args), 0, "terminal: hist's SVG of hostile names is well-formed XML");

	snprintf(args, sizeof(args), "export --format json -o %s %s", js, path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 0, "terminal: export json exit 0");
	free(out);
	free(err);
	out = slurp(js);
	CHECK_TRUE(out && strstr(out, "\"str=\\u001b[31mRED\\u000d\\u007f\\ufffd\\ufffd\\u009b[1A chr=\\u0007\""),
		   "terminal: export json: control bytes as \\u, invalid UTF-8 as \\ufffd");
	if (out)
		CHECK_SAFE_TAB(out, strlen(out), 1, "terminal: export json holds no unsafe byte");
	free(out);
	snprintf(args, sizeof(args), "python3 -c 'import sys, json; rows = [json.loads(l) for l in "
		 "open(sys.argv[1])]; sys.exit(0 if rows[0][\"message\"].startswith(\"str=\\x1b[31mRED\\r\") "
		 "and rows[0][\"comm\"] == \"sh\\x1b[2Jx\\r\\x7f\\ufffd\" else 1)' %s", js);
	CHECK_EQ(system(args), 0, "terminal: export json parses, message and comm decoded as recorded");

	snprintf(args, sizeof(args), "export --format csv -o %s %s", cs, path);
	st = run_cli(args, &out, &err);
	CHECK_EQ(st, 0, "terminal: export csv exit 0");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "python3 -c 'import sys, csv; r = list(csv.DictReader(open(sys.argv[1], "
		 "newline=\"\", encoding=\"utf-8\"))); sys.exit(0 if len(r) == 6 and "
		 "r[0][\"message\"] == \"str=\\x1b[31mRED\\r\\x7f\\ufffd\\ufffd\\x9b[1A chr=\\x07\" and "
		 "r[0][\"func\"] == \"ev\\x1b[7mil\" else 1)' %s", cs);
	CHECK_EQ(system(args), 0, "terminal: export csv (RFC 4180) read back: 6 rows, CR and ESC kept in quotes");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_terminal_safety PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_escape_unit();
	test_terminal_safety();
	test_hist_export_safety();
	tmpdir_remove();
	printf("terminal_safety: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
