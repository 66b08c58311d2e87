// SPDX-License-Identifier: GPL-2.0
/*
 * test_live_merge.c: the library's live merge (live.c) fed by hand
 * (library): the reorder window (by trace clock, by wall time, all CPUs
 * waiting), a late record marked and counted, the byte bound (records
 * handed out early, marked), a sub-buffer fed in pieces, lost events per
 * CPU, comm records as task names, memory back to nothing after a long run,
 * flipped bytes fed in random pieces (no crash, nothing held after).
 * Usage: test_live_merge.  Output: PASS/FAIL lines (ldcheck.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "liblogdev.h"
#include "live_fixture.h"

char tmpdir[] = "/tmp/logdev-livemerge-XXXXXX";

static uint32_t val_of(const struct lgd_item *it)
{
	return it->payload[0] | it->payload[1] << 8 | it->payload[2] << 16 |
	       (uint32_t)it->payload[3] << 24;
}

static int open_meta(struct lgd_reader *r)
{
	struct buf b = { 0 };
	struct lgd_diag d;
	char *p;
	int ret;

	cap_meta(&b, formats_text);
	p = write_tmp("meta.cap", b.p, b.n);
	free(b.p);
	ret = lgd_reader_open(r, p, NULL, NULL, &d);
	return ret;
}

/* ---- the library's live merge ------------------------------------------ */

