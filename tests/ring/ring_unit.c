// SPDX-License-Identifier: GPL-2.0
/*
 * ring_unit.c - deterministic single-threaded tests of the ring core with
 * exact expected counts: validation, flush, discard-mode drops, overwrite
 * overruns, nesting beyond LD_MAX_NESTING, a pending writer blocking
 * overwrite, and lost-event positions in sub-buffer headers.
 *
 * Record arithmetic used below: with 256-byte sub-buffers the header takes
 * 48 bytes, a record with an 8-byte payload is 24 + 8 = 32 bytes, so one
 * sub-buffer holds (256 - 48) / 32 = 6 records (16 bytes left over).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "ldcheck.h"

struct ring {
	struct ld_cpu_buf cb;
	void *mem;
	ld_local_t *commit;
};

static int ring_new(struct ring *r, u32 size, u32 nr, enum ld_mode mode)
{
	r->mem = calloc(nr, size);
	r->commit = calloc(nr, sizeof(ld_local_t));
	return ld_cpu_buf_init(&r->cb, r->mem, r->commit, 0, size, nr, mode);
}

static void ring_free(struct ring *r)
{
	free(r->mem);
	free(r->commit);
}

static int put(struct ring *r, u32 v)
{
	u64 p = v;

	return ld_write(&r->cb, v, LOGDEV_REC_RAW, 0, 1, &p, sizeof(p));
}

/* consume all; return records seen, checking payloads increase */
static u32 drain(struct ring *r, u64 *first_seq, u32 *first_ov, u32 *first_drop,
		 u32 *last_val)
{
	static unsigned char buf[65536];
	u32 n = 0, first = 1;

	while (ld_consume(&r->cb, buf) == 1) {
		struct logdev_subbuf_hdr *h = (void *)buf;
		u32 off = 0;

		if (first) {
			if (first_seq)
				*first_seq = h->seq;
			if (first_ov)
				*first_ov = h->overrun_before;
			if (first_drop)
				*first_drop = h->dropped_before;
			first = 0;
		}
		while (off < h->data_bytes) {
			struct logdev_rec_hdr *rec = (void *)(buf + LOGDEV_SUBBUF_HDR_SIZE + off);

			if (last_val)
				*last_val = (u32)*(u64 *)(rec + 1);
			off += rec->len;
			n++;
		}
	}
	return n;
}

static void test_init(void)
{
	struct ring r;
	int err;

	CHECK_EQ(ring_new(&r, 100, 4, LD_MODE_OVERWRITE), -EINVAL, "init refuses non-power-of-two sub-buffer size");
	ring_free(&r);
	CHECK_EQ(ring_new(&r, 4096, 1, LD_MODE_OVERWRITE), -EINVAL, "init refuses a single sub-buffer");
	ring_free(&r);
	err = ring_new(&r, 4096, 5, LD_MODE_OVERWRITE);
	CHECK_WHY(err == 0 && r.cb.nr_subbufs == 4,
		  NAMEF("init uses the largest power of two of sub-buffers (5 -> %u)", r.cb.nr_subbufs),
		  "init returned %d, nr_subbufs %u", err, r.cb.nr_subbufs);
	ring_free(&r);
}

