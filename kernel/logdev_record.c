// SPDX-License-Identifier: GPL-2.0
/*
 * logdev_record.c - the recording path: the edprint() back end
 * (__logdev_print, __logdev_words, __logdev_reserve/__logdev_commit),
 * logdev_write_raw() and the probes' ld_write_print().  A printf record's
 * arguments are packed by logdev_vbin.c.
 *
 * Layer: recording core (logdev_core.h); calls the site table, the per-CPU
 * state, the vbin packer and the ring.  Preemption disabled, no locks, no
 * allocation; safe in NMI and on PREEMPT_RT.  Buffers are only
 * replaced or reset while recording is off and after synchronize_rcu()
 * (logdev_buffers.c), so a writer never sees a buffer change under it.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/smp.h>
#include <linux/sched.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/jump_label.h>
#ifdef CONFIG_X86_64
#include <linux/kasan-checks.h>
#include <asm/word-at-a-time.h>
#endif
#include "logdev_core.h"

DEFINE_STATIC_KEY_FALSE(logdev_key);
EXPORT_SYMBOL_GPL(logdev_key);

/*
 * Writers record only while true.  Loaded with acquire (ld_recording()) so
 * that a writer sees a reset buffer whole once it sees recording back on:
 * pairs with the smp_mb() at the end of ld_cpu_buf_reset() (M0 in
 * docs/RING.md) followed by the store of true in logdev_buffers.c.
 */
bool logdev_recording;

static __always_inline bool ld_recording(void)
{
	return smp_load_acquire(&logdev_recording);
}

static __always_inline u8 ld_ctx(void)
{
	if (in_nmi())
		return LOGDEV_CTX_NMI;
	if (in_hardirq())
		return LOGDEV_CTX_HARDIRQ;
	if (in_serving_softirq())
		return LOGDEV_CTX_SOFTIRQ;
	return LOGDEV_CTX_TASK;
}

/*
 * The context of the code a kprobe's breakpoint (int3) interrupted, from its
 * handler: x86's exc_int3() runs kprobe_int3_handler() between
 * irqentry_nmi_enter() and irqentry_nmi_exit(), and __nmi_enter() adds
 * exactly NMI_OFFSET + HARDIRQ_OFFSET to preempt_count (6.1, 6.12, 7.3:
 * include/linux/hardirq.h); nothing else on that path changes it.  So one
 * NMI and one hardirq level are the breakpoint's: an NMI count above one is
 * a real NMI under it, a hardirq count above one a real hardirq.  The
 * softirq bits are not touched by the NMI entry (on PREEMPT_RT
 * in_serving_softirq() reads current->softirq_disable_cnt instead, which
 * the entry does not touch either), so in_serving_softirq() still tells the
 * interrupted code's.  Only for a caller that knows it runs under the
 * breakpoint (ld_probe_by_int3(), logdev_probes.h).
 */
static __always_inline u8 ld_ctx_under_int3(void)
{
	unsigned long pc = preempt_count();

	if ((pc & NMI_MASK) > NMI_OFFSET)
		return LOGDEV_CTX_NMI;
	if ((pc & HARDIRQ_MASK) > HARDIRQ_OFFSET)
		return LOGDEV_CTX_HARDIRQ;
	if (in_serving_softirq())
		return LOGDEV_CTX_SOFTIRQ;
	return LOGDEV_CTX_TASK;
}

/*
 * A record's context as given to the writers below: LD_CTX_HERE (taken
 * where it is needed, ld_ctx(); a constant, so the fast paths are
 * unchanged) or an enum logdev_ctx worked out by the caller.
 */
#define LD_CTX_HERE	0xff

static __always_inline u8 ld_ctx_of(u8 ctx)
{
	return ctx == LD_CTX_HERE ? ld_ctx() : ctx;
}

