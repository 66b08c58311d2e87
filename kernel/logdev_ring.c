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
 *
 * Memory ordering.  Two things cross CPUs, and each is a classic pair:
 *
 *  - Data out (message passing): a writer stores a record or a header, then
 *    smp_wmb(), then adds to commit[slot] [W1 ld_close, W2 ld_open,
 *    W3 ld_commit]; the reader loads commit[slot] (ld_peek()), then
 *    smp_rmb(), then copies the slot [R1 ld_consume].  The pusher reading
 *    the previous lap does the same [R2 ld_prepare_open].
 *
 *  - Slot back (no store before the reader's loads are done): the reader's
 *    copy happens before its claim, a fully ordered cmpxchg of read_sb
 *    [C1 ld_consume]; a writer stores into the slot only after it has seen
 *    read_sb > r, through an acquire load [A1 ld_prepare_open] or through
 *    its own push cmpxchg followed by smp_mb() [C2, M1 ld_prepare_open].
 *
 * Everything else among writers happens on one CPU (kernel): interrupts
 * and NMIs see their CPU's accesses in program order, so local_t (atomic
 * against interrupts, not a barrier) and the compiler barriers implied by
 * its asm are all that writer-against-writer needs.  Each access below
 * says which of these it is; [Xn] names a row of the table in
 * docs/RING.md, "Barriers and their pairs".
 *
 * This file: init and reset, and the write side (the slow path of a
 * reservation, opening and closing sub-buffers, pushing the reader,
 * losses, flush); logdev_ring_write.h the inline fast path;
 * logdev_ring_read.c the read side and the counters.
 */
#ifdef __KERNEL__
#include <linux/export.h>
#include <linux/kernel.h>
#endif
#include "logdev_ring_write.h"

#define HDR	LOGDEV_SUBBUF_HDR_SIZE