static void test_flush_and_read(void)
{
	struct ring r;
	static unsigned char buf[4096];
	struct logdev_subbuf_hdr *h = (void *)buf;
	struct logdev_rec_hdr *rec;
	struct ld_stats st;

	ring_new(&r, 4096, 4, LD_MODE_OVERWRITE);
	put(&r, 7); put(&r, 8); put(&r, 9);
	CHECK_FALSE(ld_readable(&r.cb), "an open sub-buffer is not readable");
	CHECK_TRUE(ld_flush(&r.cb), "flush completes the open sub-buffer");
	CHECK_EQ(ld_consume(&r.cb, buf), 1, "flushed sub-buffer is consumed");
	CHECK_WHY(h->magic == LOGDEV_SUBBUF_MAGIC && h->version == LOGDEV_FORMAT_VERSION &&
		  h->seq == 0 && h->data_bytes == 3 * 32 && (h->flags & LOGDEV_SB_FLUSHED),
		  "sub-buffer header: magic, version, seq 0, 96 data bytes, flushed flag",
		  "magic %#x version %u seq %llu data_bytes %u flags %#x", h->magic, h->version,
		  (unsigned long long)h->seq, h->data_bytes, h->flags);
	rec = (void *)(buf + LOGDEV_SUBBUF_HDR_SIZE);
	CHECK_WHY(rec->len == 32 && rec->site == 7 && rec->arg_bytes == 8 &&
		  *(u64 *)(rec + 1) == 7 && h->first_ts == rec->ts,
		  "first record: len 32, site 7, payload, first_ts = its ts",
		  "len %u site %u arg_bytes %u payload %llu first_ts %llu ts %llu", rec->len,
		  rec->site, rec->arg_bytes, (unsigned long long)*(u64 *)(rec + 1),
		  (unsigned long long)h->first_ts, (unsigned long long)rec->ts);
	CHECK_EQ(ld_consume(&r.cb, buf), 0, "nothing more to consume");
	CHECK_FALSE(ld_flush(&r.cb), "flush of an empty position does nothing");
	ld_get_stats(&r.cb, &st);
	CHECK_WHY(st.written == 3 && st.read == 3 && st.bytes == 96, "stats written 3 read 3 bytes 96",
		  "written %llu read %llu bytes %llu", (unsigned long long)st.written,
		  (unsigned long long)st.read, (unsigned long long)st.bytes);
	put(&r, 10);
	ld_flush(&r.cb);
	ld_consume(&r.cb, buf);
	CHECK_EQ(h->seq, 1, "next sub-buffer after a flush has seq 1");
	ring_free(&r);
}

static void test_discard(void)
{
	struct ring r;
	struct ld_stats st;
	u32 i, n, drop = 0, last = 0;
	int err = 0, nerr = 0;
	u64 seq = 0;

	ring_new(&r, 256, 2, LD_MODE_DISCARD);
	for (i = 0; i < 100; i++)
		if (put(&r, i) < 0) {
			err = put(&r, 1000) ;
			nerr++;
			(void)err;
		}
	ld_get_stats(&r.cb, &st);
	/* 12 fit; each failing put also tried a second one: 88 + 88 dropped */
	CHECK_WHY(st.dropped == 176 && st.written == 188,
		  NAMEF("discard: 12 stored, 176 dropped of 188 (got %llu of %llu)",
			(unsigned long long)st.dropped, (unsigned long long)st.written),
		  "dropped %llu written %llu", (unsigned long long)st.dropped,
		  (unsigned long long)st.written);
	ld_flush(&r.cb);
	n = drain(&r, &seq, NULL, NULL, &last);
	CHECK_WHY(n == 12 && last == 11, NAMEF("discard keeps the oldest 12 records (read %u, last %u)", n, last),
		  "read %u, last %u", n, last);
	put(&r, 500);
	ld_flush(&r.cb);
	n = drain(&r, &seq, NULL, &drop, &last);
	CHECK_WHY(n == 1 && drop == 176 && seq == 2,
		  NAMEF("next sub-buffer reports 176 dropped before it (got %u, seq %llu)", drop,
			(unsigned long long)seq),
		  "read %u, dropped_before %u, seq %llu", n, drop, (unsigned long long)seq);
	ld_get_stats(&r.cb, &st);
	CHECK_EQ(st.read + st.overrun + st.dropped + st.nesting_lost + st.too_big, st.written,
		 "discard: read + lost == written");
	ring_free(&r);
}

static void test_overwrite(void)
{
	struct ring r;
	struct ld_stats st;
	u32 i, n, ov = 0, last = 0;
	u64 seq = 0;

	ring_new(&r, 256, 2, LD_MODE_OVERWRITE);
	for (i = 0; i < 100; i++)
		put(&r, i);
	ld_flush(&r.cb);
	n = drain(&r, &seq, &ov, NULL, &last);
	ld_get_stats(&r.cb, &st);
	/* 100 records: sub-buffers 0..16, the last holding 4: 15 and 16 remain */
	CHECK_WHY(n == 10 && seq == 15 && ov == 90 && last == 99,
		  NAMEF("overwrite keeps the newest 10 (read %u, first seq %llu, overrun_before %u, last %u)",
			n, (unsigned long long)seq, ov, last),
		  "read %u, first seq %llu, overrun_before %u, last %u", n,
		  (unsigned long long)seq, ov, last);
	CHECK_WHY(st.overrun == 90 && st.read + st.overrun == st.written,
		  "overwrite: read + overrun == written (90 overrun)",
		  "read %llu overrun %llu written %llu", (unsigned long long)st.read,
		  (unsigned long long)st.overrun, (unsigned long long)st.written);
	ring_free(&r);
}