/*
 * Write a LOGDEV_REC_COMM record of @pid with @comm (as read from current),
 * then remember it as this CPU's last.  The comm is copied without
 * get_task_comm()'s task_lock (a spinlock: not in NMI), as ftrace's
 * trace_save_cmdline() does: comm is always NUL-terminated (set with
 * strscpy_pad()), and a rename racing with the copy at worst gives a mix
 * of the old and new names, cut at the first NUL here so that the
 * payload is NUL-padded.  Any context; nested writers on this CPU have the
 * same current, so they agree on @pid and only repeat the record.
 */
static noinline void notrace ld_write_comm(struct ld_cpu_buf *cb, u32 pid,
					   u64 comm0, u64 comm1, u8 ctx)
{
	struct ld_pcpu *pc = this_cpu_ptr(ld_pcpu);
	struct ld_resv r;
	char *p;
	int i;

	local_inc(&pc->comm_written);
	if (unlikely(ld_reserve(cb, LOGDEV_COMM_LEN, &r))) {
		/*
		 * Refused (discard mode full, nesting): do not try again
		 * before a record is stored, or a full buffer would see two
		 * refusals per record.  The refusal closed the open
		 * sub-buffer (ld_count_lost()), so the next record stored goes
		 * to a later one and, as no sub-buffer holds this comm record,
		 * names the task after it (ld_commit_rec()).
		 */
		pc->comm_pid = pid;
		pc->comm[0] = comm0;
		pc->comm[1] = comm1;
		WRITE_ONCE(pc->comm_sb, LD_COMM_SB_NONE);
		return;
	}
	ld_fill_hdr(r.rec, 0, LOGDEV_REC_COMM, ld_ctx_of(ctx), pid, LOGDEV_COMM_LEN);
	p = (char *)(r.rec + 1);
	memcpy(p, &comm0, sizeof(comm0));
	memcpy(p + sizeof(comm0), &comm1, sizeof(comm1));
	for (i = 0; i < LOGDEV_COMM_LEN - 1 && p[i]; i++)
		;
	memset(p + i, 0, LOGDEV_COMM_LEN - i);
	/* LOGDEV_COMM_LEN is a multiple of LOGDEV_REC_ALIGN: no padding */
	BUILD_BUG_ON(LOGDEV_COMM_LEN % LOGDEV_REC_ALIGN);
	ld_commit(cb, &r);
	pc->comm_pid = pid;
	pc->comm[0] = comm0;
	pc->comm[1] = comm1;
	WRITE_ONCE(pc->comm_sb, r.sb);
}

/*
 * Before a record of @pid (current's): a comm record if this CPU's last
 * one was of another task or name, or if it went stale (ld_comm_stale():
 * a reset or a flush).  The fast path compares 3 words, each one
 * %gs-relative load of this CPU's ld_pcpu; a record that went
 * to another sub-buffer than the last comm record is named after it
 * (ld_commit_rec()), so that every sub-buffer names the tasks of its
 * records, also after older ones were overwritten.
 */
static __always_inline void ld_note_task(struct ld_cpu_buf *cb, u32 pid, u8 ctx)
{
	u64 comm0, comm1;	/* two scalars, not an array: no stack canary */

	BUILD_BUG_ON(sizeof(current->comm) != 2 * sizeof(u64));
	memcpy(&comm0, current->comm, sizeof(comm0));
	memcpy(&comm1, current->comm + sizeof(comm0), sizeof(comm1));
	if (unlikely(pid != this_cpu_read(ld_pcpu->comm_pid) ||
		     comm0 != this_cpu_read(ld_pcpu->comm[0]) ||
		     comm1 != this_cpu_read(ld_pcpu->comm[1])))
		ld_write_comm(cb, pid, comm0, comm1, ctx);
}

