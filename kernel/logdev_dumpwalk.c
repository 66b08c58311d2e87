// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_dumpwalk.c - the crash dump's walk over one CPU's ring
 * (logdev_dump.c): committed records only, bounded by the sub-buffers'
 * data bytes and checked record lengths, the newest sub-buffer read no
 * further than the counting pass found it, and every sub-buffer checked
 * after it was read for having been overwritten meanwhile (a writer past
 * its recording check when the dump began).  Any context, no lock.
 *
 * Layer: features; calls the ring (ld_peek_subbuf()); used by
 * logdev_dump.c only (logdev_dump.h).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include "logdev_core.h"
#include "logdev_dump.h"

void ld_dump_reset(struct ld_dump_cur *c)
{
	c->sb = c->first;
	c->base = NULL;
	c->off = 0;
	c->bytes = 0;
	c->rec = NULL;
	c->have_prev = 0;
	c->busy = 0;
	c->gone = 0;
	c->during = 0;
	memset(c->lost, 0, sizeof(c->lost));
	c->bad = NULL;
	c->comm_pid = 0;
	c->comm[0] = '\0';
}

/*
 * Is what the dump read of sub-buffer c->sb still that sub-buffer's?  A
 * writer stores into a slot again only after it has seen read_sb move past
 * the sub-buffer there (its own push in overwrite mode, a consumer's claim
 * in discard mode: [A1], [C2] + [M1] in logdev_ring.c), so while read_sb
 * is not past c->sb, no byte of it has changed.  The seqlock pattern: the
 * loads of the data before this load of read_sb.  A writer past its
 * recording check when the dump stopped recording may still open a
 * sub-buffer and push the oldest one out: this is how the dump notices.
 */
bool ld_dump_intact(const struct ld_dump_cur *c)
{
	/* [R3] pairs with the writer's push or acquire before its stores */
	smp_rmb();
	return (u64)ld_atomic_read(&c->cb->read_sb) <= c->sb;
}

/*
 * Enter sub-buffer c->sb: true if it can be walked.  A sub-buffer with an
 * uncommitted writer or already overwritten is skipped (counted); a damaged
 * header stops the CPU's walk.
 */
static bool ld_dump_enter(struct ld_dump_cur *c)
{
	const struct logdev_subbuf_hdr *h;
	const void *p;
	u32 bytes = 0;
	int ret = ld_peek_subbuf(c->cb, c->sb, &p, &bytes);

	if (c->sb + 1 == c->end) {
		/* the newest: the counting pass fixes how much of it is shown */
		if (c->last_bytes == U32_MAX)
			c->last_bytes = ret ? 0 : bytes;
		bytes = min(bytes, c->last_bytes);
	}
	if (ret == -EBUSY) {
		c->busy++;
		return false;
	}
	if (ret == -ENODATA || (ret && !ld_dump_intact(c))) {
		c->gone++;
		return false;
	}
	if (ret) {
		c->bad = "damaged sub-buffer header";
		c->bad_sb = c->sb;
		c->bad_off = 0;
		return false;
	}
	h = p;
	c->base = p;
	c->bytes = bytes;
	c->off = 0;
	c->lost[LD_DROPPED] += READ_ONCE(h->dropped_before);
	c->lost[LD_NESTING_LOST] += READ_ONCE(h->nesting_lost_before);
	c->lost[LD_TOO_BIG] += READ_ONCE(h->too_big_before);
	return true;
}

/*
 * Sub-buffer c->sb was consumed by a reader (and so may be reused) or
 * overwritten while the dump read it: leave it (the
 * printing pass says so where it was) and go on with the next.
 */
void ld_dump_overwritten(struct ld_dump_cur *c)
{
	c->during++;
	c->base = NULL;
	c->sb++;
}

/*
 * Move to the next record that is not a comm record (comm records name the
 * CPU's task: kept in c->comm).  Bounded: every step moves c->off forward
 * by a checked length or c->sb to the next sub-buffer, up to c->end.
 */
void ld_dump_next(struct ld_dump_cur *c)
{
	const struct logdev_rec_hdr *r;
	u32 len, n;

	c->rec = NULL;
	while (!c->bad && c->sb < c->end) {
		if (!c->base && !ld_dump_enter(c)) {
			if (c->bad)
				return;
			c->sb++;
			continue;
		}
		if (c->off + LOGDEV_REC_HDR_SIZE > c->bytes) {
			c->base = NULL;
			c->sb++;
			continue;
		}
		r = (const void *)(c->base + LOGDEV_SUBBUF_HDR_SIZE + c->off);
		len = READ_ONCE(r->len);
		if (len < LOGDEV_REC_HDR_SIZE || (len & (LOGDEV_REC_ALIGN - 1)) ||
		    c->off + len > c->bytes ||
		    r->arg_bytes > len - LOGDEV_REC_HDR_SIZE) {
			if (!ld_dump_intact(c)) {
				ld_dump_overwritten(c);
				continue;
			}
			c->bad = "damaged record";
			c->bad_sb = c->sb;
			c->bad_off = c->off;
			return;
		}
		c->off += len;
		if (r->type == LOGDEV_REC_COMM) {
			n = min_t(u32, r->arg_bytes, LOGDEV_COMM_LEN - 1);
			memcpy(c->comm, r + 1, n);
			c->comm[n] = '\0';
			c->comm_pid = r->pid;
			if (!ld_dump_intact(c)) {
				c->comm_pid = 0;
				ld_dump_overwritten(c);
			}
			continue;
		}
		c->rec = r;
		return;
	}
}
