/* SPDX-License-Identifier: GPL-2.0 */
/*
 * logdev_dump.h - between the crash dump (logdev_dump.c), its walk over a
 * CPU's ring (logdev_dumpwalk.c) and its lines (logdev_dumpmsg.c).
 *
 * Layer: features; included by those three files, and by logdev_calib.c,
 * which walks its own calibration records with the same walker.
 */
#ifndef _LOGDEV_DUMP_H
#define _LOGDEV_DUMP_H

#include <uapi/linux/logdev.h>
#include "logdev_ring.h"

#define LD_DUMP_MSG		512	/* bytes of a record's message */

/* the last message ld_dump_message() made, NUL-terminated */
extern char ld_dump_msg[LD_DUMP_MSG];

void ld_dump_message(const struct logdev_rec_hdr *r);
void ld_dump_msg_init(void);

/**
 * struct ld_dump_cur - one CPU's place in the dump (preallocated at init)
 * @cb:       the CPU's ring
 * @first:    oldest sub-buffer to walk (global number)
 * @end:      one past the newest
 * @sb:       sub-buffer being walked
 * @base:     its address in the ring, or NULL before the first
 * @off:      offset of the next record after the header (bytes)
 * @bytes:    committed record bytes in @sb
 * @rec:      the next record to print, NULL when done
 * @total:    records (not comm records) found by the counting pass
 * @left:     records still to print
 * @prev_ts:  per context level (LOGDEV_CTX_*): timestamp of the previous
 *            record of this CPU and context (ns), if set in @have_prev; the
 *            delta printed is since it, as logdev report's default
 *            (--by context): an interrupt's records never split a task's
 * @have_prev: bit c set: @prev_ts[c] is set (no delta for a stream's very
 *            first record or the first after a loss)
 * @last_bytes: record bytes of the newest sub-buffer (@end - 1) when the
 *            counting pass met it (U32_MAX before): the printing pass reads
 *            no further, so records written after the dump began are not
 *            shown (a writer past its recording check when the dump stopped
 *            recording may still add one)
 * @busy:     sub-buffers skipped: a writer in them had not committed
 * @gone:     sub-buffers skipped: overwritten before the dump reached them
 * @during:   sub-buffers overwritten while the dump read them (their records
 *            from then on are not shown; a line says where)
 * @lost:     losses reported in headers met since the last record printed,
 *            per enum ld_refusal (printed as LOST lines)
 * @bad:      a damaged header or record stopped the walk: what (a note is
 *            printed), else NULL
 * @bad_sb:   the sub-buffer where it stopped
 * @bad_off:  the record offset where it stopped (bytes)
 * @comm_pid: the task named by the CPU's last comm record
 * @comm:     its name
 */
struct ld_dump_cur {
	struct ld_cpu_buf *cb;
	u64 first, end, sb;
	const u8 *base;
	u32 off, bytes;
	const struct logdev_rec_hdr *rec;
	u64 total, left;
	u64 prev_ts[LOGDEV_CTX_MASK + 1];
	u8 have_prev;
	u32 last_bytes;
	u32 busy, gone, during;
	u64 lost[LD_NR_REFUSALS];
	const char *bad;
	u64 bad_sb;
	u32 bad_off;
	u32 comm_pid;
	char comm[LOGDEV_COMM_LEN];
};

/* logdev_dumpmsg.c: the lines; ld_dump_deferred: store them, never print */
extern bool ld_dump_deferred;
__printf(1, 2) void ld_dump_emit(const char *fmt, ...);
__printf(1, 2) void ld_dump_print(const char *fmt, ...);
bool ld_dump_record(int cpu, struct ld_dump_cur *c);

/* logdev_dumpwalk.c */
void ld_dump_reset(struct ld_dump_cur *c);
bool ld_dump_intact(const struct ld_dump_cur *c);
void ld_dump_overwritten(struct ld_dump_cur *c);
void ld_dump_next(struct ld_dump_cur *c);

#endif /* _LOGDEV_DUMP_H */