/*
 * A record of this CPU went to sub-buffer @sb, another one than the last
 * comm record (it opened it, or a flush or another writer did; a reset
 * leaves none): name its task there now, after it.  The reader takes the
 * first name of a pid after a record when none is before it
 * (lgd_comm_at()), so the sub-buffer names the task even when the older
 * ones are overwritten.  Only a record that completes its sub-buffer, or a
 * comm record refused, leaves it unnamed there (ld_write_comm() then names
 * it in the next).  @sb is compared again: an interrupt may have named the
 * task meanwhile.
 */
static noinline void notrace ld_comm_after(struct ld_cpu_buf *cb, u64 sb, u8 ctx)
{
	u64 comm0, comm1;

	if (sb == this_cpu_read(ld_pcpu->comm_sb))
		return;
	memcpy(&comm0, current->comm, sizeof(comm0));
	memcpy(&comm1, current->comm + sizeof(comm0), sizeof(comm1));
	ld_write_comm(cb, current->pid, comm0, comm1, ctx);
}

/*
 * ld_commit() of a record of this CPU's writers (not a comm record), then
 * the rare case: the record went to another sub-buffer than this CPU's
 * last comm record (name its task in it, out of line: ld_comm_after()).
 * The sub-buffer is compared once, here: the fast path's comm check before
 * the reservation compares pid and comm only (ld_note_task()).  A writer
 * never wakes a reader, not even through an irq_work: its self-IPI and
 * try_to_wake_up() ran inside the caller, in the probed code's measured
 * pair (issue 26, item 4); the sleeping reader's own timer polls instead
 * (logdev_wake.c).  @ctx: the record's context (LD_CTX_HERE: ld_ctx()).
 */
static __always_inline void ld_commit_rec(struct ld_cpu_buf *cb, struct ld_resv *r,
					  u8 ctx)
{
	u64 sb = r->sb;

	ld_commit(cb, r);
	if (unlikely(sb != this_cpu_read(ld_pcpu->comm_sb)))
		ld_comm_after(cb, sb, ctx);
}

/**
 * __logdev_print() - record one edprint() hit; use edprint() instead
 * @site: the call site (assigned an id on first use)
 * @fmt:  the site's format
 *
 * Packs the arguments with ld_vbin_pack() (the record format's layout,
 * whatever the kernel's vbin_printf() does) into a per-CPU scratch buffer
 * of the current nesting level and stores a LOGDEV_REC_PRINT record.  The
 * scratch buffer is twice LOGDEV_MAX_PAYLOAD: the packer loses data only
 * at the end of its buffer (a string whose NUL would be the last byte is
 * skipped, a pointer text is cut there), so every record of at most
 * LOGDEV_MAX_PAYLOAD bytes comes out exact.
 * Plain %p, %pK and %pe pointers are stored as the kernel's "%p" prints
 * them (ld_hash_ptr()).
 * Arguments beyond LOGDEV_MAX_PAYLOAD bytes are cut (ld_vbin_walk()) and the
 * record is flagged LOGDEV_REC_F_CUT.  The scratch buffers are all zero
 * between calls (each call clears what the packer and it wrote), so
 * alignment gaps the packer skips are zero: every byte of the record
 * comes from this call.  Any context, NMI included.
 */
