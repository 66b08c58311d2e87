// SPDX-License-Identifier: GPL-2.0
/*
 * test_area.c: the flight recorder's area (library: area.c, areaconv.c):
 * areas built in memory (areabuild.h: the library's own encoders, each
 * CPU's ring driven as the kernel's) are validated, with exact counts of
 * each class of sub-buffer, then converted to a capture and read back by
 * the reader, record by record against what the builder wrote:
 *   - a panic's area (sealed, open, empty; saved counters; STATS), the
 *     same with 4-byte commit counters, a hard reset (whole-unsealed, end
 *     unknown, no counters);
 *   - every even and every fifth sealed sub-buffer corrupted by one record
 *     byte: exactly those corrupt, every other record back byte for byte,
 *     the gaps between kept ones counted as lost sub-buffers by the reader;
 *   - an open sub-buffer with a torn last record (three ways);
 *   - one sub-buffer damaged in each way the validator knows;
 *   - headers refused (magic, cut, version, byte order, CRC, layout);
 *     formats text whose CRC fails (no FORMATS, records by site id);
 *   - the image cut at every length up to 400 bytes and every 3rd after,
 *     random bytes and randomly mutated areas: no crash (ASan), and the
 *     reader reads exactly the records the validator kept.
 * Usage: test_area [PATH-TO-logdev]   (CLI: cli/test_area_cli.c)
 *        test_area --write DIR        write DIR/area-panic.img (the golden
 *                                     image, tests/golden) and fuzz seeds
 *                                     DIR/seed-* (tests/fuzz/corpus/area)
 * Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "liblogdev.h"
#include "testlib.h"
#include "areabuild.h"
#include "areatest.h"

char tmpdir[] = "/tmp/logdev-area-XXXXXX";

/* CPU 0's saved overrun set to 5e9 (past 32 bits), CPU 1's to 0 */
static int big_overrun(struct ab_area *ab)
{
	for (uint32_t c = 0; c < 2; c++) {
		uint8_t *at = ab->img + ab->h.cpu_off + c * ab->h.cpu_stride;
		struct logdev_area_cpu ac;

		if (lgd_area_cpu_get(at, LOGDEV_AREA_CPU_SIZE, &ac))
			return -1;
		ac.overrun = c ? 0 : 5000000000ull;
		lgd_area_cpu_put(at, &ac);
	}
	return 0;
}

static void test_panic(uint32_t local_bytes)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct lgd_area a;
	struct lgd_diag d;
	const char *tag = local_bytes == 4 ? " (4-byte counters)" : "";

	panic_area(ab, local_bytes, 1);
	if (!CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, NAMEF("panic%s: validated", tag)))
		goto out;
	CHECK_STR_EQ(counts(&a, 0), "sealed 7 unsealed 0 open 1 empty 0 corrupt 0 damaged 0 cut 0",
		     NAMEF("panic%s: cpu 0 classes", tag));
	CHECK_STR_EQ(counts(&a, 1), "sealed 2 unsealed 0 open 1 empty 5 corrupt 0 damaged 0 cut 0",
		     NAMEF("panic%s: cpu 1 classes", tag));
	CHECK_EQ(a.cpus[0].records, 46, NAMEF("panic%s: cpu 0 holds seqs 4-11: 46 records", tag));
	CHECK_EQ(a.lost + got.warn_area, 0, NAMEF("panic%s: nothing lost, no warning", tag));
	CHECK_EQ(read_back(&a), 0, NAMEF("panic%s: converted and read", tag));
	expect_records(NAMEF("panic%s: every record the ring holds, byte for byte", tag), ab, NULL);
	CHECK_WHY(got.have_formats && got.have_stats && !got.lost_subbufs && !got.warn_read,
		  NAMEF("panic%s: FORMATS, STATS, no lost sub-buffer, no reader warning", tag),
		  "formats %d stats %d lost %llu warnings %d (%s)", got.have_formats,
		  got.have_stats, (unsigned long long)got.lost_subbufs, got.warn_read, last_warn);
	CHECK_STR_CONTAINS(got.last_boot, "ended: panic \"sysrq triggered crash\" at "
			   "2026-11-30 00:58:20.000000000 UTC (trace ts 301.123456)\n",
			   NAMEF("panic%s: LAST_BOOT says how it ended", tag));
	CHECK_STR_CONTAINS(got.last_boot, "cpu 0: sealed 7, whole-unsealed 0, open 1, empty 0, "
			   "corrupt 0, damaged 0, cut 0; records 46; counters: written=70 ",
			   NAMEF("panic%s: LAST_BOOT cpu 0 line", tag));
	CHECK_STR_CONTAINS(got.last_boot, "\nlost: none\n", NAMEF("panic%s: lost: none", tag));
	/* the wrap's losses said beside "lost: none" (a fresh user: exit 0 and "none", yet overrun) */
	CHECK_STR_CONTAINS(got.last_boot, "\noverwritten: 28 records before the end, as the ring "
			   "wrapped", NAMEF("panic%s: LAST_BOOT says what the wrap overwrote", tag));
	lgd_area_close(&a);
	/* a count past the sub-buffer header's 32 bits (a fresh user's finding) */
	if (!CHECK_EQ(big_overrun(ab), 0, NAMEF("panic%s: overrun set to 5e9", tag)) ||
	    !CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, NAMEF("panic%s: 5e9 validated", tag)))
		goto out;
	CHECK_EQ(read_back(&a), 0, NAMEF("panic%s: 5e9 converted and read", tag));
	CHECK_STR_CONTAINS(got.last_boot, "overwritten: 5000000000 records before the end, as the "
			   "ring wrapped (overrun: lost events at each CPU's start); on 1 CPU(s) "
			   "more than 4294967295: their lost-events line says 4294967295",
			   NAMEF("panic%s: an overrun past 32 bits is said, with the count", tag));
	lgd_area_close(&a);
