// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_ring_read.c - the ring's read side (portable core, as
 * logdev_ring.c): the consuming read of whole sub-buffers (ld_peek(),
 * ld_readable(), ld_consume()), looking without consuming (the crash
 * dump's ld_peek_range(), ld_peek_subbuf()), the records of a sub-buffer
 * (ld_subbuf_records()) and the counters (ld_get_stats()).
 *
 * The reader hand-off and its barriers (R1, C1 ...) are described at the
 * top of logdev_ring.c and in docs/RING.md.
 *
 * Layer: ring; built into the module, tests/ring and bench/ with
 * logdev_ring.c.
 */
#ifdef __KERNEL__
#include <linux/export.h>
#include <linux/kernel.h>
#endif
#include "logdev_ring.h"

#define HDR	LOGDEV_SUBBUF_HDR_SIZE

/*
 * Records in the first @end bytes after the header of @subbuf (@end at most
 * the sub-buffer's size minus its header): the walk of ld_subbuf_records().
 */
static u32 ld_count_records(const void *subbuf, u32 end)
{
	u32 off = 0, n = 0;

	while (off + LOGDEV_REC_HDR_SIZE <= end) {
		const struct logdev_rec_hdr *rec =
			(const void *)((const char *)subbuf + HDR + off);
		u32 len = READ_ONCE(rec->len);

		if (len < LOGDEV_REC_HDR_SIZE || (len & (LOGDEV_REC_ALIGN - 1)) ||
		    off + len > end)
			break;
		off += len;
		n++;
	}
	return n;
}

/**
 * ld_subbuf_records() - count the records in a closed sub-buffer
 * @subbuf:      start of the sub-buffer (header first)
 * @subbuf_size: its size in bytes
 *
 * Walks the records by their length; stops at anything malformed, so it is
 * safe on memory a nested writer may be changing (the caller then discards
 * the answer).
 *
 * Benign race: a pusher that lost the race in ld_prepare_open() may count
 * a slot while the writer that won rewrites it.  READ_ONCE() makes each
 * length be loaded once, so the bounds check and the step use the same
 * value and the walk stays inside the slot; the writers' side is the
 * WRITE_ONCE() of data_bytes (ld_close(), ld_reserve()) and of len
 * (ld_reserve()).  A count taken from such a slot is never used: the
 * losing pusher's cmpxchg of read_sb fails.
 *
 * Return: number of records.
 */
u32 ld_subbuf_records(const void *subbuf, u32 subbuf_size)
{
	const struct logdev_subbuf_hdr *h = subbuf;
	u32 end = READ_ONCE(h->data_bytes);

	if (end > subbuf_size - HDR)
		return 0;
	return ld_count_records(subbuf, end);
}

/*
 * Oldest sub-buffer that is complete and not consumed, in *@r.
 * Return: 1 found, 0 none yet, -EAGAIN raced with a writer lapping us.
 */
static int ld_peek(struct ld_cpu_buf *cb, u64 *r)
{
	/*
	 * Three relaxed loads, in no particular order, and none needs one:
	 * read_sb changes under us only by a push, which makes the claim in
	 * ld_consume() fail; write_off only grows (a stale value says "not
	 * closed yet"); and commit[] alone decides: it equals the end of rs's
	 * lap only while rs is complete and the slot's next sub-buffer
	 * (rs + nr) has no byte committed.
	 * A wrong guess costs a copy that is thrown away or a retry, never a
	 * torn copy kept.
	 */
	u64 rs = ld_atomic_read(&cb->read_sb);
	u64 w = ld_local_read_remote(&cb->write_off);
	u64 c;

	if (rs >= ld_sb_of(cb, w))
		return 0;
	c = ld_local_read_remote(&cb->commit[ld_slot(cb, rs)]);
	if (c < ld_lap_end(cb, rs >> cb->nr_shift))
		return 0;
	if (c > ld_lap_end(cb, rs >> cb->nr_shift))
		return -EAGAIN;
	*r = rs;
	return 1;
}

/**
 * ld_readable() - is there a whole sub-buffer to consume?
 * @cb: the buffer
 *
 * Only loads, so it may run beside ld_consume() and, in the module's poll
 * timer (under RCU only), even beside ld_cpu_buf_reset(): a wrong answer
 * costs a spurious wake-up (the woken reader re-checks) or one more timer
 * period.  -EAGAIN means a push already moved read_sb, which the retry's
 * load sees, so the loop ends.
 *
 * Return: true if ld_consume() would copy one now.
 */
bool ld_readable(struct ld_cpu_buf *cb)
{
	u64 r;
	int ret;

	while ((ret = ld_peek(cb, &r)) == -EAGAIN)
		;
	return ret == 1;
}

/**
 * ld_consume() - consuming read of the oldest whole sub-buffer
 * @cb:  the buffer; one consumer at a time (caller serialises)
 * @dst: subbuf_size bytes; receives the sub-buffer, whose header's
 *       overrun_before is set to the records overwritten since the
 *       previously consumed sub-buffer, and whose other *_before fields
 *       also get the counts of the headers overwritten meanwhile
 *
 * Never waits for writers: a sub-buffer is consumed only once every writer
 * in it has committed.
 *
 * Return: 1 if a sub-buffer was copied, 0 if none is complete.
 */
int ld_consume(struct ld_cpu_buf *cb, void *dst)
{
	struct logdev_subbuf_hdr *h = dst;
	u64 r, ov, dc[LD_NR_REFUSALS];
	int ret, i;

	for (;;) {
		ret = ld_peek(cb, &r);
		if (ret == -EAGAIN)
			continue;
		if (ret == 0)
			return 0;
		/*
		 * [R1] The commit count ld_peek() loaded before the bytes it
		 * covers.  Pairs with the smp_wmb() before each commit add:
		 * ld_close() [W1], ld_open() [W2], ld_commit() [W3].
		 */
		ld_smp_rmb();
		/*
		 * Benign race (overwrite mode): a writer that pushed r may be
		 * rewriting the slot while we copy it.  Then our claim below
		 * fails and the copy is thrown away; nothing read from it is
		 * used before the claim.
		 */
		memcpy(dst, ld_sb_addr(cb, r), cb->subbuf_size);
		/*
		 * Swap the pending loss counts out before the claim, so that
		 * a successful claim carries exactly the pushes accounted so
		 * far (a push of r or later would make the claim fail).
		 * Fully ordered xchg; the pusher's adds (ld_prepare_open())
		 * are relaxed: a count added late reaches a later header.
		 */
		ov = ld_atomic_xchg(&cb->overrun_pending, 0);
		for (i = 0; i < LD_NR_REFUSALS; i++)
			dc[i] = ld_atomic_xchg(&cb->carry[i], 0);
		/*
		 * [C1] The claim.  Fully ordered on success: every load of the
		 * memcpy() above happens before it, so a writer that sees
		 * read_sb > r and only then stores into the slot cannot change
		 * what we copied.  Pairs with the acquire load of read_sb in
		 * ld_prepare_open() [A1] and with the smp_mb() after a failed
		 * push there [M1].  Against a push of r [C2] exactly one of the
		 * two cmpxchg's wins.
		 */
		if (ld_atomic_cmpxchg(&cb->read_sb, r, r + 1) != r) {
			/* a writer pushed r out while we copied: its loss */
			if (ov)
				ld_atomic_add(&cb->overrun_pending, ov);
			for (i = 0; i < LD_NR_REFUSALS; i++)
				if (dc[i])
					ld_atomic_add(&cb->carry[i], dc[i]);
			continue;
		}
		/* the unused tail may hold an older lap's records: zero it */
		if (h->data_bytes < cb->subbuf_size - HDR)
			memset((char *)dst + HDR + h->data_bytes, 0,
			       cb->subbuf_size - HDR - h->data_bytes);
		h->overrun_before = ld_sat32(ov);
		for (i = 0; i < LD_NR_REFUSALS; i++)
			*ld_hdr_before(h, i) = ld_sat32(dc[i] + *ld_hdr_before(h, i));
		ld_atomic_add(&cb->read, ld_subbuf_records(dst, cb->subbuf_size));
		return 1;
	}
}

/**
 * ld_peek_range() - the sub-buffers a reader that does not consume may look at
 * @cb:    the buffer
 * @first: set to the oldest sub-buffer (global number) neither consumed nor
 *         overwritten: at least read_sb, and at most nr_subbufs - 1 before
 *         the newest
 * @end:   set to one past the newest sub-buffer opened so far (the open one
 *         included); *@first == *@end when there is none
 *
 * Only loads, for the crash dump (logdev_dump.c), which may run in NMI or
 * with the other CPUs stopped: no lock, no store.  With writers still
 * running (another CPU), the range may be stale by the time it is used:
 * ld_peek_subbuf() checks each sub-buffer again.
 */
void ld_peek_range(struct ld_cpu_buf *cb, u64 *first, u64 *end)
{
	u64 w = ld_local_read_remote(&cb->write_off);
	u64 rs = ld_atomic_read(&cb->read_sb);
	u64 e = (w + cb->subbuf_size - 1) >> cb->subbuf_shift;
	u64 f = e > cb->nr_subbufs ? e - cb->nr_subbufs : 0;

	*first = rs > f ? (rs < e ? rs : e) : f;
	*end = e;
}

/**
 * ld_peek_subbuf() - one sub-buffer's committed records, without consuming
 * @cb:         the buffer
 * @sb:         global sub-buffer number, from ld_peek_range()
 * @subbuf:     set to the sub-buffer in the ring (header first); read it in
 *              place, it is not copied
 * @data_bytes: set to the bytes of records after the header, all committed
 *              (the closer's data_bytes, or for the open sub-buffer the bytes
 *              reserved so far)
 *
 * The same test as the consumer's (ld_peek()): commit[slot] counts the bytes
 * committed to a slot over its laps, so lap L of it is whole when the count
 * is (L + 1) * subbuf_size, and the open sub-buffer has every reservation
 * committed when the count is L * subbuf_size plus the bytes reserved.  The
 * sub-buffer is not claimed: a writer on another CPU may still reuse the
 * slot (overwrite mode) while the caller reads it; the caller bounds every
 * step by @data_bytes and the record lengths it checks, and may call this
 * again after reading to see whether the lap moved on.
 *
 * Return: 0; -ENODATA: @sb not opened yet, or its slot already holds a later
 * lap (overwritten); -EBUSY: a writer in it has not committed (interrupted,
 * or stopped by the crash); -EUCLEAN: the header is not the one of @sb
 * (magic, seq, data_bytes out of range).
 */
int ld_peek_subbuf(struct ld_cpu_buf *cb, u64 sb, const void **subbuf,
		   u32 *data_bytes)
{
	const struct logdev_subbuf_hdr *h = ld_sb_addr(cb, sb);
	u64 w = ld_local_read_remote(&cb->write_off);
	u64 base = (sb >> cb->nr_shift) << cb->subbuf_shift;
	u64 c = ld_local_read_remote(&cb->commit[ld_slot(cb, sb)]);
	u32 bytes;

	if (ld_sb_of(cb, w) < sb ||
	    (ld_sb_of(cb, w) == sb && ld_off_in(cb, w) == 0))
		return -ENODATA;
	if (c > base + cb->subbuf_size)
		return -ENODATA;
	if (ld_sb_of(cb, w) > sb) {
		if (c != base + cb->subbuf_size)
			return -EBUSY;
		/* [R1] as in ld_consume(): the count before the bytes */
		ld_smp_rmb();
		bytes = READ_ONCE(h->data_bytes);
	} else {
		if (c != base + ld_off_in(cb, w))
			return -EBUSY;
		ld_smp_rmb();
		bytes = ld_off_in(cb, w) - HDR;
	}
	if (READ_ONCE(h->magic) != LOGDEV_SUBBUF_MAGIC ||
	    READ_ONCE(h->seq) != sb || bytes > cb->subbuf_size - HDR)
		return -EUCLEAN;
	*subbuf = h;
	*data_bytes = bytes;
	return 0;
}

/*
 * Records in the sub-buffers neither consumed nor pushed out: read_sb up to
 * the open one (bounded walks: only loads, any context).  Exact while no
 * writer and no consumer runs; with them running, a sub-buffer may be
 * counted while it is claimed or pushed (twice, for an instant) or before
 * its records have their lengths (missed), as any unordered snapshot of
 * the counters may be off.
 */
static u64 ld_ring_records(struct ld_cpu_buf *cb)
{
	u64 w = ld_local_read_remote(&cb->write_off);
	u64 rs = ld_atomic_read(&cb->read_sb);
	u64 open = ld_sb_of(cb, w), sb, n = 0;
	u32 off = ld_off_in(cb, w);

	/*
	 * Never more than nr_subbufs, even from a stale read_sb: the ring
	 * holds the nr_subbufs up to the last one opened, which is @open only
	 * when write_off is inside it (at a boundary @open is not opened yet:
	 * after a flush, or a refusal's close in ld_count_lost()).
	 */
	if (open + (off != 0) > rs + cb->nr_subbufs)
		rs = open + (off != 0) - cb->nr_subbufs;
	for (sb = rs; sb < open; sb++)
		n += ld_subbuf_records(ld_sb_addr(cb, sb), cb->subbuf_size);
	if (off > HDR && rs <= open)
		n += ld_count_records(ld_sb_addr(cb, open), off - HDR);
	return n;
}

/**
 * ld_get_stats() - snapshot of a buffer's counters
 * @cb: the buffer
 * @st: filled in (records, and bytes for @st->bytes)
 */
void ld_get_stats(struct ld_cpu_buf *cb, struct ld_stats *st)
{
	u64 w;

	/*
	 * Benign race: unordered loads of counters the writers and the
	 * consumer keep changing; each value is whole, the set is not a
	 * snapshot.  The accounting identity holds once writers are quiet
	 * and everything is consumed.
	 */
	st->read = ld_atomic_read(&cb->read);
	st->overrun = ld_atomic_read(&cb->overrun);
	st->dropped = ld_local_read_remote(&cb->refused[LD_DROPPED]);
	st->nesting_lost = ld_local_read_remote(&cb->refused[LD_NESTING_LOST]);
	st->too_big = ld_local_read_remote(&cb->refused[LD_TOO_BIG]);
	/*
	 * Written, derived (no counter on the fast path): every record a
	 * writer reserved is in exactly one sub-buffer, which was consumed
	 * (read), pushed out (overrun) or is still in the ring; every other
	 * record tried was refused.  Exact once writers are quiet.
	 */
	st->written = st->read + st->overrun + st->dropped + st->nesting_lost +
		      st->too_big + ld_ring_records(cb);
	/*
	 * Bytes of records, derived: every byte reserved (write_off) is a
	 * sub-buffer header, a record or a closed sub-buffer's unused tail
	 * (tails); all reserved records are committed once writers are quiet.
	 * Every sub-buffer below write_off was opened (each open is the next
	 * one), so ceil(write_off / S) headers.
	 */
	w = ld_local_read_remote(&cb->write_off);
	st->bytes = w - (((w + cb->subbuf_size - 1) >> cb->subbuf_shift) * HDR) -
		    ld_local_read_remote(&cb->tails);
}

/**
 * ld_get_positions() - where the writers and the reader are
 * @cb:        the buffer
 * @write_off: set to the bytes ever reserved (the next record's position)
 * @read_sb:   set to the oldest sub-buffer not yet consumed
 *
 * For the flight recorder's end note (logdev_area.c); any context.
 */
void ld_get_positions(struct ld_cpu_buf *cb, u64 *write_off, u64 *read_sb)
{
	*write_off = ld_local_read_remote(&cb->write_off);
	*read_sb = ld_atomic_read(&cb->read_sb);
}
