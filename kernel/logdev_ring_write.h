/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_ring_write.h - the ring's write side: the inline fast path
 * (ld_try_reserve(), ld_reserve(), ld_fill_hdr(), ld_commit()) and the
 * writer functions of logdev_ring.c (ld_reserve_slow(), ld_write(),
 * ld_flush(), ld_lost_nesting()).
 *
 * Layer: ring (portable, as logdev_ring.h); included by the writers: the
 * recording core (logdev_core.h), logdev_ring.c, tests/ring, bench/.
 */
#ifndef _LOGDEV_RING_WRITE_H
#define _LOGDEV_RING_WRITE_H

#include "logdev_ring.h"

int ld_reserve_slow(struct ld_cpu_buf *cb, u32 payload_bytes, struct ld_resv *r);

/*
 * Bytes 8-15 of a record header (site, len, type, ctx) as one word, as an
 * 8-byte load of them would give on this CPU (any byte order): the header
 * word ld_try_reserve_hdr() stores in one go.
 */
static __always_inline u64 ld_hdr_word1(u32 site, u16 len, u8 type, u8 ctx)
{
	struct {
		u32 site;
		u16 len;
		u8 type;
		u8 ctx;
	} w = { site, len, type, ctx };
	u64 v;

	BUILD_BUG_ON(sizeof(w) != sizeof(v));
	BUILD_BUG_ON(offsetof(struct logdev_rec_hdr, site) != 8 ||
		     offsetof(struct logdev_rec_hdr, len) != 12 ||
		     offsetof(struct logdev_rec_hdr, type) != 14 ||
		     offsetof(struct logdev_rec_hdr, ctx) != 15);
	memcpy(&v, &w, sizeof(v));
	return v;
}

/* Bytes 16-23 of a record header (pid, arg_bytes) as one word (see above). */
static __always_inline u64 ld_hdr_word2(u32 pid, u32 arg_bytes)
{
	u32 w[2] = { pid, arg_bytes };
	u64 v;

	BUILD_BUG_ON(offsetof(struct logdev_rec_hdr, pid) != 16 ||
		     offsetof(struct logdev_rec_hdr, arg_bytes) != 20);
	memcpy(&v, w, sizeof(v));
	return v;
}

/* len of a ld_hdr_word1() word */
static __always_inline u16 ld_hdr_word1_len(u64 hdr1)
{
	u16 w[4];

	memcpy(w, &hdr1, sizeof(hdr1));
	return w[2];
}

/* arg_bytes of a ld_hdr_word2() word */
static __always_inline u32 ld_hdr_word2_bytes(u64 hdr2)
{
	u32 w[2];

	memcpy(w, &hdr2, sizeof(hdr2));
	return w[1];
}

/*
 * Header bytes 8-23 of reservation @rec (ts and len stored, as by
 * ld_reserve()) from ld_hdr_word1() and ld_hdr_word2() words: len in one
 * store with its aligned word, as ld_reserve() stores it alone (a losing
 * pusher may walk the lengths: ld_subbuf_records()).
 */
static __always_inline void ld_store_hdr_words(struct logdev_rec_hdr *rec, u64 hdr1,
					       u64 hdr2)
{
	WRITE_ONCE(*(u64 *)&rec->site, hdr1);
	*(u64 *)&rec->pid = hdr2;
}

/* The record length of @payload_bytes: header, payload, padding to 8 bytes. */
static __always_inline u32 ld_rec_len(u32 payload_bytes)
{
	return (LOGDEV_REC_HDR_SIZE + payload_bytes + LOGDEV_REC_ALIGN - 1) &
	       ~(u32)(LOGDEV_REC_ALIGN - 1);
}

/*
 * ld_try_reserve() and ld_try_reserve_hdr(): @hdr1, @hdr2 and @whole_hdr
 * (a constant) are ld_try_reserve_hdr()'s, which takes the length from
 * @hdr1 (so that its caller need not keep it).
 */
static __always_inline bool __ld_try_reserve(struct ld_cpu_buf *cb, u32 payload_bytes,
					     struct ld_resv *r, u64 hdr1, u64 hdr2,
					     const bool whole_hdr)
{
	u32 len, sb_size, off;
	u64 old, ts;

	if (!whole_hdr) {
		/* a bound for the sums below; the slow path checks the limits */
		if (unlikely(payload_bytes >= 0x10000))
			return false;
		len = ld_rec_len(payload_bytes);
	}
	/* nesting: see ld_reserve_slow(); only a bound on the depth */
	if (unlikely(++LD_NESTING(cb) > LD_MAX_NESTING))
		goto fail;
	/* [L1] as in ld_reserve_slow(): the clock after write_off */
	old = ld_local_read(&cb->write_off);
	ts = ld_clock_now();
	if (whole_hdr)
		len = ld_hdr_word1_len(hdr1);
	sb_size = cb->subbuf_size;
	off = (u32)old & (sb_size - 1);
	if (likely(off != 0 && off + len < sb_size)) {
		/* all from old, before the cmpxchg that confirms it */
		struct logdev_rec_hdr *rec = ld_pos_addr(cb, old);
		u64 sb = ld_sb_of(cb, old);
		ld_local_t *commit = &cb->commit[ld_slot(cb, sb)];

		LD_TEST_HOOK(0);
		if (likely(ld_local_cmpxchg(&cb->write_off, old, old + len) == old)) {
			rec->ts = ts;
			/* a losing pusher may walk the lengths (ld_subbuf_records()) */
			if (whole_hdr)
				ld_store_hdr_words(rec, hdr1, hdr2);
			else
				WRITE_ONCE(rec->len, (u16)len);
			r->rec = rec;
			r->sb = sb;
			r->commit = commit;
			r->len = len;
			r->sb_mask = sb_size - 1;
			r->closed_prev = false;
			return true;
		}
	}
fail:
	LD_NESTING(cb)--;
	return false;
}

