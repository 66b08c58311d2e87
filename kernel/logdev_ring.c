// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_ring.c - lockless per-CPU ring of sub-buffers (portable core).
 *
 * Positions: write_off is a global byte position that only grows; sub-buffer
 * number n covers [n * S, (n + 1) * S) and lives in slot n % nr of the
 * memory.  A position at a sub-buffer boundary means "sub-buffer not opened
 * yet": the next reservation opens it (writes its header).
 *
 * Writers reserve with a compare-and-exchange loop on write_off that reads
 * the trace clock inside the loop, so that on one CPU records are laid out
 * in timestamp order even when an interrupt or NMI nests between an outer
 * writer's clock read and its reservation (the outer one then retries).
 *
 * Commit: commit[slot] counts bytes committed to that slot since the start,
 * across laps.  Header, records and end padding all count, so lap L of a
 * slot is complete exactly when commit[slot] == (L + 1) * S, and a writer's
 * commit completes a sub-buffer exactly when the sum becomes a multiple of
 * S.  Nested writers need no ordering among themselves: a sub-buffer becomes
 * readable only when every reservation in it, outermost included, is
 * committed.
 *
 * Reader hand-off: read_sb is the oldest sub-buffer not consumed.  The
 * consumer copies sub-buffer r and then claims it with
 * cmpxchg(read_sb, r, r + 1).  A writer about to re-use r's slot first makes
 * sure read_sb > r: in discard mode it drops its record otherwise; in
 * overwrite mode it "pushes" the reader with the same cmpxchg and, if it
 * wins, counts r's records as overrun.  Exactly one side wins, so every
 * record is counted once as read or as overrun, and a copy the consumer
 * keeps was taken before any writer could touch the slot again.
 * See docs/RING.md for the argument in full.
 */
#ifdef __KERNEL__
#include <linux/export.h>
#include <linux/kernel.h>
#endif
#include "logdev_ring.h"

#define HDR	LOGDEV_SUBBUF_HDR_SIZE

static inline u64 ld_sb_of(const struct ld_cpu_buf *cb, u64 pos)
{
	return pos >> cb->subbuf_shift;
}

static inline u32 ld_off_in(const struct ld_cpu_buf *cb, u64 pos)
{
	return (u32)pos & (cb->subbuf_size - 1);
}

static inline u32 ld_slot(const struct ld_cpu_buf *cb, u64 sb)
{
	return (u32)sb & (cb->nr_subbufs - 1);
}

static inline void *ld_sb_addr(const struct ld_cpu_buf *cb, u64 sb)
{
	return (char *)cb->mem + ((u64)ld_slot(cb, sb) << cb->subbuf_shift);
}

static inline void *ld_pos_addr(const struct ld_cpu_buf *cb, u64 pos)
{
	return (char *)ld_sb_addr(cb, ld_sb_of(cb, pos)) + ld_off_in(cb, pos);
}

/* Bytes that must be committed to a slot before lap @lap of it is complete */
static inline u64 ld_lap_end(const struct ld_cpu_buf *cb, u64 lap)
{
	return (lap + 1) << cb->subbuf_shift;
}