void notrace __logdev_print(struct logdev_site *site, const char *fmt, ...)
{
	struct ld_cpu_buf *cb;
	struct ld_pcpu *pc;
	struct ld_resv r;
	va_list ap, aq;
	int depth, words;
	u32 id, bytes, pad, used, pid;
	u32 *scratch;
	u8 *buf;
	u8 flags = 0;

	preempt_disable_notrace();
	if (unlikely(!ld_recording()))
		goto out;
	pc = this_cpu_ptr(ld_pcpu);
	cb = ld_this_cb();
	id = ld_site_id(site);

	depth = pc->depth;
	if (unlikely(depth >= LD_MAX_NESTING)) {
		ld_lost_nesting(cb);
		goto out;
	}
	pc->depth = depth + 1;
	barrier();	/* an interrupt now sees our level taken */

	scratch = this_cpu_ptr(ld_scratch)->buf[depth];
	buf = (u8 *)scratch;
	va_start(ap, fmt);
	va_copy(aq, ap);
	words = ld_vbin_pack(scratch, LD_SCRATCH_WORDS, fmt, ap);
	va_end(ap);
	used = words > 0 ? (u32)words * sizeof(u32) : 0;
	if (likely(used <= LOGDEV_MAX_PAYLOAD)) {
		bytes = used;
		/* a 'p' anywhere: maybe a %p to hash (ld_vbin_walk()) */
		if (strchr(fmt, 'p'))
			ld_vbin_walk(buf, fmt, aq, bytes);
	} else {
		bytes = ld_vbin_walk(buf, fmt, aq, LOGDEV_MAX_PAYLOAD);
		used = min_t(u32, used, LD_SCRATCH_WORDS * sizeof(u32));
		flags = LOGDEV_REC_F_CUT;
	}
	va_end(aq);

	pid = current->pid;
	ld_note_task(cb, pid, LD_CTX_HERE);
	if (likely(!ld_reserve(cb, bytes, &r))) {
		ld_fill_hdr(r.rec, id, LOGDEV_REC_PRINT, ld_ctx() | flags, pid, bytes);
		memcpy(r.rec + 1, buf, bytes);
		pad = r.rec->len - LOGDEV_REC_HDR_SIZE - bytes;
		if (pad)
			memset((char *)(r.rec + 1) + bytes, 0, pad);
		ld_commit_rec(cb, &r, LD_CTX_HERE);
	}
	memset(buf, 0, used);	/* the next call at this level starts from zeros */

	barrier();
	pc->depth = depth;
out:
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__logdev_print);

/**
 * __logdev_reserve() - reserve a LOGDEV_REC_PRINT_SLOTS record; edprint() only
 * @site:  the call site (assigned an id on first use)
 * @bytes: payload bytes
 * @res:   filled in for __logdev_commit()
 *
 * Fills in the record header; the caller stores the payload and calls
 * __logdev_commit().  Preemption stays disabled in between.  Any context,
 * NMI included (the ring core nests).
 *
 * Return: the payload address, or NULL if recording is off or the record
 * was lost (counted by the ring core).
 */
notrace void *__logdev_reserve(struct logdev_site *site, u32 bytes, struct logdev_resv *res)
{
	struct ld_resv *r = (struct ld_resv *)res;
	struct logdev_rec_hdr *rec;
	struct ld_cpu_buf *cb;
	u32 id, pid;

	BUILD_BUG_ON(sizeof(struct ld_resv) > sizeof(struct logdev_resv));
	BUILD_BUG_ON(__EDPRINT_SLOTS_MAX != LOGDEV_MAX_PAYLOAD);
	preempt_disable_notrace();
	if (unlikely(!ld_recording()))
		goto out;
	cb = ld_this_cb();
	id = ld_site_id(site);
	pid = current->pid;
	ld_note_task(cb, pid, LD_CTX_HERE);
	if (unlikely(ld_reserve(cb, bytes, r)))
		goto out;
	rec = r->rec;	/* once: the stores below may alias *r for the compiler */
	ld_fill_hdr(rec, id, LOGDEV_REC_PRINT_SLOTS, ld_ctx(), pid, bytes);
	/*
	 * The padding to the record's 8-byte length, zeroed now so that
	 * __logdev_commit() has nothing to do: one aligned 8-byte store over
	 * the last payload word, which the caller's stores then overwrite.
	 */
	if (bytes & (LOGDEV_REC_ALIGN - 1))
		*(u64 *)((u8 *)(rec + 1) + (bytes & ~(LOGDEV_REC_ALIGN - 1))) = 0;
	return rec + 1;
out:
	preempt_enable_notrace();
	return NULL;
}
EXPORT_SYMBOL_GPL(__logdev_reserve);