static void test_live_window(void)
{
	static const uint32_t cpus[2] = { 0, 1 };
	struct lgd_reader r;
	struct lgd_live lv;
	struct lgd_item it;
	struct sbuf s;
	unsigned int fl;
	uint64_t k[9];

	if (open_meta(&r)) {
		fail("live: meta", "cannot open the metadata capture");
		return;
	}
	CHECK_EQ(lgd_live_init(&lv, &r, cpus, 2, 50 * MS, 0), 0, "live: init");
	/* CPU 0 only, 1 ms of records: CPU 1 might still bring older ones */
	mk_sb(&s, 0, 0, 1000 * MS, 100000, 5, 0, 0);
	CHECK_EQ(lgd_live_feed(&lv, 0, s.b, 100, 0), 0, "live: feed a piece");
	CHECK_EQ(lv.held_bytes, 0, "live: a piece of a sub-buffer is not held yet");
	CHECK_EQ(lgd_live_feed(&lv, 0, s.b + 100, SBS - 100, 0), 0, "live: feed the rest");
	CHECK_EQ(lv.held_bytes, SBS, "live: the whole sub-buffer held");
	CHECK_EQ(lgd_live_next(&lv, 10 * MS, 0, &it, &fl), 0,
		 "live: inside the window, one CPU silent: nothing goes out");
	CHECK_EQ(lgd_live_deadline(&lv), 50 * MS, "live: due at feed time + window (wall)");
	/* CPU 1 brings records interleaved: now both wait, the merge may go */
	mk_sb(&s, 1, 0, 1000 * MS + 50000, 100000, 5, 100, 3);
	lgd_live_feed(&lv, 1, s.b, SBS, 10 * MS);
	{
		int n = 0, order = 1, gap = 0;
		uint64_t prev = 0;

		while (lgd_live_next(&lv, 10 * MS, 0, &it, &fl) > 0) {
			if (it.kind == LGD_ITEM_GAP) {
				gap += it.cpu == 1 && it.gap_kind == LGD_GAP_OVERRUN &&
				       it.gap_count == 3;
				continue;
			}
			order &= it.ts >= prev && !fl;
			prev = it.ts;
			n++;
		}
		/* out while both CPUs have one waiting: up to CPU 0's last (CPU 1's last waits) */
		CHECK_EQ(n, 9, "live: both CPUs waiting: merged out to the last but one");
		CHECK_TRUE(order, "live: merged in time order, no mark");
		CHECK_EQ(gap, 1, "live: the overrun gap of CPU 1 comes out");
	}
	CHECK_EQ(lgd_live_next(&lv, 10 * MS, 0, &it, &fl), 0,
		 "live: CPU 1's last record waits (CPU 0 silent, window not passed)");
	CHECK_EQ(lgd_live_next(&lv, 61 * MS, 0, &it, &fl), 1,
		 "live: after the window of wall time it goes out");
	CHECK_EQ(val_of(&it), 104, "live: that is CPU 1's last record");
	/* a record of CPU 0 older than CPU 1's last: late, printed, counted */
	mk_sb(&s, 0, 1, 1000 * MS + 420000, 1, 1, 5, 0);
	lgd_live_feed(&lv, 0, s.b, SBS, 70 * MS);
	CHECK_EQ(lgd_live_next(&lv, 200 * MS, 0, &it, &fl), 1, "live: late record out");
	CHECK_EQ(fl, LGD_LIVE_LATE, "live: late record marked late");
	CHECK_EQ(val_of(&it), 5, "live: the late record is CPU 0's");
	CHECK_EQ(lv.late, 1, "live: late records counted");
	CHECK_EQ(lv.records, 11, "live: records counted");
	/* trace-clock window: a record 60 ms newer than the waiting one lets it out */
	mk_sb(&s, 1, 1, 2000 * MS, 1, 1, 200, 0);
	lgd_live_feed(&lv, 1, s.b, SBS, 300 * MS);
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 0, &it, &fl), 0,
		 "live: alone and new: waits");
	mk_sb(&s, 1, 2, 2060 * MS, 1, 1, 201, 0);
	lgd_live_feed(&lv, 1, s.b, SBS, 300 * MS);
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 0, &it, &fl), 1,
		 "live: 60 ms older than the newest record (window 50): out");
	CHECK_EQ(val_of(&it), 200, "live: the older one first");
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 0, &it, &fl), 0, "live: the newest waits");
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 1, &it, &fl), 1, "live: drain hands it out");
	CHECK_EQ(lgd_live_next(&lv, 300 * MS, 1, &it, &fl), 0, "live: drained: empty");
	CHECK_EQ(lv.held_bytes, 0, "live: drained: nothing held");
	CHECK_EQ(lgd_live_deadline(&lv), UINT64_MAX, "live: nothing held: no deadline");
	CHECK_EQ(lgd_merge_lost(&lv.counts, 1, k, NULL), 3, "live: lost records of CPU 1 (the merge's counts)");
	CHECK_EQ(k[LGD_GAP_OVERRUN], 3, "live: lost by kind");
	CHECK_EQ(lgd_merge_lost(&lv.counts, 0, k, NULL), 0, "live: CPU 0 lost nothing");
	lgd_live_free(&lv);
	lgd_reader_close(&r);
}

/* the byte bound: records go out early, marked, and memory stays bounded */
static void test_live_bound(void)
{
	static const uint32_t cpus[2] = { 0, 1 };
	struct lgd_reader r;
	struct lgd_live lv;
	struct lgd_item it;
	struct sbuf s;
	unsigned int fl;
	uint64_t maxheld = 0, n = 0, early = 0, last = 0;
	int order = 1, seq_ok = 1;

	if (open_meta(&r)) {
		fail("bound: meta", "cannot open the metadata capture");
		return;
	}
	/* bound 8 sub-buffers; CPU 1 silent; window 1 s never passes */
	CHECK_EQ(lgd_live_init(&lv, &r, cpus, 2, 1000 * MS, 8 * SBS), 0, "bound: init");
	for (int k = 0; k < 10000; k++) {
		mk_sb(&s, 0, (uint64_t)k, 1000 * MS + (uint64_t)k * 1000, 100, 6, k * 6, 0);
		lgd_live_feed(&lv, 0, s.b, SBS, 0);
		if (lv.held_bytes > maxheld)
			maxheld = lv.held_bytes;
		while (lgd_live_next(&lv, 0, 0, &it, &fl) > 0) {
			seq_ok &= val_of(&it) == n;
			order &= it.ts >= last;
			last = it.ts;
			early += !!(fl & LGD_LIVE_EARLY);
			n++;
		}
	}
	CHECK_WHY(maxheld <= 9 * SBS, "bound: held bytes never above the bound + one feed",
		  "max held %llu bytes, bound %d", (unsigned long long)maxheld, 8 * SBS);
	CHECK_TRUE(early > 0 && early == n, "bound: every record out before its window is marked early");
	CHECK_TRUE(seq_ok && order, "bound: early records keep their order, none lost");
	CHECK_EQ(lv.early, early, "bound: early records counted");
	while (lgd_live_next(&lv, 0, 1, &it, &fl) > 0)
		seq_ok &= val_of(&it) == n++;
	CHECK_EQ(n, 60000, "bound: all 60000 records out after the drain");
	CHECK_TRUE(seq_ok, "bound: every record exactly once");
	CHECK_EQ(lv.held_bytes, 0, "bound: nothing held after the drain");
	lgd_live_free(&lv);
	lgd_reader_close(&r);
}