/* nesting: a "handler" run at the reserve hook writes nested records */
static struct ring *nest_ring;
static int nest_levels, nest_results[8];

static void nest_hook(int where)
{
	static __thread int depth, fired[8];

	/* one interruption per level, at its first reserve attempt */
	if (where != 0 || depth >= nest_levels || fired[depth])
		return;
	fired[depth] = 1;
	depth++;
	nest_results[depth] = put(nest_ring, 100 + depth);
	depth--;
}

static void test_nesting(void)
{
	struct ring r;
	struct ld_stats st;
	static unsigned char buf[4096];
	struct logdev_subbuf_hdr *h = (void *)buf;
	u32 off, vals[8], n = 0;
	u64 prev_ts = 0;
	int mono = 1;

	ring_new(&r, 4096, 4, LD_MODE_OVERWRITE);
	nest_ring = &r;
	nest_levels = 4;
	ld_hook_fn = nest_hook;
	put(&r, 1);
	ld_hook_fn = NULL;
	ld_get_stats(&r.cb, &st);
	/* the outer writer and 3 nested ones fit LD_MAX_NESTING (4); a 4th nested one does not */
	CHECK_WHY(st.written == 5 && st.nesting_lost == 1 && nest_results[3] == 0 && nest_results[4] == -EBUSY,
		  "nesting: 4 levels record, the 5th is counted as nesting_lost",
		  "written %llu nesting_lost %llu, level 3 returned %d, level 4 %d",
		  (unsigned long long)st.written, (unsigned long long)st.nesting_lost,
		  nest_results[3], nest_results[4]);
	ld_flush(&r.cb);
	ld_consume(&r.cb, buf);
	for (off = 0; off < h->data_bytes && n < 8; n++) {
		struct logdev_rec_hdr *rec = (void *)(buf + LOGDEV_SUBBUF_HDR_SIZE + off);

		vals[n] = rec->site;
		if (rec->ts < prev_ts)
			mono = 0;
		prev_ts = rec->ts;
		off += rec->len;
	}
	/* the innermost writer reserves first: its outer ones retry after it */
	CHECK_WHY(n == 4 && vals[0] == 103 && vals[1] == 102 && vals[3] == 1 && mono,
		  "nested records laid out innermost first, timestamps non-decreasing",
		  "%u records, sites %u %u %u %u, timestamps %s", n, n > 0 ? vals[0] : 0,
		  n > 1 ? vals[1] : 0, n > 2 ? vals[2] : 0, n > 3 ? vals[3] : 0,
		  mono ? "non-decreasing" : "go backwards");
	ring_free(&r);
}

/*
 * A writer that nests at every try (a probe in the trace clock: found by a
 * fresh user, the CPU hung): the outer record is refused after
 * LD_RESERVE_TRIES tries as nesting_lost, every nested one is stored, and
 * the accounting holds.  Before the bound the outer writer looped for
 * ever: here the hook stops after 100000 nested records, and the check
 * fails.
 */
static struct ring *storm_ring;
static unsigned int storm_nested;

static void storm_hook(int where)
{
	static __thread int inside;

	if (where != 0 || inside || storm_nested >= 100000)
		return;
	inside = 1;
	storm_nested++;
	put(storm_ring, 7);
	inside = 0;
}