static u32 ld_log2(u32 v)
{
	u32 r = 0;

	while (v >>= 1)
		r++;
	return r;
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
	ld_local_set(&cb->tails, 0);
	for (i = 0; i < LD_NR_REFUSALS; i++) {
		ld_local_set(&cb->refused[i], 0);
		ld_local_set(&cb->pending[i], 0);
		ld_atomic_set(&cb->carry[i], 0);
	}
	cb->nesting = 0;
	ld_atomic_set(&cb->read_sb, 0);
	ld_atomic_set(&cb->overrun, 0);
	ld_atomic_set(&cb->overrun_pending, 0);
	ld_atomic_set(&cb->read, 0);
	/*
	 * [M0] The reset as a whole before whatever the caller does next.
	 * The caller excludes writers (recording off, then synchronize_rcu())
	 * and consumers (ld_buf_rwsem held for write) around the reset, so
	 * nothing races with the stores above.  Consumers get the reset through
	 * the rwsem (up_write() here, down_read() in pipe_copy()).  Writers get
	 * it through this barrier, ordered before the store that turns
	 * recording back on (ld_clear_all()), pairing with the writers'
	 * smp_load_acquire() of logdev_recording (ld_recording() in
	 * logdev_record.c), so a writer that sees recording on sees the reset.
	 */
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
	u32 slot, cnt, carried[LD_NR_REFUSALS];
	int err, i;

	if (sb < cb->nr_subbufs)
		return 0;
	prev = sb - cb->nr_subbufs;
	slot = ld_slot(cb, sb);
	lap = sb >> cb->nr_shift;

	/*
	 * [A1] Seeing read_sb > prev because the consumer claimed prev means
	 * its copy of prev is finished: the acquire keeps every store this
	 * writer (and, on this CPU, every writer nesting on it) makes into the
	 * slot after this load.  Pairs with the claim, the fully ordered
	 * ld_atomic_cmpxchg(&cb->read_sb, r, r + 1) in ld_consume() [C1],
	 * which keeps the consumer's memcpy() of the slot before it.
	 */
	rs = ld_atomic_read_acquire(&cb->read_sb);
	if (rs > prev)
		goto check_commit;
	if (cb->mode == LD_MODE_DISCARD) {
		err = -ENOSPC;
		goto fail;
	}
	/*
	 * Overwrite mode: push the consumer off prev.  Count prev's records
	 * first, optimistically: only a fully committed prev is counted, and
	 * the count is used only if our push below wins, in which case no
	 * writer can have touched the slot since (to write it, a writer must
	 * first see read_sb > prev, and we are the one who moved it).
	 */
	c = ld_local_read(&cb->commit[slot]);
	if (c != ld_lap_end(cb, lap - 1)) {
		err = c < ld_lap_end(cb, lap - 1) ? -EBUSY : -EAGAIN;
		goto fail;
	}
	/*
	 * [R2] The commit count before the records it covers.  Pairs with the
	 * smp_wmb() before each commit add: ld_close() [W1], ld_open() [W2],
	 * ld_commit() [W3].  In the kernel prev was written by this CPU's
	 * writers, which program order already covers; the barrier is for the
	 * userspace harness's concurrent writer threads, on a slow path.
	 */
	ld_smp_rmb();
	/*
	 * Benign race: a writer that won the race to open sb (a nested one,
	 * or a concurrent thread in the harness) may already be rewriting the
	 * slot; then our push below fails and cnt and carried are dropped.
	 * READ_ONCE() pairs with the WRITE_ONCE() of the header in ld_open().
	 */
	cnt = ld_subbuf_records(ld_sb_addr(cb, prev), cb->subbuf_size);
	for (i = 0; i < LD_NR_REFUSALS; i++)
		carried[i] = READ_ONCE(*ld_hdr_before(ld_sb_addr(cb, prev), i));
	/*
	 * [C2] The push.  Competes with the consumer's claim [C1] and with
	 * other pushers for the same read_sb value: exactly one wins prev.
	 * On success it is fully ordered: the loads of the count above stay
	 * before it, so the count is of prev as committed.
	 */
	if (ld_atomic_cmpxchg(&cb->read_sb, prev, prev + 1) == prev) {
		/*
		 * Relaxed adds: counters, not flags.  Benign race: the
		 * consumer may swap overrun_pending and carry[] out
		 * (ld_consume()) between our push and these adds; the count
		 * then reaches the header of a later sub-buffer, never an
		 * earlier one (a claim that could have seen it would have
		 * failed against our push).  Totals stay exact.
		 */
		ld_atomic_add(&cb->overrun, cnt);
		ld_atomic_add(&cb->overrun_pending, cnt);
		/* losses reported in the header we overwrite move on */
		for (i = 0; i < LD_NR_REFUSALS; i++)
			if (carried[i])
				ld_atomic_add(&cb->carry[i], carried[i]);
	}
	/*
	 * [M1] A failed cmpxchg orders nothing, and it fails when the consumer
	 * claimed prev while we counted: its load of read_sb must still come
	 * before our stores into the slot, as the acquire [A1] does on the
	 * other path.  Pairs with the consumer's claim [C1].  (After a
	 * successful push it is redundant; the push is rare, so no branch.)
	 */
	ld_smp_mb();
check_commit:
	/*
	 * The previous lap must be fully committed: a writer interrupted
	 * inside it (this CPU) still owns bytes of the slot.  A plain local
	 * read: the writers of this slot are this CPU's.
	 */
	c = ld_local_read(&cb->commit[slot]);
	if (c == ld_lap_end(cb, lap - 1))
		return 0;
	err = c < ld_lap_end(cb, lap - 1) ? -EBUSY : -EAGAIN;
fail:
	/*
	 * A refusal stands only if no writer moved write_off since our
	 * decision (then every value above was current); otherwise a nested
	 * writer opened sb meanwhile, and the caller retries with a fresh view.
	 * This is LTTng's re-read of buf->offset after the commit count in
	 * lib_ring_buffer_try_reserve_slow().
	 */
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

	/*
	 * Only the closer writes these two: the opener may run after it (an
	 * interrupt can fill and close a sub-buffer whose opener has not
	 * written the header yet), and ld_open() leaves them alone.
	 * WRITE_ONCE(): a losing pusher may be reading them (ld_subbuf_records()).
	 */
	WRITE_ONCE(h->data_bytes, off - HDR);
	WRITE_ONCE(h->flags, flags);
	/*
	 * [W1] data_bytes and flags before the tail's commit, which may be
	 * the one that completes the sub-buffer.  Pairs with the smp_rmb()
	 * after the consumer's load of commit[] in ld_consume() [R1] and
	 * after the pusher's in ld_prepare_open() [R2].
	 */
	ld_smp_wmb();
	/* bytes of records are derived from this (ld_get_stats()) */
	ld_local_add(&cb->tails, cb->subbuf_size - off);
	/*
	 * local add: atomic against the writers nesting on this CPU, which
	 * may commit to the same slot; the sum, not the order, decides.
	 * Returning the new value tells exactly one committer that the
	 * sub-buffer became complete.
	 */
	return (ld_local_add_return(&cb->commit[ld_slot(cb, sb)],
				    cb->subbuf_size - off) &
		(cb->subbuf_size - 1)) == 0;
}