/* comm records are task names, not items; corrupt sub-buffers are gaps */
static void test_live_comm_corrupt(void)
{
	static const uint32_t cpus[1] = { 0 };
	struct lgd_reader r;
	struct lgd_live lv;
	struct lgd_item it;
	struct sbuf s;
	unsigned int fl;
	uint8_t junk[SBS];
	int nrec = 0, ncorrupt = 0;
	const char *name;

	if (open_meta(&r)) {
		fail("comm: meta", "cannot open the metadata capture");
		return;
	}
	lgd_live_init(&lv, &r, cpus, 1, 50 * MS, 0);
	sb_begin(&s, 0, 0, 1000, 0, 0);
	sb_rec(&s, 1000, 0, LOGDEV_REC_COMM, 0, 100, "worker\0\0\0\0\0\0\0\0\0", LOGDEV_COMM_LEN);
	sb_rec(&s, 1001, 1, LOGDEV_REC_PRINT, 0, 100, "\1\0\0\0", 4);
	lgd_live_feed(&lv, 0, s.b, SBS, 0);
	memset(junk, 0x5a, sizeof(junk));
	lgd_live_feed(&lv, 0, junk, SBS, 0);
	while (lgd_live_next(&lv, 0, 0, &it, &fl) > 0) {	/* one CPU: all waiting */
		nrec += it.kind == LGD_ITEM_REC;
		ncorrupt += it.kind == LGD_ITEM_GAP && it.gap_kind == LGD_GAP_CORRUPT;
	}
	CHECK_EQ(nrec, 1, "comm: the comm record is no item");
	name = lgd_comm_at(&r, 100, 1001);
	CHECK_STR_EQ(name ? name : "(none)", "worker", "comm: its name is the task's");
	CHECK_EQ(ncorrupt, 1, "corrupt: a bad sub-buffer is a corrupt gap");
	CHECK_EQ(lv.held_bytes, 0, "corrupt: nothing held");
	lgd_live_free(&lv);
	lgd_reader_close(&r);
}

/* warnings of the live merge, counted */
static void count_warn(void *arg, const struct lgd_diag *d)
{
	(void)d;
	(*(int *)arg)++;
}

/*
 * A damaged seq in the live buffers (2^32+2 between 1 and 3) is no loss of
 * 2^32 sub-buffers: with the next sub-buffer queued it is read as 2
 * (damaged), fed one at a time it is an impossible jump then a step back;
 * warned either way, no sub-buffer counted lost.
 */