out:
	ab_free(ab);
	free(ab);
}

static void test_hard_reset(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct lgd_area a;
	struct lgd_diag d;

	panic_area(ab, 8, 0);
	if (!CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "hard reset: validated"))
		goto out;
	CHECK_STR_EQ(counts(&a, 0), "sealed 0 unsealed 7 open 1 empty 0 corrupt 0 damaged 0 cut 0",
		     "hard reset: cpu 0 whole-unsealed, checked by structure");
	CHECK_EQ(read_back(&a), 0, "hard reset: converted and read");
	expect_records("hard reset: every record back", ab, NULL);
	CHECK_STR_CONTAINS(got.last_boot, "ended: unknown (no end seen: hard reset, power loss or "
			   "hang)\n", "hard reset: LAST_BOOT ended unknown");
	CHECK_STR_CONTAINS(got.last_boot, "; counters unknown\n", "hard reset: counters unknown");
	CHECK_FALSE(got.have_stats, "hard reset: no STATS section");
	/* CPU 0's ring wrapped: no count of what it overwrote, but said (a fresh user's finding) */
	CHECK_WHY(strstr(last_warn, "the ring had wrapped") &&
		  strstr(last_warn, "how many records is unknown"),
		  "hard reset: the wrapped ring's overwritten records said to exist, count unknown",
		  "warnings %d: %s", got.warn_area, last_warn);
	lgd_area_close(&a);
out:
	ab_free(ab);
	free(ab);
}

static int corrupt_seq(uint64_t seq)
{
	return seq >= 24 && seq <= 38 && (seq % 2 == 0 || seq % 5 == 0);
}

static void test_corrupt_pattern(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .nr_cpus = 1, .nr_subbufs = 16, .formats = fmts };
	struct lgd_area a;
	struct lgd_diag d;
	char want[200] = "", seen[200] = "";

	ab_init(ab, &o);
	recs(ab, 0, 6 * 39 + 3);	/* seqs 0-39: the ring holds 24-38 sealed, 39 open */
	ab_end(ab, LOGDEV_END_PANIC, "", 1, 1);
	for (uint64_t seq = 24; seq <= 38; seq++)
		if (corrupt_seq(seq)) {
			ab->img[ab_sb_off(ab, 0, seq) + LOGDEV_SUBBUF_HDR_SIZE + 24 + seq % 4] ^= 0x40;
			snprintf(want + strlen(want), sizeof(want) - strlen(want), " %llu",
				 (unsigned long long)seq);
		}
	if (!CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "corrupt: validated"))
		goto out;
	CHECK_STR_EQ(counts(&a, 0), "sealed 5 unsealed 0 open 1 empty 0 corrupt 10 damaged 0 cut 0",
		     "corrupt: every even and every fifth sealed sub-buffer corrupt, the rest sealed");
	for (uint32_t i = 0; i < a.cpus[0].nr_sb; i++)
		if (a.cpus[0].sb[i].cls == LGD_AREA_CORRUPT)
			snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), " %llu",
				 (unsigned long long)a.cpus[0].sb[i].seq);
	CHECK_STR_EQ(seen, want, "corrupt: exactly the flipped seqs reported corrupt");
	CHECK_EQ(got.warn_area, 10, "corrupt: one warning per corrupt sub-buffer");
	CHECK_EQ(read_back(&a), 0, "corrupt: converted and read");
	expect_records("corrupt: every other record back byte for byte", ab, corrupt_seq);
	CHECK_EQ(got.lost_subbufs, 7, "corrupt: the 7 between kept ones are lost sub-buffers to the reader");
	CHECK_STR_CONTAINS(got.last_boot, "corrupt 10 (seq 24, 25, 26, 28, 30, 32, 34, 35, 36, 38)",
			   "corrupt: LAST_BOOT names their seqs");
	CHECK_STR_CONTAINS(got.last_boot, "\nlost: 10 sub-buffers (corrupt 10, damaged 0, past the "
			   "image's end 0)\n", "corrupt: LAST_BOOT lost line");
	lgd_area_close(&a);
out:
	ab_free(ab);
	free(ab);
}