static void test_retry_bound(void)
{
	struct ring r;
	struct ld_stats st;
	int ret;

	ring_new(&r, 4096, 4, LD_MODE_OVERWRITE);
	storm_ring = &r;
	put(&r, 0);	/* the sub-buffer is open: the fast path tries first */
	ld_hook_fn = storm_hook;
	ret = put(&r, 1);
	ld_hook_fn = NULL;
	ld_get_stats(&r.cb, &st);
	/* the fast path's try, then LD_RESERVE_TRIES in ld_reserve_slow() */
	CHECK_WHY(ret == -EBUSY && storm_nested == LD_RESERVE_TRIES + 1 &&
		  st.nesting_lost == 1 && st.written == storm_nested + 2,
		  "a writer nesting at every try: the record is refused after LD_RESERVE_TRIES as nesting_lost",
		  "put returned %d after %u nested records (want -EBUSY after %u), nesting_lost %llu, written %llu",
		  ret, storm_nested, LD_RESERVE_TRIES + 1, (unsigned long long)st.nesting_lost,
		  (unsigned long long)st.written);
	ld_flush(&r.cb);
	drain(&r, NULL, NULL, NULL, NULL);
	ld_get_stats(&r.cb, &st);
	CHECK_EQ(st.read + st.overrun + st.dropped + st.nesting_lost + st.too_big, st.written,
		 "retry bound: read + lost == written");
	ring_free(&r);
}

static void test_pending_writer(void)
{
	struct ring r;
	struct ld_resv held;
	struct ld_stats st;
	u32 i;
	int err = 0;

	ring_new(&r, 256, 2, LD_MODE_OVERWRITE);
	ld_reserve(&r.cb, 8, &held);	/* an "interrupted" writer in sb 0 */
	held.rec->site = 77; held.rec->type = LOGDEV_REC_RAW; held.rec->arg_bytes = 0;
	for (i = 0; i < 20 && !err; i++)
		err = put(&r, i) < 0 ? put(&r, i) : 0;
	/* sb 0 holds held + 5, sb 1 holds 6: the 12th write needs sb 0 again */
	CHECK_EQ(err, -EBUSY, "overwrite refuses to enter a sub-buffer with an uncommitted writer");
	ld_get_stats(&r.cb, &st);
	CHECK_WHY(st.nesting_lost == 2 && st.overrun == 0, "those refusals count as nesting_lost, nothing overrun",
		  "nesting_lost %llu overrun %llu", (unsigned long long)st.nesting_lost,
		  (unsigned long long)st.overrun);
	ld_commit(&r.cb, &held);
	CHECK_GE(put(&r, 99), 0, "after the commit the writer moves on");
	ld_get_stats(&r.cb, &st);
	CHECK_EQ(st.overrun, 6, "and overwrites sub-buffer 0 (6 records overrun)");
	{
		static unsigned char buf[256];
		struct logdev_subbuf_hdr *h = (void *)buf;
		u32 nl = 0, ov = 0, other = 0;

		ld_flush(&r.cb);
		while (ld_consume(&r.cb, buf) == 1) {
			nl += h->nesting_lost_before;
			ov += h->overrun_before;
			other += h->dropped_before + h->too_big_before;
		}
		CHECK_WHY(nl == 2 && ov == 6 && other == 0,
			  "the headers report them by cause: nesting_lost_before 2, overrun_before 6",
			  "nesting_lost_before %u overrun_before %u, dropped + too_big %u", nl, ov, other);
	}
	ring_free(&r);
}