static u32 ld_log2(u32 v)
{
	u32 r = 0;

	while (v >>= 1)
		r++;
	return r;
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
 * Return: number of records.
 */
u32 ld_subbuf_records(const void *subbuf, u32 subbuf_size)
{
	const struct logdev_subbuf_hdr *h = subbuf;
	u32 end = READ_ONCE(h->data_bytes);
	u32 off = 0, n = 0;

	if (end > subbuf_size - HDR)
		return 0;
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
 * ld_cpu_buf_init() - set up one CPU's ring on caller-provided memory
 * @cb:          the buffer to initialise
 * @mem:         @nr_subbufs * @subbuf_size bytes
 * @commit:      LD_COMMIT_ARRAY_BYTES(@nr_subbufs) bytes of commit counters
 * @cpu:         CPU number recorded in sub-buffer headers
 * @subbuf_size: bytes per sub-buffer, power of two, 256..65536
 * @nr_subbufs:  sub-buffers in @mem, >= 2; only the largest power of two
 *               not above it is used
 * @mode:        enum ld_mode
 *
 * Return: 0, or -EINVAL for a bad size or count.
 */
int ld_cpu_buf_init(struct ld_cpu_buf *cb, void *mem, ld_local_t *commit,
		    u32 cpu, u32 subbuf_size, u32 nr_subbufs, enum ld_mode mode)
{
	if (subbuf_size < 256 || subbuf_size > 65536 ||
	    (subbuf_size & (subbuf_size - 1)) || nr_subbufs < 2 || !mem ||
	    !commit || (mode != LD_MODE_OVERWRITE && mode != LD_MODE_DISCARD))
		return -EINVAL;
	memset(cb, 0, sizeof(*cb));
	cb->mem = mem;
	cb->commit = commit;
	cb->cpu = cpu;
	cb->subbuf_size = subbuf_size;
	cb->subbuf_shift = ld_log2(subbuf_size);
	cb->nr_shift = ld_log2(nr_subbufs);
	cb->nr_subbufs = 1U << cb->nr_shift;
	ld_cpu_buf_reset(cb, mode);
	return 0;
}

/**
 * ld_cpu_buf_reset() - empty the ring and zero its counters
 * @cb:   the buffer
 * @mode: mode to use from now on
 *
 * Only while no writer and no reader can run on @cb.
 */
void ld_cpu_buf_reset(struct ld_cpu_buf *cb, enum ld_mode mode)
{
	u32 i;

	cb->mode = mode;
	ld_local_set(&cb->write_off, 0);
	for (i = 0; i < cb->nr_subbufs; i++)
		ld_local_set(&cb->commit[i], 0);
	ld_local_set(&cb->written, 0);
	ld_local_set(&cb->dropped, 0);
	ld_local_set(&cb->nest_lost, 0);
	ld_local_set(&cb->too_big, 0);
	ld_local_set(&cb->bytes, 0);
	ld_local_set(&cb->pending_dropped, 0);
	cb->nesting = 0;
	ld_atomic_set(&cb->read_sb, 0);
	ld_atomic_set(&cb->overrun, 0);
	ld_atomic_set(&cb->overrun_pending, 0);
	ld_atomic_set(&cb->dropped_carry, 0);
	ld_atomic_set(&cb->read, 0);
	ld_smp_mb();
}

/*
 * Make sure sub-buffer @sb can be opened: its slot's previous lap must be
 * fully committed and consumed (or, in overwrite mode, pushed out).  @old is
 * the write position the caller decided on; an error is only returned if it
 * is still current, so a writer whose view went stale (a nested writer moved
 * on meanwhile) retries instead of failing.
 * Return: 0, -EAGAIN (stale: retry), -ENOSPC (discard mode, full) or -EBUSY
 * (the previous lap still has an uncommitted writer).
 */
static int ld_prepare_open(struct ld_cpu_buf *cb, u64 sb, u64 old)
{
	u64 prev, lap, rs, c;
	u32 slot, cnt, carried;
	int err;

	if (sb < cb->nr_subbufs)
		return 0;
	prev = sb - cb->nr_subbufs;
	slot = ld_slot(cb, sb);
	lap = sb >> cb->nr_shift;

	rs = ld_atomic_read_acquire(&cb->read_sb);
	if (rs > prev)
		goto check_commit;
	if (cb->mode == LD_MODE_DISCARD) {
		err = -ENOSPC;
		goto fail;
	}
	c = ld_local_read(&cb->commit[slot]);
	if (c != ld_lap_end(cb, lap - 1)) {
		err = c < ld_lap_end(cb, lap - 1) ? -EBUSY : -EAGAIN;
		goto fail;
	}
	ld_smp_rmb();
	cnt = ld_subbuf_records(ld_sb_addr(cb, prev), cb->subbuf_size);
	carried = READ_ONCE(((struct logdev_subbuf_hdr *)ld_sb_addr(cb, prev))->dropped_before);
	if (ld_atomic_cmpxchg(&cb->read_sb, prev, prev + 1) == prev) {
		ld_atomic_add(&cb->overrun, cnt);
		ld_atomic_add(&cb->overrun_pending, cnt);
		/* losses reported in the header we overwrite move on */
		if (carried)
			ld_atomic_add(&cb->dropped_carry, carried);
	}
	/* order the push (or the failed one) before any write to the slot */
	ld_smp_mb();
check_commit:
	c = ld_local_read(&cb->commit[slot]);
	if (c == ld_lap_end(cb, lap - 1))
		return 0;
	err = c < ld_lap_end(cb, lap - 1) ? -EBUSY : -EAGAIN;
fail:
	if (err != -EAGAIN && ld_local_read(&cb->write_off) != old)
		err = -EAGAIN;
	return err;
}

/* Close sub-buffer containing @old (not at a boundary): record its size and
 * commit the unused tail.  Return true if that completed the sub-buffer.
 */
static bool ld_close(struct ld_cpu_buf *cb, u64 old, u32 flags)
{
	u64 sb = ld_sb_of(cb, old);
	u32 off = ld_off_in(cb, old);
	struct logdev_subbuf_hdr *h = ld_sb_addr(cb, sb);

	/* only the closer writes these two: the opener may run after it */
	WRITE_ONCE(h->data_bytes, off - HDR);
	WRITE_ONCE(h->flags, flags);
	ld_smp_wmb();
	return (ld_local_add_return(&cb->commit[ld_slot(cb, sb)],
				    cb->subbuf_size - off) &
		(cb->subbuf_size - 1)) == 0;
}

/* Write the header of a sub-buffer this writer just opened, commit it. */
static void ld_open(struct ld_cpu_buf *cb, u64 sb, u64 ts)
{
	struct logdev_subbuf_hdr *h = ld_sb_addr(cb, sb);
	u64 lost = ld_local_xchg(&cb->pending_dropped, 0);

	/* a stale pusher may still be counting the previous lap: *_ONCE */
	WRITE_ONCE(h->magic, LOGDEV_SUBBUF_MAGIC);
	WRITE_ONCE(h->version, LOGDEV_FORMAT_VERSION);
	WRITE_ONCE(h->cpu, (u16)cb->cpu);
	WRITE_ONCE(h->seq, sb);
	WRITE_ONCE(h->first_ts, ts);
	WRITE_ONCE(h->dropped_before, lost > 0xffffffffULL ? 0xffffffffU : (u32)lost);
	WRITE_ONCE(h->overrun_before, 0);
	ld_smp_wmb();
	ld_local_add(&cb->commit[ld_slot(cb, sb)], HDR);
}

static void ld_count_lost(struct ld_cpu_buf *cb, int err)
{
	if (err == -ENOSPC)
		ld_local_inc(&cb->dropped);
	else if (err == -E2BIG)
		ld_local_inc(&cb->too_big);
	else
		ld_local_inc(&cb->nest_lost);
	ld_local_inc(&cb->pending_dropped);
}

/**
 * ld_lost_nesting() - count a record refused before reaching the ring
 * @cb: the CPU's buffer
 *
 * For callers that keep their own nesting depth (e.g. per-level scratch
 * buffers) and refuse a record before ld_reserve(): it is counted as written
 * and nesting-lost, and reported in the next sub-buffer's dropped_before.
 */
void ld_lost_nesting(struct ld_cpu_buf *cb)
{
	ld_local_inc(&cb->written);
	ld_count_lost(cb, -EBUSY);
}

/**
 * ld_reserve() - reserve space for one record
 * @cb:            this CPU's buffer (kernel: preemption disabled)
 * @payload_bytes: payload after the 24-byte record header
 * @r:             filled in on success
 *
 * On success r->rec points at the record header with ts and len set; the
 * caller fills the other fields and the payload, then calls ld_commit().
 *
 * Return: 0; -E2BIG if the record cannot fit a sub-buffer (counted as
 * too-big), -ENOSPC (discard mode, buffer full: counted as dropped) or
 * -EBUSY (nesting too deep or the sub-buffer to enter still being written:
 * counted as nesting-lost).  Every refusal counts as written and lost, and
 * is reported in the next sub-buffer's dropped_before.
 */
int ld_reserve(struct ld_cpu_buf *cb, u32 payload_bytes, struct ld_resv *r)
{
	u32 len = (LOGDEV_REC_HDR_SIZE + payload_bytes + LOGDEV_REC_ALIGN - 1) &
		  ~(u32)(LOGDEV_REC_ALIGN - 1);
	u64 old, new, ts, start, sb = 0;
	u32 off;
	bool open;
	int err;

	ld_local_inc(&cb->written);
	if (unlikely(payload_bytes > cb->subbuf_size ||
		     len > cb->subbuf_size - HDR || len > 0xfff8)) {
		ld_count_lost(cb, -E2BIG);
		return -E2BIG;
	}
	if (unlikely(++LD_NESTING(cb) > LD_MAX_NESTING)) {
		LD_NESTING(cb)--;
		ld_count_lost(cb, -EBUSY);
		return -EBUSY;
	}

	for (;;) {
		old = ld_local_read(&cb->write_off);
		ts = ld_clock_now();
		off = ld_off_in(cb, old);
		if (likely(off != 0 && off + len <= cb->subbuf_size)) {
			start = old;
			open = false;
		} else {
			sb = ld_sb_of(cb, old) + (off != 0);
			err = ld_prepare_open(cb, sb, old);
			if (err == -EAGAIN)
				continue;
			if (unlikely(err)) {
				LD_NESTING(cb)--;
				ld_count_lost(cb, err);
				return err;
			}
			start = (sb << cb->subbuf_shift) + HDR;
			open = true;
		}
		new = start + len;
		LD_TEST_HOOK(0);
		if (ld_local_cmpxchg(&cb->write_off, old, new) == old)
			break;
	}

	r->closed_prev = false;
	if (unlikely(open)) {
		if (off != 0)
			r->closed_prev = ld_close(cb, old, 0);
		ld_open(cb, sb, ts);
	}
	if (unlikely(ld_off_in(cb, new) == 0)) {
		/* this record fills its sub-buffer exactly: we are its closer */
		struct logdev_subbuf_hdr *h = ld_sb_addr(cb, ld_sb_of(cb, start));

		WRITE_ONCE(h->data_bytes, cb->subbuf_size - HDR);
		WRITE_ONCE(h->flags, 0);
	}
	r->rec = ld_pos_addr(cb, start);
	r->rec->ts = ts;
	WRITE_ONCE(r->rec->len, (u16)len);
	r->sb = ld_sb_of(cb, start);
	return 0;
}

/**
 * ld_commit() - make a reserved record count as written
 * @cb: the buffer ld_reserve() was called on (same CPU, same context)
 * @r:  the reservation
 *
 * Return: true if a sub-buffer became complete (readable) through this
 * reservation or commit, so a sleeping reader may want waking.
 */
bool ld_commit(struct ld_cpu_buf *cb, struct ld_resv *r)
{
	u32 len = r->rec->len;
	bool done;

	LD_TEST_HOOK(1);
	ld_local_add(&cb->bytes, len);
	ld_smp_wmb();
	done = (ld_local_add_return(&cb->commit[ld_slot(cb, r->sb)], len) &
		(cb->subbuf_size - 1)) == 0;
	LD_NESTING(cb)--;
	return done || r->closed_prev;
}

/**
 * ld_write() - reserve, copy and commit one record
 * @cb:      this CPU's buffer
 * @site:    call-site id
 * @type:    enum logdev_rec_type
 * @ctx:     enum logdev_ctx
 * @pid:     task id
 * @payload: @payload_bytes bytes to copy after the header
 * @payload_bytes: payload size in bytes
 *
 * Return: 1 if a sub-buffer became complete, 0 if written, or the negative
 * errno of ld_reserve().
 */
int ld_write(struct ld_cpu_buf *cb, u32 site, u8 type, u8 ctx, u32 pid,
	     const void *payload, u32 payload_bytes)
{
	struct ld_resv r;
	int err = ld_reserve(cb, payload_bytes, &r);
	u32 pad;

	if (err)
		return err;
	r.rec->site = site;
	r.rec->type = type;
	r.rec->ctx = ctx;
	r.rec->pid = pid;
	r.rec->arg_bytes = payload_bytes;
	if (payload_bytes)
		memcpy(r.rec + 1, payload, payload_bytes);
	pad = r.rec->len - LOGDEV_REC_HDR_SIZE - payload_bytes;
	if (pad)
		memset((char *)(r.rec + 1) + payload_bytes, 0, pad);
	return ld_commit(cb, &r) ? 1 : 0;
}

/**
 * ld_flush() - close the partly filled sub-buffer so it can be consumed
 * @cb: the buffer; call on its own CPU (it nests like a writer) or while no
 *      writer can run on it
 *
 * If records were lost after the last sub-buffer was opened, and there is
 * room, an empty sub-buffer is opened and closed to carry that count in its
 * dropped_before, so the consumer sees every gap in the stream itself (in
 * discard mode with a full buffer the count waits for a later flush).
 *
 * Return: true if a sub-buffer became complete.
 */
bool ld_flush(struct ld_cpu_buf *cb)
{
	bool done = false;
	u64 old, new, sb;
	int err;

	for (;;) {
		old = ld_local_read(&cb->write_off);
		if (ld_off_in(cb, old) == 0)
			break;
		new = (ld_sb_of(cb, old) + 1) << cb->subbuf_shift;
		if (ld_local_cmpxchg(&cb->write_off, old, new) == old) {
			done = ld_close(cb, old, LOGDEV_SB_FLUSHED);
			break;
		}
	}
	if (!ld_local_read(&cb->pending_dropped))
		return done;
	for (;;) {
		old = ld_local_read(&cb->write_off);
		if (ld_off_in(cb, old) != 0)
			return done;	/* a writer opened one: it carries them */
		sb = ld_sb_of(cb, old);
		err = ld_prepare_open(cb, sb, old);
		if (err == -EAGAIN)
			continue;
		if (err)
			return done;
		new = (sb + 1) << cb->subbuf_shift;
		if (ld_local_cmpxchg(&cb->write_off, old, new) == old)
			break;
	}
	ld_open(cb, sb, ld_clock_now());
	return ld_close(cb, (sb << cb->subbuf_shift) + HDR, LOGDEV_SB_FLUSHED) || done;
}

/*
 * Oldest sub-buffer that is complete and not consumed, in *@r.
 * Return: 1 found, 0 none yet, -EAGAIN raced with a writer lapping us.
 */
static int ld_peek(struct ld_cpu_buf *cb, u64 *r)
{
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
 *       previously consumed sub-buffer
 *
 * Never waits for writers: a sub-buffer is consumed only once every writer
 * in it has committed.
 *
 * Return: 1 if a sub-buffer was copied, 0 if none is complete.
 */
int ld_consume(struct ld_cpu_buf *cb, void *dst)
{
	struct logdev_subbuf_hdr *h = dst;
	u64 r, ov, dc;
	int ret;

	for (;;) {
		ret = ld_peek(cb, &r);
		if (ret == -EAGAIN)
			continue;
		if (ret == 0)
			return 0;
		ld_smp_rmb();
		memcpy(dst, ld_sb_addr(cb, r), cb->subbuf_size);
		ov = ld_atomic_xchg(&cb->overrun_pending, 0);
		dc = ld_atomic_xchg(&cb->dropped_carry, 0);
		if (ld_atomic_cmpxchg(&cb->read_sb, r, r + 1) != r) {
			/* a writer pushed r out while we copied: its loss */
			if (ov)
				ld_atomic_add(&cb->overrun_pending, ov);
			if (dc)
				ld_atomic_add(&cb->dropped_carry, dc);
			continue;
		}
		/* the unused tail may hold an older lap's records: zero it */
		if (h->data_bytes < cb->subbuf_size - HDR)
			memset((char *)dst + HDR + h->data_bytes, 0,
			       cb->subbuf_size - HDR - h->data_bytes);
		h->overrun_before = ov > 0xffffffffULL ? 0xffffffffU : (u32)ov;
		dc += h->dropped_before;
		h->dropped_before = dc > 0xffffffffULL ? 0xffffffffU : (u32)dc;
		ld_atomic_add(&cb->read, ld_subbuf_records(dst, cb->subbuf_size));
		return 1;
	}
}

/**
 * ld_get_stats() - snapshot of a buffer's counters
 * @cb: the buffer
 * @st: filled in (records, and bytes for @st->bytes)
 */
void ld_get_stats(struct ld_cpu_buf *cb, struct ld_stats *st)
{
	st->written = ld_local_read_remote(&cb->written);
	st->read = ld_atomic_read(&cb->read);
	st->overrun = ld_atomic_read(&cb->overrun);
	st->dropped = ld_local_read_remote(&cb->dropped);
	st->nest_lost = ld_local_read_remote(&cb->nest_lost);
	st->too_big = ld_local_read_remote(&cb->too_big);
	st->bytes = ld_local_read_remote(&cb->bytes);
}