static void test_torn_open(void)
{
	static const char *const how[] = { "a length of 13", "a length past the committed bytes",
					   "a timestamp going backwards" };
	static const int why[] = { LGD_AREA_W_REC_LEN, LGD_AREA_W_REC_LEN, LGD_AREA_W_TS_BACK };

	for (int t = 0; t < 3; t++) {
		struct ab_area *ab = calloc(1, sizeof(*ab));
		struct ab_opts o = { .nr_cpus = 1, .nr_subbufs = 4, .formats = fmts };
		struct logdev_rec_hdr rh = { .ts = ts_next, .site = 1, .type = LOGDEV_REC_PRINT,
					     .arg_bytes = 4 };
		uint8_t pl[4] = { 1, 2, 3, 4 };
		struct lgd_area a;
		struct lgd_diag d;
		uint64_t sb, seq;
		uint32_t pos;
		const struct lgd_area_sb *s = NULL;

		ab_init(ab, &o);
		recs(ab, 0, 6 * 2 + 3);	/* seqs 0, 1 whole, 2 open with 3 records */
		seq = ab->cpu[0].next_seq - 1;
		sb = ab_sb_off(ab, 0, seq);
		pos = ab->cpu[0].pos;
		if (t == 2)	/* more than LGD_AREA_TS_SLACK_NS back */
			rh.ts = ab->log[ab->nlog - 1].ts - 2000000;
		lgd_sb_enc_rec(ab->img + sb, ab->h.subbuf_size, pos, &rh, pl);
		if (t == 0)
			poke(ab->img, sb + pos + lgd_sb_field_off(LGD_REC_F_LEN), 13, 2);
		if (t == 1)
			poke(ab->img, sb + pos + lgd_sb_field_off(LGD_REC_F_LEN), 64, 2);
		ab_set_commit(ab, 0, (uint32_t)(seq % 4), ab_commit(ab, 0, (uint32_t)(seq % 4)) + 32);
		ab_end(ab, LOGDEV_END_OOPS, "BUG: torn", 5, 5);
		if (!CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, NAMEF("torn (%s): validated", how[t]))) {
			ab_free(ab);
			free(ab);
			continue;
		}
		for (uint32_t i = 0; i < a.cpus[0].nr_sb; i++)
			if (a.cpus[0].sb[i].cls == LGD_AREA_OPEN)
				s = &a.cpus[0].sb[i];
		CHECK_WHY(s && s->records == 3 && s->data_bytes == 96 && s->committed == 128 &&
			  s->why == why[t] && a.cpus[0].count[LGD_AREA_SEALED] == 2 && !a.lost,
			  NAMEF("torn (%s): open, its 3 whole records kept, 32 torn bytes cut", how[t]),
			  "open %d records %u data %u committed %u why %d; %s", s != NULL,
			  s ? s->records : 0, s ? s->data_bytes : 0, s ? s->committed : 0,
			  s ? s->why : -1, counts(&a, 0));
		CHECK_EQ(read_back(&a), 0, NAMEF("torn (%s): converted and read", how[t]));
		expect_records(NAMEF("torn (%s): every record but the torn one", how[t]), ab, NULL);
		CHECK_EQ(got.warn_read, 0, NAMEF("torn (%s): the reader finds nothing wrong", how[t]));
		CHECK_STR_CONTAINS(got.last_boot, "; open seq 2: 96 of 128 committed bytes kept (",
				   NAMEF("torn (%s): LAST_BOOT says what was cut", how[t]));
		lgd_area_close(&a);
		ab_free(ab);
		free(ab);
	}
}

/* seq 0-9 damaged one way each, 10 whole, 11 open, slots 12-15 empty */
static void test_damaged(void)
{
	static const int want[] = {
		LGD_AREA_W_CPU, LGD_AREA_W_SEQ, LGD_AREA_W_MAGIC, LGD_AREA_W_REC_LEN,
		LGD_AREA_W_TS_FIRST, LGD_AREA_W_TS_BACK, LGD_AREA_W_DATA_BYTES,
		LGD_AREA_W_COMMIT, LGD_AREA_W_VERSION, LGD_AREA_W_REC_ARGS,
	};
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .nr_cpus = 1, .nr_subbufs = 16, .formats = fmts };
	struct lgd_area a;
	struct lgd_diag d;
	uint8_t *m;
	char seen[200] = "", exp[200] = "";

	ab_init(ab, &o);
	recs(ab, 0, 6 * 11 + 2);	/* hard reset: no seals, structure alone */
	m = ab->img;
#define SB(seq)		ab_sb_off(ab, 0, seq)
#define REC(seq, i)	(SB(seq) + LOGDEV_SUBBUF_HDR_SIZE + 32 * (i))
	poke(m, SB(0) + lgd_sb_field_off(LGD_SB_F_CPU), 1, 2);
	poke(m, SB(1) + lgd_sb_field_off(LGD_SB_F_SEQ), 17, 8);
	m[SB(2) + lgd_sb_field_off(LGD_SB_F_MAGIC)] ^= 1;
	poke(m, REC(3, 2) + lgd_sb_field_off(LGD_REC_F_LEN), 13, 2);
	poke(m, REC(4, 0) + lgd_sb_field_off(LGD_REC_F_TS), 5, 8);
	poke(m, REC(5, 3) + lgd_sb_field_off(LGD_REC_F_TS), ab->log[5 * 6 + 1].ts - 2000000, 8);
	poke(m, SB(6) + lgd_sb_field_off(LGD_SB_F_DATA_BYTES), 300, 4);
	ab_set_commit(ab, 0, 7, 20);
	poke(m, SB(8) + lgd_sb_field_off(LGD_SB_F_VERSION), 9, 2);
	poke(m, REC(9, 1) + lgd_sb_field_off(LGD_REC_F_ARG_BYTES), 9, 4);