static void test_e2big(void)
{
	struct ring r;
	struct ld_stats st;
	static char big[300];

	static unsigned char buf[256];
	struct logdev_subbuf_hdr *h = (void *)buf;
	int rc;

	ring_new(&r, 256, 2, LD_MODE_OVERWRITE);
	CHECK_EQ(ld_write(&r.cb, 1, LOGDEV_REC_RAW, 0, 0, big, sizeof(big)), -E2BIG,
		 "a record larger than a sub-buffer is refused with -E2BIG");
	/* the largest that fits: 256 - 48 header - 24 record header */
	CHECK_GE(ld_write(&r.cb, 1, LOGDEV_REC_RAW, 0, 0, big, 256 - LOGDEV_SUBBUF_HDR_SIZE - 24), 0,
		 "a record that just fits a sub-buffer is stored");
	CHECK_EQ(ld_write(&r.cb, 1, LOGDEV_REC_RAW, 0, 0, big, 256 - LOGDEV_SUBBUF_HDR_SIZE - 24 + 1), -E2BIG,
		 "one byte more is refused with -E2BIG");
	ld_get_stats(&r.cb, &st);
	CHECK_WHY(st.written == 3 && st.too_big == 2,
		  NAMEF("too-big records count as written and as lost too_big (written %llu too_big %llu)",
			(unsigned long long)st.written, (unsigned long long)st.too_big),
		  "written %llu too_big %llu", (unsigned long long)st.written,
		  (unsigned long long)st.too_big);
	ld_flush(&r.cb);
	rc = ld_consume(&r.cb, buf);
	CHECK_WHY(rc == 1 && h->too_big_before == 1 && !h->dropped_before &&
		  !h->nesting_lost_before && !h->overrun_before,
		  NAMEF("the first sub-buffer reports the too-big record before it, as too_big (too_big_before %u)",
			h->too_big_before),
		  "consume returned %d, too_big_before %u dropped_before %u nesting_lost_before %u overrun_before %u",
		  rc, h->too_big_before, h->dropped_before, h->nesting_lost_before, h->overrun_before);
	rc = ld_consume(&r.cb, buf);
	CHECK_WHY(rc == 1 && h->too_big_before == 1 && !h->dropped_before &&
		  !h->nesting_lost_before && !h->overrun_before,
		  NAMEF("the next one reports the one refused after the first was opened (too_big_before %u)",
			h->too_big_before),
		  "consume returned %d, too_big_before %u dropped_before %u nesting_lost_before %u overrun_before %u",
		  rc, h->too_big_before, h->dropped_before, h->nesting_lost_before, h->overrun_before);
	ld_get_stats(&r.cb, &st);
	CHECK_EQ(st.read + st.overrun + st.dropped + st.nesting_lost + st.too_big, st.written,
		 "read + overrun + dropped + nesting_lost + too_big == written");
	ring_free(&r);
}

static void test_flush_carries_losses(void)
{
	struct ring r;
	static unsigned char buf[256];
	struct logdev_subbuf_hdr *h = (void *)buf;
	u32 i, n;
	int rc;

	ring_new(&r, 256, 2, LD_MODE_DISCARD);
	for (i = 0; i < 17; i++)
		put(&r, i);		/* 12 stored, 5 dropped */
	ld_flush(&r.cb);		/* full: the 5 cannot be carried yet */
	n = drain(&r, NULL, NULL, NULL, NULL);
	CHECK_EQ(n, 12, "discard: 12 records read before the losses");
	CHECK_TRUE(ld_flush(&r.cb), "a flush with room opens an empty sub-buffer for pending losses");
	rc = ld_consume(&r.cb, buf);
	CHECK_WHY(rc == 1 && h->data_bytes == 0 && h->dropped_before == 5 &&
		  h->seq == 2 && (h->flags & LOGDEV_SB_FLUSHED),
		  NAMEF("it has no records, dropped_before 5, seq 2 (got %u, %llu)", h->dropped_before,
			(unsigned long long)h->seq),
		  "consume returned %d, data_bytes %u dropped_before %u seq %llu flags %#x", rc,
		  h->data_bytes, h->dropped_before, (unsigned long long)h->seq, h->flags);
	CHECK_FALSE(ld_flush(&r.cb), "nothing left to flush afterwards");
	ring_free(&r);
}

/* a consumed sub-buffer's unused tail never carries an older lap's bytes */
static void test_tail_zero(void)
{
	struct ring r;
	static unsigned char buf[256], big[150];
	struct logdev_subbuf_hdr *h = (void *)buf;
	u32 i, nz = 0;
	int rc;

	memset(big, 0x5a, sizeof(big));
	ring_new(&r, 256, 2, LD_MODE_OVERWRITE);
	for (i = 0; i < 4; i++)		/* two laps of big records */
		ld_write(&r.cb, 1, LOGDEV_REC_RAW, 0, 0, big, sizeof(big));
	ld_flush(&r.cb);
	while (ld_consume(&r.cb, buf) == 1)
		;
	ld_write(&r.cb, 1, LOGDEV_REC_RAW, 0, 0, "ab", 2);
	ld_flush(&r.cb);
	rc = ld_consume(&r.cb, buf);
	CHECK_WHY(rc == 1 && h->data_bytes == 32,
		  NAMEF("a short flushed sub-buffer is consumed (data_bytes %u)", h->data_bytes),
		  "consume returned %d, data_bytes %u", rc, h->data_bytes);
	for (i = LOGDEV_SUBBUF_HDR_SIZE + h->data_bytes; i < sizeof(buf); i++)
		nz += buf[i] != 0;
	CHECK_EQ(nz, 0, NAMEF("its unused tail is zero, not an older lap's record (%u bytes not zero)",
			      nz));
	ring_free(&r);
}