/**
 * __logdev_commit() - commit a record reserved by __logdev_reserve()
 * @res: the reservation
 */
void notrace __logdev_commit(struct logdev_resv *res)
{
	struct ld_resv *r = (struct ld_resv *)res;

	BUILD_BUG_ON(LOGDEV_REC_ALIGN != sizeof(u64));
	/* the padding was zeroed by __logdev_reserve() */
	ld_commit_rec(ld_this_cb(), r, LD_CTX_HERE);
	preempt_enable_notrace();
}
EXPORT_SYMBOL_GPL(__logdev_commit);

/*
 * __logdev_words()'s payload at reservation @r, whose header is stored:
 * the words @w0..@w3 (those past @bytes' 8-byte rounding are not stored;
 * the bytes of the last word past @bytes are the record's padding, zero
 * from EDP_WSTORE), then the commit.  @nw: how many words the caller has
 * (1 or 4, a constant).
 */
static __always_inline void ld_words_fill(struct ld_cpu_buf *cb,
					  struct ld_resv *r, u32 bytes,
					  u64 w0, u64 w1, u64 w2, u64 w3,
					  const unsigned int nw)
{
	u64 *p = (u64 *)(r->rec + 1);	/* 8-aligned: 24-byte header */

	if (nw == 1) {
		if (bytes)
			p[0] = w0;
	} else {
		switch ((bytes + 7) / 8) {
		case 4:
			p[3] = w3;
			fallthrough;
		case 3:
			p[2] = w2;
			fallthrough;
		case 2:
			p[1] = w1;
			fallthrough;
		case 1:
			p[0] = w0;
			break;
		}
	}
	ld_commit_rec(cb, r, LD_CTX_HERE);
}

/*
 * Everything ld_try_reserve_hdr() leaves: out of line, so that the address
 * of this reservation, which escapes to ld_reserve_slow(), is not the fast
 * path's (which keeps its own in registers).  @hdr1, @hdr2: the header
 * words, which hold the record's site, pid and length.
 */
static noinline void notrace ld_words_slow(struct ld_cpu_buf *cb, u64 hdr1,
					   u64 hdr2, u64 w0, u64 w1, u64 w2,
					   u64 w3)
{
	u32 bytes = ld_hdr_word2_bytes(hdr2);
	struct ld_resv r;

	if (likely(!ld_reserve_slow(cb, bytes, &r))) {
		ld_store_hdr_words(r.rec, hdr1, hdr2);
		ld_words_fill(cb, &r, bytes, w0, w1, w2, w3, 4);
	}
}

/*
 * One record of at most EDP_WORDS_MAX payload bytes held in @w0..@w3 (@nw
 * of them given, a constant).  The fast path keeps the reservation in
 * registers and brings the header into the clock call as two words
 * (ld_try_reserve_hdr()), which also carry what the slow path needs: with
 * the payload, the buffer and write_off, five values for the callee-saved
 * registers of x86-64, so nothing lives on the stack; this CPU's ld_pcpu is
 * reached %gs-relative, never through a pointer (docs/PERFORMANCE.md, "The
 * kernel fast path per kernel").
 */