#undef SB
#undef REC
	ab_finish(ab);
	if (!CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "damaged: validated"))
		goto out;
	CHECK_STR_EQ(counts(&a, 0), "sealed 0 unsealed 1 open 1 empty 4 corrupt 0 damaged 10 cut 0",
		     "damaged: ten damaged, one whole, one open, four empty");
	for (int i = 0; i < 10; i++)
		snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp), " %d:%d", i, want[i]);
	for (uint32_t i = 0; i < a.cpus[0].nr_sb; i++)
		if (a.cpus[0].sb[i].cls == LGD_AREA_DAMAGED)
			snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen), " %u:%d",
				 a.cpus[0].sb[i].slot, a.cpus[0].sb[i].why);
	CHECK_WHY(strlen(seen) == strlen(exp),
		  "damaged: each slot damaged for its own reason", "seen%s want%s", seen, exp);
	for (int i = 0; i < 10; i++)
		CHECK_WHY(strstr(seen, NAMEF(" %d:%d", i, want[i])) != NULL,
			  NAMEF("damaged: slot %d: %s", i, lgd_area_why_text(want[i])),
			  "seen%s", seen);
	CHECK_EQ(got.warn_area, 10, "damaged: ten warnings");
	CHECK_EQ(read_back(&a), 0, "damaged: converted and read");
	CHECK_EQ(got.n, 8, "damaged: the records of seqs 10 and 11 read back");
	CHECK_STR_CONTAINS(got.last_boot, "damaged 10 (seq 0: header cpu not its block's, 1: header "
			   "seq not the commit counter's, 2: bad sub-buffer magic",
			   "damaged: LAST_BOOT names their seqs and why");
	lgd_area_close(&a);
out:
	ab_free(ab);
	free(ab);
}

/* a header refused: lgd_area_open() of @img returns @err, @d names @what at byte @off */
static void refused(const char *name, const uint8_t *img, size_t len, int err, const char *what,
		    int64_t off)
{
	struct lgd_area a;
	struct lgd_diag d = { 0 };
	int ret = validate(&a, img, len, &d);

	CHECK_WHY(ret == err && strstr(d.msg, what) && d.offset == off, name,
		  "ret %d (want %d), offset %lld (want %lld), msg: %s", ret, err,
		  (long long)d.offset, (long long)off, d.msg);
	if (!ret)
		lgd_area_close(&a);
}

static void test_header(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	uint8_t *c;
	struct logdev_area_hdr h;

	panic_area(ab, 8, 1);
	c = malloc(ab->len);
#define FRESH()	memcpy(c, ab->img, ab->len)
	FRESH();
	c[3] = 'X';
	refused("header: no magic: not an area", c, ab->len, -EINVAL, "not a logdev flight-recorder area", 0);
	refused("header: 200 bytes: cut", ab->img, 200, -ENODATA, "has 200 of its 368 bytes", 200);
	FRESH();
	lgd_area_hdr_get(c, ab->len, &h);
	h.version = 2;
	lgd_area_hdr_put(c, &h);
	refused("header: version 2: unknown", c, ab->len, -EPROTO, "area version 2",
		(int64_t)lgd_area_field_off(LGD_AH_VERSION));
	h.version = 1;
	h.endian = 0x04030201;
	lgd_area_hdr_put(c, &h);
	refused("header: big-endian writer", c, ab->len, -EPROTO, "big-endian",
		(int64_t)lgd_area_field_off(LGD_AH_ENDIAN));
	FRESH();
	c[lgd_area_field_off(LGD_AH_CPU_OFF)] ^= 1;
	refused("header: a byte under the CRC changed: damaged", c, ab->len, -EINVAL,
		"the header is damaged", (int64_t)lgd_area_field_off(LGD_AH_HDR_CRC));
	FRESH();
	c[LOGDEV_AREA_CRC_BYTES + 8] ^= 1;	/* end_ts: written at the end, not under the CRC */
	{
		struct lgd_area a;
		struct lgd_diag d;

		if (CHECK_EQ(validate(&a, c, ab->len, &d), 0, "header: end_ts is not under the CRC"))
			lgd_area_close(&a);
	}
	{
		static const struct {
			enum lgd_area_field f;
			uint64_t v;
			int size;
			const char *what;
		} bad[] = {
			{ LGD_AH_NR_CPUS, 0, 4, "nr_cpus not 1 to 4096" },
			{ LGD_AH_NR_CPUS, 5000, 4, "nr_cpus not 1 to 4096" },
			{ LGD_AH_SUBBUF_SIZE, 300, 4, "subbuf_size not a power of two" },
			{ LGD_AH_NR_SUBBUFS, 0, 4, "nr_subbufs 0" },
			{ LGD_AH_LOCAL_BYTES, 2, 4, "local_bytes not 4 or 8" },
			{ LGD_AH_TEXT_BYTES, 1u << 30, 4, "the text slots past the area's end" },
			{ LGD_AH_CPU_OFF, 100, 8, "cpu_off inside the text slots" },
			{ LGD_AH_CPU_STRIDE, 1ull << 62, 8, "the CPU blocks past the area's end" },
			{ LGD_AH_FORMAT_VERSION, 1, 4, "sub-buffer format version 1" },
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			FRESH();
			poke(c, lgd_area_field_off(bad[i].f), bad[i].v, bad[i].size);
			ab_fix_hdr_crc(c);
			refused(NAMEF("header: %s (%llu, CRC right): refused", bad[i].what,
				      (unsigned long long)bad[i].v), c, ab->len,
				bad[i].f == LGD_AH_FORMAT_VERSION ? -EPROTO : -EINVAL, bad[i].what,
				(int64_t)lgd_area_field_off(bad[i].f == LGD_AH_TEXT_BYTES ?
							     LGD_AH_TEXT_OFF : bad[i].f));
		}
	}
#undef FRESH
	free(c);
	ab_free(ab);
	free(ab);
}

