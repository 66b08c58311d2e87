// SPDX-License-Identifier: GPL-2.0
/*
 * test_corruption.c: damaged captures (library): a byte patched in a sub-buffer
 * header, a record header or a section is reported at its offset, and the
 * records around it still decode
 * Captures are built byte by byte (testlib.h, fixture.h), written to
 * temporary files, decoded by the library in-process and by the CLI given
 * as argv[1].
 * Usage: test_corruption PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
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

char tmpdir[] = "/tmp/logdev-corruption-XXXXXX";

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

	free(b.p);
}

/* files that are no capture: junk, empty (every verb), cut in the file header, version 4 */
static void test_not_a_capture(void)
{
	struct decode_res res;
	char *path;

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
	/* a gzip-compressed capture (as the goldens are kept): named as such */
	{
		static const char gz[] = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
					 "compressed bytes, enough for a file header";
		char args[700], *out, *err;
		int st;

		path = write_tmp("demo.cap.gz", gz, sizeof(gz) - 1);
		snprintf(args, sizeof(args), "deltas %s", path);
		st = run_cli(args, &out, &err);
		CHECK_WHY(st == 1 && strstr(err, "gzip-compressed (zcat it to a file first)") && !out[0],
			  "gzip file: exits 1 and says it is gzip-compressed",
			  "status %d out %.200s err %s", st, out, err);
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

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_corruption PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_corruption();
	test_not_a_capture();
	tmpdir_remove();
	printf("corruption: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