static __always_inline void ld_words(struct logdev_site *site, u32 bytes, u64 w0,
				     u64 w1, u64 w2, u64 w3, const unsigned int nw)
{
	struct ld_cpu_buf *cb;
	/* filled before it is read: no CONFIG_INIT_STACK_ALL_ZERO stores */
	struct ld_resv r __edprint_noinit;
	u64 hdr1, hdr2;
	u32 pid;

	BUILD_BUG_ON(EDP_WORDS_MAX != 4 * sizeof(u64));
	BUILD_BUG_ON(LOGDEV_REC_HDR_SIZE % sizeof(u64));
	preempt_disable_notrace();
	if (unlikely(!ld_recording()))
		goto out;
	/* not from edprint(): never past the words given */
	if (unlikely(bytes > nw * sizeof(u64)))
		bytes = nw * sizeof(u64);
	cb = ld_this_cb();
	hdr1 = ld_hdr_word1(ld_site_id(site), ld_rec_len(bytes),
			    LOGDEV_REC_PRINT_SLOTS, ld_ctx());
	pid = current->pid;
	hdr2 = ld_hdr_word2(pid, bytes);
	/*
	 * From here the length and the byte count come out of the words
	 * (ld_hdr_word1_len(), ld_hdr_word2_bytes()): without this the
	 * compiler keeps them apart as well, two more values across the
	 * clock call, spilled.
	 */
	OPTIMIZER_HIDE_VAR(hdr1);
	OPTIMIZER_HIDE_VAR(hdr2);
	ld_note_task(cb, pid, LD_CTX_HERE);
	if (likely(ld_try_reserve_hdr(cb, &r, hdr1, hdr2)))
		ld_words_fill(cb, &r, ld_hdr_word2_bytes(hdr2), w0, w1, w2, w3, nw);
	else
		ld_words_slow(cb, hdr1, hdr2, w0, w1, w2, w3);
out:
	preempt_enable_notrace();
}

/**
 * __logdev_words() - record a LOGDEV_REC_PRINT_SLOTS record of at most 32
 * payload bytes given in registers; edprint() only
 * @site:  the call site (assigned an id on first use)
 * @bytes: payload bytes, at most EDP_WORDS_MAX
 * @w0: payload bytes 0-7 (a little-endian load of them); zero past @bytes
 * @w1: bytes 8-15
 * @w2: bytes 16-23
 * @w3: bytes 24-31
 *
 * __logdev_reserve(), the payload stores and __logdev_commit() in one call,
 * with nothing handed back.  Any context, NMI included (the ring core
 * nests).
 */
notrace void __logdev_words(struct logdev_site *site, u32 bytes, u64 w0, u64 w1,
			    u64 w2, u64 w3)
{
	ld_words(site, bytes, w0, w1, w2, w3, 4);
}
EXPORT_SYMBOL_GPL(__logdev_words);

/**
 * __logdev_words1() - __logdev_words() of at most 8 payload bytes
 * @site:  the call site (assigned an id on first use)
 * @bytes: payload bytes, at most 8
 * @w0:    the payload (a little-endian load of it); zero past @bytes
 */
notrace void __logdev_words1(struct logdev_site *site, u32 bytes, u64 w0)
{
	ld_words(site, bytes, w0, 0, 0, 0, 1);
}
EXPORT_SYMBOL_GPL(__logdev_words1);

#ifdef CONFIG_X86_64
/**
 * __logdev_strnlen() - strnlen() for edprint()'s %s arguments
 * @s:   the string (a pointer edp_str_src() let through)
 * @max: the most bytes counted (EDP_STR_MAX + 1, or a precision)
 *
 * strnlen() a word at a time: the aligned 8-byte words holding @s's first
 * @max bytes, each looked at for a zero byte at once (the kernel's
 * has_zero()/find_zero(), as its strscpy() does).  An aligned word never
 * crosses a page, so no word read can fault where strnlen() would not;
 * the bytes read before @s or past its NUL are masked out or ignored.  The kernel's strnlen() is a byte
 * loop: about 17 loads and branches for a 16-character string where this
 * takes 3 loads (docs/PERFORMANCE.md, "The kernel fast path per kernel").
 * Any context.
 *
 * Return: strnlen(@s, @max).
 */