/* the formats text: its CRC fails, or there is none */
static void test_text(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .nr_cpus = 1 };
	struct lgd_area a;
	struct lgd_diag d;

	panic_area(ab, 8, 1);
	ab->img[ab->h.text_off + ab->h.text_bytes + 20] ^= 0x20;
	if (CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "text CRC: validated")) {
		CHECK_WHY(a.text == LGD_AREA_TEXT_CRC && got.warn_area == 1 &&
			  strstr(last_warn, "CRC-32 does not match"),
			  "text CRC: said once, the text not used", "text %d warnings %d: %s",
			  a.text, got.warn_area, last_warn);
		CHECK_EQ(read_back(&a), 0, "text CRC: converted and read");
		CHECK_WHY(!got.have_formats && got.n == 46 + 15,
			  "text CRC: no FORMATS, every record still read (by site id)",
			  "formats %d records %u", got.have_formats, got.n);
		CHECK_STR_CONTAINS(got.last_boot, "formats: damaged (CRC-32 mismatch): records are "
				   "shown by call-site id\n", "text CRC: LAST_BOOT says so");
		lgd_area_close(&a);
	}
	/* the same, the older text in the other slot: used, said */
	ab_free(ab);
	panic_area(ab, 8, 1);
	{
		/* the header line and site 1: site 2 came after it */
		uint32_t tl = (uint32_t)(strchr(strchr(fmts, '\n') + 1, '\n') + 1 - fmts);

		memcpy(ab->img + ab->h.text_off, fmts, tl);
		lgd_cap_put_u32(ab->img + lgd_area_field_off(LGD_AH_TEXT_LEN), tl);
		lgd_cap_put_u32(ab->img + lgd_area_field_off(LGD_AH_TEXT_CRC),
				lgd_area_crc(fmts, tl));
	}
	ab->img[ab->h.text_off + ab->h.text_bytes + 20] ^= 0x20;
	if (CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "text CRC, older slot: validated")) {
		CHECK_WHY(a.text == LGD_AREA_TEXT_OLDER && got.warn_area == 1 &&
			  strstr(last_warn, "the older text of the other slot is used"),
			  "text CRC, older slot: said once, the older text used",
			  "text %d warnings %d: %s", a.text, got.warn_area, last_warn);
		CHECK_EQ(read_back(&a), 0, "text CRC, older slot: converted and read");
		CHECK_WHY(got.have_formats && got.n == 46 + 15,
			  "text CRC, older slot: FORMATS (of the older text), every record read",
			  "formats %d records %u", got.have_formats, got.n);
		CHECK_STR_CONTAINS(got.last_boot, "formats: slot 1 damaged: the older slot 0",
				   "text CRC, older slot: LAST_BOOT says so");
		lgd_area_close(&a);
	}
	ab_free(ab);
	ab_init(ab, &o);
	recs(ab, 0, 3);
	ab_finish(ab);
	if (CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "no text: validated")) {
		CHECK_WHY(a.text == LGD_AREA_TEXT_NONE && got.warn_area == 1 &&
			  strstr(last_warn, "no formats text"), "no text: records by site id, said",
			  "text %d warnings %d: %s", a.text, got.warn_area, last_warn);
		lgd_area_close(&a);
	}
	ab_free(ab);
	free(ab);
}

/*
 * @img (@len) validated and, if usable, converted and read back: the
 * reader reads exactly the records the validator kept, each CPU's classes
 * add up.  Returns 1 if it was usable.
 */
static int survives(const uint8_t *img, size_t len, const char *what, int *bad)
{
	struct lgd_area a;
	struct lgd_diag d;
	uint64_t kept = 0;

	if (validate(&a, img, len, &d))
		return 0;
	for (uint32_t c = 0; c < a.nr_cpus; c++) {
		uint64_t sum = 0;

		for (int k = 0; k < LGD_AREA_NR_CLASSES; k++)
			sum += a.cpus[c].count[k];
		if (a.cpus[c].state == LGD_AREA_CPU_OK && sum != a.hdr.nr_subbufs && !(*bad)++)
			fail(what, "len %zu cpu %u: classes add up to %llu of %u", len, c,
			     (unsigned long long)sum, a.hdr.nr_subbufs);
		kept += a.cpus[c].records;
	}
	if ((read_back(&a) || got.n != kept) && !(*bad)++)
		fail(what, "len %zu: %llu records kept, %u read back", len,
		     (unsigned long long)kept, got.n);
	lgd_area_close(&a);
	return 1;
}