/* Write the header of a sub-buffer this writer just opened, commit it. */
static void ld_open(struct ld_cpu_buf *cb, u64 sb, u64 ts)
{
	struct logdev_subbuf_hdr *h = ld_sb_addr(cb, sb);
	int i;

	/* a stale pusher may still be counting the previous lap: *_ONCE */
	WRITE_ONCE(h->magic, LOGDEV_SUBBUF_MAGIC);
	WRITE_ONCE(h->version, LOGDEV_FORMAT_VERSION);
	WRITE_ONCE(h->cpu, (u16)cb->cpu);
	WRITE_ONCE(h->seq, sb);
	WRITE_ONCE(h->first_ts, ts);
	WRITE_ONCE(h->overrun_before, 0);
	/*
	 * Take the refusals not yet reported, each cause into its own field.
	 * Benign race: this runs after the reservation that opened sb, so a
	 * writer nesting in between (which may fill sb and open later
	 * sub-buffers, up to nr - 1 of them) takes the refusals counted
	 * before it, and we take the ones counted after it; and a refusal
	 * counted between two of these exchanges lands in this header or a
	 * later one, by its cause.  A count may thus sit in a header a few
	 * sub-buffers early or late; each exchange moves every count it takes
	 * into exactly one header, so every refusal is reported once, under
	 * its own cause.
	 */
	for (i = 0; i < LD_NR_REFUSALS; i++)
		WRITE_ONCE(*ld_hdr_before(h, i),
			   ld_sat32(ld_local_xchg(&cb->pending[i], 0)));
	/*
	 * [W2] The header before its commit.  Pairs with the smp_rmb() in
	 * ld_consume() [R1] and ld_prepare_open() [R2].  This add never
	 * completes the sub-buffer: the opener's own record (ld_reserve()) or
	 * the flush's close (ld_flush()) is committed after it.
	 */
	ld_smp_wmb();
	ld_local_add(&cb->commit[ld_slot(cb, sb)], HDR);
}

/*
 * Count a refused record under its cause, to be reported by the next
 * ld_open(), and close the open sub-buffer so that no later record goes
 * before that report.  Without the close, a smaller record written after
 * the refusal could still fit the open sub-buffer's tail and be read before
 * the mark of the loss that preceded it (issue 24: in discard mode, the
 * refused next sub-buffer left the current one open).  ftrace pads the tail
 * the same way when it cannot move on (rb_reset_tail()).
 *
 * The close is the flush's: one local cmpxchg on this CPU, so a writer we
 * interrupted retries into a later sub-buffer, with a later time.  If it
 * fails, a nested writer moved on meanwhile and its record is, in time,
 * no earlier than the refusal.  Closing an already empty position does
 * nothing, so a run of refusals closes at most one sub-buffer.  No reader
 * is woken: the wake-up timer polls (logdev_wake.c), and in discard mode a
 * full ring already has every earlier sub-buffer readable.
 */
static void ld_count_lost(struct ld_cpu_buf *cb, int err)
{
	int why = err == -ENOSPC ? LD_DROPPED :
		  err == -E2BIG ? LD_TOO_BIG : LD_NESTING_LOST;
	u64 old = ld_local_read(&cb->write_off);

	ld_local_inc(&cb->refused[why]);
	ld_local_inc(&cb->pending[why]);
	if (ld_off_in(cb, old) != 0 &&
	    ld_local_cmpxchg(&cb->write_off, old,
			     (ld_sb_of(cb, old) + 1) << cb->subbuf_shift) == old)
		ld_close(cb, old, 0);
}

/**
 * ld_lost_nesting() - count a record refused before reaching the ring
 * @cb: the CPU's buffer
 *
 * For callers that keep their own nesting depth (e.g. per-level scratch
 * buffers) and refuse a record before ld_reserve(): it is counted as written
 * and nesting_lost, and reported in a later sub-buffer's nesting_lost_before.
 */
void ld_lost_nesting(struct ld_cpu_buf *cb)
{
	ld_count_lost(cb, -EBUSY);
}

/**
 * ld_reserve_slow() - ld_reserve() when its inline fast path does not apply
 * @cb:            this CPU's buffer (kernel: preemption disabled)
 * @payload_bytes: payload after the 24-byte record header
 * @r:             filled in on success
 *
 * The whole reservation, every case: too big, nesting too deep, the record
 * opens a sub-buffer (closing the previous one, pushing the reader in
 * overwrite mode) or fills it exactly, or a nested writer moved write_off
 * between the fast path's load and its cmpxchg.  The fast path has counted
 * nothing when it calls this.  After LD_RESERVE_TRIES tries, each lost to a
 * writer nesting in between, the record is refused as nesting_lost.
 *
 * Return: as ld_reserve().
 */