static void test_live_seq(void)
{
	static const uint32_t cpus[1] = { 0 };
	static const uint64_t seqs[4] = { 0, 1, (1ull << 32) + 2, 3 };

	for (int one_by_one = 0; one_by_one < 2; one_by_one++) {
		struct lgd_reader r;
		struct lgd_live lv;
		struct lgd_item it;
		struct sbuf s;
		unsigned int fl;
		uint64_t k[LGD_GAP_NR];
		int warns = 0, gaps = 0, recs = 0;

		if (open_meta(&r)) {
			fail("live seq: meta", "cannot open the metadata capture");
			return;
		}
		r.warn = count_warn;
		r.warn_arg = &warns;
		lgd_live_init(&lv, &r, cpus, 1, 50 * MS, 0);
		for (int i = 0; i < 4; i++) {
			mk_sb(&s, 0, seqs[i], 1000 * MS + (uint64_t)i * 1000, 100, 2, 2 * i, 0);
			lgd_live_feed(&lv, 0, s.b, SBS, 0);
			while (one_by_one && lgd_live_next(&lv, 0, 0, &it, &fl) > 0) {
				recs += it.kind == LGD_ITEM_REC;
				gaps += it.kind == LGD_ITEM_GAP;
			}
		}
		while (lgd_live_next(&lv, 0, 1, &it, &fl) > 0) {
			recs += it.kind == LGD_ITEM_REC;
			gaps += it.kind == LGD_ITEM_GAP;
		}
		lgd_merge_lost(&lv.counts, 0, k, NULL);
		CHECK_WHY(recs == 8 && !gaps && !k[LGD_GAP_SUBBUFS] && warns == (one_by_one ? 2 : 1),
			  NAMEF("live seq: a damaged seq (%s) is warned, no sub-buffer lost",
				one_by_one ? "fed one at a time" : "the next one queued"),
			  "%d records, %d gaps, subbufs %llu, %d warnings", recs, gaps,
			  (unsigned long long)k[LGD_GAP_SUBBUFS], warns);
		lgd_live_free(&lv);
		lgd_reader_close(&r);
	}
}

/* hostile bytes in random pieces: no crash, nothing held after the drain */
static void test_live_hostile(void)
{
	static const uint32_t cpus[2] = { 0, 1 };
	struct lgd_reader r;
	struct lgd_live lv;
	struct lgd_item it;
	unsigned int fl, seed = 12345;
	uint64_t items = 0;

	if (open_meta(&r)) {
		fail("hostile: meta", "cannot open the metadata capture");
		return;
	}
	lgd_live_init(&lv, &r, cpus, 2, 50 * MS, 16 * SBS);
	for (int k = 0; k < 3000; k++) {
		struct sbuf s;
		uint8_t pl[4] = { 1, 0, 0, 0 };
		size_t off = 0;

		mk_sb(&s, (uint16_t)(k & 1), (uint64_t)(rand_r(&seed) % 50), rand_r(&seed), 1000,
		      1 + rand_r(&seed) % 5, k, 0);
		sb_rec(&s, rand_r(&seed) % 4 ? 5 : 0, 1 + rand_r(&seed) % 3, LOGDEV_REC_PRINT, 0, 1,
		       pl, 4);
		for (int j = rand_r(&seed) % 6; j > 0; j--)	/* flip a few bytes anywhere */
			s.b[rand_r(&seed) % SBS] ^= (uint8_t)(1 + rand_r(&seed) % 255);
		while (off < SBS) {
			size_t n = 1 + rand_r(&seed) % 300;

			n = n > SBS - off ? SBS - off : n;
			lgd_live_feed(&lv, (uint32_t)(k & 1), s.b + off, n, (uint64_t)k * MS);
			off += n;
		}
		while (lgd_live_next(&lv, (uint64_t)k * MS, 0, &it, &fl) > 0)
			items++;
	}
	while (lgd_live_next(&lv, 0, 1, &it, &fl) > 0)
		items++;
	CHECK_TRUE(items > 3000, "hostile: flipped bytes: items come out, no crash");
	CHECK_EQ(lv.held_bytes, 0, "hostile: nothing held after the drain");
	lgd_live_free(&lv);
	lgd_reader_close(&r);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (tmpdir_make())
		return 1;
	test_live_window();
	test_live_bound();
	test_live_comm_corrupt();
	test_live_seq();
	test_live_hostile();
	tmpdir_remove();
	printf("live_merge: %d passed, %d failed\n", ldc_passes, ldc_failures);
	return ldc_exit_status();
}