static void test_truncated(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	int bad = 0, usable = 0, n = 0;

	panic_area(ab, 8, 1);
	for (size_t len = 0; len <= ab->len; len += len < 400 ? 1 : 3) {
		uint8_t *c = malloc(len ? len : 1);	/* exactly len bytes: ASan sees any read past */

		memcpy(c, ab->img, len);
		usable += survives(c, len, "truncated: every length", &bad);
		n++;
		free(c);
	}
	if (!bad)
		pass("truncated: every length, no read outside, classes add up, reader agrees");
	CHECK_EQ(usable, n - LOGDEV_AREA_HDR_SIZE, "truncated: usable from the whole header on");
	ab_free(ab);
	free(ab);
}

static void test_garbage(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	int bad = 0, usable = 0;

	srand(4242);
	panic_area(ab, 8, 1);
	for (int i = 0; i < 3000; i++) {
		size_t len = i % 3 == 2 ? ab->len : (size_t)(rand() % 30000);
		uint8_t *c = malloc(len ? len : 1);

		for (size_t k = 0; k < len; k++)
			c[k] = (uint8_t)rand();
		if (i % 3 == 1 && len >= LOGDEV_AREA_HDR_SIZE) {	/* a real header, random rest */
			memcpy(c, ab->img, LOGDEV_AREA_HDR_SIZE);
			if (rand() % 2)
				poke(c, lgd_area_field_off(rand() % LGD_AH_HDR_CRC), rand(), 1 + rand() % 4);
			ab_fix_hdr_crc(c);
		} else if (i % 3 == 2) {	/* a real area, bytes changed, the CRC right */
			memcpy(c, ab->img, len);
			for (int k = rand() % 40; k >= 0; k--)
				c[(size_t)rand() % len] = (uint8_t)rand();
			ab_fix_hdr_crc(c);
		} else if (len >= 8) {
			memcpy(c, LOGDEV_AREA_MAGIC, 8);
		}
		usable += survives(c, len, "garbage: random and mutated images", &bad);
		free(c);
	}
	if (!bad)
		pass("garbage: random and mutated images: no crash, classes add up, reader agrees");
	CHECK_GT(usable, 500, "garbage: many mutated areas were usable (deep paths reached)");
	ab_free(ab);
	free(ab);
}

/* a module map: one module with symbols, one without, the kernel's closing line */
static const char test_map[] =
	"# logdev module log: format 2, sizes region, clock local, 0 entries dropped\n"
	"load 0 demo text=ffffffffc0a00000/2000\n"
	"ffffffffc0a00100 T demo_fn\t[demo]\n"
	"load 0 bare text=ffffffffc0b00000/1000\n"
	"# logdev module map: 2 modules, 1 without symbols, 3 left out (the area's text is full)\n";

/* DIR/area-panic.img (golden) and fuzz seeds DIR/seed-* (a flags byte, then the image) */
static int write_files(const char *dir)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .formats = fmts };
	char p[4200];
	FILE *f;
	int rc = 0;

	ab_init(ab, &o);
	recs(ab, 0, 70);
	recs(ab, 1, 15);
	ab_end(ab, LOGDEV_END_PANIC, "Kernel panic - not syncing: sysrq triggered crash",
	       301123456789ull, 1796000300000000000ull);
	ab->img[ab_sb_off(ab, 0, 7) + LOGDEV_SUBBUF_HDR_SIZE + 26] ^= 0x40;	/* seq 7 corrupt */
	for (int i = 0; i < 5; i++) {
		static const char *const name[] = { "area-panic.img", "seed-panic", "seed-reset",
						    "seed-cut", "seed-nocrc" };
		uint8_t flags = i == 4 ? 0 : 7;
		size_t len = i == 3 ? ab->len / 2 : ab->len;

		if (i == 2) {	/* the hard reset: no seals, no end */
			ab_free(ab);
			ab_init(ab, &o);
			recs(ab, 0, 40);
			ab_finish(ab);
		}
		snprintf(p, sizeof(p), "%s/%s", dir, name[i]);
		f = fopen(p, "wb");
		if (!f || (i && fwrite(&flags, 1, 1, f) != 1) || fwrite(ab->img, 1, len, f) != len)
			rc = 1;
		if (f && fclose(f))
			rc = 1;
	}
	ab_free(ab);
	{	/* the text split: formats with %pS, a NUL, a module map */
		static const char sfm[] = "# id\tfile\tline\tfunc\tformat\n"
					  "1\tdrivers/x.c\t10\tx_sym\tsym %pS\n";
		struct ab_opts om = { .formats = sfm, .mods = test_map };
		uint8_t flags = 7, pl[8];

		ab_init(ab, &om);
		lgd_cap_put_u64(pl, 0xffffffffc0a00123ull);
		for (int i = 0; i < 6; i++)
			ab_rec(ab, 0, 1000000000ull + i, 1, 100, pl, 8);
		ab_finish(ab);
		snprintf(p, sizeof(p), "%s/seed-map", dir);
		f = fopen(p, "wb");
		if (!f || fwrite(&flags, 1, 1, f) != 1 || fwrite(ab->img, 1, ab->len, f) != ab->len)
			rc = 1;
		if (f && fclose(f))
			rc = 1;
		ab_free(ab);
	}
	free(ab);
	if (rc)
		perror("test_area --write");
	return rc;
}

/*
 * A panic sealed every whole sub-buffer: one whose seal is gone (here its
 * seq made ~0) is corrupt, not "whole-unsealed" with whatever it holds (a
 * fresh user's tampered image printed another context's record, no
 * warning).  And an image cut inside a CPU's block head: that CPU's
 * sub-buffers are counted lost.
 */