notrace u32 __logdev_strnlen(const char *s, u32 max)
{
	const struct word_at_a_time c = WORD_AT_A_TIME_CONSTANTS;
	unsigned long off = (unsigned long)s & (sizeof(long) - 1);
	const char *p = s - off;
	unsigned long w, bits;
	u32 pos = 0, len;

	if (unlikely(!max))
		return 0;
	/*
	 * The word's bytes before @s (little-endian: its low ones) made 0xff.
	 * They may lie outside @s's object (a string literal is not
	 * aligned): KASAN is asked about @s's first byte, the word is read
	 * unchecked.  The later words start inside the string (or at its NUL).
	 */
	kasan_check_read(s, 1);
	w = READ_ONCE_NOCHECK(*(const unsigned long *)p) | ((1UL << (8 * off)) - 1);
	while (!has_zero(w, &bits, &c)) {
		pos += sizeof(long);
		if (pos - off >= max)
			return max;
		w = read_word_at_a_time(p + pos);
	}
	bits = prep_zero_mask(w, bits, &c);
	len = pos + find_zero(create_zero_mask(bits)) - off;
	return min(len, max);
}
EXPORT_SYMBOL_GPL(__logdev_strnlen);
#endif

/*
 * One whole record of @type with a ready payload; see the two callers.
 * @ctx: its context, LD_CTX_HERE or the caller's (also that of a comm
 * record written for it).
 */
static int notrace ld_write_ready(u8 type, u32 site_id, const void *payload,
				  u32 bytes, u8 ctx)
{
	struct ld_cpu_buf *cb;
	struct ld_resv r;
	int ret = -ENODATA;
	u32 pid, pad;

	preempt_disable_notrace();
	if (likely(ld_recording())) {
		cb = ld_this_cb();
		pid = current->pid;
		ld_note_task(cb, pid, ctx);
		ret = ld_reserve(cb, bytes, &r);
		if (likely(!ret)) {
			ld_fill_hdr(r.rec, site_id, type, ld_ctx_of(ctx), pid, bytes);
			if (bytes)
				memcpy(r.rec + 1, payload, bytes);
			pad = r.rec->len - LOGDEV_REC_HDR_SIZE - bytes;
			if (pad)
				memset((char *)(r.rec + 1) + bytes, 0, pad);
			ld_commit_rec(cb, &r, ctx);
		}
	}
	preempt_enable_notrace();
	return ret;
}

/**
 * logdev_write_raw() - store an opaque record in this CPU's buffer
 * @site_id: call-site id for the record (from logdev_site_id(), or 0)
 * @payload: bytes to store
 * @bytes:   length of @payload in bytes
 *
 * Any context, NMI included; never sleeps, locks or allocates.
 *
 * Return: 0 on success, -ENODATA if recording is off, or the negative
 * errno of the ring core.
 */
int notrace logdev_write_raw(u32 site_id, const void *payload, u32 bytes)
{
	return ld_write_ready(LOGDEV_REC_RAW, site_id, payload, bytes, LD_CTX_HERE);
}
EXPORT_SYMBOL_GPL(logdev_write_raw);

/**
 * ld_write_print() - store a LOGDEV_REC_PRINT record with a ready payload
 * @site_id: call-site id (0: unknown)
 * @payload: vbin_printf()-compatible argument words for the site's format
 * @bytes:   length of @payload in bytes (<= LOGDEV_MAX_PAYLOAD)
 * @int3:    the caller is a kprobe handler run by the breakpoint (int3)
 *           path (ld_probe_by_int3()): the record carries the context of
 *           the code the breakpoint interrupted (ld_ctx_under_int3()),
 *           not the NMI the kernel's int3 handler runs as
 *
 * For the run-time probes (logdev_probe_fetch.c): any context, NMI included,
 * never sleeps, locks or allocates.  The ring's own nesting is unchanged:
 * it does not depend on the context recorded (a breakpoint that interrupts
 * a writer nests in its reservation as an NMI does).
 *
 * Return: 0, -ENODATA if recording is off, or the ring core's errno.
 */
int notrace ld_write_print(u32 site_id, const void *payload, u32 bytes, bool int3)
{
	return ld_write_ready(LOGDEV_REC_PRINT, site_id, payload, bytes,
			      int3 ? ld_ctx_under_int3() : LD_CTX_HERE);
}