/**
 * ld_try_reserve() - ld_reserve()'s inline fast path alone
 * @cb:            this CPU's buffer (kernel: preemption disabled)
 * @payload_bytes: payload after the 24-byte record header
 * @r:             filled in on success
 *
 * The common case only: a record that fits strictly inside the open
 * sub-buffer (no open, no close, no push) at a nesting depth allowed, with
 * no nested writer moving write_off between our load and our cmpxchg.  It
 * is ld_reserve_slow()'s first case with its checks folded: the same load
 * of write_off, clock read after it, local cmpxchg [L1], and the same
 * stores (docs/RING.md, "The writer").  @r's address is not passed on, so
 * a caller that inlines this can keep the reservation in registers.
 *
 * Return: true if @r holds a reservation (as from ld_reserve()); false if
 * nothing changed and ld_reserve_slow() must decide.
 */
static __always_inline bool ld_try_reserve(struct ld_cpu_buf *cb, u32 payload_bytes,
					   struct ld_resv *r)
{
	return __ld_try_reserve(cb, payload_bytes, r, 0, 0, false);
}

/**
 * ld_try_reserve_hdr() - ld_try_reserve() that also stores the whole header
 * @cb:   this CPU's buffer (kernel: preemption disabled)
 * @r:    filled in on success
 * @hdr1: header bytes 8-15: ld_hdr_word1() of the record's site, type, ctx
 *        and len, ld_rec_len() of its payload bytes (at most 0xfff8)
 * @hdr2: header bytes 16-23: ld_hdr_word2() of its pid and payload bytes
 *
 * For a writer whose header is known before it reserves: three stores
 * instead of ld_fill_hdr()'s five, and the header comes into the clock
 * call as two words instead of five values (fewer callee-saved registers
 * and stack slots around it).
 *
 * Return: as ld_try_reserve(); on true the header is complete.
 */
static __always_inline bool ld_try_reserve_hdr(struct ld_cpu_buf *cb, struct ld_resv *r,
					       u64 hdr1, u64 hdr2)
{
	return __ld_try_reserve(cb, 0, r, hdr1, hdr2, true);
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
 * ld_try_reserve() inline; everything it leaves, ld_reserve_slow(), which
 * starts over.
 *
 * Return: 0; -E2BIG if the record cannot fit a sub-buffer (counted as
 * too_big), -ENOSPC (discard mode, buffer full: counted as dropped) or
 * -EBUSY (nesting too deep, the sub-buffer to enter still being written,
 * or LD_RESERVE_TRIES tries lost to nested writers: counted as
 * nesting_lost).  Every refusal counts as written and under its
 * cause, and is reported in a later sub-buffer header's field of that
 * cause (dropped_before, too_big_before, nesting_lost_before).
 */
static __always_inline int ld_reserve(struct ld_cpu_buf *cb, u32 payload_bytes,
				      struct ld_resv *r)
{
	if (likely(ld_try_reserve(cb, payload_bytes, r)))
		return 0;
	return ld_reserve_slow(cb, payload_bytes, r);
}

/*
 * The header fields a reservation leaves to its writer (ld_reserve() stores
 * ts and len): call site, enum logdev_rec_type, context flags, task, and the
 * payload's length in bytes.
 */
static __always_inline void ld_fill_hdr(struct logdev_rec_hdr *rec, u32 site, u8 type,
					u8 ctx, u32 pid, u32 arg_bytes)
{
	rec->site = site;
	rec->type = type;
	rec->ctx = ctx;
	rec->pid = pid;
	rec->arg_bytes = arg_bytes;
}

/**
 * ld_commit() - make a reserved record count as written
 * @cb: the buffer ld_reserve() was called on (same CPU, same context)
 * @r:  the reservation
 *
 * Return: true if a sub-buffer became complete (readable) through this
 * reservation or commit, so a sleeping reader may want waking.
 */
static __always_inline bool ld_commit(struct ld_cpu_buf *cb, struct ld_resv *r)
{
	bool done;

	LD_TEST_HOOK(1);
	/*
	 * [W3] The record (header and payload, filled by the caller, and
	 * data_bytes if ld_reserve() made us the closer) before its commit.
	 * Pairs with the smp_rmb() after the consumer's load of commit[] in
	 * ld_consume() [R1] and after the pusher's in ld_prepare_open() [R2].
	 * As in LTTng's lib_ring_buffer_commit(): write the data, smp_wmb(),
	 * add to the sub-buffer's commit count.
	 */
	ld_smp_wmb();
	/*
	 * Commits of nested writers to one slot may land in any order; the
	 * sub-buffer is complete when the sum reaches the lap's end, which
	 * needs every reservation in it committed, the outermost included.
	 */
	done = (ld_local_add_return(r->commit, r->len) & r->sb_mask) == 0;
	LD_NESTING(cb)--;
	return done || r->closed_prev;
}
void ld_lost_nesting(struct ld_cpu_buf *cb);
int ld_write(struct ld_cpu_buf *cb, u32 site, u8 type, u8 ctx, u32 pid,
	     const void *payload, u32 payload_bytes);
bool ld_flush(struct ld_cpu_buf *cb);

#endif /* _LOGDEV_RING_WRITE_H */