static void test_seal_gone(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct lgd_area a;
	struct lgd_diag d;
	uint64_t at = 0;

	panic_area(ab, 8, 1);
	if (!validate(&a, ab->img, ab->len, &d)) {
		const struct lgd_area_cpu_res *r = &a.cpus[0];

		at = ab->h.cpu_off + r->head.seal_off + (uint64_t)r->sb[1].slot * LOGDEV_AREA_SEAL_SIZE;
		lgd_area_close(&a);
	}
	lgd_cap_put_u64(ab->img + at, ~0ull);
	if (CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "seal gone: validated")) {
		CHECK_STR_EQ(counts(&a, 0), "sealed 6 unsealed 0 open 1 empty 0 corrupt 1 damaged 0 cut 0",
			     "seal gone after a sealing end: corrupt, not whole-unsealed");
		CHECK_WHY(got.warn_area == 1 && strstr(last_warn, "no seal, though its boot sealed"),
			  "seal gone: said", "warnings %d: %s", got.warn_area, last_warn);
		lgd_area_close(&a);
	}
	if (CHECK_EQ(validate(&a, ab->img, ab->h.cpu_off + ab->h.cpu_stride + 8, &d), 0,
		     "cut in CPU 1's head: validated")) {
		CHECK_WHY(a.cpus[1].count[LGD_AREA_CUT] == ab->h.nr_subbufs && a.cpus_unread == 1 &&
			  a.lost >= ab->h.nr_subbufs,
			  "cut in CPU 1's head: its sub-buffers counted lost", "cut %llu unread %u lost %llu",
			  (unsigned long long)a.cpus[1].count[LGD_AREA_CUT], a.cpus_unread,
			  (unsigned long long)a.lost);
		lgd_area_close(&a);
	}
	ab_free(ab);
	free(ab);
}

/*
 * Timestamps: a record a little (1 us) before the one before it in an
 * unsealed sub-buffer is kept (the mono clock steps back so, the ring
 * stamps in order); in a sealed one no timestamp is judged: a 6.1 panic's
 * sealed sub-buffer with a 2.57 us step back was called damaged and lost.
 */
static void test_ts_slack(void)
{
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct lgd_area a;
	struct lgd_diag d;
	uint64_t sb, rec1, ts0;

	panic_area(ab, 8, 0);	/* hard reset: unsealed */
	sb = ab_sb_off(ab, 0, 3);
	rec1 = sb + LOGDEV_SUBBUF_HDR_SIZE + 32;
	ts0 = lgd_cap_get_u64(ab->img + sb + LOGDEV_SUBBUF_HDR_SIZE + lgd_sb_field_off(LGD_REC_F_TS));
	poke(ab->img, rec1 + lgd_sb_field_off(LGD_REC_F_TS), ts0 - 1000, 8);
	if (CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "ts 1 us back, unsealed: validated")) {
		CHECK_STR_EQ(counts(&a, 0), "sealed 0 unsealed 7 open 1 empty 0 corrupt 0 damaged 0 cut 0",
			     "ts 1 us back, unsealed: kept");
		lgd_area_close(&a);
	}
	ab_free(ab);
	panic_area(ab, 8, 1);	/* sealed: a step back of 2 ms, the seal made anew */
	sb = ab_sb_off(ab, 0, 3);
	rec1 = sb + LOGDEV_SUBBUF_HDR_SIZE + 32;
	ts0 = lgd_cap_get_u64(ab->img + sb + LOGDEV_SUBBUF_HDR_SIZE + lgd_sb_field_off(LGD_REC_F_TS));
	poke(ab->img, rec1 + lgd_sb_field_off(LGD_REC_F_TS), ts0 - 2000000, 8);
	if (!validate(&a, ab->img, ab->len, &d)) {
		const struct lgd_area_cpu_res *r = &a.cpus[0];

		for (uint32_t i = 0; i < r->nr_sb; i++)
			if (r->sb[i].seq == 3) {
				uint64_t at = ab->h.cpu_off + r->head.seal_off +
					      (uint64_t)r->sb[i].slot * LOGDEV_AREA_SEAL_SIZE;
				uint32_t db = lgd_cap_get_u32(ab->img + at + 12);

				lgd_cap_put_u32(ab->img + at + 8,
						lgd_area_crc(ab->img + sb, LOGDEV_SUBBUF_HDR_SIZE + db));
			}
		lgd_area_close(&a);
	}
	if (CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "ts 2 ms back, sealed: validated")) {
		CHECK_STR_EQ(counts(&a, 0), "sealed 7 unsealed 0 open 1 empty 0 corrupt 0 damaged 0 cut 0",
			     "ts 2 ms back in a sealed sub-buffer: kept (the seal vouches for it)");
		lgd_area_close(&a);
	}
	ab_free(ab);
	free(ab);
}

/*
 * The text slot split at its NUL: FORMATS the part before, the map after
 * (counted); an older area has none; a map cut mid-line is read to its last
 * whole line; vmlinux's symbols shifted to the area's text_addr (absolute
 * and module lines not), the refused sources; the build-id note.
 */