int ld_reserve_slow(struct ld_cpu_buf *cb, u32 payload_bytes, struct ld_resv *r)
{
	u32 len = (LOGDEV_REC_HDR_SIZE + payload_bytes + LOGDEV_REC_ALIGN - 1) &
		  ~(u32)(LOGDEV_REC_ALIGN - 1);
	u64 old, new, ts, start, sb = 0;
	unsigned int tries = 0;
	u32 off;
	bool open;
	int err;

	/* counters: local, unordered; a remote snapshot may be mid-update */
	if (unlikely(payload_bytes > cb->subbuf_size ||
		     len > cb->subbuf_size - HDR || len > 0xfff8)) {
		ld_count_lost(cb, -E2BIG);
		return -E2BIG;
	}
	/*
	 * Benign race: in the kernel nesting is a plain int that interrupts
	 * and NMIs on this CPU change under us.  Each nested writer puts it
	 * back before it returns, so a non-atomic ++ or -- interrupted between
	 * its load and its store still stores the right value.  It only
	 * bounds the depth; correctness never depends on it.
	 */
	if (unlikely(++LD_NESTING(cb) > LD_MAX_NESTING)) {
		LD_NESTING(cb)--;
		ld_count_lost(cb, -EBUSY);
		return -EBUSY;
	}

	for (;;) {
		/*
		 * Every try after the first follows a writer that nested
		 * between our load and our cmpxchg (or a push we raced).  One
		 * that nests at every try, such as a probe on what this window
		 * calls, would hold the CPU here for ever: give up, as
		 * ftrace's rb_reserve_next_event() does after 1000 loops.
		 */
		if (unlikely(++tries > LD_RESERVE_TRIES)) {
			LD_NESTING(cb)--;
			ld_count_lost(cb, -EBUSY);
			return -EBUSY;
		}
		/*
		 * The clock is read after write_off, in program order (the
		 * call is opaque to the compiler, local_read() is volatile):
		 * a writer nesting after our load and reserving before our
		 * cmpxchg makes it fail, and we retry with a later time.  So
		 * on one CPU, buffer order is timestamp order.
		 */
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
		/*
		 * The reservation: a local cmpxchg, atomic against every
		 * writer of this CPU (the only ones that move write_off; a
		 * flush from another CPU runs only when none can run).  No
		 * barrier: the consumer does not use write_off to decide what
		 * is readable, only commit[] (ld_peek()).
		 */
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
		/*
		 * This record fills its sub-buffer exactly: we are its closer.
		 * Published with the record by the smp_wmb() in ld_commit()
		 * [W3]; WRITE_ONCE() as in ld_close().
		 */
		struct logdev_subbuf_hdr *h = ld_sb_addr(cb, ld_sb_of(cb, start));

		WRITE_ONCE(h->data_bytes, cb->subbuf_size - HDR);
		WRITE_ONCE(h->flags, 0);
	}
	r->rec = ld_pos_addr(cb, start);
	r->rec->ts = ts;
	/* a losing pusher may walk the lengths (ld_subbuf_records()) */
	WRITE_ONCE(r->rec->len, (u16)len);
	r->sb = ld_sb_of(cb, start);
	r->commit = &cb->commit[ld_slot(cb, r->sb)];
	r->len = len;
	r->sb_mask = cb->subbuf_size - 1;
	return 0;
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
	ld_fill_hdr(r.rec, site, type, ctx, pid, payload_bytes);
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
 * If records were refused after the last sub-buffer was opened, and there
 * is room, an empty sub-buffer is opened and closed to carry those counts
 * in its *_before fields, so the consumer sees every gap in the stream
 * itself (in discard mode with a full buffer the counts wait for a later
 * flush).
 *
 * Return: true if a sub-buffer became complete.
 */
bool ld_flush(struct ld_cpu_buf *cb)
{
	bool done = false;
	u64 old, new, sb;
	int err, i;

	/*
	 * Same local cmpxchg as a reservation (ld_reserve()): on the buffer's
	 * CPU this nests like a writer; elsewhere the caller guarantees that no
	 * writer runs (recording off, synchronize_rcu()).
	 */
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
	/* only a hint: ld_open() takes what is pending then */
	for (i = 0; i < LD_NR_REFUSALS; i++)
		if (ld_local_read(&cb->pending[i]))
			break;
	if (i == LD_NR_REFUSALS)
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