/* ld_peek_range()/ld_peek_subbuf(): what the crash dump may read, no consume */
static void test_peek(void)
{
	struct ring r;
	struct ld_resv rv;
	const void *sb;
	u64 first, end;
	u32 bytes = 0, i;
	int rc;

	ring_new(&r, 256, 4, LD_MODE_OVERWRITE);
	ld_peek_range(&r.cb, &first, &end);
	CHECK_WHY(first == 0 && end == 0, "peek: empty ring has no sub-buffer",
		  "first %llu end %llu", (unsigned long long)first, (unsigned long long)end);
	CHECK_EQ(ld_peek_subbuf(&r.cb, 0, &sb, &bytes), -ENODATA, "peek: unopened sub-buffer is -ENODATA");
	for (i = 0; i < 8; i++)		/* 6 fill sub-buffer 0, 2 in the open 1 */
		put(&r, i);
	ld_peek_range(&r.cb, &first, &end);
	CHECK_WHY(first == 0 && end == 2, "peek: range of 8 records is [0, 2)",
		  "first %llu end %llu", (unsigned long long)first, (unsigned long long)end);
	rc = ld_peek_subbuf(&r.cb, 0, &sb, &bytes);
	CHECK_WHY(rc == 0 && bytes == 6 * 32, "peek: closed sub-buffer 0 has 6 records",
		  "rc %d bytes %u", rc, bytes);
	rc = ld_peek_subbuf(&r.cb, 1, &sb, &bytes);
	CHECK_WHY(rc == 0 && bytes == 2 * 32, "peek: open sub-buffer 1 has 2 committed records",
		  "rc %d bytes %u", rc, bytes);
	/* a writer stopped between reserve and commit (the crash) */
	CHECK_EQ(ld_reserve(&r.cb, 8, &rv), 0, "peek: reserve");
	CHECK_EQ(ld_peek_subbuf(&r.cb, 1, &sb, &bytes), -EBUSY,
		 "peek: open sub-buffer with an uncommitted writer is -EBUSY");
	rc = ld_peek_subbuf(&r.cb, 0, &sb, &bytes);
	CHECK_WHY(rc == 0 && bytes == 6 * 32, "peek: the closed one before it is still readable",
		  "rc %d bytes %u", rc, bytes);
	rv.rec->site = 99;
	rv.rec->type = LOGDEV_REC_RAW;
	rv.rec->arg_bytes = 8;
	ld_commit(&r.cb, &rv);
	rc = ld_peek_subbuf(&r.cb, 1, &sb, &bytes);
	CHECK_WHY(rc == 0 && bytes == 3 * 32, "peek: after the commit, 3 records",
		  "rc %d bytes %u", rc, bytes);
	/* overwrite: 5 sub-buffers more, sub-buffer 0..2 go */
	for (i = 0; i < 28; i++)
		put(&r, 100 + i);
	ld_peek_range(&r.cb, &first, &end);
	CHECK_WHY(end == 7 && first == 3, "peek: after a wrap the range is the last 4 sub-buffers",
		  "first %llu end %llu", (unsigned long long)first, (unsigned long long)end);
	CHECK_EQ(ld_peek_subbuf(&r.cb, 2, &sb, &bytes), -ENODATA,
		 "peek: an overwritten sub-buffer is -ENODATA");
	rc = ld_peek_subbuf(&r.cb, 3, &sb, &bytes);
	CHECK_WHY(rc == 0 && ((const struct logdev_subbuf_hdr *)sb)->seq == 3,
		  "peek: oldest kept sub-buffer is 3", "rc %d", rc);
	((struct logdev_subbuf_hdr *)sb)->magic ^= 1;
	CHECK_EQ(ld_peek_subbuf(&r.cb, 3, &sb, &bytes), -EUCLEAN,
		 "peek: a damaged header is -EUCLEAN");
	((struct logdev_subbuf_hdr *)sb)->magic ^= 1;
	/* a consumed sub-buffer leaves the range */
	{
		static unsigned char buf[256];

		CHECK_EQ(ld_consume(&r.cb, buf), 1, "peek: consume one");
	}
	ld_peek_range(&r.cb, &first, &end);
	CHECK_WHY(first == 4 && end == 7, "peek: consumed sub-buffer 3 leaves the range",
		  "first %llu end %llu", (unsigned long long)first, (unsigned long long)end);
	ring_free(&r);
}

