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
 *
 * This header: the buffer, its init and reset, the read side
 * (logdev_ring_read.c); writers include logdev_ring_write.h (the inline
 * fast path and the rest of the write side, logdev_ring.c), which
 * includes this one.
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
/*
 * The shift counts below are masked to 63, which they never exceed: x86's
 * shifts mask them so, and compilers drop the & there, but a kernel built
 * with CONFIG_UBSAN_SHIFT (Debian's 7.3) otherwise checks each shift count
 * on the write path (a compare and a branch).
 */
static inline u64 ld_sb_of(const struct ld_cpu_buf *cb, u64 pos)
{
	return pos >> (cb->subbuf_shift & 63);
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
	       (pos & (((u64)cb->nr_subbufs << (cb->subbuf_shift & 63)) - 1));
}

/* ---------------------------------------- the ring core's own (logdev_ring*.c) */

/* Bytes that must be committed to a slot before lap @lap of it is complete */
static inline u64 ld_lap_end(const struct ld_cpu_buf *cb, u64 lap)
{
	return (lap + 1) << cb->subbuf_shift;
}

/* A count for a 32-bit header field: saturated, never wrapped */
static inline u32 ld_sat32(u64 v)
{
	return v > 0xffffffffULL ? 0xffffffffU : (u32)v;
}

/* The header field that reports refusals of cause @why (enum ld_refusal) */
static inline __u32 *ld_hdr_before(struct logdev_subbuf_hdr *h, int why)
{
	switch (why) {
	case LD_DROPPED:
		return &h->dropped_before;
	case LD_NESTING_LOST:
		return &h->nesting_lost_before;
	default:
		return &h->too_big_before;
	}
}

/* ---------------------------------------------- init, reader, stats, peeking */

int ld_consume(struct ld_cpu_buf *cb, void *dst);
bool ld_readable(struct ld_cpu_buf *cb);
void ld_get_stats(struct ld_cpu_buf *cb, struct ld_stats *st);
void ld_get_positions(struct ld_cpu_buf *cb, u64 *write_off, u64 *read_sb);
u32 ld_subbuf_records(const void *subbuf, u32 subbuf_size);

/* Looking at the buffer without consuming it (the crash dump) */
void ld_peek_range(struct ld_cpu_buf *cb, u64 *first, u64 *end);
int ld_peek_subbuf(struct ld_cpu_buf *cb, u64 sb, const void **subbuf,
		   u32 *data_bytes);

#endif /* _LOGDEV_RING_H */
