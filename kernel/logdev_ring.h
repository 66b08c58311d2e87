/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev ring core: one lockless per-CPU buffer of sub-buffers.
 *
 * Portable C: built into the module (logdev_shim.h maps to local_t, atomics,
 * barriers of the kernel) and into the userspace test harness (the same
 * header maps to C11/GCC atomics).  Nothing here allocates, sleeps or locks.
 *
 * Writers (any context, nesting like a stack; in the kernel with preemption
 * disabled on the buffer's own CPU):
 *     ld_reserve() -> fill the record -> ld_commit()
 * Reader (any other CPU or thread, one consumer per buffer at a time):
 *     ld_consume() copies the oldest whole, fully committed sub-buffer.
 * Flush (on the buffer's CPU, or when no writer can run): ld_flush() closes
 * the partly filled sub-buffer so that the reader can consume it.
 *
 * Design and proof sketch: docs/RING.md.
 */
#ifndef _LOGDEV_RING_H
#define _LOGDEV_RING_H

#include "logdev_shim.h"
#include <uapi/linux/logdev.h>

/* Deepest nesting of writers on one CPU (task, softirq, hardirq, NMI). */
#define LD_MAX_NESTING		4

/*
 * Reservation tries before ld_reserve_slow() refuses a record (-EBUSY,
 * nesting_lost).  A try is lost only to a writer that nested between the
 * load of write_off and the cmpxchg; real interrupts lose a few at most,
 * while one nesting at every try (a probe in the trace clock, say) would
 * livelock the CPU.  64: far above the first, far below a stall.
 */
#define LD_RESERVE_TRIES	64

enum ld_mode {
	LD_MODE_OVERWRITE = 0,	/* flight recorder: newest data wins */
	LD_MODE_DISCARD = 1,	/* producer/consumer: drop new data when full */
};

/*
 * Why a writer refused a record: each cause is counted apart (struct
 * ld_stats, the stats file) and reported apart in a later sub-buffer
 * header (logdev_subbuf_hdr: dropped_before, nesting_lost_before,
 * too_big_before).  The fourth cause of loss, overrun, is not a refusal:
 * the record was stored and then overwritten.
 */
enum ld_refusal {
	LD_DROPPED = 0,		/* discard mode, buffer full (-ENOSPC) */
	LD_NESTING_LOST = 1,	/* nesting too deep, the sub-buffer to enter
				 * still being written, or LD_RESERVE_TRIES
				 * tries lost to nested writers (-EBUSY) */
	LD_TOO_BIG = 2,		/* larger than a sub-buffer (-E2BIG) */
	LD_NR_REFUSALS = 3
};

/**
 * struct ld_stats - per-CPU counters, all in records except @bytes
 * @written:     records writers tried to store while recording
 * @read:        records handed to the consumer by ld_consume()
 * @overrun:     records lost because their sub-buffer was overwritten
 *               (overwrite mode)
 * @dropped:     records refused because the buffer was full (discard mode)
 * @nesting_lost: records refused because nesting was deeper than
 *               LD_MAX_NESTING, the sub-buffer to enter still had an
 *               uncommitted writer, or nested writers took all of
 *               LD_RESERVE_TRIES tries
 * @too_big:     records refused because they cannot fit a sub-buffer
 * @bytes:       bytes of committed records (headers included)
 *
 * Once writers are quiet and everything is consumed:
 *     read + overrun + dropped + nesting_lost + too_big == written
 * and each loss counter equals the sum of its *_before header field over
 * the consumed sub-buffers.
 */
struct ld_stats {
	u64 written;
	u64 read;
	u64 overrun;
	u64 dropped;
	u64 nesting_lost;
	u64 too_big;
	u64 bytes;
};

/**
 * struct ld_cpu_buf - one CPU's ring
 * @mem:        nr_subbufs * subbuf_size bytes, sub-buffer k at mem + k * size
 * @subbuf_size: bytes per sub-buffer, a power of two >= 256
 * @subbuf_shift: log2(subbuf_size)
 * @nr_subbufs: number of sub-buffers in use, a power of two >= 2 (the
 *              largest that fits the memory given to ld_cpu_buf_init())
 * @cpu:        CPU number written into sub-buffer headers
 * @mode:       enum ld_mode; only changed through ld_cpu_buf_reset()
 *
 * The rest is private to logdev_ring.c.
 */
struct ld_cpu_buf {
	void *mem;
	u32 subbuf_size;
	u32 subbuf_shift;
	u32 nr_subbufs;
	u32 nr_shift;
	u32 cpu;
	u32 mode;

	/*
	 * Writer side: changed only by the writers of this CPU (local_t).
	 * The reader on another CPU reads write_off and commit[] (ld_peek())
	 * and the statistics (ld_get_stats()), never writes them.
	 */
	ld_local_t write_off;		/* next free byte, global position */
	ld_local_t *commit;		/* per slot: bytes committed, cumulative over laps */
	ld_local_t refused[LD_NR_REFUSALS];	/* per enum ld_refusal */
	ld_local_t tails;		/* unused bytes of closed sub-buffers (ld_close()) */
	/* refused since the last open, not yet in a header, per enum ld_refusal */
	ld_local_t pending[LD_NR_REFUSALS];
	int nesting;			/* kernel: writer depth on this CPU (plain int, see ld_reserve()) */

	/*
	 * Shared between writers and the reader: read_sb is moved by the
	 * reader's claim and by a writer's push, both cmpxchg(read_sb, r, r + 1),
	 * so exactly one of them wins each sub-buffer.  The counters below it
	 * are added to by the pusher that won and swapped out by the reader
	 * (all but overrun).
	 */
	ld_atomic_t read_sb;		/* oldest sub-buffer not yet consumed */
	ld_atomic_t overrun;
	ld_atomic_t overrun_pending;	/* overwritten, not yet in a header */
	/* *_before counts of overwritten headers, per enum ld_refusal */
	ld_atomic_t carry[LD_NR_REFUSALS];

	/* reader side: changed only by the consumer */
	ld_atomic_t read;
};

/* Bytes of ld_local_t commit counters ld_cpu_buf_init() needs for @nr_subbufs. */
#define LD_COMMIT_ARRAY_BYTES(nr)	((nr) * sizeof(ld_local_t))

int ld_cpu_buf_init(struct ld_cpu_buf *cb, void *mem, ld_local_t *commit,
		    u32 cpu, u32 subbuf_size, u32 nr_subbufs, enum ld_mode mode);
void ld_cpu_buf_reset(struct ld_cpu_buf *cb, enum ld_mode mode);

/**
 * struct ld_resv - a reservation between ld_reserve() and ld_commit()
 * @rec:  the record header; ts and len are filled in, the caller fills the
 *        rest and the payload at (rec + 1)
 * @sb:   global sub-buffer number the record lives in
 * @commit: the commit counter of its slot (ld_commit() adds @len to it)
 * @sb_mask: the buffer's sub-buffer size - 1 (for ld_commit(), loaded once)
 * @len:  the record's length in bytes, header and padding included (at
 *        most 0xfff8: ld_reserve_slow())
 * @closed_prev: this reservation closed the previous sub-buffer (so it may
 *        have become complete: ld_commit() reports it)
 */
struct ld_resv {
	struct logdev_rec_hdr *rec;
	u64 sb;
	ld_local_t *commit;
	u32 sb_mask;
	u16 len;
	bool closed_prev;
};

/* position helpers: sub-buffer of a position, offset in it, slot, addresses */
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

/* slot and offset at once: nr_subbufs and subbuf_size are powers of two */
static inline void *ld_pos_addr(const struct ld_cpu_buf *cb, u64 pos)
{
	return (char *)cb->mem +
	       (pos & (((u64)cb->nr_subbufs << cb->subbuf_shift) - 1));
}


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

int ld_consume(struct ld_cpu_buf *cb, void *dst);
bool ld_readable(struct ld_cpu_buf *cb);
bool ld_flush(struct ld_cpu_buf *cb);
void ld_get_stats(struct ld_cpu_buf *cb, struct ld_stats *st);
u32 ld_subbuf_records(const void *subbuf, u32 subbuf_size);

/* Looking at the buffer without consuming it (the crash dump) */
void ld_peek_range(struct ld_cpu_buf *cb, u64 *first, u64 *end);
int ld_peek_subbuf(struct ld_cpu_buf *cb, u64 sb, const void **subbuf,
		   u32 *data_bytes);

#endif /* _LOGDEV_RING_H */