static void test_syms(void)
{
	static const char src[] =
		"0000000000001000 A cpu_debug_store\nffffffff81000000 T _stext\n"
		"ffffffff81000100 T f\nffffffffc0000000 t m\t[mod]\n";
	struct ab_area *ab = calloc(1, sizeof(*ab));
	struct ab_opts o = { .formats = fmts, .mods = test_map };
	struct lgd_area_syms sy = { 0 };
	struct lgd_area a;
	struct lgd_diag d;
	uint8_t notes[48] = { 4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
			      0xde, 0xad, 0xbe, 0xef };
	char hex[48];

	ab_init(ab, &o);
	recs(ab, 0, 3);
	ab_finish(ab);
	CHECK_EQ(validate(&a, ab->img, ab->len, &d), 0, "map: the area opens");
	CHECK_TRUE(a.map && a.text_len == strlen(fmts) && !memchr(a.text_p, 0, a.text_len) &&
		   a.mods_len == strlen(test_map) && !memcmp(a.mods_p, test_map, a.mods_len),
		   "map: formats before the NUL, the map after it");
	CHECK_TRUE(a.map_mods == 2 && a.map_bare == 1 && a.map_out == 3 && !a.map_bad &&
		   !got.warn_area, "map: 2 modules, 1 without symbols, 3 left out; no warning");
	CHECK_EQ(lgd_area_vmlinux_syms(&a, src, strlen(src), &sy, &d), 0, "syms: shifted");
	CHECK_STR_EQ(sy.text ? sy.text : "", "0000000000001000 A cpu_debug_store\n"
		     "ffffffff81000000 T _stext\nffffffff81000100 T f\n",
		     "syms: same _stext: shift 0, absolute kept, the module line left out");
	lgd_area_syms_free(&sy);
	lgd_area_close(&a);
	ab->h.text_addr = 0xffffffff81000000ull - 0x200000;
	ab_finish(ab);
	validate(&a, ab->img, ab->len, &d);
	lgd_area_vmlinux_syms(&a, src, strlen(src), &sy, &d);
	CHECK_TRUE(sy.shift == -0x200000 && sy.nr == 3 && sy.text &&
		   strstr(sy.text, "ffffffff80e00100 T f\n") &&
		   strstr(sy.text, "0000000000001000 A cpu"), "syms: moved down by 2 MiB");
	lgd_area_syms_free(&sy);
	CHECK_EQ(lgd_area_vmlinux_syms(&a, "ffffffff81000100 T f\n", 21, &sy, &d), -ENOENT,
		 "syms: no _stext: -ENOENT");
	CHECK_EQ(lgd_area_vmlinux_syms(&a, "0000000000000000 T _stext\n", 26, &sy, &d), -EPERM,
		 "syms: all zero: -EPERM");
	CHECK_TRUE(lgd_area_vmlinux_syms(&a, "ffffffffffffffff B The real System.map is in the "
					 "linux-image-6.1-dbg package\n", 77, &sy, &d) == -ENOENT &&
		   strstr(d.msg, "placeholder") && !sy.text, "syms: Debian's placeholder refused");
	lgd_area_close(&a);
	ab->h.text_addr = 0;
	ab_finish(ab);
	validate(&a, ab->img, ab->len, &d);
	CHECK_EQ(lgd_area_vmlinux_syms(&a, src, strlen(src), &sy, &d), -ENODATA,
		 "syms: text_addr unknown: -ENODATA");
	CHECK_TRUE(read_back(&a) == 0 && strstr(got.last_boot, "\nsymbols: none needed"),
		   "map: formats without %pS: no symbols needed, said");
	lgd_area_close(&a);
	CHECK_TRUE(!lgd_build_id_note(notes, 20, hex, sizeof(hex)) && !strcmp(hex, "deadbeef"),
		   "build-id note read");
	CHECK_EQ(lgd_build_id_note(notes, 19, hex, sizeof(hex)), -EINVAL, "build-id note cut");
	notes[8] = 1;
	CHECK_EQ(lgd_build_id_note(notes, 20, hex, sizeof(hex)), -ENOENT, "no build-id note");
	ab_free(ab);
	/* cut mid-line (the CRC of what is there matches) and an older area */
	o.mods = "# logdev module log: format 2, sizes text, clock local, 0 entries dropped\n"
		 "load 0 demo text=ffffffffc0a00000/2000\nffffffffc0a00100 T demo_f";
	ab_init(ab, &o);
	validate(&a, ab->img, ab->len, &d);
	CHECK_TRUE(a.map && a.map_mods == 1 && a.map_bare == 1 && got.warn_area == 1 &&
		   strstr(last_warn, "its last line has no end: its last 25 bytes are not read"),
		   "map cut mid-line: its whole lines, warned");
	lgd_area_close(&a);
	ab_free(ab);
	o.mods = NULL;
	ab_init(ab, &o);
	validate(&a, ab->img, ab->len, &d);
	CHECK_TRUE(!a.map && a.text_len == strlen(fmts) && !got.warn_area,
		   "an older area: formats only, no map");
	lgd_area_close(&a);
	ab_free(ab);
	free(ab);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--write"))
		return write_files(argv[2]);
	test_panic(8);
	test_panic(4);
	test_hard_reset();
	test_seal_gone();
	test_ts_slack();
	test_corrupt_pattern();
	test_torn_open();
	test_damaged();
	test_header();
	test_text();
	test_truncated();
	test_garbage();
	test_syms();
	return ldc_exit_status();
}