/*
 * Losses are marked where they happened (issue 24, item 1): records carry
 * their sequence number; a gap between two consecutive records read must
 * be reported exactly by the *_before counts of the sub-buffer headers
 * between them, and no header may report a loss where there was none.
 * Variable sizes (some too big for a sub-buffer), both modes, a reader that
 * drains now and then: the inputs of the fault report (a smaller record
 * used to fit the tail of a sub-buffer whose successor was refused, so it
 * came before the mark of the losses that preceded it).
 */
struct lp_state {
	u64 expect;		/* sequence number of the next record */
	u64 marks;		/* losses reported since the last record */
	u32 bad, gaps;
};

static void lp_read(struct lp_state *s, const unsigned char *buf)
{
	const struct logdev_subbuf_hdr *h = (const void *)buf;
	u32 off = 0;

	s->marks += (u64)h->overrun_before + h->dropped_before + h->too_big_before +
		    h->nesting_lost_before;
	while (off < h->data_bytes) {
		const struct logdev_rec_hdr *rec = (const void *)(buf + LOGDEV_SUBBUF_HDR_SIZE + off);
		u64 seq = *(const u64 *)(rec + 1);

		if (seq - s->expect != s->marks) {
			if (s->bad++ < 3)
				fprintf(stderr, "  record %llu after %llu: %llu lost, %llu marked here\n",
					(unsigned long long)seq, (unsigned long long)s->expect - 1,
					(unsigned long long)(seq - s->expect),
					(unsigned long long)s->marks);
		}
		s->gaps += seq != s->expect;
		s->expect = seq + 1;
		s->marks = 0;
		off += rec->len;
	}
}

static void lp_run(enum ld_mode mode, u32 drain_every, const char *what)
{
	static unsigned char buf[1024], payload[1024];
	struct lp_state s = { 0 };
	struct ring r;
	u64 seq;

	ring_new(&r, 1024, 2, mode);
	for (seq = 0; seq < 20000; seq++) {
		/* 8..1015 bytes: some too big for a 1 KiB sub-buffer */
		u32 bytes = 8 + (u32)((seq * 7919) % 1008);

		memcpy(payload, &seq, sizeof(seq));
		ld_write(&r.cb, 1, LOGDEV_REC_RAW, 0, 1, payload, (seq % 3) ? bytes % 301 + 8 : bytes);
		if (drain_every && seq % drain_every == 0)
			while (ld_consume(&r.cb, buf) == 1)
				lp_read(&s, buf);
	}
	for (;;) {
		ld_flush(&r.cb);
		if (ld_consume(&r.cb, buf) != 1)
			break;
		lp_read(&s, buf);
	}
	CHECK_WHY(s.bad == 0 && (s.gaps > 0 || !drain_every) && s.expect - 1 + s.marks == seq - 1,
		  NAMEF("%s: every gap is marked exactly where it is (%u gaps, %u misplaced)",
			what, s.gaps, s.bad),
		  "%u of %u gaps misplaced; last read %llu, %llu marked after it, %llu written",
		  s.bad, s.gaps, (unsigned long long)s.expect - 1,
		  (unsigned long long)s.marks, (unsigned long long)seq);
	ring_free(&r);
}

static void test_loss_positions(void)
{
	lp_run(LD_MODE_DISCARD, 0, "discard, nothing reading");
	lp_run(LD_MODE_DISCARD, 7, "discard, a reader now and then");
	lp_run(LD_MODE_DISCARD, 1, "discard, a reader after each record");
	lp_run(LD_MODE_OVERWRITE, 0, "overwrite, nothing reading");
	lp_run(LD_MODE_OVERWRITE, 5, "overwrite, a reader now and then");
}

int main(void)
{
	test_loss_positions();
	test_peek();
	test_init();
	test_flush_and_read();
	test_discard();
	test_overwrite();
	test_nesting();
	test_retry_bound();
	test_pending_writer();
	test_e2big();
	test_tail_zero();
	test_flush_carries_losses();
	return ldc_exit_status();
}
