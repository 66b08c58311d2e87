// SPDX-License-Identifier: GPL-2.0
/*
 * test_gaps.c: lost events and sequence damage (library and CLI): gaps of
 * lost events, format version 1 gaps, sub-buffer sequence numbers that
 * repeat, go back or jump
 * Captures are built byte by byte (testlib.h, fixture.h), written to
 * temporary files, decoded by the library in-process and by the CLI given
 * as argv[1].
 * Usage: test_gaps PATH-TO-logdev.  Output: PASS/FAIL lines (ldcheck.h).
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

char tmpdir[] = "/tmp/logdev-gaps-XXXXXX";

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
		"# clock: local (ftrace clock local)\n"
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
		"from                     to                            count    min(us) median(us)    p99(us)    max(us)    total(us)   nested nested(us)  # clock: local (ftrace clock local)\n"
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
	/* lost events are a warning (exit 3), said once with the counts per CPU */
	CHECK_WHY(st == 3 && !strncmp(out, v1_head, strlen(v1_head)) &&
		  !strcmp(err, "logdev: warning: lost events: cpu:0 10 (overrun 3, lost 7)\n"),
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

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: test_gaps PATH-TO-logdev\n");
		return 2;
	}
	cli = argv[1];
	if (tmpdir_make())
		return 1;
	test_seq_damage();
	test_gaps();
	test_gaps_v1();
	tmpdir_remove();
	printf("gaps: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
